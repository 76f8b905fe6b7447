/* cr/ISA, gelu-cr: exact GELU x Phi(x) correctly rounded to binary32 (round to nearest, ties to
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
 * 2. Rounding test: with E = 2^-38 (a 30-fold margin over e), lo = RN32(y - yE) and
 *    hi = RN32(y + yE) (both products and sums in binary64, their errors below 2^-52 |y|). The
 *    exact value lies between y - yE and y + yE and rounding is monotone, so lo = hi (bit for
 *    bit) proves lo is the correctly rounded result. A result meets a binary32 rounding boundary
 *    within 2^-38 relative with probability at most 2^-38 2^25 = 2^-13; counted over all 2^32
 *    inputs, 44 141 with |x| >= 2^-125 take step 3 (1e-5 of them), and 16.8 million below,
 *    where x/2 is a binary32 midpoint (see step 3). Each block of 256 results is compared with
 *    one memcmp; the lanes that differ go to step 3.
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
 *    sweep (`gelulab sweep --impl cr/avx2`: correctly rounded for every input).
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition; every
 * result equals the correctly rounded reference):
 * 0.5 ULP on [-5, 5] at x = 0x1p-149: got 0x1p-149, want 0x1p-150; max |error| over all finite
 * inputs 2.385e-07.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_cr                                                                             \
    .defn = GL_DEFN_EXACT, .family = "cr",                                                         \
    .note = "gelu-cr: correctly rounded; binary64 fast path with a rounding test, long double else", \
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

/* steps 1 and 2 on GL_CR_BLOCK inputs: lo and hi as in the header */
static inline __attribute__((always_inline)) void gelu_cr_block(const float *x, float *lo,
                                                                float *hi)
{
#pragma GCC unroll 2
    for (int i = 0; i < GL_CR_BLOCK; i += VDW) {
        VF f;
        memcpy(&f, x + i, sizeof f);
        VD y = gelu_cr_fast(vwiden(f)), m = y * GL_CR_EPS;
        VF a = vnarrow(y - m), b = vnarrow(y + m);
        memcpy(lo + i, &a, sizeof a);
        memcpy(hi + i, &b, sizeof b);
    }
}

/* The kernel ABI: blocks of GL_CR_BLOCK (the last one through a zeroed copy); results are
 * written after the inputs of their block are read (in place works). */
GL_KERNEL_ATTR void GL_KNAME(cr)(const float *x, float *y, size_t n)
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
