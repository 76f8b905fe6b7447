/* The reference against values known independently of it: published high-precision decimals
 * (rounded to each format by the C library's correctly rounded strtod/strtof, or compared at
 * 100 bits), values that follow from the Taylor series at 0, the minimum of GELU, and the
 * published maximum gap between the tanh form and exact GELU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gelulab/reference.h"

/* f(x) at 100 bits, as a double pair of the difference to a decimal: |f(x) - dec| / |dec| */
static double rel_diff_100(enum gl_defn d, const char *x, const char *dec)
{
    struct gl_format f;
    gl_format_parse("mpfr:100", &f);
    mpfr_t mx, y, want;
    mpfr_inits2(100, mx, y, want, (mpfr_ptr)0);
    gl_parse_value(x, &f, mx);
    gl_ref_mpfr(d, mx, &f, y, NULL);
    mpfr_set_str(want, dec, 10, MPFR_RNDN);
    mpfr_sub(y, y, want, MPFR_RNDN);
    mpfr_div(y, y, want, MPFR_RNDN);
    double r = fabs(mpfr_get_d(y, MPFR_RNDN));
    mpfr_clears(mx, y, want, (mpfr_ptr)0);
    return r;
}

static double ref(enum gl_defn d, double x, const struct gl_format *f)
{
    double y;
    CHECK(gl_ref_d(d, x, f, &y, NULL) == GL_REF_OK, "undecided %s(%a)", gl_defn_name(d), x);
    return y;
}

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Published decimals (30 digits; DLMF / Abramowitz & Stegun tables, Wolfram|Alpha). */
static const struct {
    enum gl_defn d;
    const char *x, *value;
} published[] = {
    {GL_DEFN_EXACT, "-1", "-0.158655253931457051414767454367962"},
    {GL_DEFN_EXACT, "2", "1.95449973610364158559943472566693"},
    {GL_DEFN_EXACT, "1", "0.841344746068542948585232545632038"},
    {GL_DEFN_PHI, "1", "0.841344746068542948585232545632038"},
    {GL_DEFN_PHI, "-3", "0.00134989803163009452665181476759"},
    {GL_DEFN_ERF, "1", "0.842700792949714869341220635082610"},
    {GL_DEFN_ERFC, "1", "0.157299207050285130658779364917390"},
    {GL_DEFN_ERFC, "5", "1.53745979442803485018834348538769e-12"},
    {GL_DEFN_TANHF, "1", "0.761594155955764888119458282604794"},
    /* SiLU from Python's decimal module (correctly rounded exp, 40 digits) */
    {GL_DEFN_SILU, "1", "0.731058578630004879251159241821836274365"},   /* 1/(1+e^-1) */
    {GL_DEFN_SILU, "-2", "-0.238405844044235111880541717395206409587"}, /* -2/(1+e^2) */
    /* The derivatives of the tanh, sigmoid and SiLU forms from mpmath 1.3 at 60 digits, by other
     * formulas than the reference's: d/dx of (x/2)(1 + tanh(u)) with tanh itself, and numerical
     * differentiation (mpmath.diff) of x sigma(a x) */
    {GL_DEFN_TANH_GRAD, "2", "1.08609925662361838156451391755698394"},
    {GL_DEFN_TANH_GRAD, "-1", "-0.0829640838457825551396424186696007582"},
    {GL_DEFN_SIGMOID_GRAD, "-1", "-0.067779606556334056566949974518677077"},
    {GL_DEFN_SIGMOID_GRAD, "3", "1.02454832390565234874260546472519769"},
    {GL_DEFN_SILU_GRAD, "1", "0.9276705118714867317885839754077453"},
    {GL_DEFN_SILU_GRAD, "-2", "-0.0907842487848954787569775108232475177"},
};

static void test_published(void)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        enum gl_defn d = published[i].d;
        double x = strtod(published[i].x, NULL);
        double r = rel_diff_100(d, published[i].x, published[i].value);
        double tol = 1e-28;
        CHECK(r < tol, "%s(%s) at 100 bits: relative gap %g to %s", gl_defn_name(d), published[i].x,
              r, published[i].value);
        double want64 = strtod(published[i].value, NULL);
        float want32 = strtof(published[i].value, NULL);
        double got64 = ref(d, x, &gl_format_f64), got32 = ref(d, x, &gl_format_f32);
        CHECK(same(got64, want64), "%s(%s) f64: got %a want %a", gl_defn_name(d), published[i].x,
              got64, want64);
        CHECK(same(got32, want32), "%s(%s) f32: got %a want %a", gl_defn_name(d), published[i].x,
              got32, (double)want32);
    }
}

/* Hex-float results: GELU(-1) in f32 and bf16 from the decimal above; tail and tiny inputs. */
static void test_hex(void)
{
    CHECK(same(ref(GL_DEFN_EXACT, -1, &gl_format_f32), -0x1.44ed0cp-3), "GELU(-1) f32");
    /* bf16 keeps 7 fraction bits of 0x1.44ed0c = 1.0100010|0111011...: below half, -0x1.44p-3 */
    CHECK(same(ref(GL_DEFN_EXACT, -1, &gl_format_bf16), -0x1.44p-3), "GELU(-1) bf16");
    /* f16 keeps 10: 1.0100010011|101101...: above half, rounds up to -0x1.45p-3 */
    CHECK(same(ref(GL_DEFN_EXACT, -1, &gl_format_f16), -0x1.45p-3), "GELU(-1) f16");
    /* Phi(-14) = 7.79353681919...e-45 (A&S 26.2.12 asymptotics), so GELU(-14) = -1.0911e-43
     * = -77.86 * 2^-149: f32 rounds to -78 * 2^-149 = -0x1.38p-143 (a subnormal). */
    CHECK(same(ref(GL_DEFN_EXACT, -14, &gl_format_f32), -0x1.38p-143), "GELU(-14) f32");
    /* GELU(x) = x/2 + x^2/sqrt(2 pi) - ...: at the smallest subnormal x = 2^-149 the value is
     * just above the midpoint 2^-150, so it rounds up to 2^-149; at -2^-149 just above -2^-150,
     * so it rounds to -0. The same holds in every format at its own smallest subnormal. */
    const struct gl_format *fmts[] = {&gl_format_f64, &gl_format_f32, &gl_format_bf16,
                                      &gl_format_f16};
    for (int i = 0; i < 4; i++) {
        double tiny = ldexp(1.0, (int)fmts[i]->emin_sub);
        CHECK(same(ref(GL_DEFN_EXACT, tiny, fmts[i]), tiny), "GELU(+min subnormal) %s",
              fmts[i]->name);
        CHECK(same(ref(GL_DEFN_EXACT, -tiny, fmts[i]), -0.0), "GELU(-min subnormal) %s",
              fmts[i]->name);
    }
    /* Far tail: |GELU(-40)| ~ 1e-349 is below every format's smallest subnormal: -0. */
    CHECK(same(ref(GL_DEFN_EXACT, -40, &gl_format_f64), -0.0), "GELU(-40) f64");
    /* Large x: Phi(x) = 1 - 1e-19 or closer: GELU(x) = x in f32 for x >= 9 (1 - Phi(9) < 2^-60) */
    CHECK(same(ref(GL_DEFN_EXACT, 9, &gl_format_f32), 9.0), "GELU(9) f32");
    CHECK(same(ref(GL_DEFN_EXACT, 0x1.fffffep127, &gl_format_f32), 0x1.fffffep127), "GELU(max)");
}

/* Special values for every definition and format. */
static void test_special(void)
{
    static const struct {
        enum gl_defn d;
        double pinf, minf, pzero, mzero;
    } sv[] = {
        {GL_DEFN_EXACT, INFINITY, -0.0, 0.0, -0.0},
        {GL_DEFN_TANH, INFINITY, -0.0, 0.0, -0.0},
        {GL_DEFN_SIGMOID, INFINITY, -0.0, 0.0, -0.0},
        {GL_DEFN_SILU, INFINITY, -0.0, 0.0, -0.0},
        {GL_DEFN_EXACT_GRAD, 1.0, -0.0, 0.5, 0.5},
        {GL_DEFN_ERF, 1.0, -1.0, 0.0, -0.0},
        {GL_DEFN_TANH_GRAD, 1.0, -0.0, 0.5, 0.5},
        {GL_DEFN_SIGMOID_GRAD, 1.0, -0.0, 0.5, 0.5},
        {GL_DEFN_SILU_GRAD, 1.0, -0.0, 0.5, 0.5},
        {GL_DEFN_ERFC, 0.0, 2.0, 1.0, 1.0},
        {GL_DEFN_PHI, 1.0, 0.0, 0.5, 0.5},
        {GL_DEFN_TANHF, 1.0, -1.0, 0.0, -0.0},
    };
    const struct gl_format *fmts[] = {&gl_format_f64, &gl_format_f32, &gl_format_bf16,
                                      &gl_format_f16};
    for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++) {
        for (int f = 0; f < 4; f++) {
            const char *n = gl_defn_name(sv[i].d);
            CHECK(same(ref(sv[i].d, INFINITY, fmts[f]), sv[i].pinf), "%s(+inf)", n);
            CHECK(same(ref(sv[i].d, -INFINITY, fmts[f]), sv[i].minf), "%s(-inf)", n);
            CHECK(same(ref(sv[i].d, 0.0, fmts[f]), sv[i].pzero), "%s(+0)", n);
            CHECK(same(ref(sv[i].d, -0.0, fmts[f]), sv[i].mzero), "%s(-0)", n);
            CHECK(isnan(ref(sv[i].d, NAN, fmts[f])), "%s(nan)", n);
        }
        /* the fast path agrees on the special values */
        double y;
        float xs[] = {INFINITY, -INFINITY, 0.0f, -0.0f};
        double want[] = {sv[i].pinf, sv[i].minf, sv[i].pzero, sv[i].mzero};
        for (int k = 0; k < 4 && gl_ref_has_fast(sv[i].d); k++) {
            CHECK(gl_ref_fast(sv[i].d, xs[k], &gl_format_f32, &y, NULL) == 1 && same(y, want[k]),
                  "fast %s(%a)", gl_defn_name(sv[i].d), (double)xs[k]);
        }
        if (gl_ref_has_fast(sv[i].d))
            CHECK(gl_ref_fast(sv[i].d, NAN, &gl_format_f32, &y, NULL) == 1 && isnan(y), "fast nan");
    }
}

/* GELU's minimum: x0 = -0.751791524693564457..., GELU(x0) = -0.169971207479903662... */
static void test_minimum(void)
{
    double x0 = -0.751791524693564457;
    double lo = nextafter(x0, -1), hi = nextafter(x0, 0);
    double g_lo = ref(GL_DEFN_EXACT_GRAD, lo - 1e-12, &gl_format_f64);
    double g_hi = ref(GL_DEFN_EXACT_GRAD, hi + 1e-12, &gl_format_f64);
    CHECK(g_lo < 0 && g_hi > 0, "GELU' changes sign at x0: %a %a", g_lo, g_hi);
    double m = ref(GL_DEFN_EXACT, x0, &gl_format_f64);
    CHECK(fabs(m - -0.169971207479903662) < 2e-17, "GELU(x0) = %.18g", m);
    CHECK(ref(GL_DEFN_EXACT, x0 - 1e-4, &gl_format_f64) > m, "left of the minimum");
    CHECK(ref(GL_DEFN_EXACT, x0 + 1e-4, &gl_format_f64) > m, "right of the minimum");
}

/* The forms' minima (mpmath.findroot of their derivatives, 25 digits): the derivative
 * changes sign there, and is negative on the far left down to its underflow to -0. */
static void test_grad_roots(void)
{
    static const struct {
        enum gl_defn d;
        double root;
    } roots[] = {{GL_DEFN_EXACT_GRAD, -0.751791524693564457},
                 {GL_DEFN_TANH_GRAD, -0.7524614220710162584879544},
                 {GL_DEFN_SIGMOID_GRAD, -0.7511542554412889512980956},
                 {GL_DEFN_SILU_GRAD, -1.278464542761073795109359}};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        enum gl_defn d = roots[i].d;
        double r = roots[i].root;
        CHECK(gl_defn_root(d) == r, "gl_defn_root(%s) = %.17g", gl_defn_name(d), gl_defn_root(d));
        double g_lo = ref(d, r - 1e-12, &gl_format_f64), g_hi = ref(d, r + 1e-12, &gl_format_f64);
        CHECK(g_lo < 0 && g_hi > 0, "%s changes sign at %.17g: %a %a", gl_defn_name(d), r, g_lo,
              g_hi);
        CHECK(ref(d, -20, &gl_format_f64) < 0, "%s(-20) negative", gl_defn_name(d));
        CHECK(same(ref(d, -1e6, &gl_format_f64), -0.0), "%s(-1e6) = -0", gl_defn_name(d));
        CHECK(same(ref(d, 1e6, &gl_format_f64), 1.0), "%s(1e6) = 1", gl_defn_name(d));
    }
}

/* max |tanh form - exact| ~ 4.7324e-4 near |x| ~ 2.70 (both signs: the gap is odd-symmetric
 * in x since GELU(x) - GELU(-x) = x for both forms); x*sigma(1.702 x) off by ~0.020 near -2.27. */
static void max_gap(enum gl_defn d, double a, double b, double *gap, double *where)
{
    *gap = 0;
    for (double x = a; x <= b; x += 1e-4) {
        double g = fabs(ref(d, x, &gl_format_f64) - ref(GL_DEFN_EXACT, x, &gl_format_f64));
        if (g > *gap) *gap = g, *where = x;
    }
}

static void test_gaps(void)
{
    double gap, at;
    max_gap(GL_DEFN_TANH, 2.5, 2.9, &gap, &at);
    CHECK(fabs(gap - 4.7324e-4) < 5e-8 && fabs(at - 2.70) < 0.05, "tanh gap %.6g at %.4f", gap, at);
    max_gap(GL_DEFN_TANH, -2.9, -2.5, &gap, &at);
    CHECK(fabs(gap - 4.7324e-4) < 5e-8 && fabs(at + 2.70) < 0.05, "tanh gap %.6g at %.4f", gap, at);
    max_gap(GL_DEFN_SIGMOID, -2.5, -2.0, &gap, &at);
    CHECK(fabs(gap - 0.020) < 5e-4 && fabs(at + 2.27) < 0.05, "sigmoid gap %.6g at %.4f", gap, at);
}

int main(void)
{
    test_published();
    test_hex();
    test_special();
    test_minimum();
    test_grad_roots();
    test_gaps();
    gl_ref_release();
    return gl_check_summary("test_known_values");
}
