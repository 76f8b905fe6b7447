/* Scalar "ISA" for the generic vector kernels: plain C scalars (one lane), fmaf. This is the
 * portable model of every vector kernel (same algorithm, same roundings). Its types are plain
 * float/int32_t/double/int64_t, not one-lane GCC vectors, so the lane model's operations are
 * defined here (GL_ISA_PLAIN: bits through memcpy, comparisons as -1/0) and the compiler may
 * vectorise a kernel's loop (GCC does not vectorise one-lane vector types).
 *
 * On x86-64 each kernel is cloned for x86-64-v3 (AVX2 + FMA: GCC vectorises the loop) and for
 * FMA alone (fmaf becomes one instruction instead of a libm call), dispatched at load time. The
 * clones perform the same IEEE operations on every element in the same order (no contraction,
 * -ffp-contract=off; no fast-math; fmaf is exact-then-rounded everywhere), so all of them give
 * the same bits, and the same bits as the AVX2 builds (the sweep compares them over all 2^32
 * inputs in every exhaustive run). One exception, outside the sweep's reach on FMA machines:
 * for a NaN input, the default clone's NaN result can have the other sign (erf, poly*: which
 * NaN operand an fma returns is not fixed by IEEE 754; glibc's software fmaf and the FMA
 * instruction differ), a NaN all the same. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define GL_KERNEL_ATTR __attribute__((target_clones("arch=x86-64-v3", "fma", "default")))
#endif
#include <math.h>
#include <stdint.h>
#include <string.h>
#define GL_ISA_SUFFIX scalar
#define GL_ISA_PLAIN
#define VW 1
typedef float V;
typedef int32_t VI;
static inline V vfma(V a, V b, V c)
{
    return fmaf(a, b, c);
}
/* binary64 lanes (the accurate family): VDW doubles, and as many floats in a VF */
#define VDW 1
typedef double VD;
typedef int64_t VDI;
typedef float VF;
static inline VD vfmad(VD a, VD b, VD c)
{
    return fma(a, b, c);
}

/* the lane model (see vec/lanes.h) */
#define GL_MASK(c)   (-(VI)(c))
#define GL_MASKD(c)  (-(VDI)(c))
#define GL_CVT(v, T) ((T)(v))
static inline VI vbits(V a)
{
    VI i;
    memcpy(&i, &a, sizeof i);
    return i;
}
static inline V vfloat(VI i)
{
    V a;
    memcpy(&a, &i, sizeof a);
    return a;
}
static inline VI vshl_u(VI a, int s)
{
    return (VI)((uint32_t)a << s);
}
static inline V vdup(float a)
{
    return a;
}
static inline VDI vbitsd(VD a)
{
    VDI i;
    memcpy(&i, &a, sizeof i);
    return i;
}
static inline VD vdouble(VDI i)
{
    VD a;
    memcpy(&a, &i, sizeof a);
    return a;
}
static inline VDI vshld_u(VDI a, int s)
{
    return (VDI)((uint64_t)a << s);
}
static inline VD vdupd(double a)
{
    return a;
}
/* tab[j & 31] (one load: GCC vectorises it as a gather), and whether !(a <= b) */
static inline V vlut32(const float *tab, VI j)
{
    return tab[j & 31];
}
static inline int vany_gt(V a, float b)
{
    return !(a <= b);
}
/* tab[j & 7], by bitwise selects rather than an index (GCC vectorises those, not the gather) */
static inline V vlut8(const float *tab, VI j)
{
    VI r = vbits(tab[0]);
#pragma GCC unroll 8
    for (int k = 1; k < 8; k++) {
        VI m = GL_MASK((j & 7) == k);
        r = (vbits(tab[k]) & m) | (r & ~m);
    }
    return vfloat(r);
}
