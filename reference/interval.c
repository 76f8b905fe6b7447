/* Interval arithmetic over MPFR, see interval.h. MPFR rounds every operation correctly in the
 * requested direction, overflow and underflow included (RNDU overflows to +inf, RNDD underflows
 * to 0 or the smallest positive number), so every enclosure is rigorous. */
#include "interval.h"

void gl_iv_init(struct gl_iv *a, mpfr_prec_t prec)
{
    mpfr_init2(a->lo, prec);
    mpfr_init2(a->hi, prec);
}

void gl_iv_clear(struct gl_iv *a)
{
    mpfr_clear(a->lo);
    mpfr_clear(a->hi);
}

void gl_iv_point(struct gl_iv *r, const mpfr_t x)
{
    mpfr_set(r->lo, x, MPFR_RNDD);
    mpfr_set(r->hi, x, MPFR_RNDU);
}

void gl_iv_decimal(struct gl_iv *r, const char *dec)
{
    mpfr_set_str(r->lo, dec, 10, MPFR_RNDD);
    mpfr_set_str(r->hi, dec, 10, MPFR_RNDU);
}

void gl_iv_neg(struct gl_iv *r, const struct gl_iv *a)
{
    if (r == a) {
        mpfr_swap(r->lo, r->hi);
        mpfr_neg(r->lo, r->lo, MPFR_RNDD);
        mpfr_neg(r->hi, r->hi, MPFR_RNDU);
        return;
    }
    mpfr_neg(r->lo, a->hi, MPFR_RNDD);
    mpfr_neg(r->hi, a->lo, MPFR_RNDU);
}

void gl_iv_add_ui(struct gl_iv *r, const struct gl_iv *a, unsigned long k)
{
    mpfr_add_ui(r->lo, a->lo, k, MPFR_RNDD);
    mpfr_add_ui(r->hi, a->hi, k, MPFR_RNDU);
}

void gl_iv_add(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b)
{
    mpfr_add(r->lo, a->lo, b->lo, MPFR_RNDD);
    mpfr_add(r->hi, a->hi, b->hi, MPFR_RNDU);
}

typedef int (*gl_mpfr_op2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

/* The four end-point combinations, min rounded down and max rounded up: valid for * and / (for
 * / when 0 is not in b), whatever the signs. */
static void iv_corners(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b,
                       gl_mpfr_op2 op)
{
    mpfr_t lo, hi, t;
    mpfr_prec_t p = mpfr_get_prec(r->lo);
    mpfr_inits2(p, lo, hi, t, (mpfr_ptr)0);
    mpfr_srcptr as[2] = {a->lo, a->hi}, bs[2] = {b->lo, b->hi};
    for (int i = 0; i < 4; i++) {
        op(t, as[i >> 1], bs[i & 1], MPFR_RNDD);
        if (i == 0 || mpfr_less_p(t, lo)) mpfr_set(lo, t, MPFR_RNDD);
        op(t, as[i >> 1], bs[i & 1], MPFR_RNDU);
        if (i == 0 || mpfr_greater_p(t, hi)) mpfr_set(hi, t, MPFR_RNDU);
    }
    mpfr_swap(r->lo, lo);
    mpfr_swap(r->hi, hi);
    mpfr_clears(lo, hi, t, (mpfr_ptr)0);
}

void gl_iv_mul(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b)
{
    iv_corners(r, a, b, mpfr_mul);
}

void gl_iv_div(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b)
{
    iv_corners(r, a, b, mpfr_div);
}

void gl_iv_mul_2si(struct gl_iv *r, const struct gl_iv *a, long k)
{
    mpfr_mul_2si(r->lo, a->lo, k, MPFR_RNDD);
    mpfr_mul_2si(r->hi, a->hi, k, MPFR_RNDU);
}

void gl_iv_ui(struct gl_iv *r, unsigned long k)
{
    mpfr_set_ui(r->lo, k, MPFR_RNDD);
    mpfr_set_ui(r->hi, k, MPFR_RNDU);
}

void gl_iv_pi(struct gl_iv *r)
{
    mpfr_const_pi(r->lo, MPFR_RNDD);
    mpfr_const_pi(r->hi, MPFR_RNDU);
}

void gl_iv_increasing(struct gl_iv *r, const struct gl_iv *a, gl_mpfr_fn f)
{
    f(r->lo, a->lo, MPFR_RNDD);
    f(r->hi, a->hi, MPFR_RNDU);
}

void gl_iv_decreasing(struct gl_iv *r, const struct gl_iv *a, gl_mpfr_fn f)
{
    mpfr_t lo;
    mpfr_init2(lo, mpfr_get_prec(r->lo));
    f(lo, a->hi, MPFR_RNDD);
    f(r->hi, a->lo, MPFR_RNDU);
    mpfr_swap(r->lo, lo);
    mpfr_clear(lo);
}
