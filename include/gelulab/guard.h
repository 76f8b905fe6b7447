/* gelulab — a kernel's arrays placed against guard pages (docs/design.md, "Kernel ABI").
 *
 * Every call that validate and sweep make of a kernel (the library worker's, and built-ins in
 * process) hands it arrays that lie inside mappings bounded by unmapped pages (PROT_NONE), one
 * before and one after, each array's end (GL_GUARD_END) or start (GL_GUARD_START) against one of
 * them, the rest of the mapping filled with canaries: the output array is filled with the
 * canary too, so an output the kernel leaves unwritten is found. A read or write past either
 * end that reaches a guard page is caught by the SIGSEGV handler (the array, the element index
 * and, on x86-64, read or write), a write that stays in the slack before or after the array by
 * its canaries, a write into the input by comparing it with its copy. Each finding is one line
 * in words: "writes y[17] past the end (n = 17)", "reads x[-1] before the start (n = 5)",
 * "leaves 3 of the n = 7 outputs unwritten (first y[4])", "writes its input x[2] (n = 7)". */
#ifndef GELULAB_GUARD_H
#define GELULAB_GUARD_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

enum gl_guard_place { GL_GUARD_END, GL_GUARD_START };
enum gl_guard_which { GL_GUARD_X, GL_GUARD_DY, GL_GUARD_Y, GL_GUARD_ARRAYS };

/* One array: a mapping [guard page | body | guard page]; p[0..n) handed to the kernel */
struct gl_guard_array {
    unsigned char *map, *body;
    size_t map_bytes, body_bytes;
    unsigned char *p;
    size_t n;
};

/* The arrays of one call (x, dy for a backward kernel, y), reused from call to call */
struct gl_guard {
    struct gl_guard_array a[GL_GUARD_ARRAYS];
    size_t n, es;    /* elements, bytes per element (2, 4 or 8) */
    uint64_t canary; /* the fill: a signaling NaN of the element type */
    int inplace;     /* 0: y apart; 1: y is x; 2: y is dy */
};

/* The placement of one call: n elements of es bytes, each array `gap` bytes from its guard
 * page (0: flush against it; the layouts' offsets move it, the gap holding canaries), ending
 * (GL_GUARD_END) or starting (GL_GUARD_START) there; y written over x or dy. */
struct gl_guard_setup {
    size_t n, es, gap;
    enum gl_guard_place where;
    int inplace, has_dy;
};

/* Places the arrays, copies x (and dy) in and fills the rest with canaries. 0, or -1 out of
 * memory. */
int gl_guard_prepare(struct gl_guard *g, const struct gl_guard_setup *c, const void *x,
                     const void *dy);
void *gl_guard_ptr(struct gl_guard *g, enum gl_guard_which w);
/* Catches a fault on g's guard pages (on any thread) until disarmed: the handler writes the
 * finding as one line to the report descriptor (gl_guard_report_to) and ends the process with
 * status GL_GUARD_EXIT; any other fault goes to the handler installed before (or the default
 * action). */
void gl_guard_arm(const struct gl_guard *g);
void gl_guard_disarm(void);
#define GL_GUARD_EXIT 3
/* In process (validate's calls of a built-in kernel): while env is set, a fault on this
 * thread's armed guard pages jumps to env (siglongjmp, its value 1) with the finding in msg
 * (len bytes at most) instead of ending the process; NULL clears it. */
void gl_guard_escape(sigjmp_buf *env, char *msg, size_t len);
/* The descriptor the handler writes its finding to (default 2), and a prefix for it */
void gl_guard_report_to(int fd, const char *prefix);
/* After the call: 0, or 1 with the finding in why (canaries changed before or after an array,
 * outputs left unwritten, the input changed; x, dy as given to prepare, NULL: not compared) */
int gl_guard_check(const struct gl_guard *g, const void *x, const void *dy, char *why,
                   size_t whylen);
void gl_guard_free(struct gl_guard *g);
/* 1 when why is such a finding (it begins "writes ", "reads ", "touches " or "leaves ") */
int gl_guard_finding(const char *why);

#endif
