/* AArch64 NEON helpers for the generic vector kernels (cross-compiled, run under qemu-aarch64). */
#include <arm_neon.h>
#include <stdint.h>
#define GL_ISA_SUFFIX neon
#define VW            4
typedef float V __attribute__((vector_size(16)));
typedef int32_t VI __attribute__((vector_size(16)));
static inline V vfma(V a, V b, V c)
{
    return (V)vfmaq_f32((float32x4_t)c, (float32x4_t)a, (float32x4_t)b);
}
