/* gelu-poly7/ISA: exact GELU with Phi by one polynomial of degree 17 on [-5.625, 0], binary32
 * arithmetic: the cheap polynomial GELUs of inference code, cut at the clamp.
 *
 * Method. GL_GELU_POLY (blocks.h): Phi(a), a = max(-|x|, -5.625), by the polynomial GL_PHI_POLY7
 * (impls/coeffs.sollya) in u = a k + 1; x < 0: x Phi(x); x >= 0: x (1 - Phi(-x)).
 * Tail: x < -5.625 gives -0, x > 5.625 gives x.
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition; its ULP
 * error is huge where the tail is cut to -0, its absolute error is the figure that matters):
 * 9.663e+05 ULP on [-5, 5] at x = -0x1.3d59aap+2: got -0x1.f60a8p-20, want -0x1.d88d978b6a6f6p-20;
 * max |error| over all finite inputs 4.247e-07; max ULP over all finite results 6.36e+07 at x =
 * -0x1.67ea4cp+2.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_poly7                                                                     \
    .defn = GL_DEFN_EXACT, .family = "poly",                                                       \
    .note = "Phi by a degree-17 polynomial on [-5.625, 0]",                                        \
    .tail = "-0 for x < -5.625, x for x > 5.625", .specials = GL_SPECIALS_RIGHT,                   \
    .ulp_core = 9.663e+05, .abs_all = 4.247e-07, .witness = {-0x1.3d59aap+2, -0x1.f60a8p-20, -0x1.d88d978b6a6f6p-20}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
GL_GELU_POLY(POLY7)
GL_DEFINE_KERNEL(gelu_poly7, gelu_POLY7)
#endif
