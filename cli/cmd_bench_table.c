/* gelulab bench-table: the table of a benchmark run (gelulab-bench's JSON) */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "gelulab/bench.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gelulab bench-table FILE.json [RUN.json...]\n\n"
            "Prints the throughput table of a benchmark run: median elements/s per case and\n"
            "array size, coefficient of variation over the repetitions, TSC cycles per\n"
            "element, and ratios to memcpy and to oneDNN gelu_erf from the same run.\n"
            "FILE is Google Benchmark JSON written by build/gelulab-bench (make bench writes\n"
            "build/bench/bench.json). Each RUN.json, a run of one library's peers alone\n"
            "(gelulab-bench --peers-of MODULE: make bench writes build/bench/bench-MODULE.json),\n"
            "adds its peers, put on FILE's scale by the compare peer timed in both (marked *).\n");
}

int gl_cmd_bench_table(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (argv[i][0] == '-') return gl_cli_error("bench-table", "unknown option '%s'", argv[i]);
        if (!path) path = argv[i];
    }
    if (!path) return gl_cli_error("bench-table", "missing FILE.json (see --help)");
    struct gl_bench b;
    char err[600];
    if (gl_bench_read(path, &b, err, sizeof err) != 0)
        return gl_cli_error("bench-table", "%s", err);
    for (int i = 1; i < argc; i++) /* the runs of one library's peers alone */
        if (argv[i] != path && gl_bench_add_run(&b, argv[i], err, sizeof err)) {
            gl_bench_free(&b);
            return gl_cli_error("bench-table", "%s", err);
        }
    gl_bench_print(&b, path);
    gl_bench_free(&b);
    return 0;
}
