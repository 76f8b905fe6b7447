/* gelu-tanh-accurate/ISA: the tanh definition (x/2)(1 + tanh(sqrt(2/pi) (x + 0.044715
 * x^3))) for binary32, within 0.537 ULP (derived below) of that definition for every binary32
 * input, computed in binary64 lanes (the same bits on every ISA).
 *
 * Method. (1 + tanh u)/2 = sigma(2u), so y = x sigma(s), s = 2u = x (C0 + C1 x^2) with
 * C0 = 2 sqrt(2/pi), C1 = 2 sqrt(2/pi) 0.044715 (binary64), all in binary64 lanes:
 *   e = exp(-min(|s|, 120)) (vexpd: degree-6 GL_EXP_D), y = (x < 0 ? x e : x) / (1 + e),
 *   rounded once to binary32; x < 0 with |s| > 120 (|x| > 11.4): -0, as the definition rounds
 *   there (|y| < 12 e^-120 < 2^-170).
 * Error bound (relative, before the last rounding): exp's fit 0x1.2cf6fep-29 = 2.190e-9; s carries
 * at most 4 roundings of binary64 and the constants' 2^-53 each, so |s| <= 120 is off by at most
 * 120 2^-50 ~ 1.1e-13 absolute, a relative error of e; the division, the product and 1 + e add
 * 2^-53 each. sigma = 1/(1 + e) and e/(1 + e) inherit at most e's relative error (their
 * condition numbers are e/(1 + e) and 1/(1 + e), both <= 1). Total 2.2e-9: 0.5 + 2.2e-9 2^24 =
 * 0.537 ULP.
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the tanh definition):
 * 0.5359 ULP on [-5, 5] at x = -0x1.1865f6p+1: got -0x1.fad8acp-6, want -0x1.fad8ad1257a32p-6; max
 * |error| over all finite inputs 2.385e-07.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_tanh_accurate                                                             \
    .defn = GL_DEFN_TANH, .family = "tanh",                                                        \
    .note = "gelu-tanh-accurate: x sigma(2u) in binary64, own exp, rounded once",                  \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 0.5359, .abs_all = 2.385e-07, .witness = {-0x1.1865f6p+1, -0x1.fad8acp-6, -0x1.fad8ad1257a32p-6}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline __attribute__((always_inline)) VD gelu_tanh_accurate_d(VD x)
{
    return x_sigma_d(x, x * vfmad(x * x, vdupd(0x1.2444f2a4d8b4bp-4), vdupd(0x1.9884533d43651p+0)));
}
GL_DEFINE_KERNEL_D(gelu_tanh_accurate, gelu_tanh_accurate_d)
#endif
