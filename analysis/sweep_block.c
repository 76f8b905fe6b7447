/* A block of the sweep (analysis/sweep_int.h): its inputs as the kernels get them, its
 * references, a kernel's results on it (built-ins against guard pages), and their statistics
 * and defects against a definition, with the runs' caches (correctly rounded runs, results seen
 * before). sweep.c's chunks and sweep_search.c's searches call it; it calls neither. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/guard.h"
#include "gelulab/sweep.h"
#include "sweep_int.h"
#include "acc_rules.h"

/* where x's sign and exponent field lie in its bits in the format: x >> sign_at & 1 and
 * x >> exp_at & exp_mask */
static void bits_fields(const struct gl_format *f, int *sign_at, int *exp_at, unsigned *exp_mask)
{
    switch (f->id) {
    case GL_FMT_F32:
        *sign_at = 31, *exp_at = 23, *exp_mask = 0xff;
        break;
    case GL_FMT_BF16:
        *sign_at = 15, *exp_at = 7, *exp_mask = 0xff;
        break;
    case GL_FMT_F16:
        *sign_at = 15, *exp_at = 10, *exp_mask = 0x1f;
        break;
    default:
        *sign_at = 63, *exp_at = 52, *exp_mask = 0x7ff;
    }
}

/* The inputs as the kernels get them: from their bits in the 16-bit formats, so that NaN
 * payloads (signaling ones too) reach them bit for bit; x itself rounded otherwise */
void gl_sw_inputs_f32(const struct gl_sweep *s, const uint64_t *bits, const double *x, float *xf,
                      uint64_t n)
{
    if (s->fmt.id == GL_FMT_BF16 || s->fmt.id == GL_FMT_F16)
        for (uint64_t i = 0; i < n; i++) xf[i] = gl_bits16_to_f32(s->fmt.id, (uint16_t)bits[i]);
    else
        for (uint64_t i = 0; i < n; i++) xf[i] = (float)x[i];
}

void gl_sw_reference(const struct gl_sweep *s, enum gl_defn d, double x, double *yr,
                     struct gl_dd *r)
{
    if (s->fmt.id == GL_FMT_F64 || !s->use_fast_ref)
        gl_ref_d(d, x, &s->fmt, yr, r);
    else
        *yr = gl_ref_f32(d, (float)x, &s->fmt, r);
}

void gl_sw_references(const struct gl_sweep *s, enum gl_defn d, const double *x, uint64_t n,
                      double *yr, struct gl_dd *r)
{
    if (s->fmt.id == GL_FMT_F64 || !s->use_fast_ref)
        for (uint64_t i = 0; i < n; i++) gl_sw_reference(s, d, x[i], &yr[i], &r[i]);
    else
        gl_ref_f32_n(d, x, n, &s->fmt, yr, r);
}

/* Built-in kernel k on the block's n inputs x (elements of es bytes; dy: b->dy1 for a backward
 * kernel), on arrays against guard pages, as the library worker calls a library kernel; its
 * results, left in its guarded output array until its next call. A finding is a bug in
 * gelulab's own kernel: said in one line, and gelulab ends (a fault on a guard page ends it
 * from the handler, with the same line). */
static void *builtin_guarded(struct chunk_buf *b, int k, const struct gl_kernel_src *ks,
                             const void *x, size_t es, uint64_t n)
{
    const struct gl_impl *im = ks->impl;
    int u16 = gl_kernel_abi_is16(ks->abi), f64 = ks->f64 && !ks->backward;
    struct gl_lib_kernel lk = {!u16 && !f64 && !ks->backward ? im->f32 : NULL,
                               ks->backward ? im->bwd : NULL, u16 ? im->u16 : NULL, ks->abi,
                               f64 ? im->f64 : NULL};
    struct gl_guard_setup c = {n, es, 0, GL_GUARD_END, 0, ks->backward};
    char why[300] = "out of memory for its guarded arrays";
    if (gl_lib_kernel_guarded(&lk, &b->guard[k], &c, x, ks->backward ? b->dy1 : NULL, n ? n : 1, 0,
                              why, sizeof why) != 0) {
        fprintf(stderr, "gelulab: built-in kernel %s %s (a bug in gelulab's kernel)\n", ks->name,
                why);
        exit(2);
    }
    return gl_guard_ptr(&b->guard[k], GL_GUARD_Y);
}

/* Kernel k's results on the block at offset off of the chunk, in b->out[k] (and b->yf/b->yd):
 * where they are, not copied (an external kernel's in its chunk's results, a built-in's in its
 * guarded array), but for a 16-bit kernel's, converted to binary32. */
void gl_sw_block_results(struct gl_sweep *s, struct chunk_buf *b, int k, uint64_t off, uint64_t n)
{
    struct gl_kernel_src *ks = &s->k[k];
    if (gl_sw_is_external(ks)) {
        b->out[k] = b->ext_out[k] + off;
    } else if (gl_kernel_abi_is16(ks->abi)) { /* on the inputs' bits, NaN payloads as they are */
        enum gl_format_id f = gl_kernel_abi_format(ks->abi);
        float *yf = b->out[k] = b->out_own[k];
        for (uint64_t i = 0; i < n; i++) b->xh[i] = (uint16_t)b->bits[i];
        const uint16_t *yh = builtin_guarded(b, k, ks, b->xh, sizeof *b->xh, n);
        for (uint64_t i = 0; i < n; i++) yf[i] = gl_bits16_to_f32(f, yh[i]);
    } else if (ks->f64 && !ks->backward) {
        b->out[k] = builtin_guarded(b, k, ks, b->xd, sizeof *b->xd, n);
    } else {
        b->out[k] = builtin_guarded(b, k, ks, b->xf, sizeof *b->xf, n);
    }
    b->yf = b->out[k], b->yd = b->out[k];
}

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
    int sign_at, exp_at, nroot = s->nroot;
    unsigned exp_mask;
    bits_fields(&s->fmt, &sign_at, &exp_at, &exp_mask);
    const uint64_t *bits = b->bits;
    const double *x = b->x;
    int *binade = b->binade, *region = b->region;
    uint64_t *run_start = b->run_start, nruns = 0;
    unsigned char *special = b->run_special;
    for (uint64_t i = 0; i < n; i++) /* a loop of its own, apart from the runs' scan */
        binade[i] =
            (int)(bits[i] >> sign_at & 1) * GL_BINADES + (int)(bits[i] >> exp_at & exp_mask),
        region[i] = gl_region_of(x[i]);
    for (uint64_t i = 0; nroot && i < n; i++)
        for (int r = 0; r < nroot; r++)
            if (fabs(x[i] - s->root[r]) <= GL_ROOT_HALFWIDTH) region[i] = GL_REGION_ROOT;
    for (uint64_t i = 0, j; i < n; i = j) { /* the runs, and whether any input is not finite or 0 */
        int sp = 0;
        for (j = i + 1; j < n && binade[j] == binade[i] && region[j] == region[i];) j++;
        for (uint64_t k = i; k < j; k++) sp |= !isfinite(x[k]) | (x[k] == 0);
        special[nruns] = (unsigned char)sp, run_start[nruns++] = i;
    }
    b->nruns = nruns, run_start[nruns] = n;
    int slots = 0;
    for (uint64_t k = 0; b->cr_slot && k < b->nruns; k++)
        b->cr_slot[k] = b->run_start[k + 1] - b->run_start[k] >= CR_RUN_MIN ? slots++ : -1;
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        if (b->cr[d]) memset(b->cr_done[d], 0, (size_t)slots);
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        if (!need[d]) continue;
        gl_ulp_scales(b->r[d], n, &s->fmt, b->scale[d]);
        for (uint64_t i = 0; i < n; i++)
            b->side[d][i] = GL_RULE_SIDE(b->r[d][i].hi, b->r[d][i].lo, b->yr[d][i]);
    }
}
