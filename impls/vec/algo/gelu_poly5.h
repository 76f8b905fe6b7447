/* gelu-poly5/ISA: exact GELU with Phi by one polynomial of degree 11 on [-4.75, 0], binary32
 * arithmetic: the cheap polynomial GELUs of inference code, cut at the clamp.
 *
 * Method. GL_GELU_POLY (blocks.h): Phi(a), a = max(-|x|, -4.75), by the polynomial GL_PHI_POLY5
 * (impls/coeffs.sollya) in u = a k + 1; x < 0: x Phi(x); x >= 0: x (1 - Phi(-x)).
 * Tail: x < -4.75 gives -0, x > 4.75 gives x.
 *
 * Maximum error (exhaustive sweep of all 2^32 inputs, against the exact definition; its ULP
 * error is huge where the tail is cut to -0, its absolute error is the figure that matters):
 * 3.171e+07 ULP on [-5, 5] at x = -0x1.2fffcap+2: got -0x1.42ee9cp-16, want -0x1.443b815cf1f9ap-18;
 * max |error| over all finite inputs 1.442e-05.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_poly5                                                                     \
    .defn = GL_DEFN_EXACT, .family = "poly",                                                       \
    .note = "Phi by a degree-11 polynomial on [-4.75, 0]",                                         \
    .tail = "-0 for x < -4.75, x for x > 4.75", .specials = GL_SPECIALS_RIGHT,                     \
    .ulp_core = 3.171e+07, .abs_all = 1.442e-05, .witness = {-0x1.2fffcap+2, -0x1.42ee9cp-16, -0x1.443b815cf1f9ap-18}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
GL_GELU_POLY(POLY5)
GL_DEFINE_KERNEL(gelu_poly5, gelu_POLY5)
#endif
