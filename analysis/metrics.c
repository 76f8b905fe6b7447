/* Error metrics (include/gelulab/metrics.h). */
#include <math.h>
#include "gelulab/metrics.h"

/* 1 when both are non-finite and equal (NaN with NaN, inf with the same inf); -1 when
 * one of them is not finite otherwise; 0 when both are finite. */
static int nonfinite_case(double y, double r)
{
    if (isfinite(y) && isfinite(r)) return 0;
    if (isnan(y) && isnan(r)) return 1;
    return y == r ? 1 : -1;
}

double gl_ulp_error(double y, struct gl_dd r, const struct gl_format *fmt)
{
    int c = nonfinite_case(y, r.hi);
    if (c) return c > 0 ? 0.0 : INFINITY;
    double mag = fabs(r.hi);
    int e = mag == 0 ? -100000 : ilogb(mag); /* r = 0: the floor applies */
    /* r = hi + lo: at hi = 2^e exactly, a lo of the opposite sign puts |r| below 2^e */
    if (mag != 0 && mag == ldexp(1.0, e) && r.lo != 0 && signbit(r.lo) != signbit(r.hi)) e--;
    long k = (long)e - fmt->prec + 1;
    if (k < fmt->emin_sub) k = fmt->emin_sub;
    return fabs((y - r.hi) - r.lo) / ldexp(1.0, (int)k);
}

double gl_abs_error(double y, struct gl_dd r)
{
    int c = nonfinite_case(y, r.hi);
    if (c) return c > 0 ? 0.0 : INFINITY;
    return fabs((y - r.hi) - r.lo);
}
