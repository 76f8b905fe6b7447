/* gelulab — the runner: a kernel and how it is called (docs/design.md, "Kernel sources and the
 * runner"; docs/exec-protocol.md). A kernel source is built in (called in process), a shared
 * library's symbol (called in the library worker, `gelulab __eval-lib`, a child process) or an
 * external command (one process per call, or one serving requests); gl_kernel_call runs any of
 * them on an array, for the sweep, validate, facts and the benchmark alike, given what running
 * takes (struct gl_runner: the worker's executable, the timeout), and reports a child that
 * crashes, fails, hangs or touches memory outside its arrays. runner/kernel_src.c: the sources,
 * the call and the narrowing of a failure; runner/child.c: child processes, the library
 * worker's protocols; runner/lib_load.c: loading a library's symbol; runner/guard.c: the guard
 * pages every call's arrays stand against. */
#ifndef GELULAB_RUNNER_H
#define GELULAB_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include "gelulab/defn.h"
#include "gelulab/format.h"
#include "gelulab/impl.h"

struct gl_guard;
struct gl_guard_setup;

/* How the library worker calls the kernel (gelulab validate's layout checks): inputs (and
 * results) `offset` elements away from the guard page they end (or start) at, which moves their
 * alignment, results written over the inputs (x == y; a
 * backward kernel: inplace 1 writes dx over x, 2 over dy), calls of at most `split` elements
 * (0: one call), or everything twice. All zero: one plain call. */
struct gl_call_layout {
    size_t offset, split;
    int inplace;
    int repeat; /* call twice and keep the second results (a determinism check) */
    int place;  /* enum gl_guard_place: the arrays end (0) or start (1) at a guard page */
};

/* GL_SRC_SERVE: an external command that serves requests (docs/exec-protocol.md, "Serving")
 * in one persistent process, as the library worker does; GL_SRC_EXEC: one process per call */
enum gl_src_kind { GL_SRC_BUILTIN, GL_SRC_LIB, GL_SRC_EXEC, GL_SRC_SERVE };

/* A kernel and where it comes from (docs/design.md, "Kernel ABI"): a typed source, built in,
 * a shared library (path and symbol) or an external command; runner/kernel_src.c sets it up
 * and runs it (gl_kernel_call) for the sweep, validate and facts alike. How it is called only:
 * what a sweep finds for it is the sweep's (struct gl_kernel_result, gelulab/sweep.h). */
struct gl_kernel_src {
    char name[160];
    enum gl_defn defn;
    enum gl_src_kind kind;
    const struct gl_impl *impl; /* GL_SRC_BUILTIN, and NEON built-ins (run as GL_SRC_EXEC) */
    char cmd[1200];             /* GL_SRC_EXEC, GL_SRC_SERVE: the command; with serve_lib, what
                                 * names the kernel to that process (its arguments) */
    char serve_lib[1200];       /* GL_SRC_SERVE: "", or the command of a process that serves every
                                 * kernel naming the same serve_lib (one per worker thread, like a
                                 * library's worker), each request led by the kernel's cmd
                                 * (docs/exec-protocol.md, "Serving several kernels") */
    char lib_path[1024];        /* GL_SRC_LIB: the shared library */
    char lib_symbol[160];       /* GL_SRC_LIB: the kernel's symbol in it ("" not given yet) */
    int f64;                    /* binary64 sweeps: use impl->f64 */
    int backward;               /* a backward kernel (gl_kernel_bwd_f32; defn a derivative) */
    enum gl_kernel_abi abi;     /* a 16-bit kernel (gl_kernel_u16: the sweep's format only) */
    int python; /* a Python callable (gelulab sweep/validate --python): cmd holds FILE.py:FUNC
                 * until the command line is read, then its serving command (py_eval.py) */
};

/* What running a kernel takes besides the kernel: the library worker's executable (gelulab
 * itself; NULL: no library kernels), the timeout of a call in a child process, a flag set
 * asynchronously (Ctrl-C) that stops a narrowing, and the kernels run beside it (a sweep's:
 * the kernels of one library share a worker, whose command names all of them; NULL, 0: the
 * kernel alone). gl_kernel_call(NULL, ...): 60 s, no library kernels. */
struct gl_runner {
    const char *self_exe;
    double timeout_s;
    volatile int *stop;
    const struct gl_kernel_src *peers;
    int npeers;
};

/* A persistent child (serving commands: one process per worker thread and kernel; library
 * workers: per worker thread and library; not one per chunk): started with CMD under /bin/sh; each
 * call sends a little-endian uint64 byte count and the input bytes and waits for exactly out_bytes.
 * A call that fails (the child crashed, exited or timed out: killed) returns -1 with the reason in
 * why and ends the child. */
struct gl_child {
    int pid, wfd, rfd; /* pid -1: not running */
    int layouts;       /* a library worker that takes a layout with each request (validate) */
    int shm_fd;        /* a library worker over shared memory (shm_bytes > 0): the memfd, */
    void *shm;         /* mapped here (the child's descriptor 3) */
    size_t shm_bytes;
    int diag_fd; /* the child's diagnosis channel (its descriptor 4), while it runs */
};
/* a gl_child not running yet (layouts: a layout-serving library worker, validate's) */
static inline struct gl_child gl_child_idle(int layouts)
{
    return (struct gl_child){-1, -1, -1, layouts, -1, NULL, 0, -1};
}
/* The sources (runner/kernel_src.c): k becomes a library kernel (symbol may be "" until
 * given) or an external command; names it "lib:SYMBOL" or the command unless it has a name. */
void gl_kernel_src_lib(struct gl_kernel_src *k, const char *path, const char *symbol);
void gl_kernel_src_exec(struct gl_kernel_src *k, const char *cmd);
void gl_kernel_src_serve(struct gl_kernel_src *k, const char *cmd);
/* The result file's "command" of k (docs/result-format.md): the command (a serving library's
 * kernel: its ARGS, the library's command in "serve_lib"), "PATH\nSYMBOL" for a library kernel,
 * "" for a built-in; and back (0, or -1 for a library without its symbol). */
void gl_kernel_src_command(const struct gl_kernel_src *k, char *buf, size_t len);
int gl_kernel_src_set_command(struct gl_kernel_src *k, const char *command);
/* The first of ks[0..k] from the library of library kernel ks[k] (k itself if none before), or
 * of the serving library of a served kernel: the sweep runs a library's kernels in one worker
 * per thread, that kernel's */
int gl_kernel_src_lib_lead(const struct gl_kernel_src *ks, int k);
/* 0 when the library worker (r->self_exe) loads library kernel k's path and symbol (run on no
 * input),
 * else -1 with the worker's reason in why (file not found, a library it needs missing, the
 * symbol not found with the library's functions that look like kernels) */
int gl_kernel_src_probe(const struct gl_runner *r, const struct gl_kernel_src *k, char *why,
                        size_t whylen);
/* 0 when the worker of r->peers[k]'s library loads every symbol r's peers take from it (one
 * process: a library such as PyTorch takes most of a second to load); why as above (may be
 * NULL) */
int gl_kernel_src_probe_library(const struct gl_runner *r, int k, char *why, size_t whylen);
/* After kernel k failed (crashed, hung, touched memory outside its arrays) on x[0..n) (and
 * dy) called with layout lay (NULL: plain), the smallest part of the inputs on which it still
 * fails: the whole again in a fresh process (passing: "nothing: ..."), the special inputs
 * alone, then halves, each try in a fresh process with a timeout of at most
 * GL_NARROW_TIMEOUT seconds, stopping on r->stop: into where, e.g.
 * "x = nan (n = 1): crashed (signal 11, ...)" or "the 2 inputs -0x1p+0 .. 0x1p+0 together
 * (either alone passes)"; nothing for a built-in kernel (in process). 0 narrowed, -1 not
 * (where then ""). */
#define GL_NARROW_TIMEOUT 10.0
int gl_kernel_narrow(const struct gl_runner *r, const struct gl_kernel_src *k, const float *x,
                     const float *dy, size_t n, const struct gl_call_layout *lay, char *where,
                     size_t len);

/* Kernel k on x[0..n) into y (a backward kernel: on x and dy[0..n), dy = 1 when dy is NULL):
 * built in, in process; a library kernel in the library worker (a persistent one in *child
 * when child is given: the layout-serving worker when child->layouts, else the shared-memory
 * worker of k's library among r's peers, which must then hold k; else one per call, with
 * layout lay); an external command in one process per call (per lay->split inputs, when
 * given); a serving command like a library worker (one request per lay->split inputs, twice
 * with lay->repeat; offsets and in place do not apply to a stream). r gives the worker's path
 * and the timeout (NULL: 60 s, and no library kernels). 0, or -1 with the reason in why (the
 * child crashed, failed, timed out or answered short). */
int gl_kernel_call(const struct gl_runner *r, const struct gl_kernel_src *k, struct gl_child *child,
                   const float *x, const float *dy, float *y, size_t n,
                   const struct gl_call_layout *lay, char *why, size_t whylen);

/* Seconds on the monotonic clock (the children's deadlines, the narrowing's timeouts) */
double gl_monotonic_s(void);
/* Runs CMD under /bin/sh with `in` on its stdin; its stdout must be exactly out_bytes.
 * Returns 0, or -1 with the reason in why (crashed with signal, exit status, timed out after
 * timeout_s, short output). */
int gl_run_child(const char *cmd, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                 double timeout_s, char *why, size_t whylen);

int gl_child_start(struct gl_child *c, const char *cmd, char *why, size_t whylen);
int gl_child_call(struct gl_child *c, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                  double timeout_s, char *why, size_t whylen);
/* The sweep's library worker (gelulab __eval-lib --serve-shm PATH KIND:SYMBOL...: one per
 * library and worker thread, serving every kernel of that library in the sweep), over shared
 * memory: a memfd, the child's descriptor 3, holds the inputs and then the results of a request
 * (n binary32 each); a request is two little-endian uint64 on the child's stdin, n and `which`
 * (the kernel: its place among the KIND:SYMBOL arguments), the answer n on its stdout once the
 * results are in place (no copies through pipes). Failures as gl_child_call's. */
int gl_child_start_shm(struct gl_child *c, const char *cmd, char *why, size_t whylen);
int gl_child_call_shm(struct gl_child *c, uint64_t which, const float *x, const float *dy, float *y,
                      size_t n, double timeout_s, char *why, size_t whylen);
/* The library workers' kernel: SYMBOL of the library at PATH, forward, backward or 16-bit (the
 * worker's --backward or --abi, or the KIND of its KIND:SYMBOL); loaded by gl_lib_kernel_load
 * (0, or -1 after saying why on its diagnosis channel). The sweep's built-in kernels are called
 * through it too, binary64 ones (f64) included. One of the four functions is set. */
struct gl_lib_kernel {
    gl_kernel_f32 fwd;
    gl_kernel_bwd_f32 bwd;
    gl_kernel_u16 u16; /* a 16-bit kernel (abi): called on the bits of the floats given */
    enum gl_kernel_abi abi;
    gl_kernel_f64 f64; /* built-in binary64 kernels only */
};
int gl_lib_kernel_load(struct gl_lib_kernel *k, const char *path, const char *symbol, int backward,
                       enum gl_kernel_abi abi);
/* k on x[i * stride] (and dy[i * stride] for a backward kernel), i < n, called as layout lay says
 * (NULL: one plain call; see struct gl_call_layout), the results into y; the library worker's
 * calls and gelulab validate's calls of built-in kernels alike, on arrays against guard pages
 * (include/gelulab/guard.h). A 16-bit kernel takes the bits of the floats x (exact in its
 * format: gl_f32_to_bits16) in 16-bit arrays (offsets in 16-bit elements) and its results come
 * back as floats (gl_bits16_to_f32). 0; -1 out of memory; 1 with the finding in why: the kernel
 * wrote outside its output, changed its input or left outputs unwritten (a read or write that
 * reaches a guard page ends the process: gl_guard_arm). */
int gl_lib_kernel_layout(const struct gl_lib_kernel *k, const float *x, const float *dy,
                         size_t stride, float *y, size_t n, const struct gl_call_layout *lay,
                         char *why, size_t whylen);
/* k on guarded arrays (include/gelulab/guard.h) placed as c, the inputs xin (and din for a
 * backward kernel) in k's own element type, in calls of at most split elements (twice with
 * repeat); the results are then at gl_guard_ptr(g, GL_GUARD_Y). 0; -1 out of memory; 1 with the
 * finding in why. gl_lib_kernel_layout and the sweep's built-in calls both run kernels so. */
struct gl_guard;
struct gl_guard_setup;
int gl_lib_kernel_guarded(const struct gl_lib_kernel *k, struct gl_guard *g,
                          const struct gl_guard_setup *c, const void *xin, const void *din,
                          size_t split, int repeat, char *why, size_t whylen);
/* The library worker's diagnosis channel: descriptor 4 when its parent gave it one (a memfd;
 * else stderr); gl_worker_say writes one line there (a load error, an access outside the
 * arrays), which the parent reports instead of "crashed" or "exited with status 3". */
void gl_worker_diag_init(void);
void gl_worker_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int gl_eval_lib_serve_shm(const struct gl_lib_kernel *ks, size_t nk, int fd); /* ks[which] */
void gl_child_stop(struct gl_child *c); /* closes its stdin and waits (at most 10 s) */
/* The library worker of validate's probes, each request carrying a call layout (gelulab __eval-lib
 * --serve-layouts PATH SYMBOL: validate's probes, one worker for all of them): after the byte
 * count, four little-endian uint32 (offset, split, inplace, repeat; counted in the byte count),
 * then the inputs. gl_child_call_layout sends such a request. */
int gl_eval_lib_serve_layouts(const struct gl_lib_kernel *k);
int gl_child_call_layout(struct gl_child *c, const float *x, const float *dy, float *y, size_t n,
                         const struct gl_call_layout *lay, double timeout_s, char *why,
                         size_t whylen);

/* The library worker (gelulab __eval-lib [--backward | --abi bf16|f16] PATH SYMBOL [OFFSET SPLIT
 * INPLACE REPEAT]): float32 in on stdin (a backward kernel: pairs x, dy), out on stdout (a
 * 16-bit kernel too: the worker converts); lay may be NULL. */
int gl_eval_lib_main(const struct gl_lib_kernel *k, const struct gl_call_layout *lay);
/* The pipe protocol's input of a backward kernel: the pairs x[i], dy[i] (n of them) into pairs */
void gl_pairs_pack(const float *x, const float *dy, float *pairs, size_t n);

#endif
