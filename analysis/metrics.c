/* Error metrics (include/gelulab/metrics.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "gelulab/acc.h"
#include "gelulab/metrics.h"
#include "acc_rules.h"

/* 1 when both are non-finite and equal (NaN with NaN, inf with the same inf); -1 when
 * one of them is not finite otherwise; 0 when both are finite. */
static int nonfinite_case(double y, double r)
{
    if (isfinite(y) && isfinite(r)) return 0;
    if (isnan(y) && isnan(r)) return 1;
    return y == r ? 1 : -1;
}

/* floor(log2 |v|) for finite nonzero v, by bits */
static long floor_log2(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    long e = (long)((u >> 52) & 0x7ff);
    return e ? e - 1023 : ilogb(v);
}

/* ulp(r) = 2^k for finite r */
static long ulp_exp(struct gl_dd r, const struct gl_format *fmt)
{
    long k = fmt->emin_sub; /* r = 0: the floor applies */
    /* r = hi + lo need not be normalised (|lo| can exceed half an ulp of hi, and hi + lo can lie
     * in another binade than hi): the binade of s = RN(hi + lo), corrected by the exact
     * remainder t (TwoSum) when s is a power of two and r lies just below it. */
    double s = r.hi + r.lo;
    if (s != 0) {
        long e = floor_log2(s);
        if (fabs(s) == gl_pow2(e)) { /* elsewhere r lies in s's binade: rounding is monotonic */
            double bp = s - r.hi, t = (r.hi - (s - bp)) + (r.lo - bp);
            if (t != 0 && signbit(t) != signbit(s)) e--;
        }
        if (e - fmt->prec + 1 > k) k = e - fmt->prec + 1;
    }
    return k;
}

double gl_ulp_scale(struct gl_dd r, const struct gl_format *fmt)
{
    if (!isfinite(r.hi)) return 0;
    long k = ulp_exp(r, fmt);
    return k >= -1022 && k <= 1022 ? gl_pow2(-k) : 0;
}

/* gl_ulp_scale of n references, four lanes at a time (a sweep's block set-up, per definition):
 * ulp_exp's binade, its power-of-two correction and floor, by bits; a lane whose hi + lo is zero,
 * subnormal or not finite, or whose hi is not, takes gl_ulp_scale itself. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
void gl_ulp_scales(const struct gl_dd *r, size_t n, const struct gl_format *fmt, double *scale)
{
    const VL4 pair0 = {0, 2, 4, 6}, field = {0x7ff, 0x7ff, 0x7ff, 0x7ff}, zero = {0};
    const VL4 mant = zero + 0xfffffffffffffll, floor_k = zero + fmt->emin_sub;
    const VL4 shift = zero + (fmt->prec - 1 + 1023); /* k = e - p + 1, e = field - 1023 */
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        VD4 r0, r1;
        memcpy(&r0, r + i, sizeof r0), memcpy(&r1, r + i + 2, sizeof r1);
        VD4 hi = __builtin_shuffle(r0, r1, pair0), lo = __builtin_shuffle(r0, r1, pair0 + 1);
        VD4 s = hi + lo, bp = s - hi, t = (hi - (s - bp)) + (lo - bp); /* TwoSum: t exact */
        VL4 sb = (VL4)s, ef = (sb >> 52) & field;
        VL4 odd = (ef == 0) | (ef == field) | ((((VL4)hi >> 52) & field) == field);
        VL4 below = ((sb & mant) == 0) & (t != 0) & (((VL4)t ^ sb) < 0); /* just below 2^e */
        VL4 k = ef + below - shift;                                      /* below: -1 */
        VL4 above = k > floor_k;
        k = (above & k) | (~above & floor_k);
        VL4 ok = (k >= -1022) & (k <= 1022);
        VD4 sc = (VD4)(ok & (VL4)((uint64_t __attribute__((vector_size(32))))(1023 - k) << 52));
        memcpy(scale + i, &sc, sizeof sc);
        if (odd[0] | odd[1] | odd[2] | odd[3])
            for (int l = 0; l < 4; l++)
                if (odd[l]) scale[i + l] = gl_ulp_scale(r[i + l], fmt);
    }
    for (; i < n; i++) scale[i] = gl_ulp_scale(r[i], fmt);
}

double gl_ulp_error(double y, struct gl_dd r, const struct gl_format *fmt)
{
    int c = nonfinite_case(y, r.hi);
    if (c) return c > 0 ? 0.0 : INFINITY;
    long k = ulp_exp(r, fmt);
    double d = fabs((y - r.hi) - r.lo);
    if (k >= -1022 && k <= 1022) return d * gl_pow2(-k); /* exact scaling, no division */
    return k > 1023 ? d / gl_pow2(1023) / gl_pow2(k - 1023) : d / gl_pow2(k);
}

double gl_abs_error(double y, struct gl_dd r)
{
    int c = nonfinite_case(y, r.hi);
    if (c) return c > 0 ? 0.0 : INFINITY;
    return fabs((y - r.hi) - r.lo);
}

double gl_scaled_ulp(double abs_err, const struct gl_format *fmt)
{
    return abs_err / gl_pow2(1 - fmt->prec);
}
