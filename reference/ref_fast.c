/* Fast certified reference for binary32 inputs (include/gelulab/reference.h, gl_ref_fast).
 *
 * Each definition is evaluated in double as hi + lo with an error bound err, |hi + lo - f(x)| <=
 * err, derived below term by term (u = 2^-53, one rounding of +,-,*,/ costs at most u relative).
 * decide() rounds hi + lo to the target format only when no rounding boundary (a midpoint
 * between two neighbours of the format) lies within err; otherwise the caller uses MPFR.
 *
 * Assumed libm accuracy (glibc's documented maxima, libm-test-ulps, are lower; the start-up
 * self-check, gl_ref_selfcheck, measures both on this machine and the fast path is not trusted
 * if either is exceeded):  erfc  <= GL_LIBM_ERFC_ULP ulps,  exp  <= GL_LIBM_EXP_ULP ulps.
 * An error of k ulps is at most k * 2^-52 relative.
 *
 * exact, |x| >= 2^-20, x >= -37.5:  t = -x*RN(1/sqrt2) (rel. err <= 2^-52), e = erfc(t),
 *   y = (x/2)*e. erfc's condition number |t erfc'(t)/erfc(t)| is below 2t^2+1 for all t
 *   (t > 0: erfc(t) > 2/sqrt(pi) e^-t^2 / (t + sqrt(t^2+2)), Abramowitz & Stegun 7.1.13;
 *   t <= 0: erfc(t) >= 1 and |t| 2/sqrt(pi) e^-t^2 < 0.49). So
 *   rel.err <= (E_erfc + cond + 1/2 + second order) 2^-52 <= (E_erfc + cond + 1) 2^-52, with
 *   cond = 2t^2+1 for t > 0 and 1 for t <= 0.
 *   t <= 26.52 keeps erfc(t) >= 9e-308, a normal double.
 * x*sigma(s) forms (tanh, sigmoid, silu), |x| >= 2^-20, s >= -708:
 *   s is computed with rel.err <= 4*2^-52: tanh: x*x exact, *x, *RN(0.044715), + x (same signs,
 *   no cancellation), *RN(2 sqrt(2/pi)): six roundings, 3*2^-52; sigmoid: two, silu: none.
 *   s >= 0: e = exp(-s), y = x/(1+e);  s < 0: e = exp(s), y = x*e/(1+e)   (no overflow).
 *   s < 0: exp's condition number is |s|, y's relative sensitivity to e is 1/(1+e) <= 1, three
 *   roundings: rel.err <= (E_exp + 4|s| + 3) 2^-52. s >= 0: y's sensitivity to e is
 *   e/(1+e) <= e, to s is s e^-s/(1+e^-s) <= 1/e_Euler < 1/2, two roundings:
 *   rel.err <= (E_exp + 2 + 1 + second order) 2^-52 <= (E_exp + 5) 2^-52 (an underflowed e
 *   has an absolute error below 2^-1074, harmless). s >= -708 keeps e >= 3.3e-308 normal.
 * |x| < 2^-20 (all four): y = x/2 + lo, Taylor:
 *   exact: lo = x^2/sqrt(2 pi), next term x^4/(6 sqrt(2 pi)) = lo * x^2/6 < lo * 2^-42.5;
 *   x sigma(s): lo = x*s/4, next term x s^3/48 = lo * s^2/12 < lo * 2^-42; with the roundings
 *   of lo (< 2^-49), |error| <= |lo| 2^-40.
 * Far right (x >= 10 for exact: Phi(-x) < 2^-75; s >= 48 for the others: e^-s < 2^-69):
 *   f(x) = x to within |x| 2^-66, so hi = x, lo = 0, err = |x| 2^-66 (2^-70 for exact).
 * Below the thresholds (x < -37.5 for exact, s < -708 for the others) |f(x)| < 2^-1000: the
 * result is a zero of x's sign in every format of at most 24 bits, decided, and hi = lo = 0.
 *
 * The derivatives are a sum A + B of two terms computed apart, hi + lo = A + B exactly (TwoSum),
 * so err = |A| relA + |B| relB is an absolute bound whatever the cancellation: near each form's
 * minimum (x ~ -0.75, f' = 0) the bound is large against f' and decide() hands over to MPFR.
 * exact_grad, -37.5 <= x <= 40: A = Phi(x) = erfc(t)/2 as above, relA <= (E_erfc + cond + 1)
 *   2^-52; B = x exp(-x^2/2) RN(1/sqrt(2 pi)): x*x (one rounding) makes the argument's absolute
 *   error x^2 2^-54, exp's condition number is its argument, then three roundings:
 *   relB <= (E_exp + x^2/4 + 2) 2^-52, taken as (E_exp + x^2 + 3) 2^-52; a B that underflows
 *   (x > 38.6) is off by at most 2^-1074, under the 2^-1060 added to err. x < -37.5: |f'| <
 *   |x| phi(x) < 2^-1000, -0 (from below); x > 40: f' = 1 to within 2^-1000.
 * tanh_grad, sigmoid_grad, silu_grad, |s| <= 708: with e = exp(-|s|), p = 1/(1+e), q = e p,
 *   sigma(s) and sigma(-s) are p and q (s >= 0) or q and p; A = sigma(s), B = x s' p q. s as
 *   for the forward forms (rel.err <= 4 2^-52), s' = RN(2 sqrt(2/pi)) (1 + RN(0.134145) x^2)
 *   (six roundings, 3 2^-52), RN(1.702), or 1. e's relative error ee <= (E_exp + 4|s| + 1)
 *   2^-52 (argument and libm); p's <= ee e/(1+e) + 2^-52, q's <= 2 ee + 1.5 2^-52, so relA <=
 *   2 ee + 1.5 2^-52 and relB <= 3 ee + 7 2^-52 (s', p, q, three roundings); err takes both as
 *   3 ee + 12 2^-52, plus 2^-1060 for a subnormal B (x subnormal). s < -708: |f'| <= q (1 +
 *   |x s'|) < 2^-1000 (|x s'| < 2200 there), -0 (x << -1, from below); s > 708: f' = 1 to
 *   within 2^-1000.
 * A zero result of a derivative takes the sign of hi + lo when |hi + lo| > err, else MPFR
 * decides. */
#include <math.h>
#include <string.h>
#include "gelulab/reference.h"
#include "ref_fast.h"

static const double inv_sqrt2 = 0x1.6a09e667f3bcdp-1;     /* RN(1/sqrt(2))         */
static const double inv_sqrt_2pi = 0x1.9884533d43651p-2;  /* RN(1/sqrt(2*pi))      */
static const double two_sqrt_2_pi = 0x1.9884533d43651p+0; /* RN(2*sqrt(2/pi))      */
static const double c_044715 = 0x1.6e4e26d4801f7p-5;      /* RN(0.044715)          */
static const double c_1702 = 0x1.b3b645a1cac08p+0;        /* RN(1.702)             */
static const double c_0134145 = 0x1.12ba9d1f60179p-3;     /* RN(0.134145), 3*0.044715 */

struct approx {
    double hi, lo, err; /* |hi + lo - f(x)| <= err */
};

static uint64_t bits_of(double a)
{
    uint64_t u;
    memcpy(&u, &a, sizeof u);
    return u;
}

/* Spacing above a >= 0 in fmt: 2^max(floor(log2 a) - p + 1, emin_sub). a is 0 or >= 2^-1000. */
static double ulp_above(double a, const struct gl_format *f)
{
    long e = a == 0 ? f->emin_sub : (long)(bits_of(a) >> 52) - 1023 - f->prec + 1;
    return gl_pow2(e > f->emin_sub ? e : f->emin_sub);
}

/* Spacing below a > 0: half the spacing above at a power of two (outside the subnormals). */
static double ulp_below(double a, const struct gl_format *f)
{
    int pow2_a = (bits_of(a) & 0xfffffffffffffull) == 0;
    return ulp_above(pow2_a ? a * 0.5 : a, f);
}

static double next_up(double c, const struct gl_format *f)
{
    return c >= 0 ? c + ulp_above(c, f) : -(-c - ulp_below(-c, f));
}

static double next_down(double c, const struct gl_format *f)
{
    return c > 0 ? c - ulp_below(c, f) : -(-c + ulp_above(-c, f));
}

/* Round v to fmt, nearest-even (2^emax stands for overflow). */
static double round_fmt(double v, const struct gl_format *f)
{
    double u = ulp_above(fabs(v), f);
    double r = v / u;                       /* exact: a power of two; |r| < 2^25 */
    return ((r + 0x1.8p52) - 0x1.8p52) * u; /* round to integer, ties to even */
}

/* Correctly round a.hi + a.lo to fmt if err decides it: 1 and *y, else 0. Midpoints of formats
 * of <= 24 bits are doubles. m - hi is exact when m and hi are within a factor 2 (Sterbenz);
 * otherwise |m - hi| >= |hi|/2 dwarfs err, so its rounding (<= 2^-53 relative) cannot flip a
 * comparison that the 1 + 2^-20 margin on err does not cover. */
static int decide(struct approx a, const struct gl_format *f, double *y)
{
    double e = a.err * (1 + 0x1p-20);
    double c = round_fmt(a.hi + a.lo, f);
    for (int i = 0; i < 3; i++) {
        double up = next_up(c, f), dn = next_down(c, f);
        double d_hi = (0.5 * (c + up) - a.hi) - a.lo; /* > 0: below the upper midpoint */
        double d_lo = (a.hi - 0.5 * (c + dn)) + a.lo; /* > 0: above the lower midpoint */
        if (d_hi > e && d_lo > e) {
            *y = fabs(c) >= gl_pow2(f->emax) ? copysign(INFINITY, c) : c;
            return 1;
        }
        if (d_hi < -e)
            c = up;
        else if (d_lo < -e)
            c = dn;
        else
            return 0;
    }
    return 0;
}

/* decide_f32's test on n approximations at once, four lanes at a time in GCC vectors, lane by
 * lane the same operations (the neighbours' bits: +1 or -1 by the sign bit, +-2^-149 around a
 * zero): ok[i] when the candidate y[i] = RN_f32(hi + lo) is decided (0 also where |y[i]| is
 * the largest binary32 or beyond, or NaN: decide() takes those). The arrays hold n rounded up
 * to a multiple of 4 (the caller pads with zeros). */
typedef double VD4 __attribute__((vector_size(32)));
typedef int64_t VL4 __attribute__((vector_size(32)));
typedef float VF4 __attribute__((vector_size(16)));
typedef int32_t VI4 __attribute__((vector_size(16)));
typedef uint32_t VU4 __attribute__((vector_size(16)));
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static void
decide_f32_lanes(const double *hi, const double *lo, const double *err, int n, double *y,
                 unsigned char *ok)
{
    const VI4 one = {1, 1, 1, 1}, abs = {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX};
    const VI4 big = {0x7f7fffff, 0x7f7fffff, 0x7f7fffff, 0x7f7fffff};
    const VI4 zdn = {(int32_t)0x80000001u, (int32_t)0x80000001u, (int32_t)0x80000001u,
                     (int32_t)0x80000001u};
    for (int i = 0; i < n; i += 4) {
        VD4 h, l, e;
        memcpy(&h, hi + i, sizeof h), memcpy(&l, lo + i, sizeof l), memcpy(&e, err + i, sizeof e);
        VF4 c = __builtin_convertvector(h + l, VF4);
        VI4 u = (VI4)c, inc = (u >> 31) | one, z = (u & abs) == 0;
        VI4 uu = (z & one) | (~z & (VI4)((VU4)u + (VU4)inc)), /* modulo 2^32: no overflow */
            ud = (z & zdn) | (~z & (VI4)((VU4)u - (VU4)inc));
        VD4 cd = __builtin_convertvector(c, VD4), up = __builtin_convertvector((VF4)uu, VD4),
            dn = __builtin_convertvector((VF4)ud, VD4);
        e = e * (1 + 0x1p-20);
        VD4 d_hi = (0.5 * (cd + up) - h) - l, d_lo = (h - 0.5 * (cd + dn)) + l;
        VL4 fin = __builtin_convertvector((u & abs) < big, VL4);
        VL4 yes = fin & (d_hi > e) & (d_lo > e);
        memcpy(y + i, &cd, sizeof cd);
        for (int k = 0; k < 4; k++) ok[i + k] = yes[k] != 0;
    }
}

/* decide() for binary32: decide_f32_lanes' test on one lane, else decide() */
static int decide_f32(struct approx a, const struct gl_format *f, double *y)
{
    double hi[4] = {a.hi}, lo[4] = {a.lo}, err[4] = {a.err}, c[4];
    unsigned char ok[4];
    decide_f32_lanes(hi, lo, err, 1, c, ok);
    if (ok[0]) return *y = c[0], 1;
    return decide(a, f, y);
}

static struct approx approx_exact(double x)
{
    if (x < -37.5) return (struct approx){0.0, 0.0, 0x1p-1000};
    if (x >= 10) /* x Phi(-x) / x = Phi(-10) < 2^-75: hi = x, with room to spare in err */
        return (struct approx){x, 0.0, x * 0x1p-70};
    if (fabs(x) < 0x1p-20) {
        double lo = x * x * inv_sqrt_2pi;
        return (struct approx){0.5 * x, lo, fabs(lo) * 0x1p-40};
    }
    double t = -x * inv_sqrt2;
    double y = 0.5 * x * erfc(t);
    double cond = t > 0 ? 2 * t * t + 1 : 1;
    return (struct approx){y, 0.0, fabs(y) * (GL_LIBM_ERFC_ULP + cond + 1) * 0x1p-52};
}

/* x * sigma(s), s computed with relative error <= 4*2^-52 */
static struct approx approx_x_sigma(double x, double s)
{
    if (s < -708) return (struct approx){0.0, 0.0, 0x1p-1000};
    if (s >= 48) /* x sigma(s) = x (1 - e^-s + ...), e^-48 < 2^-69 */
        return (struct approx){x, 0.0, fabs(x) * 0x1p-66};
    if (fabs(x) < 0x1p-20) {
        double lo = 0.25 * x * s;
        return (struct approx){0.5 * x, lo, fabs(lo) * 0x1p-40};
    }
    if (s >= 0) {
        double y = x / (1 + exp(-s));
        return (struct approx){y, 0.0, fabs(y) * (GL_LIBM_EXP_ULP + 5) * 0x1p-52};
    }
    double e = exp(s);
    double y = x * e / (1 + e);
    return (struct approx){y, 0.0, fabs(y) * (GL_LIBM_EXP_ULP + 4 * -s + 3) * 0x1p-52};
}

static int is_grad(enum gl_defn d)
{
    return d == GL_DEFN_EXACT_GRAD || d == GL_DEFN_TANH_GRAD || d == GL_DEFN_SIGMOID_GRAD ||
           d == GL_DEFN_SILU_GRAD;
}

/* hi + lo = a + b exactly, hi = RN(a + b) (TwoSum) */
static struct approx two_sum(double a, double b, double err)
{
    double hi = a + b, bb = hi - a;
    return (struct approx){hi, (a - (hi - bb)) + (b - bb), err};
}

static struct approx approx_exact_grad(double x)
{
    if (x < -37.5) return (struct approx){-0.0, 0.0, 0x1p-1000};
    if (x > 40) return (struct approx){1.0, 0.0, 0x1p-1000};
    double t = -x * inv_sqrt2;
    double a = 0.5 * erfc(t), b = x * (exp(-0.5 * (x * x)) * inv_sqrt_2pi);
    double cond = t > 0 ? 2 * t * t + 1 : 1;
    double err = fabs(a) * (GL_LIBM_ERFC_ULP + cond + 1) * 0x1p-52 +
                 fabs(b) * (GL_LIBM_EXP_ULP + x * x + 3) * 0x1p-52 + 0x1p-1060;
    return two_sum(a, b, err);
}

/* the derivative of x sigma(s(x)), s = s(x) and ds = s'(x) as the header says */
static struct approx approx_x_sigma_grad(double x, double s, double ds)
{
    if (s < -708) return (struct approx){-0.0, 0.0, 0x1p-1000};
    if (s > 708) return (struct approx){1.0, 0.0, 0x1p-1000};
    double e = exp(-fabs(s)), p = 1 / (1 + e), q = e * p;
    double a = s >= 0 ? p : q, b = x * ds * p * q;
    double ee = (GL_LIBM_EXP_ULP + 4 * fabs(s) + 1) * 0x1p-52;
    return two_sum(a, b, (fabs(a) + fabs(b)) * (3 * ee + 12 * 0x1p-52) + 0x1p-1060);
}

static struct approx approx_grad(enum gl_defn d, double x)
{
    switch (d) {
    case GL_DEFN_EXACT_GRAD:
        return approx_exact_grad(x);
    case GL_DEFN_TANH_GRAD: /* s and s' are finite for a binary32 x (|x|^3 < 2^384) */
        return approx_x_sigma_grad(x, two_sqrt_2_pi * (x + c_044715 * (x * x * x)),
                                   two_sqrt_2_pi * (1 + c_0134145 * (x * x)));
    case GL_DEFN_SIGMOID_GRAD:
        return approx_x_sigma_grad(x, c_1702 * x, c_1702);
    default:
        return approx_x_sigma_grad(x, x, 1.0);
    }
}

/* gl_ref_fast before the rounding decision: 1 and *y where no decision is needed (the special
 * inputs, the far tails, a derivative's cut), else 0 and the approximation in *a; *r (if
 * non-NULL) the unrounded value either way. A derivative's NaN -> NaN, +inf -> 1, -inf -> -0,
 * +-0 -> 1/2; a GELU form's NaN -> NaN, +inf -> +inf, -inf -> -0, +-0 -> +-0. */
static int fast_approx(enum gl_defn d, double x, const struct gl_format *fmt, double *y,
                       struct gl_dd *r, struct approx *a)
{
    if (is_grad(d)) {
        if (!isfinite(x) || x == 0) {
            *y = isnan(x) ? x : x == 0 ? 0.5 : x > 0 ? 1.0 : -0.0;
            if (r) *r = (struct gl_dd){*y, 0.0};
            return 1;
        }
        *a = approx_grad(d, x);
        if (r) *r = (struct gl_dd){a->hi, a->lo};
        if (a->hi == 0 && signbit(a->hi)) { /* the cut: below 2^-1000, from below (a sum is +0) */
            *y = -0.0;
            return 1;
        }
        return 0;
    }
    if (!isfinite(x) || x == 0) {
        *y = isnan(x) ? x : x > 0 ? x : copysign(0.0, x);
        if (r) *r = (struct gl_dd){*y, 0.0};
        return 1;
    }
    /* Far tails, decided without decide(): a zero of x's sign below 2^-1000 (x < -37.5 for
     * exact; s < -708 for the others: x < -37.5 for tanh, s = 1.702 x for sigmoid, s = x for
     * silu), or x itself (a binary32 value) to within |x| 2^-66 (see the header). */
    double neg_cut = d == GL_DEFN_SIGMOID ? -416.0 : d == GL_DEFN_SILU ? -708.0 : -37.5;
    if (x < neg_cut || (x >= 48 && fmt->id == GL_FMT_F32)) {
        *y = x < 0 ? -0.0 : x;
        if (r) *r = (struct gl_dd){x < 0 ? 0.0 : x, 0.0};
        return 1;
    }
    switch (d) {
    case GL_DEFN_EXACT:
        *a = approx_exact(x);
        break;
    case GL_DEFN_TANH:
        *a = approx_x_sigma(x, two_sqrt_2_pi * (x + c_044715 * (x * x * x)));
        break;
    case GL_DEFN_SIGMOID:
        *a = approx_x_sigma(x, c_1702 * x);
        break;
    default:
        *a = approx_x_sigma(x, x);
        break;
    }
    if (r) *r = (struct gl_dd){a->hi, a->lo};
    return 0;
}

/* gl_ref_fast after the rounding decision (decided: *y holds the rounded a.hi + a.lo): 1, the
 * zeros' signs set (a GELU form's is x's; a derivative's that of hi + lo, when err tells it),
 * or 0 when MPFR must decide */
static int fast_finish(enum gl_defn d, double x, struct approx a, int decided, double *y)
{
    if (!decided) return 0;
    if (!is_grad(d)) {
        if (*y == 0) *y = copysign(0.0, x); /* f(x) has x's sign for these four definitions */
        return 1;
    }
    if (*y != 0) return 1;
    double v = a.hi + a.lo;
    if (!(fabs(v) > a.err * (1 + 0x1p-20))) return 0; /* the sign of the zero is not known */
    *y = copysign(0.0, v);
    return 1;
}

int gl_ref_has_fast(enum gl_defn d)
{
    return d == GL_DEFN_EXACT || d == GL_DEFN_TANH || d == GL_DEFN_SIGMOID || d == GL_DEFN_SILU ||
           is_grad(d);
}

int gl_ref_fast(enum gl_defn d, float xf, const struct gl_format *fmt, double *y, struct gl_dd *r)
{
    if (!gl_ref_has_fast(d) || fmt->prec > 24) return -1;
    double x = xf;
    struct approx a;
    if (fast_approx(d, x, fmt, y, r, &a)) return 1;
    return fast_finish(d, x, a, fmt->id == GL_FMT_F32 ? decide_f32(a, fmt, y) : decide(a, fmt, y),
                       y);
}

void gl_ref_f32_n(enum gl_defn d, const double *x, uint64_t n, const struct gl_format *fmt,
                  double *y, struct gl_dd *r)
{
    if (fmt->id != GL_FMT_F32 || !gl_ref_has_fast(d)) {
        for (uint64_t i = 0; i < n; i++) y[i] = gl_ref_f32(d, (float)x[i], fmt, r ? &r[i] : NULL);
        return;
    }
    enum { B = 256 }; /* inputs a pass: the approximations' arrays stay in the L1 cache */
    double hi[B], lo[B], err[B], c[B];
    unsigned char ok[B];
    int at[B];
    for (uint64_t i0 = 0; i0 < n; i0 += B) {
        int len = n - i0 < B ? (int)(n - i0) : B, m = 0;
        for (int k = 0; k < len; k++) { /* the approximations, as gl_ref_fast's */
            struct approx a;
            if (fast_approx(d, (float)x[i0 + k], fmt, &y[i0 + k], r ? &r[i0 + k] : NULL, &a))
                continue;
            hi[m] = a.hi, lo[m] = a.lo, err[m] = a.err, at[m++] = k;
        }
        for (int k = m; k % 4; k++) hi[k] = lo[k] = err[k] = 0; /* the last vector's padding */
        decide_f32_lanes(hi, lo, err, m, c, ok);
        for (int j = 0; j < m; j++) { /* decide_f32's fallback, then as gl_ref_fast, gl_ref_f32 */
            uint64_t i = i0 + (uint64_t)at[j];
            double xi = (float)x[i];
            struct approx a = {hi[j], lo[j], err[j]};
            y[i] = c[j];
            if (!fast_finish(d, xi, a, ok[j] || decide(a, fmt, &y[i]), &y[i]))
                gl_ref_d(d, xi, fmt, &y[i], r ? &r[i] : NULL);
        }
    }
}

double gl_ref_f32(enum gl_defn d, float x, const struct gl_format *fmt, struct gl_dd *r)
{
    double y;
    if (gl_ref_fast(d, x, fmt, &y, r) == 1) return y;
    gl_ref_d(d, x, fmt, &y, r);
    return y;
}
