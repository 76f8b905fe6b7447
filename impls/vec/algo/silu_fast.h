/* silu-fast/ISA: SiLU (Swish) x sigma(x) in binary32 arithmetic.
 *
 * Method. x sigma(x) by x_sigma (blocks.h: our own exp, one division; x e^x/(1 + e^x) for
 * x < 0, so no overflow and no cancellation).
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the silu definition):
 * 3.237 ULP on [-5, 5] at x = -0x1.9f3fcp+1: got -0x1.f2ceb4p-4, want -0x1.f2ceba79553dep-4; max
 * |error| over all finite inputs 1.274e-06; max ULP over all finite results 52.02 at x =
 * -0x1.9fe368p+6.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_silu_fast                                                                      \
    .defn = GL_DEFN_SILU, .family = "silu",                                                        \
    .note = "x sigma(x), own exp",                                                                 \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_RIGHT,                  \
    .ulp_core = 3.237, .abs_all = 1.274e-06, .witness = {-0x1.9f3fcp+1, -0x1.f2ceb4p-4, -0x1.f2ceba79553dep-4}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
static inline V silu(V x)
{
    return x_sigma(x, x);
}
GL_DEFINE_KERNEL(silu_fast, silu)
#endif
