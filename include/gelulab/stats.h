/* gelulab — small-sample statistics for experiments over seeds: Student-t intervals, the paired
 * t-test and Holm's correction (moons/stats.c). */
#ifndef GELULAB_STATS_H
#define GELULAB_STATS_H

/* Regularised incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double gl_betainc(double a, double b, double x);
/* Student-t with nu degrees of freedom: P(T <= t), and the p with P(T <= t_p) = p (0 < p < 1). */
double gl_t_cdf(double t, double nu);
double gl_t_quantile(double p, double nu);

/* Mean, sample standard deviation and the 95 % Student-t interval of the mean of n values
 * (n >= 2; with n = 1 sd and the interval are NaN). */
struct gl_sample {
    int n;
    double mean, sd, ci_lo, ci_hi;
};
void gl_stats_sample(const double *x, int n, struct gl_sample *s);

/* Paired comparison of a and b (same seeds): d = a - b. The mean difference with its 95 %
 * interval, the two-sided paired t-test's t and p (p = 1 when every difference is 0, p = 0 when
 * they are all equal and not 0), and how often a > b, a == b, a < b. */
struct gl_paired {
    struct gl_sample d;
    double t, p;
    int wins, ties, losses;
};
void gl_stats_paired(const double *a, const double *b, int n, struct gl_paired *r);

/* Holm's step-down adjustment of n p-values (family-wise error): adj[i] for p[i]. */
void gl_stats_holm(const double *p, int n, double *adj);

#endif
