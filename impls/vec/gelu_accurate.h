/* gelu-accurate (registry: accurate/ISA): exact GELU x Phi(x) for binary32 inputs, within
 * 0.609 ULP of the exact value for every binary32 input, the negative tail included down to
 * underflow. Included by vec/kernels.h once per ISA; the binary64 lanes (VD, VDW, vfmad) come
 * from the ISA header, so every ISA performs the same roundings (the same bits).
 *
 * Method. The input is widened to binary64 (exact) and everything runs in binary64:
 *   xc = max(x, -15.5), a = min(|xc|, 15.5), h = a/(2 sqrt 2) = z/2 with z = a/sqrt 2,
 *   t = 1/(1 + h), w = h t;  erfc(z) = t Q(w) exp(-z^2), Q = GL_ERFC_Q_D (degree 10, Q(0) = 1,
 *   Sollya, impls/coeffs.sollya: Q is erfc(z) e^(z^2)/t in the variable w), where
 *   -z^2 = -a^2/2 is exact (a^2 has at most 48 bits), so exp's argument carries no rounding;
 *   k = (t/2) (Q e) = Phi(-a), e = exp(-a^2/2) our own (Cody-Waite with fma, degree-6
 *   GL_EXP_D, 2^n put in the exponent field: n >= -174, never subnormal). exp does not wait for
 *   Q (nor Q for exp): the two dependency chains run side by side, which is what bounds the
 *   speed of this latency-bound code (an exp of -z^2 + log Q, one chain, ran ~24 % slower).
 *   y = xc k for x with its sign bit set (-0, NaN too), fma(-a, k, xc) otherwise (+0 stays +0,
 *   +inf stays +inf); y rounded once to binary32. x < -15.5 (and -inf): xc = -15.5 and
 *   y ~ -2^-176, which rounds to -0, as the exact GELU (< 2^-170 in magnitude) does;
 *   x > 15.5: a k < 2^-170 and y = x; NaN propagates.
 * Error bound, as a relative error e of k (first order; Sollya's sup norms, rounded up):
 *   Q's fit             0x1.25429ap-28 = 4.268e-9 (relative)
 *   exp's fit           0x1.2cf6fep-29 = 2.190e-9 (relative)
 *   binary64 roundings  < 2^-44 together: Q's coefficients and terms are below 1.3 in
 *                       magnitude (w <= 0.85) and Q >= 0.39, so each of its ~20 Estrin
 *                       roundings is below 2^-51 relative; h, t and w through Q (erfc(z) e^(z^2)
 *                       varies by at most 1.13 z relative per unit of z) below 2^-48; exp's
 *                       reduction and steps, and the three products, below 2^-50.
 *   e <= 6.458e-9 + 2^-44 < 6.4581e-9.  x < 0: xc k has relative error e + 2^-53; x >= 0:
 *   xc - a k has e a k/(xc - a k) <= e (Phi(-a) <= 1/2), rounded once by the fma. Rounding to
 *   binary32 adds at most half an ULP; a relative error e is at most e 2^24 ULP of a binary32
 *   result (less for subnormals). Bound: 0.5 + 6.4581e-9 2^24 = 0.6084 ULP. The exhaustive
 *   sweep of all 2^32 inputs measures 0.5997 (impls/registry.c).
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */

static inline __attribute__((always_inline)) VD vseld(VDI m, VD a, VD b)
{
    return vdouble((vbitsd(a) & m) | (vbitsd(b) & ~m));
}
/* binary32 lanes to binary64 (exact) and back (rounded to nearest) */
static inline __attribute__((always_inline)) VD vwiden(VF f)
{
#ifdef GL_ISA_WIDEN
    return vwiden_isa(f);
#else
    return GL_CVT(f, VD);
#endif
}
static inline __attribute__((always_inline)) VF vnarrow(VD d)
{
#ifdef GL_ISA_WIDEN
    return vnarrow_isa(d);
#else
    return GL_CVT(d, VF);
#endif
}
/* the binary64 twins of vmin, vmax (a < b ? a : b, a > b ? a : b) and vsel_sign */
static inline __attribute__((always_inline)) VD vmind(VD a, VD b)
{
#ifdef GL_ISA_MINMAX
    return vmind_isa(a, b);
#else
    return vseld(GL_MASKD(a < b), a, b);
#endif
}
static inline __attribute__((always_inline)) VD vmaxd(VD a, VD b)
{
#ifdef GL_ISA_MINMAX
    return vmaxd_isa(a, b);
#else
    return vseld(GL_MASKD(a > b), a, b);
#endif
}
static inline __attribute__((always_inline)) VD vseld_sign(VD s, VD a, VD b)
{
#ifdef GL_ISA_SEL_SIGN
    return vseld_sign_isa(s, a, b);
#else
    return vseld(vbitsd(s) >> 63, a, b);
#endif
}
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

/* e^s for s in [-130, 1]: s = n ln2 + r, |r| <= ln2/2 + 2^-40, n = round(s / ln2) by the
 * 1.5 2^52 shift, r by two fma with ln2 = hi + lo; e^r by the polynomial c (GL_EXP_D here,
 * GL_EXP_CR in gelu-cr); 2^n into the exponent field. */
static inline __attribute__((always_inline)) VD vexpd(VD s, const double *c, int degree)
{
    const double shift = 0x1.8p52;
    VD kd = vfmad(s, vdupd(0x1.71547652b82fep0), vdupd(shift));
    VD n = kd - shift;
    VD r = vfmad(n, vdupd(-0x1.62e42fefa39efp-1), s);
    r = vfmad(n, vdupd(-0x1.abc9e3b39803fp-56), r);
    VD p = vpolyd(r, c, degree);
    VD scale = vdouble(vshld_u(vbitsd(kd) + 1023, 52));
    return p * scale;
}

/* x Phi(x) by the method above, with the polynomials Q (the erfc form) and E (e^r) */
static inline __attribute__((always_inline)) VD gelu_xphi_d(VD x, const double *Q, int q_degree,
                                                            const double *E, int e_degree)
{
    VD xc = vmaxd(vdupd(-15.5), x);                                        /* -inf too; NaN stays */
    VD a = vmind(vdouble(vbitsd(xc) & 0x7fffffffffffffffLL), vdupd(15.5)); /* +inf; NaN: 15.5 */
    VD h = a * 0x1.6a09e667f3bcdp-2;                                       /* 1 / (2 sqrt 2) */
    VD t = 1.0 / (1.0 + h);
    VD e = vexpd(a * a * -0.5, E, e_degree);             /* e^(-a^2/2), beside the division and Q */
    VD k = (0.5 * t) * (vpolyd(h * t, Q, q_degree) * e); /* Phi(-a) */
    return vseld_sign(xc, xc * k, vfmad(-a, k, xc));     /* x < 0 (-0, NaN too): x Phi(x) */
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
