/* AVX2 + FMA helpers for the generic vector kernels (compiled with -mavx2 -mfma). */
#include <immintrin.h>
#include <stdint.h>
#define GL_ISA_SUFFIX avx2
#define VW            8
typedef float V __attribute__((vector_size(32)));
typedef int32_t VI __attribute__((vector_size(32)));
static inline V vfma(V a, V b, V c)
{
    return (V)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
}
/* a < b ? a : b and a > b ? a : b, lane by lane (vminps/vmaxps: NaN or equal zeros give b) */
#define GL_ISA_MINMAX
static inline V vmin_isa(V a, V b)
{
    return (V)_mm256_min_ps((__m256)a, (__m256)b);
}
static inline V vmax_isa(V a, V b)
{
    return (V)_mm256_max_ps((__m256)a, (__m256)b);
}
/* tab[j & 7] in every lane (one vpermps) */
static inline V vlut8(const float *tab, VI j)
{
    return (V)_mm256_permutevar8x32_ps(_mm256_loadu_ps(tab), (__m256i)j);
}
/* tab[j & 31] in every lane: four vpermps, bits 3 and 4 of j choose by vblendvps */
static inline V vlut32(const float *tab, VI j)
{
    __m256i i = (__m256i)j;
    __m256 b3 = _mm256_castsi256_ps(_mm256_slli_epi32(i, 28)),
           b4 = _mm256_castsi256_ps(_mm256_slli_epi32(i, 27));
    __m256 t0 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tab), i);
    __m256 t1 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tab + 8), i);
    __m256 t2 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tab + 16), i);
    __m256 t3 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tab + 24), i);
    return (V)_mm256_blendv_ps(_mm256_blendv_ps(t0, t1, b3), _mm256_blendv_ps(t2, t3, b3), b4);
}
/* whether some lane has !(a <= b) (NaN included) */
static inline int vany_gt(V a, float b)
{
    return _mm256_movemask_ps(_mm256_cmp_ps((__m256)a, _mm256_set1_ps(b), _CMP_NLE_UQ)) != 0;
}
/* a where the sign bit of s is set, else b (one vblendvps) */
#define GL_ISA_SEL_SIGN
static inline V vsel_sign_isa(V s, V a, V b)
{
    return (V)_mm256_blendv_ps((__m256)b, (__m256)a, (__m256)s);
}
/* binary64 lanes (the accurate family): VDW doubles, and as many floats in a VF */
#define VDW 4
typedef double VD __attribute__((vector_size(4 * 8)));
typedef int64_t VDI __attribute__((vector_size(4 * 8)));
typedef float VF __attribute__((vector_size(4 * 4)));
static inline VD vfmad(VD a, VD b, VD c)
{
    return (VD)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)c);
}
/* VF <-> VD (one vcvtps2pd / vcvtpd2ps: GCC's generic conversion goes through the stack) */
#define GL_ISA_WIDEN
static inline VD vwiden_isa(VF f)
{
    return (VD)_mm256_cvtps_pd((__m128)f);
}
static inline VF vnarrow_isa(VD d)
{
    return (VF)_mm256_cvtpd_ps((__m256d)d);
}
static inline VD vmind_isa(VD a, VD b)
{
    return (VD)_mm256_min_pd((__m256d)a, (__m256d)b);
}
static inline VD vmaxd_isa(VD a, VD b)
{
    return (VD)_mm256_max_pd((__m256d)a, (__m256d)b);
}
static inline VD vseld_sign_isa(VD s, VD a, VD b)
{
    return (VD)_mm256_blendv_pd((__m256d)b, (__m256d)a, (__m256d)s);
}
