/* Kernel validation probes (include/gelulab/validate.h). Each probe calls the kernel on a small
 * deterministic input set and compares with the reference or with another call of itself. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/guard.h"
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

/* a call that must work (a backward kernel: with dy, or dy = 1 when dy is NULL): on failure,
 * records it as the check's failure, narrowed to the inputs that cause it, and returns -1 */
static int call_dy(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                   const float *x, const float *dy, float *y, size_t n,
                   const struct gl_call_layout *lay, struct gl_validation *v, const char *check)
{
    char why[600], where[800];
    if (gl_kernel_call(&s->run, k, ch, x, dy, y, n, lay, why, sizeof why) == 0) return 0;
    if (gl_guard_finding(why)) { /* an access outside the arrays the memory check missed */
        add(v, "memory", GL_CHECK_FAIL, "%s, in the %s probe", why, check);
        return -1;
    }
    if (gl_kernel_narrow(&s->run, k, x, dy, n, lay, where, sizeof where) == 0)
        add(v, check, GL_CHECK_FAIL, "the kernel %s in the %s probe (n = %zu); narrowed to %s", why,
            check, n, where);
    else
        add(v, check, GL_CHECK_FAIL, "the kernel %s in the %s probe, on inputs %a .. %a (n = %zu)",
            why, check, (double)x[0], (double)x[n - 1], n);
    v->crashed = 1;
    return -1;
}

static int call(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                const float *x, float *y, size_t n, const struct gl_call_layout *lay,
                struct gl_validation *v, const char *check)
{
    return call_dy(s, k, ch, x, NULL, y, n, lay, v, check);
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

/* The specials of a backward kernel (dy = 1): f' is 1 at +inf, -0 at -inf (the limit from
 * below), 1/2 at +-0 under every definition */
static int probe_specials_grad(const struct gl_sweep *s, const struct gl_kernel_src *k,
                               struct gl_child *ch, struct gl_validation *v)
{
    const float in[5] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f},
                want[5] = {NAN, 1.0f, -0.0f, 0.5f, 0.5f};
    float out[5];
    if (call(s, k, ch, in, out, 5, NULL, v, "specials")) return -1;
    char got[5][48];
    int bad = !isnan(out[0]);
    for (int i = 0; i < 5; i++) name_of(out[i], got[i], sizeof got[i]);
    for (int i = 1; i < 5; i++) bad |= !same_bits(out[i], want[i]);
    if (bad)
        add(v, "specials", GL_CHECK_FAIL,
            "wrong derivative at a special input (dy = 1): NaN gives %s, +inf %s, -inf %s, +0 %s, "
            "-0 %s; f' gives NaN, 1, -0, 0.5, 0.5",
            got[0], got[1], got[2], got[3], got[4]);
    else
        add(v, "specials", GL_CHECK_PASS,
            "dy = 1: NaN -> NaN, +inf -> 1, -inf -> -0, +0 -> 0.5, -0 -> 0.5");
    return 0;
}

/* The format's name in words: binary32, bfloat16, binary16 */
static const char *format_words(const struct gl_format *f)
{
    return f->id == GL_FMT_BF16 ? "bfloat16" : f->id == GL_FMT_F16 ? "binary16" : "binary32";
}

/* the least normal number of format f: 2^(emin_sub + p - 1) (binary32: 2^-126) */
static double min_normal(const struct gl_format *f)
{
    return gl_pow2(f->emin_sub + f->prec - 1);
}

/* Why a result is lost at x in the negative tail, in words (into b): where GELU's factor there,
 * g(x)/x (Phi(x); (1 + tanh(u))/2; sigma(a x): g the forward definition fwd), is below binary32's
 * least normal number 2^-126 or within a factor 4 of it, an intermediate (erfc, Phi, the sigmoid)
 * was flushed to zero or underflowed: subnormals off (FTZ), not cancellation, which loses the
 * factor from about 2^-25 (there 1 + erf or 1 + tanh rounds to 0); else cancellation (the
 * form's words, cancel). */
static void tail_cause(enum gl_defn fwd, float x, const char *cancel, char *b, size_t l)
{
    double g = gl_ref_f32(fwd, x, &gl_format_f32, NULL) / x;
    if (fwd != GL_DEFN_SIGMOID && fwd != GL_DEFN_SILU && g < 0x1p-124)
        snprintf(b, l,
                 "not cancellation: GELU(x)/x (%s) is %.3g there, within a factor 4 of binary32's "
                 "least normal number 2^-126 or below it: an intermediate (%s) flushed to zero or "
                 "underflowed (subnormals off: FTZ)",
                 fwd == GL_DEFN_EXACT ? "Phi(x)" : "(1 + tanh(u))/2", g,
                 fwd == GL_DEFN_EXACT ? "erfc(-x/sqrt2) or Phi(x)" : "1 + tanh(u) or exp(2u)");
    else
        snprintf(b, l, "%s", cancel);
}

/* The negative tail: the x closest to 0 from which the kernel returns 0 (or -0) while its
 * definition is a normal number of the format judged (s->fmt: binary32, or the bfloat16 or
 * binary16 of --format, the inputs then of that format). */
static int probe_tail(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                      int region_all, struct gl_validation *v)
{
    enum { N = 4000 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) /* -1 .. -41 */
        x[i] = (float)gl_round_f32(&s->fmt, -1.0f - 0.01f * (float)i);
    if (call(s, k, ch, x, y, N, NULL, v, "tail")) return free(x), free(y), -1;
    int first = -1;
    double tiny = min_normal(&s->fmt);
    for (int i = 0; i < N && first < 0; i++) {
        double r = gl_ref_f32(k->defn, x[i], &s->fmt, NULL);
        if (y[i] == 0 && fabs(r) >= tiny) first = i; /* a normal number lost, not an underflow */
    }
    if (first < 0) {
        add(v, "tail", GL_CHECK_PASS,
            "no zero result where the definition is a normal %s number on [-41, -1]",
            format_words(&s->fmt));
    } else {
        struct gl_dd r;
        char cause[300];
        gl_ref_f32(k->defn, x[first], &s->fmt, &r);
        tail_cause(k->defn, x[first],
                   k->defn == GL_DEFN_EXACT
                       ? "cancellation in the negative tail (0.5x(1 + erf(x/sqrt2)) loses "
                         "everything once erf rounds to -1; x erfc(-x/sqrt2)/2 does not)"
                   : k->defn == GL_DEFN_TANH
                       ? "cancellation in the negative tail (0.5x(1 + tanh(u)) loses everything "
                         "once tanh rounds to -1; x / (1 + exp(-2u)) does not)"
                       : "the sigmoid underflows before x sigma(a x) does (or 1 + exp(-a x) is "
                         "rounded through a narrow format)",
                   cause, sizeof cause);
        int in_region = region_all || x[first] >= -5;
        add(v, "tail", in_region ? GL_CHECK_FAIL : GL_CHECK_WARN,
            "returns 0 from x = %a (%.4g) down, where GELU is a small negative number (%a there, "
            "%.3g ULP off): %s%s",
            (double)x[first], (double)x[first], r.hi, gl_ulp_error(y[first], r, &s->fmt), cause,
            in_region ? "" : "; outside the checked region (--region all to fail on it)");
    }
    free(x), free(y);
    return 0;
}

/* The negative tail of a derivative: the x closest to 0 on [-41, -1] from which the result
 * keeps fewer than 14 correct bits (ULP error above 2^10), is 0 where f' is a normal number,
 * or has the wrong sign. */
static int probe_tail_grad(const struct gl_sweep *s, const struct gl_kernel_src *k,
                           struct gl_child *ch, int region_all, struct gl_validation *v)
{
    enum { N = 4000 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) x[i] = -1.0f - 0.01f * (float)i; /* -1 .. -41 */
    if (call(s, k, ch, x, y, N, NULL, v, "tail")) return free(x), free(y), -1;
    int first = -1;
    double u = 0;
    struct gl_dd r;
    for (int i = 0; i < N && first < 0; i++) {
        gl_ref_f32(k->defn, x[i], &gl_format_f32, &r);
        u = gl_ulp_error(y[i], r, &gl_format_f32);
        if ((u > 0x1p10 && fabs(r.hi) >= min_normal(&gl_format_f32)) ||
            (y[i] != 0 && (y[i] < 0) != (r.hi < 0)))
            first = i;
    }
    if (first < 0) {
        add(v, "tail", GL_CHECK_PASS,
            "at least 14 correct bits and the right sign wherever f' is a normal binary32 number "
            "on [-41, -1]");
    } else {
        int in_region = region_all || x[first] >= -5;
        char cause[300];
        tail_cause(k->defn == GL_DEFN_EXACT_GRAD  ? GL_DEFN_EXACT
                   : k->defn == GL_DEFN_TANH_GRAD ? GL_DEFN_TANH
                                                  : GL_DEFN_SIGMOID,
                   x[first],
                   k->defn == GL_DEFN_EXACT_GRAD
                       ? "cancellation in the negative tail (Phi(x) as (1 + erf(x/sqrt2))/2 is "
                         "lost once erf rounds to -1, leaving x phi(x) alone; erfc(-x/sqrt2)/2 "
                         "keeps it)"
                   : k->defn == GL_DEFN_TANH_GRAD
                       ? "cancellation in the negative tail ((1 + tanh(u))/2 and 1 - tanh(u)^2 "
                         "are lost once tanh rounds to -1; sigma(2u) and 4 sigma(2u) sigma(-2u) "
                         "keep them)"
                       : "the sigmoid underflows, or 1 - sigma is computed by subtraction",
                   cause, sizeof cause);
        add(v, "tail", in_region ? GL_CHECK_FAIL : GL_CHECK_WARN,
            "loses the derivative from x = %a (%.4g) down: %a where f' is %a (%.3g ULP off): %s%s",
            (double)x[first], (double)x[first], (double)y[first], r.hi, u, cause,
            in_region ? "" : "; outside the checked region (--region all to fail on it)");
    }
    free(x), free(y);
    return 0;
}

/* Max absolute error against each GELU definition on a sample of the core: which one it
 * implements. Absolute, not ULP: the definitions differ by absolute amounts (tanh from exact by
 * up to 4.7e-4, sigmoid by 2e-2, SiLU by 0.2) far above any binary32 kernel's own error (about
 * 1e-6 at most on [-5, 5]), while a kernel's ULP error against its own definition can be as
 * large as that distance where it cancels in the negative tail (0.5x(1 + tanh(u)) once tanh
 * rounds to -1): by max ULP, a naive tanh kernel would fit exact GELU as well as its own form.
 * A backward kernel: max scaled error, the absolute error in ulps of 1, likewise. */
static int probe_definition(const struct gl_sweep *s, const struct gl_kernel_src *k,
                            struct gl_child *ch, struct gl_validation *v)
{
    enum { N = 20001 };
    int g = gl_defn_is_grad(k->defn);
    enum gl_defn d[4] = {GL_DEFN_EXACT, GL_DEFN_TANH, GL_DEFN_SIGMOID, GL_DEFN_SILU};
    for (int j = 0; g && j < 4; j++) d[j] = gl_defn_grad_of(d[j]);
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) x[i] = -5.0f + 10.0f * (float)i / (N - 1);
    if (call(s, k, ch, x, y, N, NULL, v, "definition")) return free(x), free(y), -1;
    int best = 0, own = 0;
    for (int j = 0; j < 4; j++) {
        v->defn_ulp[j] = 0;
        for (int i = 0; i < N; i++) {
            struct gl_dd r;
            gl_ref_f32(d[j], x[i], &gl_format_f32, &r);
            double u =
                g ? gl_scaled_ulp(gl_abs_error(y[i], r), &gl_format_f32) : gl_abs_error(y[i], r);
            if (u > v->defn_ulp[j]) v->defn_ulp[j] = u;
        }
        if (v->defn_ulp[j] < v->defn_ulp[best]) best = j;
        if (d[j] == k->defn) own = j;
    }
    char all[200];
    snprintf(all, sizeof all, "%s %.3g, %s %.3g, %s %.3g, %s %.3g", gl_defn_name(d[0]),
             v->defn_ulp[0], gl_defn_name(d[1]), v->defn_ulp[1], gl_defn_name(d[2]), v->defn_ulp[2],
             gl_defn_name(d[3]), v->defn_ulp[3]);
    const char *what = g ? "max scaled error (ulps of 1)" : "max abs error";
    if (best != own && v->defn_ulp[best] * 4 < v->defn_ulp[own])
        add(v, "definition", GL_CHECK_FAIL,
            "implements the %s definition, not the %s it claims: %s on [-5, 5] against each: %s",
            gl_defn_name(d[best]), gl_defn_name(k->defn), what, all);
    else
        add(v, "definition", GL_CHECK_PASS,
            "matches the claimed %s definition best (%s on [-5, 5] against each: %s)",
            gl_defn_name(k->defn), what, all);
    free(x), free(y);
    return 0;
}

/* ---- memory: the kernel's accesses stay in its arrays ---- */

int gl_validate_memory(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                       struct gl_validation *v)
{
    if (k->kind == GL_SRC_EXEC || k->kind == GL_SRC_SERVE) {
        add(v, "memory", GL_CHECK_SKIP,
            "an external evaluator's arrays are its own: not checked (a --lib kernel is)");
        return 0;
    }
    static const size_t lens[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,    9,   15,
                                  16, 17, 31, 32, 33, 63, 64, 65, 1000, 1003};
    enum { NL = sizeof lens / sizeof *lens, MAXN = 1003 };
    static const char *const placed[] = {"ending at a guard page", "starting at a guard page"};
    static const char *const how[] = {"", ", in place (y == x)", ", in place over dy (dx == dy)"};
    float *x = malloc(MAXN * sizeof *x), *dy = malloc(MAXN * sizeof *dy),
          *y = malloc(MAXN * sizeof *y);
    if (!x || !dy || !y) {
        add(v, "memory", GL_CHECK_FAIL, "out of memory");
        return free(x), free(dy), free(y), v->crashed = 1, -1;
    }
    for (size_t i = 0; i < MAXN; i++)
        x[i] = (float)gl_round_f32(&s->fmt, -6.0f + 12.0f * (float)((i * 7919) % MAXN) / MAXN),
        dy[i] = 0.5f + (float)(i * 37 % 11) / 4;
    int rc = 0, calls = 0;
    char why[600];
    for (int place = 0; place < 2 && !rc; place++)
        for (int inplace = 0; inplace < (k->backward ? 3 : 2) && !rc; inplace++)
            for (int l = 0; l < NL && !rc; l++) {
                struct gl_call_layout lay = {0, 0, inplace, 0, place};
                size_t n = lens[l];
                calls++;
                if (gl_kernel_call(&s->run, k, ch, x, dy, y, n, &lay, why, sizeof why) == 0)
                    continue;
                if (ch->pid >= 0) gl_child_stop(ch);
                if (!gl_guard_finding(why)) {
                    char where[800];
                    if (gl_kernel_narrow(&s->run, k, x, dy, n, &lay, where, sizeof where) == 0)
                        add(v, "memory", GL_CHECK_FAIL,
                            "the kernel %s (n = %zu, arrays %s%s); narrowed to %s", why, n,
                            placed[place], how[inplace], where);
                    else
                        add(v, "memory", GL_CHECK_FAIL, "the kernel %s (n = %zu, arrays %s%s)", why,
                            n, placed[place], how[inplace]);
                    v->crashed = 1, rc = -1;
                } else {
                    add(v, "memory", GL_CHECK_FAIL, "%s, in calls of n = %zu with the arrays %s%s",
                        why, n, placed[place], how[inplace]);
                    rc = 1;
                }
            }
    if (!rc)
        add(v, "memory", GL_CHECK_PASS,
            "reads x and writes y within [0, n) only, writes every y, leaves x as it was: %d "
            "calls, n = 0..9, 15..17, 31..33, 63..65, 1000, 1003, arrays ending and starting at "
            "guard pages%s",
            calls,
            k->backward ? ", apart and in place over x and over dy" : ", apart and in place");
    free(x), free(dy), free(y);
    return rc;
}

/* Significant bits the results carry, and whether neighbouring inputs collapse (an input or
 * result rounded through binary16 or bfloat16 inside a binary32 kernel). */
static int probe_precision(const struct gl_sweep *s, const struct gl_kernel_src *k,
                           struct gl_child *ch, struct gl_validation *v)
{
    enum { N = 8192 };
    if (s->fmt.id != GL_FMT_F32) {
        add(v, "precision", GL_CHECK_SKIP,
            "a binary32 kernel judged in %s (--format): its results are rounded to %s, so "
            "fewer significant bits inside it are not a defect",
            format_words(&s->fmt), format_words(&s->fmt));
        return 0;
    }
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
    float *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *y = malloc(n * sizeof *y),
          *dy =
              malloc(n * sizeof *dy); /* a backward kernel's dy: varied, so that dy's lanes count */
    for (size_t i = 0; i < n; i++)
        x[i] = (float)gl_round_f32(&s->fmt, -6.0f + 12.0f * (float)((i * 7919) % n) / (float)n),
        dy[i] = 0.5f + (float)(i * 37 % 11) / 4;
    if (call_dy(s, k, ch, x, dy, y0, n, NULL, v, "layout"))
        return free(x), free(y0), free(y), free(dy), -1;
    /* first a plain second call: in the same worker as every probe's call (library and serving
     * kernels), so a kernel whose results depend on its state is caught */
    struct gl_call_layout lays[] = {
        {0, 0, 0, 0, 0},  {0, 1, 0, 0, 0},  {0, 3, 0, 0, 0},  {0, 7, 0, 0, 0}, {0, 8, 0, 0, 0},
        {0, 13, 0, 0, 0}, {0, 16, 0, 0, 0}, {0, 17, 0, 0, 0}, {1, 0, 0, 0, 0}, {2, 0, 0, 0, 0},
        {3, 0, 0, 0, 0},  {5, 0, 0, 0, 0},  {7, 0, 0, 0, 0},  {0, 0, 1, 0, 0}, {3, 0, 1, 0, 0},
        {0, 0, 2, 0, 0},  {3, 0, 2, 0, 0}};
    const char *what[] = {"second calls on the same arrays",
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
                          "in place, offset by 3 floats",
                          "in place over dy (dx == dy)",
                          "in place over dy, offset by 3 floats"};
    char bad[500] = "";
    int tried = 0, differ = 0;
    for (size_t t = 0; t < sizeof lays / sizeof lays[0]; t++) {
        if (lays[t].inplace == 2 && !k->backward) continue; /* no dy to write over */
        if (k->kind == GL_SRC_SERVE && (lays[t].offset || lays[t].inplace))
            continue; /* a serving evaluator sees a stream of requests: lengths and a repeat */
        if (k->kind == GL_SRC_EXEC &&
            (lays[t].offset || lays[t].inplace || (lays[t].split && lays[t].split != 13)))
            continue; /* an external evaluator only sees a stream: a second run and pieces of 13 */
        if (k->kind == GL_SRC_EXEC && lays[t].repeat) lays[t].repeat = 0; /* a second process */
        tried++;
        if (call_dy(s, k, ch, x, dy, y, n, &lays[t], v, "layout"))
            return free(x), free(y0), free(y), free(dy), -1;
        for (size_t i = 0; i < n; i++)
            if (!same_bits(y[i], y0[i])) {
                if (differ++ < 3) {
                    char ref[64] = ""; /* a backward kernel's dx is dy f'(x): no reference */
                    if (!k->backward)
                        snprintf(ref, sizeof ref, " (the reference: %a)",
                                 gl_ref_f32(k->defn, x[i], &s->fmt, NULL));
                    snprintf(bad + strlen(bad), sizeof bad - strlen(bad),
                             "at x = %a %s give %a, one call of n = %zu gives %a%s; ", (double)x[i],
                             what[t], (double)y[i], n, (double)y0[i], ref);
                }
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
            "place%s, twice)%s",
            n, tried, k->backward ? " over x and over dy" : "",
            k->kind == GL_SRC_EXEC    ? "; an external evaluator: second run and pieces of 13 only"
            : k->kind == GL_SRC_SERVE ? "; a serving evaluator: lengths and a second request only"
                                      : "");
    }
    free(x), free(y0), free(y), free(dy);
    return 0;
}

/* ---- dy: a backward kernel's dx must be dy f'(x) for every dy ---- */

enum { DY_X = 64, DY_M = 24 };

/* The dy of the probe: 1 first (the kernel's own f'), then fixed values of every kind, then
 * pseudo-random magnitudes 2^-30 .. 2^30 and signs */
static void dy_values(float *dy)
{
    static const float fixed[] = {1.0f,         -1.0f,      2.0f,      0.5f,       -3.0f,
                                  0x1.8p+7f,    -0x1.4p-9f, 0x1p+100f, -0x1p-100f, 0x1p-140f,
                                  -0x1.8p-135f, 0x1p-149f,  0.0f,      -0.0f,      INFINITY,
                                  -INFINITY,    NAN,        0x1.5p-3f};
    int nf = (int)(sizeof fixed / sizeof fixed[0]);
    uint32_t st = 12345;
    for (int m = 0; m < DY_M; m++) {
        if (m < nf) {
            dy[m] = fixed[m];
            continue;
        }
        st = st * 1664525u + 1013904223u;
        float mant = 1.0f + (float)(st >> 9) * 0x1p-23f;
        dy[m] = ldexpf(st & 1 ? -mant : mant, (int)(st >> 26) % 61 - 30);
    }
}

/* dy f'(x) from the unrounded f' (double-double), to binary64 */
static double dy_times(float dy, struct gl_dd r)
{
    double hi = (double)dy * r.hi;
    return hi + (fma((double)dy, r.hi, -hi) + (double)dy * r.lo);
}

/* What a wrong dx at (x, dy) looks like, given the kernel's own g = dx(x, 1) */
static const char *dy_guess(float dx, float dy, float g)
{
    double e = 0x1p-20 * (fabs((double)dx) + 0x1p-140);
    if (same_bits(dx, g)) return "dy ignored (dx = f'(x) whatever dy)";
    if (fabs((double)dx - ((double)g + (double)dy - 1)) <= e)
        return "dy added, not multiplied (dx = f'(x) + dy - 1)";
    if (fabs((double)dx - fabs((double)dy) * g) <= e) return "the sign of dy is lost";
    if (fabs((double)dx - (double)g / dy) <= e) return "divided by dy";
    if (fabs((double)dy) < min_normal(&gl_format_f32) && dx == 0)
        return "subnormal dy flushed to zero";
    return "dy applied wrongly";
}

/* The special dy against the kernel's own g = dx(x, 1) (its tail is judged by the tail probe,
 * not here): NaN -> NaN; +-0 -> zero of sign sign(dy) sign(g); +-inf -> infinity of that sign,
 * or NaN where g is 0 (inf times 0) */
static int dy_special_ok(float dx, float dy, float g)
{
    int neg = !!signbit(dy) != !!signbit(g);
    if (isnan(dy)) return isnan(dx);
    if (dy == 0) return dx == 0 && !!signbit(dx) == neg;
    if (g == 0 && isnan(dx)) return 1;
    return isinf(dx) && (dx < 0) == neg;
}

/* The probe's pairs: x over [-8, 8] (the tail included) and 8 inputs next to the zero x0 of
 * f', each with every dy of dy_values */
static void dy_inputs(float x0, float *x, float *dy)
{
    float dys[DY_M];
    dy_values(dys);
    for (int i = 0; i < DY_X * DY_M; i++) {
        int j = i / DY_M;
        x[i] = j < 56 ? -8.0f + 16.0f * (float)j / 55 : x0 + ((float)j - 59.5f) * 0x1p-12f;
        dy[i] = dys[i % DY_M];
    }
}

/* Whether dx is right at a pair (dy, exact f' = r) for a kernel whose own f' there is g and
 * whose largest scaled error at dy = 1 is s1; *ulp: dx's ULP error against dy f', or -1 when
 * not counted (special dy, product outside the normal range, or x next to the zero of f') */
static int dy_pair_ok(float dx, float dy, float g, struct gl_dd r, double s1, int near_root,
                      double *ulp)
{
    *ulp = -1;
    if (isnan(dy) || isinf(dy) || dy == 0) return isnan(g) || dy_special_ok(dx, dy, g);
    double p = dy_times(dy, r), err = fabs((double)dx - p);
    if (!near_root && fabs(p) >= min_normal(&gl_format_f32) && fabs(p) < 0x1p127)
        *ulp = err / gl_pow2(ilogb(p) - 23);
    return err <= (2 * s1 + 2) * fabs((double)dy) * 0x1p-23 + 0x1p-149;
}

static int probe_dy(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                    struct gl_validation *v)
{
    size_t n = DY_X * DY_M;
    float x0 = (float)gl_defn_root(k->defn), *x = malloc(n * sizeof *x),
          *dy = malloc(n * sizeof *dy), *dx = malloc(n * sizeof *dx);
    dy_inputs(x0, x, dy);
    if (call_dy(s, k, ch, x, dy, dx, n, NULL, v, "dy")) return free(x), free(dy), free(dx), -1;
    double s1 = 0, worst_ulp = 0; /* the kernel's own max scaled error at dy = 1 (dys[0]) */
    struct gl_dd *r = malloc(DY_X * sizeof *r);
    for (int j = 0; j < DY_X; j++) {
        gl_ref_f32(k->defn, x[j * DY_M], &gl_format_f32, &r[j]);
        double e = gl_scaled_ulp(gl_abs_error(dx[j * DY_M], r[j]), &gl_format_f32);
        if (e > s1) s1 = e;
    }
    char bad[400] = "";
    int nbad = 0, nspecial = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = i / DY_M;
        float g = dx[j * DY_M], d = dy[i];
        double u;
        int special = isnan(d) || isinf(d) || d == 0,
            ok = dy_pair_ok(dx[i], d, g, r[j], s1, fabs(x[i] - x0) <= GL_ROOT_HALFWIDTH, &u);
        worst_ulp = u > worst_ulp ? u : worst_ulp;
        nspecial += !ok && special;
        if (!ok && nbad++ == 0)
            snprintf(bad, sizeof bad, "at x = %a, dy = %a: dx = %a where dy f'(x) = %a%s: %s",
                     (double)x[i], (double)d, (double)dx[i],
                     special ? (double)d * g : dy_times(d, r[j]),
                     special ? " (from its own f')" : "",
                     special ? "a special dy gives the wrong value" : dy_guess(dx[i], d, g));
    }
    if (nbad)
        add(v, "dy", GL_CHECK_FAIL,
            "dx is not dy times the derivative on %d of %zu pairs (%d with dy NaN, +-0 or +-inf); "
            "first %s",
            nbad, n, nspecial, bad);
    else
        add(v, "dy", GL_CHECK_PASS,
            "dx = dy f'(x) on %zu pairs (dy of random magnitudes and signs, subnormal, +-0, "
            "+-inf, NaN): within (2 x %.3g + 2) scaled ULP times |dy|; max %.3g ULP against the "
            "exact product outside the root region",
            n, s1, worst_ulp);
    free(x), free(dy), free(dx), free(r);
    return 0;
}

/* ---- 16-bit kernels: all 65 536 inputs at once ---- */

/* The results of a 16-bit kernel on every input of its format, with the references */
struct all16 {
    const struct gl_format *fmt;
    float x[65536], y[65536];
    double yr[65536]; /* the own definition, correctly rounded to the format */
    struct gl_dd r[65536];
};

static uint32_t f32_bits(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* NaN inputs (every payload, signaling and quiet): NaN results, and quiet ones (IEEE 754: an
 * operation on a signaling NaN delivers a quiet NaN) */
static void check16_nan(const struct all16 *a, struct gl_validation *v)
{
    int nan_in = 0, lost = 0, signaling = 0;
    float first_x = 0, first_y = 0;
    for (int i = 0; i < 65536; i++) {
        if (!isnan(a->x[i])) continue;
        nan_in++;
        int bad = !isnan(a->y[i]), sig = !bad && !(f32_bits(a->y[i]) & 0x400000u);
        if ((bad || sig) && !lost && !signaling) first_x = a->x[i], first_y = a->y[i];
        lost += bad, signaling += sig;
    }
    uint16_t bx = gl_f32_to_bits16(a->fmt->id, first_x), by = gl_f32_to_bits16(a->fmt->id, first_y);
    if (lost)
        add(v, "nan", GL_CHECK_FAIL,
            "%d of the %d NaN inputs give a number (first: 0x%04x gives 0x%04x): NaN not "
            "propagated",
            lost, nan_in, bx, by);
    else if (signaling)
        add(v, "nan", GL_CHECK_WARN,
            "%d of the %d NaN inputs give a signaling NaN (first: 0x%04x gives 0x%04x): IEEE 754 "
            "operations deliver a quiet NaN",
            signaling, nan_in, bx, by);
    else
        add(v, "nan", GL_CHECK_PASS, "all %d NaN inputs (every payload) give a quiet NaN", nan_in);
}

/* the value of the format next to y toward zero (y finite, nonzero) */
static double toward_zero16(const struct gl_format *f, double y)
{
    uint16_t b = gl_f32_to_bits16(f->id, (float)y);
    return gl_bits16_to_f32(f->id, (uint16_t)(b - 1));
}

/* The wrong results (not the correctly rounded reference) classified: truncation (the reference
 * rounded toward zero) and double rounding (through binary32 first, then to the format) */
static void check16_rounding(const struct all16 *a, enum gl_defn d, struct gl_validation *v)
{
    int wrong = 0, trunc = 0, twice = 0;
    double first_x = 0;
    for (int i = 0; i < 65536; i++) {
        double y = a->y[i], yr = a->yr[i];
        if (!isfinite(a->x[i]) || !isfinite(yr) || yr == 0 || y == yr) continue;
        double side = (a->r[i].hi - yr) + a->r[i].lo;
        double rz = (side < 0) == (yr > 0) && side != 0 ? toward_zero16(a->fmt, yr) : yr;
        double rr = gl_round_f32(a->fmt, (float)gl_ref_f32(d, a->x[i], &gl_format_f32, NULL));
        if (!wrong++) first_x = a->x[i];
        trunc += y == rz, twice += y == rr;
    }
    if (!wrong)
        add(v, "rounding", GL_CHECK_PASS, "correctly rounded on every finite input");
    else if (trunc * 10 >= wrong * 9 && trunc > twice && wrong >= 16)
        add(v, "rounding", GL_CHECK_FAIL,
            "truncates instead of rounding to nearest: %d of the %d wrong results are the "
            "reference rounded toward zero (first at x = %a): biased toward zero",
            trunc, wrong, first_x);
    else if (twice * 10 >= wrong * 9)
        add(v, "rounding", GL_CHECK_WARN,
            "double rounding: %d of the %d wrong results are the reference rounded to binary32 "
            "first, then to %s (first at x = %a); round once from a wider value",
            twice, wrong, format_words(a->fmt), first_x);
    else
        add(v, "rounding", GL_CHECK_PASS,
            "not correctly rounded on %d inputs (first at x = %a), neither truncation (%d) nor "
            "double rounding (%d) as a pattern",
            wrong, first_x, trunc, twice);
}

/* Subnormal inputs and results kept, not flushed to zero, on the n inputs x (results y, the own
 * definition correctly rounded to the format f: yr). A zero result counts as lost where the
 * correctly rounded one is above the smallest subnormal (a rounding error of one ULP does not
 * reach zero from there); inputs taken as zero: most subnormal inputs lost; results flushed: some
 * lost and not one nonzero subnormal result from a normal input (a kernel of another definition
 * that underflows elsewhere keeps its subnormals) */
static void check_subnormal(const float *xa, const float *ya, const double *ra, int n,
                            const struct gl_format *f, struct gl_validation *v)
{
    double tiny = min_normal(f), least = gl_pow2(f->emin_sub);
    int in_sub = 0, daz = 0, out_sub = 0, ftz = 0, kept = 0;
    for (int i = 0; i < n; i++) {
        double x = xa[i], y = ya[i], yr = ra[i];
        int xs = x != 0 && fabs(x) < tiny, lost = y == 0 && fabs(yr) > least;
        in_sub += xs, daz += xs && lost;
        if (xs || !isfinite(x)) continue;
        kept += y != 0 && fabs(y) < tiny;
        if (yr != 0 && fabs(yr) < tiny) out_sub++, ftz += lost;
    }
    /* where no subnormal result is kept, subnormal inputs (whose results are subnormal) tell
     * nothing more */
    int flushed = ftz && !kept, taken_zero = daz * 2 > in_sub && !flushed;
    char what[300] = "";
    if (taken_zero)
        snprintf(what, sizeof what, "subnormal inputs taken as zero (%d of %d give 0)", daz,
                 in_sub);
    if (flushed)
        snprintf(what, sizeof what,
                 "subnormal results flushed (%d of %d from normal inputs are 0, not one kept; %d "
                 "of %d subnormal inputs give 0)",
                 ftz, out_sub, daz, in_sub);
    if (*what)
        add(v, "subnormal", GL_CHECK_FAIL, "subnormals flushed to zero: %s", what);
    else
        add(v, "subnormal", GL_CHECK_PASS,
            "subnormal inputs (%d) and results (%d from normal inputs) not flushed to zero", in_sub,
            out_sub);
}

/* Subnormals in binary32 (check_subnormal): 128 subnormal inputs of each sign (significands 1 to
 * 2^23 - 1, spread cubically), 128 normal inputs of each sign in [2^-126, 2^-125) (GELU(x) about
 * x/2: subnormal), and the negative tail -5 .. -60 in steps of 1/64, where each definition's
 * GELU(x) passes through the subnormals (exact about x = -13.2, tanh -10, sigmoid -52) */
static int probe_subnormal(const struct gl_sweep *s, const struct gl_kernel_src *k,
                           struct gl_child *ch, struct gl_validation *v)
{
    enum { SUB = 128, TAIL = 55 * 64 + 1, N = 4 * SUB + TAIL };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    double *yr = malloc(N * sizeof *yr);
    int n = 0;
    for (int i = 0; i < SUB; i++) {
        uint32_t m =
            1 + (uint32_t)((uint64_t)i * i * i * 0x7ffffe / ((SUB - 1) * (SUB - 1) * (SUB - 1)));
        x[n++] = (float)ldexp(m, -149), x[n++] = -(float)ldexp(m, -149);
        float t = (float)ldexp(1 + i / (double)SUB, -126);
        x[n++] = t, x[n++] = -t;
    }
    for (int i = 0; i < TAIL; i++) x[n++] = -5.0f - (float)i / 64;
    int rc = call(s, k, ch, x, y, (size_t)n, NULL, v, "subnormal");
    if (!rc) {
        for (int i = 0; i < n; i++) yr[i] = gl_ref_f32(k->defn, x[i], &s->fmt, NULL);
        check_subnormal(x, y, yr, n, &s->fmt, v);
    }
    free(x), free(y), free(yr);
    return rc;
}

/* The negative tail: the x closest to 0 from which the kernel returns +-0 where the definition
 * is a normal number of the format (cancellation, as probe_tail finds it in binary32) */
static void check16_tail(const struct all16 *a, enum gl_defn d, int region_all,
                         struct gl_validation *v)
{
    double tiny = min_normal(a->fmt);
    int first = -1, lost = 0;
    for (int i = 0; i < 65536; i++) {
        double x = a->x[i];
        if (!(x < 0) || isinf(x) || a->y[i] != 0 || !(fabs(a->yr[i]) >= tiny)) continue;
        lost++;
        if (first < 0 || x > a->x[first]) first = i;
    }
    if (first < 0) {
        add(v, "tail", GL_CHECK_PASS, "no zero result where the definition is a normal %s number",
            format_words(a->fmt));
        return;
    }
    double x = a->x[first];
    int in_region = region_all || x >= -5;
    char cause[300];
    tail_cause(d, (float)x,
               d == GL_DEFN_EXACT  ? "cancellation in the negative tail (1 + erf(x/sqrt2) computed "
                                     "before the product; x erfc(-x/sqrt2)/2 keeps it)"
               : d == GL_DEFN_TANH ? "cancellation in the negative tail (1 + tanh(u) computed "
                                     "before the product; x / (1 + exp(-2u)) keeps it)"
                                   : "the sigmoid underflows or is rounded too early",
               cause, sizeof cause);
    add(v, "tail", in_region ? GL_CHECK_FAIL : GL_CHECK_WARN,
        "returns 0 from x = %a (%.4g) down (%d inputs), where GELU is a normal %s number (%a "
        "there): %s%s",
        x, x, lost, format_words(a->fmt), a->yr[first], cause,
        in_region ? "" : "; outside the checked region (--region all to fail on it)");
}

/* Max ULP of the format against each definition on the finite inputs of [-5, 5] */
static void check16_definition(const struct all16 *a, enum gl_defn own_d, struct gl_validation *v)
{
    const enum gl_defn d[4] = {GL_DEFN_EXACT, GL_DEFN_TANH, GL_DEFN_SIGMOID, GL_DEFN_SILU};
    int best = 0, own = 0;
    for (int j = 0; j < 4; j++) {
        v->defn_ulp[j] = 0;
        for (int i = 0; i < 65536; i++) {
            if (!(fabs(a->x[i]) <= 5)) continue;
            struct gl_dd r;
            gl_ref_f32(d[j], a->x[i], a->fmt, &r);
            double u = gl_ulp_error(a->y[i], r, a->fmt);
            if (u > v->defn_ulp[j]) v->defn_ulp[j] = u;
        }
        if (v->defn_ulp[j] < v->defn_ulp[best]) best = j;
        if (d[j] == own_d) own = j;
    }
    char all[200];
    snprintf(all, sizeof all, "exact %.3g, tanh %.3g, sigmoid %.3g, silu %.3g ULP of %s",
             v->defn_ulp[0], v->defn_ulp[1], v->defn_ulp[2], v->defn_ulp[3], format_words(a->fmt));
    if (best != own && v->defn_ulp[best] * 4 < v->defn_ulp[own])
        add(v, "definition", GL_CHECK_FAIL,
            "implements the %s definition, not the %s it claims: max error on [-5, 5] %s",
            gl_defn_name(d[best]), gl_defn_name(own_d), all);
    else
        add(v, "definition", GL_CHECK_PASS,
            "matches the claimed %s definition best (max on [-5, 5]: %s)", gl_defn_name(own_d),
            all);
}

static int probe_all16(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                       int region_all, struct gl_validation *v)
{
    struct all16 *a = malloc(sizeof *a);
    if (!a) return add(v, "nan", GL_CHECK_FAIL, "out of memory"), v->crashed = 1, -1;
    a->fmt = &s->fmt;
    for (int i = 0; i < 65536; i++) a->x[i] = gl_bits16_to_f32(s->fmt.id, (uint16_t)i);
    if (call(s, k, ch, a->x, a->y, 65536, NULL, v, "nan")) return free(a), -1;
    for (int i = 0; i < 65536; i++) a->yr[i] = gl_ref_f32(k->defn, a->x[i], a->fmt, &a->r[i]);
    check16_nan(a, v);
    check16_rounding(a, k->defn, v);
    check_subnormal(a->x, a->y, a->yr, 65536, a->fmt, v);
    check16_tail(a, k->defn, region_all, v);
    check16_definition(a, k->defn, v);
    free(a);
    return 0;
}

int gl_validate_probes(const struct gl_sweep *s, const struct gl_kernel_src *k, struct gl_child *ch,
                       int region_all, struct gl_validation *v)
{
    int rc = gl_kernel_abi_is16(k->abi)
                 ? probe_specials(s, k, ch, v) || probe_all16(s, k, ch, region_all, v) ||
                       probe_layout(s, k, ch, v)
             : k->backward
                 ? probe_specials_grad(s, k, ch, v) || probe_tail_grad(s, k, ch, region_all, v) ||
                       probe_definition(s, k, ch, v) || probe_precision(s, k, ch, v) ||
                       probe_layout(s, k, ch, v) || probe_dy(s, k, ch, v)
                 : probe_specials(s, k, ch, v) || probe_tail(s, k, ch, region_all, v) ||
                       probe_subnormal(s, k, ch, v) || probe_definition(s, k, ch, v) ||
                       probe_precision(s, k, ch, v) || probe_layout(s, k, ch, v);
    return rc && v->crashed ? -1 : 0; /* else a memory finding: a FAIL among the checks */
}

/* ---- the bounds and the range, from the sweep (gelulab validate's verdict on its figures) ---- */

/* The statistics of the region (core or all) against acc, with or without the root region (a
 * backward kernel's inputs next to the zero of f', where ULP error is unbounded; empty for a
 * forward kernel): maxima, counts and the worst input */
static struct gl_stats region_stats(const struct gl_acc *acc, int region_all, int with_root)
{
    if (region_all && with_root) return acc->all;
    struct gl_stats st = acc->region[GL_REGION_CORE];
    const struct gl_stats *more[3] = {region_all ? &acc->region[GL_REGION_TAIL_NEG] : NULL,
                                      region_all ? &acc->region[GL_REGION_POS] : NULL,
                                      with_root ? &acc->region[GL_REGION_ROOT] : NULL};
    for (int i = 0; i < 3; i++)
        if (more[i]) gl_stats_merge(&st, more[i]);
    return st;
}

void gl_validate_bounds(const struct gl_kernel_src *k, const struct gl_kernel_result *res,
                        const struct gl_format *fmt, double max_ulp, double max_abs, int region_all,
                        struct gl_validation *v)
{
    const struct gl_acc *acc = res->acc[0];
    struct gl_stats st = region_stats(acc, region_all, 0), wide = region_stats(acc, region_all, 1);
    const char *reg = region_all    ? (k->backward ? "all inputs outside the root" : "all inputs")
                      : k->backward ? "[-5, 5] outside the root"
                                    : "[-5, 5]";
    if (max_ulp == 0.5) {
        /* 0.5 ULP means correctly rounded: every result equal to the correctly rounded
         * reference, bit for bit. The ULP figure cannot say it: an error of 0.5 + 1e-40 ULP
         * (a double rounding) rounds to 0.5 in binary64. */
        uint64_t wrong = st.n - st.correctly_rounded;
        char zs[96] = ""; /* how many of them only in the sign of zero */
        if (st.zero_sign)
            snprintf(zs, sizeof zs, ", %llu of them only in the sign of zero",
                     (unsigned long long)st.zero_sign);
        if (wrong)
            add(v, "max-ulp", GL_CHECK_FAIL,
                "not correctly rounded (--max-ulp 0.5) on %s: %llu of %llu results differ from "
                "the correctly rounded reference%s (max ULP %.4g)",
                reg, (unsigned long long)wrong, (unsigned long long)st.n, zs, st.max_ulp);
        else
            add(v, "max-ulp", GL_CHECK_PASS,
                "correctly rounded (--max-ulp 0.5) on %s: 0 of %llu results differ from the "
                "correctly rounded reference",
                reg, (unsigned long long)st.n);
    } else {
        int ok = st.max_ulp <= max_ulp;
        add(v, "max-ulp", ok ? GL_CHECK_PASS : GL_CHECK_FAIL,
            "max ULP on %s: %.4g %s %.4g (worst x = %a, result %a, reference %a)", reg, st.max_ulp,
            ok ? "<=" : ">", max_ulp, st.worst.x, st.worst.y, st.worst.r);
    }
    reg = region_all ? "all inputs" : "[-5, 5]";
    if (k->backward) {
        double sc = gl_scaled_ulp(wide.max_abs, fmt);
        int ok = sc <= max_ulp;
        add(v, "max-scaled", ok ? GL_CHECK_PASS : GL_CHECK_FAIL,
            "max scaled error (ulps of 1) on %s, root included: %.4g %s %.4g", reg, sc,
            ok ? "<=" : ">", max_ulp);
    }
    int ok = wide.max_abs <= max_abs;
    add(v, "max-abs", ok ? GL_CHECK_PASS : GL_CHECK_FAIL, "max abs error on %s: %.4g %s %.4g", reg,
        wide.max_abs, ok ? "<=" : ">", max_abs);
    add(v, "nonfinite", wide.nonfinite ? GL_CHECK_FAIL : GL_CHECK_PASS,
        "non-finite results where the definition is finite, or the reverse, on %s: %llu%s", reg,
        (unsigned long long)wide.nonfinite, wide.nonfinite ? " (NaN inputs excluded)" : "");
}

void gl_validate_range(const struct gl_kernel_src *k, const struct gl_kernel_result *res,
                       struct gl_validation *v)
{
    const struct gl_traits *t = &res->acc[0]->traits;
    const uint64_t ws = t->n[GL_TRAIT_WRONG_SIGN], hi = t->n[GL_TRAIT_PHI_ABOVE1];
    if (k->backward) { /* f' changes sign at x0; Phi above 1 does not apply */
        double x0 = gl_defn_root(k->defn), lo = t->x_lo[GL_TRAIT_WRONG_SIGN],
               hi_x = t->x_hi[GL_TRAIT_WRONG_SIGN];
        int near = ws && fabs(lo - x0) <= GL_ROOT_HALFWIDTH && fabs(hi_x - x0) <= GL_ROOT_HALFWIDTH;
        if (!ws)
            add(v, "range", GL_CHECK_PASS, "every result has the sign of f'(x)");
        else
            add(v, "range", near ? GL_CHECK_WARN : GL_CHECK_FAIL,
                "results of the wrong sign on %llu inputs, x in [%a, %a]%s", (unsigned long long)ws,
                lo, hi_x,
                near ? ": only next to the zero of f' (x0 = -0.7518...), where the scaled error "
                       "bounds them"
                     : "");
        return;
    }
    if (!ws && !hi) {
        add(v, "range", GL_CHECK_PASS,
            "every result has the sign of x and |y| <= |x| (Phi(x) = y/x within [0, 1])");
        return;
    }
    char a1[160] = "", a2[200] = "";
    if (ws)
        snprintf(a1, sizeof a1, "results of the wrong sign on %llu inputs, x in [%a, %a]%s",
                 (unsigned long long)ws, t->x_lo[GL_TRAIT_WRONG_SIGN], t->x_hi[GL_TRAIT_WRONG_SIGN],
                 hi ? "; " : "");
    if (hi)
        snprintf(a2, sizeof a2,
                 "|y| > |x| on %llu inputs, x in [%a, %a]: Phi(x) = y/x above 1 (erf above 1, "
                 "or an overflow to inf)",
                 (unsigned long long)hi, t->x_lo[GL_TRAIT_PHI_ABOVE1],
                 t->x_hi[GL_TRAIT_PHI_ABOVE1]);
    add(v, "range", GL_CHECK_FAIL, "%s%s (of the swept inputs)", a1, a2);
}
