/* Kernels in child processes (include/gelulab/runner.h): the external-evaluator pipe protocol
 * (docs/exec-protocol.md) and the shared-library worker. A child that crashes, exits non-zero,
 * returns too few results or outlives its deadline is reported, never trusted. */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gelulab/guard.h"
#include "gelulab/runner.h"

extern char **environ;

double gl_monotonic_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* posix_spawn (vfork-like: no copy of a large parent's page tables), in its own process
 * group so that a hung child is killed with everything it started; extra_fd (>= 0) becomes the
 * child's descriptor 3, diag_fd (>= 0) its descriptor 4 (gl_worker_diag_init). */
static pid_t spawn(const char *cmd, int *to_child, int *from_child, int extra_fd, int diag_fd)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]), close(in[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    if (extra_fd >= 0) posix_spawn_file_actions_adddup2(&fa, extra_fd, 3);
    if (diag_fd >= 0) posix_spawn_file_actions_adddup2(&fa, diag_fd, 4);
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]), close(out[0]);
        errno = rc;
        return -1;
    }
    *to_child = in[1];
    *from_child = out[0];
    fcntl(*to_child, F_SETFL, O_NONBLOCK);
    /* 1 MiB pipes (best effort: an unprivileged process is held to fs/pipe-max-size, 1 MiB by
     * default): a request of 2^20 binary32 values then passes in 4 exchanges, not 64 */
    fcntl(*to_child, F_SETPIPE_SZ, 1 << 20), fcntl(*from_child, F_SETPIPE_SZ, 1 << 20);
    return pid;
}

/* Feeds the input and collects the output until EOF or the deadline (persistent: until cap bytes
 * have come, leaving the pipes open). Returns bytes read, or -1 on timeout. */
static long exchange(int wfd, int rfd, const char *in, size_t in_bytes, char *out, size_t cap,
                     double deadline, int persistent)
{
    size_t sent = 0, got = 0;
    char sink[4096];
    int wopen = wfd >= 0;
    if (wopen && !persistent && in_bytes == 0) close(wfd), wopen = 0; /* nothing to send */
    while (!(persistent && got == cap && sent == in_bytes)) {
        struct pollfd p[2] = {{rfd, POLLIN, 0}, {wfd, POLLOUT, 0}};
        int np = wopen && sent < in_bytes ? 2 : 1;
        int ms = (int)((deadline - gl_monotonic_s()) * 1000);
        if (ms <= 0) return -1;
        if (poll(p, np, ms) <= 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (np == 2 && p[1].revents) {
            ssize_t w = write(wfd, in + sent, in_bytes - sent);
            if (w > 0) sent += (size_t)w;
            if (w < 0 && errno != EAGAIN) sent = in_bytes; /* child closed its stdin */
            if (sent == in_bytes && !persistent) close(wfd), wopen = 0;
        }
        if (p[0].revents) {
            ssize_t r = got < cap ? read(rfd, out + got, cap - got) : read(rfd, sink, sizeof sink);
            if (r == 0) break;
            if (r > 0 && got < cap)
                got += (size_t)r;
            else if (r > 0)
                got = cap + 1; /* more than expected */
        }
    }
    if (wopen && !persistent) close(wfd);
    return (long)got;
}

/* Why a child that ended with `status` (or was killed at its deadline: hung) is not trusted;
 * 0 when it exited normally with the expected output. */
static int child_verdict(int hung, int status, long got, size_t out_bytes, double timeout_s,
                         char *why, size_t whylen)
{
    if (hung) {
        snprintf(why, whylen, "hung (no complete result within %g s; killed)", timeout_s);
    } else if (WIFSIGNALED(status)) {
        snprintf(why, whylen, "crashed (signal %d, %s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else if (WEXITSTATUS(status) > 128 && WEXITSTATUS(status) <= 128 + 64) {
        int sig = WEXITSTATUS(status) - 128; /* how a shell reports a command killed by sig */
        snprintf(why, whylen, "crashed (exit status %d: the shell's report of signal %d, %s)",
                 WEXITSTATUS(status), sig, strsignal(sig));
    } else if (WEXITSTATUS(status) != 0) {
        snprintf(why, whylen, "exited with status %d", WEXITSTATUS(status));
    } else if ((size_t)got != out_bytes) {
        snprintf(why, whylen, "returned %ld bytes for %zu expected", got, out_bytes);
    } else {
        return 0;
    }
    return -1;
}

/* Waits for pid until the deadline; kills its process group if it is still running then.
 * Returns 1 when it had to be killed. */
static int reap(pid_t pid, int *status, double deadline)
{
    pid_t w;
    while ((w = waitpid(pid, status, WNOHANG)) == 0 && gl_monotonic_s() < deadline) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (w != 0) return 0;
    kill(-pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
    }
    return 1;
}

/* After an exchange that got `got` bytes (-1: timed out): waits for the child until the
 * deadline (killing it then, or at once after a timeout) and judges it (child_verdict). */
static int end_child(pid_t pid, long got, size_t out_bytes, double deadline, double timeout_s,
                     char *why, size_t whylen)
{
    int status = 0, hung = got < 0 || reap(pid, &status, deadline);
    if (got < 0) reap(pid, &status, 0);
    return child_verdict(hung, status, got, out_bytes, timeout_s, why, whylen);
}

/* ---- the diagnosis channel: a memfd, the child's descriptor 4, where a library worker says
 * what went wrong in words (a load error, an access outside the arrays) before it ends ---- */

#define DIAG_NAME "gelulab-diag"

/* a descriptor of its own above 4, so that the child's dup2 to 3 and 4 cannot overwrite it */
static int high_fd(int fd)
{
    if (fd < 0 || fd > 4) return fd;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 5);
    close(fd);
    return h;
}

static int diag_create(void)
{
    return high_fd(memfd_create(DIAG_NAME, MFD_CLOEXEC));
}

/* The last line the child wrote to its diagnosis channel, if any, into why (replacing the
 * parent's own account, "crashed (signal 11, ...)"); closes the channel. */
static void diag_take(int *fd, char *why, size_t whylen)
{
    if (*fd < 0) return;
    char b[1024];
    ssize_t n = pread(*fd, b, sizeof b - 1, 0);
    close(*fd), *fd = -1;
    if (n <= 0) return;
    b[n] = 0;
    while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == '\r')) b[--n] = 0;
    char *last = strrchr(b, '\n');
    if (*b) snprintf(why, whylen, "%s", last ? last + 1 : b);
}

static int worker_diag_fd = -1;

void gl_worker_diag_init(void)
{
    char link[64] = "";
    ssize_t n = readlink("/proc/self/fd/4", link, sizeof link - 1);
    if (n > 0 && (link[n] = 0, !strncmp(link, "/memfd:" DIAG_NAME, strlen("/memfd:" DIAG_NAME))))
        worker_diag_fd = 4, gl_guard_report_to(4, "");
}

void gl_worker_say(const char *fmt, ...)
{
    char b[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b - 1, fmt, ap);
    va_end(ap);
    strcat(b, "\n");
    int fd = worker_diag_fd >= 0 ? worker_diag_fd : 2;
    ssize_t w = write(fd, b, strlen(b));
    (void)w;
}

int gl_run_child(const char *cmd, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                 double timeout_s, char *why, size_t whylen)
{
    int wfd, rfd, diag = diag_create();
    pid_t pid = spawn(cmd, &wfd, &rfd, -1, diag);
    if (pid < 0) {
        snprintf(why, whylen, "cannot start it (%s)", strerror(errno));
        if (diag >= 0) close(diag);
        return -1;
    }
    double deadline = gl_monotonic_s() + timeout_s;
    long got = exchange(wfd, rfd, in, in_bytes, out, out_bytes, deadline, 0);
    close(rfd);
    int rc = end_child(pid, got, out_bytes, deadline, timeout_s, why, whylen);
    if (rc) diag_take(&diag, why, whylen);
    if (diag >= 0) close(diag);
    return rc;
}

/* ---- persistent workers: one child for many calls ---- */

int gl_child_start(struct gl_child *c, const char *cmd, char *why, size_t whylen)
{
    c->shm_bytes = 0, c->diag_fd = diag_create();
    c->pid = spawn(cmd, &c->wfd, &c->rfd, -1, c->diag_fd);
    if (c->pid >= 0) return 0;
    if (c->diag_fd >= 0) close(c->diag_fd), c->diag_fd = -1;
    snprintf(why, whylen, "cannot start it (%s)", strerror(errno));
    return -1;
}

int gl_child_start_shm(struct gl_child *c, const char *cmd, char *why, size_t whylen)
{
    c->shm_fd = high_fd(memfd_create("gelulab-worker", MFD_CLOEXEC));
    c->shm = NULL, c->shm_bytes = 1 << 16; /* its size, not mapped yet */
    if (c->shm_fd < 0 || ftruncate(c->shm_fd, (off_t)c->shm_bytes) != 0) {
        snprintf(why, whylen, "cannot create its shared memory (%s)", strerror(errno));
        if (c->shm_fd >= 0) close(c->shm_fd);
        c->shm_bytes = 0;
        return -1;
    }
    c->diag_fd = diag_create();
    c->pid = spawn(cmd, &c->wfd, &c->rfd, c->shm_fd, c->diag_fd);
    if (c->pid >= 0) return 0;
    snprintf(why, whylen, "cannot start it (%s)", strerror(errno));
    if (c->diag_fd >= 0) close(c->diag_fd), c->diag_fd = -1;
    close(c->shm_fd);
    c->shm_bytes = 0;
    return -1;
}

/* the child's shared memory: at least `bytes`, mapped here */
static int shm_reserve(struct gl_child *c, size_t bytes)
{
    if (c->shm && bytes <= c->shm_bytes) return 0;
    if (c->shm) munmap(c->shm, c->shm_bytes), c->shm = NULL;
    if (bytes < c->shm_bytes) bytes = c->shm_bytes;
    if (ftruncate(c->shm_fd, (off_t)bytes) != 0) return -1;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm_fd, 0);
    if (p == MAP_FAILED) return -1;
    c->shm = p, c->shm_bytes = bytes;
    return 0;
}

static void shm_release(struct gl_child *c)
{
    if (!c->shm_bytes) return; /* not a worker over shared memory */
    if (c->shm) munmap(c->shm, c->shm_bytes);
    close(c->shm_fd);
    c->shm = NULL, c->shm_bytes = 0;
}

/* After a call that did not get its answer: the child is gone or hung; why it is not trusted */
static void child_failed(struct gl_child *c, long got, size_t out_bytes, double deadline,
                         double timeout_s, char *why, size_t whylen)
{
    close(c->wfd), close(c->rfd);
    c->wfd = c->rfd = -1;
    end_child(c->pid, got, out_bytes, deadline, timeout_s, why, whylen);
    diag_take(&c->diag_fd, why, whylen);
    c->pid = -1;
    shm_release(c);
}

/* One request to a persistent child: the uint64 count, then in_bytes of input; waits for exactly
 * out_bytes. 0, or -1 after ending the child with the reason in why. The 8-byte count fits an
 * empty pipe at once (the last call's input was all read); a child that is gone shows as EOF in
 * the exchange. */
static int child_request(struct gl_child *c, uint64_t count, const void *in, size_t in_bytes,
                         void *out, size_t out_bytes, double timeout_s, char *why, size_t whylen)
{
    double deadline = gl_monotonic_s() + timeout_s;
    if (write(c->wfd, &count, sizeof count) != (ssize_t)sizeof count) count = 0;
    long got = count ? exchange(c->wfd, c->rfd, in, in_bytes, out, out_bytes, deadline, 1) : 0;
    if (got == (long)out_bytes) return 0;
    child_failed(c, got, out_bytes, deadline, timeout_s, why, whylen);
    return -1;
}

int gl_child_call_shm(struct gl_child *c, uint64_t which, const float *x, const float *dy, float *y,
                      size_t n, double timeout_s, char *why, size_t whylen)
{
    size_t arrays = dy ? 3 : 2; /* x (dy) y */
    if (shm_reserve(c, arrays * (n ? n : 1) * sizeof *x) != 0) {
        snprintf(why, whylen, "cannot map its shared memory (%s)", strerror(errno));
        return -1;
    }
    float *in = c->shm, *out = in + (arrays - 1) * n;
    memcpy(in, x, n * sizeof *x);
    if (dy) memcpy(in + n, dy, n * sizeof *dy);
    uint64_t ack = 0;
    if (child_request(c, n, &which, sizeof which, &ack, sizeof ack, timeout_s, why, whylen) != 0)
        return -1;
    if (ack != n) { /* an answer for another request: not trusted */
        child_failed(c, 0, sizeof ack, gl_monotonic_s() + timeout_s, timeout_s, why, whylen);
        return -1;
    }
    memcpy(y, out, n * sizeof *y);
    return 0;
}

int gl_child_call(struct gl_child *c, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                  double timeout_s, char *why, size_t whylen)
{
    return child_request(c, in_bytes, in, in_bytes, out, out_bytes, timeout_s, why, whylen);
}

void gl_child_stop(struct gl_child *c)
{
    if (c->pid < 0) return;
    int status;
    close(c->wfd), close(c->rfd);
    reap(c->pid, &status, gl_monotonic_s() + 10);
    if (c->diag_fd >= 0) close(c->diag_fd), c->diag_fd = -1;
    c->pid = -1;
    shm_release(c);
}

void gl_pairs_pack(const float *x, const float *dy, float *pairs, size_t n)
{
    for (size_t i = 0; i < n; i++) pairs[2 * i] = x[i], pairs[2 * i + 1] = dy[i];
}

int gl_lib_kernel_guarded(const struct gl_lib_kernel *k, struct gl_guard *g,
                          const struct gl_guard_setup *c, const void *xin, const void *din,
                          size_t split, int repeat, char *why, size_t whylen)
{
    if (gl_guard_prepare(g, c, xin, din) != 0) return -1;
    unsigned char *x = gl_guard_ptr(g, GL_GUARD_X), *y = gl_guard_ptr(g, GL_GUARD_Y);
    float *dy = gl_guard_ptr(g, GL_GUARD_DY);
    size_t es = g->es, n = c->n;
    gl_guard_arm(g);
    for (int rep = 0; rep < (repeat ? 2 : 1); rep++)
        for (size_t i = 0; i < n || i == 0; i += split) { /* n = 0: one call */
            size_t m = n - i < split ? n - i : split;
            const void *xi = x + es * i;
            void *yi = y + es * i;
            if (k->u16)
                k->u16(xi, yi, m);
            else if (k->bwd)
                k->bwd(xi, dy + i, yi, m);
            else if (k->f64)
                k->f64(xi, yi, m);
            else
                k->fwd(xi, yi, m);
        }
    gl_guard_disarm();
    return gl_guard_check(g, xin, din, why, whylen) ? 1 : 0;
}

int gl_lib_kernel_layout(const struct gl_lib_kernel *k, const float *x, const float *dy,
                         size_t stride, float *y, size_t n, const struct gl_call_layout *lay,
                         char *why, size_t whylen)
{
    static _Thread_local struct gl_guard g; /* the guarded arrays, kept from call to call */
    enum gl_format_id f = gl_kernel_abi_format(k->abi);
    size_t es = k->u16 ? 2 : 4, off = lay ? lay->offset : 0,
           split = lay && lay->split ? lay->split
                   : n               ? n
                                     : 1;
    /* the inputs as the kernel takes them (16-bit bits, or floats gathered from stride), in a
     * buffer kept from call to call (a fault in process jumps out of this call: gl_guard_escape) */
    static _Thread_local unsigned char *own;
    static _Thread_local size_t own_bytes;
    const void *xin = x, *din = k->bwd ? dy : NULL;
    if (k->u16 || stride != 1) {
        if (own_bytes < 2 * n * sizeof(float) + 1) {
            unsigned char *grown = realloc(own, 2 * n * sizeof(float) + 1);
            if (!grown) return -1;
            own = grown, own_bytes = 2 * n * sizeof(float) + 1;
        }
        unsigned char *b = own;
        float *bx = (float *)(void *)b, *bd = bx + n;
        uint16_t *bh = (uint16_t *)(void *)b;
        for (size_t i = 0; i < n; i++) {
            if (k->u16)
                bh[i] = gl_f32_to_bits16(f, x[stride * i]);
            else
                bx[i] = x[stride * i];
            if (k->bwd) bd[i] = dy[stride * i];
        }
        xin = b, din = k->bwd ? bd : NULL;
    }
    struct gl_guard_setup c = {n,
                               es,
                               off * es,
                               lay ? (enum gl_guard_place)lay->place : GL_GUARD_END,
                               lay ? lay->inplace : 0,
                               k->bwd != NULL};
    if (c.inplace == 2 && !k->bwd) c.inplace = 1;
    int rc = gl_lib_kernel_guarded(k, &g, &c, xin, din, split, lay && lay->repeat, why, whylen);
    if (rc < 0) return -1;
    const void *out = gl_guard_ptr(&g, GL_GUARD_Y);
    if (k->u16)
        for (size_t i = 0; i < n; i++) y[i] = gl_bits16_to_f32(f, ((const uint16_t *)out)[i]);
    else
        memcpy(y, out, n * sizeof *y);
    return rc;
}

/* After a guarded call's result rc (gl_lib_kernel_layout): the worker's exit status, having
 * said why on its diagnosis channel, or 0 to go on */
static int worker_verdict(int rc, const char *why)
{
    if (rc == 0) return 0;
    if (rc < 0) return gl_worker_say("out of memory"), 2;
    gl_worker_say("%s", why);
    return GL_GUARD_EXIT;
}

/* k on the n inputs `in` (a backward kernel: n pairs x, dy) with layout lay (NULL: one plain
 * call), the results written to stdout */
static int call_with_layout(const struct gl_lib_kernel *k, const float *in, size_t n,
                            const struct gl_call_layout *lay)
{
    float *y = malloc((n + 1) * sizeof *y);
    char why[300];
    if (!y) return 2;
    int rc = worker_verdict(
        gl_lib_kernel_layout(k, in, in + 1, k->bwd ? 2 : 1, y, n, lay, why, sizeof why), why);
    if (rc) return free(y), rc;
    int ok = fwrite(y, sizeof *y, n, stdout) == n && fflush(stdout) == 0;
    free(y);
    return ok ? 0 : 1;
}

int gl_eval_lib_main(const struct gl_lib_kernel *k, const struct gl_call_layout *lay)
{
    size_t n = 0, cap = 1 << 16;
    float *x = malloc(cap * sizeof *x);
    size_t r;
    while (x && (r = fread(x + n, sizeof *x, cap - n, stdin)) > 0) {
        n += r;
        if (n == cap) x = realloc(x, (cap *= 2) * sizeof *x);
    }
    if (x && k->bwd && n % 2) {
        fprintf(stderr, "gelulab: a backward kernel's input is pairs x, dy: %zu floats\n", n);
        return free(x), 2;
    }
    int rc = x ? call_with_layout(k, x, k->bwd ? n / 2 : n, lay) : 2;
    free(x);
    return rc;
}

/* a request of the layout-serving worker: after the byte count, the layout, then the inputs */
struct layout_header {
    uint32_t offset, split, inplace, repeat, place;
};

int gl_eval_lib_serve_layouts(const struct gl_lib_kernel *k)
{
    uint64_t len;
    size_t per = k->bwd ? 2 * sizeof(float) : sizeof(float);
    while (fread(&len, sizeof len, 1, stdin) == 1) {
        struct layout_header h;
        if (len < sizeof h || fread(&h, sizeof h, 1, stdin) != 1) return 2;
        size_t n = (size_t)((len - sizeof h) / per);
        float *x = malloc(n * per + 1);
        if (!x || fread(x, per, n, stdin) != n) return free(x), 2;
        struct gl_call_layout lay = {h.offset, h.split, (int)h.inplace, (int)h.repeat,
                                     (int)h.place};
        int rc = call_with_layout(k, x, n, &lay);
        free(x);
        if (rc) return rc;
        /* n after the results: an answer even to a request of no inputs, so that a kernel
         * that fails on n = 0 fails this request, not the next */
        uint64_t ack = n;
        if (fwrite(&ack, sizeof ack, 1, stdout) != 1 || fflush(stdout) != 0) return 1;
    }
    return 0;
}

int gl_child_call_layout(struct gl_child *c, const float *x, const float *dy, float *y, size_t n,
                         const struct gl_call_layout *lay, double timeout_s, char *why,
                         size_t whylen)
{
    struct layout_header h = {0, 0, 0, 0, 0};
    if (lay)
        h = (struct layout_header){(uint32_t)lay->offset, (uint32_t)lay->split,
                                   (uint32_t)lay->inplace, (uint32_t)lay->repeat,
                                   (uint32_t)lay->place};
    size_t in_bytes = (dy ? 2 : 1) * n * sizeof *x;
    unsigned char *req = malloc(sizeof h + in_bytes);
    if (!req) return snprintf(why, whylen, "out of memory"), -1;
    memcpy(req, &h, sizeof h);
    if (dy)
        gl_pairs_pack(x, dy, (float *)(void *)(req + sizeof h), n);
    else
        memcpy(req + sizeof h, x, in_bytes);
    /* the answer: n results, then n (uint64) */
    float *out = malloc(n * sizeof *y + sizeof(uint64_t));
    int rc = !out ? (snprintf(why, whylen, "out of memory"), -1)
                  : gl_child_call(c, req, sizeof h + in_bytes, out,
                                  n * sizeof *y + sizeof(uint64_t), timeout_s, why, whylen);
    free(req);
    uint64_t ack = 0;
    if (!rc) memcpy(&ack, out + n, sizeof ack);
    if (!rc && ack != n) { /* an answer for another request: not trusted (as over shm) */
        child_failed(c, 0, sizeof ack, gl_monotonic_s() + timeout_s, timeout_s, why, whylen);
        rc = -1;
    }
    if (!rc) memcpy(y, out, n * sizeof *y);
    free(out);
    return rc;
}

/* whole reads and writes of a small message on a descriptor */
static int read_full(int fd, void *p, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)p + got, n - got);
        if (r <= 0 && !(r < 0 && errno == EINTR)) return -1;
        if (r > 0) got += (size_t)r;
    }
    return 0;
}

static int write_full(int fd, const void *p, size_t n)
{
    for (size_t put = 0; put < n;) {
        ssize_t w = write(fd, (const char *)p + put, n - put);
        if (w <= 0 && !(w < 0 && errno == EINTR)) return -1;
        if (w > 0) put += (size_t)w;
    }
    return 0;
}

int gl_eval_lib_serve_shm(const struct gl_lib_kernel *ks, size_t nk, int fd)
{
    float *map = NULL;
    size_t mapped = 0;
    uint64_t req[2]; /* n, and which of the kernels */
    while (read_full(0, req, sizeof req) == 0) {
        uint64_t n = req[0];
        if (req[1] >= nk) {
            fprintf(stderr, "gelulab: a request for kernel %llu of %zu\n",
                    (unsigned long long)req[1], nk);
            return 2;
        }
        const struct gl_lib_kernel *k = &ks[req[1]];
        size_t arrays = k->bwd ? 3 : 2, bytes = arrays * (n ? n : 1) * sizeof(float);
        if (bytes > mapped) {
            struct stat st;
            if (map) munmap(map, mapped), map = NULL;
            if (fstat(fd, &st) != 0 || (size_t)st.st_size < bytes) {
                fprintf(stderr, "gelulab: the shared memory holds no request of %llu inputs\n",
                        (unsigned long long)n);
                return 2;
            }
            mapped = (size_t)st.st_size;
            map = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (map == MAP_FAILED) return perror("gelulab: mmap"), 2;
        }
        char why[300];
        float *out = map + (arrays - 1) * n;
        int rc = worker_verdict(
            gl_lib_kernel_layout(k, map, k->bwd ? map + n : NULL, 1, out, n, NULL, why, sizeof why),
            why);
        if (rc) return munmap(map, mapped), rc;
        if (write_full(1, &n, sizeof n) != 0) return 1;
    }
    return 0;
}
