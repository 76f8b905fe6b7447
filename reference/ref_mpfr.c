/* Correctly rounded reference for every definition (include/gelulab/reference.h).
 *
 * Method: interval evaluation (interval.c) at working precision w, starting at
 * max(p, prec(x)) + 40 bits; both ends are rounded to the target format (format.c); when they
 * agree, that is the correctly rounded result (rounding to nearest is monotone and the exact
 * value lies between the ends); otherwise w doubles (Ziv's strategy), up to GL_REF_MAX_PREC.
 * Every formula is written in a form without cancellation, so w stays small: */
/* clang-format off */
/*   exact       x erfc(-x/sqrt2) / 2         (not x (1 + erf(x/sqrt2))/2: cancels for x < 0)
 *   tanh        x / (1 + exp(-s)),  s = 2 sqrt(2/pi) (x + 0.044715 x^3),
 *                                             since 1 + tanh(s/2) = 2 / (1 + e^-s)
 *   sigmoid     x / (1 + exp(-1.702 x))
 *   silu        x / (1 + exp(-x))
 *   exact_grad  erfc(-x/sqrt2) / 2 + x exp(-x^2/2) / sqrt(2 pi)
 *   tanh_grad, sigmoid_grad, silu_grad: the derivative of x sigma(s(x)),
 *               sigma(s) (1 + x s' sigma(-s)),  sigma(s) = 1 / (1 + exp(-s)),
 *               s = 2 sqrt(2/pi) (x + 0.044715 x^3), s' = 2 sqrt(2/pi) (1 + 3 0.044715 x^2);
 *               s = 1.702 x, s' = 1.702;  s = x, s' = 1
 *               (x sigma(s)(1 - sigma(s)) s' written with sigma(-s): no 1 - sigma(s)). All
 *               four derivatives cross zero once, near x = -0.75 (the minimum of each form):
 *               there the Ziv loop raises the precision as far as the rounding needs. */
/* clang-format on */
/* The constants 0.044715 and 1.702 are the decimal numbers themselves (enclosed from their
 * decimal strings), not their binary64 roundings. Transcendental results of nonzero x are never
 * exactly a rounding boundary, so the loop ends; the cap is a guard, reported, never hit in
 * tests. */
#include <math.h>
#include "gelulab/reference.h"
#include "interval.h"

/* Special inputs: NaN, +-inf, +-0. Returns 1 and sets y when x is one of them. */
static int special_value(enum gl_defn d, const mpfr_t x, mpfr_t y)
{
    if (mpfr_regular_p(x)) return 0;
    int neg = mpfr_signbit(x);
    if (mpfr_nan_p(x)) {
        mpfr_set_nan(y);
        return 1;
    }
    int inf = mpfr_inf_p(x);
    switch (d) {
    case GL_DEFN_EXACT:
    case GL_DEFN_TANH:
    case GL_DEFN_SIGMOID:
    case GL_DEFN_SILU: /* +inf -> +inf, -inf -> -0, +-0 -> +-0 */
        if (inf && !neg)
            mpfr_set_inf(y, 1);
        else
            mpfr_set_zero(y, neg ? -1 : 1);
        break;
    case GL_DEFN_EXACT_GRAD: /* +inf -> 1, -inf -> -0 (approached from below), 0 -> 1/2 */
    case GL_DEFN_TANH_GRAD:
    case GL_DEFN_SIGMOID_GRAD:
    case GL_DEFN_SILU_GRAD:
        if (inf)
            neg ? mpfr_set_zero(y, -1) : mpfr_set_ui(y, 1, MPFR_RNDN);
        else
            mpfr_set_ui_2exp(y, 1, -1, MPFR_RNDN);
        break;
    case GL_DEFN_ERF:
    case GL_DEFN_TANHF: /* +-inf -> +-1, +-0 -> +-0 */
        inf ? mpfr_set_si(y, neg ? -1 : 1, MPFR_RNDN) : mpfr_set_zero(y, neg ? -1 : 1);
        break;
    case GL_DEFN_ERFC: /* +inf -> +0, -inf -> 2, 0 -> 1 */
        if (inf)
            neg ? mpfr_set_ui(y, 2, MPFR_RNDN) : mpfr_set_zero(y, 1);
        else
            mpfr_set_ui(y, 1, MPFR_RNDN);
        break;
    case GL_DEFN_PHI: /* +inf -> 1, -inf -> +0, 0 -> 1/2 */
        if (inf)
            neg ? mpfr_set_zero(y, 1) : mpfr_set_ui(y, 1, MPFR_RNDN);
        else
            mpfr_set_ui_2exp(y, 1, -1, MPFR_RNDN);
        break;
    default:
        mpfr_set_nan(y);
    }
    return 1;
}

/* Sign of f(x) for finite nonzero x, used when the rounded result is a zero (underflow). */
static int result_is_negative(enum gl_defn d, const mpfr_t x)
{
    switch (d) {
    case GL_DEFN_ERFC:
    case GL_DEFN_PHI:
        return 0;
    case GL_DEFN_EXACT_GRAD:
    case GL_DEFN_TANH_GRAD:
    case GL_DEFN_SIGMOID_GRAD:
    case GL_DEFN_SILU_GRAD:
        return mpfr_cmp_si(x, -1) < 0; /* underflows only for x << -1, from below */
    default:
        return mpfr_signbit(x) != 0;
    }
}

/* r = Phi(x) = erfc(-x*sqrt(1/2)) / 2 */
static void iv_phi(struct gl_iv *r, const struct gl_iv *x, mpfr_prec_t w)
{
    struct gl_iv h;
    gl_iv_init(&h, w);
    gl_iv_ui(&h, 1);
    gl_iv_mul_2si(&h, &h, -1);
    gl_iv_increasing(&h, &h, mpfr_sqrt);
    gl_iv_neg(r, x);
    gl_iv_mul(r, r, &h);
    gl_iv_decreasing(r, r, mpfr_erfc);
    gl_iv_mul_2si(r, r, -1);
    gl_iv_clear(&h);
}

/* r = x / (1 + exp(-s)) = x * sigma(s); s is overwritten. */
static void iv_x_sigma(struct gl_iv *r, const struct gl_iv *x, struct gl_iv *s)
{
    gl_iv_neg(s, s);
    gl_iv_increasing(s, s, mpfr_exp);
    gl_iv_add_ui(s, s, 1);
    gl_iv_div(r, x, s);
}

/* r *= 2 sqrt(2/pi), the tanh form's constant */
static void iv_mul_tanh_scale(struct gl_iv *r, mpfr_prec_t w)
{
    struct gl_iv c, pi;
    gl_iv_init(&c, w);
    gl_iv_init(&pi, w);
    gl_iv_ui(&c, 2);
    gl_iv_pi(&pi);
    gl_iv_div(&c, &c, &pi);
    gl_iv_increasing(&c, &c, mpfr_sqrt);
    gl_iv_mul(r, r, &c);
    gl_iv_mul_2si(r, r, 1);
    gl_iv_clear(&c);
    gl_iv_clear(&pi);
}

/* r = 2*sqrt(2/pi)*(x + 0.044715*x^3), the argument of the tanh definition's sigmoid */
static void iv_tanh_arg(struct gl_iv *r, const struct gl_iv *x, mpfr_prec_t w)
{
    struct gl_iv c;
    gl_iv_init(&c, w);
    gl_iv_mul(r, x, x);
    gl_iv_mul(r, r, x);
    gl_iv_decimal(&c, "0.044715");
    gl_iv_mul(r, r, &c);
    gl_iv_add(r, r, x);
    gl_iv_clear(&c);
    iv_mul_tanh_scale(r, w);
}

/* r = 1 / (1 + exp(-s)) = sigma(s) */
static void iv_sigma(struct gl_iv *r, const struct gl_iv *s, mpfr_prec_t w)
{
    struct gl_iv one;
    gl_iv_init(&one, w);
    gl_iv_ui(&one, 1);
    gl_iv_neg(r, s);
    gl_iv_increasing(r, r, mpfr_exp);
    gl_iv_add_ui(r, r, 1);
    gl_iv_div(r, &one, r);
    gl_iv_clear(&one);
}

/* r = sigma(s) (1 + x ds sigma(-s)): the derivative of x sigma(s(x)), ds = s'(x) */
static void iv_x_sigma_grad(struct gl_iv *r, const struct gl_iv *x, const struct gl_iv *s,
                            const struct gl_iv *ds, mpfr_prec_t w)
{
    struct gl_iv t;
    gl_iv_init(&t, w);
    gl_iv_neg(&t, s);
    iv_sigma(&t, &t, w);
    gl_iv_mul(&t, &t, ds);
    gl_iv_mul(&t, &t, x);
    gl_iv_add_ui(&t, &t, 1);
    iv_sigma(r, s, w);
    gl_iv_mul(r, r, &t);
    gl_iv_clear(&t);
}

/* s' = 2 sqrt(2/pi) (1 + 3 * 0.044715 x^2), the tanh form's argument's derivative */
static void iv_tanh_arg_grad(struct gl_iv *r, const struct gl_iv *x, mpfr_prec_t w)
{
    struct gl_iv c;
    gl_iv_init(&c, w);
    gl_iv_mul(r, x, x);
    gl_iv_decimal(&c, "0.134145"); /* 3 * 0.044715, exactly */
    gl_iv_mul(r, r, &c);
    gl_iv_add_ui(r, r, 1);
    gl_iv_clear(&c);
    iv_mul_tanh_scale(r, w);
}

/* r = x * exp(-x^2/2) / sqrt(2 pi) */
static void iv_x_density(struct gl_iv *r, const struct gl_iv *x, mpfr_prec_t w)
{
    struct gl_iv c;
    gl_iv_init(&c, w);
    gl_iv_mul(r, x, x);
    gl_iv_mul_2si(r, r, -1);
    gl_iv_neg(r, r);
    gl_iv_increasing(r, r, mpfr_exp);
    gl_iv_pi(&c);
    gl_iv_mul_2si(&c, &c, 1);
    gl_iv_decreasing(&c, &c, mpfr_rec_sqrt);
    gl_iv_mul(r, r, &c);
    gl_iv_mul(r, r, x);
    gl_iv_clear(&c);
}

/* r = the derivative of the x sigma(s(x)) form of definition d (tanh, sigmoid or silu grad) */
static void iv_grad_of_x_sigma(enum gl_defn d, struct gl_iv *r, const struct gl_iv *x,
                               mpfr_prec_t w)
{
    struct gl_iv s, ds;
    gl_iv_init(&s, w);
    gl_iv_init(&ds, w);
    if (d == GL_DEFN_TANH_GRAD) {
        iv_tanh_arg(&s, x, w);
        iv_tanh_arg_grad(&ds, x, w);
    } else if (d == GL_DEFN_SIGMOID_GRAD) {
        gl_iv_decimal(&ds, "1.702");
        gl_iv_mul(&s, &ds, x);
    } else {
        gl_iv_ui(&ds, 1);
        gl_iv_mul(&s, &ds, x);
    }
    iv_x_sigma_grad(r, x, &s, &ds, w);
    gl_iv_clear(&s);
    gl_iv_clear(&ds);
}

/* [lo, hi] containing f(x), at working precision w. */
static void iv_eval(enum gl_defn d, const mpfr_t x, struct gl_iv *y, mpfr_prec_t w)
{
    struct gl_iv X, t;
    gl_iv_init(&X, w);
    gl_iv_init(&t, w);
    gl_iv_point(&X, x);
    switch (d) {
    case GL_DEFN_EXACT:
        iv_phi(&t, &X, w);
        gl_iv_mul(y, &X, &t);
        break;
    case GL_DEFN_TANH:
        iv_tanh_arg(&t, &X, w);
        iv_x_sigma(y, &X, &t);
        break;
    case GL_DEFN_SIGMOID:
        gl_iv_decimal(&t, "1.702");
        gl_iv_mul(&t, &t, &X);
        iv_x_sigma(y, &X, &t);
        break;
    case GL_DEFN_SILU:
        gl_iv_point(&t, x);
        iv_x_sigma(y, &X, &t);
        break;
    case GL_DEFN_EXACT_GRAD:
        iv_phi(y, &X, w);
        iv_x_density(&t, &X, w);
        gl_iv_add(y, y, &t);
        break;
    case GL_DEFN_TANH_GRAD:
    case GL_DEFN_SIGMOID_GRAD:
    case GL_DEFN_SILU_GRAD:
        iv_grad_of_x_sigma(d, y, &X, w);
        break;
    case GL_DEFN_ERF:
        gl_iv_increasing(y, &X, mpfr_erf);
        break;
    case GL_DEFN_ERFC:
        gl_iv_decreasing(y, &X, mpfr_erfc);
        break;
    case GL_DEFN_PHI:
        iv_phi(y, &X, w);
        break;
    case GL_DEFN_TANHF:
        gl_iv_increasing(y, &X, mpfr_tanh);
        break;
    default:
        mpfr_set_nan(y->lo);
        mpfr_set_nan(y->hi);
    }
    gl_iv_clear(&X);
    gl_iv_clear(&t);
}

/* v is within 2^64 of the smallest magnitude MPFR represents: an underflow */
static int underflowed(const mpfr_t v)
{
    return mpfr_regular_p(v) && mpfr_get_exp(v) < mpfr_get_emin() + 64;
}

int gl_ref_mpfr(enum gl_defn d, const mpfr_t x, const struct gl_format *fmt, mpfr_t y,
                mpfr_t approx)
{
    mpfr_set_prec(y, fmt->prec);
    if (special_value(d, x, y)) {
        if (approx) mpfr_set(approx, y, MPFR_RNDN);
        return GL_REF_OK;
    }
    mpfr_prec_t w = (fmt->prec > mpfr_get_prec(x) ? fmt->prec : mpfr_get_prec(x)) + 40;
    if (approx && w < mpfr_get_prec(approx) + 20) w = mpfr_get_prec(approx) + 20;
    int status = GL_REF_OK, zero_sign = 0;
    mpfr_t hi;
    mpfr_init2(hi, fmt->prec);
    for (;;) {
        struct gl_iv r;
        gl_iv_init(&r, w);
        iv_eval(d, x, &r, w);
        int bad = mpfr_nan_p(r.lo) || mpfr_nan_p(r.hi);
        gl_round_to_format(y, r.lo, fmt);
        gl_round_to_format(hi, r.hi, fmt);
        /* a zero result takes the sign of f(x): known once the enclosure is on one side of 0
         * (a derivative near its root needs the precision for that too); not where an end
         * underflowed MPFR's exponent range, which no precision helps (result_is_negative) */
        int zero_open = mpfr_zero_p(y) && mpfr_sgn(r.lo) < 0 && mpfr_sgn(r.hi) > 0 &&
                        !underflowed(r.lo) && !underflowed(r.hi);
        zero_sign = mpfr_sgn(r.hi) < 0 ? -1 : mpfr_sgn(r.lo) > 0 ? 1 : 0;
        int done = !bad && mpfr_equal_p(y, hi) && !zero_open;
        if (!done && 2 * w > GL_REF_MAX_PREC) status = GL_REF_UNDECIDED;
        if ((done || status) && approx) { /* midpoint of the enclosure */
            mpfr_add(approx, r.lo, r.hi, MPFR_RNDN);
            mpfr_mul_2si(approx, approx, -1, MPFR_RNDN);
        }
        gl_iv_clear(&r);
        if (done || status) break;
        w *= 2;
    }
    mpfr_clear(hi);
    if (mpfr_zero_p(y)) /* the enclosure's sign; where it is exactly 0 (MPFR's range) the form's */
        mpfr_setsign(y, y, zero_sign ? zero_sign < 0 : result_is_negative(d, x), MPFR_RNDN);
    return status;
}

int gl_ref_d(enum gl_defn d, double x, const struct gl_format *fmt, double *y, struct gl_dd *r)
{
    mpfr_t mx, my, ma;
    mpfr_init2(mx, 53);
    mpfr_init2(my, fmt->prec);
    mpfr_init2(ma, 128);
    mpfr_set_d(mx, x, MPFR_RNDN);
    int status = gl_ref_mpfr(d, mx, fmt, my, r ? ma : NULL);
    *y = mpfr_get_d(my, MPFR_RNDN);
    if (r) {
        r->hi = mpfr_get_d(ma, MPFR_RNDN);
        r->lo = 0.0;
        if (mpfr_number_p(ma) && isfinite(r->hi)) {
            mpfr_sub_d(ma, ma, r->hi, MPFR_RNDN);
            r->lo = mpfr_get_d(ma, MPFR_RNDN);
        }
    }
    mpfr_clears(mx, my, ma, (mpfr_ptr)0);
    return status;
}

void gl_ref_thread_done(void)
{
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}

void gl_ref_release(void)
{
    mpfr_free_cache();
}
