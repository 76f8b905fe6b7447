/* ggml peer (gelulab/peers.h): llama.cpp's tensor library, from the npm package
 * @node-llama-cpp/linux-x64 (GL_GGML_DIR, installed by make deps; no Debian package). Loaded
 * with dlopen: libggml-base.so, then the CPU back-end variant that scores best on this CPU
 * (ggml_backend_score of each libggml-cpu-*.so, as ggml's own loader picks it). ggml ships no
 * headers there, so the few prototypes used are declared below for the pinned release; the
 * version is checked at load and a mismatch refuses the peer.
 *
 * Each call: a context holding an n-element binary32 tensor, the op (ggml_gelu, ggml_gelu_erf
 * or ggml_gelu_quick) and its graph, built when n changes; x is copied into the input tensor,
 * the graph computed with one thread, the output copied to y, as a caller whose data is not in
 * a ggml tensor does. ggml_gelu's binary32 path reads a table of GELU at every binary16 value
 * (x rounded to binary16; GGML_GELU_FP16), ggml_gelu_erf computes erf, ggml_gelu_quick is
 * x sigma(1.702 x) (also through a binary16 table).
 *
 * In 16 bits (the 16-bit kernel ABI): ggml_gelu and ggml_gelu_erf on binary16 and bfloat16
 * tensors (GGML_TYPE_F16, GGML_TYPE_BF16), the caller's bits copied in and out. Whether this
 * ggml computes them is asked once per format in a child process (ggml aborts on a type an op
 * lacks): the check says why a peer does not run. */
#include <dirent.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/peers.h"

#define GGML_VERSION "0.23.0" /* ggml_version() of the ggml in @node-llama-cpp/linux-x64 3.21.1 */

struct ggml_init_params {
    size_t mem_size;
    void *mem_buffer;
    bool no_alloc;
};
typedef void *(*ggml_op_fn)(void *ctx, void *a);

static struct ggml_api { /* harness state (like cli/): the loaded library */
    int tried;
    char why[300];
    void *(*init)(struct ggml_init_params);
    void (*free)(void *ctx);
    void *(*new_tensor_1d)(void *ctx, int type, int64_t ne0);
    float *(*get_data_f32)(const void *t);
    void *(*get_data)(const void *t);
    void *(*new_graph)(void *ctx);
    void (*build_forward_expand)(void *graph, void *t);
    int (*compute)(void *ctx, void *graph, int n_threads);
    void (*cpu_init)(void);
    ggml_op_fn op[3];
} api;

enum { OP_GELU, OP_GELU_ERF, OP_GELU_QUICK };

struct ggml_graph_state {
    void *ctx, *graph, *in, *out;
    size_t n;
};
static struct ggml_graph_state graphs[3];
enum { GGML_TYPE_F32 = 0, GGML_TYPE_F16 = 1, GGML_TYPE_BF16 = 30 }; /* ggml.h's enum ggml_type */
static struct ggml_graph_state graphs16[2][2];                      /* [bf16][op: gelu, gelu_erf] */

/* the CPU variant with the highest ggml_backend_score, dlopen'ed (RTLD_GLOBAL: its symbols) */
static void *best_cpu_variant(void)
{
    DIR *d = opendir(GL_GGML_DIR);
    void *best = NULL;
    int best_score = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, "libggml-cpu-", 12)) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", GL_GGML_DIR, e->d_name);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        int (*score)(void) = h ? (int (*)(void))dlsym(h, "ggml_backend_score") : NULL;
        int sc = score ? score() : 0;
        if (sc > best_score) {
            if (best) dlclose(best);
            best = h, best_score = sc;
        } else if (h)
            dlclose(h);
    }
    if (d) closedir(d);
    return best;
}

#define SYM(h, field, name)                                                                        \
    if (!(*(void **)&api.field = dlsym(h, name))) {                                                \
        snprintf(api.why, sizeof api.why, "ggml: symbol %s missing", name);                        \
        return;                                                                                    \
    }

static void load(void)
{
    api.tried = 1;
    void *base = dlopen(GL_GGML_DIR "/libggml-base.so", RTLD_NOW | RTLD_GLOBAL);
    if (!base) {
        snprintf(api.why, sizeof api.why, "ggml: %s", dlerror());
        return;
    }
    const char *(*version)(void) = (const char *(*)(void))dlsym(base, "ggml_version");
    const char *v = version ? version() : "unknown";
    if (strcmp(v, GGML_VERSION)) {
        snprintf(api.why, sizeof api.why, "ggml %s found, the peers are written for %s", v,
                 GGML_VERSION);
        return;
    }
    void *cpu = best_cpu_variant();
    if (!cpu) {
        snprintf(api.why, sizeof api.why, "ggml: no CPU back-end in %s runs here", GL_GGML_DIR);
        return;
    }
    SYM(base, init, "ggml_init") SYM(base, free, "ggml_free");
    SYM(base, new_tensor_1d, "ggml_new_tensor_1d") SYM(base, get_data_f32, "ggml_get_data_f32");
    SYM(base, get_data, "ggml_get_data");
    SYM(base, new_graph, "ggml_new_graph");
    SYM(base, build_forward_expand, "ggml_build_forward_expand");
    SYM(base, op[OP_GELU], "ggml_gelu") SYM(base, op[OP_GELU_ERF], "ggml_gelu_erf");
    SYM(base, op[OP_GELU_QUICK], "ggml_gelu_quick");
    SYM(cpu, compute, "ggml_graph_compute_with_ctx") SYM(cpu, cpu_init, "ggml_cpu_init");
    api.cpu_init();
}

const char *gl_peer_ggml_check(void)
{
    if (!api.tried) load();
    return api.why[0] ? api.why : NULL;
}

/* the graph of op on n elements of type `type` in g */
static void graph_prepare(struct ggml_graph_state *g, int op, int type, size_t n)
{
    if (gl_peer_ggml_check() || (g->ctx && g->n == n)) return;
    if (g->ctx) api.free(g->ctx);
    struct ggml_init_params p = {2 * n * sizeof(float) + (16u << 20), NULL, false};
    g->ctx = api.init(p);
    g->in = api.new_tensor_1d(g->ctx, type, (int64_t)n);
    g->out = api.op[op](g->ctx, g->in);
    g->graph = api.new_graph(g->ctx);
    api.build_forward_expand(g->graph, g->out);
    g->n = n;
}

static void ggml_prepare(int op, size_t n)
{
    graph_prepare(&graphs[op], op, GGML_TYPE_F32, n);
}

static void ggml_run16(int bf16, int op, const uint16_t *x, uint16_t *y, size_t n)
{
    if (!n) return;
    struct ggml_graph_state *g = &graphs16[bf16][op];
    graph_prepare(g, op, bf16 ? GGML_TYPE_BF16 : GGML_TYPE_F16, n);
    if (!g->ctx) { /* not loadable: NaN results */
        for (size_t i = 0; i < n; i++) y[i] = 0x7fff;
        return;
    }
    memcpy(api.get_data(g->in), x, n * sizeof *x);
    api.compute(g->ctx, g->graph, 1);
    memcpy(y, api.get_data(g->out), n * sizeof *y);
}

/* NULL when ggml computes both ops on tensors of that format (tried in a child: ggml aborts on
 * a type an op lacks), else why not */
static const char *check16(int bf16)
{
    static char why[2][160];
    static int done[2];
    if (gl_peer_ggml_check()) return gl_peer_ggml_check();
    if (done[bf16]++) return why[bf16][0] ? why[bf16] : NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);  /* ggml's abort message and backtrace (gdb, on */
        if (fd >= 0) dup2(fd, 1), dup2(fd, 2); /* stdout): the check says it in one line */
        setenv("GGML_NO_BACKTRACE", "1", 1);
        uint16_t x[4] = {0x3c00, 0x4000, 0xbc00, 0}, y[4];
        for (int op = 0; op < 2; op++) ggml_run16(bf16, op, x, y, 4);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
        snprintf(why[bf16], sizeof why[bf16],
                 "ggml %s has no CPU GELU on %s tensors (it aborts there)", GGML_VERSION,
                 bf16 ? "bf16" : "f16");
    return why[bf16][0] ? why[bf16] : NULL;
}

const char *gl_peer_ggml_check_f16(void)
{
    return check16(0);
}
const char *gl_peer_ggml_check_bf16(void)
{
    return check16(1);
}
void gl_peer_ggml_gelu_f16(const uint16_t *x, uint16_t *y, size_t n)
{
    ggml_run16(0, OP_GELU, x, y, n);
}
void gl_peer_ggml_gelu_erf_f16(const uint16_t *x, uint16_t *y, size_t n)
{
    ggml_run16(0, OP_GELU_ERF, x, y, n);
}
void gl_peer_ggml_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    ggml_run16(1, OP_GELU, x, y, n);
}
void gl_peer_ggml_gelu_erf_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    ggml_run16(1, OP_GELU_ERF, x, y, n);
}

static void ggml_run(int op, const float *x, float *y, size_t n)
{
    if (!n) return;
    ggml_prepare(op, n);
    struct ggml_graph_state *g = &graphs[op];
    if (!g->ctx) { /* not loadable: NaN results, and the reason once */
        static int said;
        if (!said++) fprintf(stderr, "gelulab: %s\n", api.why);
        for (size_t i = 0; i < n; i++) y[i] = __builtin_nanf("");
        return;
    }
    memcpy(api.get_data_f32(g->in), x, n * sizeof *x);
    api.compute(g->ctx, g->graph, 1);
    memcpy(y, api.get_data_f32(g->out), n * sizeof *y);
}

void gl_peer_ggml_gelu(const float *x, float *y, size_t n)
{
    ggml_run(OP_GELU, x, y, n);
}
void gl_peer_ggml_gelu_erf(const float *x, float *y, size_t n)
{
    ggml_run(OP_GELU_ERF, x, y, n);
}
void gl_peer_ggml_gelu_quick(const float *x, float *y, size_t n)
{
    ggml_run(OP_GELU_QUICK, x, y, n);
}
void gl_peer_ggml_prepare_gelu(size_t n)
{
    ggml_prepare(OP_GELU, n);
}
void gl_peer_ggml_prepare_gelu_erf(size_t n)
{
    ggml_prepare(OP_GELU_ERF, n);
}
void gl_peer_ggml_prepare_gelu_quick(size_t n)
{
    ggml_prepare(OP_GELU_QUICK, n);
}
