/* gelulab benchmark cases: the registry's kernels, the baselines and the peers, behind one C
 * interface for the Google Benchmark shim (gl_bench.cc, C++ like the peers of C++ libraries).
 *
 * A case is a function y[i] = f(x[i]), i < n, with the registry's kernel ABI, or a backward
 * case dx[i] = dy[i] f'(x[i]) (kinds gelulab-bwd, peer-bwd, baseline-bwd: two input streams,
 * one output), or a 16-bit case (kinds gelulab16, peer16, baseline16: the 16-bit kernel ABI on
 * bfloat16 or binary16 bits). Baselines: memcpy (the bandwidth limit: the same bytes read and
 * written as any kernel), relu-vec (a vectorised ReLU, the cheapest activation), relu-bwd-vec
 * (ReLU's backward, dx = x > 0 ? dy : 0: the backward pass's traffic at the least cost), and in
 * 16 bits memcpy16 and relu16 (half the bytes). libgelulab's entry points as users call them,
 * dispatch included (kinds lib, lib-bwd, lib16; named lib/NAME, their isa the build they run).
 * Peers: the table of bench/peers.c. A user's kernels (gelulab bench --lib PATH --symbol SYM: kinds
 * user, user-bwd, user16), each beside the cases of its ABI. A case that cannot run here (ISA
 * missing, library not found at build time, NEON under emulation) is listed with the reason and
 * skipped. */
#ifndef GELULAB_BENCH_CASES_H
#define GELULAB_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>
#include "gelulab/kernel.h" /* the kernel ABIs, their function types */

#ifdef __cplusplus
extern "C" {
#endif

struct gl_bench_case {
    char name[64];    /* "gelu-fast/avx2", "memcpy", "sleef-3.5-erf/avx2", "onednn-2.6-gelu_erf" */
    const char *kind; /* "gelulab", "baseline", "peer", "lib", "user"; backward: + "-bwd";
                       * 16-bit: + "16" */
    const char *defn; /* "exact", "tanh", ... or "-" (memcpy) */
    const char *isa;
    enum gl_kernel_abi abi;    /* GL_KERNEL_F32, GL_KERNEL_BWD (x and dy in, dx out), or the 16-bit
                                * ABI on bfloat16 (GL_KERNEL_BF16: its inputs) or binary16 bits */
    union gl_kernel_fn fn;     /* of that ABI; not set (gl_kernel_fn_set): skipped, or timed in
                                * its framework's process (time_cmd) */
    const char *skip;          /* why it is skipped, when fn is not set and time_cmd is NULL */
    void (*prepare)(size_t n); /* called once per size before timing (oneDNN: the primitive) */
    const char *library;       /* peers: who provides it ("oneDNN"); a user's kernel: its --lib
                                * PATH; NULL otherwise */
    const char *compare;       /* the peer that ratios are to: its column title; else NULL */
    const char *time_cmd;      /* a served peer timed in its framework's process (fn not
                                * set): its library's timing command (docs/exec-protocol.md,
                                * "Timing"), one process for all its peers, */
    const char *time_spec;     /* asked to time the peer these arguments name */
};

/* The baselines (baselines.c): memcpy (the bandwidth limit) and a vectorised ReLU */
void gl_base_memcpy(const float *x, float *y, size_t n);
void gl_base_relu_vec(const float *x, float *y, size_t n);
void gl_base_relu_bwd_vec(const float *x, const float *dy, float *dx, size_t n);
/* 16 bits: memcpy of n 16-bit values, and ReLU on bfloat16 or binary16 bits (negative -> +0) */
void gl_base_memcpy16(const uint16_t *x, uint16_t *y, size_t n);
void gl_base_relu16(const uint16_t *x, uint16_t *y, size_t n);

/* A user's kernel, SYMBOL from the shared library PATH (dlopen now, before any timing), timed as
 * case NAME (kind user: forward binary32; user-bwd with backward: the backward ABI; user16 with
 * fmt "bf16" or "f16": the 16-bit ABI on those bits) beside the cases of its ABI. Call before
 * gl_bench_cases(); path and name are kept, not copied. 0, or -1 with a one-line reason in err:
 * the file is not found, the loader's message, or the symbol is not found. */
int gl_bench_add_user(const char *path, const char *symbol, const char *name, int backward,
                      const char *fmt, char *err, size_t errlen);
/* All cases, in report order; the count in *n. */
const struct gl_bench_case *gl_bench_cases(size_t *n);
/* Before gl_bench_cases: this run times the peers of library module MODULE alone (an
 * own_process library's, gelulab/peers.h), beside memcpy, memcpy16 and the compare peer, whose
 * times put this run's on the scale of the whole run's (gelulab bench-table and the report
 * read both files). */
void gl_bench_peers_of(const char *module);
/* The modules of the libraries whose peers the whole run skipped for runs of their own
 * (NULL-terminated; none when the compare peer does not run, which puts those runs on this
 * one's scale): gelulab-bench --peer-runs prints them, make bench and make report run
 * gelulab-bench --peers-of MODULE for each. */
const char *const *gl_bench_peer_runs(void);
/* A served peer's timing process (c->time_cmd, one per library), started on first use and
 * kept for the run:
 * gl_bench_served_load gives it the inputs of size n (bytes of them in the protocol's layout:
 * binary32 x, pairs x, dy for a backward case, 16-bit bits for a 16-bit one), unless it holds
 * them already (it keeps every case's tensor at every size up to GL_BENCH_SERVED_BIG, and the
 * last one above: Google Benchmark interleaves them; above, the inputs of each ABI and size are
 * sent once, and the process makes a case's tensor from them);
 * gl_bench_served_time has it call the framework `calls` times on those of size n and gives
 * the seconds those calls took, measured in that process (the pipe excluded). 0, or -1 with the
 * reason in why (the process crashed, hung or answered wrong: ended, and the case not tried
 * again). gl_bench_served_stop ends them all. */
#define GL_BENCH_SERVED_BIG (1u << 20) /* bench/py_eval.py's BIG */
int gl_bench_served_load(const struct gl_bench_case *c, size_t n, const void *in, size_t bytes,
                         char *why, size_t len);
int gl_bench_served_time(const struct gl_bench_case *c, size_t n, uint64_t calls, double *seconds,
                         char *why, size_t len);
void gl_bench_served_stop(void);
/* Starts the timing processes of the n served cases `which` (those the run will time), all at
 * once, each loading its framework (a peer built, nothing timed): before any timing, so that
 * TensorFlow's seconds of start-up overlap the other libraries' and no case is timed beside
 * them.
 * Failures are left for the cases to report. */
void gl_bench_served_warm(const struct gl_bench_case *const *which, size_t n);
/* Pins the process to the CPU it runs on (best effort; 0 when pinned) and asks oneDNN's OpenMP
 * runtime for one thread. Call first in main. */
int gl_bench_pin(void);
/* Time-stamp counter (x86-64), 0 elsewhere. */
unsigned long long gl_bench_tsc(void);

#ifdef __cplusplus
}
#endif
#endif
