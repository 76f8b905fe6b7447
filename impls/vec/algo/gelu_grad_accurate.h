/* gelu-grad-accurate/ISA, GELU' for the backward pass: dx = dy (Phi(x) + x phi(x)), the derivative
 * of exact GELU, for binary32 x and dy, within 0.5 + 4e-5 ULP (derived below) of dy f'(x) with dy =
 * 1 outside the root region (|x - x0| > 1/32, x0 = -0.7517915 the zero of f'), and within 0.5 +
 * 3e-7 ulps of 1 everywhere (the scaled error: absolute, in units of ulp(max|f'|)). Computed in
 * binary64 lanes (VD, vfmad of the ISA header): every ISA performs the same roundings (the same
 * bits).
 *
 * Method. a = min(|x|, 27) (exact in binary64; +-inf: 27), E = e^(-a^2/2) (-a^2/2 exact; our
 * exp with gelu-cr's fit GL_EXP_CR, degree 9, 2^n p with n >= -526: normal) and
 * D = Phi(-a)/E - a k, k = 1/sqrt(2 pi), so that
 *   x <= 0 (sign bit set): f'(x) = Phi(-a) - a phi(a) = E D,
 *   x > 0:                 f'(x) = 1 - Phi(-a) + a phi(a) = 1 - E D (one fma).
 * a <= 15.5: Phi(-a)/E = (t/2) Q(w), t = 1/(1 + a/(2 sqrt 2)), w = 1 - t, Q = GL_ERFC_Q_CR
 * (degree 17; gelu-cr's erfc form, impls/coeffs.sollya). a > 15.5 (Q's fit ends at w = 0.85):
 * D = -k (a - M), M the Mills ratio by its asymptotic series (1/a)(1 - u + 3u^2 - 15u^3 +
 * 105u^4), u = 1/a^2, truncated 945 u^5 < 1.3e-9 relative below M, 5e-12 relative to D.
 * x < -27 (and -inf): f'(-27) ~ -2^-521 stands in: dy f' rounds to a zero of the right sign
 * for every binary32 dy, as the exact value does (|f'(x) dy| < 2^-150 there). dx = RN32(dy f')
 * with the product in binary64. NaN propagates (x or dy).
 * Error bound (first order; Sollya's sup norms, as gelu-cr's fast path, algo/gelu_cr.h): Phi(-a)/E
 * relative 5.5e-14 (Q's fit) + 1.4e-14 (its Estrin roundings) + 2^-48 (t, w), E relative
 * 1.8e-14 + 2^-50. With E Phi(-a)/E = Phi(-a) <= 1/2 and E a k = a phi(a) <= 0.242, D's
 * subtraction and the products add below 2^-52 (1/2 + 0.242) absolutely: the absolute error of
 * f' is at most 3.1e-14 + 2e-14 |f'|. Away from x0, |f'| >= 0.0134 (at |x - x0| = 1/32), whose
 * ulp is 2^-30: 3.1e-14 / 2^-30 < 3.4e-5 ULP, plus the half ULP of the final rounding (the
 * product with dy adds 2^-53 relative). Next to x0 the same absolute error is 2.6e-7 ulps of 1;
 * the ULP error grows as 3.1e-14 / ulp(f'(x)) (more than 1 ULP only within ~1.6e-6 of x0).
 * Maximum error (exhaustive sweep of all 2^32 inputs with dy = 1, against exact_grad):
 * 0.5 ULP on [-5, 5] outside the root (0.500004098 at x = -0x1.97c97p-1: got -0x1.2f114p-6,
 * want -0x1.2f11410000898p-6), 12.42 ULP in the root region (scaled error 0.003906: ulps of 1),
 * 0.5 + 2e-8 in the negative tail; correctly rounded for all but 152 of the 2^32 inputs; max
 * |error| over all finite inputs 5.961e-08 (scaled: 0.5).
 * Special values (dy = 1): NaN -> NaN, +inf -> 1, -inf -> -0, +-0 -> 1/2. */
/* clang-format off */
#define GL_CONTRACT_gelu_grad_accurate                                                             \
    .defn = GL_DEFN_EXACT_GRAD, .family = "gelu-grad-accurate",                                    \
    .note = "GELU' = Phi + x phi in binary64 (erfc form, Mills series beyond 15.5), dy f' rounded once", \
    .tail = "relative accuracy down to underflow, for every dy", .specials = GL_SPECIALS_GRAD_RIGHT, \
    .ulp_core = 0.5001, .abs_all = 5.961e-08, .witness = {-0x1.97c97p-1, -0x1.2f114p-6, -0x1.2f11410000898p-6}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline __attribute__((always_inline)) VD grad_accurate_d(VD x)
{
    const double k = 0x1.9884533d43651p-2;                                /* 1/sqrt(2 pi) */
    VD a = vmind(vdouble(vbitsd(x) & 0x7fffffffffffffffLL), vdupd(27.0)); /* +inf; NaN: 27 */
    VD ac = vmind(a, vdupd(15.5));
    VD t = 1.0 / vfmad(ac, vdupd(0x1.6a09e667f3bcdp-2), vdupd(1.0)); /* 1/(1 + z/2) */
    VD q = vpolyd(1.0 - t, gl_ERFC_Q_CR, GL_ERFC_Q_CR_DEGREE);
    VD e = vexpd(a * a * -0.5, gl_EXP_CR, GL_EXP_CR_DEGREE); /* e^(-a^2/2) */
    VD dm = vfmad(a, vdupd(-k), (0.5 * t) * q);              /* Phi(-a)/E - a k */
    VD ia = 1.0 / a, u = ia * ia;                            /* a > 15.5 only */
    VD m =
        ia * vfmad(-u,
                   vfmad(-3.0 * u, vfmad(-5.0 * u, vfmad(vdupd(-7.0), u, vdupd(1.0)), vdupd(1.0)),
                         vdupd(1.0)),
                   vdupd(1.0));
    VD d = vseld(GL_MASKD(a > 15.5), (m - a) * k, dm);
    VD y = vseld_sign(x, e * d, vfmad(-e, d, vdupd(1.0)));
    return vseld(GL_MASKD(x != x), x, y); /* NaN */
}
GL_DEFINE_BWD_KERNEL_D(gelu_grad_accurate, grad_accurate_d)
#endif
