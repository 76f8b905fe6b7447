/* External evaluator for the NEON builds of the generic vector kernels (impls/vec/kernels.h),
 * cross-compiled for AArch64 and run under qemu-aarch64 (docs/design.md, "Kernel ABI"):
 *   gelulab-neon-eval ALGO  <  raw little-endian float32  >  raw little-endian float32
 * ALGO: a name of impls/algos.list (GL_VEC_ALGOS). Reads until EOF, in chunks. */
#include <stdio.h>
#include <string.h>
#include "vec/isa_neon.h"
#include "vec/kernels.h"
#include "vec_decls.h"

#define GL_NEON_ENTRY(algo, isa) {#algo, gl_k_##algo##_##isa},
static const struct {
    const char *name;
    void (*fn)(const float *, float *, size_t);
} algos[] = {GL_VEC_ALGOS(GL_NEON_ENTRY, neon)};

int main(int argc, char **argv)
{
    static float in[1 << 16], out[1 << 16];
    void (*fn)(const float *, float *, size_t) = NULL;
    for (size_t i = 0; argc == 2 && i < sizeof algos / sizeof algos[0]; i++)
        if (!strcmp(argv[1], algos[i].name)) fn = algos[i].fn;
    if (!fn) {
        fprintf(stderr, "gelulab-neon-eval: usage: gelulab-neon-eval ALGO (" GL_VEC_ALGO_NAMES
                        ") < float32 > float32\n");
        return 2;
    }
    size_t n;
    while ((n = fread(in, sizeof in[0], sizeof in / sizeof in[0], stdin)) > 0) {
        fn(in, out, n);
        if (fwrite(out, sizeof out[0], n, stdout) != n) return 1;
    }
    return ferror(stdin) ? 1 : 0;
}
