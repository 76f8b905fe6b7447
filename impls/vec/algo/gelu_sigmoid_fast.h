/* gelu-sigmoid-fast/ISA: the sigmoid definition x sigma(1.702 x) ("QuickGELU") in binary32
 * arithmetic.
 *
 * Method. s = x RN(1.702) (one rounding), then x sigma(s) by x_sigma (blocks.h: our own exp,
 * one division; x e^s/(1 + e^s) for s < 0, so no overflow and no cancellation).
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the sigmoid definition):
 * 9.475 ULP on [-5, 5] at x = -0x1.2d5762p+2: got -0x1.98403ep-10, want -0x1.984050f2d1fe9p-10; max
 * |error| over all finite inputs 7.401e-07; max ULP over all finite results 110.3 at x =
 * -0x1.a9f09ep+5.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_sigmoid_fast                                                              \
    .defn = GL_DEFN_SIGMOID, .family = "sigmoid",                                                  \
    .note = "x sigma(1.702x), own exp",                                                            \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 9.475, .abs_all = 7.401e-07, .witness = {-0x1.2d5762p+2, -0x1.98403ep-10, -0x1.984050f2d1fe9p-10}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline V gelu_sigmoid(V x)
{
    return x_sigma(x, x * 0x1.b3b646p+0f); /* 1.702 */
}
GL_DEFINE_KERNEL(gelu_sigmoid_fast, gelu_sigmoid)
#endif
