/* Kernel validation probes (include/gelulab/validate.h). Each probe calls the kernel on a small
 * deterministic input set and compares with the reference or with another call of itself. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/metrics.h"
#include "gelulab/validate.h"

static struct gl_check *add(struct gl_validation *v, const char *name, enum gl_check_status st,
                            const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static struct gl_check *add(struct gl_validation *v, const char *name, enum gl_check_status st,
                            const char *fmt, ...)
{
    if (v->n == GL_MAX_CHECKS) return &v->c[GL_MAX_CHECKS - 1];
    struct gl_check *c = &v->c[v->n++];
    c->name = name, c->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->text, sizeof c->text, fmt, ap);
    va_end(ap);
    return c;
}

/* a call that must work: on failure, records it as the check's failure and returns -1 */
static int call(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                const float *x, float *y, size_t n, const struct gl_call_layout *lay,
                struct gl_validation *v, const char *check)
{
    char why[300];
    if (gl_kernel_call(s, k, ch, x, y, n, lay, why, sizeof why) == 0) return 0;
    add(v, check, GL_CHECK_FAIL, "the kernel %s on inputs %a .. %a (%zu inputs)", why, (double)x[0],
        (double)x[n - 1], n);
    v->crashed = 1;
    return -1;
}

static int same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void name_of(float v, char *b, size_t l)
{
    if (isnan(v))
        snprintf(b, l, "NaN");
    else if (isinf(v))
        snprintf(b, l, "%sinf", v < 0 ? "-" : "+");
    else if (v == 0)
        snprintf(b, l, "%s0", signbit(v) ? "-" : "+");
    else
        snprintf(b, l, "%a", (double)v);
}

static int probe_specials(const struct gl_sweep *s, const struct gl_kernel_src *k,
                          struct gl_child *ch, struct gl_validation *v)
{
    const float in[5] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f},
                want[5] = {NAN, INFINITY, -0.0f, 0.0f, -0.0f};
    float out[5];
    if (call(s, k, ch, in, out, 5, NULL, v, "specials")) return -1;
    char got[5][48], bad[400] = "";
    int nan_bad = !isnan(out[0]), inf_bad = !same_bits(out[1], want[1]) || !(out[2] == 0),
        zero_bad = !same_bits(out[3], want[3]) || !same_bits(out[4], want[4]) ||
                   (out[2] == 0 && !signbit(out[2]));
    for (int i = 0; i < 5; i++) name_of(out[i], got[i], sizeof got[i]);
    if (nan_bad)
        snprintf(bad + strlen(bad), sizeof bad - strlen(bad), "NaN not propagated (NaN gives %s); ",
                 got[0]);
    if (inf_bad)
        snprintf(
            bad + strlen(bad), sizeof bad - strlen(bad),
            "wrong value for an infinity (+inf gives %s, -inf gives %s; GELU gives +inf and -0); ",
            got[1], got[2]);
    if (zero_bad)
        snprintf(bad + strlen(bad), sizeof bad - strlen(bad),
                 "wrong sign of zero (+0 gives %s, -0 gives %s, -inf gives %s; GELU keeps the "
                 "sign: +0, -0, -0); ",
                 got[3], got[4], got[2]);
    if (*bad) {
        bad[strlen(bad) - 2] = '\0';
        add(v, "specials", GL_CHECK_FAIL, "%s", bad);
    } else {
        add(v, "specials", GL_CHECK_PASS,
            "NaN -> NaN, +inf -> +inf, -inf -> -0, +0 -> +0, -0 -> -0");
    }
    return 0;
}

/* The negative tail: the x closest to 0 from which the kernel returns 0 (or -0) while its
 * definition is a nonzero binary32 number. */
static int probe_tail(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                      int region_all, struct gl_validation *v)
{
    enum { N = 4000 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) x[i] = -1.0f - 0.01f * (float)i; /* -1 .. -41 */
    if (call(s, k, ch, x, y, N, NULL, v, "tail")) return free(x), free(y), -1;
    int first = -1;
    for (int i = 0; i < N && first < 0; i++) {
        double r = gl_ref_f32(k->defn, x[i], &gl_format_f32, NULL);
        if (y[i] == 0 && fabs(r) >= 0x1p-126)
            first = i; /* a normal number lost, not an underflow */
    }
    if (first < 0) {
        add(v, "tail", GL_CHECK_PASS,
            "no zero result where the definition is a normal binary32 number on [-41, -1]");
    } else {
        struct gl_dd r;
        gl_ref_f32(k->defn, x[first], &gl_format_f32, &r);
        int in_region = region_all || x[first] >= -5;
        add(v, "tail", in_region ? GL_CHECK_FAIL : GL_CHECK_WARN,
            "returns 0 from x = %a (%.4g) down, where GELU is a small negative number (%a there, "
            "%.3g ULP off): %s%s",
            (double)x[first], (double)x[first], r.hi, gl_ulp_error(y[first], r, &gl_format_f32),
            k->defn == GL_DEFN_EXACT
                ? "cancellation in the negative tail (0.5x(1 + erf(x/sqrt2)) loses everything "
                  "once erf rounds to -1; x erfc(-x/sqrt2)/2 does not)"
            : k->defn == GL_DEFN_TANH
                ? "cancellation in the negative tail (0.5x(1 + tanh(u)) loses everything once "
                  "tanh rounds to -1; x / (1 + exp(-2u)) does not)"
                : "the sigmoid underflows before x sigma(a x) does (or 1 + exp(-a x) is "
                  "rounded through a narrow format)",
            in_region ? "" : "; outside the checked region (--region all to fail on it)");
    }
    free(x), free(y);
    return 0;
}

/* Max ULP against each GELU definition on a sample of the core: which one it implements. */
static int probe_definition(const struct gl_sweep *s, const struct gl_kernel_src *k,
                            struct gl_child *ch, struct gl_validation *v)
{
    enum { N = 20001 };
    const enum gl_defn d[4] = {GL_DEFN_EXACT, GL_DEFN_TANH, GL_DEFN_SIGMOID, GL_DEFN_SILU};
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) x[i] = -5.0f + 10.0f * (float)i / (N - 1);
    if (call(s, k, ch, x, y, N, NULL, v, "definition")) return free(x), free(y), -1;
    int best = 0, own = 0;
    for (int j = 0; j < 4; j++) {
        v->defn_ulp[j] = 0;
        for (int i = 0; i < N; i++) {
            struct gl_dd r;
            gl_ref_f32(d[j], x[i], &gl_format_f32, &r);
            double u = gl_ulp_error(y[i], r, &gl_format_f32);
            if (u > v->defn_ulp[j]) v->defn_ulp[j] = u;
        }
        if (v->defn_ulp[j] < v->defn_ulp[best]) best = j;
        if (d[j] == k->defn) own = j;
    }
    char all[200];
    snprintf(all, sizeof all, "exact %.3g, tanh %.3g, sigmoid %.3g, silu %.3g ULP", v->defn_ulp[0],
             v->defn_ulp[1], v->defn_ulp[2], v->defn_ulp[3]);
    if (best != own && v->defn_ulp[best] * 4 < v->defn_ulp[own])
        add(v, "definition", GL_CHECK_FAIL,
            "implements the %s definition, not the %s it claims: max error on [-5, 5] %s",
            gl_defn_name(d[best]), gl_defn_name(k->defn), all);
    else
        add(v, "definition", GL_CHECK_PASS,
            "matches the claimed %s definition best (max on [-5, 5]: %s)", gl_defn_name(k->defn),
            all);
    free(x), free(y);
    return 0;
}

/* Significant bits the results carry, and whether neighbouring inputs collapse (an input or
 * result rounded through binary16 or bfloat16 inside a binary32 kernel). */
static int probe_precision(const struct gl_sweep *s, const struct gl_kernel_src *k,
                           struct gl_child *ch, struct gl_validation *v)
{
    enum { N = 8192 };
    float *x = malloc(2 * N * sizeof *x), *y = malloc(2 * N * sizeof *y);
    for (int i = 0; i < N; i++) { /* pairs of neighbours spread over [0.5, 4.5] */
        x[2 * i] = 0.5f + 4.0f * (float)i / N;
        x[2 * i + 1] = nextafterf(x[2 * i], INFINITY);
    }
    if (call(s, k, ch, x, y, 2 * N, NULL, v, "precision")) return free(x), free(y), -1;
    int maxbits = 0, collapsed = 0, differ = 0;
    for (int i = 0; i < 2 * N; i++) {
        if (!isfinite(y[i]) || y[i] == 0) continue;
        uint32_t u;
        memcpy(&u, &y[i], 4);
        uint32_t m = u & 0x7fffff;
        int bits = m ? 24 - __builtin_ctz(m) : 1;
        if (bits > maxbits) maxbits = bits;
    }
    for (int i = 0; i < N; i++) {
        double r0 = gl_ref_f32(k->defn, x[2 * i], &gl_format_f32, NULL),
               r1 = gl_ref_f32(k->defn, x[2 * i + 1], &gl_format_f32, NULL);
        if (r0 != r1) differ++, collapsed += y[2 * i] == y[2 * i + 1];
    }
    if (maxbits <= 16)
        add(v, "precision", GL_CHECK_FAIL,
            "results carry at most %d significant bits (binary32 has 24): rounded through %s "
            "inside the kernel?",
            maxbits,
            maxbits <= 8    ? "bfloat16"
            : maxbits <= 11 ? "binary16"
                            : "a narrower format");
    else if (differ && collapsed * 10 > differ * 9)
        add(v, "precision", GL_CHECK_FAIL,
            "neighbouring inputs give the same result in %d of %d pairs where the definition "
            "differs: the input is rounded to a narrower format inside the kernel",
            collapsed, differ);
    else
        add(v, "precision", GL_CHECK_PASS,
            "results use up to %d significant bits; neighbouring inputs are told apart", maxbits);
    free(x), free(y);
    return 0;
}

/* The same inputs called differently must give the same bits. */
static int probe_layout(const struct gl_sweep *s, const struct gl_kernel_src *k,
                        struct gl_child *ch, struct gl_validation *v)
{
    size_t n = k->kind == GL_SRC_EXEC ? 101 : 1003;
    float *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) x[i] = -6.0f + 12.0f * (float)((i * 7919) % n) / (float)n;
    if (call(s, k, ch, x, y0, n, NULL, v, "layout")) return free(x), free(y0), free(y), -1;
    /* first a plain second call: in the same worker as every probe's call (library and serving
     * kernels), so a kernel whose results depend on its state is caught */
    struct gl_call_layout lays[] = {{0, 0, 0, 0}, {0, 1, 0, 0},  {0, 3, 0, 0},  {0, 7, 0, 0},
                                    {0, 8, 0, 0}, {0, 13, 0, 0}, {0, 16, 0, 0}, {0, 17, 0, 0},
                                    {1, 0, 0, 0}, {2, 0, 0, 0},  {3, 0, 0, 0},  {5, 0, 0, 0},
                                    {7, 0, 0, 0}, {0, 0, 1, 0},  {3, 0, 1, 0}};
    const char *what[] = {"a second call on the same arrays",
                          "calls of n = 1",
                          "calls of n = 3",
                          "calls of n = 7",
                          "calls of n = 8",
                          "calls of n = 13",
                          "calls of n = 16",
                          "calls of n = 17",
                          "arrays offset by 1 float",
                          "arrays offset by 2 floats",
                          "arrays offset by 3 floats",
                          "arrays offset by 5 floats",
                          "arrays offset by 7 floats",
                          "in place (y == x)",
                          "in place, offset by 3 floats"};
    char bad[500] = "";
    int tried = 0, differ = 0;
    for (size_t t = 0; t < sizeof lays / sizeof lays[0]; t++) {
        if (k->kind == GL_SRC_SERVE && (lays[t].offset || lays[t].inplace))
            continue; /* a serving evaluator sees a stream of requests: lengths and a repeat */
        if (k->kind == GL_SRC_EXEC &&
            (lays[t].offset || lays[t].inplace || (lays[t].split && lays[t].split != 13)))
            continue; /* an external evaluator only sees a stream: a second run and pieces of 13 */
        if (k->kind == GL_SRC_EXEC && lays[t].repeat) lays[t].repeat = 0; /* a second process */
        tried++;
        if (call(s, k, ch, x, y, n, &lays[t], v, "layout")) return free(x), free(y0), free(y), -1;
        for (size_t i = 0; i < n; i++)
            if (!same_bits(y[i], y0[i])) {
                if (differ++ < 3)
                    snprintf(bad + strlen(bad), sizeof bad - strlen(bad),
                             "%s gives %a instead of %a at x = %a; ", what[t], (double)y[i],
                             (double)y0[i], (double)x[i]);
                break;
            }
    }
    if (*bad) {
        bad[strlen(bad) - 2] = '\0';
        add(v, "layout", GL_CHECK_FAIL, "results depend on how the kernel is called (%s): %s",
            strstr(bad, "second call") ? "not deterministic"
            : strstr(bad, "in place") && !strstr(bad, "calls of")
                ? "in-place breakage"
                : "length, position or vector tail",
            bad);
    } else {
        add(v, "layout", GL_CHECK_PASS,
            "the same bits on %zu inputs over %d ways of calling (lengths 1..17, offsets 1..7, in "
            "place, twice)%s",
            n, tried,
            k->kind == GL_SRC_EXEC    ? "; an external evaluator: second run and pieces of 13 only"
            : k->kind == GL_SRC_SERVE ? "; a serving evaluator: lengths and a second request only"
                                      : "");
    }
    free(x), free(y0), free(y);
    return 0;
}

int gl_validate_probes(const struct gl_sweep *s, const struct gl_kernel_src *k, int region_all,
                       struct gl_validation *v)
{
    /* one worker for all the probes' calls of a library or serving kernel (a library's start-up,
     * PyTorch's, can take most of a second) */
    struct gl_child ch = {-1, -1, -1, 1, -1, NULL, 0};
    int rc = probe_specials(s, k, &ch, v) || probe_tail(s, k, &ch, region_all, v) ||
             probe_definition(s, k, &ch, v) || probe_precision(s, k, &ch, v) ||
             probe_layout(s, k, &ch, v);
    if (ch.pid >= 0) gl_child_stop(&ch);
    return rc ? -1 : 0;
}
