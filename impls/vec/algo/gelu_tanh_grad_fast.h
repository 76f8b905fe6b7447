/* gelu-tanh-grad-fast/ISA, the derivative of the tanh form for the backward pass in binary32
 * arithmetic: dx = dy sigma(s) (1 + x s' sigma(-s)), s = 2 sqrt(2/pi) (x + 0.044715 x^3),
 * s' = 2 sqrt(2/pi) (1 + 3 0.044715 x^2) (PyTorch's and oneDNN's gelu_tanh backward compute
 * this form through tanh). Every ISA performs the same roundings (the same bits).
 *
 * Method. xc = x clamped to [-16, 16]; s, s' in binary32; E = e^(-|s|) by our binary32 exp
 * (vexp: GL_EXP, relative 3.7e-9; 0 below e^-104), p = 1/(1 + E), sigma(s) and sigma(-s) as
 * gelu-tanh-grad-accurate does (E p and p, by x's sign), f' = sigma(s) fma(x s', sigma(-s), 1),
 * dx = RN32(dy RN32(f')). s's rounding (|s| 2^-24) is E's relative error: about |s| ULP in the
 * negative tail; near x0 the fma's cancellation leaves an absolute error of a few 2^-24 (the
 * scaled error stays near 1, the ULP error grows without bound at x0). Below x ~ -10.68
 * (s < -104) E is 0 and f' is -0 where the reference is subnormal (|f'| < 2^-126).
 * Maximum error (exhaustive sweep of all 2^32 inputs with dy = 1, against tanh_grad):
 * 62.19 ULP on [-5, 5] outside the root, at its edge (x = -0x1.9463d2p-1: got -0x1.fd31c2p-7,
 * want -0x1.fd31459f74abp-7); 329.8 ULP in the negative tail (s's rounding), 0.858 for x > 5;
 * 2.586e7 ULP in the root region, scaled error 0.521 there; -0 on 224 726 inputs, x in
 * [-0x1.5ca00ep+3, -0x1.55c464p+3] (-10.89 .. -10.68), where f' is subnormal; max |error| over
 * all finite inputs 2.625e-07 (scaled: 2.202); 94.38 % correctly rounded.
 * Special values (dy = 1): NaN -> NaN, +inf -> 1, -inf -> -0, +-0 -> 1/2. */
/* clang-format off */
#define GL_CONTRACT_gelu_tanh_grad_fast                                                            \
    .defn = GL_DEFN_TANH_GRAD, .family = "gelu-tanh-grad-fast",                                    \
    .note = "tanh form's derivative sigma(s)(1 + x s' sigma(-s)) in binary32, one division",       \
    .tail = "-0 where f' is subnormal (x < -10.68)", .specials = GL_SPECIALS_GRAD_RIGHT,           \
    .ulp_core = 62.19, .abs_all = 2.625e-07, .witness = {-0x1.9463d2p-1, -0x1.fd31c2p-7, -0x1.fd31459f74abp-7}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline V tanh_grad_fast_f(V x)
{
    const float c = 0x1.988454p0f;                   /* RN(2 sqrt(2/pi)) */
    V xc = vmax(vmin(x, vdup(16.0f)), vdup(-16.0f)); /* NaN: fixed below */
    V x2 = xc * xc;
    V s = (c * xc) * vfma(x2, vdup(0.044715f), vdup(1.0f));
    V sp = c * vfma(x2, vdup(3 * 0.044715f), vdup(1.0f));
    V e = vexp(-vabs(s));
    V p = 1.0f / (1.0f + e), ep = e * p;
    V sig = vsel_sign(xc, ep, p), sigm = vsel_sign(xc, p, ep);
    V y = sig * vfma(xc * sp, sigm, vdup(1.0f));
    return vsel(GL_MASK(x != x), x, y);
}
GL_DEFINE_BWD_KERNEL(gelu_tanh_grad_fast, tanh_grad_fast_f)
#endif
