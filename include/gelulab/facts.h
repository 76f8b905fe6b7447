/* gelulab — the facts behind the report (gelulab facts): reference values for the claims people
 * repeat about GELU, definition curves, 16-bit format effects, kernels' special values and
 * errors on a grid. Computed here; the report only reads the files they are written to. */
#ifndef GELULAB_FACTS_H
#define GELULAB_FACTS_H

#include <stdio.h>
#include "gelulab/sweep.h"

struct gl_facts_claims {
    double gelu_m1, gelu_2, phi_1; /* exact GELU(-1), GELU(2), Phi(1), binary64 CR */
    double min_x, min_y;           /* GELU's minimum: GELU'(min_x) = 0 to the last double */
    double tanh_m1, tanh_2;        /* the tanh form at -1 and 2 */
    double tanh_diff, tanh_diff_x; /* max |tanh form - exact| on [-10, 10] and where */
    double sigmoid_diff, sigmoid_diff_x;
};

void gl_facts_claims(struct gl_facts_claims *c);
/* how many of the 65536 inputs of f (bf16 or f16; NaNs excluded) round to a different value
 * under definition d than under exact GELU */
long gl_facts_format_changes(const struct gl_format *f, enum gl_defn d);
/* x, exact, tanh, sigmoid, silu and the differences on [-6, 6] step 0.01; 0 or -1 */
int gl_facts_write_curves(const char *path);
/* the kernel's results for NaN, +inf, -inf, +0, -0; 0, or -1 when it could not run */
int gl_facts_specials(const struct gl_kernel_src *k, float out[5]);
/* CSV lines "kernel,x,max_abs,max_ulp_own,max_ulp_exact" per cell (built-in kernels) */
void gl_facts_errors(const struct gl_kernel_src *k, FILE *f, double w, int cells, int per);
void gl_facts_versions(char *mpfr, char *gmp, size_t len);

#endif
