/* gelulab bench: runs the benchmark program (gelulab-bench, built beside gelulab);
 * gelulab bench-table: the table of a benchmark run (gelulab-bench's JSON). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/bench.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gelulab bench-table FILE.json\n\n"
               "Prints the throughput table of a benchmark run: median elements/s per case and\n"
               "array size, coefficient of variation over the repetitions, TSC cycles per\n"
               "element, and ratios to memcpy and to oneDNN gelu_erf from the same run.\n"
               "FILE is Google Benchmark JSON written by build/gelulab-bench (make bench writes\n"
               "build/bench/bench.json).\n");
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
        if (path) return gl_cli_error("bench-table", "one file only ('%s' is extra)", argv[i]);
        path = argv[i];
    }
    if (!path) return gl_cli_error("bench-table", "missing FILE.json (see --help)");
    struct gl_bench b;
    char err[300];
    if (gl_bench_read(path, &b, err, sizeof err) != 0)
        return gl_cli_error("bench-table", "%s", err);
    gl_bench_print(&b, path);
    gl_bench_free(&b);
    return 0;
}

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: gelulab bench [--sizes=N,N,...] [--list] [Google Benchmark options]\n\n"
               "Times the kernels this CPU can run, memcpy and ReLU (the baselines) and the peers\n"
               "found at build time, one core, medians of repetitions: runs gelulab-bench, the\n"
               "Google Benchmark program built beside gelulab, with the same arguments. Options:\n"
               "  --sizes=N,N,...     array sizes in floats (default 1Ki,4Ki,64Ki,1Mi,16Mi)\n"
               "  --list              the cases, and why any is skipped here\n"
               "  --benchmark_filter=REGEX, --benchmark_repetitions=N,\n"
               "  --benchmark_out=FILE.json --benchmark_out_format=json (then\n"
               "  'gelulab bench-table FILE.json'), and Google Benchmark's other options.\n"
               "make bench runs it for every case and prints the table.\n");
}

/* The path of gelulab-bench beside this executable, or "" */
static void sibling_bench(char *path, size_t size)
{
    const char *self = gl_cli_self_exe(), *slash = strrchr(self, '/');
    int dir = slash ? (int)(slash + 1 - self) : 0;
    if (!slash || snprintf(path, size, "%.*sgelulab-bench", dir, self) >= (int)size) path[0] = '\0';
}

int gl_cmd_bench(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        bench_usage(stdout);
        return 0;
    }
    static char path[4096];
    sibling_bench(path, sizeof path);
    if (!path[0] || access(path, X_OK) != 0)
        return gl_cli_error("bench",
                            "no benchmark program %s (it is built with Google Benchmark, "
                            "libbenchmark-dev: make bench)",
                            path[0] ? path : "gelulab-bench");
    fflush(NULL);
    argv[0] = path;
    execv(path, argv);
    return gl_cli_error("bench", "cannot run %s: %s", path, strerror(errno));
}
