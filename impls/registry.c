/* The registry of built-in kernels (include/gelulab/impl.h): each entry is a name, an ISA, the
 * function pointers and the kernel's contract as its header declares it (GL_CONTRACT_NAME:
 * impls/libm_kernels.h for the C-library formulas, impls/vec/algo/NAME.h for gelulab's own
 * algorithms), never restated here. The generic vector kernels give the same bits on every ISA
 * (same operations, same fma), so one contract serves the four builds of an algorithm; the
 * algorithms and their order come from impls/algos.list (GL_VEC_ALGOS, generated), the backward
 * kernels' from impls/grads.list (GL_VEC_GRADS, entries with .bwd). A NEON backward kernel is
 * known as one by its definition (a derivative). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gelulab/impl.h"
#include "libm_kernels.h"
#include "tab16.h"
#include "vec_decls.h"
#include "gl_algo_headers.h" /* without an ISA header: only the contracts */
#include "gl_code_hashes.h"  /* generated: cmake/code_hash.cmake */

#define VEC(algo, sfx, ISA)                                                                        \
    {                                                                                              \
        .name = GL_NAME_##algo "/" #sfx, .isa = GL_ISA_##ISA, .f32 = gl_k_##algo##_##sfx,          \
        .code_hash = GL_CODE_HASH_##algo, GL_CONTRACT_##algo                                       \
    }
#define NEON(algo)                                                                                 \
    {                                                                                              \
        .name = GL_NAME_##algo "/neon", .isa = GL_ISA_NEON, .code_hash = GL_CODE_HASH_##algo,      \
        GL_CONTRACT_##algo                                                                         \
    }
#define VEC4(algo, unused)                                                                         \
    VEC(algo, scalar, SCALAR), VEC(algo, avx2, AVX2), VEC(algo, avx512, AVX512), NEON(algo),
#define BWD(algo, sfx, ISA)                                                                        \
    {                                                                                              \
        .name = GL_NAME_##algo "/" #sfx, .isa = GL_ISA_##ISA, .bwd = gl_k_##algo##_##sfx,          \
        .code_hash = GL_CODE_HASH_##algo, GL_CONTRACT_##algo                                       \
    }
#define BWD4(algo, unused)                                                                         \
    BWD(algo, scalar, SCALAR), BWD(algo, avx2, AVX2), BWD(algo, avx512, AVX512), NEON(algo),
#define TAB16(algo, sfx, ISA)                                                                      \
    {                                                                                              \
        .name = GL_NAME_##algo "/" #sfx, .isa = GL_ISA_##ISA, .u16 = gl_k_##algo##_##sfx,          \
        .code_hash = GL_CODE_HASH_TAB16, GL_CONTRACT_##algo                                        \
    }
#define TAB16_4(algo, table)                                                                       \
    TAB16(algo, scalar, SCALAR), TAB16(algo, avx2, AVX2), TAB16(algo, avx512, AVX512),             \
        {.name = GL_NAME_##algo "/neon",                                                           \
         .isa = GL_ISA_NEON,                                                                       \
         .code_hash = GL_CODE_HASH_TAB16,                                                          \
         GL_CONTRACT_##algo},
#define LIBM(label, fn, f64fn, contract)                                                           \
    {                                                                                              \
        .name = label, .isa = GL_ISA_SCALAR, .f32 = fn, .f64 = f64fn,                              \
        .code_hash = GL_CODE_HASH_LIBM, contract                                                   \
    }

static const struct gl_impl impls[] = {
    /* C library formulas (impls/libm_kernels.c), the fp16 table (lut_f16.c) and ReLU */
    LIBM("gelu-erf-naive", gl_k_gelu_erf_naive_f32, gl_k_gelu_erf_naive_f64,
         GL_CONTRACT_gelu_erf_naive),
    LIBM("gelu-erfc-stable", gl_k_gelu_erfc_stable_f32, gl_k_gelu_erfc_stable_f64,
         GL_CONTRACT_gelu_erfc_stable),
    LIBM("gelu-erfc-double", gl_k_gelu_erfc_double_f32, NULL, GL_CONTRACT_gelu_erfc_double),
    LIBM("gelu-tanh-libm", gl_k_gelu_tanh_libm_f32, gl_k_gelu_tanh_libm_f64,
         GL_CONTRACT_gelu_tanh_libm),
    LIBM("gelu-sigmoid-libm", gl_k_gelu_sigmoid_libm_f32, gl_k_gelu_sigmoid_libm_f64,
         GL_CONTRACT_gelu_sigmoid_libm),
    LIBM("silu-libm", gl_k_silu_libm_f32, gl_k_silu_libm_f64, GL_CONTRACT_silu_libm),
    LIBM("gelu-tanh-lut-f16", gl_k_gelu_tanh_lut_f16_f32, NULL, GL_CONTRACT_gelu_tanh_lut_f16),
    LIBM("relu", gl_k_relu_f32, gl_k_relu_f64, GL_CONTRACT_relu),
    /* the generic vector kernels (impls/vec/), four ISAs each */
    GL_VEC_ALGOS(VEC4, unused)
    /* the backward kernels (impls/grads.list), four ISAs each */
    GL_VEC_GRADS(BWD4, unused)
    /* the 16-bit kernels (impls/tab16.c), four ISAs each */
    GL_TAB16_KERNELS(TAB16_4)};
#define N_IMPLS (sizeof impls / sizeof impls[0])

size_t gl_impl_count(void)
{
    return N_IMPLS;
}

const struct gl_impl *gl_impl_get(size_t i)
{
    return i < N_IMPLS ? &impls[i] : NULL;
}

/* The names of gelulab 0.1 that 0.2 changed (docs/design.md, "Names"): an algorithm's (the part
 * before the '/') or a whole name, and its name now; accepted until 0.3 */
static const struct {
    const char *old, *now;
} renamed[] = {
    {"erf", "gelu-erfc-fast"},
    {"tanh", "gelu-tanh-fast"},
    {"sigmoid", "gelu-sigmoid-fast"},
    {"silu", "silu-fast"},
    {"poly3", "gelu-poly3"},
    {"poly5", "gelu-poly5"},
    {"poly7", "gelu-poly7"},
    {"accurate", "gelu-accurate"},
    {"fast", "gelu-fast"},
    {"tanhfast", "gelu-tanh-accurate"},
    {"sigmoidfast", "gelu-sigmoid-accurate"},
    {"cr", "gelu-cr"},
    {"grad_accurate", "gelu-grad-accurate"},
    {"grad_fast", "gelu-grad-fast"},
    {"grad_tanh", "gelu-tanh-grad-accurate"},
    {"grad_tanhfast", "gelu-tanh-grad-fast"},
    {"cr_bf16", "gelu-cr-bf16"},
    {"cr_f16", "gelu-cr-f16"},
    {"tanhcr_bf16", "gelu-tanh-cr-bf16"},
    {"tanhcr_f16", "gelu-tanh-cr-f16"},
    {"erf-naive", "gelu-erf-naive"},
    {"erfc-stable", "gelu-erfc-stable"},
    {"erfc-double", "gelu-erfc-double"},
    {"tanh-libm", "gelu-tanh-libm"},
    {"sigmoid-libm", "gelu-sigmoid-libm"},
    {"lut-f16", "gelu-tanh-lut-f16"},
};

const char *gl_impl_renamed(const char *name, char *buf, size_t len)
{
    size_t algo = strcspn(name, "/");
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (strlen(renamed[i].old) == algo && !strncmp(name, renamed[i].old, algo)) {
            int w = snprintf(buf, len, "%s%s", renamed[i].now, name + algo);
            return w >= 0 && (size_t)w < len ? buf : NULL;
        }
    return NULL;
}

static const struct gl_impl *find_exact(const char *name)
{
    for (size_t i = 0; i < N_IMPLS; i++)
        if (!strcmp(impls[i].name, name)) return &impls[i];
    return NULL;
}

const struct gl_impl *gl_impl_find(const char *name)
{
    char now[96];
    const struct gl_impl *k = find_exact(name);
    if (!k && gl_impl_renamed(name, now, sizeof now)) k = find_exact(now);
    return k;
}

int gl_impl_available(const struct gl_impl *k)
{
    return k->isa != GL_ISA_NEON && gl_isa_runs_here(k->isa); /* NEON: out of process */
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
