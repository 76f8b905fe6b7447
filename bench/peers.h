/* Baselines and peers for the benchmark (bench/cases.c), each with the kernel ABI. */
#ifndef GELULAB_BENCH_PEERS_H
#define GELULAB_BENCH_PEERS_H
#include <stddef.h>

/* baselines.c */
void gl_base_memcpy(const float *x, float *y, size_t n);
void gl_base_relu_vec(const float *x, float *y, size_t n);

/* peer_sleef_*.c: GELU as a user writes it with SLEEF's vector functions:
 * erf:  0.5 x (1 + erf(x / sqrt2))   (Sleef_erff*_u10)
 * erfc: 0.5 x erfc(-x / sqrt2)      (Sleef_erfcf*_u15) */
int gl_peer_sleef_built(void);
void gl_peer_sleef_erf_avx2(const float *x, float *y, size_t n);
void gl_peer_sleef_erfc_avx2(const float *x, float *y, size_t n);
void gl_peer_sleef_erf_avx512(const float *x, float *y, size_t n);
void gl_peer_sleef_erfc_avx512(const float *x, float *y, size_t n);

/* peer_onednn.c: oneDNN eltwise forward inference, gelu_erf and gelu_tanh, on a 1-D tensor of
 * n floats; prepare builds the primitive for n (outside the timed loop). */
int gl_peer_onednn_built(void);
void gl_peer_onednn_prepare_erf(size_t n);
void gl_peer_onednn_prepare_tanh(size_t n);
void gl_peer_onednn_gelu_erf(const float *x, float *y, size_t n);
void gl_peer_onednn_gelu_tanh(const float *x, float *y, size_t n);
#endif
