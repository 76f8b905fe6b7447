/* libgelulab's entry points give the same bits as the built-in kernels they stand for, under the
 * build the environment asks for (GELULAB_ISA; ctest runs this once per ISA, and the ISA this CPU
 * lacks reports itself skipped; NaN results compare as NaN): on every bfloat16 value as a float,
 * 10^6 random binary32 bit patterns and the specials (forward and backward with dy varied), and on
 * all 65 536 inputs of the 16-bit functions; the names 0.2 renamed (GL_LIB_RENAMED) likewise. Also:
 * gl_gelu_isa() names the build that runs, and lengths 0..40 at offsets 0..3, in place, agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gelulab.h"
#include "gelulab/impl.h"
#include "gelulab/lib_api.h"
#include "gl_algos.h" /* generated: GL_NAME_ID */

#define NX (65536 + 1000000)
static float *x, *dy, *y_lib, *y_ref;

static const struct gl_impl *kernel(const char *algo_name)
{
    char name[64];
    snprintf(name, sizeof name, "%s/scalar", algo_name); /* every build gives the same bits */
    return gl_impl_find(name);
}

/* results that differ in their bits; two NaNs count as equal (a NaN result's sign can differ
 * between the scalar build's default clone and the others: impls/vec/isa_scalar.h) */
static size_t differ(const float *a, const float *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += memcmp(&a[i], &b[i], sizeof *a) != 0 && !(a[i] != a[i] && b[i] != b[i]);
    return d;
}

static void forward(const char *api, void (*f)(const float *, float *, size_t), const char *algo)
{
    const struct gl_impl *k = kernel(algo);
    f(x, y_lib, NX);
    k->f32(x, y_ref, NX);
    size_t d = differ(y_lib, y_ref, NX);
    CHECK(d == 0, "%s differs from %s on %zu of %d inputs", api, k->name, d, NX);
    float buf[64], want[64]; /* lengths and offsets, in place */
    for (size_t n = 0; n <= 40; n++)
        for (size_t off = 0; off < 4; off++) {
            memcpy(buf + off, x + 70000, n * sizeof *buf);
            f(buf + off, buf + off, n);
            k->f32(x + 70000, want, n);
            CHECK(differ(buf + off, want, n) == 0, "%s: n = %zu, offset %zu, in place", api, n,
                  off);
        }
}

static void backward(const char *api, void (*f)(const float *, const float *, float *, size_t),
                     const char *algo)
{
    const struct gl_impl *k = kernel(algo);
    f(x, dy, y_lib, NX);
    k->bwd(x, dy, y_ref, NX);
    size_t d = differ(y_lib, y_ref, NX);
    CHECK(d == 0, "%s differs from %s on %zu of %d inputs", api, k->name, d, NX);
}

static void bits16(const char *api, void (*f)(const uint16_t *, uint16_t *, size_t),
                   const char *algo)
{
    const struct gl_impl *k = kernel(algo);
    static uint16_t h[65536], a[65536], b[65536];
    for (unsigned i = 0; i < 65536; i++) h[i] = (uint16_t)i;
    f(h, a, 65536);
    k->u16(h, b, 65536);
    CHECK(!memcmp(a, b, sizeof a), "%s differs from %s", api, k->name);
}

int main(void)
{
    const char *want = getenv("GELULAB_ISA");
    if (want && strcmp(gl_gelu_isa(), want)) {
        printf("skip: GELULAB_ISA=%s, this CPU runs %s\n", want, gl_gelu_isa());
        return 0;
    }
    printf("binary32 functions: the %s build; 16-bit: the %s build\n", gl_gelu_isa(),
           gl_gelu_isa_16());
    x = malloc(NX * sizeof *x), dy = malloc(NX * sizeof *dy);
    y_lib = malloc(NX * sizeof *y_lib), y_ref = malloc(NX * sizeof *y_ref);
    uint64_t s = 0x1234567;
    for (uint32_t i = 0; i < NX; i++) {
        uint32_t u = i < 65536 ? i << 16 : (uint32_t)(gl_test_rng(&s) >> 32);
        memcpy(&x[i], &u, sizeof u);
        dy[i] = (float)(int)(gl_test_rng(&s) % 2001 - 1000) / 64.0f;
    }
#define FWD(algo, what) forward("gl_" #algo, gl_##algo, GL_NAME_##algo);
#define BWD(algo, what) backward("gl_" #algo, gl_##algo, GL_NAME_##algo);
#define U16(algo, what) bits16("gl_" #algo, gl_##algo, GL_NAME_##algo);
    GL_LIB_FORWARD(FWD)
    GL_LIB_BACKWARD(BWD)
    GL_LIB_16(U16)
    /* the 0.1 names, deprecated in 0.2: the same functions */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define OLD_FWD(old, algo)  forward("gl_" #old, gl_##old, GL_NAME_##algo);
#define OLD_BWD(old, algo)  backward("gl_" #old, gl_##old, GL_NAME_##algo);
#define OLD_U16(old, algo)  bits16("gl_" #old, gl_##old, GL_NAME_##algo);
#define OLD(old, algo, abi) OLD_##abi(old, algo)
    GL_LIB_RENAMED(OLD)
#pragma GCC diagnostic pop
    free(x), free(dy), free(y_lib), free(y_ref);
    return gl_check_summary("test_lib");
}
