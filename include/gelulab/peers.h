/* The peers: other projects' GELU kernels, measured beside gelulab's (docs/design.md, "Add a
 * peer"). One source file per peer library (peer_onednn.c, peer_sleef.c, peer_torch.cc,
 * peer_eigen.cc, peer_ggml.c, peer_mkl.c, and ort_eval.mjs for ONNX Runtime), and one table,
 * bench/peers.c, as data: each library described once (struct gl_peer_lib: name, version,
 * package, module, how it is reached, its check), each peer naming its library and only what
 * differs. The benchmark (bench/cases.c), libgelulab-peers.so (the table for `gelulab list
 * --peers`), and through it `make report` all take the list from that table.
 *
 * A peer's function has the kernel ABI (y[i] = f(x[i]), any n, unaligned), or for a backward
 * peer (oneDNN's eltwise backward, PyTorch's gelu_backward) the backward one, or for a 16-bit
 * peer (PyTorch, oneDNN and ggml on bfloat16 or binary16 tensors) the 16-bit one. The table
 * names it by symbol, and gl_peer_skip finds it in its library's module,
 * libgelulab-peer-MODULE.so beside the table (libgelulab-peers.so, which links none of them),
 * loaded once per library record when a peer of it is first asked for: into the base
 * namespace, or for a library whose sonames another version shares, into a link namespace of
 * its own (dlmopen), so that one process holds PyTorch 1.13 and 2.15 (oneDNN 3.13 runs in
 * processes of its own: own_process). A
 * peer reachable only from another runtime (ONNX Runtime through Node; the Python frameworks
 * through bench/py_eval.py) is a serving command instead (`gelulab sweep --serve`,
 * docs/exec-protocol.md); with a timing command as well (the Python ones), the benchmark times
 * the framework's call inside a process per library, the pipe excluded (timed=framework).
 * Sweeps load libgelulab-peer-MODULE.so alone in a worker (`gelulab list --peers
 * --sweep-args`). The C++ libraries (PyTorch, Eigen) are reached from C++ files that export
 * the ABI with C linkage. */
#ifndef GELULAB_BENCH_PEERS_H
#define GELULAB_BENCH_PEERS_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "gelulab/defn.h"   /* the definitions a peer claims */
#include "gelulab/kernel.h" /* the kernel ABIs, their function types, the CPU check */

#ifdef __cplusplus
extern "C" {
#endif

/* The code a peer runs: chosen by the library at run time (oneDNN's JIT, or a library's own
 * dispatch: GL_PEER_AUTO), or a build for an instruction set this CPU must have (AVX; AVX2
 * with FMA; AVX-512 F) */
enum gl_peer_isa { GL_PEER_JIT, GL_PEER_AUTO, GL_PEER_AVX, GL_PEER_AVX2, GL_PEER_AVX512 };

static inline const char *gl_peer_isa_name(enum gl_peer_isa isa)
{
    static const char *const names[] = {"jit", "auto", "avx", "avx2", "avx512"};
    return (unsigned)isa <= GL_PEER_AVX512 ? names[isa] : "?";
}

/* 1 when this CPU runs a peer of that ISA */
static inline int gl_peer_isa_runs_here(enum gl_peer_isa isa)
{
    return isa == GL_PEER_AVX      ? gl_cpu_has(GL_CPU_AVX)
           : isa == GL_PEER_AVX2   ? gl_cpu_has(GL_CPU_AVX2_FMA)
           : isa == GL_PEER_AVX512 ? gl_cpu_has(GL_CPU_AVX512F)
                                   : 1;
}

typedef const char *(*gl_peer_check_fn)(void);

/* How the table reaches a library's peers */
enum gl_peer_reach {
    GL_PEER_BASE,      /* its module loaded into the process's base namespace (dlopen) */
    GL_PEER_NAMESPACE, /* its module loaded into a link namespace of its own (dlmopen): a
                        * library whose sonames a newer version's share (Debian's oneDNN 2.6
                        * and PyTorch 1.13, with their libtbb, libOpenCL and libgomp) */
    GL_PEER_SERVED     /* a serving command per peer (ONNX Runtime under Node), or a serving
                        * process per library (lib->server: TensorFlow, JAX, ONNX Runtime 1.31
                        * and OpenVINO under Python, bench/py_eval.py) */
};

/* A library, described once */
struct gl_peer_lib {
    const char *name;    /* "PyTorch", "oneDNN": the report groups its versions by it */
    const char *version; /* "2.15": the version the peers' names say */
    const char *package; /* what provides it: "Debian libtorch-dev", "PyPI torch==2.15.0" */
    const char *module;  /* libgelulab-peer-MODULE.so holds its peers alone (sweep workers);
                          * NULL for a served library */
    enum gl_peer_reach reach;
    const char *check;         /* NULL, or the symbol of its check: NULL when the library loads, is
                                * the version named and runs here, else why not */
    gl_peer_check_fn check_fn; /* or a check in the table's own file (the served ones) */
    const char *lineage;       /* NULL, or the library whose versions this one's peers are compared
                                * with in the report ("TensorFlow": Eigen 3.4's peers compose
                                * tf.nn.gelu's ops over Eigen 3.4, TensorFlow 2.21's are TensorFlow) */
    const char *server;        /* a served library whose peers one process serves (per sweep worker
                                * thread): its command; each peer's `serve` is then the arguments that
                                * name it to that process (gelulab sweep --serve ARGS --serve-lib
                                * SERVER; docs/exec-protocol.md, "Serving several kernels") */
    const char *timer;       /* a served library whose peers the benchmark times: the command of its
                              * timing process (docs/exec-protocol.md, "Timing"), one for all its
                              * peers, each request naming the peer by its `time` arguments */
    const char *own_process; /* non-NULL, why: its peers run only in a process of their own:
                              * in a sweep's worker, in a benchmark run of their own
                              * (gl_peer_run_alone), checked in a child process (fork);
                              * elsewhere they are not loaded, and skipped with the reason
                              * (per_process). oneDNN 3.13: its SYCL and TBB runtimes crash in a
                              * process where PyTorch 1.13 has run (TBB's arena, seen), and its
                              * ISA cap is set once per process */
};

struct gl_peer {
    const char *name;     /* "onednn-2.6-gelu_erf": library, version, function, and its path when
                           * several (ISA, dtype, mkldnn on or off) */
    enum gl_defn defn;    /* the definition it claims */
    enum gl_peer_isa isa; /* the code it runs */
    const struct gl_peer_lib *lib;
    enum gl_kernel_abi abi;   /* what it is called with: GL_KERNEL_F32, GL_KERNEL_BWD, or the
                               * 16-bit ABI on bfloat16 (GL_KERNEL_BF16) or binary16 bits */
    const char *symbol;       /* its function, of that ABI */
    const char *sweep_symbol; /* NULL, or its twin, which the sweeps and diagnoses run in its
                               * place (`gelulab list --peers --sweep-args`): the same call with
                               * the library's error reporting off, results bit for bit symbol's
                               * (test_peers.sh compares them), without the default's cost per
                               * element reported (MKL: bench/peer_mkl.c); the benchmark times
                               * symbol, the call as its users write it */
    const char *prepare;      /* NULL, or the symbol of a function (size_t n) called per size
                               * outside the timed loop */
    const char *check;        /* NULL, or the symbol of a check of its own, after the library's */
    const char *compare;      /* non-NULL for the one peer the report and bench-table give ratios
                               * to: the title of that column ("oneDNN erf") */
    const char *serve;        /* a served library's peer: the serving command that evaluates it, or
                               * with lib->server the arguments that name it to that process */
    const char *time;         /* NULL, or what its library's timing process (lib->timer) is asked
                               * to time: the evaluator's arguments that name the peer ("--backward
                               * tf-2.21-gelu"; docs/exec-protocol.md, "Timing") */
    const char *path;         /* how a user's call reaches this code, and what that code computes
                               * (the report's "What the frameworks compute" quotes it) */
    const char *call;         /* NULL, or the call a user of the framework writes, every setting
                               * left at its default, when it reaches this peer's code
                               * ("jax.nn.gelu(x)"): the report's "What a default call gives"; at
                               * most one peer of a library version has it (test_peers.sh) */
    /* found by gl_peer_skip (not set until then, nor when it skips the peer: gl_kernel_fn_set) */
    union gl_kernel_fn fn;
    void (*prepare_fn)(size_t n);
    int per_process; /* skipped only because its library runs in a process of its own (own_process):
                      * it runs in a sweep's worker, and in a benchmark run of its own */
};

/* The table, in report order; the count in *n. */
const struct gl_peer *gl_peers(size_t *n);
/* Makes this process a run of the peers of library module MODULE alone (an own_process
 * library's): gl_peer_skip then skips every other peer but the compare one. Call it before
 * gl_peer_skip. */
void gl_peer_run_alone(const char *module);
/* NULL when p runs on this machine, else the reason (one line, into buf). Finds p's functions
 * first (loading its library's module); call it before using p->fn or p->prepare_fn. A process that
 * loaded a module into a namespace of its own ends, when it exits, by _exit after flushing its
 * streams: glibc 2.36 runs the destructors of several namespaces in an order that crashes (seen:
 * Debian's libGLX and libtbb after PyTorch 2.15's). Under AddressSanitizer, which has no
 * namespaces, those modules load into the base namespace and PyPI's are skipped. */
const char *gl_peer_skip(const struct gl_peer *p, char *buf, size_t len);

/* The table as libgelulab-peers.so exports it (the benchmark and `gelulab list` load it with
 * dlopen). 0, or -1 with the reason in err. */
struct gl_peer_table {
    const struct gl_peer *(*peers)(size_t *n);
    const char *(*skip)(const struct gl_peer *p, char *buf, size_t len);
    void (*run_alone)(const char *module);
};

static inline int gl_peer_table_open(const char *path, struct gl_peer_table *t, char *err,
                                     size_t errlen)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    *(void **)&t->peers = h ? dlsym(h, "gl_peers") : NULL;
    *(void **)&t->skip = h ? dlsym(h, "gl_peer_skip") : NULL;
    *(void **)&t->run_alone = h ? dlsym(h, "gl_peer_run_alone") : NULL;
    if (t->peers && t->skip && t->run_alone) return 0;
    snprintf(err, errlen, "cannot read the peers from %s: %s", path,
             h ? "no gl_peers/gl_peer_skip/gl_peer_run_alone in it" : dlerror());
    if (h) dlclose(h);
    return -1;
}

#ifdef __cplusplus
}
#endif
#endif
