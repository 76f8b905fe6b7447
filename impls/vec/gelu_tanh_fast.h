/* gelu-tanh-fast (registry: tanhfast/ISA): the tanh definition (x/2)(1 + tanh(sqrt(2/pi)
 * (x + 0.044715 x^3))) for binary32, within 0.54 ULP of that definition for every binary32 input;
 * and its twin gelu-sigmoid-fast (sigmoidfast/ISA), the sigmoid definition x sigma(1.702 x)
 * (QuickGELU), the same way (s = x RN(1.702) carries one rounding: the same bound; exhaustive
 * 0.5361 ULP over all inputs, 0.5347 on [-5, 5]).
 * Included by vec/kernels.h once per ISA, after gelu_accurate.h (its binary64 helpers).
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
 * 0.537 ULP; the exhaustive sweep checks it (impls/registry.c).
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */

/* x sigma(s) for s of x's sign, |s| <= 120 computed and beyond: e = exp(-min(|s|, 120)),
 * (x < 0 ? x e : x) / (1 + e); x < 0 with |s| > 120: -0. */
static inline __attribute__((always_inline)) VD x_sigma_d(VD x, VD s)
{
    VD a = vdouble(vbitsd(s) & 0x7fffffffffffffffLL);
    VD ac = vmind(a, vdupd(120.0)); /* +-inf, NaN: 120 (NaN propagates through x) */
    VD e = vexpd(-ac, gl_EXP_D, GL_EXP_D_DEGREE);
    VD y = vseld(GL_MASKD(x < 0.0), x * e, x) / (1.0 + e);
    return vseld(GL_MASKD((x < 0.0) & (a > 120.0)), vdupd(-0.0), y);
}

static inline __attribute__((always_inline)) VD gelu_tanh_fast(VD x)
{
    return x_sigma_d(x, x * vfmad(x * x, vdupd(0x1.2444f2a4d8b4bp-4), vdupd(0x1.9884533d43651p+0)));
}

/* the sigmoid definition x sigma(1.702 x) (QuickGELU): s = x RN(1.702), one rounding; x < 0
 * with |s| > 120 is |x| > 70.5 */
static inline __attribute__((always_inline)) VD gelu_sigmoid_fast(VD x)
{
    return x_sigma_d(x, x * 0x1.b3b645a1cac08p+0);
}

GL_DEFINE_KERNEL_D(tanhfast, gelu_tanh_fast)
GL_DEFINE_KERNEL_D(sigmoidfast, gelu_sigmoid_fast)
