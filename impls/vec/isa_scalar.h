/* Scalar "ISA" for the generic vector kernels: one-lane vectors, fmaf. This is the portable
 * model of every vector kernel (same algorithm, same roundings). On x86-64 each kernel is
 * cloned for CPUs with FMA (fmaf becomes one instruction instead of a libm call) and dispatched
 * at load time; fmaf is exact-then-rounded either way, so both clones give the same bits. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define GL_KERNEL_ATTR __attribute__((target_clones("fma", "default")))
#endif
#include <math.h>
#include <stdint.h>
#define GL_ISA_SUFFIX scalar
#define VW            1
typedef float V __attribute__((vector_size(4)));
typedef int32_t VI __attribute__((vector_size(4)));
static inline V vfma(V a, V b, V c)
{
    return (V){fmaf(a[0], b[0], c[0])};
}
/* tab[j & 7] */
static inline V vlut8(const float *tab, VI j)
{
    return (V){tab[j[0] & 7]};
}
/* binary64 lanes (the accurate family): VDW doubles, and as many floats in a VF */
#define VDW 1
typedef double VD __attribute__((vector_size(1 * 8)));
typedef int64_t VDI __attribute__((vector_size(1 * 8)));
typedef float VF __attribute__((vector_size(1 * 4)));
static inline VD vfmad(VD a, VD b, VD c)
{
    return (VD){fma(a[0], b[0], c[0])};
}
