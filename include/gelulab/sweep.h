/* gelulab — the accuracy engine (docs/design.md, "Sweeps and result files", "Kernel ABI").
 *
 * A sweep evaluates kernels on an input space, chunk by chunk, on several threads; for each
 * chunk the reference of every definition involved is computed once and shared by all kernels.
 * Each kernel is measured against its own definition and against exact GELU (gl_acc). Kernels
 * come from the registry (in process), from a shared library (dlopen, in a child process) or
 * from an external evaluator command (raw little-endian float32 on stdin -> stdout, a child
 * process per chunk, or one persistent process serving requests); a child that crashes, fails or
 * hangs is reported with the input range of its chunk and that kernel stops there, keeping what it
 * had finished. */
#ifndef GELULAB_SWEEP_H
#define GELULAB_SWEEP_H

#include <stdint.h>
#include "gelulab/acc.h"
#include "gelulab/impl.h"
#include "gelulab/runner.h"

/* GL_SWEEP_HUNT: binary64 only, the worst-case hunt (analysis/sweep_search.c): per stratum
 * (sign and binade) hunt_per sampled inputs, then a climb from each chunk's worst input */
enum gl_sweep_mode { GL_SWEEP_EXHAUSTIVE, GL_SWEEP_QUICK, GL_SWEEP_HUNT };
/* "exhaustive", "quick", "hunt"; the parse returns 0, or -1 for another name */
const char *gl_sweep_mode_name(enum gl_sweep_mode m);
int gl_sweep_mode_parse(const char *name, enum gl_sweep_mode *m);

/* What a sweep found for one of its kernels */
struct gl_kernel_result {
    int reused; /* from the sweep store (analysis/sweep_store.c): the sweep does not run the
                 * kernel, its results are put in after (gl_store_fill) */
    int failed;
    char error[1600];
    uint64_t chunks_ok;
    struct gl_acc *acc[2]; /* [0]: against its own definition, [1]: against exact GELU */
    /* where this run's time went (gl_sweep_write_times), in seconds of the workers' wall clock
     * summed over the threads: running the kernel (a child process's or evaluator's round trip
     * included) and measuring its results; not part of the results (a rerun's differ) */
    double run_s, measure_s;
};

struct gl_sweep {
    struct gl_format fmt;
    enum gl_sweep_mode mode;
    int threads;
    long shard_k, shard_n; /* this run covers shard K of N (1-based), 1/1 by default */
    /* GL_SWEEP_HUNT: inputs per stratum (<= 4096, or a multiple of it), and the binades
     * searched, as unbiased exponents in [-1023, 1023] (-1023: the subnormals) */
    uint64_t hunt_per;
    int hunt_lo, hunt_hi;
    /* how its kernels run (include/gelulab/runner.h): gelulab's path for the library worker,
     * the timeout per chunk in a child process, and the flag set asynchronously (Ctrl-C) on
     * which the sweep finishes its running chunks and stops; its peers are set per call, by
     * gl_sweep_runner */
    struct gl_runner run;
    int progress;     /* stderr: 0 none, 1 a bar (terminal), 2 a line every 10 s */
    int use_fast_ref; /* 0: pure MPFR reference (slow; for checks) */

    struct gl_kernel_src *k;      /* the kernels: how each is called (include/gelulab/runner.h) */
    struct gl_kernel_result *res; /* and what the sweep found for each: res[i] for k[i] */
    int nk;

    /* the zeros of the derivatives measured (backward kernels), set by gl_sweep_run: the inputs
     * within GL_ROOT_HALFWIDTH of one are the region "root" */
    double root[4];
    int nroot;

    uint64_t n_inputs, chunk_size, n_chunks;
    uint8_t *chunk_done; /* n_chunks flags */
    int no_zero_sign;    /* read from a file written before "zero_sign" was counted (0 there) */
    int interrupted;
    /* the workers' wall clock summed over the threads: in all (from their start to their last
     * chunk) and spent on the inputs and references that the kernels share (beside each
     * kernel's run_s and measure_s) */
    double worker_s, shared_s, wall_s; /* wall_s: gl_sweep_run's own wall clock */
};

/* A new kernel at the end of s->k, zeroed, and its result beside it (s->res): how every sweep's
 * kernels are added */
struct gl_kernel_src *gl_sweep_add_kernel(struct gl_sweep *s);

/* The result of s's kernel k (a pointer into s->k) */
static inline struct gl_kernel_result *gl_sweep_res(const struct gl_sweep *s,
                                                    const struct gl_kernel_src *k)
{
    return &s->res[k - s->k];
}

/* s's runner, with its kernels as the peers (a library's kernels share a worker) */
static inline struct gl_runner gl_sweep_runner(const struct gl_sweep *s)
{
    struct gl_runner r = s->run;
    r.peers = s->k, r.npeers = s->nk;
    return r;
}

/* 0 when a hunt's inputs per stratum (1..4096, or a multiple of 4096) and exponent range
 * (-1023 <= lo <= hi <= 1023) are valid, else -1. */
int gl_sweep_hunt_check(uint64_t per, int lo, int hi);
/* The chunks [*lo, *hi) of shard k of n (1-based): [floor(NC (k-1)/n), floor(NC k/n)). */
void gl_sweep_shard_chunks(const struct gl_sweep *s, long k, long n, uint64_t *lo, uint64_t *hi);
/* Set up the input space for s->fmt and s->mode (called by gl_sweep_run; also by the reader). */
void gl_sweep_layout(struct gl_sweep *s);
/* The inputs of chunk c (x as doubles, bits in xbits), returns how many. */
uint64_t gl_sweep_chunk_inputs(const struct gl_sweep *s, uint64_t c, double *x, uint64_t *xbits);
/* The inputs of index range [lo, hi) of the input space. */
void gl_sweep_inputs(const struct gl_sweep *s, uint64_t lo, uint64_t hi, double *x,
                     uint64_t *xbits);
/* The zeros of the derivatives the sweep measures (s->root; called by gl_sweep_run). */
void gl_sweep_find_roots(struct gl_sweep *s);
/* Runs the sweep; returns 0, or 2 when a kernel failed, or 130 when interrupted. */
int gl_sweep_run(struct gl_sweep *s);
void gl_sweep_free(struct gl_sweep *s);

/* Result files (docs/result-format.md): JSON, plus FILE's stem + ".binades.csv" and
 * ".hist.csv". Return 0, or -1 with a one-line message in err. */
int gl_sweep_write(const struct gl_sweep *s, const char *path, char *err, size_t errlen);
int gl_sweep_write_json(const struct gl_sweep *s, const char *path, char *err, size_t errlen);
int gl_sweep_read(struct gl_sweep *s, const char *path, char *err, size_t errlen);
/* Where the run's time went (docs/result-format.md, "Sweep times"): a TSV, one row per kernel
 * (its state: swept, store or failed; run_s, measure_s) and two for the shared work. 0, or -1
 * with a one-line message in err. */
int gl_sweep_write_times(const struct gl_sweep *s, const char *path, char *err, size_t errlen);
/* 1 when every chunk of the input space is covered; how many are. */
int gl_sweep_complete(const struct gl_sweep *s);
uint64_t gl_sweep_chunks_done(const struct gl_sweep *s);
/* The chunk ranges not covered, in words ("chunks [a, b), ..."), and with shard_n > 1 the shards
 * K/shard_n of `gelulab sweep --shard` that would cover them. */
void gl_sweep_missing(const struct gl_sweep *s, long shard_n, char *buf, size_t len);
/* into += from: same format, mode and kernels, disjoint chunks. */
int gl_sweep_merge(struct gl_sweep *into, const struct gl_sweep *from, char *err, size_t errlen);
/* Summary table on stdout. */
void gl_sweep_print_summary(const struct gl_sweep *s);

#endif
