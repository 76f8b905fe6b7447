/* gelulab — benchmark results (docs/design.md, "Benchmarks"): Google Benchmark's JSON output of
 * gelulab-bench, read back for the table and the report. Each case and size has its
 * repetitions' elements/s and TSC cycles per element; figures are medians over repetitions,
 * with the coefficient of variation (standard deviation / mean) of elements/s. */
#ifndef GELULAB_BENCH_H
#define GELULAB_BENCH_H

#include <stddef.h>

#define GL_BENCH_MAXREP 64

struct gl_bench_row {
    char name[64]; /* case: "gelu-erfc-fast/avx2", "memcpy", "onednn-2.6-gelu_erf" */
    char kind[16], defn[16], isa[16]; /* from the benchmark's label */
    char lib[32];                     /* peers: the library that provides it ("oneDNN") */
    char fmt[8];                      /* 16-bit cases: "bf16" or "f16" (their inputs); "" */
    char timed[16]; /* "process": gelulab-bench's own calls; "framework": a served peer's calls
                     * timed inside its framework's process (label timed=framework) */
    size_t n;       /* floats per call */
    int index;      /* the case's place in gelulab-bench's list */
    int reps;
    double eps[GL_BENCH_MAXREP], cyc[GL_BENCH_MAXREP]; /* elements/s, cycles/element */
    double eps_median, eps_cv, cyc_median;
    double scaled; /* 0, or a row of a run of its own (gelulab-bench --peers-of) put on this
                    * run's scale: its times multiplied by this (gl_bench_merge) */
};

struct gl_bench {
    struct gl_bench_row *rows; /* by case (gelulab-bench's order), then size */
    size_t nrows;
    char date[64], host[128];
    char compare[64],
        compare_title[64]; /* the peer ratios are to, and its column title ("" none) */
    int num_cpus;
    double mhz;
    double cache[3]; /* bytes of the L1 data, L2 and L3 caches (Google Benchmark's context;
                      * 0: not said) */
};

/* Reads FILE (gelulab-bench --benchmark_out=FILE --benchmark_out_format=json); 0, or -1 with a
 * one-line message in err. */
int gl_bench_read(const char *path, struct gl_bench *b, char *err, size_t errlen);
void gl_bench_free(struct gl_bench *b);
/* Reads PATH, a run of one library's peers alone (gelulab-bench --peers-of), and adds to b the
 * rows that b lacks, on b's scale: elements/s multiplied, cycles divided, by the ratio of the
 * compare peer's median elements/s in b to that in the run, at the same size (each row's
 * `scaled`). 0, or -1 with a one-line message in err (b as it was): the file does not read, or
 * the runs lack the compare peer at a size, or name others. */
int gl_bench_add_run(struct gl_bench *b, const char *path, char *err, size_t errlen);
/* The row of case NAME at size n, or NULL. */
const struct gl_bench_row *gl_bench_find(const struct gl_bench *b, const char *name, size_t n);
/* The distinct sizes, ascending (at most max); returns how many. */
size_t gl_bench_sizes(const struct gl_bench *b, size_t *sizes, size_t max);
/* "4Ki", "16Mi" or the number */
void gl_bench_size_name(size_t n, char *buf, size_t len);
/* Prints the tables (medians in Melem/s per size, CV, cycles/element, ratios to memcpy (16-bit
 * cases: to memcpy16) and to the comparison peer of the same run, when the file names one). */
void gl_bench_print(const struct gl_bench *b, const char *path);

#endif
