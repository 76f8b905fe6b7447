/* gelu-accurate/ISA: exact GELU x Phi(x) for binary32 inputs, within 1 ULP (0.89
 * derived, 0.813 measured) of the exact value for every binary32 input, the negative tail
 * included down to underflow. Every ISA performs the same roundings (the same bits); every
 * result depends on its input alone.
 *
 * Method. t = |x|. Two paths, each lane taking the path of its own t:
 * 1. Core, t <= B = 3.5, binary32 with one compensated step: Phi(-t) = hi + lo + u S(u) on
 *    gelu-fast's 32 core pieces (blocks.h core_index, vpiece), hi a multiple of 2^-24 (so 1 - hi is
 *    exact), lo = RN32(Phi(-a_j) - hi), S of degree 4 (GL_CORE_ACC: P of degree 5); e = fma(S,
 *    u, lo); y = fma(x, C, -t e) with C = hi for x with its sign bit set (x Phi(-t)), 1 - hi
 *    otherwise (x (1 - Phi(-t))): the only rounding at full scale is the last one.
 *    Error, units of 2^-24 of y: the small term t e carries S's Horner error (1), the roundings
 *    of u S + lo and of t e (1.5), and is at most 0.143 y (x < 0: |e|/Phi(-t) <= |u Phi'/Phi|
 *    + 2^-13; x >= 0: |e|/(1 - Phi) <= 0.124): 0.36; the fit 1.6e-9 (0.03); the last
 *    rounding 0.5: 0.89 ULP.
 * 2. Tail, for the lanes with t > B (or NaN), gathered VW at a time (Slow path below),
 *    gelu_xphi_d (blocks.h) in binary64 lanes, VDW at a time:
 *    xc = max(x, -15.5), a = min(|xc|, 15.5), z = a/sqrt 2, t = 1/(1 + z/2) (one fma, one
 *    division), w = 1 - t; erfc(z) = t Q(w) exp(-z^2), Q = GL_ERFC_Q_D (degree 10, Q(0) = 1,
 *    Sollya, impls/coeffs.sollya: Q is erfc(z) e^(z^2)/t in the variable w), where
 *    -z^2 = -a^2/2 is exact (a^2 has at most 48 bits), so exp's argument carries no rounding;
 *    e^(-a^2/2) = 2^n p, our own exp (Cody-Waite with fma, degree-6 GL_EXP_D); the power 2^n
 *    (n >= -174: never subnormal) and t/2 multiply x first, s = xc (t/2) 2^n (exact but for
 *    one rounding of xc ts), and Phi(-a) = (t/2) 2^n p q: y = q (p s) for x with its sign bit
 *    set (-0, NaN too), fma(-q, p (a ts), xc) otherwise (+0 stays +0, +inf stays +inf); y
 *    rounded once to binary32. x < -15.5 (and -inf): y ~ -2^-176 rounds to -0, as the exact
 *    GELU does; x > 15.5: y = x; NaN propagates.
 *    Error, relative, first order (Sollya's sup norms): Q's fit 4.268e-9, exp's fit 2.190e-9,
 *    binary64 roundings below 2^-44: e <= 6.4581e-9; with the rounding to binary32,
 *    0.5 + 6.4581e-9 2^24 = 0.6084 ULP.
 * Measured maxima (exhaustive sweep of all 2^32 inputs, against the exact definition):
 * 0.8130 ULP on [-5, 5] at x = -0x1.bb8ebep+1: got -0x1.e123c6p-11, want
 * -0x1.e123c7a04718bp-11 (the core); 0.5981 in the tail; max |error| over all finite inputs
 * 2.385e-07; 99.72 % correctly rounded.
 * Slow path: the lanes beyond 3.5 in magnitude (and NaN) are gathered into a queue and take the
 * binary64 tail VW at a time (blocks.h core_tail_queue), about 5 times the core's cost per
 * lane: uniform inputs on [-8, 8] (56 % such lanes) run at a quarter of N(0, 1)'s speed. The
 * tail is always_inline in every build: in the scalar one that puts it in each clone, so that
 * the x86-64-v3 and FMA clones use the FMA instruction, not libm's fma called 21 times a lane
 * (uniform on [-8, 8), 64 Ki floats: 87.2 -> 22.9 cycles per element, Zen 4, 2026-12-07; the
 * same bits); the vector builds inlined it already.
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
/* clang-format off */
#define GL_CONTRACT_gelu_accurate                                                                  \
    .defn = GL_DEFN_EXACT, .family = "accurate",                                                   \
    .note = "gelu-accurate: x Phi(x), binary32 core with one compensated step for |x| <= 3.5, binary64 beyond", \
    .tail = "relative accuracy down to underflow (slow path: lanes with |x| > 3.5)", .specials = GL_SPECIALS_RIGHT, \
    .ulp_core = 0.8131, .abs_all = 2.385e-07, .witness = {-0x1.bb8ebep+1, -0x1.e123c6p-11, -0x1.e123c7a04718bp-11}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
/* |x| <= GL_CORE_B: Phi(-t) = c0 + e, c0 = hi + lo (hi a multiple of 2^-24, so 1 - hi is
 * exact), e = lo + u S(u) (GL_CORE_ACC, degree 5); y = fma(x, C, -t e), C = hi for x < 0
 * (x Phi(-t)), 1 - hi otherwise (x - x Phi(-t)): one rounding but that of the small term */
static inline V accurate_piece_eval(V x, V t, const V *k) /* k: a_j, S's coefficients, lo, hi */
{
    V u = t - k[0], s = vhorner(u, k + 1, GL_CORE_ACC_DEGREE - 1);
    V e = vfma(s, u, k[6]), hi = k[7];
    V c = vsel_sign(x, hi, 1.0f - hi);
    return vfma(x, c, vfloat(vbits(t) | (int32_t)0x80000000) * e);
}

/* the tail: gelu_xphi_d (blocks.h) in binary64 lanes, VDW at a time */
static inline __attribute__((always_inline)) V gelu_accurate_wide(V x)
{
    float in[VW], out[VW];
    memcpy(in, &x, sizeof in);
#pragma GCC unroll 4
    for (int i = 0; i < VW; i += VDW) {
        VF f;
        memcpy(&f, in + i, sizeof f);
        f = vnarrow(
            gelu_xphi_d(vwiden(f), gl_ERFC_Q_D, GL_ERFC_Q_D_DEGREE, gl_EXP_D, GL_EXP_D_DEGREE));
        memcpy(out + i, &f, sizeof f);
    }
    memcpy(&x, out, sizeof x);
    return x;
}

GL_DEFINE_KERNEL_CORE_TAIL(gelu_accurate, CORE_ACC, accurate_piece_eval, gelu_accurate_wide)
#endif
