/* gelu-erfc-fast/ISA: exact GELU x Phi(x) in binary32 arithmetic, the erfc form, relative accuracy
 * down to underflow.
 *
 * Method. Phi(x) from erfc(z), z = |x|/sqrt2, erfc(z) = t exp(-z^2 + P(w)), t = 1/(1 + z/2),
 * w = 1 - t = (z/2) t, P = GL_ERFC_W (impls/coeffs.sollya; absolute fit error = relative for
 * erfc). -z^2 = -x^2/2 is kept exact as a pair (fma) and added to P with TwoSum, so the argument
 * of exp carries no rounding error of size z^2 2^-24 (the ~190-ULP loss of x/sqrt2 in float).
 * x < 0: GELU = x erfc(z)/2; x >= 0: x (1 - erfc(z)/2). z > 11.3: -0 or x.
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition):
 * 4.837 ULP on [-5, 5] at x = -0x1.9fd2a8p+1: got -0x1.edcb5p-10, want -0x1.edcb4653b480ap-10; max
 * |error| over all finite inputs 2.385e-07; max ULP over all finite results 12.66 at x =
 * -0x1.a356e4p+3.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_erfc_fast                                                                 \
    .defn = GL_DEFN_EXACT, .family = "erf",                                                        \
    .note = "x Phi(x), erfc = t exp(-z^2 + P(t)), exact -x^2/2",                                   \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 4.837, .abs_all = 2.385e-07, .witness = {-0x1.9fd2a8p+1, -0x1.edcb5p-10, -0x1.edcb4653b480ap-10}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline V gelu_erf(V x)
{
    V z = vabs(x) * 0x1.6a09e6p-1f;
    V h = 0.5f * vmin(z, vdup(11.3f));
    V t = 1.0f / (1.0f + h);
    V p = vpoly(h * t, gl_ERFC_W, GL_ERFC_W_DEGREE);
    V xx = x * x, xx_lo = vfma(x, x, -xx);
    V a = xx * -0.5f, a_lo = xx_lo * -0.5f;
    V s = a + p, bp = s - a; /* TwoSum(a, p) */
    V s_lo = ((a - (s - bp)) + (p - bp)) + a_lo;
    V e = vexp(s);
    V erfc = t * vfma(e, s_lo, e);
    V y = vsel(GL_MASK(x < 0.0f), x * (0.5f * erfc), vfma(-x, 0.5f * erfc, x));
    y = vsel(GL_MASK(x == 0.0f), x, y); /* fma(-x, h, x) would turn -0 into +0 */
    return vsel(GL_MASK(z > 11.3f), vsel(GL_MASK(x > 0.0f), x, vdup(-0.0f)), y);
}
GL_DEFINE_KERNEL(gelu_erfc_fast, gelu_erf)
#endif
