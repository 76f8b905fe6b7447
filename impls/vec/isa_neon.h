/* AArch64 NEON helpers for the generic vector kernels (cross-compiled, run under qemu-aarch64). */
#include <arm_neon.h>
#include <stdint.h>
#define GL_ISA_SUFFIX neon
#define VW            4
typedef float V __attribute__((vector_size(16)));
typedef int32_t VI __attribute__((vector_size(16)));
static inline V vfma(V a, V b, V c)
{
    return (V)vfmaq_f32((float32x4_t)c, (float32x4_t)a, (float32x4_t)b);
}
/* tab[j & 7] in every lane (lane by lane: the NEON builds run only under emulation here) */
static inline V vlut8(const float *tab, VI j)
{
    V r;
    for (int i = 0; i < VW; i++) r[i] = tab[j[i] & 7];
    return r;
}
/* tab[j & 31] in every lane, and whether some lane has !(a <= b) (lane by lane, as vlut8) */
static inline V vlut32(const float *tab, VI j)
{
    V r;
    for (int i = 0; i < VW; i++) r[i] = tab[j[i] & 31];
    return r;
}
static inline int vany_gt(V a, float b)
{
    int any = 0;
    for (int i = 0; i < VW; i++) any |= !(a[i] <= b);
    return any;
}
/* binary64 lanes (the accurate family): VDW doubles, and as many floats in a VF */
#define VDW 2
typedef double VD __attribute__((vector_size(2 * 8)));
typedef int64_t VDI __attribute__((vector_size(2 * 8)));
typedef float VF __attribute__((vector_size(2 * 4)));
static inline VD vfmad(VD a, VD b, VD c)
{
    return (VD)vfmaq_f64((float64x2_t)c, (float64x2_t)a, (float64x2_t)b);
}
