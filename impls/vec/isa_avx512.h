/* AVX-512 (F, DQ) helpers for the generic vector kernels (compiled with -mavx512f -mavx512dq). */
#include <immintrin.h>
#include <stdint.h>
#define GL_ISA_SUFFIX avx512
#define VW            16
typedef float V __attribute__((vector_size(64)));
typedef int32_t VI __attribute__((vector_size(64)));
static inline V vfma(V a, V b, V c)
{
    return (V)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
}
/* binary64 lanes (the accurate family): VDW doubles, and as many floats in a VF */
#define VDW 8
typedef double VD __attribute__((vector_size(8 * 8)));
typedef int64_t VDI __attribute__((vector_size(8 * 8)));
typedef float VF __attribute__((vector_size(8 * 4)));
static inline VD vfmad(VD a, VD b, VD c)
{
    return (VD)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)c);
}
