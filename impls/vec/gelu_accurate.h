/* gelu-accurate (registry: accurate/ISA): exact GELU x Phi(x) for binary32 inputs, within
 * 0.609 ULP of the exact value for every binary32 input, the negative tail included down to
 * underflow. Included by vec/kernels.h once per ISA; the binary64 lanes (VD, VDW, vfmad) come
 * from the ISA header, so every ISA performs the same roundings (the same bits).
 *
 * Method. The input is widened to binary64 (exact) and everything runs in binary64:
 *   xc = max(x, -15.5), a = min(|xc|, 15.5), z = a/sqrt 2, t = 1/(1 + z/2) (one fma, one
 *   division), w = 1 - t; erfc(z) = t Q(w) exp(-z^2), Q = GL_ERFC_Q_D (degree 10, Q(0) = 1,
 *   Sollya, impls/coeffs.sollya: Q is erfc(z) e^(z^2)/t in the variable w), where
 *   -z^2 = -a^2/2 is exact (a^2 has at most 48 bits), so exp's argument carries no rounding;
 *   e^(-a^2/2) = 2^n p, our own exp (Cody-Waite with fma, degree-6 GL_EXP_D); the power 2^n
 *   (n >= -174: never subnormal) and t/2 multiply x first, s = xc (t/2) 2^n (exact but for
 *   one rounding of xc ts), and Phi(-a) = (t/2) 2^n p q: y = q (p s) for x with its sign bit
 *   set (-0, NaN too), fma(-q, p (a ts), xc) otherwise (+0 stays +0, +inf stays +inf); y
 *   rounded once to binary32. exp does not wait for Q (nor Q for exp), and the products wait
 *   for neither: the dependency chains run side by side, which is what bounds the speed of this
 *   latency-bound code (an exp of -z^2 + log Q, one chain, ran ~25 % slower). x < -15.5 (and
 *   -inf): xc = -15.5 and y ~ -2^-176, which rounds to -0, as the exact GELU (< 2^-170 in
 *   magnitude) does; x > 15.5: a Phi(-a) < 2^-170 and y = x; NaN propagates.
 * Error bound, as a relative error e of Phi(-a) (first order; Sollya's sup norms, rounded up):
 *   Q's fit             0x1.25429ap-28 = 4.268e-9 (relative)
 *   exp's fit           0x1.2cf6fep-29 = 2.190e-9 (relative)
 *   binary64 roundings  < 2^-44 together: Q's coefficients and terms are below 1.3 in
 *                       magnitude (w <= 0.85) and Q >= 0.39, so each of its ~20 Estrin
 *                       roundings is below 2^-51 relative; t and w: (t, 1 - t) is the exact
 *                       pair of some z' within 2 (1 + z/2) 2^-53 of z, and erfc(z) e^(z^2)
 *                       changes by at most 1.13 (z' - z) relative (below 2^-48); w's own
 *                       rounding (t < 1/2) moves Q by |Q'| 2^-54; exp's reduction and steps,
 *                       and the products, below 2^-50.
 *   e <= 6.458e-9 + 2^-44 < 6.4581e-9.  x < 0: q (p s) has relative error e + 2^-52; x >= 0:
 *   xc - a Phi(-a) has e a Phi(-a)/(xc - a Phi(-a)) <= e (Phi(-a) <= 1/2), rounded once by the
 *   fma. Rounding to binary32 adds at most half an ULP; a relative error e is at most e 2^24 ULP
 *   of a binary32 result (less for subnormals). Bound: 0.5 + 6.4581e-9 2^24 = 0.6084 ULP. The
 *   exhaustive sweep of all 2^32 inputs measures 0.5997 (impls/registry.c).
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */

/* Estrin's scheme (degree <= 31): pairs c[2i] + c[2i+1] u, then pairs of pairs with u^2, u^4,
 * u^8, u^16: a dependency chain of 5 fma at most instead of `degree` (the out-of-order core
 * overlaps the rest). */
static inline __attribute__((always_inline)) VD vpolyd(VD u, const double *c, int degree)
{
    VD q[16], pw = u;
    int n = degree / 2 + 1;
#pragma GCC unroll 16
    for (int i = 0; i < n; i++)
        q[i] =
            2 * i + 1 <= degree ? vfmad(vdupd(c[2 * i + 1]), u, vdupd(c[2 * i])) : vdupd(c[2 * i]);
#pragma GCC                                                                                        \
    unroll 4 /* fixed trip counts, so that the loops unroll whole (the scalar ISA vectorises) */
    for (int level = 0; level < 4 && n > 1; level++) {
        pw = pw * pw;
#pragma GCC unroll 8
        for (int i = 0; i < (n + 1) / 2; i++)
            q[i] = 2 * i + 1 < n ? vfmad(q[2 * i + 1], pw, q[2 * i]) : q[2 * i];
        n = (n + 1) / 2;
    }
    return q[0];
}

/* e^s = 2^n p for s in [-130, 1]: s = n ln2 + r, |r| <= ln2/2 + 2^-40, n = round(s / ln2) by
 * the 1.5 2^52 shift, r by two fma with ln2 = hi + lo; p = e^r by the polynomial c (GL_EXP_D
 * here, GL_EXP_CR in gelu-cr); 2^n (into the exponent field) goes to *scale, so that the
 * caller can apply it where it costs no latency. vexpd: the product. */
static inline __attribute__((always_inline)) VD vexpd_parts(VD s, const double *c, int degree,
                                                            VD *scale)
{
    const double shift = 0x1.8p52;
    VD kd = vfmad(s, vdupd(0x1.71547652b82fep0), vdupd(shift));
    VD n = kd - shift;
    VD r = vfmad(n, vdupd(-0x1.62e42fefa39efp-1), s);
    r = vfmad(n, vdupd(-0x1.abc9e3b39803fp-56), r);
    *scale = vdouble(vshld_u(vbitsd(kd) + 1023, 52));
    return vpolyd(r, c, degree);
}
static inline __attribute__((always_inline)) VD vexpd(VD s, const double *c, int degree)
{
    VD scale, p = vexpd_parts(s, c, degree, &scale);
    return p * scale;
}

/* x Phi(x) by the method above, with the polynomials Q (the erfc form) and E (e^r) */
static inline __attribute__((always_inline)) VD gelu_xphi_d(VD x, const double *Q, int q_degree,
                                                            const double *E, int e_degree)
{
    VD xc = vmaxd(vdupd(-15.5), x);                                        /* -inf too; NaN stays */
    VD a = vmind(vdouble(vbitsd(xc) & 0x7fffffffffffffffLL), vdupd(15.5)); /* +inf; NaN: 15.5 */
    VD t = 1.0 / vfmad(a, vdupd(0x1.6a09e667f3bcdp-2), vdupd(1.0));        /* 1/(1 + z/2) */
    VD q = vpolyd(1.0 - t, Q, q_degree);                                   /* w = 1 - t */
    VD scale, p = vexpd_parts(a * a * -0.5, E, e_degree, &scale);          /* e^(-a^2/2) = 2^n p */
    VD ts = (0.5 * t) * scale; /* exact: 2^-178 < ts <= 1/2 */
    /* Phi(-a) = ts p q; the products with x (or a) come before q, which is ready last */
    VD yn = q * (p * (xc * ts)), yp = vfmad(-q, p * (a * ts), xc);
    return vseld_sign(xc, yn, yp); /* x < 0 (-0, NaN too): x Phi(x); else x - a Phi(-a) */
}

static inline __attribute__((always_inline)) VD gelu_accurate(VD x)
{
    return gelu_xphi_d(x, gl_ERFC_Q_D, GL_ERFC_Q_D_DEGREE, gl_EXP_D, GL_EXP_D_DEGREE);
}

/* The kernel ABI over binary64 lanes: two vectors of VDW per step (independent chains for the
 * out-of-order core), then one, then the tail through a zeroed vector. */
#define GL_DEFINE_KERNEL_D(algo, fn)                                                               \
    static inline void GL_CAT(algo##_step, GL_ISA_SUFFIX)(const float *x, float *y)                \
    {                                                                                              \
        VF f;                                                                                      \
        memcpy(&f, x, sizeof f);                                                                   \
        f = vnarrow(fn(vwiden(f)));                                                                \
        memcpy(y, &f, sizeof f);                                                                   \
    }                                                                                              \
    GL_KERNEL_ATTR void GL_KNAME(algo)(const float *x, float *y, size_t n)                         \
    {                                                                                              \
        size_t i = 0;                                                                              \
        for (; i + 2 * VDW <= n; i += 2 * VDW) {                                                   \
            VF f0, f1;                                                                             \
            memcpy(&f0, x + i, sizeof f0);                                                         \
            memcpy(&f1, x + i + VDW, sizeof f1);                                                   \
            VD d0 = fn(vwiden(f0)), d1 = fn(vwiden(f1));                                           \
            f0 = vnarrow(d0), f1 = vnarrow(d1);                                                    \
            memcpy(y + i, &f0, sizeof f0);                                                         \
            memcpy(y + i + VDW, &f1, sizeof f1);                                                   \
        }                                                                                          \
        for (; i + VDW <= n; i += VDW) GL_CAT(algo##_step, GL_ISA_SUFFIX)(x + i, y + i);           \
        if (i < n) {                                                                               \
            float bx[VDW] = {0}, by[VDW];                                                          \
            memcpy(bx, x + i, (n - i) * sizeof(float));                                            \
            GL_CAT(algo##_step, GL_ISA_SUFFIX)(bx, by);                                            \
            memcpy(y + i, by, (n - i) * sizeof(float));                                            \
        }                                                                                          \
    }

GL_DEFINE_KERNEL_D(accurate, gelu_accurate)
