/* gelulab — the kernel ABI and the registry of built-in implementations (docs/design.md,
 * "Kernel ABI", "Kernels").
 *
 * A kernel computes y[i] = f(x[i]) for i < n; any n (0 included), unaligned pointers, and
 * x == y (in place) are allowed. Each registry entry says which definition it implements and
 * the error bounds it documents, measured against that definition's correctly rounded reference.
 * They come from the kernel's contract, declared once beside its code (GL_CONTRACT_NAME in
 * impls/vec/algo/NAME.h and impls/libm_kernels.h): the registry takes it as it is, the tests
 * evaluate its witness, and `gelulab list`, the README and the report quote it. */
#ifndef GELULAB_IMPL_H
#define GELULAB_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "gelulab/defn.h"
#include "gelulab/format.h"
#include "gelulab/kernel.h" /* the kernel ABIs' function types, the ISAs, the CPU check */

/* the format of a kernel's numbers (GL_FMT_F32 for the binary32 ABI) */
static inline enum gl_format_id gl_kernel_abi_format(enum gl_kernel_abi a)
{
    return a == GL_KERNEL_BF16 ? GL_FMT_BF16 : a == GL_KERNEL_F16 ? GL_FMT_F16 : GL_FMT_F32;
}

/* The input that attains a documented maximum, as x: got/want (Arm Optimized Routines' habit):
 * the kernel's result for x, and the unrounded reference (rounded to binary64). */
struct gl_witness {
    double x, got, want;
};

/* The special values right for every GELU definition (NaN, +inf, -inf, +0, -0), and for every
 * derivative (a backward kernel with dy = 1: f' is 1 at +inf, -0 at -inf, 1/2 at +-0) */
#define GL_SPECIALS_RIGHT      "nan inf -0 0 -0"
#define GL_SPECIALS_GRAD_RIGHT "nan 0x1p+0 -0 0x1p-1 0x1p-1"

struct gl_impl {
    const char *name;   /* "gelu-tanh-fast/avx512": algorithm/ISA */
    enum gl_defn defn;  /* the definition it implements */
    const char *family; /* erf, tanh, sigmoid, silu, poly, lut, relu, accurate, fast, cr */
    enum gl_isa isa;
    gl_kernel_f32 f32;      /* NULL for NEON kernels, run out of process (impls/neon/) */
    gl_kernel_f64 f64;      /* NULL where there is no binary64 version */
    gl_kernel_bwd_f32 bwd;  /* a backward kernel (defn is a derivative): f32 and f64 are NULL */
    gl_kernel_u16 u16;      /* a 16-bit kernel (abi bf16 or f16): f32, f64 and bwd are NULL */
    enum gl_kernel_abi abi; /* the numbers it takes: GL_KERNEL_F32 but for 16-bit kernels */
    const char *note;       /* the method, in one line */
    /* SHA-256 of the sources this build of the kernel was compiled from, with the toolchain
     * (cmake/code_hash.cmake; generated): the sweep store's key of a built-in kernel */
    const char *code_hash;
    /* Documented bounds against the reference of `defn`, over all 2^32 binary32 inputs (a
     * backward kernel: with dy = 1, and ulp_core outside the root region, |x - x0| > 1/32; a
     * 16-bit kernel: over its format's 65 536 inputs, in ULPs of that format): */
    double ulp_core;  /* max ULP error on the core, -5 <= x <= 5, rounded up to 4 digits */
    double abs_all;   /* max absolute error over all finite x */
    const char *tail; /* what it does outside the core, in words */
    /* Documented results for the inputs NaN, +inf, -inf, +0, -0, as five words ("nan inf -0 0
     * -0" is right for every GELU definition): asserted by the tests. */
    const char *specials;
    struct gl_witness witness; /* an input of the core whose error is ulp_core */
};

size_t gl_impl_count(void);
const struct gl_impl *gl_impl_get(size_t i);
/* The entry with that name, or under its name before gelulab 0.2 (gl_impl_renamed), or NULL. */
const struct gl_impl *gl_impl_find(const char *name);
/* A kernel's name before 0.2 ("tanhfast/avx512", "erf-naive"; accepted until 0.3): its name now
 * in buf ("gelu-tanh-accurate/avx512"); NULL if name is not an old name (or buf is too short). */
const char *gl_impl_renamed(const char *name, char *buf, size_t len);
/* 1 when this process can call the kernel (its ISA is supported here; NEON: never in
 * process, see gl_impl_neon_command). */
int gl_impl_available(const struct gl_impl *k);

/* The external-evaluator command that runs a NEON kernel under qemu-aarch64 (docs/exec-protocol.md,
 * pipe protocol: raw little-endian float32 in on stdin, out on stdout), or NULL when the NEON
 * evaluator was not built or qemu-aarch64 is missing. Written into buf. */
const char *gl_impl_neon_command(const struct gl_impl *k, char *buf, size_t len);

#endif
