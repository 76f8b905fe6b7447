/* External evaluator for the NEON builds of the generic vector kernels (impls/vec/kernels.h),
 * cross-compiled for AArch64 and run under qemu-aarch64 (docs/design.md, "Kernel ABI"):
 *   gelulab-neon-eval ALGO  <  raw little-endian float32  >  raw little-endian float32
 * ALGO: the name (GL_NAME_ID: the identifier with '-' for '_') of an entry of impls/algos.list
 * (GL_VEC_ALGOS), or of impls/grads.list (GL_VEC_GRADS: a backward kernel, whose input is pairs
 * x, dy; docs/exec-protocol.md), or of a 16-bit kernel (GL_TAB16_KERNELS, impls/tab16.h: raw
 * little-endian 16-bit values in and out). Reads until EOF, in chunks. */
#include <stdio.h>
#include <string.h>
#include "vec/isa_neon.h"
#include "vec/kernels.h"
#include "vec_decls.h"
#include "tab16.h"

#define GL_NEON_ENTRY(algo, isa) {GL_NAME_##algo, gl_k_##algo##_##isa, NULL},
#define GL_NEON_BWD(algo, isa)   {GL_NAME_##algo, NULL, gl_k_##algo##_##isa},
static const struct {
    const char *name;
    void (*fn)(const float *, float *, size_t);
    void (*bwd)(const float *, const float *, float *, size_t);
} algos[] = {GL_VEC_ALGOS(GL_NEON_ENTRY, neon) GL_VEC_GRADS(GL_NEON_BWD, neon)};

#define GL_NEON_TAB16(algo, table) {GL_NAME_##algo, gl_k_##algo##_neon},
static const struct {
    const char *name;
    void (*fn)(const uint16_t *, uint16_t *, size_t);
} tab16[] = {GL_TAB16_KERNELS(GL_NEON_TAB16)};

/* A 16-bit kernel on 16-bit values from stdin (an odd byte at the end: not 16-bit values) */
static int run_u16(void (*fn)(const uint16_t *, uint16_t *, size_t))
{
    static uint16_t in[1 << 16], out[1 << 16];
    size_t n;
    while ((n = fread(in, sizeof in[0], sizeof in / sizeof in[0], stdin)) > 0) {
        fn(in, out, n);
        if (fwrite(out, sizeof out[0], n, stdout) != n) return 1;
    }
    return ferror(stdin) || fgetc(stdin) != EOF ? 1 : 0;
}

/* A backward kernel on pairs x, dy from stdin (a pair split across reads waits for its half) */
static int run_backward(void (*bwd)(const float *, const float *, float *, size_t))
{
    static float pairs[1 << 17], x[1 << 16], dy[1 << 16], dx[1 << 16];
    size_t got = 0, r;
    while ((r = fread(pairs + got, sizeof pairs[0], sizeof pairs / sizeof pairs[0] - got, stdin)) >
           0) {
        got += r;
        size_t n = got / 2;
        for (size_t i = 0; i < n; i++) x[i] = pairs[2 * i], dy[i] = pairs[2 * i + 1];
        bwd(x, dy, dx, n);
        if (fwrite(dx, sizeof dx[0], n, stdout) != n) return 1;
        memmove(pairs, pairs + 2 * n, (got - 2 * n) * sizeof pairs[0]);
        got -= 2 * n;
    }
    return ferror(stdin) || got ? 1 : 0; /* an odd float at the end: not pairs */
}

int main(int argc, char **argv)
{
    static float in[1 << 16], out[1 << 16];
    void (*fn)(const float *, float *, size_t) = NULL;
    void (*bwd)(const float *, const float *, float *, size_t) = NULL;
    for (size_t i = 0; argc == 2 && i < sizeof algos / sizeof algos[0]; i++)
        if (!strcmp(argv[1], algos[i].name)) fn = algos[i].fn, bwd = algos[i].bwd;
    for (size_t i = 0; argc == 2 && i < sizeof tab16 / sizeof tab16[0]; i++)
        if (!strcmp(argv[1], tab16[i].name)) return run_u16(tab16[i].fn);
    if (bwd) return run_backward(bwd);
    if (!fn) {
        fprintf(stderr,
                "gelulab-neon-eval: usage: gelulab-neon-eval ALGO (" GL_VEC_ALGOS_NAMES
                ", or backward: " GL_VEC_GRADS_NAMES "; or 16-bit: " GL_TAB16_NAMES ") < float32 > "
                "float32\n");
        return 2;
    }
    size_t n;
    while ((n = fread(in, sizeof in[0], sizeof in / sizeof in[0], stdin)) > 0) {
        fn(in, out, n);
        if (fwrite(out, sizeof out[0], n, stdout) != n) return 1;
    }
    return ferror(stdin) ? 1 : 0;
}
