/* gelu-poly3/ISA: exact GELU with Phi by one polynomial of degree 6 on [-3.5, 0], binary32
 * arithmetic: the cheap polynomial GELUs of inference code, cut at the clamp.
 *
 * Method. GL_GELU_POLY (blocks.h): Phi(a), a = max(-|x|, -3.5), by the polynomial GL_PHI_POLY3
 * (impls/coeffs.sollya) in u = a k + 1; x < 0: x Phi(x); x >= 0: x (1 - Phi(-x)).
 * Tail: x < -3.5 gives -0, x > 3.5 gives x.
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition; its ULP
 * error is huge where the tail is cut to -0, its absolute error is the figure that matters):
 * 1.678e+07 ULP on [-5, 5] at x = -0x1.15f412p+2: got -0x0p+0, want -0x1.fffffdb8e3f72p-16; max
 * |error| over all finite inputs 0.0008143; max ULP over all finite results 1.678e+07 at x =
 * -0x1.458decp+3.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_poly3                                                                     \
    .defn = GL_DEFN_EXACT, .family = "poly",                                                       \
    .note = "Phi by a degree-6 polynomial on [-3.5, 0]",                                           \
    .tail = "-0 for x < -3.5, x for x > 3.5", .specials = GL_SPECIALS_RIGHT,                       \
    .ulp_core = 1.678e+07, .abs_all = 0.0008143, .witness = {-0x1.15f412p+2, -0x0p+0, -0x1.fffffdb8e3f72p-16}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
GL_GELU_POLY(POLY3)
GL_DEFINE_KERNEL(gelu_poly3, gelu_POLY3)
#endif
