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
/* a < b ? a : b and a > b ? a : b, lane by lane (vminps/vmaxps: NaN or equal zeros give b) */
#define GL_ISA_MINMAX
static inline V vmin_isa(V a, V b)
{
    return (V)_mm512_min_ps((__m512)a, (__m512)b);
}
static inline V vmax_isa(V a, V b)
{
    return (V)_mm512_max_ps((__m512)a, (__m512)b);
}
/* tab[j & 7] in every lane (the table in both halves, one vpermps) */
static inline V vlut8(const float *tab, VI j)
{
    return (V)_mm512_permutexvar_ps((__m512i)j, _mm512_broadcast_f32x8(_mm256_loadu_ps(tab)));
}
/* tab[j & 31] in every lane (the table in two registers, one vpermt2ps: on AMD Zen 4/5 it
 * issues twice as often as the one-register vpermps, docs/kernel-notes.md) */
static inline V vlut32(const float *tab, VI j)
{
    return (V)_mm512_permutex2var_ps(_mm512_loadu_ps(tab), (__m512i)j, _mm512_loadu_ps(tab + 16));
}
/* whether some lane has !(a <= b) (NaN included): one compare into a mask register */
static inline int vany_gt(V a, float b)
{
    return _mm512_cmp_ps_mask((__m512)a, _mm512_set1_ps(b), _CMP_NLE_UQ) != 0;
}
/* the queue of core_tail_queue (lanes.h vqueue_gt, vunqueue): vcompressps and vexpandps on
 * registers, with plain loads and stores (their memory forms are microcoded on AMD Zen 4) */
#define GL_ISA_QUEUE
static inline uint32_t vqueue_gt_isa(V v, V t, float b, float *q)
{
    __mmask16 m = _mm512_cmp_ps_mask((__m512)t, _mm512_set1_ps(b), _CMP_NLE_UQ);
    _mm512_storeu_ps(q, _mm512_maskz_compress_ps(m, (__m512)v));
    return m;
}
static inline V vunqueue_isa(V r, uint32_t mask, const float *q)
{
    return (V)_mm512_mask_expand_ps((__m512)r, (__mmask16)mask, _mm512_loadu_ps(q));
}
/* a where the sign bit of s is set, else b */
#define GL_ISA_SEL_SIGN
static inline V vsel_sign_isa(V s, V a, V b)
{
    return (V)_mm512_mask_blend_ps(_mm512_movepi32_mask((__m512i)s), (__m512)b, (__m512)a);
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
/* tab[j & 7] in every binary64 lane (one vpermpd) */
#define GL_ISA_LUT8D
static inline VD vlut8d(const double *tab, VDI j)
{
    return (VD)_mm512_permutexvar_pd((__m512i)j, _mm512_loadu_pd(tab));
}
/* VF <-> VD (one vcvtps2pd / vcvtpd2ps) */
#define GL_ISA_WIDEN
static inline VD vwiden_isa(VF f)
{
    return (VD)_mm512_cvtps_pd((__m256)f);
}
static inline VF vnarrow_isa(VD d)
{
    return (VF)_mm512_cvtpd_ps((__m512d)d);
}
static inline VD vmind_isa(VD a, VD b)
{
    return (VD)_mm512_min_pd((__m512d)a, (__m512d)b);
}
static inline VD vmaxd_isa(VD a, VD b)
{
    return (VD)_mm512_max_pd((__m512d)a, (__m512d)b);
}
static inline VD vseld_sign_isa(VD s, VD a, VD b)
{
    return (VD)_mm512_mask_blend_pd(_mm512_movepi64_mask((__m512i)s), (__m512d)b, (__m512d)a);
}
