/* gelulab — entry point: dispatches to the subcommands. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/reference.h"
#include "gelulab/san_defaults.h" /* SAN=1 builds: ASan's defaults */

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"ref", gl_cmd_ref, "correctly rounded reference values of GELU and its building blocks"},
    {"list", gl_cmd_list, "the catalogue of built-in kernels and their documented bounds"},
    {"sweep", gl_cmd_sweep, "measure kernels' accuracy over an input space (exhaustive f32...)"},
    {"merge", gl_cmd_merge, "combine the result files of a sharded sweep"},
    {"validate", gl_cmd_validate, "a CI gate: check one kernel against bounds, diagnose its bugs"},
    {"facts", gl_cmd_facts, "the report's reference facts, special values and error curves"},
    {"report", gl_cmd_report, "charts and REPORT.md from saved result files"},
    {"moons", gl_cmd_moons, "two-moons experiment: does the activation change what an MLP learns?"},
    {"bench", gl_cmd_bench, "throughput of the kernels, baselines and peers (runs gelulab-bench)"},
    {"bench-table", gl_cmd_bench_table, "the throughput table of a benchmark run (make bench)"},
    {"__eval-lib", gl_cmd_eval_lib, NULL},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

int gl_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gelulab %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

const char *gl_cli_self_exe(void)
{
    static char self[4096];
    if (!self[0]) {
        ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
        self[l > 0 ? l : 0] = '\0';
    }
    return self;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gelulab COMMAND [OPTIONS] [ARGS]\n\n"
               "Measures GELU implementations against correctly rounded MPFR references.\n\n"
               "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (commands[i].summary) fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'gelulab COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gelulab %s\n", GL_VERSION); /* the project's version (CMakeLists.txt) */
        return 0;
    }
    signal(SIGPIPE, SIG_IGN); /* a child kernel that exits early must not kill gelulab */
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            gl_ref_release();
            return rc;
        }
    fprintf(stderr, "gelulab: unknown command '%s' (try 'gelulab --help')\n", argv[1]);
    return 2;
}
