/* The accuracy engine (include/gelulab/sweep.h): input spaces, chunks, threads, kernels of
 * every source, reference shared per chunk.
 *
 * Input spaces (index i -> x):
 *   f32 exhaustive  i in [0, 2^32): the bit pattern i                     chunks of 2^20
 *   f32 quick       i in [0, ceil(2^32/61)): the bit pattern 61 i          chunks of 2^20
 *   bf16, f16       i in [0, 65536): the bit pattern i (kernels compute in binary32 on the
 *                   value; their result is rounded to the format, nearest-even)  chunks of 4096
 *   f64             per sign and exponent field (4094 strata) PER inputs with hashed mantissas
 *                   (PER = 256 exhaustive, 16 quick), then D uniform on [-10, 10] (2^20 / 2^16);
 *                   then, unsharded only, local search: 64 neighbours of each kernel's 10 worst.
 * The reference is the fast certified path with its MPFR fallback (binary64: MPFR).
 * Statistics are gathered per chunk; a kernel whose results on a chunk are bit-identical to an
 * earlier kernel's of the same definition (the ISA builds of one algorithm) takes that kernel's
 * chunk statistics instead of recomputing them: the same numbers, for a fraction of the time. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gelulab/sweep.h"
#include "acc_rules.h"
#include "progress.h"

#define F64_STRATA 4094

static uint64_t mix(uint64_t h) /* splitmix64 finaliser */
{
    h += 0x9e3779b97f4a7c15ull;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

static uint64_t f64_per(const struct gl_sweep *s)
{
    return s->mode == GL_SWEEP_EXHAUSTIVE ? 256 : 16;
}

void gl_sweep_layout(struct gl_sweep *s)
{
    switch (s->fmt.id) {
    case GL_FMT_F32:
        s->n_inputs = s->mode == GL_SWEEP_EXHAUSTIVE ? 1ull << 32 : ((1ull << 32) + 60) / 61;
        s->chunk_size = 1u << 20;
        break;
    case GL_FMT_F64:
        s->n_inputs =
            F64_STRATA * f64_per(s) + (s->mode == GL_SWEEP_EXHAUSTIVE ? 1u << 20 : 1u << 16);
        s->chunk_size = 4096;
        break;
    default:
        s->n_inputs = 65536;
        s->chunk_size = 4096;
    }
    s->n_chunks = (s->n_inputs + s->chunk_size - 1) / s->chunk_size;
}

static double bits_to_value(const struct gl_format *f, uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float v;
    double d;
    switch (f->id) {
    case GL_FMT_F32:
        memcpy(&v, &u, 4);
        return v;
    case GL_FMT_BF16:
        return gl_bf16_to_f32((uint16_t)bits);
    case GL_FMT_F16:
        return gl_f16_to_f32((uint16_t)bits);
    default:
        memcpy(&d, &bits, 8);
        return d;
    }
}

static uint64_t f64_input_bits(const struct gl_sweep *s, uint64_t i)
{
    uint64_t per = f64_per(s), h = mix(i);
    if (i < F64_STRATA * per) {
        uint64_t stratum = i / per;
        return (stratum & 1) << 63 | (stratum >> 1) << 52 | (h & 0xfffffffffffffull);
    }
    double x = (double)(h >> 11) * 0x1p-53 * 20.0 - 10.0;
    uint64_t b;
    memcpy(&b, &x, 8);
    return b;
}

uint64_t gl_sweep_chunk_inputs(const struct gl_sweep *s, uint64_t c, double *x, uint64_t *xbits)
{
    uint64_t lo = c * s->chunk_size, hi = lo + s->chunk_size;
    if (hi > s->n_inputs) hi = s->n_inputs;
    gl_sweep_inputs(s, lo, hi, x, xbits);
    return hi - lo;
}

void gl_sweep_inputs(const struct gl_sweep *s, uint64_t lo, uint64_t hi, double *x, uint64_t *xbits)
{
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t b = s->fmt.id == GL_FMT_F64                                ? f64_input_bits(s, i)
                     : s->fmt.id == GL_FMT_F32 && s->mode == GL_SWEEP_QUICK ? (i * 61) & 0xffffffffu
                                                                            : i;
        xbits[i - lo] = b;
        x[i - lo] = bits_to_value(&s->fmt, b);
    }
}

/* sign and exponent field of x's bits in the format */
static void bits_fields(const struct gl_format *f, uint64_t b, int *sign, int *exp)
{
    switch (f->id) {
    case GL_FMT_F32:
        *sign = (int)(b >> 31) & 1, *exp = (int)(b >> 23) & 0xff;
        break;
    case GL_FMT_BF16:
        *sign = (int)(b >> 15) & 1, *exp = (int)(b >> 7) & 0xff;
        break;
    case GL_FMT_F16:
        *sign = (int)(b >> 15) & 1, *exp = (int)(b >> 10) & 0x1f;
        break;
    default:
        *sign = (int)(b >> 63), *exp = (int)(b >> 52) & 0x7ff;
    }
}

static double round_to_fmt(const struct gl_format *f, float y)
{
    if (f->id == GL_FMT_BF16) {
        if (isnan(y)) return y;
        uint32_t u;
        memcpy(&u, &y, 4);
        u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u;
        memcpy(&y, &u, 4);
        return y;
    }
    if (f->id == GL_FMT_F16) return (double)(float)(_Float16)y;
    return y;
}

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
    const int *twin_of, *twinned; /* first_twin() and has_twin() per kernel, set once per run */
};

/* A kernel's part in a chunk. The ISA builds of one algorithm are twins: the first (the lead)
 * gathers its chunk statistics apart and hands them to every twin whose results were
 * bit-identical on the whole chunk (a follower); a follower that differs anywhere is measured
 * on its own in a second pass over the chunk. */
enum role { DIRECT, LEAD, FOLLOW, DIVERGED, NOT_RUN, DONE };

struct chunk_buf {
    /* the chunk (external kernels) */
    double *cx;
    uint64_t *cbits;
    float *cxf;
    float **ext_out;        /* per external kernel: its results on the chunk */
    struct gl_child *child; /* per library kernel: its worker process (pid -1: none yet) */
    /* the block */
    double *x, *yr[GL_DEFN_COUNT];
    uint64_t *bits;
    struct gl_dd *r[GL_DEFN_COUNT];
    float *xf, *yf;
    double *xd, *yd;
    void **out; /* per kernel: its results on the block */
    /* per input, shared by all kernels: binade and region of x, 1/ulp of each reference and
     * where it lies from its rounding */
    int *binade, *region;
    double *scale[GL_DEFN_COUNT], *side[GL_DEFN_COUNT];
    /* runs of inputs with the same binade and region: run_start[0..nruns], last = n */
    uint64_t *run_start, nruns;
    /* per definition and run: the statistics of a correctly rounded kernel (y = yr) on the run,
     * computed when a first kernel is correctly rounded on the whole run (cr_done), added for
     * every such kernel; NULL (local search): not kept */
    struct gl_block_stats *cr[GL_DEFN_COUNT];
    unsigned char *cr_done[GL_DEFN_COUNT];
    int *cr_slot; /* per run: its index in cr[d] and cr_done[d], -1 when too short to check */
    double *y;    /* the kernel's results as doubles, rounded to the format */
    struct gl_acc **cacc; /* [kernel * 2 + against]: a lead's chunk statistics */
    enum role *role;
};

static void reference(const struct gl_sweep *s, enum gl_defn d, double x, double *yr,
                      struct gl_dd *r)
{
    if (s->fmt.id == GL_FMT_F64 || !s->use_fast_ref)
        gl_ref_d(d, x, &s->fmt, yr, r);
    else
        *yr = gl_ref_f32(d, (float)x, &s->fmt, r);
}

static int is_external(const struct gl_kernel_src *k)
{
    return k->kind != GL_SRC_BUILTIN;
}

/* Runs external kernel k on the chunk (inputs b->cxf, results b->ext_out[k]); 0, or -1 after
 * recording the failure in k. */
static int run_external(struct gl_sweep *s, struct gl_kernel_src *k, struct chunk_buf *b, int ki,
                        uint64_t n, uint64_t c, pthread_mutex_t *lock)
{
    char cmd[1400], why[300];
    if (k->kind == GL_SRC_LIB) {
        size_t pl = strcspn(k->cmd, "\n");
#ifdef __SANITIZE_ADDRESS__ /* let a crashing worker die of its signal, as in a normal build */
        const char *env =
            "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0 ";
#else
        const char *env = "";
#endif
        snprintf(cmd, sizeof cmd, "exec env %s'%s' __eval-lib --serve '%.*s' '%s'", env,
                 s->self_exe, (int)pl, k->cmd, k->cmd + pl + 1);
        struct gl_child *ch = &b->child[ki]; /* started once per worker thread */
        if ((ch->pid >= 0 || !gl_child_start(ch, cmd, why, sizeof why)) &&
            !gl_child_call(ch, b->cxf, n * 4, b->ext_out[ki], n * 4, s->timeout_s, why, sizeof why))
            return 0;
    } else {
        snprintf(cmd, sizeof cmd, "%s", k->cmd);
        if (!gl_run_child(cmd, b->cxf, n * 4, b->ext_out[ki], n * 4, s->timeout_s, why, sizeof why))
            return 0;
    }
    pthread_mutex_lock(lock);
    if (!k->failed) {
        k->failed = 1;
        snprintf(k->error, sizeof k->error, "kernel %s %s on inputs %a .. %a (chunk %llu)", k->name,
                 why, b->cx[0], b->cx[n - 1], (unsigned long long)c);
    }
    pthread_mutex_unlock(lock);
    return -1;
}

/* Kernel k's results on the block at offset off of the chunk, in b->out[k] (and b->yf/b->yd). */
static void block_results(struct gl_sweep *s, struct chunk_buf *b, int k, uint64_t off, uint64_t n)
{
    struct gl_kernel_src *ks = &s->k[k];
    b->yf = b->out[k], b->yd = b->out[k];
    if (is_external(ks))
        memcpy(b->yf, b->ext_out[k] + off, n * sizeof(float));
    else if (ks->f64)
        ks->impl->f64(b->xd, b->yd, n);
    else
        ks->impl->f32(b->xf, b->yf, n);
}

/* Runs this long or longer are checked for being correctly rounded as a whole. */
#define CR_RUN_MIN 32

static void accumulate(struct gl_sweep *s, struct gl_acc *a, enum gl_defn d, struct chunk_buf *b)
{
    for (uint64_t k = 0; k < b->nruns; k++) {
        uint64_t i = b->run_start[k], n = b->run_start[k + 1] - i;
        struct gl_block blk = {&s->fmt,         b->binade[i],   b->region[i], n,
                               b->bits + i,     b->x + i,       b->y + i,     b->yr[d] + i,
                               b->scale[d] + i, b->side[d] + i, b->r[d] + i};
        int j = b->cr[d] ? b->cr_slot[k] : -1;
        if (j < 0 || memcmp(b->y + i, b->yr[d] + i, n * sizeof *b->y)) {
            gl_acc_add_block(a, &blk);
            continue;
        }
        if (!b->cr_done[d][j]) gl_block_stats(&b->cr[d][j], &blk), b->cr_done[d][j] = 1;
        gl_acc_add_block_stats(a, &blk, &b->cr[d][j]);
    }
}

/* The kernel's results (in b->yf or b->yd) as doubles in b->y, rounded to the format. */
static void results_to_double(const struct gl_sweep *s, struct chunk_buf *b, uint64_t n)
{
    if (s->fmt.id == GL_FMT_F64)
        memcpy(b->y, b->yd, n * sizeof *b->y);
    else if (s->fmt.id == GL_FMT_F32)
        for (uint64_t i = 0; i < n; i++) b->y[i] = b->yf[i];
    else
        for (uint64_t i = 0; i < n; i++) b->y[i] = round_to_fmt(&s->fmt, b->yf[i]);
}

/* The per-input quantities that do not depend on the kernel, once per block. */
static void prepare(struct gl_sweep *s, struct chunk_buf *b, const int *need, uint64_t n)
{
    b->nruns = 0;
    for (uint64_t i = 0; i < n; i++) {
        int sign, exp;
        bits_fields(&s->fmt, b->bits[i], &sign, &exp);
        b->binade[i] = sign * GL_BINADES + exp;
        b->region[i] = gl_region_of(b->x[i]);
        if (!i || b->binade[i] != b->binade[i - 1] || b->region[i] != b->region[i - 1])
            b->run_start[b->nruns++] = i;
    }
    b->run_start[b->nruns] = n;
    int slots = 0;
    for (uint64_t k = 0; b->cr_slot && k < b->nruns; k++)
        b->cr_slot[k] = b->run_start[k + 1] - b->run_start[k] >= CR_RUN_MIN ? slots++ : -1;
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        if (b->cr[d]) memset(b->cr_done[d], 0, (size_t)slots);
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        for (uint64_t i = 0; need[d] && i < n; i++) {
            b->scale[d][i] = gl_ulp_scale(b->r[d][i], &s->fmt);
            b->side[d][i] = GL_RULE_SIDE(b->r[d][i].hi, b->r[d][i].lo, b->yr[d][i]);
        }
}

/* The block of inputs [off, off + n) of chunk c, its references (definitions need[]) and
 * per-input quantities. */
static void load_block(struct gl_sweep *s, struct chunk_buf *b, const int *need, uint64_t c,
                       uint64_t off, uint64_t n)
{
    gl_sweep_inputs(s, c * s->chunk_size + off, c * s->chunk_size + off + n, b->x, b->bits);
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        for (uint64_t i = 0; need[d] && i < n; i++)
            reference(s, d, b->x[i], &b->yr[d][i], &b->r[d][i]);
    for (uint64_t i = 0; i < n; i++) b->xf[i] = (float)b->x[i], b->xd[i] = b->x[i];
    prepare(s, b, need, n);
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

static int has_twin(const struct gl_sweep *s, int k)
{
    for (int j = 0; j < s->nk; j++)
        if (j != k && first_twin(s, j) == first_twin(s, k)) return 1;
    return 0;
}

/* Kernel k's statistics on the block, against its definition and against exact GELU. */
static void measure(struct gl_sweep *s, struct chunk_buf *b, struct gl_acc **acc, int k, uint64_t n)
{
    results_to_double(s, b, n);
    for (int a = 0; a < (s->k[k].defn == GL_DEFN_EXACT ? 1 : 2); a++)
        accumulate(s, acc[2 * k + a], a ? GL_DEFN_EXACT : s->k[k].defn, b);
}

/* Runs the external kernels on the whole chunk and sets every kernel's role. */
static void start_chunk(struct worker *w, struct chunk_buf *b, uint64_t c, uint64_t n)
{
    struct gl_sweep *s = w->s;
    int ext = 0;
    for (int k = 0; k < s->nk; k++) ext |= is_external(&s->k[k]) && !s->k[k].failed;
    if (ext) {
        gl_sweep_chunk_inputs(s, c, b->cx, b->cbits);
        for (uint64_t i = 0; i < n; i++) b->cxf[i] = (float)b->cx[i];
    }
    for (int k = 0; k < s->nk; k++) {
        struct gl_kernel_src *ks = &s->k[k];
        int ok = !ks->failed && (!is_external(ks) || !run_external(s, ks, b, k, n, c, w->lock));
        int j = w->twin_of[k];
        b->role[k] = !ok                              ? NOT_RUN
                     : j < k && b->role[j] != NOT_RUN ? FOLLOW
                     : w->twinned[k] && j == k        ? LEAD
                                                      : DIRECT;
        if (b->role[k] == LEAD)
            for (int a = 0; a < 2; a++) gl_acc_init(b->cacc[2 * k + a]);
    }
}

/* One pass over the chunk's blocks for the kernels whose role is in `roles`. */
static void chunk_pass(struct worker *w, struct chunk_buf *b, uint64_t c, uint64_t n, int roles)
{
    struct gl_sweep *s = w->s;
    int need[GL_DEFN_COUNT] = {0}, any = 0;
    for (int k = 0; k < s->nk; k++)
        if (roles >> b->role[k] & 1 && b->role[k] != FOLLOW)
            need[s->k[k].defn] = need[GL_DEFN_EXACT] = any = 1;
    for (uint64_t off = 0; any && off < n; off += SUB) {
        uint64_t m = n - off < SUB ? n - off : SUB;
        load_block(s, b, need, c, off, m);
        for (int k = 0; k < s->nk; k++) {
            if (!(roles >> b->role[k] & 1)) continue;
            block_results(s, b, k, off, m);
            if (b->role[k] == FOLLOW) {
                size_t bytes = m * (s->k[k].f64 ? sizeof(double) : sizeof(float));
                if (memcmp(b->out[w->twin_of[k]], b->out[k], bytes)) b->role[k] = DIVERGED;
                continue;
            }
            measure(s, b, b->role[k] == LEAD ? b->cacc : w->acc, k, m);
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
        int j = w->twin_of[k];
        if (b->role[k] == LEAD || b->role[k] == FOLLOW)
            for (int a = 0; a < (s->k[k].defn == GL_DEFN_EXACT ? 1 : 2); a++)
                gl_acc_merge(w->acc[2 * k + a], b->cacc[2 * j + a]);
        if (b->role[k] != NOT_RUN) b->role[k] = b->role[k] == DIVERGED ? DIRECT : DONE;
    }
    chunk_pass(w, b, c, n, 1 << DIRECT); /* the followers that differed from their lead */
    pthread_mutex_lock(w->lock);
    for (int k = 0; k < s->nk; k++) s->k[k].chunks_ok += b->role[k] != NOT_RUN;
    pthread_mutex_unlock(w->lock);
    s->chunk_done[c] = 1;
}

static void chunk_buf_init(struct chunk_buf *b, const struct gl_sweep *s)
{
    uint64_t cs = s->chunk_size, bs = cs < SUB ? cs : SUB;
    memset(b, 0, sizeof *b);
    b->cx = malloc(cs * sizeof *b->cx), b->cbits = malloc(cs * sizeof *b->cbits);
    b->cxf = malloc(cs * sizeof *b->cxf);
    b->ext_out = calloc((size_t)s->nk, sizeof *b->ext_out);
    b->out = calloc((size_t)s->nk, sizeof *b->out);
    b->child = calloc((size_t)s->nk, sizeof *b->child);
    for (int k = 0; k < s->nk; k++) b->child[k].pid = -1;
    b->cacc = calloc(2 * (size_t)s->nk, sizeof *b->cacc);
    b->role = calloc((size_t)s->nk, sizeof *b->role);
    for (int k = 0; k < s->nk; k++) {
        b->out[k] = malloc(bs * sizeof(double));
        if (is_external(&s->k[k])) b->ext_out[k] = malloc(cs * sizeof(float));
        if (has_twin(s, k) && first_twin(s, k) == k)
            for (int a = 0; a < 2; a++) b->cacc[2 * k + a] = malloc(sizeof(struct gl_acc));
    }
    b->x = malloc(bs * sizeof *b->x), b->bits = malloc(bs * sizeof *b->bits);
    b->xf = malloc(bs * sizeof *b->xf), b->xd = malloc(bs * sizeof *b->xd);
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        b->yr[d] = malloc(bs * sizeof *b->yr[d]), b->r[d] = malloc(bs * sizeof *b->r[d]);
        b->scale[d] = malloc(bs * sizeof *b->scale[d]),
        b->side[d] = malloc(bs * sizeof *b->side[d]);
        b->cr[d] = malloc((bs / CR_RUN_MIN + 1) * sizeof *b->cr[d]);
        b->cr_done[d] = malloc(bs / CR_RUN_MIN + 1);
    }
    b->binade = malloc(bs * sizeof *b->binade), b->region = malloc(bs * sizeof *b->region);
    b->run_start = malloc((bs + 1) * sizeof *b->run_start), b->y = malloc(bs * sizeof *b->y);
    b->cr_slot = malloc(bs * sizeof *b->cr_slot);
}

static void chunk_buf_free(struct chunk_buf *b, const struct gl_sweep *s)
{
    for (int k = 0; k < s->nk; k++)
        free(b->out[k]), free(b->ext_out[k]), gl_child_stop(&b->child[k]);
    free(b->child);
    for (int i = 0; i < 2 * s->nk; i++) free(b->cacc[i]);
    free(b->cx), free(b->cbits), free(b->cxf), free(b->ext_out), free(b->out), free(b->cacc);
    free(b->role), free(b->x), free(b->bits), free(b->xf), free(b->xd);
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        free(b->yr[d]), free(b->r[d]), free(b->scale[d]), free(b->side[d]), free(b->cr[d]),
            free(b->cr_done[d]);
    free(b->binade), free(b->region), free(b->run_start), free(b->y), free(b->cr_slot);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct gl_sweep *s = w->s;
    struct chunk_buf b;
    chunk_buf_init(&b, s);
    for (;;) {
        if (s->stop && *s->stop) break;
        uint64_t c = w->c_lo + atomic_fetch_add(w->next, 1);
        if (c >= w->c_hi) break;
        process_chunk(w, &b, c);
        atomic_fetch_add(w->done, 1);
    }
    chunk_buf_free(&b, s);
    gl_ref_thread_done();
    return NULL;
}

/* binary64: evaluate 64 neighbours of each kernel's worst inputs (unsharded runs only) */
static void local_search(struct gl_sweep *s)
{
    struct chunk_buf b = {0};
    enum { N = GL_TOPK * 64 };
    double *x = malloc(N * sizeof *x), *yr = malloc(N * sizeof *yr), *xd = malloc(N * sizeof *xd),
           *yd = malloc(N * sizeof *yd);
    uint64_t *bits = malloc(N * sizeof *bits);
    struct gl_dd *r = malloc(N * sizeof *r);
    for (int k = 0; k < s->nk; k++) {
        struct gl_kernel_src *ks = &s->k[k];
        if (ks->failed || !ks->acc[0]) continue;
        uint64_t n = 0;
        for (int t = 0; t < ks->acc[0]->ntop; t++) {
            double c = ks->acc[0]->top[t].x;
            for (int j = -32; j <= 32 && isfinite(c); j++) {
                if (j == 0) continue;
                double v = c;
                for (int m = 0; m < abs(j); m++) v = nextafter(v, j < 0 ? -INFINITY : INFINITY);
                x[n] = xd[n] = v;
                memcpy(&bits[n], &v, 8);
                n++;
            }
        }
        b.x = x, b.bits = bits, b.xd = xd, b.yd = yd;
        int bin[N], reg[N], need[GL_DEFN_COUNT] = {0};
        uint64_t runs[N + 1];
        double *sc = malloc(N * sizeof *sc), *side = malloc(N * sizeof *side),
               *yy = malloc(N * sizeof *yy);
        b.binade = bin, b.region = reg, b.run_start = runs, b.y = yy;
        for (int d = 0; d < GL_DEFN_COUNT; d++) b.scale[d] = sc, b.side[d] = side;
        for (int against = 0; against < (ks->defn == GL_DEFN_EXACT ? 1 : 2); against++) {
            enum gl_defn d = against ? GL_DEFN_EXACT : ks->defn;
            for (uint64_t i = 0; i < n; i++) reference(s, d, x[i], &yr[i], &r[i]);
            b.yr[d] = yr, b.r[d] = r;
            memset(need, 0, sizeof need);
            need[d] = 1;
            prepare(s, &b, need, n);
            ks->impl->f64(xd, yd, n);
            results_to_double(s, &b, n);
            accumulate(s, ks->acc[against], d, &b);
            gl_acc_finish(ks->acc[against]);
        }
        free(sc), free(side), free(yy);
    }
    free(x), free(yr), free(xd), free(yd), free(bits), free(r);
}

int gl_sweep_run(struct gl_sweep *s)
{
    gl_sweep_layout(s);
    s->chunk_done = calloc(s->n_chunks, 1);
    uint64_t c_lo = s->n_chunks * (uint64_t)(s->shard_k - 1) / (uint64_t)s->shard_n;
    uint64_t c_hi = s->n_chunks * (uint64_t)s->shard_k / (uint64_t)s->shard_n;
    int nt = s->threads > 0 ? s->threads : 1;
    atomic_ulong next = 0, done = 0;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    struct worker *w = calloc((size_t)nt, sizeof *w);
    int *twin_of = calloc((size_t)s->nk + 1, sizeof *twin_of),
        *twinned = calloc((size_t)s->nk + 1, sizeof *twinned);
    for (int k = 0; k < s->nk; k++) twin_of[k] = first_twin(s, k), twinned[k] = has_twin(s, k);
    pthread_t *th = calloc((size_t)nt, sizeof *th);
    for (int k = 0; k < s->nk; k++)
        for (int a = 0; a < 2; a++) {
            s->k[k].acc[a] = malloc(sizeof(struct gl_acc));
            gl_acc_init(s->k[k].acc[a]);
        }
    for (int t = 0; t < nt; t++) {
        w[t] = (struct worker){s,     &next,   &done,
                               c_lo,  c_hi,    calloc(2 * (size_t)s->nk, sizeof(void *)),
                               &lock, twin_of, twinned};
        for (int i = 0; i < 2 * s->nk; i++) {
            w[t].acc[i] = malloc(sizeof(struct gl_acc));
            gl_acc_init(w[t].acc[i]);
        }
        pthread_create(&th[t], NULL, worker_main, &w[t]);
    }
    struct gl_progress prog;
    char what[64];
    snprintf(what, sizeof what, "sweep %s %s", s->fmt.name,
             s->mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : "quick");
    gl_progress_start(&prog, s->progress, what, "chunks", c_hi - c_lo);
    gl_progress_wait(&prog, &done, s->stop);
    for (int t = 0; t < nt; t++) {
        pthread_join(th[t], NULL);
        for (int i = 0; i < 2 * s->nk; i++) {
            gl_acc_finish(w[t].acc[i]);
            gl_acc_merge(s->k[i / 2].acc[i % 2], w[t].acc[i]);
            free(w[t].acc[i]);
        }
        free(w[t].acc);
    }
    gl_progress_end(&prog, atomic_load(&done));
    free(w);
    free(th);
    free(twin_of);
    free(twinned);
    s->interrupted = s->stop && *s->stop;
    if (s->fmt.id == GL_FMT_F64 && s->shard_n == 1 && !s->interrupted) local_search(s);
    int failed = 0;
    for (int k = 0; k < s->nk; k++) {
        if (s->k[k].defn == GL_DEFN_EXACT) *s->k[k].acc[1] = *s->k[k].acc[0];
        failed |= s->k[k].failed;
    }
    return s->interrupted ? 130 : failed ? 2 : 0;
}

void gl_sweep_free(struct gl_sweep *s)
{
    for (int k = 0; k < s->nk; k++) free(s->k[k].acc[0]), free(s->k[k].acc[1]);
    free(s->k);
    free(s->chunk_done);
    s->k = NULL;
    s->chunk_done = NULL;
}
