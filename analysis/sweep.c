/* The accuracy engine (include/gelulab/sweep.h): chunks, threads, kernels of every source,
 * reference shared per chunk. The input spaces are in sweep_space.c, the binary64 local search
 * and hunt in sweep_search.c, kernels in child processes in sweep_child.c and kernel_src.c.
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

/* An input as the kernels get it: from its bits in the 16-bit formats, so that NaN payloads
 * (signaling ones too) reach them bit for bit; x itself rounded otherwise */
static float input_f32(const struct gl_sweep *s, uint64_t bits, double x)
{
    return s->fmt.id == GL_FMT_BF16 || s->fmt.id == GL_FMT_F16
               ? gl_bits16_to_f32(s->fmt.id, (uint16_t)bits)
               : (float)x;
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

void gl_sw_reference(const struct gl_sweep *s, enum gl_defn d, double x, double *yr,
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
    char why[600];
    struct gl_child *ch = k->kind == GL_SRC_EXEC ? NULL
                          : k->kind == GL_SRC_LIB || k->serve_lib[0]
                              ? &b->child[gl_kernel_src_lib_lead(s, ki)] /* one per library */
                              : &b->child[ki];                           /* one per thread */
    if (!gl_kernel_call(s, k, ch, b->cxf, b->dy1, b->ext_out[ki], n, NULL, why, sizeof why))
        return 0;
    pthread_mutex_lock(lock);
    int first = !k->failed;
    k->failed = 1; /* the other threads stop calling it */
    pthread_mutex_unlock(lock);
    if (!first) return -1;
    char where[700]; /* narrowed to the inputs that cause it ("" when not: interrupted, ...) */
    gl_kernel_narrow(s, k, b->cxf, k->backward ? b->dy1 : NULL, n, NULL, where, sizeof where);
    pthread_mutex_lock(lock);
    snprintf(k->error, sizeof k->error,
             "kernel %s %s on the chunk of inputs %a .. %a (chunk %llu, n = %llu)%s%s", k->name,
             why, b->cx[0], b->cx[n - 1], (unsigned long long)c, (unsigned long long)n,
             *where ? "; narrowed to " : "", where);
    pthread_mutex_unlock(lock);
    return -1;
}

/* Built-in kernel ks on the block's n inputs x (elements of es bytes; dy: b->dy1 for a backward
 * kernel) into out, on arrays against guard pages, as the library worker calls a library
 * kernel. A finding is a bug in gelulab's own kernel: said in one line, and gelulab ends (a
 * fault on a guard page ends it from the handler, with the same line). */
static void builtin_guarded(struct chunk_buf *b, const struct gl_kernel_src *ks, const void *x,
                            void *out, size_t es, uint64_t n)
{
    const struct gl_impl *im = ks->impl;
    int u16 = ks->abi != GL_ABI_F32, f64 = ks->f64 && !ks->backward;
    struct gl_lib_kernel lk = {!u16 && !f64 && !ks->backward ? im->f32 : NULL,
                               ks->backward ? im->bwd : NULL, u16 ? im->u16 : NULL, ks->abi,
                               f64 ? im->f64 : NULL};
    struct gl_guard_setup c = {n, es, 0, GL_GUARD_END, 0, ks->backward};
    char why[300] = "out of memory for its guarded arrays";
    if (gl_lib_kernel_guarded(&lk, b->guard, &c, x, ks->backward ? b->dy1 : NULL, n ? n : 1, 0, why,
                              sizeof why) != 0) {
        fprintf(stderr, "gelulab: built-in kernel %s %s (a bug in gelulab's kernel)\n", ks->name,
                why);
        exit(2);
    }
    memcpy(out, gl_guard_ptr(b->guard, GL_GUARD_Y), n * es);
}

/* Kernel k's results on the block at offset off of the chunk, in b->out[k] (and b->yf/b->yd). */
static void block_results(struct gl_sweep *s, struct chunk_buf *b, int k, uint64_t off, uint64_t n)
{
    struct gl_kernel_src *ks = &s->k[k];
    b->yf = b->out[k], b->yd = b->out[k];
    if (is_external(ks)) {
        memcpy(b->yf, b->ext_out[k] + off, n * sizeof(float));
    } else if (ks->abi != GL_ABI_F32) { /* on the inputs' bits, NaN payloads as they are */
        enum gl_format_id f = gl_abi_format(ks->abi);
        for (uint64_t i = 0; i < n; i++) b->xh[i] = (uint16_t)b->bits[i];
        builtin_guarded(b, ks, b->xh, b->yh, sizeof *b->yh, n);
        for (uint64_t i = 0; i < n; i++) b->yf[i] = gl_bits16_to_f32(f, b->yh[i]);
    } else if (ks->f64 && !ks->backward) {
        builtin_guarded(b, ks, b->xd, b->yd, sizeof *b->yd, n);
    } else {
        builtin_guarded(b, ks, b->xf, b->yf, sizeof *b->yf, n);
    }
}

/* Runs this long or longer are checked for being correctly rounded as a whole. */
#define CR_RUN_MIN 32

/* The special input x is (GL_SPECIAL_*), or -1; the quiet NaN with no payload stands for NaN. */
static int special_of(const struct gl_format *f, uint64_t bits, double x)
{
    static const uint64_t qnan[] = {[GL_FMT_F32] = 0x7fc00000u,
                                    [GL_FMT_BF16] = 0x7fc0u,
                                    [GL_FMT_F16] = 0x7e00u,
                                    [GL_FMT_F64] = 0x7ff8000000000000u};
    if (isnan(x))
        return (size_t)f->id < sizeof qnan / sizeof *qnan && bits == qnan[f->id] ? GL_SPECIAL_NAN
                                                                                 : -1;
    if (isinf(x)) return x > 0 ? GL_SPECIAL_PINF : GL_SPECIAL_NINF;
    return signbit(x) ? GL_SPECIAL_NZERO : GL_SPECIAL_PZERO;
}

/* The results at the special inputs of the run [i, i + n) into t */
static void run_specials(const struct gl_sweep *s, struct gl_traits *t, const struct chunk_buf *b,
                         uint64_t i, uint64_t n)
{
    for (uint64_t j = i; j < i + n; j++) {
        if (isfinite(b->x[j]) && b->x[j] != 0) continue;
        int sp = special_of(&s->fmt, b->bits[j], b->x[j]);
        if (sp >= 0) t->special[sp] = b->y[j], t->special_seen |= 1u << sp;
    }
}

/* The defects of a result y at x against the rounded reference yr (gl_traits), each written
 * once over binary64 scalars or GCC vectors of them alike, as analysis/acc_rules.h's rules:
 * comparisons give 1/0 on scalars and -1/0 lane masks on vectors; ax and ay are |x| and |y|.
 * The sign is x's for every GELU definition (sg = x) and the rounded reference's for a
 * derivative (sg = yr, which crosses zero); Phi above 1 applies to GELU only, at finite x, an
 * infinite y included (an overflow: oneDNN 3.13's AVX-512 gelu_erf gives +inf from x = 2^127,
 * where 0.5 x (1 + erf) overflows in x (1 + erf)). NaN inputs show none (the specials say what
 * they give). */
#define SW_ZERO_LOST(x, y, yr) (((y) == 0) & ((yr) != 0) & ((x) == (x)))
#define SW_WRONG_SIGN(x, sg, y)                                                                    \
    (((y) != 0) & ((y) == (y)) & ((sg) != 0) & ((sg) == (sg)) & ((x) == (x)) &                     \
     (((sg) < 0) != ((y) < 0)))
#define SW_PHI_ABOVE1(ax, ay) (((ay) > (ax)) & ((ax) < INFINITY))

/* bit q for trait q; grad: d is a derivative */
static unsigned defects_at(double x, double y, double yr, int grad)
{
    return (unsigned)SW_ZERO_LOST(x, y, yr) << GL_TRAIT_ZERO_LOST |
           (unsigned)SW_WRONG_SIGN(x, grad ? yr : x, y) << GL_TRAIT_WRONG_SIGN |
           (unsigned)(!grad && SW_PHI_ABOVE1(fabs(x), fabs(y))) << GL_TRAIT_PHI_ABOVE1;
}

typedef double VD4 __attribute__((vector_size(32)));
typedef int64_t VL4 __attribute__((vector_size(32)));

/* Whether any input of x[0..n) shows a defect, four lanes at a time (cloned for AVX2 on
 * x86-64, as the accumulator's fast path) */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static int
any_defect(const double *x, const double *y, const double *yr, uint64_t n, int grad)
{
    const VL4 abs = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
    const VL4 phi = {-!grad, -!grad, -!grad, -!grad};
    VL4 any = {0};
    uint64_t j = 0;
    for (; j + 4 <= n; j += 4) {
        VD4 vx, vy, vr;
        memcpy(&vx, x + j, sizeof vx), memcpy(&vy, y + j, sizeof vy);
        memcpy(&vr, yr + j, sizeof vr);
        VD4 ax = (VD4)((VL4)vx & abs), ay = (VD4)((VL4)vy & abs), sg = grad ? vr : vx;
        any |= SW_ZERO_LOST(vx, vy, vr) | SW_WRONG_SIGN(vx, sg, vy) | (SW_PHI_ABOVE1(ax, ay) & phi);
    }
    int found = (any[0] | any[1] | any[2] | any[3]) != 0;
    for (; !found && j < n; j++) found = defects_at(x[j], y[j], yr[j], grad) != 0;
    return found;
}

/* The defects among the results on the run [i, i + n) against definition d (gl_traits); none
 * where they equal the rounded reference (no zero lost, no sign or Phi wrong). NaN inputs count
 * in none (the specials say what they give). */
static void run_defects(struct gl_traits *t, enum gl_defn d, const struct chunk_buf *b, uint64_t i,
                        uint64_t n)
{
    const double *x = b->x + i, *y = b->y + i, *yr = b->yr[d] + i;
    int grad = gl_defn_is_grad(d);
    if (!any_defect(x, y, yr, n, grad)) return;
    for (uint64_t j = 0; j < n; j++) {
        unsigned is = defects_at(x[j], y[j], yr[j], grad);
        for (int q = 0; is && q < GL_TRAITS; q++) {
            if (!(is >> q & 1)) continue;
            if (!t->n[q] || x[j] < t->x_lo[q]) t->x_lo[q] = x[j];
            if (!t->n[q] || x[j] > t->x_hi[q]) t->x_hi[q] = x[j];
            t->n[q]++;
        }
    }
}

/* The statistics and defects against d of the results on run k (blk), from the block's memo
 * when an earlier kernel gave the same results there (same hash, same bytes as returned), else
 * computed and kept for the next; NULL when there is no memo or it is full. */
static const struct run_memo *memo_of(const struct gl_sweep *s, struct chunk_buf *b, enum gl_defn d,
                                      uint64_t k, const struct gl_block *blk)
{
    if (!b->memo) return NULL;
    size_t w = s->fmt.id == GL_FMT_F64 ? sizeof(double) : sizeof(float);
    const char *raw = s->fmt.id == GL_FMT_F64 ? (const char *)b->yd : (const char *)b->yf;
    raw += b->run_start[k] * w;
    for (int e = 0; e < b->nmemo; e++) {
        const struct run_memo *m = &b->memo[e];
        if (m->hash == b->run_hash[k] && m->run == k && m->d == d &&
            !memcmp(m->raw, raw, blk->n * w))
            return m;
    }
    if (b->nmemo == GL_SW_MEMO_MAX) return NULL;
    struct run_memo *m = &b->memo[b->nmemo++];
    m->hash = b->run_hash[k], m->run = k, m->d = d, m->raw = raw;
    gl_block_stats(&m->bs, blk);
    memset(&m->defects, 0, sizeof m->defects);
    run_defects(&m->defects, d, b, b->run_start[k], blk->n);
    return m;
}

void gl_sw_accumulate(struct gl_sweep *s, struct gl_acc *a, enum gl_defn d, struct chunk_buf *b)
{
    for (uint64_t k = 0; k < b->nruns; k++) {
        uint64_t i = b->run_start[k], n = b->run_start[k + 1] - i;
        struct gl_block blk = {&s->fmt,         b->binade[i],   b->region[i], n,
                               b->bits + i,     b->x + i,       b->y + i,     b->yr[d] + i,
                               b->scale[d] + i, b->side[d] + i, b->r[d] + i};
        int j = b->cr[d] ? b->cr_slot[k] : -1;
        a->traits.out_hash += b->run_hash[k];
        if (b->run_special[k]) run_specials(s, &a->traits, b, i, n);
        if (j < 0 || memcmp(b->y + i, b->yr[d] + i, n * sizeof *b->y)) {
            const struct run_memo *m = j < 0 ? NULL : memo_of(s, b, d, k, &blk);
            if (m) {
                gl_acc_add_block_stats(a, &blk, &m->bs);
                gl_traits_merge(&a->traits, &m->defects);
                continue;
            }
            gl_acc_add_block(a, &blk);
            run_defects(&a->traits, d, b, i, n);
            continue;
        }
        if (!b->cr_done[d][j]) gl_block_stats(&b->cr[d][j], &blk), b->cr_done[d][j] = 1;
        gl_acc_add_block_stats(a, &blk, &b->cr[d][j]);
    }
}

/* A hash of the run's first input bits and its results y[0..n): four interleaved multiply-xorshift
 * chains (independent, so that they overlap in the pipeline), combined in order. */
static uint64_t run_hash(uint64_t first_bits, const double *y, uint64_t n)
{
    const uint64_t m = 0xff51afd7ed558ccdu;
    uint64_t h[4], j = 0;
    for (int l = 0; l < 4; l++) h[l] = (first_bits + (uint64_t)l) * 0x9e3779b97f4a7c15u;
    for (; j + 4 <= n; j += 4)
        for (int l = 0; l < 4; l++) {
            uint64_t u;
            memcpy(&u, &y[j + l], sizeof u);
            h[l] = (h[l] ^ u) * m, h[l] ^= h[l] >> 32;
        }
    for (; j < n; j++) {
        uint64_t u;
        memcpy(&u, &y[j], sizeof u);
        h[0] = (h[0] ^ u) * m, h[0] ^= h[0] >> 32;
    }
    uint64_t c = ((h[0] * m + h[1]) * m + h[2]) * m + h[3];
    return c ^ c >> 29;
}

/* The kernel's results (in b->yf or b->yd) as doubles in b->y, rounded to the format, and the
 * hash of each run of inputs with them (b->run_hash): once per kernel and block, whatever the
 * definitions it is measured against. */
void gl_sw_results(const struct gl_sweep *s, struct chunk_buf *b, uint64_t n)
{
    if (s->fmt.id == GL_FMT_F64)
        memcpy(b->y, b->yd, n * sizeof *b->y);
    else if (s->fmt.id == GL_FMT_F32)
        for (uint64_t i = 0; i < n; i++) b->y[i] = b->yf[i];
    else
        for (uint64_t i = 0; i < n; i++) b->y[i] = gl_round_f32(&s->fmt, b->yf[i]);
    for (uint64_t k = 0; k < b->nruns; k++) {
        uint64_t i = b->run_start[k];
        b->run_hash[k] = run_hash(b->bits[i], b->y + i, b->run_start[k + 1] - i);
    }
}

/* The per-input quantities that do not depend on the kernel, once per block. */
void gl_sw_prepare(struct gl_sweep *s, struct chunk_buf *b, const int *need, uint64_t n)
{
    b->nruns = 0;
    for (uint64_t i = 0; i < n; i++) {
        int sign, exp;
        bits_fields(&s->fmt, b->bits[i], &sign, &exp);
        b->binade[i] = sign * GL_BINADES + exp;
        b->region[i] = gl_region_of(b->x[i]);
        for (int r = 0; r < s->nroot; r++)
            if (fabs(b->x[i] - s->root[r]) <= GL_ROOT_HALFWIDTH) b->region[i] = GL_REGION_ROOT;
        if (!i || b->binade[i] != b->binade[i - 1] || b->region[i] != b->region[i - 1])
            b->run_special[b->nruns] = 0, b->run_start[b->nruns++] = i;
        b->run_special[b->nruns - 1] |= !isfinite(b->x[i]) || b->x[i] == 0;
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
            gl_sw_reference(s, d, b->x[i], &b->yr[d][i], &b->r[d][i]);
    for (uint64_t i = 0; i < n; i++)
        b->xf[i] = input_f32(s, b->bits[i], b->x[i]), b->xd[i] = b->x[i];
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
        if (is_external(&s->k[j]) && s->k[j].defn == s->k[k].defn && b->role[j] != NOT_RUN &&
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
        ext |= is_external(&s->k[k]) && !s->k[k].failed && !s->k[k].reused;
    if (ext) {
        gl_sweep_chunk_inputs(s, c, b->cx, b->cbits);
        for (uint64_t i = 0; i < n; i++) b->cxf[i] = input_f32(s, b->cbits[i], b->cx[i]);
    }
    for (int k = 0; k < s->nk; k++) {
        struct gl_kernel_src *ks = &s->k[k];
        int ok = !ks->failed && !ks->reused &&
                 (!is_external(ks) || !run_external(s, ks, b, k, n, c, w->lock));
        b->role[k] = ok ? DIRECT : NOT_RUN;
        b->lead[k] = !ok ? k : is_external(ks) ? same_results_as(s, b, k, n) : w->twin_of[k];
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
        load_block(s, b, need, c, off, m);
        for (int k = 0; k < s->nk; k++) {
            if (!(roles >> b->role[k] & 1)) continue;
            block_results(s, b, k, off, m);
            if (b->role[k] == FOLLOW) {
                size_t bytes = m * (s->k[k].f64 ? sizeof(double) : sizeof(float));
                if (memcmp(b->out[b->lead[k]], b->out[k], bytes)) b->role[k] = DIVERGED;
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
        int j = b->lead[k];
        if (b->role[k] == LEAD || b->role[k] == FOLLOW)
            for (int a = 0; a < (s->k[k].defn == gl_defn_exact_of(s->k[k].defn) ? 1 : 2); a++)
                gl_acc_merge(w->acc[2 * k + a], b->cacc[2 * j + a]);
        if (b->role[k] != NOT_RUN) b->role[k] = b->role[k] == DIVERGED ? DIRECT : DONE;
    }
    chunk_pass(w, b, c, n, 1 << DIRECT); /* the followers that differed from their lead */
    if (s->fmt.id == GL_FMT_F64) gl_sw_search_chunk(s, b, w->acc, c, n);
    pthread_mutex_lock(w->lock);
    for (int k = 0; k < s->nk; k++) s->k[k].chunks_ok += b->role[k] != NOT_RUN;
    pthread_mutex_unlock(w->lock);
    s->chunk_done[c] = 1;
}

static void chunk_buf_init(struct chunk_buf *b, const struct gl_sweep *s)
{
    uint64_t cs = s->chunk_size, bs = cs < SUB ? cs : SUB;
    memset(b, 0, sizeof *b);
    b->guard = calloc(1, sizeof *b->guard);
    b->cx = malloc(cs * sizeof *b->cx), b->cbits = malloc(cs * sizeof *b->cbits);
    b->cxf = malloc(cs * sizeof *b->cxf), b->dy1 = malloc(cs * sizeof *b->dy1);
    for (uint64_t i = 0; i < cs; i++) b->dy1[i] = 1.0f;
    b->ext_out = calloc((size_t)s->nk, sizeof *b->ext_out);
    b->out = calloc((size_t)s->nk, sizeof *b->out);
    b->child = calloc((size_t)s->nk, sizeof *b->child);
    for (int k = 0; k < s->nk; k++) b->child[k].pid = -1;
    b->cacc = calloc(2 * (size_t)s->nk, sizeof *b->cacc);
    b->role = calloc((size_t)s->nk, sizeof *b->role);
    b->lead = calloc((size_t)s->nk, sizeof *b->lead);
    b->lead_of_any = calloc((size_t)s->nk, 1);
    for (int k = 0; k < s->nk; k++) {
        b->out[k] = malloc(bs * sizeof(double));
        if (is_external(&s->k[k])) b->ext_out[k] = malloc(cs * sizeof(float));
        if ((has_twin(s, k) && first_twin(s, k) == k) || is_external(&s->k[k]))
            for (int a = 0; a < 2; a++) b->cacc[2 * k + a] = malloc(sizeof(struct gl_acc));
    }
    b->x = malloc(bs * sizeof *b->x), b->bits = malloc(bs * sizeof *b->bits);
    b->xf = malloc(bs * sizeof *b->xf), b->xd = malloc(bs * sizeof *b->xd);
    b->xh = malloc(bs * sizeof *b->xh), b->yh = malloc(bs * sizeof *b->yh);
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
        free(b->out[k]), free(b->ext_out[k]), gl_child_stop(&b->child[k]);
    free(b->child);
    if (b->guard) gl_guard_free(b->guard), free(b->guard);
    for (int i = 0; i < 2 * s->nk; i++) free(b->cacc[i]);
    free(b->cx), free(b->cbits), free(b->cxf), free(b->dy1), free(b->ext_out), free(b->out),
        free(b->cacc);
    free(b->role), free(b->lead), free(b->lead_of_any), free(b->x), free(b->bits), free(b->xf),
        free(b->xd), free(b->xh), free(b->yh);
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
    snprintf(what, sizeof what, "sweep %s %s", s->fmt.name, gl_sweep_mode_name(s->mode));
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
    int failed = 0;
    for (int k = 0; k < s->nk; k++) {
        if (s->k[k].defn == gl_defn_exact_of(s->k[k].defn)) *s->k[k].acc[1] = *s->k[k].acc[0];
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
