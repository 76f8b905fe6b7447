/* The registry of built-in kernels (include/gelulab/impl.h). The documented bounds live here,
 * once; tests/test_kernels.c asserts them and the reports print them.
 *
 * Bounds: against the kernel's own definition, binary32 inputs. ulp_core is the max ULP error
 * on [-5, 5], abs_all the max absolute error over all finite inputs, both measured over all 2^32
 * binary32 inputs (`gelulab sweep --all`, 2026-12-02, every in-process kernel; the NEON builds
 * are bit-identical to their scalar model, see tests/test_kernels.c) and rounded up in the 4th
 * digit. Witnesses on [-5, 5], x: got/want:
 *   erf-naive    653141 ULP  -0x1.3eea8ap+2: -0x1.b6827ep-20/-0x1.a293d4p-20 (cancellation)
 *   erfc-stable  23.08 ULP   -0x1.3c52f6p+2: -0x1.ff7abep-20/-0x1.ff7a90p-20 (x/sqrt2 rounded;
 *                            198.8 ULP over all inputs)
 *   erfc-double  0.5001 ULP  0x1.6148dep-16: 0x1.614a64p-17/0x1.614a62fffffffp-17 (rounded once
 *                            from binary64: 99.80 % correctly rounded)
 *   tanh-libm    4.84e6 ULP  -0x1.4p+2: -0x1.4p-22/-0x1.ec28d4p-23 (1 + tanh cancels)
 *   sigmoid-libm 8.664 ULP   -0x1.2d4adap+2: -0x1.98b758p-10/-0x1.98b76ap-10
 *   silu-libm    1.999 ULP   -0x1.0007fep-11: -0x1.ffeffep-13/-0x1.ffeffap-13
 *   lut-f16      2.52e7 ULP  0x1.000002p-25: 0x1p-24/0x1.000002p-26 (x rounded to binary16)
 *   relu         abs 0.17    at GELU's minimum -0x1.80ead2p-1
 *   erf/ISA      4.837 ULP   -0x1.9fd2a8p+1: -0x1.edcb5p-10/-0x1.edcb46p-10 (12.65 ULP over all
 *                            inputs, at -0x1.a356e4p+3 near the subnormals)
 *   tanh/ISA     32.17 ULP   -0x1.3fa86ep+2: -0x1.fe37bap-23/-0x1.fe377ap-23 (s rounded in float;
 *                            213.9 ULP over all inputs, at -0x1.4150cp+3)
 *   sigmoid/ISA  9.475 ULP   -0x1.2d5762p+2: -0x1.98403ep-10/-0x1.984051p-10 (110.2 over all)
 *   silu/ISA     3.237 ULP   -0x1.9f3fcp+1: -0x1.f2ceb4p-4/-0x1.f2cebap-4 (52.01 over all)
 *   poly3/5/7    abs 8.142e-4, 1.442e-5, 4.246e-7 (at 0x1.67fd7p+2 for poly7: half an ulp of 5.6
 *                is 2.4e-7 of that); their ULP error on [-5, 5] is huge where they cut the
 *                tail to -0 (poly7: 966260 ULP at -0x1.3d59aap+2).
 *   accurate/ISA 0.5997 ULP  -0x1.631558p+1: -0x1.f732d4p-8/-0x1.f732d2ccfdeb1p-8, also over all
 *                            inputs (derived bound 0.6084, impls/vec/gelu_accurate.h; 99.68 % CR)
 *   fast/ISA     2.652 ULP   -0x1.d523fcp+0: -0x1.f5e7c2p-5/-0x1.f5e7c74d7202cp-5 (x >= 5:
 *                            0.49999 ULP; x < -5: abs 6.002e-8 at -0x1.458decp+3; 96.90 % CR)
 *   sigmoidfast/ISA 0.5347 ULP -0x1.07c496p+2: -0x1.e507ep-9/-0x1.e507e111b94e8p-9 (sigmoid
 *                            definition; 0.5361 over all inputs, at -0x1.120f56p+5; 99.77 % CR)
 *   cr/ISA       0.5 ULP     correctly rounded: all 2^32 inputs equal the rounded reference
 *                            (`gelulab sweep --impl cr/avx2 --impl cr/scalar`); the
 *                            tests also check ties near the subnormals (tests/test_kernels.c)
 *   tanhfast/ISA 0.5359 ULP  -0x1.1865f6p+1: -0x1.fad8acp-6/-0x1.fad8ad1257a32p-6 (tanh
 *                            definition), also over all inputs (derived 0.537; 99.77 % CR)
 * (Measured 2026-12-02 again after the ULP metric's fix for references whose double-double
 * straddles a binade: only erfc-double's figure changed, from 0.8085.)
 * The generic vector kernels (impls/vec/kernels.h) give bit-identical results on every ISA
 * (same operations, same fma), so one bound serves the four builds of an algorithm. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gelulab/impl.h"
#include "libm_kernels.h"
#include "vec_decls.h"

#define RIGHT "nan inf -0 0 -0" /* the correct special values of every GELU definition */
#define VEC(algo, isa, ISA, defn, family, note, ulp, abs, tail)                                    \
    {                                                                                              \
#algo "/" #isa, defn, family, GL_ISA_##ISA, gl_k_##algo##_##isa, NULL, note, ulp, abs,     \
            tail, RIGHT                                                                            \
    }
#define NEON(algo, defn, family, note, ulp, abs, tail)                                             \
    {                                                                                              \
#algo "/neon", defn, family, GL_ISA_NEON, NULL, NULL, note, ulp, abs, tail, RIGHT          \
    }
#define VEC4(algo, defn, family, note, ulp, abs, tail)                                             \
    VEC(algo, scalar, SCALAR, defn, family, note, ulp, abs, tail),                                 \
        VEC(algo, avx2, AVX2, defn, family, note, ulp, abs, tail),                                 \
        VEC(algo, avx512, AVX512, defn, family, note, ulp, abs, tail),                             \
        NEON(algo, defn, family, note, ulp, abs, tail)

static const struct gl_impl impls[] = {
    /* C library formulas (impls/libm_kernels.c) */
    {"erf-naive", GL_DEFN_EXACT, "erf", GL_ISA_SCALAR, gl_k_erf_naive_f32, gl_k_erf_naive_f64,
     "0.5x(1+erff(x/sqrt2)), glibc", 6.532e5, 4.475e-7, "returns 0 for x < -5.6 (cancellation)",
     "nan inf nan 0 -0"},
    {"erfc-stable", GL_DEFN_EXACT, "erf", GL_ISA_SCALAR, gl_k_erfc_stable_f32, gl_k_erfc_stable_f64,
     "0.5x erfcf(-x/sqrt2), glibc", 23.08, 3.841e-7,
     "keeps the tail, ~190 ULP lost to rounding x/sqrt2", "nan inf nan 0 -0"},
    {"erfc-double", GL_DEFN_EXACT, "erf", GL_ISA_SCALAR, gl_k_erfc_double_f32, NULL,
     "0.5x erfc(-x/sqrt2) in double, rounded once", 0.5001, 2.385e-7, "accurate down to underflow",
     RIGHT},
    {"tanh-libm", GL_DEFN_TANH, "tanh", GL_ISA_SCALAR, gl_k_tanh_libm_f32, gl_k_tanh_libm_f64,
     "0.5x(1+tanhf(sqrt(2/pi)(x+0.044715x^3))), glibc", 4.845e6, 4.332e-7,
     "returns 0 for x < -4.5 or so (cancellation)", "nan inf nan 0 -0"},
    {"sigmoid-libm", GL_DEFN_SIGMOID, "sigmoid", GL_ISA_SCALAR, gl_k_sigmoid_libm_f32,
     gl_k_sigmoid_libm_f64, "x/(1+expf(-1.702x)), glibc", 8.664, 7.401e-7,
     "NaN for x = -inf (inf/inf)", "nan inf nan 0 -0"},
    {"silu-libm", GL_DEFN_SILU, "silu", GL_ISA_SCALAR, gl_k_silu_libm_f32, gl_k_silu_libm_f64,
     "x/(1+expf(-x)), glibc", 1.999, 1.274e-6, "NaN for x = -inf (inf/inf)", "nan inf nan 0 -0"},
    {"lut-f16", GL_DEFN_TANH, "lut", GL_ISA_SCALAR, gl_k_lut_f16_f32, NULL,
     "x rounded to binary16, 65536-entry table (ggml)", 2.517e7, 3.907e-3,
     "+0 for x <= -10 (wrong sign), x for x >= 10", "nan inf 0 0 -0"},
    {"relu", GL_DEFN_EXACT, "relu", GL_ISA_SCALAR, gl_k_relu_f32, gl_k_relu_f64,
     "x > 0 ? x : 0, the cost baseline", 1.678e7, 0.1700, "not an approximation of GELU",
     "0 inf 0 0 0"},
    /* generic vector kernels (impls/vec/kernels.h), four ISAs each */
    VEC4(erf, GL_DEFN_EXACT, "erf", "x Phi(x), erfc = t exp(-z^2 + P(t)), exact -x^2/2", 4.837,
         2.385e-7, "relative accuracy down to underflow"),
    VEC4(tanh, GL_DEFN_TANH, "tanh", "x sigma(2u) (no cancellation), own exp", 32.17, 5.160e-7,
         "relative accuracy down to underflow"),
    VEC4(sigmoid, GL_DEFN_SIGMOID, "sigmoid", "x sigma(1.702x), own exp", 9.475, 7.401e-7,
         "relative accuracy down to underflow"),
    VEC4(silu, GL_DEFN_SILU, "silu", "x sigma(x), own exp", 3.237, 1.274e-6,
         "relative accuracy down to underflow"),
    VEC4(poly3, GL_DEFN_EXACT, "poly", "Phi by a degree-6 polynomial on [-3.5, 0]", 1.678e7,
         8.143e-4, "-0 for x < -3.5, x for x > 3.5"),
    VEC4(poly5, GL_DEFN_EXACT, "poly", "Phi by a degree-11 polynomial on [-4.75, 0]", 3.171e7,
         1.442e-5, "-0 for x < -4.75, x for x > 4.75"),
    VEC4(poly7, GL_DEFN_EXACT, "poly", "Phi by a degree-17 polynomial on [-5.625, 0]", 9.663e5,
         4.247e-7, "-0 for x < -5.625, x for x > 5.625"),
    VEC4(accurate, GL_DEFN_EXACT, "accurate",
         "gelu-accurate: x Phi(x) in binary64, erfc = t Q(w) exp(-z^2), rounded once", 0.5997,
         2.385e-7, "relative accuracy down to underflow"),
    VEC4(fast, GL_DEFN_EXACT, "fast",
         "gelu-fast: x Phi(x) in binary32, e^(-x^2/2) R(x), R piecewise (8 pieces), no division",
         2.652, 2.385e-7, "-0 for x < -5.6 (|error| <= 6.002e-8 below -5)"),
    VEC4(tanhfast, GL_DEFN_TANH, "tanh",
         "gelu-tanh-fast: x sigma(2u) in binary64, own exp, rounded once", 0.5359, 2.385e-7,
         "relative accuracy down to underflow"),
    VEC4(sigmoidfast, GL_DEFN_SIGMOID, "sigmoid",
         "gelu-sigmoid-fast: x sigma(1.702x) in binary64, own exp, rounded once", 0.5347, 4.769e-7,
         "relative accuracy down to underflow"),
    VEC4(cr, GL_DEFN_EXACT, "cr",
         "gelu-cr: correctly rounded; binary64 fast path with a rounding test, long double else",
         0.5, 2.385e-7, "correctly rounded for every binary32 input"),
};
#define N_IMPLS (sizeof impls / sizeof impls[0])

size_t gl_impl_count(void)
{
    return N_IMPLS;
}

const struct gl_impl *gl_impl_get(size_t i)
{
    return i < N_IMPLS ? &impls[i] : NULL;
}

const struct gl_impl *gl_impl_find(const char *name)
{
    for (size_t i = 0; i < N_IMPLS; i++)
        if (!strcmp(impls[i].name, name)) return &impls[i];
    return NULL;
}

const char *gl_isa_name(enum gl_isa isa)
{
    static const char *names[GL_ISA_COUNT] = {"scalar", "avx2", "avx512", "neon"};
    return (unsigned)isa < GL_ISA_COUNT ? names[isa] : "?";
}

int gl_impl_available(const struct gl_impl *k)
{
    switch (k->isa) {
    case GL_ISA_SCALAR:
        return 1;
    case GL_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case GL_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    default:
        return 0;
    }
}

const char *gl_impl_neon_command(const struct gl_impl *k, char *buf, size_t len)
{
#if defined(GL_NEON_EVAL_PATH) && defined(GL_QEMU_AARCH64)
    if (k->isa != GL_ISA_NEON || access(GL_NEON_EVAL_PATH, X_OK) != 0 ||
        access(GL_QEMU_AARCH64, X_OK) != 0)
        return NULL;
    size_t algo_len = strcspn(k->name, "/");
    snprintf(buf, len, "%s %s %.*s", GL_QEMU_AARCH64, GL_NEON_EVAL_PATH, (int)algo_len, k->name);
    return buf;
#else
    (void)k, (void)buf, (void)len;
    return NULL;
#endif
}
