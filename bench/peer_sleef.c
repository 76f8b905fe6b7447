/* SLEEF peers (peers.h, peers.c): GELU as a user writes it with SLEEF's vector erf/erfc, one
 * file compiled twice (-DGL_SLEEF_AVX512 with -mavx512f, otherwise -mavx2 -mfma). The tail is
 * computed on a zero-padded vector. */
#include <immintrin.h>
#include <string.h>
#include <sleef.h>
#include "gelulab/peers.h"

#ifdef GL_SLEEF_AVX512
#define W          16
#define VF         __m512
#define LOAD       _mm512_loadu_ps
#define STORE      _mm512_storeu_ps
#define SET1       _mm512_set1_ps
#define MUL        _mm512_mul_ps
#define ADD        _mm512_add_ps
#define ERF        Sleef_erff16_u10avx512f
#define ERFC       Sleef_erfcf16_u15avx512f
#define NAME(base) base##_avx512
#else
#define W          8
#define VF         __m256
#define LOAD       _mm256_loadu_ps
#define STORE      _mm256_storeu_ps
#define SET1       _mm256_set1_ps
#define MUL        _mm256_mul_ps
#define ADD        _mm256_add_ps
#define ERF        Sleef_erff8_u10avx2
#define ERFC       Sleef_erfcf8_u15avx2
#define NAME(base) base##_avx2
#endif

static inline VF gelu_erf(VF x)
{
    VF e = ERF(MUL(x, SET1(0x1.6a09e6p-1f))); /* 1/sqrt2 */
    return MUL(MUL(SET1(0.5f), x), ADD(SET1(1.0f), e));
}

static inline VF gelu_erfc(VF x)
{
    return MUL(MUL(SET1(0.5f), x), ERFC(MUL(x, SET1(-0x1.6a09e6p-1f))));
}

#define GL_SLEEF_KERNEL(base, fn)                                                                  \
    void NAME(base)(const float *x, float *y, size_t n)                                            \
    {                                                                                              \
        size_t i = 0;                                                                              \
        for (; i + W <= n; i += W) STORE(y + i, fn(LOAD(x + i)));                                  \
        if (i < n) {                                                                               \
            float t[W] = {0};                                                                      \
            memcpy(t, x + i, (n - i) * sizeof *t);                                                 \
            STORE(t, fn(LOAD(t)));                                                                 \
            memcpy(y + i, t, (n - i) * sizeof *t);                                                 \
        }                                                                                          \
    }
GL_SLEEF_KERNEL(gl_peer_sleef_erf, gelu_erf)
GL_SLEEF_KERNEL(gl_peer_sleef_erfc, gelu_erfc)
