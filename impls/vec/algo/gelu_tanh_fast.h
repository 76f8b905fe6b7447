/* gelu-tanh-fast/ISA: the tanh definition (x/2)(1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))) in binary32
 * arithmetic, without the cancellation of 1 + tanh.
 *
 * Method. (x/2)(1 + tanh(u)) = x sigma(2u), 2u = x (C0 + C1 x^2), C0 = RN(2 sqrt(2/pi)),
 * C1 = RN(2 sqrt(2/pi) 0.044715); x sigma(s) by x_sigma (blocks.h: our own exp, one division).
 * The argument s is rounded in binary32, which the result's error inherits times |s| sigma(-s).
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the tanh definition):
 * 32.17 ULP on [-5, 5] at x = -0x1.3fa86ep+2: got -0x1.fe37bap-23, want -0x1.fe3779ab8adbap-23; max
 * |error| over all finite inputs 5.16e-07; max ULP over all finite results 214 at x =
 * -0x1.4150cp+3.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_tanh_fast                                                                 \
    .defn = GL_DEFN_TANH, .family = "tanh",                                                        \
    .note = "x sigma(2u) (no cancellation), own exp",                                              \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 32.17, .abs_all = 5.16e-07, .witness = {-0x1.3fa86ep+2, -0x1.fe37bap-23, -0x1.fe3779ab8adbap-23}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline V gelu_tanh(V x)
{
    return x_sigma(x, x * vfma(x * x, vdup(0x1.2444f2p-4f), vdup(0x1.988454p+0f)));
}
GL_DEFINE_KERNEL(gelu_tanh_fast, gelu_tanh)
#endif
