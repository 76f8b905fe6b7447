/* gelu-tanh-grad-accurate/ISA, the derivative of the tanh form for the backward pass: dx = dy
 * f'(x), f'(x) = sigma(s) (1 + x s' sigma(-s)), s = 2 sqrt(2/pi) (x + 0.044715 x^3), s' = 2
 * sqrt(2/pi) (1 + 3 0.044715 x^2) (since (1 + tanh(s/2))/2 = sigma(s)), for binary32 x and dy,
 * within 0.5 + 2e-6 ULP (derived below) with dy = 1 outside the root region (|x - x0| > 1/32, x0 =
 * -0.7524614 the zero of f'), within 0.5 + 1e-8 ulps of 1 everywhere. Computed in binary64 lanes:
 * every ISA performs the same roundings (the same bits).
 *
 * Method. xc = x clamped to [-16, 16] (+-inf too), s and s' in binary64 (three roundings
 * each), E = e^(-|s|) (our exp with GL_EXP_CR, relative 1.8e-14 + 2^-50; |s| <= 318: normal),
 * p = 1/(1 + E) = sigma(|s|), and E p = sigma(-|s|): x < 0 (sign bit set) takes sigma(s) = E p,
 * sigma(-s) = p; x >= 0 the reverse; f' = sigma(s) fma(x s', sigma(-s), 1). No subtraction but
 * that fma, whose cancellation near x0 is the only one. x < -16 (and -inf): f'(-16) ~ -2^-448
 * stands in, below 2^-150 times any binary32 dy, as f' itself; x > 16: f' rounds to 1 (E <
 * 2^-458). dx = RN32(dy f') with the product in binary64. NaN propagates.
 * Error bound (first order): s carries 3 2^-53 relative, moving sigma(+-s) by at most
 * |s| sigma(1 - sigma) 3 2^-53 absolutely; E's 2e-14 moves p and E p by at most 2e-14 E p (1 - p)
 * < 5e-15; x s' sigma(-s) <= 1.2 near x0 (it is -1 at x0), so the fma's input is wrong by
 * below 1e-14 and its result by that plus 2^-53; times sigma(s) <= 1: f''s absolute error is
 * below 1.2e-14 + 2^-52 |f'|. Away from x0, |f'| >= 0.0134 with ulp 2^-30: 1.3e-5 ULP (plus the
 * final half ULP); next to x0, 1e-7 ulps of 1.
 * Maximum error (exhaustive sweep of all 2^32 inputs with dy = 1, against tanh_grad):
 * 0.5000001 ULP on [-5, 5] outside the root (at x = -0x1.b86cbap+0: got -0x1.d3c538p-4, want
 * -0x1.d3c536fffffc3p-4), 0.5225 ULP in the root region (every binary32 input: within 1 ULP
 * everywhere), 0.5 + 2e-8 in the negative tail; correctly rounded for all but 14 of the 2^32
 * inputs; max |error| over all finite inputs 5.961e-08 (scaled: 0.5).
 * Special values (dy = 1): NaN -> NaN, +inf -> 1, -inf -> -0, +-0 -> 1/2. */
/* clang-format off */
#define GL_CONTRACT_gelu_tanh_grad_accurate                                                        \
    .defn = GL_DEFN_TANH_GRAD, .family = "gelu-tanh-grad-accurate",                                \
    .note = "tanh form's derivative sigma(s)(1 + x s' sigma(-s)) in binary64, dy f' rounded once", \
    .tail = "relative accuracy down to underflow, for every dy", .specials = GL_SPECIALS_GRAD_RIGHT, \
    .ulp_core = 0.5001, .abs_all = 5.961e-08, .witness = {-0x1.b86cbap+0, -0x1.d3c538p-4, -0x1.d3c536fffffc3p-4}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline __attribute__((always_inline)) VD tanh_grad_accurate_d(VD x)
{
    const double c = 0x1.9884533d43651p0;               /* 2 sqrt(2/pi) */
    VD xc = vmaxd(vmind(x, vdupd(16.0)), vdupd(-16.0)); /* NaN: 16, fixed below */
    VD x2 = xc * xc;
    VD s = (c * xc) * vfmad(x2, vdupd(0.044715), vdupd(1.0));
    VD sp = c * vfmad(x2, vdupd(3 * 0.044715), vdupd(1.0));
    VD e = vexpd(-vdouble(vbitsd(s) & 0x7fffffffffffffffLL), gl_EXP_CR, GL_EXP_CR_DEGREE);
    VD p = 1.0 / (1.0 + e), ep = e * p; /* sigma(|s|), sigma(-|s|) */
    VD sig = vseld_sign(xc, ep, p), sigm = vseld_sign(xc, p, ep);
    VD y = sig * vfmad(xc * sp, sigm, vdupd(1.0));
    return vseld(GL_MASKD(x != x), x, y);
}
GL_DEFINE_BWD_KERNEL_D(gelu_tanh_grad_accurate, tanh_grad_accurate_d)
#endif
