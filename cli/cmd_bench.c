/* gelulab bench: runs the benchmark program (gelulab-bench: beside gelulab in the build tree,
 * GL_PRIVATE_DIR relative to it when installed); the table of a run: cmd_bench_table.c */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/bench.h"

#ifndef GL_PRIVATE_DIR /* set by CMake from the install layout (the top-level CMakeLists.txt) */
#define GL_PRIVATE_DIR "../libexec/gelulab"
#endif

static void bench_usage(FILE *f)
{
    fprintf(f,
            "usage: gelulab bench [--sizes=N,N,...] [--list]\n"
            "                     [--lib PATH --symbol SYM [--name N] [--backward | --abi F]]...\n"
            "                     [Google Benchmark options]\n\n"
            "Times the kernels this CPU can run, memcpy and ReLU (the baselines) and the peers\n"
            "found at build time, one core, medians of repetitions: runs gelulab-bench, the\n"
            "Google Benchmark program (beside gelulab in the build tree; installed in\n"
            "%s/ relative to gelulab's folder), with the same arguments. Options:\n"
            "  --sizes=N,N,...     array sizes in floats (default 1Ki,4Ki,64Ki,1Mi,16Mi)\n"
            "  --list              the cases, and why any is skipped here\n"
            "  --lib PATH --symbol SYM\n"
            "                      your kernel, void SYM(const float *x, float *y, size_t n)\n"
            "                      from the shared library PATH, timed in the same run beside\n"
            "                      memcpy, ReLU, gelulab's kernels and the peers (kind user;\n"
            "                      label lib=PATH); loaded with dlopen before any timing: a\n"
            "                      file or symbol not found, or the loader's message, is one\n"
            "                      line and exit 2. Your kernel is timed, not checked (gelulab\n"
            "                      validate checks it)\n"
            "  --backward          SYM is a backward kernel, void SYM(const float *x, const\n"
            "                      float *dy, float *dx, size_t n), timed beside the backward\n"
            "                      cases (relu-bwd-vec, gelu-grad-accurate/..., the\n"
            "                      library's, the backward peers; kind user-bwd)\n"
            "  --abi bf16|f16      SYM is a 16-bit kernel, void SYM(const uint16_t *x, uint16_t\n"
            "                      *y, size_t n) on bfloat16 or binary16 bits, timed beside\n"
            "                      memcpy16, relu16 and the 16-bit kernels (kind user16)\n"
            "  --name N            the case's name in the output (default: SYM)\n"
            "                      --lib, --symbol, --name, --backward and --abi repeat for\n"
            "                      several kernels: a new kernel starts where one of them\n"
            "                      repeats; a kernel without --lib takes the one before's\n"
            "  --peer-runs         the modules of the libraries whose peers run only in a\n"
            "                      process of their own (oneDNN 3.13), one per line\n"
            "  --peers-of MODULE   a run of that library's peers alone, beside memcpy and the\n"
            "                      compare peer ('gelulab bench-table MAIN.json RUN.json' puts\n"
            "                      it on the main run's scale)\n"
            "  --benchmark_min_time=S  a repetition's length (default 0.05): its calls are\n"
            "                      counted from a warm-up of --benchmark_min_warmup_time=S\n"
            "                      (default 0.1), not by Google Benchmark\n"
            "  --benchmark_filter=REGEX, --benchmark_repetitions=N (default 5),\n"
            "  --benchmark_out=FILE.json --benchmark_out_format=json (then\n"
            "  'gelulab bench-table FILE.json'), and Google Benchmark's other options.\n"
            "make bench runs it for every case and prints the table. Example:\n"
            "  gelulab bench --lib ./libmygelu.so --symbol my_gelu --sizes=4096 \\\n"
            "    --benchmark_filter='^(memcpy|relu-vec|gelu-accurate/avx2|onednn-2.6-gelu_erf|"
            "my_gelu)/'\n",
            GL_PRIVATE_DIR);
}

/* where an install keeps a file, DIR/REL normalised ("/usr/bin" and "../libexec/gelulab":
 * "/usr/libexec/gelulab") */
static void join_dir(char *out, size_t size, const char *dir, const char *rel)
{
    char d[4096];
    snprintf(d, sizeof d, "%s", dir);
    while (!strncmp(rel, "../", 3) && strrchr(d, '/') && strrchr(d, '/') != d)
        *strrchr(d, '/') = '\0', rel += 3;
    snprintf(out, size, "%s/%s", d, rel);
}

int gl_cli_find_file(const char *name, const char *installed, char *path, size_t size, char *where,
                     size_t wsize)
{
    char self[4096], dir[4096], inst[4200];
    snprintf(self, sizeof self, "%s", gl_cli_self_exe());
    char *slash = strrchr(self, '/');
    if (slash) *slash = '\0';
    snprintf(dir, sizeof dir, "%s", slash ? self : ".");
    join_dir(inst, sizeof inst, dir, installed);
    snprintf(where, wsize, "%s/%s nor %s/%s", dir, name, inst, name);
    if (snprintf(path, size, "%s/%s", dir, name) < (int)size && access(path, F_OK) == 0) return 0;
    if (snprintf(path, size, "%s/%s", inst, name) < (int)size && access(path, F_OK) == 0) return 0;
    snprintf(path, size, "%s/%s", dir, name); /* in neither: the place beside gelulab */
    return -1;
}

int gl_cmd_bench(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        bench_usage(stdout);
        return 0;
    }
    static char path[4096];
    char where[8500];
    if (gl_cli_find_file("gelulab-bench", GL_PRIVATE_DIR, path, sizeof path, where, sizeof where))
        return gl_cli_error("bench",
                            "the benchmark program is not installed (neither %s): it is built "
                            "only with Google Benchmark (Debian libbenchmark-dev) and installed "
                            "by make install, not by the Debian package: install "
                            "libbenchmark-dev, rebuild and make install",
                            where);
    if (access(path, X_OK) != 0)
        return gl_cli_error("bench", "cannot run %s: %s", path, strerror(errno));
    fflush(NULL);
    argv[0] = path;
    execv(path, argv);
    return gl_cli_error("bench", "cannot run %s: %s", path, strerror(errno));
}
