/* AVX2 + FMA helpers for the generic vector kernels (compiled with -mavx2 -mfma). */
#include <immintrin.h>
#include <stdint.h>
#include "gl_avx2_tables.h" /* generated: impls/gen_avx2_tables.c */
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
/* c[k] = tab[j & 31][k], k < 8, by lane (blocks.h vpiece): AVX2 has no two-register permute, so
 * a lookup of 32 per column would cost 7 instructions (four vpermps, three vblendvps); a piece's
 * row of 8 costs about 5 per column. The byte offsets (j & 31) 32 leave the vector
 * two lanes per general register; lanes i and i + 4 share a register of two 128-bit halves of
 * their rows (a load and a vbroadcastf128 joined by vblendps), and the four such registers of
 * each half-row are transposed (vunpck{l,h}ps, vunpck{l,h}pd) into four columns. */
#define GL_ISA_ROWS8
typedef struct {
    uint64_t q[4]; /* the byte offsets of the rows of lanes 2i (low half) and 2i + 1 */
} VROWS;
static inline __attribute__((always_inline)) VROWS vrows8_at(VI j)
{
    __m256i off = _mm256_slli_epi32(_mm256_and_si256((__m256i)j, _mm256_set1_epi32(31)), 5);
    __m128i lo = _mm256_castsi256_si128(off), hi = _mm256_extracti128_si256(off, 1);
    return (VROWS){{(uint64_t)_mm_cvtsi128_si64(lo), (uint64_t)_mm_extract_epi64(lo, 1),
                    (uint64_t)_mm_cvtsi128_si64(hi), (uint64_t)_mm_extract_epi64(hi, 1)}};
}
static inline __attribute__((always_inline)) void vrows8_load(const float (*tab)[8], VROWS o, V *c)
{
    const char *row[8];
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        row[2 * i] = (const char *)tab + (uint32_t)o.q[i];
        row[2 * i + 1] = (const char *)tab + (o.q[i] >> 32);
    }
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++) { /* columns 4h .. 4h + 3 */
        __m256 r[4];
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
            r[i] = _mm256_blend_ps(
                _mm256_castps128_ps256(_mm_load_ps((const float *)row[i] + 4 * h)),
                _mm256_broadcast_ps((const __m128 *)((const float *)row[i + 4] + 4 * h)), 0xf0);
        __m256d t0 = _mm256_castps_pd(_mm256_unpacklo_ps(r[0], r[1])),
                t1 = _mm256_castps_pd(_mm256_unpackhi_ps(r[0], r[1])),
                t2 = _mm256_castps_pd(_mm256_unpacklo_ps(r[2], r[3])),
                t3 = _mm256_castps_pd(_mm256_unpackhi_ps(r[2], r[3]));
        c[4 * h] = (V)_mm256_castpd_ps(_mm256_unpacklo_pd(t0, t2));
        c[4 * h + 1] = (V)_mm256_castpd_ps(_mm256_unpackhi_pd(t0, t2));
        c[4 * h + 2] = (V)_mm256_castpd_ps(_mm256_unpacklo_pd(t1, t3));
        c[4 * h + 3] = (V)_mm256_castpd_ps(_mm256_unpackhi_pd(t1, t3));
    }
}
static inline __attribute__((always_inline)) void vrows8(const float (*tab)[8], VI j, V *c)
{
    vrows8_load(tab, vrows8_at(j), c);
}
/* The queue of core_tail_queue (lanes.h): the lanes with !(t <= b) moved to the front by one
 * vpermps (indices from gl_AVX2_COMPRESS[mask], 4 bits each, shifted into place by vpsrlvd;
 * vpermps reads the low 3) and stored, 8 floats; and back by gl_AVX2_EXPAND[mask] and a blend */
#define GL_ISA_QUEUE
static inline __m256i vnibbles(uint32_t packed)
{
    return _mm256_srlv_epi32(_mm256_set1_epi32((int)packed),
                             _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
}
static inline uint32_t vqueue_gt_isa(V v, V t, float b, float *q)
{
    uint32_t m =
        (uint32_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)t, _mm256_set1_ps(b), _CMP_NLE_UQ));
    _mm256_storeu_ps(q, _mm256_permutevar8x32_ps((__m256)v, vnibbles(gl_AVX2_COMPRESS[m])));
    return m;
}
static inline V vunqueue_isa(V r, uint32_t mask, const float *q)
{
    __m256 e = _mm256_permutevar8x32_ps(_mm256_loadu_ps(q), vnibbles(gl_AVX2_EXPAND[mask]));
    __m256i m = _mm256_sllv_epi32(_mm256_set1_epi32((int)mask),
                                  _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24));
    return (V)_mm256_blendv_ps((__m256)r, e, _mm256_castsi256_ps(m));
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
