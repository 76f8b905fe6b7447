/* Interval arithmetic over MPFR (internal to reference/): each operation rounds its lower end
 * down and its upper end up, so the exact result of the real operation lies in [lo, hi]. */
#ifndef GL_REFERENCE_INTERVAL_H
#define GL_REFERENCE_INTERVAL_H

#include <mpfr.h>

struct gl_iv {
    mpfr_t lo, hi;
};

void gl_iv_init(struct gl_iv *a, mpfr_prec_t prec);
void gl_iv_clear(struct gl_iv *a);
void gl_iv_point(struct gl_iv *r, const mpfr_t x);    /* [x, x], outward-rounded to r's prec */
void gl_iv_decimal(struct gl_iv *r, const char *dec); /* a decimal constant such as "1.702" */
void gl_iv_neg(struct gl_iv *r, const struct gl_iv *a);
void gl_iv_add_ui(struct gl_iv *r, const struct gl_iv *a, unsigned long k);
void gl_iv_add(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b);
void gl_iv_mul(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b);
void gl_iv_div(struct gl_iv *r, const struct gl_iv *a, const struct gl_iv *b); /* 0 not in b */
void gl_iv_mul_2si(struct gl_iv *r, const struct gl_iv *a, long k);            /* exact */
void gl_iv_ui(struct gl_iv *r, unsigned long k);                               /* [k, k] */
void gl_iv_pi(struct gl_iv *r);
/* Monotone functions: r = f(a) for f increasing (erf, tanh, exp) or decreasing (erfc). */
typedef int (*gl_mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
void gl_iv_increasing(struct gl_iv *r, const struct gl_iv *a, gl_mpfr_fn f);
void gl_iv_decreasing(struct gl_iv *r, const struct gl_iv *a, gl_mpfr_fn f);

#endif
