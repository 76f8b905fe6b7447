/* Start-up self-check of the fast path (gl_ref_selfcheck, include/gelulab/reference.h).
 * Inputs: for each sign and each binary32 binade (subnormals included), 7 fixed mantissas
 * (first and last value of the binade and 5 between): 3 878 inputs.
 * Checks: (1) for exact, tanh, sigmoid and silu, every result the fast path decides for f32,
 * bf16 and f16 equals MPFR's; (2) this libm's erfc and exp stay within the ulps the fast path's
 * bounds assume (ref_fast.h), on arguments of the kind the fast path gives them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gelulab/reference.h"
#include "ref_fast.h"

typedef int (*mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

static const uint32_t mantissas[7] = {0x000000, 0x7fffff, 0x000001, 0x2b7e15,
                                      0x3504f3, 0x5a827a, 0x6a09e6};

static float input(long i)
{
    uint32_t sign = (uint32_t)(i & 1) << 31, binade = (uint32_t)(i >> 1) / 7;
    uint32_t u = sign | binade << 23 | mantissas[(i >> 1) % 7];
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}
#define N_INPUTS (2L * 7 * 255) /* binades 0 (subnormals) .. 254 */

/* |got - f(a)| in ulps of f(a); 0 where f(a) is not a normal double. */
static double libm_ulps(mpfr_fn f, double a, double got)
{
    mpfr_t v;
    mpfr_init2(v, 160);
    mpfr_set_d(v, a, MPFR_RNDN);
    f(v, v, MPFR_RNDN);
    double u = 0;
    if (mpfr_regular_p(v) && mpfr_get_exp(v) > -1022 && isfinite(got)) {
        long e = (long)mpfr_get_exp(v); /* |v| in [2^(e-1), 2^e): ulp = 2^(e-53) */
        mpfr_sub_d(v, v, got, MPFR_RNDN);
        mpfr_mul_2si(v, v, 53 - e, MPFR_RNDN);
        u = fabs(mpfr_get_d(v, MPFR_RNDN));
    }
    mpfr_clear(v);
    return u;
}

static long check_libm(char *msg, size_t len)
{
    long bad = 0;
    for (long i = 0; i < N_INPUTS; i++) {
        double x = input(i), t = x * 0x1.6a09e667f3bcdp-1, s = -fabs(x);
        double ue = t <= 26.5 ? libm_ulps(mpfr_erfc, t, erfc(t)) : 0;
        double ux = s >= -708 ? libm_ulps(mpfr_exp, s, exp(s)) : 0;
        if (ue > GL_LIBM_ERFC_ULP || ux > GL_LIBM_EXP_ULP) {
            if (!bad++)
                snprintf(msg, len, "libm %s(%a) is off by %.2f ulps, more than the %g assumed",
                         ue > GL_LIBM_ERFC_ULP ? "erfc" : "exp", ue > GL_LIBM_ERFC_ULP ? t : s,
                         ue > GL_LIBM_ERFC_ULP ? ue : ux,
                         ue > GL_LIBM_ERFC_ULP ? GL_LIBM_ERFC_ULP : GL_LIBM_EXP_ULP);
        }
    }
    return bad;
}

static long check_fast(enum gl_defn d, const struct gl_format *fmt, char *msg, size_t len)
{
    long bad = 0;
    for (long i = 0; i < N_INPUTS; i++) {
        float x = input(i);
        double fast, ref;
        if (gl_ref_fast(d, x, fmt, &fast, NULL) != 1) continue;
        gl_ref_d(d, x, fmt, &ref, NULL);
        if (memcmp(&fast, &ref, sizeof fast) != 0 && !(isnan(fast) && isnan(ref))) {
            if (!bad++)
                snprintf(msg, len, "fast path %s/%s FAIL x=%a ref=%a fast=%a", gl_defn_name(d),
                         fmt->name, (double)x, ref, fast);
        }
    }
    return bad;
}

long gl_ref_selfcheck(char *msg, size_t msglen)
{
    const struct gl_format *fmts[] = {&gl_format_f32, &gl_format_bf16, &gl_format_f16};
    if (msglen) msg[0] = '\0';
    long bad = check_libm(msg, msglen);
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        if (!gl_ref_has_fast((enum gl_defn)d)) continue;
        for (int f = 0; f < 3; f++) {
            long b = check_fast((enum gl_defn)d, fmts[f], bad ? NULL : msg, bad ? 0 : msglen);
            bad += b;
        }
    }
    return bad;
}
