/* gelu-cr-bf16, gelu-cr-f16, gelu-tanh-cr-bf16, gelu-tanh-cr-f16: exact and tanh-form GELU of
 * bfloat16 and binary16 numbers, correctly rounded to their format for every input: the 16-bit
 * kernel ABI (void k(const uint16_t *x, uint16_t *y, size_t n), include/gelulab/impl.h).
 *
 * Method: a table of all 65 536 results, y = T[x], exact by construction: impls/gen_tab16.c
 * writes it at build time from the pure MPFR reference (each entry the definition correctly
 * rounded to the format; a NaN made quiet, its sign and payload kept). Error bound: 0.5 ULP of
 * the format, every input (the table holds the correctly rounded values; the exhaustive sweeps,
 * against the certified fast reference, check every entry: tests/test_tab16.c and
 * tests/test_abi16.sh).
 *
 * Why a table and not arithmetic (measured with make bench on a 2-vCPU AMD EPYC, Zen 3, medians
 * at 64Ki elements, TSC cycles per element): the scalar table loop runs at 0.89 (2 560 Melem/s,
 * a tenth of a 16-bit memcpy), while the cheapest binary32 arithmetic that could be rounded to 16
 * bits costs more before any conversion (gelu-fast/avx2 2.70, gelu-cr/avx2 9.9) and is not
 * correctly rounded once rounded again (double rounding: gelu-cr/avx2 rounded to bfloat16 misses
 * 128 of the 65 536 inputs). An arithmetic kernel would need binary32 results within a fraction
 * of a binary32 ULP plus a list of hard cases to be correct: more work per element than one load.
 * With no arithmetic and no conversion, the AVX512-BF16 and AVX512-FP16 instructions have
 * nothing to do here; the builds differ only in how the table is read:
 *   scalar  one load per element (any ISA; the AArch64 build, run as gelu-cr-bf16/neon and so on,
 *           is this loop: NEON has no gather, and TBL reaches 64 bytes, not 128 KiB)
 *   avx2    16 elements per step: widened to 32-bit indices, two 8-lane VPGATHERDD of 4 bytes
 *           at T + 2x (hence the table's extra entry), the low halves packed back
 *   avx512  32 elements per step, two 16-lane VPGATHERDD, VPMOVDW
 * On Zen 3 the gather is the slower way (avx2: 1.55 cycles per element against the scalar loop's
 * 0.89; reading four inputs as one 64-bit word and writing four results as one changed nothing):
 * its gathers issue one load per lane at a lower rate than plain loads. Cores that gather faster
 * (Intel's since Skylake) may reverse it; the AVX-512 build was not measured here.
 * The scalar loop is one function for the four kernels, not inlined, 64-byte aligned: where it
 * fell decided its speed on Zen 3 (0.87 or 1.36 cycles per element for the same instructions,
 * by binary), and aligned it runs at 0.86 in every binary.
 * The table is 128 KiB (+2 bytes) per definition and format: it stays in a 512 KiB L2. */
#include <stddef.h>
#include <stdint.h>
#include "tab16.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

__attribute__((noinline, aligned(64))) static void tab_scalar(const uint16_t *t, const uint16_t *x,
                                                              uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = t[x[i]];
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void tab_avx2(const uint16_t *t, const uint16_t *x,
                                                     uint16_t *y, size_t n)
{
    const __m256i low = _mm256_set1_epi32(0xffff);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
        __m256i a = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(h)),
                b = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(h, 1));
        a = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)t, a, 2), low);
        b = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)t, b, 2), low);
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8);
        _mm256_storeu_si256((__m256i *)(void *)(y + i), p);
    }
    tab_scalar(t, x + i, y + i, n - i);
}

__attribute__((target("avx512f"))) static void tab_avx512(const uint16_t *t, const uint16_t *x,
                                                          uint16_t *y, size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512i a = _mm512_cvtepu16_epi32(
                    _mm256_loadu_si256((const __m256i *)(const void *)(x + i))),
                b = _mm512_cvtepu16_epi32(
                    _mm256_loadu_si256((const __m256i *)(const void *)(x + i + 16)));
        a = _mm512_i32gather_epi32(a, (const void *)t, 2);
        b = _mm512_i32gather_epi32(b, (const void *)t, 2);
        _mm256_storeu_si256((__m256i *)(void *)(y + i), _mm512_cvtepi32_epi16(a));
        _mm256_storeu_si256((__m256i *)(void *)(y + i + 16), _mm512_cvtepi32_epi16(b));
    }
    tab_scalar(t, x + i, y + i, n - i);
}
#define GL_TAB16_KERNEL(algo, table)                                                               \
    void gl_k_##algo##_scalar(const uint16_t *x, uint16_t *y, size_t n)                            \
    {                                                                                              \
        tab_scalar(table, x, y, n);                                                                \
    }                                                                                              \
    void gl_k_##algo##_avx2(const uint16_t *x, uint16_t *y, size_t n)                              \
    {                                                                                              \
        tab_avx2(table, x, y, n);                                                                  \
    }                                                                                              \
    void gl_k_##algo##_avx512(const uint16_t *x, uint16_t *y, size_t n)                            \
    {                                                                                              \
        tab_avx512(table, x, y, n);                                                                \
    }
#else
#define GL_TAB16_KERNEL(algo, table)                                                               \
    void gl_k_##algo##_neon(const uint16_t *x, uint16_t *y, size_t n)                              \
    {                                                                                              \
        tab_scalar(table, x, y, n);                                                                \
    }
#endif
GL_TAB16_KERNELS(GL_TAB16_KERNEL)
