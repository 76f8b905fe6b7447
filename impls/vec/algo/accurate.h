/* accurate/ISA, gelu-accurate: exact GELU x Phi(x) for binary32 inputs, within 0.6084 ULP
 * (derived below) of the exact value for every binary32 input, the negative tail included down
 * to underflow. Computed in binary64 lanes (VD, VDW, vfmad of the ISA header), so every ISA
 * performs the same roundings (the same bits). The method is gelu_xphi_d (blocks.h).
 *
 * Method. The input is widened to binary64 (exact) and everything runs in binary64:
 *   xc = max(x, -15.5), a = min(|xc|, 15.5), z = a/sqrt 2, t = 1/(1 + z/2) (one fma, one
 *   division), w = 1 - t; erfc(z) = t Q(w) exp(-z^2), Q = GL_ERFC_Q_D (degree 10, Q(0) = 1,
 *   Sollya, impls/coeffs.sollya: Q is erfc(z) e^(z^2)/t in the variable w), where
 *   -z^2 = -a^2/2 is exact (a^2 has at most 48 bits), so exp's argument carries no rounding;
 *   e^(-a^2/2) = 2^n p, our own exp (Cody-Waite with fma, degree-6 GL_EXP_D); the power 2^n
 *   (n >= -174: never subnormal) and t/2 multiply x first, s = xc (t/2) 2^n (exact but for
 *   one rounding of xc ts), and Phi(-a) = (t/2) 2^n p q: y = q (p s) for x with its sign bit
 *   set (-0, NaN too), fma(-q, p (a ts), xc) otherwise (+0 stays +0, +inf stays +inf); y
 *   rounded once to binary32. exp does not wait for Q (nor Q for exp), and the products wait
 *   for neither: the dependency chains run side by side, which is what bounds the speed of this
 *   latency-bound code (an exp of -z^2 + log Q, one chain, ran ~25 % slower). x < -15.5 (and
 *   -inf): xc = -15.5 and y ~ -2^-176, which rounds to -0, as the exact GELU (< 2^-170 in
 *   magnitude) does; x > 15.5: a Phi(-a) < 2^-170 and y = x; NaN propagates.
 * Error bound, as a relative error e of Phi(-a) (first order; Sollya's sup norms, rounded up):
 *   Q's fit             0x1.25429ap-28 = 4.268e-9 (relative)
 *   exp's fit           0x1.2cf6fep-29 = 2.190e-9 (relative)
 *   binary64 roundings  < 2^-44 together: Q's coefficients and terms are below 1.3 in
 *                       magnitude (w <= 0.85) and Q >= 0.39, so each of its ~20 Estrin
 *                       roundings is below 2^-51 relative; t and w: (t, 1 - t) is the exact
 *                       pair of some z' within 2 (1 + z/2) 2^-53 of z, and erfc(z) e^(z^2)
 *                       changes by at most 1.13 (z' - z) relative (below 2^-48); w's own
 *                       rounding (t < 1/2) moves Q by |Q'| 2^-54; exp's reduction and steps,
 *                       and the products, below 2^-50.
 *   e <= 6.458e-9 + 2^-44 < 6.4581e-9.  x < 0: q (p s) has relative error e + 2^-52; x >= 0:
 *   xc - a Phi(-a) has e a Phi(-a)/(xc - a Phi(-a)) <= e (Phi(-a) <= 1/2), rounded once by the
 *   fma. Rounding to binary32 adds at most half an ULP; a relative error e is at most e 2^24 ULP
 *   of a binary32 result (less for subnormals). Bound: 0.5 + 6.4581e-9 2^24 = 0.6084 ULP.
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition):
 * 0.5997 ULP on [-5, 5] at x = -0x1.631558p+1: got -0x1.f732d4p-8, want -0x1.f732d2ccfdeb1p-8; max
 * |error| over all finite inputs 2.385e-07.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_accurate                                                                       \
    .defn = GL_DEFN_EXACT, .family = "accurate",                                                   \
    .note = "gelu-accurate: x Phi(x) in binary64, erfc = t Q(w) exp(-z^2), rounded once",          \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 0.5997, .abs_all = 2.385e-07, .witness = {-0x1.631558p+1, -0x1.f732d4p-8, -0x1.f732d2ccfdeb1p-8}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline __attribute__((always_inline)) VD gelu_accurate(VD x)
{
    return gelu_xphi_d(x, gl_ERFC_Q_D, GL_ERFC_Q_D_DEGREE, gl_EXP_D, GL_EXP_D_DEGREE);
}
GL_DEFINE_KERNEL_D(accurate, gelu_accurate)
#endif
