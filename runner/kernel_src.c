/* Kernel sources (include/gelulab/runner.h): a kernel built in, in a shared library (path and
 * symbol) or behind an external command, and the one function that runs any of them on an
 * array, gl_kernel_call, which the sweep, validate and facts share. Library kernels run in the
 * library worker (`gelulab __eval-lib`, docs/exec-protocol.md): a persistent one when the
 * caller keeps a gl_child (the sweep: one per thread and kernel), a fresh one per call
 * otherwise; external commands in one process per call (or per `split` inputs), serving
 * commands like the library worker. */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gelulab/guard.h"
#include "gelulab/runner.h"

void gl_kernel_src_lib(struct gl_kernel_src *k, const char *path, const char *symbol)
{
    k->kind = GL_SRC_LIB;
    /* a bare name that is a file here is that file (dlopen would search the loader's path) */
    int here = !strchr(path, '/') && access(path, F_OK) == 0;
    snprintf(k->lib_path, sizeof k->lib_path, "%s%s", here ? "./" : "", path);
    snprintf(k->lib_symbol, sizeof k->lib_symbol, "%s", symbol);
    k->cmd[0] = '\0';
}

void gl_kernel_src_exec(struct gl_kernel_src *k, const char *cmd)
{
    k->kind = GL_SRC_EXEC;
    snprintf(k->cmd, sizeof k->cmd, "%s", cmd);
}

void gl_kernel_src_serve(struct gl_kernel_src *k, const char *cmd)
{
    k->kind = GL_SRC_SERVE;
    snprintf(k->cmd, sizeof k->cmd, "%s", cmd);
}

void gl_kernel_src_command(const struct gl_kernel_src *k, char *buf, size_t len)
{
    if (k->kind == GL_SRC_LIB)
        snprintf(buf, len, "%s\n%s", k->lib_path, k->lib_symbol);
    else
        snprintf(buf, len, "%s", k->kind == GL_SRC_BUILTIN ? "" : k->cmd);
}

int gl_kernel_src_set_command(struct gl_kernel_src *k, const char *command)
{
    if (k->kind != GL_SRC_LIB) {
        snprintf(k->cmd, sizeof k->cmd, "%s", command);
        return 0;
    }
    const char *nl = strchr(command, '\n');
    if (!nl) return -1;
    snprintf(k->lib_path, sizeof k->lib_path, "%.*s", (int)(nl - command), command);
    snprintf(k->lib_symbol, sizeof k->lib_symbol, "%s", nl + 1);
    return 0;
}

#ifdef __SANITIZE_ADDRESS__ /* let a crashing worker die of its signal, as in a normal build */
#define WORKER_ENV "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0 "
#else
#define WORKER_ENV ""
#endif

/* Whether library kernel j shares its worker with library kernel k (one worker per library) */
static int same_library(const struct gl_kernel_src *j, const struct gl_kernel_src *k)
{
    if (j->kind == GL_SRC_SERVE)
        return k->kind == GL_SRC_SERVE && j->serve_lib[0] && !strcmp(j->serve_lib, k->serve_lib);
    return j->kind == GL_SRC_LIB && !strcmp(j->lib_path, k->lib_path);
}

int gl_kernel_src_lib_lead(const struct gl_kernel_src *ks, int k)
{
    int j = 0;
    while (j < k && !same_library(&ks[j], &ks[k])) j++;
    return j;
}

/* The shared-memory worker's command for every kernel of k's library among r's peers
 * (KIND:SYMBOL each, in their order); *which: k's place among them */
static int shm_command(const struct gl_runner *r, const struct gl_kernel_src *k, char *buf,
                       size_t len, uint64_t *which)
{
    size_t used = (size_t)snprintf(buf, len, "exec env %s'%s' __eval-lib --serve-shm '%s'",
                                   WORKER_ENV, r->self_exe, k->lib_path);
    int found = 0;
    for (int j = 0, i = 0; j < r->npeers && used < len; j++) {
        const struct gl_kernel_src *o = &r->peers[j];
        if (!same_library(o, k)) continue;
        if (o == k) *which = (uint64_t)i, found = 1;
        i++;
        used += (size_t)snprintf(buf + used, len - used, " '%s:%s'",
                                 o->backward ? "bwd" : gl_kernel_abi_name(o->abi), o->lib_symbol);
    }
    return found && used < len ? 0 : -1;
}

/* The library worker's command for k: serving validate's calls with their layouts (lay NULL)
 * or one call with layout lay */
static void lib_command(const struct gl_runner *r, const struct gl_kernel_src *k,
                        const struct gl_call_layout *lay, char *buf, size_t len)
{
    char bwd[32]; /* the worker's kind of kernel: backward, 16-bit or (none) binary32 forward */
    snprintf(bwd, sizeof bwd, "%s%s%s", k->backward ? " --backward" : "",
             gl_kernel_abi_is16(k->abi) ? " --abi " : "",
             gl_kernel_abi_is16(k->abi) ? gl_kernel_abi_name(k->abi) : "");
    if (!lay)
        snprintf(buf, len, "exec env %s'%s' __eval-lib%s --serve-layouts '%s' '%s'", WORKER_ENV,
                 r->self_exe, bwd, k->lib_path, k->lib_symbol);
    else
        snprintf(buf, len, "exec env %s'%s' __eval-lib%s '%s' '%s' %zu %zu %d %d %d", WORKER_ENV,
                 r->self_exe, bwd, k->lib_path, k->lib_symbol, lay->offset, lay->split,
                 lay->inplace, lay->repeat, lay->place);
}

/* A worker command run on no input (it loads its symbols and ends), with 16 bytes of room left
 * in cmd; the worker's reason, from its diagnosis channel, into why (may be NULL) */
static int probe_command(char *cmd, char *why, size_t whylen)
{
    char own[1024];
    strcat(cmd, " 2>/dev/null");
    return gl_run_child(cmd, NULL, 0, NULL, 0, 30, why ? why : own, why ? whylen : sizeof own);
}

int gl_kernel_src_probe_library(const struct gl_runner *r, int k, char *why, size_t whylen)
{
    char cmd[8192];
    uint64_t which;
    if (shm_command(r, &r->peers[k], cmd, sizeof cmd - 16, &which) != 0) return -1;
    return probe_command(cmd, why, whylen);
}

int gl_kernel_src_probe(const struct gl_runner *r, const struct gl_kernel_src *k, char *why,
                        size_t whylen)
{
    char cmd[2600]; /* the serving worker: it loads, then ends on no request, calling nothing */
    lib_command(r, k, NULL, cmd, sizeof cmd - 16);
    return probe_command(cmd, why, whylen);
}

/* A built-in kernel in process, with the layouts the library worker applies, on guarded arrays
 * (a fault on a guard page comes back here as the finding: gl_guard_escape) */
static int call_builtin(const struct gl_kernel_src *k, const float *x, const float *dy, float *y,
                        size_t n, const struct gl_call_layout *lay, char *why, size_t whylen)
{
    struct gl_lib_kernel lk = {dy ? NULL : k->impl->f32, dy ? k->impl->bwd : NULL, k->impl->u16,
                               k->abi, NULL};
    static _Thread_local sigjmp_buf env;
    static _Thread_local char finding[300];
    if (sigsetjmp(env, 1)) { /* the kernel touched a guard page */
        gl_guard_escape(NULL, NULL, 0), gl_guard_disarm();
        snprintf(why, whylen, "%s", finding);
        return -1;
    }
    gl_guard_escape(&env, finding, sizeof finding);
    int rc = gl_lib_kernel_layout(&lk, x, dy, 1, y, n, lay, why, whylen);
    gl_guard_escape(NULL, NULL, 0);
    if (rc < 0) snprintf(why, whylen, "out of memory");
    return rc ? -1 : 0;
}

/* a call's timeout in a child process: the runner's, 60 s without one */
static double timeout_of(const struct gl_runner *r)
{
    return r ? r->timeout_s : 60;
}

/* The pipe protocol's numbers (docs/exec-protocol.md): float32 (per input: 1, or 2 for the
 * pairs x, dy of a backward kernel), or for a 16-bit kernel its format's bits (2 bytes) */
struct pipe_io {
    const void *in;
    void *out;
    size_t in_w, out_w; /* bytes per input and per result */
    void *own_in, *own_out;
};

/* The pipe input for x[0..n) (and dy) and room for the results (y itself for float32) */
static int pipe_open(struct pipe_io *p, const struct gl_kernel_src *k, const float *x,
                     const float *dy, float *y, size_t n)
{
    memset(p, 0, sizeof *p);
    p->in = x, p->out = y, p->in_w = (dy ? 2 : 1) * sizeof *x, p->out_w = sizeof *y;
    if (gl_kernel_abi_is16(k->abi)) {
        uint16_t *h = malloc((2 * n + 1) * sizeof *h);
        if (!h) return -1;
        for (size_t i = 0; i < n; i++) h[i] = gl_f32_to_bits16(gl_kernel_abi_format(k->abi), x[i]);
        p->in = p->own_in = h, p->out = p->own_out = h + n, p->in_w = p->out_w = sizeof *h;
    } else if (dy) {
        float *pairs = malloc((2 * n + 1) * sizeof *pairs);
        if (!pairs) return -1;
        gl_pairs_pack(x, dy, pairs, n);
        p->in = p->own_in = pairs;
    }
    return 0;
}

/* The results into y (converted from 16-bit bits), and the buffers freed */
static void pipe_close(struct pipe_io *p, const struct gl_kernel_src *k, float *y, size_t n)
{
    const uint16_t *h = p->own_out;
    for (size_t i = 0; h && i < n; i++) y[i] = gl_bits16_to_f32(gl_kernel_abi_format(k->abi), h[i]);
    free(p->own_in);
}

/* A serving command on x, in *child (kept) or in a child of this call only, with layout lay */
static int call_serving(const struct gl_runner *r, const struct gl_kernel_src *k,
                        struct gl_child *child, const float *x, const float *dy, float *y, size_t n,
                        const struct gl_call_layout *lay, char *why, size_t whylen)
{
    double timeout = timeout_of(r);
    struct gl_child own = gl_child_idle(0), *c = child && (!lay || child->layouts) ? child : &own;
    size_t split = lay && lay->split ? lay->split : n ? n : 1;
    struct pipe_io p;
    if (pipe_open(&p, k, x, dy, y, n) != 0) return snprintf(why, whylen, "out of memory"), -1;
    int many = k->serve_lib[0] != 0; /* a serving library's: requests led by k's arguments */
    uint64_t al = many ? strlen(k->cmd) : 0;
    char *req = many ? malloc(8 + al + p.in_w * (n < split ? n : split) + 1) : NULL;
    int rc = many && !req ? (snprintf(why, whylen, "out of memory"), -1)
             : c->pid < 0 ? gl_child_start(c, many ? k->serve_lib : k->cmd, why, whylen)
                          : 0;
    if (req) memcpy(req, &al, 8), memcpy(req + 8, k->cmd, al);
    for (int rep = 0; rep < (lay && lay->repeat ? 2 : 1); rep++)
        for (size_t i = 0; !rc && i < n; i += split) {
            size_t m = n - i < split ? n - i : split;
            const char *in = (const char *)p.in + p.in_w * i;
            if (req) memcpy(req + 8 + al, in, p.in_w * m), in = req;
            rc = gl_child_call(c, in, (req ? 8 + al : 0) + p.in_w * m, (char *)p.out + p.out_w * i,
                               p.out_w * m, timeout, why, whylen);
        }
    free(req);
    if (c == &own) gl_child_stop(&own);
    pipe_close(&p, k, y, n);
    return rc;
}

/* An external command (cmd: k's, or the library worker's for k) on x, one process per call (per
 * lay->split inputs) */
static int call_exec(const struct gl_runner *r, const struct gl_kernel_src *k, const char *cmd,
                     const float *x, const float *dy, float *y, size_t n,
                     const struct gl_call_layout *lay, char *why, size_t whylen)
{
    double timeout = timeout_of(r);
    size_t split = lay && lay->split ? lay->split : n ? n : 1;
    struct pipe_io p;
    if (pipe_open(&p, k, x, dy, y, n) != 0) return snprintf(why, whylen, "out of memory"), -1;
    int rc = 0;
    for (size_t i = 0; !rc && (i < n || i == 0); i += split) { /* n = 0: one call */
        size_t m = n - i < split ? n - i : split;
        rc = gl_run_child(cmd, (const char *)p.in + p.in_w * i, p.in_w * m,
                          (char *)p.out + p.out_w * i, p.out_w * m, timeout, why, whylen);
    }
    pipe_close(&p, k, y, n);
    return rc;
}

int gl_kernel_call(const struct gl_runner *r, const struct gl_kernel_src *k, struct gl_child *child,
                   const float *x, const float *dy, float *y, size_t n,
                   const struct gl_call_layout *lay, char *why, size_t whylen)
{
    static const struct gl_call_layout none = {0, 0, 0, 0, 0};
    double timeout = timeout_of(r);
    char cmd[2600];
    if (!k->backward) dy = NULL;
    if (k->backward && !dy) { /* dy = 1: dx = f'(x) */
        float *ones = malloc((n + 1) * sizeof *ones);
        if (!ones) return snprintf(why, whylen, "out of memory"), -1;
        for (size_t i = 0; i < n; i++) ones[i] = 1.0f;
        int rc = gl_kernel_call(r, k, child, x, ones, y, n, lay, why, whylen);
        free(ones);
        return rc;
    }
    if (k->kind == GL_SRC_BUILTIN) return call_builtin(k, x, dy, y, n, lay, why, whylen);
    if (k->kind == GL_SRC_SERVE) return call_serving(r, k, child, x, dy, y, n, lay, why, whylen);
    if (k->kind != GL_SRC_LIB) return call_exec(r, k, k->cmd, x, dy, y, n, lay, why, whylen);
    if (!r || !r->self_exe) return snprintf(why, whylen, "no library worker"), -1;
    if (child && child->layouts) {
        lib_command(r, k, NULL, cmd, sizeof cmd);
        if (child->pid < 0 && gl_child_start(child, cmd, why, whylen) != 0) return -1;
        return gl_child_call_layout(child, x, dy, y, n, lay, timeout, why, whylen);
    }
    if (child && !lay) { /* the worker of k's library (the sweep's: one per library and thread) */
        uint64_t which;
        char shm[8192];
        if (shm_command(r, k, shm, sizeof shm, &which) != 0)
            return snprintf(why, whylen,
                            "not among the runner's peers, or too many from its library"),
                   -1;
        if (child->pid < 0 && gl_child_start_shm(child, shm, why, whylen) != 0) return -1;
        return gl_child_call_shm(child, which, x, dy, y, n, timeout, why, whylen);
    }
    lib_command(r, k, lay ? lay : &none, cmd, sizeof cmd); /* one worker for this call */
    struct gl_kernel_src worker = *k; /* it speaks float32: it converts for a 16-bit kernel */
    worker.abi = GL_KERNEL_F32;
    return call_exec(r, &worker, cmd, x, dy, y, n, NULL, why, whylen);
}

/* an input by value: nan, +inf, -inf, +0, -0 or %a */
static void value_name(float v, char *b, size_t l)
{
    if (isnan(v))
        snprintf(b, l, "nan");
    else if (isinf(v) || v == 0)
        snprintf(b, l, "%s%s", signbit(v) ? "-" : "+", v == 0 ? "0" : "inf");
    else
        snprintf(b, l, "%a", (double)v);
}

/* One try of the narrowing on x[lo, lo + m): 1 when k fails there (the reason in last); the
 * try's time adapts the next try's timeout (four times the longest passing try, at least 1 s,
 * at most the caller's: a hang costs that, not the full --timeout, at each step) */
struct narrowing {
    struct gl_runner t; /* the caller's runner, its timeout the next try's */
    const struct gl_kernel_src *k;
    const struct gl_call_layout *lay;
    float *y;
    double cap, longest; /* cap: the caller's timeout, at most GL_NARROW_TIMEOUT */
    char last[600];
};

static int fails_on(struct narrowing *w, const float *x, const float *dy, size_t m)
{
    char why[600];
    double t0 = gl_monotonic_s();
    if (gl_kernel_call(&w->t, w->k, NULL, x, dy, w->y, m, w->lay, why, sizeof why) != 0)
        return snprintf(w->last, sizeof w->last, "%s", why), 1;
    double d = gl_monotonic_s() - t0;
    if (d > w->longest) w->longest = d;
    w->t.timeout_s = 4 * w->longest > 1 ? 4 * w->longest : 1;
    if (w->t.timeout_s > w->cap) w->t.timeout_s = w->cap;
    return 0;
}

static int stopped(const struct gl_runner *r)
{
    return r->stop && *r->stop;
}

int gl_kernel_narrow(const struct gl_runner *r, const struct gl_kernel_src *k, const float *x,
                     const float *dy, size_t n, const struct gl_call_layout *lay, char *where,
                     size_t len)
{
    where[0] = 0;
    if (k->kind == GL_SRC_BUILTIN || !r || n == 0 || stopped(r)) return -1;
    if (!k->backward) dy = NULL;
    struct narrowing w = {*r,
                          k,
                          lay,
                          malloc(n * sizeof(float)),
                          r->timeout_s < GL_NARROW_TIMEOUT ? r->timeout_s : GL_NARROW_TIMEOUT,
                          0,
                          ""};
    if (!w.y) return -1;
    /* first the whole again, in a fresh process and with the caller's timeout: a failure that
     * needs the worker's earlier state is not narrowed, but said */
    if (!fails_on(&w, x, dy, n)) {
        snprintf(where, len,
                 "nothing: the same %zu inputs pass in a fresh process (the failure "
                 "needs what the worker did before)",
                 n);
        free(w.y);
        return 0;
    }
    w.t.timeout_s = w.cap;
    size_t lo = 0, m = n;
    int whole = 0, found = 0;
    /* first the special inputs alone (NaN, infinities, zeros: the usual culprits), one of each */
    float tried[8];
    int nt = 0;
    for (size_t i = 0; i < n && n > 1 && !found && nt < 8 && !stopped(r); i++) {
        float v = x[i];
        int special = isnan(v) || isinf(v) || v == 0, seen = 0;
        for (int j = 0; j < nt && special; j++)
            seen |= !memcmp(&tried[j], &v, sizeof v) || (isnan(v) && isnan(tried[j]));
        if (!special || seen) continue;
        tried[nt++] = v;
        if (fails_on(&w, x + i, dy ? dy + i : NULL, 1)) lo = i, m = 1, found = 1;
    }
    double give_up = gl_monotonic_s() + 12 * GL_NARROW_TIMEOUT; /* a bound on the whole search */
    while (!found && m > 1 && gl_monotonic_s() < give_up && !stopped(r)) {
        size_t h = m / 2;
        if (fails_on(&w, x + lo, dy ? dy + lo : NULL, h)) {
            m = h;
            continue;
        }
        if (fails_on(&w, x + lo + h, dy ? dy + lo + h : NULL, m - h)) {
            lo += h, m -= h;
            continue;
        }
        whole = 1; /* each half alone passes */
        break;
    }
    char a[64], b[64], d[80] = "";
    value_name(x[lo], a, sizeof a);
    if (dy) value_name(dy[lo], b, sizeof b), snprintf(d, sizeof d, ", dy = %s", b);
    value_name(x[lo + m - 1], b, sizeof b);
    if (m == 1)
        snprintf(where, len, "x = %s%s (n = 1)%s%s", a, d, *w.last ? ": " : "", w.last);
    else
        snprintf(where, len, "the %zu inputs %s .. %s%s%s%s", m, a, b,
                 whole ? " together (each half alone passes)"
                       : " (narrowing stopped: time or interrupt)",
                 *w.last ? ": " : "", w.last);
    free(w.y);
    return 0;
}
