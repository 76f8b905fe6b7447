/* libgelulab: the entry points of include/gelulab.h. Each runs the build of its kernel that fits
 * this CPU best (AVX-512, AVX2 with FMA, or scalar on x86-64; NEON on AArch64), chosen once, on
 * the first call of any entry point (pthread_once: thread-safe), or forced by the environment
 * variable GELULAB_ISA (scalar, avx2, avx512, neon) for tests and bug reports; gl_gelu_isa()
 * says which one runs. Every build of a kernel gives the same bits (impls/README.md), so the
 * choice changes the speed, never the results.
 *
 * Exceptions, measured: the 16-bit table kernels run their scalar build on x86-64 unless the CPU
 * has AVX-512 (on Zen 3 the AVX2 gather is 1.7x slower than plain loads: impls/tab16.c); a forced
 * GELULAB_ISA applies to them too. Only the gl_gelu_* functions are exported (the library is
 * compiled with hidden visibility; lib/CMakeLists.txt). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab.h"
#include "gelulab/kernel.h"
#include "gelulab/lib_api.h"
#include "tab16.h"
#include "vec_decls.h"

#define GL_API __attribute__((visibility("default")))

/* the builds of each kernel, by ISA (enum gl_isa; NULL: not in this library) */
#if defined(__x86_64__)
#define BUILDS(algo)                                                                               \
    {                                                                                              \
        gl_k_##algo##_scalar, gl_k_##algo##_avx2, gl_k_##algo##_avx512, NULL                       \
    }
#elif defined(__aarch64__)
#define BUILDS(algo)                                                                               \
    {                                                                                              \
        NULL, NULL, NULL, gl_k_##algo##_neon                                                       \
    }
#endif
#define ENUM(algo, what)    API_##algo,
#define FWD_ROW(algo, what) [API_##algo] = BUILDS(algo),
enum { GL_LIB_FORWARD(ENUM) N_FWD };
enum { GL_LIB_BACKWARD(ENUM) N_BWD };
enum { GL_LIB_16(ENUM) N_U16 };
static const gl_kernel_f32 fwd[N_FWD][GL_ISA_COUNT] = {GL_LIB_FORWARD(FWD_ROW)};
static const gl_kernel_bwd_f32 bwd[N_BWD][GL_ISA_COUNT] = {GL_LIB_BACKWARD(FWD_ROW)};
static const gl_kernel_u16 u16[N_U16][GL_ISA_COUNT] = {GL_LIB_16(FWD_ROW)};

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* set once by choose(): the ISA of the vector kernels, of the tables */
static enum gl_isa isa, isa16;

/* this library has builds for the ISA (every kernel has one or none) and this CPU runs them */
static int supported(enum gl_isa i)
{
    return fwd[0][i] && gl_isa_runs_here(i);
}

static void choose(void)
{
    isa = GL_ISA_SCALAR;
    for (enum gl_isa i = 0; i < GL_ISA_COUNT; i++)
        if (supported(i)) isa = i; /* the widest */
    isa16 = isa == GL_ISA_AVX2 ? GL_ISA_SCALAR : isa;
    const char *want = getenv("GELULAB_ISA");
    if (!want || !*want) return;
    for (enum gl_isa i = 0; i < GL_ISA_COUNT; i++)
        if (!strcmp(want, gl_isa_name(i)) && supported(i)) {
            isa = isa16 = i;
            return;
        }
    fprintf(stderr, "gelulab: GELULAB_ISA=%s: %s; using %s\n", want,
            strcmp(want, "scalar") && strcmp(want, "avx2") && strcmp(want, "avx512") &&
                    strcmp(want, "neon")
                ? "not an ISA (scalar, avx2, avx512, neon)"
                : "not supported by this CPU (or not in this library)",
            gl_isa_name(isa));
}

GL_API const char *gl_gelu_isa(void)
{
    pthread_once(&once, choose);
    return gl_isa_name(isa);
}

GL_API const char *gl_gelu_isa_16(void)
{
    pthread_once(&once, choose);
    return gl_isa_name(isa16);
}

#define FWD_DEF(algo, what)                                                                        \
    GL_API void gl_##algo(GL_LIB_PARAMS_FWD)                                                       \
    {                                                                                              \
        pthread_once(&once, choose);                                                               \
        fwd[API_##algo][isa](x, y, n);                                                             \
    }
#define BWD_DEF(algo, what)                                                                        \
    GL_API void gl_##algo(GL_LIB_PARAMS_BWD)                                                       \
    {                                                                                              \
        pthread_once(&once, choose);                                                               \
        bwd[API_##algo][isa](x, dy, dx, n);                                                        \
    }
#define U16_DEF(algo, what)                                                                        \
    GL_API void gl_##algo(GL_LIB_PARAMS_U16)                                                       \
    {                                                                                              \
        pthread_once(&once, choose);                                                               \
        u16[API_##algo][isa16](x, y, n);                                                           \
    }
GL_LIB_FORWARD(FWD_DEF)
GL_LIB_BACKWARD(BWD_DEF)
GL_LIB_16(U16_DEF)

/* the names 0.2 renamed: the same functions under their 0.1 names, until 0.3 */
#define OLD_DEF(old, algo, abi)                                                                    \
    GL_API void gl_##old(GL_LIB_PARAMS_##abi) __attribute__((alias("gl_" #algo)));
GL_LIB_RENAMED(OLD_DEF)
