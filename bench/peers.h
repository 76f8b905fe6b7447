/* The peers: other projects' GELU kernels, measured beside gelulab's (docs/design.md, "Add a
 * peer"). One source file per peer library (peer_onednn.c, peer_sleef.c, peer_torch.cc,
 * peer_eigen.cc, peer_ggml.c, and ort_eval.mjs for ONNX Runtime), and one table,
 * bench/peers.c, naming each peer once; the benchmark (bench/cases.c), libgelulab-peers.so (the
 * kernels exported for `gelulab sweep --lib`), `gelulab list --peers` and through it
 * `make report` all take the list from that table.
 *
 * A peer's function has the kernel ABI (y[i] = f(x[i]), any n, unaligned), or for a backward
 * peer (oneDNN's eltwise backward, PyTorch's gelu_backward) the backward one, or for a 16-bit
 * peer (PyTorch, oneDNN and ggml on bfloat16 or binary16 tensors) the 16-bit one. Its declaration,
 * in peers.c beside its entry, is weak: a peer whose library CMake did not find is not compiled,
 * its function is NULL, and the table says why it is skipped. A peer reachable only from
 * another runtime (ONNX Runtime through Node) is a serving command instead (`gelulab sweep
 * --serve`, docs/exec-protocol.md): measured for accuracy, not timed. The C++ libraries
 * (PyTorch, Eigen) are reached from C++17 files that export the ABI with C linkage. */
#ifndef GELULAB_BENCH_PEERS_H
#define GELULAB_BENCH_PEERS_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*gl_peer_fn)(const float *x, float *y, size_t n);
typedef void (*gl_peer_bwd_fn)(const float *x, const float *dy, float *dx, size_t n);
typedef void (*gl_peer_u16_fn)(const uint16_t *x, uint16_t *y, size_t n);

struct gl_peer {
    const char *name;    /* "onednn-gelu_erf": library, function and, if several, ISA */
    const char *defn;    /* the definition it claims: "exact", "tanh", ... */
    const char *isa;     /* "avx2", "avx512": this CPU must have it; "jit": the library picks */
    const char *library; /* "oneDNN", "SLEEF" (named in the report) */
    const char *package; /* the Debian package that provides it (make deps installs it) */
    gl_peer_fn fn;       /* NULL: the library was not found at build time */
    const char *symbol;  /* fn's name: libgelulab-peers.so exports it for sweeps */
    const char *module;  /* "torch": libgelulab-peer-torch.so (beside libgelulab-peers.so) holds
                          * fn with this library alone, for sweeps (a worker loads only it) */
    void (*prepare)(size_t n);  /* NULL, or called per size outside the timed loop */
    const char *compare;        /* non-NULL for the one peer the report and bench-table give ratios
                                 * to: the title of that column ("oneDNN erf") */
    const char *serve;          /* non-NULL (and fn NULL): the serving command that evaluates it */
    const char *(*check)(void); /* NULL, or says (NULL: fine) whether the library found at build
                                 * time loads and is the version the peer's name says */
    gl_peer_bwd_fn bwd;         /* a backward peer (defn a derivative; fn NULL): dx = dy f'(x), the
                                 * backward kernel ABI; symbol names it */
    gl_peer_u16_fn u16;         /* a 16-bit peer (fn NULL): the 16-bit kernel ABI on the bits of
                                 * fmt; symbol names it */
    const char *fmt;            /* a 16-bit peer's format: "bf16" or "f16"; NULL otherwise */
};

/* The table, in report order; the count in *n. */
const struct gl_peer *gl_peers(size_t *n);
/* NULL when p runs on this machine, else the reason (one line, into buf). */
const char *gl_peer_skip(const struct gl_peer *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
