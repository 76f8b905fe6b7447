/* The accumulator's measurement rules (include/gelulab/metrics.h; docs/design.md, "Metrics"),
 * each written once, as an expression over binary64 scalars or GCC vectors of them alike: the
 * same operators, and comparisons that give 1/0 on scalars and -1/0 lane masks on vectors (so
 * `&` and `|` combine them either way). analysis/acc.c's three paths (per input, its scalar fast
 * path, its vector fast path) and the sweep's block set-up (analysis/sweep.c) use them;
 * tests/test_acc.c checks that the paths agree on every statistic. */
#ifndef GL_ANALYSIS_ACC_RULES_H
#define GL_ANALYSIS_ACC_RULES_H
#include <stdint.h>

/* the GCC vectors the rules' four-lane paths use: binary64 lanes and their masks */
typedef double VD4 __attribute__((vector_size(32)));
typedef int64_t VL4 __attribute__((vector_size(32)));

/* y minus the unrounded reference hi + lo: its magnitude is the absolute error */
#define GL_RULE_DIFF(y, hi, lo) (((y) - (hi)) - (lo))
/* the ULP error of a difference of magnitude d, scale = 1/ulp(r) (gl_ulp_scale; exact, a power
 * of two) where it is a finite nonzero double; elsewhere gl_ulp_error divides */
#define GL_RULE_ULP(d, scale) ((d) * (scale))
/* where r lies from the correctly rounded reference yr: > 0 above, < 0 below, 0 on it */
#define GL_RULE_SIDE(hi, lo, yr) (((hi) - (yr)) + (lo))
/* faithful: y is yr, or the format value on r's other side, which is within 1 ULP of r */
#define GL_RULE_FAITHFUL(y, yr, side, ulp)                                                         \
    (((y) == (yr)) |                                                                               \
     (((ulp) < 1) & ((((y) > (yr)) & ((side) > 0)) | (((y) < (yr)) & ((side) < 0)))))
/* a result wrong only in the sign of zero (gl_stats.zero_sign): y equal to yr as a number, not in
 * its bits yb, rb (only +0 and -0 are) */
#define GL_RULE_ZERO_SIGN(y, yr, yb, rb) (((y) == (yr)) & ((yb) != (rb)))
/* round(u 2^24), the fixed-point ULP the sums add, as this value truncated (exact while
 * u 2^24 < 2^52; the paths call fixed_ulp for u >= 2^28) */
#define GL_RULE_FX(u) ((u)*0x1p24 + 0.5)
/* the histogram bin of a ULP error u > 0 from its binary64 exponent field e and whether its
 * mantissa is nonzero (m1: 1 or 0): u in (2^(b-2), 2^(b-1)] is bin b; below 1, clamp to 0 and to
 * GL_HIST_BINS - 1 (the callers' min/max) */
#define GL_RULE_BIN(e, m1) ((e)-1022 + (m1))
/* wider than 2^28 ULP, the fixed-point value takes fixed_ulp's 128-bit path */
#define GL_RULE_FX_LIM 0x1p28

#endif
