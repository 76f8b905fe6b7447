/* The report's facts (include/gelulab/facts.h): reference values behind the claims people
 * repeat about GELU, the definitions on a grid, how many bfloat16/binary16 inputs change between
 * definitions, each kernel's special values, each kernel's error on a grid of x, and the
 * machine. Everything here is computed from the reference and the kernels, so that the report
 * only reads files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <mpfr.h>
#include "gelulab/facts.h"
#include "gelulab/metrics.h"
#include "gelulab/reference.h"
#include "gelulab/sweep.h"

static double ref(enum gl_defn d, double x)
{
    double y;
    gl_ref_d(d, x, &gl_format_f64, &y, NULL);
    return y;
}

/* x in [lo, hi] where f changes sign (f(lo) < 0 < f(hi) or the reverse), by bisection to the
 * last double */
static double bisect(enum gl_defn d, double lo, double hi)
{
    int slo = ref(d, lo) < 0;
    while (1) {
        double mid = lo + (hi - lo) / 2;
        if (mid == lo || mid == hi) return fabs(ref(d, lo)) < fabs(ref(d, hi)) ? lo : hi;
        if ((ref(d, mid) < 0) == slo)
            lo = mid;
        else
            hi = mid;
    }
}

/* max |a(x) - b(x)| over [lo, hi]: a grid of step h, then golden-section refinement */
static void max_diff(enum gl_defn a, enum gl_defn b, double lo, double hi, double h, double *at,
                     double *diff)
{
    double best = -1, bx = lo;
    for (double x = lo; x <= hi; x += h) {
        double v = fabs(ref(a, x) - ref(b, x));
        if (v > best) best = v, bx = x;
    }
    double l = bx - h, r = bx + h, g = (sqrt(5) - 1) / 2;
    for (int i = 0; i < 80; i++) {
        double m1 = r - g * (r - l), m2 = l + g * (r - l);
        if (fabs(ref(a, m1) - ref(b, m1)) > fabs(ref(a, m2) - ref(b, m2)))
            r = m2;
        else
            l = m1;
    }
    *at = (l + r) / 2;
    *diff = fabs(ref(a, *at) - ref(b, *at));
}

void gl_facts_claims(struct gl_facts_claims *c)
{
    c->gelu_m1 = ref(GL_DEFN_EXACT, -1), c->gelu_2 = ref(GL_DEFN_EXACT, 2);
    c->phi_1 = ref(GL_DEFN_PHI, 1);
    c->min_x = bisect(GL_DEFN_EXACT_GRAD, -1.0, -0.5); /* GELU' = 0 */
    c->min_y = ref(GL_DEFN_EXACT, c->min_x);
    c->tanh_m1 = ref(GL_DEFN_TANH, -1), c->tanh_2 = ref(GL_DEFN_TANH, 2);
    max_diff(GL_DEFN_TANH, GL_DEFN_EXACT, -10, 10, 1e-3, &c->tanh_diff_x, &c->tanh_diff);
    max_diff(GL_DEFN_SIGMOID, GL_DEFN_EXACT, -10, 10, 1e-3, &c->sigmoid_diff_x, &c->sigmoid_diff);
}

/* inputs of a 16-bit format whose correctly rounded result differs between d and exact GELU */
long gl_facts_format_changes(const struct gl_format *f, enum gl_defn d)
{
    long changed = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        float x = f->id == GL_FMT_BF16 ? gl_bf16_to_f32((uint16_t)b) : gl_f16_to_f32((uint16_t)b);
        if (isnan(x)) continue;
        double ya = gl_ref_f32(d, x, f, NULL), ye = gl_ref_f32(GL_DEFN_EXACT, x, f, NULL);
        changed += memcmp(&ya, &ye, sizeof ya) != 0;
    }
    return changed;
}

int gl_facts_write_curves(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "x,exact,tanh,sigmoid,silu,tanh_minus_exact,sigmoid_minus_exact\n");
    for (int i = -600; i <= 600; i++) {
        double x = i / 100.0, e = ref(GL_DEFN_EXACT, x), t = ref(GL_DEFN_TANH, x);
        double s = ref(GL_DEFN_SIGMOID, x);
        fprintf(f, "%.2f,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", x, e, t, s, ref(GL_DEFN_SILU, x),
                t - e, s - e);
    }
    return fclose(f);
}

/* Kernel k on the five special inputs, in process or through its external command. */
int gl_facts_specials(const struct gl_kernel_src *k, float out[5])
{
    const float in[5] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
    char why[200];
    return gl_kernel_call(NULL, k, NULL, in, NULL, out, 5, NULL, why, sizeof why);
}

/* Kernel k's largest errors in cells of width 2 W / cells over [-W, W], PER inputs per cell,
 * against its own definition and exact GELU: one CSV line per cell. */
void gl_facts_errors(const struct gl_kernel_src *k, FILE *f, double w, int cells, int per)
{
    float *x = malloc((size_t)per * sizeof *x), *y = malloc((size_t)per * sizeof *y);
    for (int c = 0; c < cells; c++) {
        double lo = -w + 2 * w * c / cells, step = 2 * w / cells / per;
        for (int i = 0; i < per; i++) x[i] = (float)(lo + step * (i + 0.5));
        k->impl->f32(x, y, (size_t)per);
        double mabs = 0, mulp = 0, mulp_ex = 0;
        for (int i = 0; i < per; i++) {
            struct gl_dd r, re;
            gl_ref_f32(k->defn, x[i], &gl_format_f32, &r);
            gl_ref_f32(GL_DEFN_EXACT, x[i], &gl_format_f32, &re);
            double a = gl_abs_error(y[i], r), u = gl_ulp_error(y[i], r, &gl_format_f32),
                   ue = gl_ulp_error(y[i], re, &gl_format_f32);
            mabs = a > mabs ? a : mabs, mulp = u > mulp ? u : mulp;
            mulp_ex = ue > mulp_ex ? ue : mulp_ex;
        }
        fprintf(f, "%s,%.6f,%.9g,%.9g,%.9g\n", k->name, lo + w / cells, mabs, mulp, mulp_ex);
    }
    free(x), free(y);
}

void gl_facts_versions(char *mpfr, char *gmp, size_t len)
{
    snprintf(mpfr, len, "%s", mpfr_get_version());
    snprintf(gmp, len, "%s", gmp_version);
}
