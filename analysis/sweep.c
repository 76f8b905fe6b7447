/* The accuracy engine (include/gelulab/sweep.h): chunks, threads, kernels of every source,
 * reference shared per chunk. The input spaces are in sweep_space.c, a block's references,
 * results and statistics in sweep_block.c, the binary64 local search and hunt in
 * sweep_search.c, kernels in child processes in sweep_child.c and kernel_src.c.
 *
 * The reference is the fast certified path with its MPFR fallback (binary64: MPFR).
 * Statistics are gathered per chunk; a kernel whose results on a chunk are bit-identical to an
 * earlier kernel's of the same definition (the ISA builds of one algorithm; external kernels,
 * peers, that compute the same) takes that kernel's chunk statistics instead of recomputing
 * them: the same numbers, for a fraction of the time. Within a block, a run of inputs on which a
 * kernel is correctly rounded, or gives the same results as an earlier kernel, takes statistics
 * computed once per definition (the run caches). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gelulab/sweep.h"
#include "gelulab/guard.h"
#include "sweep_int.h"
#include "acc_rules.h"
#include "gelulab/progress.h"

/* ---- per-thread work ---- */

/* Built-in kernels run on blocks of SUB inputs inside a chunk: the reference, the kernel's
 * results and the statistics of a block stay in the core's cache (a chunk's worth of them
 * does not). External kernels run once per chunk (one child process each). */
#define SUB 4096

struct worker {
    struct gl_sweep *s;
    atomic_ulong *next, *done;
    uint64_t c_lo, c_hi;
    struct gl_acc **acc; /* [kernel * 2 + against] */
    pthread_mutex_t *lock;
    const int *twin_of, *twinned, *entry_twin; /* first_twin(), has_twin(), entry_twin() per
                                                * kernel, set once per run */
    /* where its time went (struct gl_kernel_result, struct gl_sweep): per kernel, running it
     * and measuring its results; the shared inputs and references; in all */
    double *run_s, *measure_s, shared_s, worker_s;
};

/* Runs external kernel k on the chunk (inputs b->cxf, results b->ext_out[k]); 0, or -1 after
 * recording the failure in k. */
static int run_external(struct gl_sweep *s, struct gl_kernel_src *k, struct chunk_buf *b, int ki,
                        uint64_t n, uint64_t c, pthread_mutex_t *lock)
{
    char why[600];
    struct gl_child *ch = k->kind == GL_SRC_EXEC ? NULL
                          : k->kind == GL_SRC_LIB || k->serve_lib[0]
                              ? &b->child[gl_kernel_src_lib_lead(s->k, ki)] /* one per library */
                              : &b->child[ki];                              /* one per thread */
    struct gl_runner r = gl_sweep_runner(s);
    if (!gl_kernel_call(&r, k, ch, b->cxf, b->dy1, b->ext_out[ki], n, NULL, why, sizeof why))
        return 0;
    struct gl_kernel_result *res = &s->res[ki];
    pthread_mutex_lock(lock);
    int first = !res->failed;
    res->failed = 1; /* the other threads stop calling it */
    pthread_mutex_unlock(lock);
    if (!first) return -1;
    char where[700]; /* narrowed to the inputs that cause it ("" when not: interrupted, ...) */
    gl_kernel_narrow(&r, k, b->cxf, k->backward ? b->dy1 : NULL, n, NULL, where, sizeof where);
    pthread_mutex_lock(lock);
    snprintf(res->error, sizeof res->error,
             "kernel %s %s on the chunk of inputs %a .. %a (chunk %llu, n = %llu)%s%s", k->name,
             why, b->cx[0], b->cx[n - 1], (unsigned long long)c, (unsigned long long)n,
             *where ? "; narrowed to " : "", where);
    pthread_mutex_unlock(lock);
    return -1;
}

/* The block of inputs [off, off + n) of chunk c, its references (definitions need[]) and
 * per-input quantities. */
static void load_block(struct gl_sweep *s, struct chunk_buf *b, const int *need, uint64_t c,
                       uint64_t off, uint64_t n)
{
    gl_sweep_inputs(s, c * s->chunk_size + off, c * s->chunk_size + off + n, b->x, b->bits);
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        if (need[d]) gl_sw_references(s, d, b->x, n, b->yr[d], b->r[d]);
    gl_sw_inputs_f32(s, b->bits, b->x, b->xf, n);
    memcpy(b->xd, b->x, n * sizeof *b->xd);
    gl_sw_prepare(s, b, need, n);
    b->nmemo = 0;
}

/* The first built-in kernel of the same algorithm and definition as k (name before '/': the
 * ISA builds of one algorithm; NEON builds run as external kernels), or k itself. */
static int first_twin(const struct gl_sweep *s, int k)
{
    size_t len = strcspn(s->k[k].name, "/");
    if (s->k[k].kind == GL_SRC_LIB || s->k[k].name[len] != '/') return k;
    for (int j = 0; j < s->nk; j++)
        if (s->k[j].defn == s->k[k].defn && s->k[j].kind != GL_SRC_LIB &&
            !strncmp(s->k[j].name, s->k[k].name, len + 1))
            return j;
    return k;
}

/* libgelulab's entry point "lib/NAME" and the first build "NAME/..." of the algorithm it
 * dispatches to (same definition, ABI and precision): for the later of the two, the earlier;
 * for any other kernel, k itself. The later follows the earlier block by block, as a twin
 * does, and is measured on its own where their results differ. In make report the entry
 * points come first (--all appends the built-ins), so there the entry point leads its builds. */
static int entry_twin(const struct gl_sweep *s, int k)
{
    for (int j = 0; j < k; j++) {
        int entry = s->k[k].kind == GL_SRC_LIB ? k : j, build = entry == k ? j : k;
        const struct gl_kernel_src *e = &s->k[entry], *b = &s->k[build];
        if (e->kind != GL_SRC_LIB || strncmp(e->name, "lib/", 4) || b->kind != GL_SRC_BUILTIN ||
            first_twin(s, build) != build || e->defn != b->defn || e->abi != b->abi ||
            e->f64 != b->f64 || e->backward != b->backward)
            continue;
        size_t len = strlen(e->name + 4);
        if (!strncmp(b->name, e->name + 4, len) && b->name[len] == '/') return j;
    }
    return k;
}

static int has_twin(const struct gl_sweep *s, int k)
{
    for (int j = 0; j < s->nk; j++)
        if (j != k && first_twin(s, j) == first_twin(s, k)) return 1;
    return 0;
}

/* Kernel k's statistics on the block, against its definition and against exact GELU. */
static void measure(struct gl_sweep *s, struct chunk_buf *b, struct gl_acc **acc, int k, uint64_t n)
{
    gl_sw_results(s, b, n);
    enum gl_defn d = s->k[k].defn, e = gl_defn_exact_of(d);
    for (int a = 0; a < (d == e ? 1 : 2); a++) gl_sw_accumulate(s, acc[2 * k + a], a ? e : d, b);
}

/* The first external kernel before k that ran on the chunk with k's definition and gave the
 * same bits on all of it, or k */
static int same_results_as(const struct gl_sweep *s, const struct chunk_buf *b, int k, uint64_t n)
{
    for (int j = 0; j < k; j++)
        if (gl_sw_is_external(&s->k[j]) && s->k[j].defn == s->k[k].defn && b->role[j] != NOT_RUN &&
            !memcmp(b->ext_out[j], b->ext_out[k], n * sizeof(float)))
            return j;
    return k;
}

/* Runs the external kernels on the whole chunk and sets every kernel's role: its lead (the
 * kernel whose statistics it takes, itself if none) and what it does in the passes. */
static void start_chunk(struct worker *w, struct chunk_buf *b, uint64_t c, uint64_t n)
{
    struct gl_sweep *s = w->s;
    int ext = 0;
    for (int k = 0; k < s->nk; k++)
        ext |= gl_sw_is_external(&s->k[k]) && !s->res[k].failed && !s->res[k].reused;
    if (ext) {
        double t0 = gl_monotonic_s();
        gl_sweep_chunk_inputs(s, c, b->cx, b->cbits);
        gl_sw_inputs_f32(s, b->cbits, b->cx, b->cxf, n);
        w->shared_s += gl_monotonic_s() - t0;
    }
    for (int k = 0; k < s->nk; k++) {
        struct gl_kernel_src *ks = &s->k[k];
        int ok = !s->res[k].failed && !s->res[k].reused, external = gl_sw_is_external(ks);
        if (ok && external) { /* its round trip, then the comparison with the earlier ones */
            double t0 = gl_monotonic_s();
            ok = !run_external(s, ks, b, k, n, c, w->lock);
            double t1 = gl_monotonic_s();
            w->run_s[k] += t1 - t0;
            b->lead[k] = ok ? same_results_as(s, b, k, n) : k;
            w->measure_s[k] += gl_monotonic_s() - t1;
        } else {
            b->lead[k] = !ok ? k : w->twin_of[k];
        }
        b->role[k] = ok ? DIRECT : NOT_RUN;
        if (ok && b->lead[k] == k) b->lead[k] = w->entry_twin[k]; /* an entry point, its build */
        if (b->lead[k] < k && b->role[b->lead[k]] == NOT_RUN) b->lead[k] = k;
        b->lead_of_any[k] = 0;
    }
    /* a lead that follows another (a built-in twin of an external kernel that follows an
     * earlier one): the first of the chain, whose statistics are the ones gathered */
    for (int k = 0; k < s->nk; k++)
        if (b->lead[k] < k) b->lead[k] = b->lead[b->lead[k]];
    for (int k = 0; k < s->nk; k++)
        if (b->lead[k] < k) b->lead_of_any[b->lead[k]] = 1;
    for (int k = 0; k < s->nk; k++) {
        if (b->role[k] == NOT_RUN) continue;
        int j = b->lead[k];
        b->role[k] = j < k ? FOLLOW : w->twinned[k] || b->lead_of_any[k] ? LEAD : DIRECT;
        if (b->role[k] == LEAD) /* a build whose first twin does not run (the store has it) */
            for (int a = 0; a < 2; a++) {
                if (!b->cacc[2 * k + a]) b->cacc[2 * k + a] = malloc(sizeof(struct gl_acc));
                gl_acc_init(b->cacc[2 * k + a]);
            }
    }
}

/* One pass over the chunk's blocks for the kernels whose role is in `roles`. */
static void chunk_pass(struct worker *w, struct chunk_buf *b, uint64_t c, uint64_t n, int roles)
{
    struct gl_sweep *s = w->s;
    int need[GL_DEFN_COUNT] = {0}, any = 0;
    for (int k = 0; k < s->nk; k++)
        if (roles >> b->role[k] & 1 && b->role[k] != FOLLOW)
            need[s->k[k].defn] = need[gl_defn_exact_of(s->k[k].defn)] = any = 1;
    for (uint64_t off = 0; any && off < n; off += SUB) {
        uint64_t m = n - off < SUB ? n - off : SUB;
        double t = gl_monotonic_s(), t0 = t;
        load_block(s, b, need, c, off, m);
        w->shared_s += (t = gl_monotonic_s()) - t0;
        for (int k = 0; k < s->nk; k++) {
            if (!(roles >> b->role[k] & 1)) continue;
            gl_sw_block_results(s, b, k, off, m);
            w->run_s[k] += (t0 = gl_monotonic_s()) - t;
            if (b->role[k] == FOLLOW) {
                size_t bytes = m * (s->k[k].f64 ? sizeof(double) : sizeof(float));
                if (memcmp(b->out[b->lead[k]], b->out[k], bytes)) b->role[k] = DIVERGED;
            } else {
                measure(s, b, b->role[k] == LEAD ? b->cacc : w->acc, k, m);
            }
            w->measure_s[k] += (t = gl_monotonic_s()) - t0;
        }
    }
}

static void process_chunk(struct worker *w, struct chunk_buf *b, uint64_t c)
{
    struct gl_sweep *s = w->s;
    uint64_t lo = c * s->chunk_size,
             n = s->n_inputs - lo < s->chunk_size ? s->n_inputs - lo : s->chunk_size;
    start_chunk(w, b, c, n);
    chunk_pass(w, b, c, n, 1 << DIRECT | 1 << LEAD | 1 << FOLLOW);
    for (int k = 0; k < s->nk; k++) {
        int j = b->lead[k];
        if (b->role[k] == LEAD || b->role[k] == FOLLOW)
            for (int a = 0; a < (s->k[k].defn == gl_defn_exact_of(s->k[k].defn) ? 1 : 2); a++)
                gl_acc_merge(w->acc[2 * k + a], b->cacc[2 * j + a]);
        if (b->role[k] != NOT_RUN) b->role[k] = b->role[k] == DIVERGED ? DIRECT : DONE;
    }
    chunk_pass(w, b, c, n, 1 << DIRECT); /* the followers that differed from their lead */
    if (s->fmt.id == GL_FMT_F64) gl_sw_search_chunk(s, b, w->acc, c, n);
    pthread_mutex_lock(w->lock);
    for (int k = 0; k < s->nk; k++) s->res[k].chunks_ok += b->role[k] != NOT_RUN;
    pthread_mutex_unlock(w->lock);
    s->chunk_done[c] = 1;
}

static void chunk_buf_init(struct chunk_buf *b, const struct gl_sweep *s)
{
    uint64_t cs = s->chunk_size, bs = cs < SUB ? cs : SUB;
    memset(b, 0, sizeof *b);
    b->guard = calloc((size_t)s->nk, sizeof *b->guard);
    b->cx = malloc(cs * sizeof *b->cx), b->cbits = malloc(cs * sizeof *b->cbits);
    b->cxf = malloc(cs * sizeof *b->cxf), b->dy1 = malloc(cs * sizeof *b->dy1);
    for (uint64_t i = 0; i < cs; i++) b->dy1[i] = 1.0f;
    b->ext_out = calloc((size_t)s->nk, sizeof *b->ext_out);
    b->out = calloc((size_t)s->nk, sizeof *b->out);
    b->out_own = calloc((size_t)s->nk, sizeof *b->out_own);
    b->child = calloc((size_t)s->nk, sizeof *b->child);
    for (int k = 0; k < s->nk; k++) b->child[k].pid = -1;
    b->cacc = calloc(2 * (size_t)s->nk, sizeof *b->cacc);
    b->role = calloc((size_t)s->nk, sizeof *b->role);
    b->lead = calloc((size_t)s->nk, sizeof *b->lead);
    b->lead_of_any = calloc((size_t)s->nk, 1);
    for (int k = 0; k < s->nk; k++) {
        b->out[k] = b->out_own[k] = malloc(bs * sizeof(double));
        if (gl_sw_is_external(&s->k[k])) b->ext_out[k] = malloc(cs * sizeof(float));
        if ((has_twin(s, k) && first_twin(s, k) == k) || gl_sw_is_external(&s->k[k]))
            for (int a = 0; a < 2; a++) b->cacc[2 * k + a] = malloc(sizeof(struct gl_acc));
    }
    b->x = malloc(bs * sizeof *b->x), b->bits = malloc(bs * sizeof *b->bits);
    b->xf = malloc(bs * sizeof *b->xf), b->xd = malloc(bs * sizeof *b->xd);
    b->xh = malloc(bs * sizeof *b->xh);
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        b->yr[d] = malloc(bs * sizeof *b->yr[d]), b->r[d] = malloc(bs * sizeof *b->r[d]);
        b->scale[d] = malloc(bs * sizeof *b->scale[d]),
        b->side[d] = malloc(bs * sizeof *b->side[d]);
        b->cr[d] = malloc((bs / CR_RUN_MIN + 1) * sizeof *b->cr[d]);
        b->cr_done[d] = malloc(bs / CR_RUN_MIN + 1);
    }
    b->binade = malloc(bs * sizeof *b->binade), b->region = malloc(bs * sizeof *b->region);
    b->run_start = malloc((bs + 1) * sizeof *b->run_start), b->y = malloc(bs * sizeof *b->y);
    b->run_hash = malloc((bs + 1) * sizeof *b->run_hash), b->run_special = malloc(bs + 1);
    b->memo = malloc(GL_SW_MEMO_MAX * sizeof *b->memo);
    b->cr_slot = malloc(bs * sizeof *b->cr_slot);
}

static void chunk_buf_free(struct chunk_buf *b, const struct gl_sweep *s)
{
    for (int k = 0; k < s->nk; k++)
        free(b->out_own[k]), free(b->ext_out[k]), gl_child_stop(&b->child[k]);
    free(b->child);
    for (int k = 0; b->guard && k < s->nk; k++) gl_guard_free(&b->guard[k]);
    free(b->guard);
    for (int i = 0; i < 2 * s->nk; i++) free(b->cacc[i]);
    free(b->cx), free(b->cbits), free(b->cxf), free(b->dy1), free(b->ext_out), free(b->out),
        free(b->out_own), free(b->cacc);
    free(b->role), free(b->lead), free(b->lead_of_any), free(b->x), free(b->bits), free(b->xf),
        free(b->xd), free(b->xh);
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        free(b->yr[d]), free(b->r[d]), free(b->scale[d]), free(b->side[d]), free(b->cr[d]),
            free(b->cr_done[d]);
    free(b->binade), free(b->region), free(b->run_start), free(b->y), free(b->cr_slot);
    free(b->run_hash), free(b->run_special), free(b->memo);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct gl_sweep *s = w->s;
    struct chunk_buf b;
    double t0 = gl_monotonic_s();
    chunk_buf_init(&b, s);
    for (;;) {
        if (s->run.stop && *s->run.stop) break;
        uint64_t c = w->c_lo + atomic_fetch_add(w->next, 1);
        if (c >= w->c_hi) break;
        process_chunk(w, &b, c);
        atomic_fetch_add(w->done, 1);
    }
    w->worker_s = gl_monotonic_s() - t0;
    chunk_buf_free(&b, s);
    gl_ref_thread_done();
    return NULL;
}

void gl_sweep_find_roots(struct gl_sweep *s)
{
    s->nroot = 0;
    for (int k = 0; k < s->nk; k++) {
        double x0 = gl_defn_root(s->k[k].defn), e = gl_defn_root(gl_defn_exact_of(s->k[k].defn));
        for (int j = 0; j < 2; j++) {
            double r = j ? e : x0;
            int seen = isnan(r);
            for (int i = 0; i < s->nroot; i++) seen |= s->root[i] == r;
            if (!seen && s->nroot < 4) s->root[s->nroot++] = r;
        }
    }
}

int gl_sweep_run(struct gl_sweep *s)
{
    double t0 = gl_monotonic_s();
    gl_sweep_layout(s);
    gl_guard_report_to(2, "gelulab: a built-in kernel "); /* a fault of one, in process */
    gl_sweep_find_roots(s);
    s->chunk_done = calloc(s->n_chunks, 1);
    uint64_t c_lo, c_hi;
    gl_sweep_shard_chunks(s, s->shard_k, s->shard_n, &c_lo, &c_hi);
    int nt = s->threads > 0 ? s->threads : 1;
    atomic_ulong next = 0, done = 0;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    struct worker *w = calloc((size_t)nt, sizeof *w);
    int *twin_of = calloc((size_t)s->nk + 1, sizeof *twin_of),
        *twinned = calloc((size_t)s->nk + 1, sizeof *twinned),
        *entry_of = calloc((size_t)s->nk + 1, sizeof *entry_of);
    for (int k = 0; k < s->nk; k++)
        twin_of[k] = first_twin(s, k), twinned[k] = has_twin(s, k), entry_of[k] = entry_twin(s, k);
    pthread_t *th = calloc((size_t)nt, sizeof *th);
    for (int k = 0; k < s->nk; k++)
        for (int a = 0; a < 2; a++) {
            s->res[k].acc[a] = malloc(sizeof(struct gl_acc));
            gl_acc_init(s->res[k].acc[a]);
        }
    for (int t = 0; t < nt; t++) {
        w[t] = (struct worker){s,
                               &next,
                               &done,
                               c_lo,
                               c_hi,
                               calloc(2 * (size_t)s->nk, sizeof(void *)),
                               &lock,
                               twin_of,
                               twinned,
                               entry_of,
                               calloc((size_t)s->nk, sizeof(double)),
                               calloc((size_t)s->nk, sizeof(double)),
                               0,
                               0};
        for (int i = 0; i < 2 * s->nk; i++) {
            w[t].acc[i] = malloc(sizeof(struct gl_acc));
            gl_acc_init(w[t].acc[i]);
        }
        pthread_create(&th[t], NULL, worker_main, &w[t]);
    }
    struct gl_progress prog;
    char what[64];
    snprintf(what, sizeof what, "sweep %s %s", s->fmt.name, gl_sweep_mode_name(s->mode));
    gl_progress_start(&prog, s->progress, what, "chunks", c_hi - c_lo);
    gl_progress_wait(&prog, &done, s->run.stop);
    for (int t = 0; t < nt; t++) {
        pthread_join(th[t], NULL);
        for (int k = 0; k < s->nk; k++)
            s->res[k].run_s += w[t].run_s[k], s->res[k].measure_s += w[t].measure_s[k];
        s->shared_s += w[t].shared_s, s->worker_s += w[t].worker_s;
        free(w[t].run_s), free(w[t].measure_s);
        for (int i = 0; i < 2 * s->nk; i++) {
            gl_acc_finish(w[t].acc[i]);
            gl_acc_merge(s->res[i / 2].acc[i % 2], w[t].acc[i]);
            free(w[t].acc[i]);
        }
        free(w[t].acc);
    }
    gl_progress_end(&prog, atomic_load(&done));
    free(w);
    free(th);
    free(twin_of);
    free(twinned);
    free(entry_of);
    s->interrupted = s->run.stop && *s->run.stop;
    s->wall_s = gl_monotonic_s() - t0;
    int failed = 0;
    for (int k = 0; k < s->nk; k++) {
        if (s->k[k].defn == gl_defn_exact_of(s->k[k].defn)) *s->res[k].acc[1] = *s->res[k].acc[0];
        failed |= s->res[k].failed;
    }
    return s->interrupted ? 130 : failed ? 2 : 0;
}

struct gl_kernel_src *gl_sweep_add_kernel(struct gl_sweep *s)
{
    struct gl_kernel_src *k = realloc(s->k, (size_t)(s->nk + 1) * sizeof *s->k);
    struct gl_kernel_result *res = realloc(s->res, (size_t)(s->nk + 1) * sizeof *s->res);
    if (k) s->k = k;
    if (res) s->res = res;
    if (!k || !res) {
        fprintf(stderr, "gelulab: out of memory for a sweep's kernels\n");
        exit(2);
    }
    memset(&s->k[s->nk], 0, sizeof *s->k), memset(&s->res[s->nk], 0, sizeof *s->res);
    return &s->k[s->nk++];
}

void gl_sweep_free(struct gl_sweep *s)
{
    for (int k = 0; k < s->nk; k++) free(s->res[k].acc[0]), free(s->res[k].acc[1]);
    free(s->k);
    free(s->res);
    free(s->chunk_done);
    s->k = NULL, s->nk = 0;
    s->res = NULL;
    s->chunk_done = NULL;
}
