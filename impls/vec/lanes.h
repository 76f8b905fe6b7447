/* The lane model of the generic vector kernels, over a thin ISA header (isa_*.h: the vector
 * type V of VW floats, VI, vfma; VD of VDW doubles, VDI, VF, vfmad), included once per ISA
 * (SLEEF's habit). GCC vector extensions (plain C scalars in the scalar ISA) give +, -, *, /,
 * comparisons (lane masks of -1/0) and bit operations; fma is the ISA's own, so every ISA
 * performs the same roundings and the scalar build is the bit-exact model of the SIMD builds.
 * Here: the lane operations, Horner and Estrin evaluation, and the kernel ABI around a lane
 * function (GL_DEFINE_KERNEL, GL_DEFINE_KERNEL_D). The shared building blocks (exp, x sigma(s),
 * x Phi(x) in binary64) are in blocks.h, each algorithm in algo/NAME.h (impls/algos.list). */
#include <string.h>

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
/* y, but x + x (x made quiet, its sign and payload kept) where x is NaN: a kernel's result for
 * a NaN input on every ISA, whatever NaN its arithmetic happened to carry (the compiler may
 * commute operands or turn a negation into a sign flip) */
static inline V vquiet_nan(V x, V y)
{
    return vsel(GL_MASK(x == x), y, x + x);
}
/* a + c on the lanes' integers, wrapping as the vector ISAs do (a NaN's bits reach INT32_MAX:
 * the plain scalar int would overflow, undefined in C) */
static inline VI vaddi(VI a, int32_t c)
{
#ifdef GL_ISA_PLAIN
    return (VI)((uint32_t)a + (uint32_t)c);
#else
    typedef uint32_t VU __attribute__((vector_size(sizeof(VI)))); /* (signed overflow: UB) */
    return (VI)((VU)a + (uint32_t)c);
#endif
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
#ifndef GL_ISA_PLAIN
/* The queue of core_tail_queue (blocks.h): vqueue_gt appends the lanes of v with !(t <= b) (NaN
 * too) to q and returns their mask (bit l: lane l); vunqueue(r, mask, q) gives r with its masked
 * lanes replaced by q[0], q[1], ... in order. Each may store or load VW floats at q. Lane by lane,
 * without a branch, where the ISA has no queue of its own (GL_ISA_QUEUE: AVX-512's vcompressps
 * and vexpandps, AVX2's vpermps by a table of lane permutations). */
static inline uint32_t vqueue_gt(V v, V t, float b, float *q)
{
#ifdef GL_ISA_QUEUE
    return vqueue_gt_isa(v, t, b, q);
#else
    uint32_t mask = 0;
    int k = 0;
    for (int l = 0; l < VW; l++) {
        int in = !(t[l] <= b);
        q[k] = v[l], k += in, mask |= (uint32_t)in << l;
    }
    return mask;
#endif
}
static inline V vunqueue(V r, uint32_t mask, const float *q)
{
#ifdef GL_ISA_QUEUE
    return vunqueue_isa(r, mask, q);
#else
    for (int l = 0, k = 0; l < VW; l++)
        if (mask >> l & 1) r[l] = q[k++];
    return r;
#endif
}
#endif
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

/* Estrin's scheme (degree <= 31): pairs c[2i] + c[2i+1] u, then pairs of pairs with u^2, u^4,
 * u^8, u^16: a dependency chain of 5 fma at most instead of `degree` (the out-of-order core
 * overlaps the rest). */
static inline __attribute__((always_inline)) VD vpolyd(VD u, const double *c, int degree)
{
    VD q[16], pw = u;
    int n = degree / 2 + 1;
#pragma GCC unroll 16
    for (int i = 0; i < n; i++) {
        q[i] =
            2 * i + 1 <= degree ? vfmad(vdupd(c[2 * i + 1]), u, vdupd(c[2 * i])) : vdupd(c[2 * i]);
    }
    /* fixed trip counts, so that the loops unroll whole (the scalar ISA vectorises) */
#pragma GCC unroll 4
    for (int level = 0; level < 4 && n > 1; level++) {
        pw = pw * pw;
#pragma GCC unroll 8
        for (int i = 0; i < (n + 1) / 2; i++)
            q[i] = 2 * i + 1 < n ? vfmad(q[2 * i + 1], pw, q[2 * i]) : q[2 * i];
        n = (n + 1) / 2;
    }
    return q[0];
}

/* The kernel ABI around a lane function: full vectors, then the tail through a zeroed vector
 * (any n, unaligned, in place). */
#ifndef GL_KERNEL_ATTR
#define GL_KERNEL_ATTR
#endif
/* The plain scalar builds return a NaN input made quiet (vquiet_nan), as the vector builds'
 * intrinsics do: GCC rewrites the plain code's arithmetic (the sanitizer build's erf and poly
 * returned the NaN with its sign flipped), and every build of a kernel gives the same bits */
#ifdef GL_ISA_PLAIN
#define GL_KERNEL_NAN(x, y) vquiet_nan(x, y)
#else
#define GL_KERNEL_NAN(x, y) (y)
#endif
#define GL_DEFINE_KERNEL(algo, fn)                                                                 \
    GL_KERNEL_ATTR void GL_KNAME(algo)(const float *x, float *y, size_t n)                         \
    {                                                                                              \
        size_t i = 0;                                                                              \
        for (; i + VW <= n; i += VW) {                                                             \
            V v;                                                                                   \
            memcpy(&v, x + i, sizeof v);                                                           \
            v = GL_KERNEL_NAN(v, fn(v));                                                           \
            memcpy(y + i, &v, sizeof v);                                                           \
        }                                                                                          \
        if (i < n) {                                                                               \
            V v = vdup(0.0f);                                                                      \
            memcpy(&v, x + i, (n - i) * sizeof(float));                                            \
            v = GL_KERNEL_NAN(v, fn(v));                                                           \
            memcpy(y + i, &v, (n - i) * sizeof(float));                                            \
        }                                                                                          \
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

/* The backward kernel ABI (dx[i] = dy[i] f'(x[i]), dx may alias x or dy) around a lane function
 * fn of f': binary32 lanes, dx = RN(dy RN(f')). Both inputs are loaded before dx is stored. */
#define GL_DEFINE_BWD_KERNEL(algo, fn)                                                             \
    GL_KERNEL_ATTR void GL_KNAME(algo)(const float *x, const float *dy, float *dx, size_t n)       \
    {                                                                                              \
        size_t i = 0;                                                                              \
        for (; i + VW <= n; i += VW) {                                                             \
            V v, d;                                                                                \
            memcpy(&v, x + i, sizeof v);                                                           \
            memcpy(&d, dy + i, sizeof d);                                                          \
            v = fn(v) * d;                                                                         \
            memcpy(dx + i, &v, sizeof v);                                                          \
        }                                                                                          \
        if (i < n) {                                                                               \
            V v = vdup(0.0f), d = vdup(0.0f);                                                      \
            memcpy(&v, x + i, (n - i) * sizeof(float));                                            \
            memcpy(&d, dy + i, (n - i) * sizeof(float));                                           \
            v = fn(v) * d;                                                                         \
            memcpy(dx + i, &v, (n - i) * sizeof(float));                                           \
        }                                                                                          \
    }

/* The same over binary64 lanes: f' and its product with dy in binary64, dx = RN32(dy f')
 * (one rounding to binary32 of a product whose own rounding is 2^-53 relative); two vectors
 * of VDW per step, then one, then the tail through zeroed vectors. */
#define GL_DEFINE_BWD_KERNEL_D(algo, fn)                                                           \
    static inline void GL_CAT(algo##_bstep, GL_ISA_SUFFIX)(const float *x, const float *dy,        \
                                                           float *dx)                              \
    {                                                                                              \
        VF f, d;                                                                                   \
        memcpy(&f, x, sizeof f);                                                                   \
        memcpy(&d, dy, sizeof d);                                                                  \
        f = vnarrow(fn(vwiden(f)) * vwiden(d));                                                    \
        memcpy(dx, &f, sizeof f);                                                                  \
    }                                                                                              \
    GL_KERNEL_ATTR void GL_KNAME(algo)(const float *x, const float *dy, float *dx, size_t n)       \
    {                                                                                              \
        size_t i = 0;                                                                              \
        for (; i + 2 * VDW <= n; i += 2 * VDW) {                                                   \
            VF f0, f1, d0, d1;                                                                     \
            memcpy(&f0, x + i, sizeof f0);                                                         \
            memcpy(&f1, x + i + VDW, sizeof f1);                                                   \
            memcpy(&d0, dy + i, sizeof d0);                                                        \
            memcpy(&d1, dy + i + VDW, sizeof d1);                                                  \
            VD g0 = fn(vwiden(f0)), g1 = fn(vwiden(f1));                                           \
            f0 = vnarrow(g0 * vwiden(d0)), f1 = vnarrow(g1 * vwiden(d1));                          \
            memcpy(dx + i, &f0, sizeof f0);                                                        \
            memcpy(dx + i + VDW, &f1, sizeof f1);                                                  \
        }                                                                                          \
        for (; i + VDW <= n; i += VDW) GL_CAT(algo##_bstep, GL_ISA_SUFFIX)(x + i, dy + i, dx + i); \
        if (i < n) {                                                                               \
            float bx[VDW] = {0}, bd[VDW] = {0}, by[VDW];                                           \
            memcpy(bx, x + i, (n - i) * sizeof(float));                                            \
            memcpy(bd, dy + i, (n - i) * sizeof(float));                                           \
            GL_CAT(algo##_bstep, GL_ISA_SUFFIX)(bx, bd, by);                                       \
            memcpy(dx + i, by, (n - i) * sizeof(float));                                           \
        }                                                                                          \
    }
