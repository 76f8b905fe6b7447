/* gelulab — error metrics (docs/design.md, "Metrics"): one definition, used everywhere. */
#ifndef GELULAB_METRICS_H
#define GELULAB_METRICS_H

#include "gelulab/format.h"
#include "gelulab/reference.h"

/* ULP error of y against the unrounded reference r: |y - r| / ulp(r), ulp(r) = 2^(e-p+1),
 * e = floor(log2 |r|), p the format's precision, floored at the format's smallest subnormal.
 * A correctly rounded y scores <= 0.5. NaN against NaN and equal infinities score 0; any other
 * non-finite y or r scores +inf (counted apart by the callers, never hidden). */
double gl_ulp_error(double y, struct gl_dd r, const struct gl_format *fmt);

/* |y - r| (0 for matching NaN/infinities, +inf for other non-finite cases). */
double gl_abs_error(double y, struct gl_dd r);

/* The backward pass's second metric, "scaled ULP": an absolute error in units of ulp(M), M the
 * largest |f'| (every derivative here has 1 <= M < 2 on the whole line: 1.1289 for exact_grad,
 * so ulp(M) = ulp(1) = 2^(1-p)). Unlike ULP it stays bounded where f' crosses zero. */
double gl_scaled_ulp(double abs_err, const struct gl_format *fmt);

#endif
