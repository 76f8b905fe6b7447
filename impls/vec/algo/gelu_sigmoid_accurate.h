/* gelu-sigmoid-accurate/ISA: the sigmoid definition x sigma(1.702 x) (QuickGELU) for
 * binary32, computed as gelu-tanh-accurate (algo/gelu_tanh_accurate.h) is, in binary64 lanes, with
 * s = x RN(1.702): one rounding, so the same derived bound, 0.537 ULP. x < 0 with |s| > 120 is
 * |x| > 70.5, where the result is -0.
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the sigmoid definition):
 * 0.5347 ULP on [-5, 5] at x = -0x1.07c496p+2: got -0x1.e507ep-9, want -0x1.e507e111b94e8p-9; max
 * |error| over all finite inputs 4.769e-07; max ULP over all finite results 0.5362 at x =
 * -0x1.120f56p+5.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_sigmoid_accurate                                                          \
    .defn = GL_DEFN_SIGMOID, .family = "sigmoid",                                                  \
    .note = "gelu-sigmoid-accurate: x sigma(1.702x) in binary64, own exp, rounded once",           \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 0.5347, .abs_all = 4.769e-07, .witness = {-0x1.07c496p+2, -0x1.e507ep-9, -0x1.e507e111b94e8p-9}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline __attribute__((always_inline)) VD gelu_sigmoid_accurate_d(VD x)
{
    return x_sigma_d(x, x * 0x1.b3b645a1cac08p+0);
}
GL_DEFINE_KERNEL_D(gelu_sigmoid_accurate, gelu_sigmoid_accurate_d)
#endif
