/* GELU the way most code writes it, with the C library (glibc's erff, erfcf, tanhf, expf), and
 * ReLU, the cost baseline. One loop per formula; f64 versions with erf, erfc, tanh, exp.
 *
 *  gelu-erf-naive     0.5 x (1 + erff(x/sqrt2))   exact; cancels for x < -5.6 (returns 0
 *                     where GELU is a small negative number), as PyTorch/oneDNN/SLEEF
 *  gelu-erfc-stable   0.5 x erfcf(-x/sqrt2)       exact; keeps the tail but loses ~190 ULP
 *                     there to the rounding of x/sqrt2 (erfc's condition 2t^2)
 *  gelu-erfc-double   (float)(0.5 x erfc(-x/sqrt2) in double)   exact; the accurate scalar
 *                     form (-inf handled: -inf * 0 would be NaN)
 *  gelu-tanh-libm     0.5 x (1 + tanhf(sqrt(2/pi)(x + 0.044715 x^3)))   tanh; PyTorch's formula
 *  gelu-sigmoid-libm  x / (1 + expf(-1.702 x))    sigmoid (QuickGELU)
 *  silu-libm          x / (1 + expf(-x))          silu
 *  relu               x > 0 ? x : 0               baseline (not an approximation of GELU)
 * Special values: every formula but gelu-erfc-double gives NaN for -inf (-inf * 0, or inf/inf);
 * relu gives 0 for NaN and +0 for -0. Contracts (bounds and witnesses): libm_kernels.h. */
#include <math.h>
#include <stddef.h>
#include "libm_kernels.h"

#define GL_LOOP(name, T, expr)                                                                     \
    void name(const T *x, T *y, size_t n)                                                          \
    {                                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            T v = x[i];                                                                            \
            y[i] = (expr);                                                                         \
        }                                                                                          \
    }

GL_LOOP(gl_k_gelu_erf_naive_f32, float, 0.5f * v * (1.0f + erff(v * 0x1.6a09e6p-1f)))
GL_LOOP(gl_k_gelu_erf_naive_f64, double, 0.5 * v * (1.0 + erf(v * 0x1.6a09e667f3bcdp-1)))
GL_LOOP(gl_k_gelu_erfc_stable_f32, float, 0.5f * v * erfcf(-v * 0x1.6a09e6p-1f))
GL_LOOP(gl_k_gelu_erfc_stable_f64, double, 0.5 * v * erfc(-v * 0x1.6a09e667f3bcdp-1))
GL_LOOP(gl_k_gelu_erfc_double_f32, float,
        v == -INFINITY ? -0.0f : (float)(0.5 * v * erfc(-(double)v * 0x1.6a09e667f3bcdp-1)))
GL_LOOP(gl_k_gelu_tanh_libm_f32, float,
        0.5f * v * (1.0f + tanhf(0x1.988454p-1f * (v + 0x1.6e4e26p-5f * v * v * v))))
GL_LOOP(gl_k_gelu_tanh_libm_f64, double,
        0.5 * v * (1.0 + tanh(0x1.9884533d43651p-1 * (v + 0x1.6e4e26d4801f7p-5 * v * v * v))))
GL_LOOP(gl_k_gelu_sigmoid_libm_f32, float, v / (1.0f + expf(-0x1.b3b646p+0f * v)))
GL_LOOP(gl_k_gelu_sigmoid_libm_f64, double, v / (1.0 + exp(-0x1.b3b645a1cac08p+0 * v)))
GL_LOOP(gl_k_silu_libm_f32, float, v / (1.0f + expf(-v)))
GL_LOOP(gl_k_silu_libm_f64, double, v / (1.0 + exp(-v)))
GL_LOOP(gl_k_relu_f32, float, v > 0.0f ? v : 0.0f)
GL_LOOP(gl_k_relu_f64, double, v > 0.0 ? v : 0.0)
