/* gelu-grad-fast/ISA, GELU' for the backward pass in binary32 arithmetic: dx = dy (Phi(x) + x
 * phi(x)), the derivative of exact GELU, without a division where |x| <= 5.6 (gelu-fast's method,
 * algo/gelu_fast.h) and with one beyond. Every ISA performs the same roundings (the same bits).
 *
 * Method. t = min(|x|, 15) (+-inf: 15), Phi(-t) = E R(t) with E = e^(-t^2/2) and R(t) =
 * erfc(t/sqrt2) e^(t^2/2)/2 as in gelu-fast: t^2 = h + l exactly, E = 2^n (1 + q) with
 * n = round(-h/(2 ln2)) and q = e^r - 1 from the degree-6 GL_EXP; R by gelu-fast's 8 pieces
 * (GL_FAST, degree 6) for t <= 5.6, and beyond by the sixth convergent of Laplace's continued
 * fraction of the Mills ratio, R = k t (h^2 + 14h + 33)/(h^3 + 15h^2 + 45h + 15) (relative
 * error below 8e-9 for t >= 5.6, mpmath), k = 1/sqrt(2 pi) (folded into the divisor's
 * coefficients). Then D = R - k t and
 *   x <= 0 (sign bit set): f'(x) = E D = 2^n ((1 + q) D),
 *   x > 0:                 f'(x) = 1 - E D;
 * 2^n (n >= -163) is applied as 2^(n+64) then 2^-64, so that the results reach the subnormals
 * with one rounding. x < -15 (and -inf): f'(-15) ~ -2^-160 rounds to -0, as f' does below
 * -14.54.
 * dx = RN32(dy RN32(f')): products with |dy| > 1 keep f''s relative error, not the subnormals'
 * absolute one. NaN propagates.
 * Error: R's relative error (gelu-fast's, a few 2^-24; the fraction's roundings, 4 2^-24)
 * reaches D as is in the tail (R < k t) and, near x0 = -0.7518 where R = k t, as an absolute
 * error of a few 2^-24 times R ~ 0.3: the scaled error (ulps of 1) stays near 1, the ULP
 * error grows without bound at x0. Not derived further: the figures are the exhaustive sweep's.
 * Maximum error (exhaustive sweep of all 2^32 inputs with dy = 1, against exact_grad):
 * 27.46 ULP on [-5, 5] outside the root, at its edge (x = -0x1.9367c8p-1: got -0x1.edf346p-7,
 * want -0x1.edf30f1848bep-7); 2.346 ULP in the negative tail x < -5, 0.5000033 for x > 5;
 * 1.438e7 ULP in the root region, where the scaled error is 0.2077 ulps of 1; max |error| over
 * all finite inputs 8.819e-08 (scaled: 0.7398); 96.78 % correctly rounded.
 * Special values (dy = 1): NaN -> NaN, +inf -> 1, -inf -> -0, +-0 -> 1/2. */
/* clang-format off */
#define GL_CONTRACT_gelu_grad_fast                                                                 \
    .defn = GL_DEFN_EXACT_GRAD, .family = "gelu-grad-fast",                                        \
    .note = "GELU' = Phi + x phi in binary32, gelu-fast's e^(-x^2/2) R(x), a continued fraction beyond 5.6", \
    .tail = "relative accuracy down to underflow", .specials = GL_SPECIALS_GRAD_RIGHT,             \
    .ulp_core = 27.46, .abs_all = 8.819e-08, .witness = {-0x1.9367c8p-1, -0x1.edf346p-7, -0x1.edf30f1848bep-7}
/* clang-format on */

#ifdef GL_ISA_SUFFIX
#define GL_GRAD_FAST_TMAX 15.0f
#define GL_SQRT_2PI       0x1.40d932p+1f /* RN(sqrt(2 pi)) = 1/k */
static inline V grad_fast_f(V x)
{
    const float k = 0x1.988454p-2f;               /* RN(1/sqrt(2 pi)) */
    V t = vmin(vdup(GL_GRAD_FAST_TMAX), vabs(x)); /* NaN stays NaN (and propagates) */
    V h, kd, q = exp_half_sq(t, &h, &kd);         /* E = 2^n (1 + q), blocks.h */
    V R = fast_R(vmin(t, vdup(GL_FAST_T)));       /* gelu-fast's pieces (NaN: 5.6) */
    /* beyond 5.6: k t (h^2 + 14h + 33)/(h^3 + 15h^2 + 45h + 15), k folded into the divisor */
    V num = t * vfma(h, h + 14.0f, vdup(33.0f));
    V den =
        vfma(h, vfma(h, vfma(h, vdup(GL_SQRT_2PI), vdup(15 * GL_SQRT_2PI)), vdup(45 * GL_SQRT_2PI)),
             vdup(15 * GL_SQRT_2PI));
    R = vsel(GL_MASK(t > GL_FAST_T), num / den, R);
    V d = vfma(t, vdup(-k), R); /* R - k t */
    V m = vfma(d, q, d);        /* (1 + q) D */
    /* E D = (m 2^(n+64)) 2^-64: the first product exact, the second rounds once (into the
     * subnormals where E D is one); 2^(n+64) from kd's low bits (n >= -163), as gelu-fast */
    V ed = (m * vfloat(vshl_u(vaddi(vbits(kd), 127 + 64), 23))) * 0x1p-64f;
    return vsel_sign(x, ed, 1.0f - ed);
}
GL_DEFINE_BWD_KERNEL(gelu_grad_fast, grad_fast_f)
#endif
