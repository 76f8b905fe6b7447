/* fast/ISA, gelu-fast: exact GELU x Phi(x) for binary32, in binary32 arithmetic and without a
 * division (derived bound 4.6 ULP below); returns -0 for x < -5.6. Uses vlut8 and vsel_sign of
 * the ISA header, so every ISA performs the same roundings (the same bits).
 *
 * Method. xc = x clamped to [-T, T], T = 5.6, and -0 below -T; t = |xc|;
 * Phi(-t) = e^(-t^2/2) R(t), R(t) = erfc(t/sqrt2) e^(t^2/2)/2 (smooth, from 1/2 down to 0.069).
 *   t^2 = h + l exactly (h = t t rounded, l = fma(t, t, -h));
 *   e^(-(h + l)/2) = 2^n (1 + q): n = round(-h/(2 ln2)) by the 1.5 2^23 shift, r = (-h/2 -
 *   n ln2hi) (exact: n != 0 means h > ln2, so both terms are multiples of 2^-25, and
 *   |r| < 0.36 needs 24 bits) + (-l/2 + n ln2lo), q = r Q(r),
 *   Q = GL_EXP[1..6], so that 1 + q is never rounded (computed on s = 2r, scaled exactly);
 *   R by a degree-6 polynomial per piece (GL_FAST, 8 pieces; j = round(t k) from the same
 *   shift; coefficients by vlut8) in u = t - a_j, which is exact (a_j is a multiple of the ulp
 *   of the piece's largest t); a_j is chosen so that R(a_j) is within about 2^-34 of the
 *   binary32 constant term (impls/coeffs.sollya);
 *   P = xc Phi(-t) = fma(xr, q, xr), xr = (xc 2^n) R (xc 2^n exact: n >= -23, and xc is never
 *   subnormal when n != 0);
 *   y = P where x has its sign bit set (-0 and -inf included: xc = -0 gives P = -0), x - P
 *   otherwise (GELU(x) = x - x Phi(-x)); x > T: x - P rounds to x (P < 6.1e-8 < ulp(x)/4),
 *   +inf stays +inf (xc = T keeps P finite).
 * Error bound, relative error of P before its last rounding, in units of 2^-24 (first order):
 *   r: two roundings of at most 2^-26 absolute           0.25 (e^r's relative error)
 *   Q's fit 3.7e-9 (GL_EXP), Q's and q's roundings       0.06 + 0.87 (|q|/(1 + q) <= 0.41)
 *   R's fit 0x1.199fc2p-25 = 3.3e-8 (GL_FAST)            0.55
 *   R's Horner steps (the last one: 1; the others scaled by |u R'/R| <= 0.4)   1.4
 *   xr                                                   1
 *   total 4.1: x < 0: P rounded once more by the fma, 4.1 + 0.5 = 4.6 ULP at most; x >= 0:
 *   x - P carries P's error times P/(x - P) <= 1, plus its own half ULP. The 4-ULP figure the
 *   kernel is built to rests on the exhaustive sweep below, not on the first-order bound.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0.
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition):
 * 2.652 ULP on [-5, 5] at x = -0x1.d523fcp+0: got -0x1.f5e7c2p-5, want -0x1.f5e7c74d7202cp-5; max
 * |error| over all finite inputs 2.385e-07; max ULP over all finite results 1.678e+07 at x =
 * -0x1.458decp+3.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. Variants measured and not
 * kept, with their cost: docs/kernel-notes.md. */
/* clang-format off */
#define GL_CONTRACT_fast                                                                           \
    .defn = GL_DEFN_EXACT, .family = "fast",                                                       \
    .note = "gelu-fast: x Phi(x) in binary32, e^(-x^2/2) R(x), R piecewise (8 pieces), no division", \
    .tail = "-0 for x < -5.6", .specials = GL_SPECIALS_RIGHT,                                      \
    .ulp_core = 2.652, .abs_all = 2.385e-07, .witness = {-0x1.d523fcp+0, -0x1.f5e7c2p-5, -0x1.f5e7c74d7202cp-5}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline V gelu_fast(V x)
{
    V xc = vsel(GL_MASK(x < -GL_FAST_T), vdup(-0.0f), vmin(vdup(GL_FAST_T), x)); /* NaN stays */
    V tc = vabs(xc), h, kd;
    V q = exp_half_sq(tc, &h, &kd); /* e^(-t^2/2) = 2^n (1 + q), blocks.h */
    V R = fast_R(tc);
    /* xc 2^n, exact; 2^n from kd's low bits, in unsigned lanes (the shift drops kd's high bits;
     * a NaN payload in kd only changes a factor that multiplies a NaN) */
    V xs = xc * vfloat(vshl_u(vaddi(vbits(kd), 127), 23));
    V xr = xs * R, p = vfma(xr, q, xr);
    return vsel_sign(x, p, x - p);
}

GL_DEFINE_KERNEL(fast, gelu_fast)
#endif
