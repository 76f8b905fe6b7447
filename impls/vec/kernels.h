/* The generic vector kernels: each algorithm written once over a thin ISA header (isa_*.h:
 * the vector type V of VW floats, VI, vfma), included once per ISA (SLEEF's habit). GCC vector
 * extensions (plain C scalars in the scalar ISA: the lane model below) give +, -, *, /,
 * comparisons (lane masks of -1/0) and bit operations; fma is the
 * ISA's own, so every ISA performs the same roundings and the scalar build is the bit-exact
 * model of the SIMD builds. Constants are hex floats; polynomials come from impls/coeffs.h.
 *
 * Bounds: measured, and declared once in impls/registry.c with their witnesses. */
#include <string.h>
#include "../coeffs.h"

#define GL_CAT2(a, b)  a##_##b
#define GL_CAT(a, b)   GL_CAT2(a, b)
#define GL_KNAME(algo) GL_CAT(gl_k_##algo, GL_ISA_SUFFIX)

/* The lane model. GCC vector extensions: casts between vectors of one size reinterpret bits,
 * comparisons give lane masks of -1/0. The scalar ISA (GL_ISA_PLAIN) uses plain C scalars, so
 * that the compiler can vectorise its loops, and defines the same operations itself: vbits and
 * vfloat (the bits of a float and back), GL_MASK (a comparison as -1/0), GL_CVT (a value
 * conversion), vshl_u (a left shift of the bits, unsigned), vdup (broadcast); *d for VD. */
#ifndef GL_ISA_PLAIN
typedef uint32_t VU __attribute__((vector_size(sizeof(VI))));
typedef uint64_t VDU __attribute__((vector_size(sizeof(VDI))));
#define GL_MASK(c)   (c)
#define GL_MASKD(c)  (c)
#define GL_CVT(v, T) __builtin_convertvector(v, T)
static inline VI vbits(V a)
{
    return (VI)a;
}
static inline V vfloat(VI i)
{
    return (V)i;
}
static inline VI vshl_u(VI a, int s)
{
    return (VI)((VU)a << s);
}
static inline V vdup(float a) /* broadcast (not 0 + a: that would turn -0 into +0) */
{
    V v;
    for (int i = 0; i < VW; i++) v[i] = a;
    return v;
}
static inline VDI vbitsd(VD a)
{
    return (VDI)a;
}
static inline VD vdouble(VDI i)
{
    return (VD)i;
}
static inline VDI vshld_u(VDI a, int s)
{
    return (VDI)((VDU)a << s);
}
static inline __attribute__((always_inline)) VD vdupd(double a)
{
    VD v;
    for (int i = 0; i < VDW; i++) v[i] = a;
    return v;
}
#endif
static inline V vsel(VI m, V a, V b) /* m ? a : b, lane by lane */
{
    return vfloat((vbits(a) & m) | (vbits(b) & ~m));
}
static inline V vsel_sign(V s, V a, V b) /* a where s has its sign bit set (-0 too), else b */
{
#ifdef GL_ISA_SEL_SIGN
    return vsel_sign_isa(s, a, b);
#else
    return vsel(vbits(s) >> 31, a, b);
#endif
}
static inline V vabs(V a)
{
    return vfloat(vbits(a) & 0x7fffffff);
}
/* a < b ? a : b and a > b ? a : b (so NaN in either, or two zeros, give b): the semantics of
 * x86's minps/maxps, used where the ISA header has them (GL_ISA_MINMAX) */
static inline V vmin(V a, V b)
{
#ifdef GL_ISA_MINMAX
    return vmin_isa(a, b);
#else
    return vsel(GL_MASK(a < b), a, b);
#endif
}
static inline V vmax(V a, V b)
{
#ifdef GL_ISA_MINMAX
    return vmax_isa(a, b);
#else
    return vsel(GL_MASK(a > b), a, b);
#endif
}
/* binary64 lanes (the accurate family): m ? a : b, lane by lane */
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
static inline V vround(V a) /* nearest integer, ties to even, |a| < 2^22 */
{
    return (a + 0x1.8p23f) - 0x1.8p23f;
}
static inline V vpoly(V u, const float *c, int degree) /* Horner with fma */
{
    V p = vdup(c[degree]);
#pragma GCC unroll 32
    for (int i = degree - 1; i >= 0; i--) p = vfma(p, u, vdup(c[i]));
    return p;
}

/* exp(a): a = n ln2 + r, |r| <= ln2/2 (Cody-Waite, two constants, fma), e^r by the degree-6
 * fit GL_EXP (relative error 3.7e-9), times 2^n in two halves (so that results down to the
 * subnormals are reached without overflowing an exponent). a < -104: 0 (e^a < 2^-150);
 * a > 88.72: inf. Lanes outside [-104, 88.8] (and NaN) compute e^0 and are replaced at the end:
 * no subnormal intermediate where the result is a constant (subnormals cost a microcode assist
 * on many x86 cores; the results are the same). */
#define GL_LOG2E  0x1.715476p+0f /* RN(1/ln2) */
#define GL_LN2_HI 0x1.62e43p-1f  /* ln2 = GL_LN2_HI - GL_LN2_LO + 8.8e-17; HI has 21 bits */
#define GL_LN2_LO 0x1.05c61p-29f
static inline V vexp(V a)
{
    V ac = vsel(GL_MASK((a >= -104.0f) & (a <= 88.8f)), a, vdup(0.0f));
    V n = vround(ac * GL_LOG2E);
    V r = vfma(n, vdup(-GL_LN2_HI), ac);
    r = vfma(n, vdup(GL_LN2_LO), r);
    V p = vpoly(r, gl_EXP, GL_EXP_DEGREE);
    VI ni = GL_CVT(n, VI);
    VI n1 = ni >> 1, n2 = ni - n1;
    V s1 = vfloat((n1 + 127) << 23), s2 = vfloat((n2 + 127) << 23);
    V e = p * s1 * s2;
    e = vsel(GL_MASK(a < -104.0f), vdup(0.0f), e);
    return vsel(GL_MASK(a > 88.72f), vdup(__builtin_inff()), e);
}

/* x * sigma(s) = x / (1 + e^-s) for s >= 0, x e^s / (1 + e^s) for s < 0 (no overflow, no
 * cancellation); s has x's sign. s < -104: -0. */
static inline V x_sigma(V x, V s)
{
    V e = vexp(-vabs(s));
    V num = vsel(GL_MASK(s >= 0.0f), x, x * e);
    V y = num / (1.0f + e);
    return vsel(GL_MASK(s < -104.0f), vdup(-0.0f), y);
}

/* tanh definition: (x/2)(1 + tanh(u)) = x sigma(2u), 2u = x (C0 + C1 x^2),
 * C0 = RN(2 sqrt(2/pi)), C1 = RN(2 sqrt(2/pi) 0.044715). */
static inline V gelu_tanh(V x)
{
    return x_sigma(x, x * vfma(x * x, vdup(0x1.2444f2p-4f), vdup(0x1.988454p+0f)));
}
static inline V gelu_sigmoid(V x)
{
    return x_sigma(x, x * 0x1.b3b646p+0f); /* 1.702 */
}
static inline V silu(V x)
{
    return x_sigma(x, x);
}

/* exact definition: Phi(x) from erfc(z), z = |x|/sqrt2, erfc(z) = t exp(-z^2 + P(w)),
 * t = 1/(1 + z/2), w = 1 - t = (z/2) t, P = GL_ERFC_W (absolute fit error = relative for erfc).
 * -z^2 = -x^2/2 is kept exact as a pair (fma) and added to P with TwoSum, so the argument of
 * exp carries no rounding error of size z^2 2^-24 (the ~190-ULP loss of x/sqrt2 in float).
 * x < 0: GELU = x erfc(z)/2;  x >= 0: x (1 - erfc(z)/2).  z > 11.3: -0 or x. */
static inline V gelu_erf(V x)
{
    V z = vabs(x) * 0x1.6a09e6p-1f;
    V h = 0.5f * vmin(z, vdup(11.3f));
    V t = 1.0f / (1.0f + h);
    V p = vpoly(h * t, gl_ERFC_W, GL_ERFC_W_DEGREE);
    V xx = x * x, xx_lo = vfma(x, x, -xx);
    V a = xx * -0.5f, a_lo = xx_lo * -0.5f;
    V s = a + p, bp = s - a; /* TwoSum(a, p) */
    V s_lo = ((a - (s - bp)) + (p - bp)) + a_lo;
    V e = vexp(s);
    V erfc = t * vfma(e, s_lo, e);
    V y = vsel(GL_MASK(x < 0.0f), x * (0.5f * erfc), vfma(-x, 0.5f * erfc, x));
    y = vsel(GL_MASK(x == 0.0f), x, y); /* fma(-x, h, x) would turn -0 into +0 */
    return vsel(GL_MASK(z > 11.3f), vsel(GL_MASK(x > 0.0f), x, vdup(-0.0f)), y);
}

/* Polynomial families: Phi(a), a = max(-|x|, -c), by a polynomial in u = a k + 1 (GL_PHI_*);
 * x < 0: x Phi(x); x >= 0: x (1 - Phi(-x)). Tail: x < -c gives -0, x > c gives x. */
#define GL_GELU_POLY(NAME)                                                                         \
    static inline V gelu_##NAME(V x)                                                               \
    {                                                                                              \
        V a = vmax(-vabs(x), vdup(-GL_PHI_##NAME##_CLAMP));                                        \
        V p = vpoly(vfma(a, vdup(GL_PHI_##NAME##_K), vdup(1.0f)), gl_PHI_##NAME,                   \
                    GL_PHI_##NAME##_DEGREE);                                                       \
        V y = vsel(GL_MASK(x < 0.0f), x * p, vfma(-x, p, x));                                      \
        y = vsel(GL_MASK(x == 0.0f), x, y); /* keep the sign of a zero */                          \
        y = vsel(GL_MASK(x < -GL_PHI_##NAME##_CLAMP), vdup(-0.0f), y);                             \
        return vsel(GL_MASK(x > GL_PHI_##NAME##_CLAMP), x, y);                                     \
    }
GL_GELU_POLY(POLY3)
GL_GELU_POLY(POLY5)
GL_GELU_POLY(POLY7)

/* The kernel ABI around a lane function: full vectors, then the tail through a zeroed vector
 * (any n, unaligned, in place). */
#ifndef GL_KERNEL_ATTR
#define GL_KERNEL_ATTR
#endif
#define GL_DEFINE_KERNEL(algo, fn)                                                                 \
    GL_KERNEL_ATTR void GL_KNAME(algo)(const float *x, float *y, size_t n)                         \
    {                                                                                              \
        size_t i = 0;                                                                              \
        for (; i + VW <= n; i += VW) {                                                             \
            V v;                                                                                   \
            memcpy(&v, x + i, sizeof v);                                                           \
            v = fn(v);                                                                             \
            memcpy(y + i, &v, sizeof v);                                                           \
        }                                                                                          \
        if (i < n) {                                                                               \
            V v = vdup(0.0f);                                                                      \
            memcpy(&v, x + i, (n - i) * sizeof(float));                                            \
            v = fn(v);                                                                             \
            memcpy(y + i, &v, (n - i) * sizeof(float));                                            \
        }                                                                                          \
    }

GL_DEFINE_KERNEL(erf, gelu_erf)
GL_DEFINE_KERNEL(tanh, gelu_tanh)
GL_DEFINE_KERNEL(sigmoid, gelu_sigmoid)
GL_DEFINE_KERNEL(silu, silu)
GL_DEFINE_KERNEL(poly3, gelu_POLY3)
GL_DEFINE_KERNEL(poly5, gelu_POLY5)
GL_DEFINE_KERNEL(poly7, gelu_POLY7)

#include "gelu_fast.h"      /* binary32, piecewise R: gelu-fast */
#include "gelu_accurate.h"  /* binary64 lanes: the accurate family */
#include "gelu_tanh_fast.h" /* binary64 lanes: the tanh definition */
#include "gelu_cr.h"        /* binary64 lanes and long double: gelu-cr */
