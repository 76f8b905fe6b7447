/* gelulab — validation of one kernel (gelulab validate): the engine's sweep against bounds, plus
 * probes for the bugs kernel authors hit: special values, cancellation in the negative tail, a
 * definition other than the one claimed, precision lost through a narrower format, results that
 * depend on length, position, in-place use or the call; for a 16-bit kernel, over all 65 536
 * inputs of its format, NaN handling, truncation, double rounding, flushed subnormals. Library
 * kernels run in child processes (a crash or hang is an error naming the inputs); built-ins in
 * process. */
#ifndef GELULAB_VALIDATE_H
#define GELULAB_VALIDATE_H

#include "gelulab/sweep.h"

enum gl_check_status { GL_CHECK_PASS, GL_CHECK_WARN, GL_CHECK_FAIL, GL_CHECK_SKIP };

struct gl_check {
    const char *name; /* "memory", "max-ulp", "max-abs", "nonfinite", "range", "specials", "tail",
                         "definition", "precision", "layout"; backward kernels "max-scaled",
                         "dy"; 16-bit kernels "nan", "rounding", "subnormal" */
    enum gl_check_status status;
    char text[600]; /* plain words, worst inputs as C %a */
};

#define GL_MAX_CHECKS 16

struct gl_validation {
    struct gl_check c[GL_MAX_CHECKS];
    int n;
    int crashed;        /* the kernel crashed or hung in a probe: c[] says where */
    double defn_ulp[4]; /* max error on the core sample against exact, tanh, sigmoid, silu: abs
                           (binary32 forward), scaled (backward) or ULP of the format (16-bit) */
};

/* The memory check, first of all (a kernel that reads or writes outside its arrays makes every
 * other figure meaningless): calls of lengths 0..1003 on arrays against guard pages
 * (include/gelulab/guard.h), apart and in place; a --lib kernel in its worker, a built-in in
 * process, an external evaluator not at all (SKIP). Appends the check "memory" to v: 0 pass,
 * 1 a finding (reads or writes past an end, outputs unwritten, the input changed: FAIL), -1 the
 * kernel crashed or hung otherwise (v says where, narrowed to the inputs).
 * ch: the caller's layout-serving worker (gl_child_idle(1) at first; started on the first
 * call, stopped after a failure), which gl_validate_probes may go on using: a library's
 * start-up (PyTorch's, most of a second) once for both; the caller stops it (gl_child_stop). */
int gl_validate_memory(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                       struct gl_validation *v);
/* The probes (everything but the sweep's bounds and the memory check), appended to v, their
 * calls in worker ch as above; region_all: tail cancellation fails (instead of warning) when
 * bounds apply to every input. 0, or -1 when the kernel crashed or hung (v says where). */
int gl_validate_probes(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                       int region_all, struct gl_validation *v);
/* The bounds on the sweep's figures for kernel k (res->acc[0], in fmt), appended to v: "max-ulp"
 * (--max-ulp 0.5: correctly rounded, every result equal to the correctly rounded reference, and how
 * many are not), "max-scaled" (a backward kernel: ulps of 1, the root included), "max-abs",
 * "nonfinite"; on the core [-5, 5], or every input with region_all (a backward kernel's ULP
 * bound: outside the root region). */
void gl_validate_bounds(const struct gl_kernel_src *k, const struct gl_kernel_result *res,
                        const struct gl_format *fmt, double max_ulp, double max_abs, int region_all,
                        struct gl_validation *v);
/* "range", appended to v: the results' sign and |y| <= |x| over every swept input (a backward
 * kernel: the sign of f', a warning when wrong only next to its zero) */
void gl_validate_range(const struct gl_kernel_src *k, const struct gl_kernel_result *res,
                       struct gl_validation *v);

#endif
