/* gelulab — mergeable accuracy accumulators (docs/design.md, "Metrics").
 *
 * One gl_acc holds every metric of one kernel against one reference definition over a set of
 * inputs. Everything in it combines exactly and in any order (maxima with deterministic ties,
 * integer counts, integer fixed-point sums), so shards merged equal the unsharded run bit for
 * bit. ULP errors enter the sums in fixed point (units of 2^-24 ULP), each clamped to 2^64 ULP. */
#ifndef GELULAB_ACC_H
#define GELULAB_ACC_H

#include <stddef.h>
#include <stdint.h>
#include "gelulab/format.h"
#include "gelulab/reference.h"

#define GL_HIST_BINS 42 /* [0, 1/2], (1/2, 1], (1, 2], ..., (2^38, 2^39], > 2^39 (finite) */
#define GL_TOPK      10
#define GL_BINADES   2048 /* exponent field of x (f64 needs 2048; narrower formats use fewer) */

/* tail_neg x < -5, core -5 <= x <= 5, pos x > 5, tiny |x| < 2^-10 (also in core); root: in
 * backward sweeps, the inputs within GL_ROOT_HALFWIDTH of a zero of a derivative measured
 * (x0 = gl_defn_root), taken out of core (where ULP error is unbounded for any finite-precision
 * method); empty in forward sweeps */
enum gl_region {
    GL_REGION_TAIL_NEG,
    GL_REGION_CORE,
    GL_REGION_POS,
    GL_REGION_TINY,
    GL_REGION_ROOT,
    GL_REGIONS
};
extern const char
    *const gl_region_names[GL_REGIONS]; /* "tail_neg", "core", "pos", "tiny", "root" */
#define GL_ROOT_HALFWIDTH 0x1p-5

typedef unsigned __int128 gl_u128;

struct gl_worst {
    double ulp;     /* +inf: non-finite result where the reference is finite (or vice versa) */
    uint64_t xbits; /* x's bits in the sweep's format */
    double x, y, r; /* input, kernel result, unrounded reference (hi + lo, rounded to binary64) */
};

struct gl_stats {
    uint64_t n, correctly_rounded, faithful, nonfinite;
    uint64_t zero_sign; /* results +-0 where the correctly rounded one is the other zero: not
                         * correctly rounded (bit for bit), in nothing but the sign of zero */
    double max_ulp, max_abs, max_rel; /* over finite errors; non-finite ones are counted apart */
    gl_u128 sum_ulp_fx;               /* sum of min(ulp, 2^64) * 2^24 */
    struct gl_worst worst;            /* the input of max_ulp (smallest bits on ties) */
};

struct gl_binade {
    double max_ulp;
    gl_u128 sum_ulp_fx;
    uint64_t n;
};

/* What a kernel's results say beyond their errors (docs/result-format.md, "traits"): the
 * sweep gathers them with the statistics (gl_sw_traits), mergeable like them. */
enum {
    GL_SPECIAL_NAN,
    GL_SPECIAL_PINF,
    GL_SPECIAL_NINF,
    GL_SPECIAL_PZERO,
    GL_SPECIAL_NZERO,
    GL_SPECIALS
};
enum { GL_TRAIT_ZERO_LOST, GL_TRAIT_WRONG_SIGN, GL_TRAIT_PHI_ABOVE1, GL_TRAITS };
struct gl_traits {
    /* how many inputs, and the smallest and largest such x (when n[t] > 0):
     *   zero_lost:  results +-0 where the rounded reference is nonzero
     *   wrong_sign: nonzero results whose sign is not x's (every definition has x's)
     *   phi_above1: |y| > |x| at finite x, an infinite y included: Phi(x) = y/x above 1,
     *               erf(x/sqrt2) above 1, or an overflow
     * (NaN inputs in none) */
    uint64_t n[GL_TRAITS];
    double x_lo[GL_TRAITS], x_hi[GL_TRAITS];
    uint64_t out_hash;     /* sum over the runs of inputs of a hash of their first input and the
                            * results: equal sums, bit-identical results (on the same inputs) */
    unsigned special_seen; /* bit i: special[i] is set (input i was swept) */
    double special[GL_SPECIALS]; /* results at the quiet NaN, +inf, -inf, +0, -0 */
};

struct gl_acc {
    struct gl_stats all, region[GL_REGIONS];
    struct gl_stats nan_x; /* NaN inputs (in no region); `all` is derived, see gl_acc_finish */
    uint64_t hist[GL_HIST_BINS];
    struct gl_worst top[GL_TOPK]; /* worst first */
    int ntop;
    struct gl_binade binade[2][GL_BINADES]; /* [sign][exponent field of x] */
    struct gl_traits traits;
};

void gl_acc_init(struct gl_acc *a);
/* One input: x (bits xbits, exponent field xexp, sign), kernel result y, the correctly
 * rounded reference yr and the unrounded one r, in format fmt. */
void gl_acc_add(struct gl_acc *a, const struct gl_format *fmt, uint64_t xbits, int xsign, int xexp,
                double x, double y, double yr, struct gl_dd r);
/* A run of inputs that share binade and region (the sweep's hot path): the same statistics as
 * gl_acc_add on each, gathered in registers. side[i] = (r.hi - yr) + r.lo, where the
 * unrounded reference lies from the rounded one (for the faithful test). */
struct gl_block {
    const struct gl_format *fmt;
    int binade, region;
    size_t n;
    const uint64_t *xbits;
    const double *x, *y, *yr, *scale, *side;
    const struct gl_dd *r;
};
void gl_acc_add_block(struct gl_acc *a, const struct gl_block *b);
/* gl_acc_add_block in two steps, for a block whose statistics go to several accumulators (the
 * sweep's correctly rounded runs): the block's statistics, its worst inputs included, then
 * their addition to an accumulator (b gives the region and binade). */
struct gl_block_stats {
    struct gl_stats s;
    uint64_t hist[GL_HIST_BINS];
    struct gl_worst top[GL_TOPK]; /* the block's worst inputs, worst first */
    int ntop;
};
void gl_block_stats(struct gl_block_stats *bs, const struct gl_block *b);
void gl_acc_add_block_stats(struct gl_acc *a, const struct gl_block *b,
                            const struct gl_block_stats *bs);
/* scale = 1/ulp(r) (0 when r is not finite) and region of x (GL_REGIONS for NaN, plus 8 when
 * |x| < 2^-10), as gl_block wants them */
double gl_ulp_scale(struct gl_dd r, const struct gl_format *fmt);
/* gl_ulp_scale of r[0..n) into scale[0..n), the same values */
void gl_ulp_scales(const struct gl_dd *r, size_t n, const struct gl_format *fmt, double *scale);
int gl_region_of(double x);

/* Sets a->all from the regions and the NaN inputs, after the last gl_acc_add (gl_acc_add leaves
 * `all` alone: one statistic fewer to update per input). */
void gl_acc_finish(struct gl_acc *a);
/* s += t, statistics of disjoint inputs: counts and sums add, maxima are kept, and the worst
 * input is the worse of the two (the larger ULP error; on a tie, the order the top list keeps) */
void gl_stats_merge(struct gl_stats *s, const struct gl_stats *t);
/* a += b (exact, order-independent; both finished). */
void gl_acc_merge(struct gl_acc *a, const struct gl_acc *b);
/* b's traits into a's (counts and hashes add, x ranges widen, b's specials are kept) */
void gl_traits_merge(struct gl_traits *a, const struct gl_traits *b);
/* mean ULP of s (over inputs with a finite error) */
double gl_stats_mean_ulp(const struct gl_stats *s);
/* Histogram bin of a ULP error, and the bin's upper edge (bin 0: 0.5). */
int gl_hist_bin(double ulp);
double gl_hist_upper(int bin);

#endif
