/* gelu-fast/ISA: exact GELU x Phi(x) for binary32, in binary32 arithmetic, within 4 ULP of
 * the exact value for every binary32 input, the negative tail included down to underflow. Every
 * ISA performs the same roundings (the same bits); every result depends on its input alone.
 *
 * Method. t = |x|. Two paths, each lane taking the path of its own t:
 * 1. Core, t <= B = 3.5 (N(0, 1) inputs: 99.95 % of lanes):
 *    Phi(-t) = P_j(u), one degree-4 polynomial per piece of 32 (blocks.h core_index:
 *    j = round(k t (t + 2)), u = t - a_j exact; GL_CORE_FAST, impls/coeffs.sollya), a_j and
 *    the coefficients by vpiece (one vpermt2ps each on AVX-512, the piece's row on AVX2;
 *    vec/pieces.h); y = x P for x with its sign bit set, fma(-x, P, x)
 *    otherwise. Ops per vector: 16, no division, no exponential.
 * 2. Tail, for the lanes with t > B (or NaN), gathered VW at a time (Slow path below),
 *    xc = x clamped to [-T, T], T = 14.5 (GELU(-14.5) rounds to -0), t = |xc|;
 *    Phi(-t) = e^(-t^2/2) R(t), R(t) = erfc(t/sqrt2) e^(t^2/2)/2:
 *    t^2 = h + l exactly, e^(-(h + l)/2) = 2^n (1 + q) (exp_half_sq, blocks.h: n = round(-h/(2
 *    ln2)), r reduced exactly but for l's term, q = r Q(r) with GL_EXP degree 6); R by a degree-5
 *    polynomial per piece of 32 taken from the bits of 1 + t (exponent and 3 bits: 8 pieces per
 *    binade, GL_TAIL_R); p = fma(xr, q, xr), xr = xc R; then p 2^(n+64) (exact) times 2^-64 (one
 *    rounding, into the subnormals where the result is one; n >= -152); y = p for x with its sign
 *    bit set, x - p otherwise (x > T: x; +inf: +inf, xc = T keeps p finite).
 * Error bound, relative error of x Phi(-t) before its last rounding, units of 2^-24, first order:
 *   core: P's fit (Gal anchors keep the constant term within 2^-34)   0.64
 *         Horner: the last fma 1, the others times |u P'/P| <= 0.143   0.2
 *         together 1.84; x < 0: x P adds 0.5; x >= 0: x - x P carries P's error times
 *         P/(1 - P) <= 1, and its own 0.5: at most 2.34 ULP.
 *   tail: r (0.25), Q's fit and q's roundings (0.06 + 0.87), R's fit 2.4e-9 (0.04), R's Horner
 *         (1 + 0.5 |u R'/R|, below 1.2), xr and p (1.5): 3.9, plus the last rounding 0.5: 4.4 ULP
 *         at most to first order; the 4-ULP figure rests on the exhaustive sweep below.
 * Measured maxima (exhaustive sweep of all 2^32 inputs, against the exact definition):
 * 2.236 ULP on [-5, 5] at x = -0x1.29decap+2: got -0x1.fbdf28p-18, want -0x1.fbdf238741134p-18;
 * 2.390 ULP over all finite inputs, at x = -0x1.8c34c2p+2 (got -0x1.fd924ep-30, want
 * -0x1.fd9252c7e98bbp-30); max |error| over all finite inputs 2.384e-07; 97.66 % correctly rounded.
 * Slow path: the lanes beyond 3.5 in magnitude (and NaN) are gathered into a queue and take the
 * tail VW at a time (blocks.h core_tail_queue): a lane costs the core (12 cycles per vector of
 * 16 on AVX-512) plus, beyond 3.5, its share of a tail vector (23) and of the queue; uniform
 * inputs on [-8, 8] (56 % such lanes) run at 0.37 times N(0, 1)'s speed.
 * Special values: NaN -> NaN (x made quiet, its sign and payload kept: x + x), +inf -> +inf,
 * -inf -> -0, +-0 -> +-0. Variants measured and not kept, with their cost:
 * docs/kernel-notes.md. */
/* clang-format off */
#define GL_CONTRACT_gelu_fast                                                                      \
    .defn = GL_DEFN_EXACT, .family = "fast",                                                       \
    .note = "gelu-fast: x Phi(x) in binary32, Phi by 32 pieces for |x| <= 3.5, e^(-x^2/2) R(x) beyond", \
    .tail = "relative accuracy down to underflow (slow path: lanes with |x| > 3.5)", .specials = GL_SPECIALS_RIGHT, \
    .ulp_core = 2.236, .abs_all = 2.385e-07, .witness = {-0x1.29decap+2, -0x1.fbdf28p-18, -0x1.fbdf238741134p-18}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
/* |x| <= GL_CORE_B: Phi(-t) = P(u) on gelu-fast's core pieces (degree 4, GL_CORE_FAST) */
static inline V fast_piece_eval(V x, V t, const V *c) /* c: a_j, P's coefficients */
{
    V p = vhorner(t - c[0], c + 1, GL_CORE_FAST_DEGREE);
    return vsel_sign(x, x * p, vfma(-x, p, x)); /* x Phi(-t), or x - x Phi(-t) */
}

/* the tail, right for |x| > GL_CORE_B (other lanes take the core's result): xc = x clamped to
 * [-T, T], t = |xc|, Phi(-t) = e^(-t^2/2) R(t), the exponential as 2^n (1 + q) (exp_half_sq),
 * R on 32 pieces from the bits of 1 + t (GL_TAIL_R), the power 2^n applied as 2^(n+64), 2^-64 */
static inline V gelu_fast_tail(V x)
{
    V xc = vmax(vdup(-GL_TAIL_T), vmin(vdup(GL_TAIL_T), x)); /* NaN stays NaN */
    V t = vabs(xc), h, kd;
    V q = exp_half_sq(t, &h, &kd);
    V c[8]; /* a_j, R's coefficients; j: exponent and 3 bits of 1 + t, 8 pieces per binade */
    vpiece(TAIL_R, vbits(t + 1.0f) >> 20, c);
    V r = vhorner(t - c[0], c + 1, GL_TAIL_R_DEGREE);
    V xr = xc * r, p = vfma(xr, q, xr);
    p = (p * vfloat(vshl_u(vaddi(vbits(kd), 127 + 64), 23))) * 0x1p-64f; /* n >= -152 */
    /* NaN: x made quiet on every ISA (the NaN the arithmetic above carries depends on the
     * order the compiler gives an operation's operands) */
    return vquiet_nan(x, vsel_sign(x, p, x - p));
}

GL_DEFINE_KERNEL_CORE_TAIL(gelu_fast, CORE_FAST, fast_piece_eval, gelu_fast_tail)
#endif
