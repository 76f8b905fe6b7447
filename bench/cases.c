/* gelulab benchmark cases (bench/cases.h): registry kernels, baselines, peers (bench/peers.c),
 * libgelulab's entry points (lib/), and a user's kernels from shared libraries (--lib).
 * The bench program is a harness like cli/: the case list is this file's static state, and the
 * oneDNN primitive of the current size peer_onednn.c's. */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include "gelulab/lib_api.h"
#include "gl_algos.h" /* generated: GL_NAME_ID */
#include "cases.h"
#include "gelulab.h"
#include "gelulab/impl.h"
#include "gelulab/runner.h"
#include "gelulab/peers.h"

#define MAX_CASES 384

static struct gl_bench_case cases[MAX_CASES];
static size_t n_cases;

static struct gl_bench_case *add(const char *name, const char *kind, const char *defn,
                                 const char *isa, enum gl_kernel_abi abi, union gl_kernel_fn fn,
                                 const char *skip, void (*prepare)(size_t))
{
    static struct gl_bench_case overflow; /* past MAX_CASES: dropped (never with today's list) */
    if (n_cases == MAX_CASES) return &overflow;
    struct gl_bench_case *c = &cases[n_cases++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind, c->defn = defn, c->isa = isa, c->abi = abi, c->fn = fn, c->skip = skip;
    c->prepare = prepare;
    return c;
}

/* a function of each ABI, as a union */
static union gl_kernel_fn fwd(gl_kernel_f32 f)
{
    return (union gl_kernel_fn){.f32 = f};
}
static union gl_kernel_fn bwd(gl_kernel_bwd_f32 f)
{
    return (union gl_kernel_fn){.bwd = f};
}
static union gl_kernel_fn bits16(gl_kernel_u16 f)
{
    return (union gl_kernel_fn){.u16 = f};
}
static const union gl_kernel_fn none;

/* which of the registry's kernels and of the peers a pass adds */
enum { FORWARD, BACKWARD, BITS16 };

static int of_pass(int pass, int backward, int u16)
{
    return u16 ? pass == BITS16 : pass == (backward ? BACKWARD : FORWARD);
}

/* the registry's forward binary32 kernels, its backward ones, or its 16-bit ones */
static void add_registry(int pass)
{
    static const char *const kinds[] = {"gelulab", "gelulab-bwd", "gelulab16"};
    for (size_t i = 0; i < gl_impl_count(); i++) {
        const struct gl_impl *k = gl_impl_get(i);
        if (!of_pass(pass, gl_defn_is_grad(k->defn), gl_kernel_abi_is16(k->abi))) continue;
        const char *skip = k->isa == GL_ISA_NEON   ? "NEON: runs only under emulation here"
                           : !gl_impl_available(k) ? "ISA not supported by this CPU"
                                                   : NULL;
        enum gl_kernel_abi abi = pass == BACKWARD ? GL_KERNEL_BWD : k->abi;
        union gl_kernel_fn fn = skip                   ? none
                                : abi == GL_KERNEL_BWD ? bwd(k->bwd)
                                : abi == GL_KERNEL_F32 ? fwd(k->f32)
                                                       : bits16(k->u16);
        add(k->name, kinds[pass], gl_defn_name(k->defn), gl_isa_name(k->isa), abi, fn, skip, NULL);
    }
}

/* gl_bench_peers_of's module, or NULL: the whole run */
static const char *peers_of;

/* the modules of the libraries whose peers this run skipped for a run of their own (as many
 * as the table has peers, NULL-terminated), and whether the compare peer runs in this one */
static const char **own_runs;
static int compare_runs;

static void runs_needed(const char *module, size_t npeers)
{
    size_t i = 0;
    if (!own_runs && !(own_runs = calloc(npeers + 1, sizeof *own_runs))) abort();
    while (own_runs[i] && strcmp(own_runs[i], module)) i++;
    if (!own_runs[i]) own_runs[i] = module;
}

const char *const *gl_bench_peer_runs(void)
{
    static const char *none[1];
    size_t n;
    gl_bench_cases(&n);
    /* a run of their own is put on this run's scale by the compare peer: without it, none */
    return own_runs && compare_runs ? own_runs : none;
}

/* the forward peers, the backward ones, or the 16-bit ones */
static void add_peers(int pass)
{
    static const char *const kinds[] = {"peer", "peer-bwd", "peer16"};
    static struct gl_peer_table t;
    static char(*why)[200], err[600];
    size_t n = 0;
    if (!t.peers && !err[0]) { /* libgelulab-peers.so, beside the benchmark */
        char path[4200] = "";
        ssize_t r = readlink("/proc/self/exe", path, sizeof path - 40);
        path[r > 0 ? r : 0] = '\0';
        snprintf(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, 40, "libgelulab-peers.so");
        if (gl_peer_table_open(path, &t, err, sizeof err))
            fprintf(stderr, "gelulab-bench: no peers: %s\n", err);
        else if (peers_of)
            t.run_alone(peers_of);
    }
    if (!t.peers) return;
    const struct gl_peer *p = t.peers(&n);
    if (!why && !(why = calloc(n, sizeof *why))) abort();
    for (size_t i = 0; i < n; i++) {
        if (!of_pass(pass, p[i].abi == GL_KERNEL_BWD, gl_kernel_abi_is16(p[i].abi))) continue;
        const char *skip = t.skip(&p[i], why[i], sizeof why[i]);
        if (skip && peers_of && !p[i].compare)
            continue;                 /* a run of one library's peers: the others are not listed */
        if (skip && p[i].per_process) /* listed for its own run (gl_bench_peer_runs) */
            runs_needed(p[i].lib->module, n);
        compare_runs |= !skip && p[i].compare;
        if (!skip && p[i].serve && !p[i].time) /* Node and a pipe in the loop */
            skip = "accuracy only: evaluated by a serving command through a pipe, not timed";
        struct gl_bench_case *c =
            add(p[i].name, kinds[pass], gl_defn_name(p[i].defn), gl_peer_isa_name(p[i].isa),
                p[i].abi, skip ? none : p[i].fn, skip, skip ? NULL : p[i].prepare_fn);
        c->library = p[i].lib->name, c->compare = p[i].compare;
        c->time_cmd = skip || !p[i].time ? NULL : p[i].lib->timer;
        c->time_spec = p[i].time;
    }
}

/* libgelulab's entry points as users call them, dispatch included (gelulab/lib_api.h:
 * lib/NAME runs the build of the kernel NAME that gl_gelu_isa() names) */
static void add_library(void)
{
    const char *isa = gl_gelu_isa(), *isa16 = gl_gelu_isa_16(); /* static strings */
#define LIB_IMPL(algo) gl_impl_find(GL_NAME_##algo "/scalar")
#define LIB_FWD(algo, what)                                                                        \
    add("lib/" GL_NAME_##algo, "lib", gl_defn_name(LIB_IMPL(algo)->defn), isa, GL_KERNEL_F32,      \
        fwd(gl_##algo), NULL, NULL);
#define LIB_BWD(algo, what)                                                                        \
    add("lib/" GL_NAME_##algo, "lib-bwd", gl_defn_name(LIB_IMPL(algo)->defn), isa, GL_KERNEL_BWD,  \
        bwd(gl_##algo), NULL, NULL);
#define LIB_U16(algo, what)                                                                        \
    add("lib/" GL_NAME_##algo, "lib16", gl_defn_name(LIB_IMPL(algo)->defn), isa16,                 \
        LIB_IMPL(algo)->abi, bits16(gl_##algo), NULL, NULL);
    GL_LIB_FORWARD(LIB_FWD)
    GL_LIB_BACKWARD(LIB_BWD)
    GL_LIB_16(LIB_U16)
}

/* A user's kernels (gl_bench_add_user), in the order given */
#define MAX_USER 32
static struct {
    const char *name, *path;
    void *sym;
    enum gl_kernel_abi abi;
    int pass; /* FORWARD, BACKWARD or BITS16 */
} users[MAX_USER];
static size_t n_users;

int gl_bench_add_user(const char *path, const char *symbol, const char *name, int backward,
                      const char *fmt, char *err, size_t errlen)
{
    struct stat st;
    char local[4200];
    if (n_users == MAX_USER)
        return snprintf(err, errlen, "more than %d user kernels", MAX_USER), -1;
    /* a name without a slash is a file here when there is one (dlopen would search the
     * library path only), else a library the loader finds */
    const char *open_as = path;
    if (!strchr(path, '/') && stat(path, &st) == 0)
        snprintf(local, sizeof local, "./%s", path), open_as = local;
    else if (strchr(path, '/') && stat(path, &st) != 0)
        return snprintf(err, errlen, "--lib %s: file not found", path), -1;
    dlerror();
    void *h = dlopen(open_as, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        return snprintf(err, errlen, "--lib %s: cannot load: %s", path, why ? why : "?"), -1;
    }
    void *sym = dlsym(h, symbol);
    if (!sym) return snprintf(err, errlen, "--lib %s: symbol '%s' not found", path, symbol), -1;
    users[n_users].name = name, users[n_users].path = path, users[n_users].sym = sym;
    users[n_users].abi = backward ? GL_KERNEL_BWD : GL_KERNEL_F32;
    if (fmt && (gl_kernel_abi_parse(fmt, &users[n_users].abi) || !strcmp(fmt, "f32")))
        return snprintf(err, errlen, "--abi %s: bf16 or f16", fmt), -1;
    users[n_users++].pass = fmt ? BITS16 : backward ? BACKWARD : FORWARD;
    return 0;
}

/* the user's kernels of a pass (kinds user, user-bwd, user16; definition and ISA unknown: "-") */
static void add_users(int pass)
{
    static const char *const kinds[] = {"user", "user-bwd", "user16"};
    for (size_t i = 0; i < n_users; i++) {
        if (users[i].pass != pass) continue;
        union gl_kernel_fn fn;
        /* a data pointer to a function pointer: what dlsym returns (POSIX); every member of
         * the union is a function pointer */
        memcpy(&fn, &users[i].sym, sizeof users[i].sym);
        add(users[i].name, kinds[pass], "-", "-", users[i].abi, fn, NULL, NULL)->library =
            users[i].path;
    }
}

/* ---- served peers timed in their framework's process (docs/exec-protocol.md, "Timing") ---- */

/* the timing processes, one per command (a library's: lib->timer), each with the case and the
 * size whose tensor it holds, and the kinds (ABI) and sizes above GL_BENCH_SERVED_BIG whose
 * inputs it keeps; a process that failed is not asked again */
#define MAX_LOADED 512
#define MAX_KEPT   64
static struct timer {
    const char *cmd;
    struct gl_child child;
    struct {
        const struct gl_bench_case *c;
        size_t n;
    } loaded[MAX_LOADED]; /* the tensors it holds: a case's at a size each */
    size_t nloaded;
    struct {
        enum gl_kernel_abi abi;
        size_t n;
    } kept[MAX_KEPT]; /* the inputs above GL_BENCH_SERVED_BIG it keeps: sent once */
    size_t nkept;
    int dead;
    char why[600];
} timers[16];

static struct timer *timer_of(const struct gl_bench_case *c, char *why, size_t len)
{
    size_t i = 0;
    while (i < 16 && timers[i].cmd && strcmp(timers[i].cmd, c->time_cmd)) i++;
    if (i == 16) return snprintf(why, len, "more than 16 timing processes"), NULL;
    struct timer *t = &timers[i];
    if (!t->cmd) {
        t->cmd = c->time_cmd, t->child = gl_child_idle(0);
        if (gl_child_start(&t->child, t->cmd, t->why, sizeof t->why) != 0) t->dead = 1;
    }
    if (t->dead) return snprintf(why, len, "its timing process failed: %s", t->why), NULL;
    return t;
}

/* a request: a uint64 k (calls to time), the size n, the peer's arguments (a uint64 length, the
 * bytes), and the inputs, if any; the answer the seconds the k calls took */
static int timer_request(struct timer *t, const struct gl_bench_case *c, size_t n, const void *in,
                         size_t bytes, uint64_t k, double *seconds, char *why, size_t len)
{
    uint64_t spec = strlen(c->time_spec), size = n;
    char *req = malloc(24 + spec + bytes);
    if (!req) return snprintf(why, len, "out of memory"), -1;
    memcpy(req, &k, 8), memcpy(req + 8, &size, 8), memcpy(req + 16, &spec, 8);
    memcpy(req + 24, c->time_spec, spec);
    if (bytes) memcpy(req + 24 + spec, in, bytes);
    /* a framework's first call loads and compiles (XLA): minutes at most */
    int rc = gl_child_call(&t->child, req, 24 + spec + bytes, seconds, sizeof *seconds, 600, t->why,
                           sizeof t->why);
    free(req);
    if (rc) t->dead = 1, snprintf(why, len, "its timing process failed: %s", t->why);
    return rc;
}

int gl_bench_served_load(const struct gl_bench_case *c, size_t n, const void *in, size_t bytes,
                         char *why, size_t len)
{
    struct timer *t = timer_of(c, why, len);
    double s;
    if (!t) return -1;
    for (size_t i = 0; i < t->nloaded; i++)
        if (t->loaded[i].c == c && t->loaded[i].n == n) return 0; /* its tensor is there */
    int kept = 0; /* its inputs are: the tensor is made from them, nothing sent */
    for (size_t i = 0; i < t->nkept && n > GL_BENCH_SERVED_BIG; i++)
        kept |= t->kept[i].abi == c->abi && t->kept[i].n == n;
    if (timer_request(t, c, n, kept ? NULL : in, kept ? 0 : bytes, 0, &s, why, len)) return -1;
    if (n > GL_BENCH_SERVED_BIG && !kept && t->nkept < MAX_KEPT)
        t->kept[t->nkept].abi = c->abi, t->kept[t->nkept++].n = n;
    if (n > GL_BENCH_SERVED_BIG) /* it keeps one tensor above 2^20 elements: the last */
        for (size_t i = t->nloaded; i-- > 0;)
            if (t->loaded[i].n > GL_BENCH_SERVED_BIG) t->loaded[i] = t->loaded[--t->nloaded];
    if (t->nloaded < MAX_LOADED) t->loaded[t->nloaded].c = c, t->loaded[t->nloaded++].n = n;
    return 0;
}

int gl_bench_served_time(const struct gl_bench_case *c, size_t n, uint64_t calls, double *seconds,
                         char *why, size_t len)
{
    struct timer *t = timer_of(c, why, len);
    return t ? timer_request(t, c, n, NULL, 0, calls, seconds, why, len) : -1;
}

static void *warm_one(void *arg)
{
    const struct gl_bench_case *c = arg;
    char why[600];
    double s;
    struct timer *t = timer_of(c, why, sizeof why);
    if (t) timer_request(t, c, 0, NULL, 0, 0, &s, why, sizeof why); /* builds it: no inputs, k 0 */
    return NULL;
}

void gl_bench_served_warm(const struct gl_bench_case *const *which, size_t n)
{
    pthread_t th[16];
    int started[16] = {0};
    size_t nt = 0;
    for (size_t i = 0; i < n && nt < 16; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(which[j]->time_cmd, which[i]->time_cmd);
        if (seen) continue;
        char why[600];
        timer_of(which[i], why, sizeof why); /* its slot and process, here: not in the threads */
        started[nt] = pthread_create(&th[nt], NULL, warm_one, (void *)which[i]) == 0;
        nt++;
    }
    for (size_t t = 0; t < nt; t++)
        if (started[t]) pthread_join(th[t], NULL);
}

void gl_bench_served_stop(void)
{
    for (size_t i = 0; i < 16 && timers[i].cmd; i++)
        if (timers[i].child.pid > 0) gl_child_stop(&timers[i].child);
}

void gl_bench_peers_of(const char *module)
{
    peers_of = module;
}

const struct gl_bench_case *gl_bench_cases(size_t *n)
{
    if (!n_cases) {
        int all = !peers_of; /* a run of one library's peers: its peers, memcpy, compare */
        add("memcpy", "baseline", "-", "libc", GL_KERNEL_F32, fwd(gl_base_memcpy), NULL, NULL);
        if (all)
            add("relu-vec", "baseline", "relu", "auto", GL_KERNEL_F32, fwd(gl_base_relu_vec), NULL,
                NULL);
        if (all) add_registry(FORWARD);
        add_peers(FORWARD);
        if (all) add_library();
        add_users(FORWARD);
        if (all)
            add("relu-bwd-vec", "baseline-bwd", "relu_grad", "auto", GL_KERNEL_BWD,
                bwd(gl_base_relu_bwd_vec), NULL, NULL);
        if (all) add_registry(BACKWARD);
        add_peers(BACKWARD);
        add_users(BACKWARD);
        add("memcpy16", "baseline16", "-", "libc", GL_KERNEL_BF16, bits16(gl_base_memcpy16), NULL,
            NULL);
        if (all) {
            add("relu16", "baseline16", "relu", "auto", GL_KERNEL_BF16, bits16(gl_base_relu16),
                NULL, NULL);
            add_registry(BITS16);
        }
        add_peers(BITS16);
        add_users(BITS16);
    }
    *n = n_cases;
    return cases;
}

int gl_bench_pin(void)
{
    int cpu = sched_getcpu();
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu < 0) return -1;
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

unsigned long long gl_bench_tsc(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}
