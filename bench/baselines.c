/* Benchmark baselines: memcpy (the bandwidth limit: a kernel reads n floats and writes n), a
 * vectorised ReLU (the cheapest activation; GCC vectorises the loop, cloned for AVX2 and
 * AVX-512 on x86-64) and its backward (two streams read, one written, as any backward kernel);
 * in 16 bits, memcpy16 and relu16 (the sign bit set: +0; bfloat16 and binary16 alike). */
#include <string.h>
#include "cases.h"

void gl_base_memcpy(const float *x, float *y, size_t n)
{
    memcpy(y, x, n * sizeof *y);
}

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void gl_base_relu_vec(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void gl_base_relu_bwd_vec(const float *x, const float *dy, float *dx, size_t n)
{
    for (size_t i = 0; i < n; i++) dx[i] = x[i] > 0.0f ? dy[i] : 0.0f;
}

void gl_base_memcpy16(const uint16_t *x, uint16_t *y, size_t n)
{
    memcpy(y, x, n * sizeof *y);
}

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void gl_base_relu16(const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] & 0x8000 ? 0 : x[i];
}
