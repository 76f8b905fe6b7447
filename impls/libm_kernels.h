/* Kernels written with the C library (impls/libm_kernels.c) and the fp16 table (lut_f16.c), and
 * their contracts (include/gelulab/impl.h): one figure each, the maximum error on [-5, 5]
 * against the kernel's own definition measured over all 2^32 binary32 inputs with this
 * machine's glibc (Debian 12, glibc 2.36), and the input that attains it. */
#ifndef GL_IMPLS_LIBM_KERNELS_H
#define GL_IMPLS_LIBM_KERNELS_H
#include <stddef.h>
#define GL_LIBM_F32(name) void name(const float *x, float *y, size_t n);
#define GL_LIBM_F64(name) void name(const double *x, double *y, size_t n);
GL_LIBM_F32(gl_k_gelu_erf_naive_f32)
GL_LIBM_F64(gl_k_gelu_erf_naive_f64)
GL_LIBM_F32(gl_k_gelu_erfc_stable_f32)
GL_LIBM_F64(gl_k_gelu_erfc_stable_f64)
GL_LIBM_F32(gl_k_gelu_erfc_double_f32)
GL_LIBM_F32(gl_k_gelu_tanh_libm_f32)
GL_LIBM_F64(gl_k_gelu_tanh_libm_f64)
GL_LIBM_F32(gl_k_gelu_sigmoid_libm_f32)
GL_LIBM_F64(gl_k_gelu_sigmoid_libm_f64)
GL_LIBM_F32(gl_k_silu_libm_f32)
GL_LIBM_F64(gl_k_silu_libm_f64)
GL_LIBM_F32(gl_k_relu_f32)
GL_LIBM_F64(gl_k_relu_f64)
GL_LIBM_F32(gl_k_gelu_tanh_lut_f16_f32)

/* clang-format off */
/* gelu-erf-naive: 0.5 x (1 + erff(x/sqrt2)), exact GELU as PyTorch, oneDNN and SLEEF users write
 * it; 1 + erf cancels for x < -5.6 (returns 0 where GELU is a small negative number); -inf: NaN.
 * Maximum error: 6.532e+05 ULP on [-5, 5] at x = -0x1.3eea8ap+2: got -0x1.b6827ep-20, want
 * -0x1.a293d398e76fep-20; max |error| over all finite inputs 4.475e-07; max ULP over all finite
 * results 1.678e+07. */
#define GL_CONTRACT_gelu_erf_naive                                                                 \
    .defn = GL_DEFN_EXACT, .family = "erf",                                                        \
    .note = "0.5x(1+erff(x/sqrt2)), glibc",                                                        \
    .tail = "returns 0 for x < -5.6 (cancellation)", .specials = "nan inf nan 0 -0",               \
    .ulp_core = 6.532e+05, .abs_all = 4.475e-07, .witness = {-0x1.3eea8ap+2, -0x1.b6827ep-20, -0x1.a293d398e76fep-20}

/* gelu-erfc-stable: 0.5 x erfcf(-x/sqrt2): keeps the tail but loses ~190 ULP there to the rounding
 * of x/sqrt2 (erfc's condition number 2t^2); -inf: NaN.
 * Maximum error: 23.08 ULP on [-5, 5] at x = -0x1.3c52f6p+2: got -0x1.ff7abep-20, want
 * -0x1.ff7a8fd7944cp-20; max |error| over all finite inputs 3.841e-07; max ULP over all finite
 * results 198.9. */
#define GL_CONTRACT_gelu_erfc_stable                                                               \
    .defn = GL_DEFN_EXACT, .family = "erf",                                                        \
    .note = "0.5x erfcf(-x/sqrt2), glibc",                                                         \
    .tail = "keeps the tail, ~190 ULP lost to rounding x/sqrt2", .specials = "nan inf nan 0 -0",   \
    .ulp_core = 23.08, .abs_all = 3.841e-07, .witness = {-0x1.3c52f6p+2, -0x1.ff7abep-20, -0x1.ff7a8fd7944cp-20}

/* gelu-erfc-double: (float)(0.5 x erfc(-x/sqrt2)) in binary64, rounded once: the accurate scalar
 * form (-inf handled apart: -inf * 0 would be NaN).
 * Maximum error: 0.5001 ULP on [-5, 5] at x = 0x1.6148dep-16: got 0x1.614a64p-17, want
 * 0x1.614a62fffffffp-17; max |error| over all finite inputs 2.385e-07; max ULP over all finite
 * results 0.5001 at x = -0x1.79da74p+3. */
#define GL_CONTRACT_gelu_erfc_double                                                               \
    .defn = GL_DEFN_EXACT, .family = "erf",                                                        \
    .note = "0.5x erfc(-x/sqrt2) in double, rounded once",                                         \
    .tail = "accurate down to underflow", .specials = GL_SPECIALS_RIGHT,                           \
    .ulp_core = 0.5001, .abs_all = 2.385e-07, .witness = {0x1.6148dep-16, 0x1.614a64p-17, 0x1.614a62fffffffp-17}

/* gelu-tanh-libm: 0.5 x (1 + tanhf(sqrt(2/pi)(x + 0.044715 x^3))), PyTorch's tanh formula; 1 + tanh
 * cancels in the negative tail; -inf: NaN.
 * Maximum error: 4.845e+06 ULP on [-5, 5] at x = -0x1.4p+2: got -0x1.4p-22, want
 * -0x1.ec28d40db8452p-23; max |error| over all finite inputs 4.332e-07; max ULP over all finite
 * results 1.678e+07. */
#define GL_CONTRACT_gelu_tanh_libm                                                                 \
    .defn = GL_DEFN_TANH, .family = "tanh",                                                        \
    .note = "0.5x(1+tanhf(sqrt(2/pi)(x+0.044715x^3))), glibc",                                     \
    .tail = "returns 0 for x < -4.5 or so (cancellation)", .specials = "nan inf nan 0 -0",         \
    .ulp_core = 4.845e+06, .abs_all = 4.332e-07, .witness = {-0x1.4p+2, -0x1.4p-22, -0x1.ec28d40db8452p-23}

/* gelu-sigmoid-libm: x / (1 + expf(-1.702 x)), QuickGELU; -inf: inf/inf = NaN.
 * Maximum error: 8.664 ULP on [-5, 5] at x = -0x1.2d4adap+2: got -0x1.98b758p-10, want
 * -0x1.98b76953c7e5ep-10; max |error| over all finite inputs 7.401e-07; max ULP over all finite
 * results 1.678e+07. */
#define GL_CONTRACT_gelu_sigmoid_libm                                                              \
    .defn = GL_DEFN_SIGMOID, .family = "sigmoid",                                                  \
    .note = "x/(1+expf(-1.702x)), glibc",                                                          \
    .tail = "NaN for x = -inf (inf/inf)", .specials = "nan inf nan 0 -0",                          \
    .ulp_core = 8.664, .abs_all = 7.401e-07, .witness = {-0x1.2d4adap+2, -0x1.98b758p-10, -0x1.98b76953c7e5ep-10}

/* silu-libm: x / (1 + expf(-x)); -inf: inf/inf = NaN.
 * Maximum error: 2 ULP on [-5, 5] at x = -0x1.0007fep-11: got -0x1.ffeffep-13, want
 * -0x1.ffeffa0082bp-13; max |error| over all finite inputs 1.274e-06; max ULP over all finite
 * results 1.678e+07. */
#define GL_CONTRACT_silu_libm                                                                      \
    .defn = GL_DEFN_SILU, .family = "silu",                                                        \
    .note = "x/(1+expf(-x)), glibc",                                                               \
    .tail = "NaN for x = -inf (inf/inf)", .specials = "nan inf nan 0 -0",                          \
    .ulp_core = 2, .abs_all = 1.274e-06, .witness = {-0x1.0007fep-11, -0x1.ffeffep-13, -0x1.ffeffa0082bp-13}

/* gelu-tanh-lut-f16 (impls/lut_f16.c): x rounded to binary16, then a 65536-entry table of the tanh
 * definition in binary16, as ggml's GELU does; +0 for x <= -10, x for x >= 10.
 * Maximum error: 2.517e+07 ULP on [-5, 5] at x = 0x1.000002p-25: got 0x1p-24, want
 * 0x1.0000026621166p-26; max |error| over all finite inputs 0.003907. */
#define GL_CONTRACT_gelu_tanh_lut_f16                                                              \
    .defn = GL_DEFN_TANH, .family = "lut",                                                         \
    .note = "x rounded to binary16, 65536-entry table (ggml)",                                     \
    .tail = "+0 for x <= -10 (wrong sign), x for x >= 10", .specials = "nan inf 0 0 -0",           \
    .ulp_core = 2.517e+07, .abs_all = 0.003907, .witness = {0x1.000002p-25, 0x1p-24, 0x1.0000026621166p-26}

/* relu: x > 0 ? x : 0, the cost baseline, measured against exact GELU (not an approximation of
 * it); NaN: 0, -0: +0.
 * Maximum error: 1.678e+07 ULP on [-5, 5] at x = -0x1p-124: got 0x0p+0, want -0x1p-125; max |error|
 * over all finite inputs 0.17. */
#define GL_CONTRACT_relu                                                                           \
    .defn = GL_DEFN_EXACT, .family = "relu",                                                       \
    .note = "x > 0 ? x : 0, the cost baseline",                                                    \
    .tail = "not an approximation of GELU", .specials = "0 inf 0 0 0",                             \
    .ulp_core = 1.678e+07, .abs_all = 0.17, .witness = {-0x1p-124, 0x0p+0, -0x1p-125}
/* clang-format on */
#endif
