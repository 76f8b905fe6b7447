/* A kernel's arrays against guard pages (include/gelulab/guard.h). */
#include "gelulab/guard.h"
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* bytes checked on each side of an array (besides its guard page) */
#define WINDOW 256

static size_t page_size(void)
{
    static size_t p;
    if (!p) p = (size_t)sysconf(_SC_PAGESIZE);
    return p;
}

/* The canary of each element size: a signaling NaN (binary16's for 2 bytes: a bfloat16 kernel
 * given a NaN input may pass it through, and only that input's result can equal it) */
static uint64_t canary_of(size_t es)
{
    return es == 2 ? 0x7da5u : es == 4 ? 0x7fa5c3e1u : 0x7ff5a5c3e1a5c3e1u;
}

static const char *const array_name[GL_GUARD_ARRAYS] = {"x", "dy", "y"};

/* the canary's byte at address a of an array whose elements start at p (element sizes are 2, 4
 * or 8 bytes: the byte's place in its element is the offset's low bits, before p too) */
static unsigned char canary_byte(const struct gl_guard *g, const unsigned char *a,
                                 const unsigned char *p)
{
    size_t k = (size_t)(a - p) & (g->es - 1);
    return (unsigned char)(g->canary >> (8 * k)); /* little-endian element bytes */
}

/* the bytes [lo, hi) checked beside array a: the windows before and after it */
static void window(const struct gl_guard *g, const struct gl_guard_array *a, int after,
                   unsigned char **lo, unsigned char **hi)
{
    unsigned char *end = a->body + a->body_bytes, *e = a->p + a->n * g->es;
    if (after)
        *lo = e, *hi = end - e > WINDOW ? e + WINDOW : end;
    else
        *lo = a->p - a->body > WINDOW ? a->p - WINDOW : a->body, *hi = a->p;
}

static int place(struct gl_guard_array *a, const struct gl_guard_setup *c)
{
    size_t pg = page_size(), bytes = c->n * c->es,
           body = (bytes + c->gap + 2 * WINDOW + pg - 1) / pg * pg;
    if (a->body_bytes < body) {
        if (a->map) munmap(a->map, a->map_bytes);
        a->map = mmap(NULL, body + 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (a->map == MAP_FAILED) return a->map = NULL, a->body_bytes = 0, -1;
        a->map_bytes = body + 2 * pg, a->body = a->map + pg, a->body_bytes = body;
        if (mprotect(a->body, body, PROT_READ | PROT_WRITE) != 0) {
            munmap(a->map, a->map_bytes);
            a->map = NULL, a->body = NULL, a->body_bytes = a->map_bytes = 0;
            return -1;
        }
    }
    a->p = c->where == GL_GUARD_START ? a->body + c->gap : a->body + a->body_bytes - bytes - c->gap;
    a->n = c->n;
    return 0;
}

/* the canary's 8 bytes from address a on, of an array whose elements start at p: the element's
 * canary repeated (es divides 8), turned to a's place in its element (a - p may be negative) */
static uint64_t canary_word(const struct gl_guard *g, const unsigned char *a,
                            const unsigned char *p)
{
    uint64_t w = g->es == 2   ? (g->canary & 0xffff) * 0x0001000100010001u
                 : g->es == 4 ? (g->canary & 0xffffffff) * 0x0000000100000001u
                              : g->canary;
    unsigned k = (unsigned)((size_t)(a - p) & 7);
    return k ? w >> 8 * k | w << (64 - 8 * k) : w; /* little-endian: byte k first */
}

/* whether the bytes [lo, hi) beside array a all hold the canary: 8 bytes at a time (the
 * windows are checked after every call; the byte that differs is looked for only when one does) */
static int window_intact(const struct gl_guard *g, const struct gl_guard_array *a,
                         const unsigned char *lo, const unsigned char *hi)
{
    uint64_t w = canary_word(g, lo, a->p), diff = 0;
    const unsigned char *b = lo;
    for (uint64_t v; b + 8 <= hi; b += 8) memcpy(&v, b, 8), diff |= v ^ w;
    for (; b < hi; b++) diff |= *b ^ canary_byte(g, b, a->p);
    return diff == 0;
}

/* n elements of es bytes at p set to the canary: typed loops (the output of every call) */
static void fill_elems(unsigned char *p, size_t n, size_t es, uint64_t canary)
{
    if (es == 2) {
        uint16_t c = (uint16_t)canary, *q = (uint16_t *)(void *)p;
        for (size_t i = 0; i < n; i++) q[i] = c;
    } else if (es == 4) {
        uint32_t c = (uint32_t)canary, *q = (uint32_t *)(void *)p;
        for (size_t i = 0; i < n; i++) q[i] = c;
    } else {
        for (size_t i = 0; i < n; i++) memcpy(p + 8 * i, &canary, 8);
    }
}

/* the index of the first element of p[0..n) equal to the canary, from i on, or n */
static size_t find_canary(const unsigned char *p, size_t n, size_t es, uint64_t canary, size_t i)
{
    if (es == 2) {
        const uint16_t c = (uint16_t)canary, *q = (const uint16_t *)(const void *)p;
        while (i < n && q[i] != c) i++;
    } else if (es == 4) {
        const uint32_t c = (uint32_t)canary, *q = (const uint32_t *)(const void *)p;
        while (i < n && q[i] != c) i++;
    } else {
        for (uint64_t v; i < n && (memcpy(&v, p + 8 * i, 8), v != canary);) i++;
    }
    return i;
}

/* whether any element of p[0..n) equals the canary: 16 bytes at a time with no early exit,
 * kept in vector registers (every call's outputs are checked; which elements, find_canary says
 * when one does) */
#define ANY_CANARY(T, VT, VM)                                                                      \
    do {                                                                                           \
        typedef T VT __attribute__((vector_size(16)));                                             \
        typedef VM VM##v __attribute__((vector_size(16)));                                         \
        VT c;                                                                                      \
        VM##v hit = {0};                                                                           \
        for (size_t l = 0; l < 16 / sizeof(T); l++) c[l] = (T)canary;                              \
        for (; i + 16 / sizeof(T) <= n; i += 16 / sizeof(T)) {                                     \
            VT v;                                                                                  \
            memcpy(&v, p + i * sizeof(T), 16);                                                     \
            hit |= v == c;                                                                         \
        }                                                                                          \
        for (size_t l = 0; l < 16 / sizeof(T); l++) any |= hit[l] != 0;                            \
    } while (0)
static int any_canary(const unsigned char *p, size_t n, size_t es, uint64_t canary)
{
    size_t i = 0;
    int any = 0;
    if (es == 2)
        ANY_CANARY(uint16_t, V16, int16_t);
    else if (es == 4)
        ANY_CANARY(uint32_t, V32, int32_t);
    else
        ANY_CANARY(uint64_t, V64, int64_t);
    return any || find_canary(p, n, es, canary, i) < n;
}
#undef ANY_CANARY

static void fill(const struct gl_guard *g, const struct gl_guard_array *a, unsigned char *lo,
                 unsigned char *hi)
{
    uint64_t w = canary_word(g, lo, a->p); /* 8 bytes on, the same bytes again */
    unsigned char *b = lo;
    for (; b + 8 <= hi; b += 8) memcpy(b, &w, 8);
    for (; b < hi; b++) *b = canary_byte(g, b, a->p);
}

int gl_guard_prepare(struct gl_guard *g, const struct gl_guard_setup *c, const void *x,
                     const void *dy)
{
    g->n = c->n, g->es = c->es, g->canary = canary_of(c->es), g->inplace = c->inplace;
    for (int w = 0; w < GL_GUARD_ARRAYS; w++) {
        struct gl_guard_array *a = &g->a[w];
        if ((w == GL_GUARD_DY && !c->has_dy) || (w == GL_GUARD_Y && c->inplace)) {
            a->n = 0, a->p = NULL;
            continue;
        }
        if (place(a, c) != 0) return -1;
        unsigned char *lo, *hi;
        for (int side = 0; side < 2; side++) window(g, a, side, &lo, &hi), fill(g, a, lo, hi);
        const void *src = w == GL_GUARD_X ? x : w == GL_GUARD_DY ? dy : NULL;
        if (src)
            memcpy(a->p, src, c->n * c->es);
        else if (w == GL_GUARD_Y)
            fill_elems(a->p, c->n, c->es, g->canary);
    }
    return 0;
}

void *gl_guard_ptr(struct gl_guard *g, enum gl_guard_which w)
{
    if (w == GL_GUARD_Y && g->inplace) w = g->inplace == 2 ? GL_GUARD_DY : GL_GUARD_X;
    return g->a[w].p;
}

/* ---- the fault handler: async-signal-safe formatting into a fixed buffer ---- */

/* the armed arrays: this thread's, and the process's (a library may run the kernel on threads
 * of its own: a fault there is named too) */
static _Thread_local const struct gl_guard *armed;
static const struct gl_guard *volatile armed_any;
static int report_fd = 2;
static char report_prefix[64];
/* in process (gl_guard_escape): where the handler jumps with the finding instead of ending */
static _Thread_local sigjmp_buf *escape;
static _Thread_local char *escape_msg;
static _Thread_local size_t escape_len;
static struct sigaction previous[2]; /* SIGSEGV's and SIGBUS's handlers before ours */
static volatile sig_atomic_t installed;

struct line {
    char b[240];
    size_t n;
};

static void put(struct line *l, const char *s)
{
    while (*s && l->n < sizeof l->b - 1) l->b[l->n++] = *s++;
}

static void put_num(struct line *l, long long v)
{
    char d[24];
    int k = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do d[k++] = (char)('0' + u % 10), u /= 10;
    while (u);
    if (v < 0) put(l, "-");
    while (k) {
        char s[2] = {d[--k], 0};
        put(l, s);
    }
}

/* The element at byte offset d from an array's start, rounded down (d < 0: before it) */
static long long elem_index(ptrdiff_t d, size_t es)
{
    ptrdiff_t m = (ptrdiff_t)es;
    return d >= 0 ? d / m : -((-d + m - 1) / m);
}

/* "writes y[17] past the end (n = 17)": what touching element `index` of array w means */
static void describe(struct line *l, const struct gl_guard *g, int w, int write, long long index)
{
    int as_y = write && g->inplace &&
               ((g->inplace == 1 && w == GL_GUARD_X) || (g->inplace == 2 && w == GL_GUARD_DY));
    put(l, write < 0 ? "touches " : write ? "writes " : "reads ");
    put(l, as_y ? "y" : array_name[w]);
    put(l, "[");
    put_num(l, index);
    put(l, index < 0 ? "] before the start (n = " : "] past the end (n = ");
    put_num(l, (long long)g->n);
    put(l, g->inplace ? "; in place)" : ")");
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    const struct gl_guard *g = armed ? armed : armed_any;
    unsigned char *addr = si->si_addr;
    for (int w = 0; g && w < GL_GUARD_ARRAYS; w++) {
        const struct gl_guard_array *a = &g->a[w];
        if (!a->p || addr < a->map || addr >= a->map + a->map_bytes ||
            (addr >= a->body && addr < a->body + a->body_bytes))
            continue;
        int is_write = -1; /* unknown */
#if defined(__x86_64__)
        is_write = (((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0; /* page fault */
#else
        (void)ctx;
#endif
        long long index = elem_index(addr - a->p, g->es);
        struct line l = {{0}, 0};
        if (escape && g == armed) { /* in process, in the thread that called: back to it */
            describe(&l, g, w, is_write, index);
            size_t k = 0;
            for (; k + 1 < escape_len && k < l.n; k++) escape_msg[k] = l.b[k];
            if (escape_len) escape_msg[k] = 0;
            siglongjmp(*escape, 1);
        }
        put(&l, report_prefix);
        describe(&l, g, w, is_write, index);
        put(&l, "\n");
        ssize_t r = write(report_fd, l.b, l.n);
        (void)r;
        _exit(GL_GUARD_EXIT);
    }
    /* not ours: the handler before ours takes it, as if this one were not there (a fault
     * recurs when this returns; a signal sent, not a fault, is sent again) */
    sigaction(sig, &previous[sig == SIGBUS], NULL);
    installed = 0;
    if (si->si_code <= 0) raise(sig);
}

static void install(void)
{
    if (installed) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous[0]);
    sigaction(SIGBUS, &sa, &previous[1]);
    installed = 1;
}

void gl_guard_arm(const struct gl_guard *g)
{
    install();
    armed = g, armed_any = g;
}

void gl_guard_disarm(void)
{
    armed = NULL, armed_any = NULL;
}

void gl_guard_escape(sigjmp_buf *env, char *msg, size_t len)
{
    escape = env, escape_msg = msg, escape_len = msg ? len : 0;
}

void gl_guard_report_to(int fd, const char *prefix)
{
    report_fd = fd;
    snprintf(report_prefix, sizeof report_prefix, "%s", prefix ? prefix : "");
}

/* ---- after the call ---- */

/* element bits i of an array of es-byte elements */
static uint64_t elem(const unsigned char *p, size_t es, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, p + i * es, es);
    return v;
}

/* a NaN of the element type (2 bytes: of binary16 or bfloat16, whichever the bits are) */
static int is_nan_bits(uint64_t v, size_t es)
{
    return es == 2   ? (v & 0x7fffu) > 0x7c00u
           : es == 4 ? (v & 0x7fffffffu) > 0x7f800000u
                     : (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

int gl_guard_check(const struct gl_guard *g, const void *x, const void *dy, char *why,
                   size_t whylen)
{
    for (int w = 0; w < GL_GUARD_ARRAYS; w++) { /* canaries beside each array */
        const struct gl_guard_array *a = &g->a[w];
        if (!a->p) continue;
        for (int side = 0; side < 2; side++) {
            unsigned char *lo, *hi, *b;
            window(g, a, side, &lo, &hi);
            if (window_intact(g, a, lo, hi)) continue;
            b = side ? lo : hi - 1; /* the changed byte nearest the array */
            while (b >= lo && b < hi && *b == canary_byte(g, b, a->p)) b += side ? 1 : -1;
            if (b < lo || b >= hi) continue;
            struct line l = {{0}, 0};
            describe(&l, g, w, 1, elem_index(b - a->p, g->es));
            snprintf(why, whylen, "%s", l.b);
            return 1;
        }
    }
    const unsigned char *xs[2] = {x, dy};
    for (int w = 0; w < 2; w++) { /* the inputs, unless the results went over them */
        const struct gl_guard_array *a = &g->a[w];
        if (!xs[w] || !a->p || g->inplace == w + 1 || !memcmp(a->p, xs[w], g->n * g->es)) continue;
        size_t i = 0;
        while (elem(a->p, g->es, i) == elem(xs[w], g->es, i)) i++;
        return snprintf(why, whylen, "writes its input %s[%zu] (n = %zu)", array_name[w], i, g->n),
               1;
    }
    const struct gl_guard_array *y = &g->a[GL_GUARD_Y];
    if (g->inplace || !y->p) return 0; /* in place, an unwritten output is its input */
    if (!any_canary(y->p, g->n, g->es, g->canary)) return 0;
    size_t first = 0, count = 0;
    for (size_t i = find_canary(y->p, g->n, g->es, g->canary, 0); i < g->n;
         i = find_canary(y->p, g->n, g->es, g->canary, i + 1))
        if (!(x && is_nan_bits(elem((const unsigned char *)x, g->es, i), g->es)))
            first = count++ ? first : i;
    if (!count) return 0;
    snprintf(why, whylen, "leaves %zu of the n = %zu outputs unwritten (first y[%zu])", count, g->n,
             first);
    return 1;
}

void gl_guard_free(struct gl_guard *g)
{
    for (int w = 0; w < GL_GUARD_ARRAYS; w++)
        if (g->a[w].map) munmap(g->a[w].map, g->a[w].map_bytes);
    memset(g, 0, sizeof *g);
}

int gl_guard_finding(const char *why)
{
    static const char *const verbs[] = {"writes ", "reads ", "touches ", "leaves "};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (!strncmp(why, verbs[i], strlen(verbs[i]))) return 1;
    return 0;
}
