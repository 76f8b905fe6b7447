/* gelulab __eval-lib — the shared-library worker (internal): runs a --lib kernel for the sweep,
 * validate and facts, in a process of its own (docs/exec-protocol.md) */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gelulab/runner.h"

/* __eval-lib --serve-shm PATH KIND:SYMBOL...: the sweep's worker for every kernel it measures
 * from the library at PATH (KIND f32, bwd, bf16 or f16) */
static int eval_lib_serve_shm(int argc, char **argv)
{
    if (argc < 4)
        return gl_cli_error("__eval-lib", "usage: gelulab __eval-lib --serve-shm PATH "
                                          "KIND:SYMBOL... (KIND: f32, bwd, bf16 or f16)");
    size_t nk = (size_t)argc - 3;
    struct gl_lib_kernel *ks = calloc(nk, sizeof *ks);
    for (size_t i = 0; ks && i < nk; i++) {
        const char *spec = argv[3 + i], *sym = strchr(spec, ':');
        enum gl_kernel_abi abi = GL_KERNEL_F32;
        char kind[8] = "";
        if (sym && sym - spec < (ptrdiff_t)sizeof kind)
            memcpy(kind, spec, (size_t)(sym - spec)), kind[sym - spec] = 0;
        int bwd = !strcmp(kind, "bwd");
        if (!sym || (!bwd && gl_kernel_abi_parse(kind, &abi) != 0))
            return free(ks), gl_cli_error("__eval-lib",
                                          "'%s': not KIND:SYMBOL (KIND: f32, bwd, "
                                          "bf16 or f16)",
                                          spec);
        if (gl_lib_kernel_load(&ks[i], argv[2], sym + 1, bwd, abi) != 0) return free(ks), 2;
    }
    int rc = ks ? gl_eval_lib_serve_shm(ks, nk, 3) : 2;
    free(ks);
    return rc;
}

int gl_cmd_eval_lib(int argc, char **argv)
{
    gl_worker_diag_init();
    if (argc > 1 && !strcmp(argv[1], "--serve-shm")) return eval_lib_serve_shm(argc, argv);
    int backward = argc > 1 && !strcmp(argv[1], "--backward");
    argc -= backward, argv += backward;
    enum gl_kernel_abi abi = GL_KERNEL_F32;
    if (!backward && argc > 2 && !strcmp(argv[1], "--abi")) {
        if (gl_kernel_abi_parse(argv[2], &abi) != 0)
            return gl_cli_error("__eval-lib", "unknown --abi '%s' (f32, bf16, f16)", argv[2]);
        argc -= 2, argv += 2;
    }
    int serve = argc == 4 && !strcmp(argv[1], "--serve-layouts");
    if (!serve && argc != 3 && argc != 8)
        return gl_cli_error("__eval-lib",
                            "usage: gelulab __eval-lib [--backward | --abi bf16|f16] "
                            "[--serve-layouts] PATH SYMBOL [OFFSET SPLIT INPLACE REPEAT PLACE], or "
                            "__eval-lib --serve-shm PATH KIND:SYMBOL...");
    struct gl_lib_kernel k;
    if (gl_lib_kernel_load(&k, argv[1 + serve], argv[2 + serve], backward, abi) != 0) return 2;
    if (serve) return gl_eval_lib_serve_layouts(&k);
    struct gl_call_layout lay = {0, 0, 0, 0, 0};
    if (argc == 8)
        lay.offset = strtoul(argv[3], NULL, 10), lay.split = strtoul(argv[4], NULL, 10),
        lay.inplace = atoi(argv[5]), lay.repeat = atoi(argv[6]), lay.place = atoi(argv[7]);
    return gl_eval_lib_main(&k, &lay);
}
