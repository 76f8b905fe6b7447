/* The 16-bit table kernels (impls/tab16.c): their tables (generated, impls/gen_tab16.c),
 * prototypes and contracts (include/gelulab/impl.h). Bounds in ULPs of the kernel's format, over
 * its 65 536 inputs, from the exhaustive sweeps (gelulab sweep --format bf16|f16 --impl NAME):
 * every result correctly rounded; max ULP 0.5 at the smallest subnormal (GELU = x/2 + ..., just
 * above the midpoint 2^-134 or 2^-25), abs_all at the largest finite inputs' neighbours. */
#ifndef GL_IMPLS_TAB16_H
#define GL_IMPLS_TAB16_H
#include <stddef.h>
#include <stdint.h>

extern const uint16_t gl_tab16_exact_bf16[65537], gl_tab16_exact_f16[65537],
    gl_tab16_tanh_bf16[65537], gl_tab16_tanh_f16[65537];

/* X(NAME, TABLE): the kernels, in report order, one a line (impls/CMakeLists.txt reads the names
 * from here: GL_NAME_NAME, the kernel's name, is NAME with '-' for '_') */
#define GL_TAB16_KERNELS(X)                                                                        \
    X(gelu_cr_bf16, gl_tab16_exact_bf16)                                                           \
    X(gelu_cr_f16, gl_tab16_exact_f16)                                                             \
    X(gelu_tanh_cr_bf16, gl_tab16_tanh_bf16)                                                       \
    X(gelu_tanh_cr_f16, gl_tab16_tanh_f16)

#define GL_TAB16_DECL(algo, table)                                                                 \
    void gl_k_##algo##_scalar(const uint16_t *x, uint16_t *y, size_t n);                           \
    void gl_k_##algo##_avx2(const uint16_t *x, uint16_t *y, size_t n);                             \
    void gl_k_##algo##_avx512(const uint16_t *x, uint16_t *y, size_t n);                           \
    void gl_k_##algo##_neon(const uint16_t *x, uint16_t *y, size_t n);
GL_TAB16_KERNELS(GL_TAB16_DECL)

#define GL_TAB16_CONTRACT_COMMON                                                                   \
    .family = "cr", .note = "65536-entry table of correctly rounded results (MPFR, build time)",   \
    .tail = "correctly rounded", .specials = "nan inf -0 0 -0"
#define GL_CONTRACT_gelu_cr_bf16                                                                   \
    .defn = GL_DEFN_EXACT, .abi = GL_KERNEL_BF16, GL_TAB16_CONTRACT_COMMON, .ulp_core = 0.5,       \
    .abs_all = 0.007769, .witness = {0x1p-133, 0x1p-133, 0x1p-134}
#define GL_CONTRACT_gelu_cr_f16                                                                    \
    .defn = GL_DEFN_EXACT, .abi = GL_KERNEL_F16, GL_TAB16_CONTRACT_COMMON, .ulp_core = 0.5,        \
    .abs_all = 0.0009763, .witness = {0x1p-24, 0x1p-24, 0x1.000000cc4229ap-25}
#define GL_CONTRACT_gelu_tanh_cr_bf16                                                              \
    .defn = GL_DEFN_TANH, .abi = GL_KERNEL_BF16, GL_TAB16_CONTRACT_COMMON, .ulp_core = 0.5,        \
    .abs_all = 0.007755, .witness = {0x1p-133, 0x1p-133, 0x1p-134}
#define GL_CONTRACT_gelu_tanh_cr_f16                                                               \
    .defn = GL_DEFN_TANH, .abi = GL_KERNEL_F16, GL_TAB16_CONTRACT_COMMON, .ulp_core = 0.5,         \
    .abs_all = 0.0009735, .witness = {0x1p-24, 0x1p-24, 0x1.000000cc4229ap-25}

#endif
