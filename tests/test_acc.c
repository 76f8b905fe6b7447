/* The accumulator's paths agree (analysis/acc.c, analysis/acc_rules.h): random blocks of inputs
 * go through the per-input path (gl_acc_add, one call per input), the block path
 * (gl_acc_add_block) and the two-step block path (gl_block_stats + gl_acc_add_block_stats, the
 * sweep's correctly rounded runs), and the three accumulators must hold identical statistics:
 * counts, correctly rounded, wrong-zero-sign and faithful counts, non-finite counts, maxima,
 * fixed-point sums, worst inputs, histograms, top lists and binade profiles, bit for bit.
 *
 * The blocks mix what the fast paths treat apart: NaN and infinite results and references,
 * errors above 2^39 ULP (the histogram's last bin) and above 2^28 (the 128-bit fixed point),
 * exact ties (a reference on a midpoint: 0.5 ULP), subnormal results, correctly rounded runs,
 * faithful neighbours, signed zeros, and blocks longer than the fast path's 4096-input parts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gelulab/acc.h"
#include "gelulab/metrics.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    return gl_test_rng(&rng_state);
}
static double unit(void) /* uniform on [0, 1) */
{
    return (double)(rng() >> 11) * 0x1p-53;
}

enum { MAXN = 9000 }; /* longer than two of the fast path's 4096-input parts */

struct block {
    size_t n;
    uint64_t *xbits;
    double *x, *y, *yr, *scale, *side;
    struct gl_dd *r;
    int xsign, xexp;
};

/* one result of kind k against reference r (rounded to binary32: yr) */
static double result_of(int k, double yr)
{
    float f = (float)yr;
    switch (k) {
    case 0:
        return yr; /* correctly rounded */
    case 1:
        return nextafterf(f, rng() & 1 ? INFINITY : -INFINITY); /* a neighbour */
    case 2:
        return (double)f * 0x1p20f; /* ~2^43 ULP off */
    case 3:
        return (double)f + (double)f * 0x1p-10 * (double)(rng() & 63); /* up to 2^20 ULP */
    case 4:
        return NAN;
    case 5:
        return rng() & 1 ? INFINITY : -INFINITY;
    case 6:
        return rng() & 1 ? 0.0 : -0.0;
    default:
        return (double)nextafterf(nextafterf(f, INFINITY), INFINITY); /* 2 ULP */
    }
}

/* a reference: mostly finite, in the normal or subnormal range of binary32, sometimes exactly
 * on a binary32 midpoint (a tie), sometimes infinite or NaN */
static struct gl_dd reference(int tiny, int finite)
{
    int what = finite ? (rng() & 1 ? 3 : 2 + (int)(rng() % 14)) : (int)(rng() % 16);
    if (what == 0) return (struct gl_dd){rng() & 1 ? INFINITY : -INFINITY, 0};
    if (what == 1) return (struct gl_dd){NAN, 0};
    double mag = ldexp(1 + unit(), tiny ? -140 - (int)(rng() % 8) : (int)(rng() % 60) - 30);
    double hi = rng() & 1 ? -mag : mag;
    if (what == 2) { /* a midpoint of two binary32 values: hi has one bit below float */
        float f = (float)hi;
        hi = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
        return (struct gl_dd){hi, 0};
    }
    if (what == 3) /* lo half an ulp of hi: hi + lo rounds to even, away from hi half the time */
        return (struct gl_dd){hi, ldexp(rng() & 1 ? 0.5 : -0.5, ilogb(hi) - 52)};
    return (struct gl_dd){hi, hi * 0x1p-60 * (unit() - 0.5)};
}

static void make_block(struct block *b, size_t n, int tiny, int cr_run, int finite)
{
    b->n = n;
    b->xsign = (int)(rng() & 1);
    b->xexp = tiny ? 100 : 127; /* |x| in [2^-27, 2^-26) or [1, 2): one region each */
    for (size_t i = 0; i < n; i++) {
        uint32_t bits =
            (uint32_t)b->xsign << 31 | (uint32_t)b->xexp << 23 | (uint32_t)(rng() & 0x7fffff);
        float xf;
        memcpy(&xf, &bits, sizeof xf);
        b->xbits[i] = bits, b->x[i] = xf;
        b->r[i] = reference(tiny, finite);
        float yf = (float)b->r[i].hi; /* the rounded reference (NaN, inf as they are) */
        b->yr[i] = yf;
        static const int finite_kinds[4] = {0, 1, 3, 7}; /* no NaN, inf, zero, nor > 2^39 */
        int kind = finite ? finite_kinds[rng() % 4] : (int)(rng() % 8);
        b->y[i] = cr_run == 1   ? b->yr[i]
                  : cr_run == 2 ? result_of(4 + (int)(rng() & 1), b->yr[i]) /* NaN, inf */
                                : result_of(kind, b->yr[i]);
        b->scale[i] = gl_ulp_scale(b->r[i], &gl_format_f32);
        b->side[i] = (b->r[i].hi - b->yr[i]) + b->r[i].lo;
    }
}

static int same_stats(const struct gl_stats *s, const struct gl_stats *t)
{
    return s->n == t->n && s->correctly_rounded == t->correctly_rounded &&
           s->zero_sign == t->zero_sign && s->faithful == t->faithful &&
           s->nonfinite == t->nonfinite && !memcmp(&s->max_ulp, &t->max_ulp, 8) &&
           !memcmp(&s->max_abs, &t->max_abs, 8) && !memcmp(&s->max_rel, &t->max_rel, 8) &&
           s->sum_ulp_fx == t->sum_ulp_fx && !memcmp(&s->worst, &t->worst, sizeof s->worst);
}

/* which part of a and b differs, or NULL */
static const char *acc_diff(const struct gl_acc *a, const struct gl_acc *b)
{
    if (!same_stats(&a->all, &b->all)) return "all";
    if (!same_stats(&a->nan_x, &b->nan_x)) return "nan_x";
    for (int r = 0; r < GL_REGIONS; r++)
        if (!same_stats(&a->region[r], &b->region[r])) return gl_region_names[r];
    if (memcmp(a->hist, b->hist, sizeof a->hist)) return "hist";
    if (a->ntop != b->ntop || memcmp(a->top, b->top, (size_t)a->ntop * sizeof a->top[0]))
        return "top";
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < GL_BINADES; e++) {
            const struct gl_binade *x = &a->binade[s][e], *y = &b->binade[s][e];
            if (x->n != y->n || x->sum_ulp_fx != y->sum_ulp_fx ||
                memcmp(&x->max_ulp, &y->max_ulp, 8))
                return "binade";
        }
    return NULL;
}

/* Block b into the three accumulators: acc[0] input by input, acc[1] as one block, acc[2] in
 * two steps (gl_block_stats, then gl_acc_add_block_stats) */
static void add_three_ways(struct gl_acc **acc, const struct block *b)
{
    struct gl_block blk = {&gl_format_f32,
                           b->xsign * GL_BINADES + b->xexp,
                           gl_region_of(b->x[0]),
                           b->n,
                           b->xbits,
                           b->x,
                           b->y,
                           b->yr,
                           b->scale,
                           b->side,
                           b->r};
    for (size_t i = 0; i < b->n; i++)
        gl_acc_add(acc[0], &gl_format_f32, b->xbits[i], b->xsign, b->xexp, b->x[i], b->y[i],
                   b->yr[i], b->r[i]);
    gl_acc_add_block(acc[1], &blk);
    struct gl_block_stats bs;
    gl_block_stats(&bs, &blk);
    gl_acc_add_block_stats(acc[2], &blk, &bs);
}

/* The three paths over `blocks` random blocks; finite: only finite results and references below
 * 2^39 ULP, so that the worst inputs (the top lists) come from the fast paths */
static void run(struct block *b, int blocks, int finite, int *seen)
{
    struct gl_acc *acc[3];
    for (int k = 0; k < 3; k++) acc[k] = malloc(sizeof *acc[k]), gl_acc_init(acc[k]);
    for (int t = 0; t < blocks; t++) {
        size_t n = t % 50 == 0 ? MAXN - (size_t)(rng() % 100) : 1 + (size_t)(rng() % 300);
        /* every 7th block correctly rounded; of the mixed ones, every 11th NaN or infinite
         * throughout (a kernel that loses a whole range: past the top list, block_stats sums
         * such results without block_slow) */
        make_block(b, n, t % 3 == 1, t % 7 == 3 ? 1 : !finite && t % 11 == 5 ? 2 : 0, finite);
        add_three_ways(acc, b);
        for (size_t i = 0; i < n; i++) {
            double u = gl_ulp_error(b->y[i], b->r[i], &gl_format_f32);
            seen[0] += u > 0x1p39 && !isinf(u), seen[1] += u == 0.5;
            seen[2] += fabs(b->yr[i]) < 0x1p-126 && b->yr[i] != 0, seen[3] += isnan(b->y[i]);
            seen[4] += b->r[i].hi + b->r[i].lo != b->r[i].hi;
        }
    }
    for (int k = 0; k < 3; k++) gl_acc_finish(acc[k]);
    const char *d1 = acc_diff(acc[0], acc[1]), *d2 = acc_diff(acc[0], acc[2]);
    CHECK(!d1, "%s blocks: per-input and block paths differ in %s", finite ? "finite" : "mixed",
          d1);
    CHECK(!d2, "%s blocks: per-input and two-step block paths differ in %s",
          finite ? "finite" : "mixed", d2);
    CHECK(acc[0]->all.n > 50000, "inputs: %llu", (unsigned long long)acc[0]->all.n);
    CHECK(finite || (acc[0]->hist[GL_HIST_BINS - 1] > 0 && acc[0]->all.nonfinite > 0),
          "last bin %llu, nonfinite %llu", (unsigned long long)acc[0]->hist[GL_HIST_BINS - 1],
          (unsigned long long)acc[0]->all.nonfinite);
    CHECK(acc[0]->all.correctly_rounded > 0 && acc[0]->all.faithful > acc[0]->all.correctly_rounded,
          "CR %llu, faithful %llu", (unsigned long long)acc[0]->all.correctly_rounded,
          (unsigned long long)acc[0]->all.faithful);
    for (int k = 0; k < 3; k++) free(acc[k]);
}

/* Equal errors: every result exactly 0.5 ULP from a reference on a midpoint, so that the top
 * list holds the lowest bits among equals. The block paths' scan (fast_top, which passes over
 * four inputs at a time whose largest error is below the list's floor, and must not pass over
 * equal ones) keeps the same list as the per-input path. */
static void test_top_ties(struct block *b)
{
    struct gl_acc *acc[3];
    for (int k = 0; k < 3; k++) acc[k] = malloc(sizeof *acc[k]), gl_acc_init(acc[k]);
    for (int t = 0; t < 40; t++) {
        size_t n = 1000 + (size_t)(rng() % 3000);
        b->n = n, b->xsign = 0, b->xexp = 127;
        for (size_t i = 0; i < n; i++) {
            uint32_t bits = 127u << 23 | (uint32_t)(rng() & 0x7fffff);
            float xf, f;
            memcpy(&xf, &bits, sizeof xf);
            b->xbits[i] = bits, b->x[i] = xf;
            f = 1 + (float)(rng() % 4096) * 0x1p-23f;
            b->r[i] = (struct gl_dd){((double)f + nextafterf(f, INFINITY)) / 2, 0};
            b->yr[i] = b->y[i] = (float)b->r[i].hi;
            b->scale[i] = gl_ulp_scale(b->r[i], &gl_format_f32);
            b->side[i] = (b->r[i].hi - b->yr[i]) + b->r[i].lo;
        }
        add_three_ways(acc, b);
    }
    for (int k = 0; k < 3; k++) gl_acc_finish(acc[k]);
    const char *d1 = acc_diff(acc[0], acc[1]), *d2 = acc_diff(acc[0], acc[2]);
    CHECK(!d1 && !d2, "equal errors: the block paths differ from the per-input path in %s",
          d1 ? d1 : d2);
    CHECK(acc[0]->ntop == GL_TOPK && acc[0]->top[0].ulp == 0.5 &&
              acc[0]->top[GL_TOPK - 1].ulp == 0.5,
          "equal errors: %d in the top list, %g to %g ULP", acc[0]->ntop, acc[0]->top[0].ulp,
          acc[0]->top[acc[0]->ntop - 1].ulp);
    for (int k = 0; k < 3; k++) free(acc[k]);
}

/* gl_ulp_scales (the sweep's block set-up, four lanes at a time) against values known by hand and
 * against gl_ulp_scale, input by input, in every format: powers of two with lo of either sign
 * (r just below one lies in the binade under it), zeros, subnormals, the floor, infinities and
 * NaN (0), and random references */
static void test_ulp_scales(void)
{
    enum { N = 4099 }; /* not a multiple of four: the scalar tail too */
    static struct gl_dd r[N];
    static double got[N];
    const struct gl_dd known[] = {{1.0, 0.0},       {1.0, -0x1p-60}, {1.0, 0x1p-60},
                                  {-1.0, 0x1p-60},  {0x1p-130, 0.0}, {0.0, 0.0},
                                  {-0.0, 0.0},      {INFINITY, 0},   {NAN, 0.0},
                                  {0x1p-1060, 0.0}, {0x1.8p3, 0},    {0x1p-126, -0x1p-200}};
    const double want_f32[] = {0x1p23,  0x1p24, 0x1p23, 0x1p24,  0x1p149, 0x1p149,
                               0x1p149, 0,      0,      0x1p149, 0x1p20,  0x1p149};
    size_t nk = sizeof known / sizeof *known;
    gl_ulp_scales(known, nk, &gl_format_f32, got);
    for (size_t i = 0; i < nk; i++)
        CHECK(got[i] == want_f32[i], "ulp scale of %a + %a in f32: %a, want %a", known[i].hi,
              known[i].lo, got[i], want_f32[i]);
    const struct gl_format *fmts[] = {&gl_format_f32, &gl_format_bf16, &gl_format_f16,
                                      &gl_format_f64};
    for (int f = 0; f < 4; f++) {
        for (size_t i = 0; i < N; i++) {
            int e = (int)(rng() % 400) - 200, kind = (int)(rng() % 8);
            double hi = ldexp(kind < 4 ? 1.0 : 1 + unit(), e) * (rng() & 1 ? -1 : 1);
            double lo = kind % 2 ? ldexp(unit() - 0.5, e - 60) : 0;
            r[i] = kind == 6 && i % 97 == 0 ? known[rng() % nk] : (struct gl_dd){hi, lo};
        }
        gl_ulp_scales(r, N, fmts[f], got);
        int bad = 0;
        for (size_t i = 0; i < N; i++) bad += got[i] != gl_ulp_scale(r[i], fmts[f]);
        CHECK(!bad, "%s: gl_ulp_scales differs from gl_ulp_scale on %d of %d", fmts[f]->name, bad,
              N);
    }
}

int main(void)
{
    test_ulp_scales();
    struct block b;
    b.xbits = malloc(MAXN * sizeof *b.xbits), b.x = malloc(MAXN * sizeof *b.x);
    b.y = malloc(MAXN * sizeof *b.y), b.yr = malloc(MAXN * sizeof *b.yr);
    b.scale = malloc(MAXN * sizeof *b.scale), b.side = malloc(MAXN * sizeof *b.side);
    b.r = malloc(MAXN * sizeof *b.r);
    int seen[5] = {0};
    run(&b, 400, 0, seen);
    run(&b, 200, 1, seen);
    test_top_ties(&b);
    CHECK(seen[0] && seen[1] && seen[2] && seen[3] && seen[4],
          "the blocks hold every case: >2^39 ULP %d, ties %d, subnormal %d, NaN %d, hi + lo != "
          "hi %d",
          seen[0], seen[1], seen[2], seen[3], seen[4]);
    /* a result exactly 0.5 ULP from a midpoint reference scores 0.5 and is correctly rounded
     * when it is the rounded reference (ties to even), faithful either way */
    struct gl_acc *one = malloc(sizeof *one);
    gl_acc_init(one);
    struct gl_dd mid = {1.0 + 0x1p-24, 0}; /* between 1 and 1 + 2^-23 */
    gl_acc_add(one, &gl_format_f32, 0x3f800000u, 0, 127, 1.0, 1.0, 1.0, mid);
    gl_acc_add(one, &gl_format_f32, 0x3f800001u, 0, 127, 1.0, 1.0 + 0x1p-23, 1.0, mid);
    gl_acc_finish(one);
    CHECK(one->all.max_ulp == 0.5 && one->all.correctly_rounded == 1 && one->all.faithful == 2 &&
              one->hist[0] == 2,
          "tie: max %a, CR %llu, faithful %llu, bin 0 %llu", one->all.max_ulp,
          (unsigned long long)one->all.correctly_rounded, (unsigned long long)one->all.faithful,
          (unsigned long long)one->hist[0]);
    free(one);
    /* the worst input's reference keeps the sign of zero: GELU(-inf) = -0, hi = -0, lo = +0
     * (their sum in binary64 is +0); a NaN result there is the worst (ULP inf) */
    struct gl_acc *ninf = malloc(sizeof *ninf);
    gl_acc_init(ninf);
    gl_acc_add(ninf, &gl_format_f32, 0xff800000u, 1, 255, -INFINITY, NAN, -0.0,
               (struct gl_dd){-0.0, 0.0});
    gl_acc_finish(ninf);
    CHECK(isinf(ninf->all.worst.ulp) && ninf->all.worst.r == 0 && signbit(ninf->all.worst.r),
          "worst at -inf: ulp %g, reference %a (want -0x0p+0)", ninf->all.worst.ulp,
          ninf->all.worst.r);
    free(ninf);
    /* +0 where the correctly rounded result is -0 is not correctly rounded, and counted apart:
     * GELU(-20) = -20 Phi(-20) = -0x1.1876296f5056p-290 (-5.507e-88) rounds to -0 in binary32,
     * as GELU(-21 ... -28) does (given here the same reference as -20's); results +0 at the first
     * five of nine, -0 at the rest, through the one-input path and a block's (its 4-lane fast
     * path and scalar tail); then x = -0 giving +0, a block of its own (binade 0). (A block's slow
     * path takes non-finite results and references only: never a zero against a zero.) */
    struct gl_acc *zs[2];
    for (int k = 0; k < 2; k++) zs[k] = malloc(sizeof *zs[k]), gl_acc_init(zs[k]);
    for (size_t i = 0; i < 9; i++) {
        b.x[i] = -20.0 - (double)i, b.xbits[i] = 0xc1a00000u + 0x80000u * i;
        b.r[i] = (struct gl_dd){-0x1.1876296f50561p-290, 0}, b.yr[i] = -0.0;
        b.y[i] = i < 5 ? 0.0 : -0.0;
        b.scale[i] = gl_ulp_scale(b.r[i], &gl_format_f32);
        b.side[i] = (b.r[i].hi - b.yr[i]) + b.r[i].lo;
        gl_acc_add(zs[0], &gl_format_f32, b.xbits[i], 1, 131, b.x[i], b.y[i], b.yr[i], b.r[i]);
    }
    struct gl_block zb = {&gl_format_f32,
                          GL_BINADES + 131,
                          gl_region_of(-20.0),
                          9,
                          b.xbits,
                          b.x,
                          b.y,
                          b.yr,
                          b.scale,
                          b.side,
                          b.r};
    gl_acc_add_block(zs[1], &zb);
    uint64_t zbits = 0x80000000u;
    double zx = -0.0, zy = 0.0, zyr = -0.0;
    struct gl_dd zr = {-0.0, 0.0};
    double zsc = gl_ulp_scale(zr, &gl_format_f32), zsd = (zr.hi - zyr) + zr.lo;
    struct gl_block z0 = {
        &gl_format_f32, GL_BINADES, gl_region_of(zx), 1, &zbits, &zx, &zy, &zyr, &zsc, &zsd, &zr};
    gl_acc_add(zs[0], &gl_format_f32, zbits, 1, 0, zx, zy, zyr, zr);
    gl_acc_add_block(zs[1], &z0);
    for (int k = 0; k < 2; k++) {
        gl_acc_finish(zs[k]);
        CHECK(zs[k]->all.n == 10 && zs[k]->all.zero_sign == 6 && zs[k]->all.correctly_rounded == 4,
              "%s path: +0 for -0 counted %llu (want 6), CR %llu (want 4) of %llu",
              k ? "block" : "per-input", (unsigned long long)zs[k]->all.zero_sign,
              (unsigned long long)zs[k]->all.correctly_rounded, (unsigned long long)zs[k]->all.n);
        free(zs[k]);
    }
    free(b.xbits), free(b.x), free(b.y), free(b.yr), free(b.scale), free(b.side), free(b.r);
    return gl_check_summary("test_acc");
}
