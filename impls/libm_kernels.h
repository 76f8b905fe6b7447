/* Kernels written with the C library (impls/libm_kernels.c) and the fp16 table (lut_f16.c). */
#ifndef GL_IMPLS_LIBM_KERNELS_H
#define GL_IMPLS_LIBM_KERNELS_H
#include <stddef.h>
#define GL_LIBM_F32(name) void name(const float *x, float *y, size_t n);
#define GL_LIBM_F64(name) void name(const double *x, double *y, size_t n);
GL_LIBM_F32(gl_k_erf_naive_f32)
GL_LIBM_F64(gl_k_erf_naive_f64)
GL_LIBM_F32(gl_k_erfc_stable_f32)
GL_LIBM_F64(gl_k_erfc_stable_f64)
GL_LIBM_F32(gl_k_erfc_double_f32)
GL_LIBM_F32(gl_k_tanh_libm_f32)
GL_LIBM_F64(gl_k_tanh_libm_f64)
GL_LIBM_F32(gl_k_sigmoid_libm_f32)
GL_LIBM_F64(gl_k_sigmoid_libm_f64)
GL_LIBM_F32(gl_k_silu_libm_f32)
GL_LIBM_F64(gl_k_silu_libm_f64)
GL_LIBM_F32(gl_k_relu_f32)
GL_LIBM_F64(gl_k_relu_f64)
GL_LIBM_F32(gl_k_lut_f16_f32)
#endif
