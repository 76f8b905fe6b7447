/* gelulab — what every kernel is called with, said once (docs/design.md, "Kernel ABI"): the
 * function types of the kernel ABIs, the ABI as an enum and a function of any ABI as one union,
 * the instruction sets a build targets, and the one check of what this CPU runs. The registry
 * (gelulab/impl.h), the peers' table (gelulab/peers.h), the benchmark's cases (bench/cases.h) and
 * libgelulab's dispatch (lib/gelulab.c) use these. */
#ifndef GELULAB_KERNEL_H
#define GELULAB_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = f(x[i]) for i < n; any n (0 included), unaligned pointers, x == y (in place) allowed */
typedef void (*gl_kernel_f32)(const float *x, float *y, size_t n);
typedef void (*gl_kernel_f64)(const double *x, double *y, size_t n);
/* the backward ABI: dx[i] = dy[i] * f'(x[i]) for i < n; any n, unaligned pointers, dx == x or
 * dx == dy allowed */
typedef void (*gl_kernel_bwd_f32)(const float *x, const float *dy, float *dx, size_t n);
/* the 16-bit ABI: y[i] = f(x[i]) on bfloat16 or binary16 bits, any n, unaligned, x == y allowed */
typedef void (*gl_kernel_u16)(const uint16_t *x, uint16_t *y, size_t n);

/* A kernel's ABI: which of the function types above it has, and for the 16-bit one which
 * numbers its bits are. The numbers a kernel takes (a registry entry's or a kernel source's
 * `abi`, `--abi`) are GL_KERNEL_F32, _BF16 or _F16; a binary32 kernel may have a binary64
 * version (f64) or be a backward one beside that. */
enum gl_kernel_abi { GL_KERNEL_F32, GL_KERNEL_BF16, GL_KERNEL_F16, GL_KERNEL_F64, GL_KERNEL_BWD };

static inline const char *gl_kernel_abi_name(enum gl_kernel_abi a)
{
    static const char *const names[] = {"f32", "bf16", "f16", "f64", "bwd"};
    return (unsigned)a < sizeof names / sizeof *names ? names[a] : "?";
}
/* 1 for the 16-bit ABI (bfloat16 or binary16 bits) */
static inline int gl_kernel_abi_is16(enum gl_kernel_abi a)
{
    return a == GL_KERNEL_BF16 || a == GL_KERNEL_F16;
}
/* the numbers "f32", "bf16" or "f16" (`--abi`): 0, or -1 for another name */
static inline int gl_kernel_abi_parse(const char *name, enum gl_kernel_abi *a)
{
    for (int i = GL_KERNEL_F32; i <= GL_KERNEL_F16; i++)
        if (!strcmp(name, gl_kernel_abi_name((enum gl_kernel_abi)i)))
            return *a = (enum gl_kernel_abi)i, 0;
    return -1;
}

/* A kernel function of any ABI: the member its ABI names is the one set */
union gl_kernel_fn {
    gl_kernel_f32 f32;
    gl_kernel_f64 f64;
    gl_kernel_bwd_f32 bwd;
    gl_kernel_u16 u16;
};

/* 1 when fn, of ABI abi, is set */
static inline int gl_kernel_fn_set(enum gl_kernel_abi abi, union gl_kernel_fn fn)
{
    return abi == GL_KERNEL_F32   ? fn.f32 != NULL
           : abi == GL_KERNEL_F64 ? fn.f64 != NULL
           : abi == GL_KERNEL_BWD ? fn.bwd != NULL
                                  : fn.u16 != NULL;
}

/* the instruction sets gelulab's own builds target; GL_ISA_AVX2 means AVX2 with FMA, and
 * GL_ISA_AVX512 AVX-512 F with DQ */
enum gl_isa { GL_ISA_SCALAR, GL_ISA_AVX2, GL_ISA_AVX512, GL_ISA_NEON, GL_ISA_COUNT };

static inline const char *gl_isa_name(enum gl_isa isa)
{
    static const char *const names[GL_ISA_COUNT] = {"scalar", "avx2", "avx512", "neon"};
    return (unsigned)isa < GL_ISA_COUNT ? names[isa] : "?";
}

/* the CPU features a build may need: gelulab's ISAs above, and what the peers' builds need
 * beyond them (Eigen's TensorFlow-like build: AVX alone; SLEEF's avx512f functions: F alone) */
enum gl_cpu_feature {
    GL_CPU_AVX,
    GL_CPU_AVX2_FMA,
    GL_CPU_AVX512F,
    GL_CPU_AVX512F_DQ,
};

/* 1 when this CPU has the feature: the one place gelulab asks the CPU */
static inline int gl_cpu_has(enum gl_cpu_feature f)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (f) {
    case GL_CPU_AVX:
        return __builtin_cpu_supports("avx");
    case GL_CPU_AVX2_FMA:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case GL_CPU_AVX512F:
        return __builtin_cpu_supports("avx512f");
    case GL_CPU_AVX512F_DQ:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    }
#endif
    (void)f;
    return 0;
}

/* 1 when this process can run a build for the ISA in process (NEON: on AArch64 only; x86-64
 * runs the NEON builds under emulation, out of process) */
static inline int gl_isa_runs_here(enum gl_isa isa)
{
    switch (isa) {
    case GL_ISA_SCALAR:
        return 1;
    case GL_ISA_AVX2:
        return gl_cpu_has(GL_CPU_AVX2_FMA);
    case GL_ISA_AVX512:
        return gl_cpu_has(GL_CPU_AVX512F_DQ);
    case GL_ISA_NEON:
#if defined(__aarch64__)
        return 1;
#else
        return 0;
#endif
    case GL_ISA_COUNT:
        break;
    }
    return 0;
}

#ifdef __cplusplus
}
#endif
#endif
