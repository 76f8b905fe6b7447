/* gelu-cr/ISA: exact GELU x Phi(x) correctly rounded to binary32 (round to nearest, ties to
 * even) for every binary32 input. Its fast path is gelu-accurate's binary64 method
 * (gelu_xphi_d, blocks.h) with tighter polynomials.
 *
 * Method (Ziv's: a fast path whose error bound decides the rounding almost always, a slower
 * and more accurate one where it does not).
 * 1. Fast path, binary64 lanes: y = gelu_xphi_d(x) (blocks.h) with tighter fits,
 *    GL_ERFC_Q_CR (degree 17) and GL_EXP_CR (degree 9) (impls/coeffs.sollya). Its relative
 *    error e, first order, with Sollya's sup norms rounded up:
 *      Q's fit 0x1.ee7af2p-45 = 5.49e-14, exp's fit 0x1.38bd0cp-46 = 1.74e-14 (relative)
 *      Q's ~30 Estrin roundings, each below 2^-51 relative (coefficients and terms below 1.3,
 *      Q >= 0.39): 1.4e-14; t and w through Q: below 2^-48 = 3.6e-15; exp's reduction and
 *      steps, the three products and the final fma: below 2^-49 together.
 *    e <= 9.2e-14 < 2^-43.
 * 1a. Core (AVX-512 builds), for a vector whose 16 lanes all have |x| <= 3.5, binary64 lanes:
 *    Phi(-t), t = |x|, on 8 pieces (the quadruples of gelu-fast's core pieces: J = floor(j/4),
 *    j = round(k t (t + 2)), here in binary64), u = t - a_J exact, P_J(u) of degree 11
 *    (GL_CR_CORE, impls/coeffs.sollya; its 12 tables of 8 doubles are one vpermpd each);
 *    y = x P for x with its sign bit set, fma(-x, P, x) otherwise. Relative error e: the fit
 *    0x1.7c9526p-45 = 4.3e-14 (Sollya's sup norm, rounded up); Horner's 11 roundings, each
 *    below 2^-53 of its result and damped by |u P'/P| <= 0.6 on the earlier ones: below 2^-51;
 *    the product or the fma (P's error carried at most once, P/(1 - P) <= 1): 2^-53.
 *    e <= 4.4e-14 < 2^-44.3. A block of 256 inputs tries the core when its first or middle
 *    vector lies in the range, and takes it for each vector that does. The other ISAs have no
 *    one-instruction lookup of 8 doubles (on AVX2 a 16-piece core, four vpermps per lookup, ran
 *    at 272 Melem/s against the fast path's 370): the fast path for every vector.
 * 2. Rounding test (the core's y and the fast path's alike): with E = 2^-38 (a 30-fold margin
 *    over the fast path's e, 80-fold over the core's), lo = RN32(y - yE) and
 *    hi = RN32(y + yE) (both products and sums in binary64, their errors below 2^-52 |y|). The
 *    exact value lies between y - yE and y + yE and rounding is monotone, so lo = hi (bit for
 *    bit) proves lo is the correctly rounded result. A result meets a binary32 rounding boundary
 *    within 2^-38 relative with probability at most 2^-38 2^25 = 2^-13; counted over all 2^32
 *    inputs, 44 141 with |x| >= 2^-125 take step 3 from the fast path (1e-5 of them), and 16.8
 *    million below, where x/2 is a binary32 midpoint (see step 3). Each block of 256 results is
 *    compared with one memcmp; the lanes that differ go to step 3.
 * 3. Slow path, one input at a time, in long double (x87 extended, 64-bit significand; binary128
 *    on AArch64): |x| <= 1: h + h erf(x/sqrt2), h = x/2 exact; x > 1: x - h erfc(x/sqrt2);
 *    x < -1: h erfc(|x|/sqrt2), where the rounding of z = |x|/sqrt2 (relative 2^-64, which
 *    erfc's slope would turn into up to 2 z^2 2^-64 ~ 2^-56) is corrected to first order: the
 *    exact z is zl + d, d = |x| S_lo + fma(|x|, S_hi, -zl) with sqrt(1/2) = S_hi + S_lo, and
 *    erfc(zl + d) = erfc(zl) - d (2/sqrt pi) e^(-zl^2). The C library's erfl and erfcl are
 *    within a few units of 2^-64; the slow path's error is about 2^-60 relative, so it decides
 *    the rounding unless the exact value lies within ~2^-60 of a binary32 midpoint. The exact
 *    value can be a midpoint's close neighbour by structure only for tiny |x| (GELU(x) = x/2 +
 *    x^2/sqrt(2 pi) + ...: x/2 is a midpoint when x is subnormal with an odd last bit); there the
 *    sum's rounding error (h + h erf is kept as s + err by Fast2Sum) breaks the tie.
 *    That these suffice for all 2^32 inputs is not derived: it is proven by the exhaustive
 *    sweep (`gelulab sweep --impl gelu-cr/avx2 --impl gelu-cr/avx512`: correctly rounded for every
 *    input, 2^32 of 2^32, the core included).
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition; every
 * result equals the correctly rounded reference):
 * 0.5 ULP on [-5, 5] at x = 0x1p-149: got 0x1p-149, want 0x1p-150; max |error| over all finite
 * inputs 2.385e-07.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_cr                                                                        \
    .defn = GL_DEFN_EXACT, .family = "cr",                                                         \
    .note = "gelu-cr: correctly rounded; binary64 core (AVX-512) or fast path with a rounding test, long double else", \
    .tail = "correctly rounded for every binary32 input", .specials = GL_SPECIALS_RIGHT,           \
    .ulp_core = 0.5, .abs_all = 2.385e-07, .witness = {0x1p-149, 0x1p-149, 0x1p-150}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
#include <float.h>
#include <math.h>
_Static_assert(LDBL_MANT_DIG >= 64, "gelu-cr's slow path needs a long double of 64 bits or more");

#define GL_CR_EPS   0x1p-38 /* the rounding test's relative margin */
#define GL_CR_BLOCK 256     /* results tested together */

/* x Phi(x) by the fast path (step 1) */
static inline __attribute__((always_inline)) VD gelu_cr_fast(VD x)
{
    return gelu_xphi_d(x, gl_ERFC_Q_CR, GL_ERFC_Q_CR_DEGREE, gl_EXP_CR, GL_EXP_CR_DEGREE);
}

/* s + err rounded to binary32, |err| <= ulp(s)/2 in long double: s rounded, except where s is
 * exactly halfway between two binary32 values; then err's sign decides. */
static float gl_cr_round(long double s, long double err)
{
    float f = (float)s;
    if ((long double)f == s || err == 0 || isinf(f)) return f;
    float g = nextafterf(f, s > f ? INFINITY : -INFINITY); /* the neighbour on s's side */
    if (s != ((long double)f + (long double)g) / 2) return f;
    return (err > 0) == (g > f) ? g : f;
}

/* step 3: one input in long double */
static float gelu_cr_slow(float x)
{
    const long double s_hi = 0xb.504f333f9de6484p-4L, s_lo = 0xb.2fb1366ea957d3ep-69L;
    const long double two_over_sqrt_pi = 0x9.06eba8214db688dp-3L;
    if (isnan(x)) return x + x;
    if (isinf(x)) return x > 0 ? x : -0.0f;
    if (x == 0) return x;
    long double xl = x, h = xl / 2, ax = fabsl(xl);
    if (ax <= 1) {
        long double p = h * erfl(xl * s_hi), s = h + p;
        return gl_cr_round(s, (h - s) + p); /* Fast2Sum: |h| >= |p| */
    }
    long double zl = ax * s_hi, d = ax * s_lo + fmal(ax, s_hi, -zl);
    long double c = erfcl(zl) - d * two_over_sqrt_pi * expl(-zl * zl);
    if (x < 0) return gl_cr_round(h * c, 0);
    long double p = h * c, s = xl - p;
    return gl_cr_round(s, (xl - s) - p); /* Fast2Sum: x >= p */
}

#ifdef GL_ISA_LUT8D
/* x Phi(x) for |x| <= GL_CORE_B, the core (AVX-512 only: the other ISAs lack a one-instruction
 * lookup of 8 doubles): t = |x|, J = floor(j/4), j = round(k t (t + c)) (CORE's pieces, here in
 * binary64), u = t - a_J (exact), Phi(-t) = P_J(u) (GL_CR_CORE, degree 11, Horner; the two
 * halves of a vector side by side, each table used twice); x P for x with its sign bit set,
 * fma(-x, P, x) otherwise */
static inline __attribute__((always_inline)) void gelu_cr_core(VD *y, const VD *x)
{
    VD u[2], p[2];
    VDI J[2];
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++) {
        VD t = vdouble(vbitsd(x[h]) & 0x7fffffffffffffffLL);
        VD g = vfmad(t, vfmad(t, vdupd(GL_CORE_K), vdupd(GL_CORE_KC)), vdupd(0x1.8p52));
        J[h] = vbitsd(g) >> 2; /* j in the low bits of g's; vlut8d takes J & 7 */
        u[h] = t - vlut8d(gl_CR_CORE_A, J[h]);
        p[h] = vlut8d(gl_CR_CORE[GL_CR_CORE_DEGREE], J[h]);
    }
#pragma GCC unroll 16
    for (int i = GL_CR_CORE_DEGREE - 1; i >= 0; i--)
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) p[h] = vfmad(p[h], u[h], vlut8d(gl_CR_CORE[i], J[h]));
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++) y[h] = vseld_sign(x[h], x[h] * p[h], vfmad(-x[h], p[h], x[h]));
}
_Static_assert(VW == 2 * VDW, "gelu-cr's core takes a vector as two halves");
#endif

/* step 2 for VDW results y of step 1: RN32(y - yE) to lo, RN32(y + yE) to hi */
static inline __attribute__((always_inline)) void gelu_cr_bounds(VD y, float *lo, float *hi)
{
    VD m = y * GL_CR_EPS;
    VF a = vnarrow(y - m), b = vnarrow(y + m);
    memcpy(lo, &a, sizeof a);
    memcpy(hi, &b, sizeof b);
}

/* steps 1 and 2 on GL_CR_BLOCK inputs by the fast path: lo and hi as in the header (on
 * AVX-512 a function of its own, whose registers the core's loop does not share) */
#ifdef GL_ISA_LUT8D
#define GL_CR_FAST_BLOCK_ATTR __attribute__((noinline))
#else
#define GL_CR_FAST_BLOCK_ATTR __attribute__((always_inline)) inline
#endif
static GL_CR_FAST_BLOCK_ATTR void gelu_cr_block_fast(const float *x, float *lo, float *hi)
{
#pragma GCC unroll 2
    for (int i = 0; i < GL_CR_BLOCK; i += VDW) {
        VF f;
        memcpy(&f, x + i, sizeof f);
        gelu_cr_bounds(gelu_cr_fast(vwiden(f)), lo + i, hi + i);
    }
}

/* steps 1 and 2 on GL_CR_BLOCK inputs: on AVX-512, where the first or the middle vector of the
 * block lies in the core range, the core for each vector that does and the fast path for the
 * others; otherwise the fast path alone, in a loop of its own (with the core in the same loop, or
 * with every vector probed, uniform inputs ran 6 % and 3.5 % slower: docs/kernel-notes.md).
 * Either path gives the correctly rounded result wherever its test decides: the choice never
 * changes a result. */
static inline __attribute__((always_inline)) int gelu_cr_in_core(const float *x)
{
    V v;
    memcpy(&v, x, sizeof v);
    return !vany_gt(vabs(v), GL_CORE_B);
}
static inline __attribute__((always_inline)) void gelu_cr_block(const float *x, float *lo,
                                                                float *hi)
{
#ifdef GL_ISA_LUT8D
    int core = gelu_cr_in_core(x) || gelu_cr_in_core(x + GL_CR_BLOCK / 2);
    if (core) {
        for (int i = 0; i < GL_CR_BLOCK; i += VW) {
            VD xd[2], y[2];
            for (int h = 0; h < 2; h++) {
                VF f;
                memcpy(&f, x + i + h * VDW, sizeof f);
                xd[h] = vwiden(f);
            }
            if (gelu_cr_in_core(x + i))
                gelu_cr_core(y, xd);
            else
                for (int h = 0; h < 2; h++) y[h] = gelu_cr_fast(xd[h]);
            for (int h = 0; h < 2; h++) gelu_cr_bounds(y[h], lo + i + h * VDW, hi + i + h * VDW);
        }
        return;
    }
#endif
    gelu_cr_block_fast(x, lo, hi);
}
/* The kernel ABI: blocks of GL_CR_BLOCK (the last one through a zeroed copy); results are
 * written after the inputs of their block are read (in place works). */
GL_KERNEL_ATTR void GL_KNAME(gelu_cr)(const float *x, float *y, size_t n)
{
    float in[GL_CR_BLOCK], lo[GL_CR_BLOCK], hi[GL_CR_BLOCK];
    for (size_t i = 0; i < n; i += GL_CR_BLOCK) {
        size_t m = n - i < GL_CR_BLOCK ? n - i : GL_CR_BLOCK;
        const float *xb = x + i;
        if (m < GL_CR_BLOCK) {
            memset(in, 0, sizeof in);
            memcpy(in, xb, m * sizeof(float));
            xb = in;
        }
        gelu_cr_block(xb, lo, hi);
        if (memcmp(lo, hi, m * sizeof(float)) != 0)
            for (size_t j = 0; j < m; j++)
                if (memcmp(&lo[j], &hi[j], sizeof(float)) != 0) lo[j] = gelu_cr_slow(xb[j]);
        memcpy(y + i, lo, m * sizeof(float));
    }
}
#endif
