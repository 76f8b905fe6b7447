/* gelulab list — the catalogue of built-in kernels (impls/registry.c). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "gelulab/impl.h"

static const char list_help[] =
    "usage: gelulab list [--help]\n"
    "\n"
    "Prints every built-in kernel: name (algorithm/ISA), the definition it implements, family,\n"
    "ISA, whether it can run here (yes; no: the CPU lacks the ISA; qemu: NEON, run under\n"
    "qemu-aarch64 as an external evaluator; no-qemu: NEON without the cross build or qemu),\n"
    "its documented bounds against its own definition (max ULP on [-5, 5], max absolute error\n"
    "over all finite inputs) and its method.\n";

int gl_cmd_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(list_help, stdout);
            return 0;
        }
        return gl_cli_error("list", "unknown argument '%s' (see gelulab list --help)", argv[i]);
    }
    printf("%-16s %-8s %-8s %-7s %-9s %12s %10s  %s\n", "name", "defn", "family", "isa",
           "available", "ulp[-5,5]", "abs(all)", "method");
    for (size_t i = 0; i < gl_impl_count(); i++) {
        const struct gl_impl *k = gl_impl_get(i);
        char cmd[512];
        const char *avail = k->isa == GL_ISA_NEON
                                ? (gl_impl_neon_command(k, cmd, sizeof cmd) ? "qemu" : "no-qemu")
                            : gl_impl_available(k) ? "yes"
                                                   : "no";
        printf("%-16s %-8s %-8s %-7s %-9s %12.4g %10.3g  %s\n", k->name, gl_defn_name(k->defn),
               k->family, gl_isa_name(k->isa), avail, k->ulp_core, k->abs_all, k->note);
    }
    return 0;
}
