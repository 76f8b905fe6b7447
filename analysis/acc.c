/* Mergeable accuracy accumulators (include/gelulab/acc.h). */
#include <math.h>
#include <string.h>
#include "gelulab/acc.h"
#include "gelulab/metrics.h"

const char *const gl_region_names[GL_REGIONS] = {"tail_neg", "core", "pos", "tiny"};

void gl_acc_init(struct gl_acc *a)
{
    memset(a, 0, sizeof *a);
}

int gl_hist_bin(double ulp)
{
    if (ulp <= 0.5) return 0;
    uint64_t u;
    memcpy(&u, &ulp, sizeof u);
    int e = (int)((u >> 52) & 0x7ff) - 1023;           /* ulp in [2^e, 2^(e+1)), e >= -1 */
    int bin = e + 1 + ((u & 0xfffffffffffffull) != 0); /* (2^(b-2), 2^(b-1)] is bin b */
    if (bin < 1) bin = 1;
    return bin < GL_HIST_BINS ? bin : GL_HIST_BINS - 1;
}

double gl_hist_upper(int bin)
{
    return bin == GL_HIST_BINS - 1 ? INFINITY : ldexp(1.0, bin - 1);
}

/* a worse than b: larger error, or equal error and smaller input bits */
static int worse(double ulp_a, uint64_t bits_a, double ulp_b, uint64_t bits_b)
{
    return ulp_a > ulp_b || (ulp_a == ulp_b && bits_a < bits_b);
}

/* round(min(ulp, 2^64) * 2^24). Kept in two 64-bit halves in the per-input sample: a 128-bit
 * value stored in halves and reloaded whole stalls store forwarding on the hot path. */
static void fixed_ulp(double ulp, uint64_t *lo, uint64_t *hi)
{
    if (ulp < 0x1p39) {
        *lo = (uint64_t)(ulp * 0x1p24 + 0.5), *hi = 0;
        return;
    }
    gl_u128 v = (gl_u128)((ulp < 0x1p64 ? ulp : 0x1p64) * 0x1p24);
    *lo = (uint64_t)v, *hi = (uint64_t)(v >> 64);
}

/* One input's errors, computed once and added to every statistic it belongs to. */
struct sample {
    struct gl_worst w;
    double abs, rel;
    uint64_t fx_lo, fx_hi;
    int cr, faithful;
};

static void stats_add(struct gl_stats *s, const struct sample *p)
{
    s->n++;
    s->correctly_rounded += (uint64_t)p->cr;
    s->faithful += (uint64_t)p->faithful;
    if (isinf(p->w.ulp)) {
        s->nonfinite++;
    } else {
        s->sum_ulp_fx += p->fx_lo;
        if (p->fx_hi) s->sum_ulp_fx += (gl_u128)p->fx_hi << 64;
        if (p->abs > s->max_abs) s->max_abs = p->abs;
        if (p->rel > s->max_rel) s->max_rel = p->rel;
        if (p->w.ulp > s->max_ulp) s->max_ulp = p->w.ulp;
    }
    if (s->n == 1 || worse(p->w.ulp, p->w.xbits, s->worst.ulp, s->worst.xbits)) s->worst = p->w;
}

static void top_insert(struct gl_acc *a, const struct gl_worst *w)
{
    if (a->ntop == GL_TOPK &&
        !worse(w->ulp, w->xbits, a->top[GL_TOPK - 1].ulp, a->top[GL_TOPK - 1].xbits))
        return;
    int i = a->ntop < GL_TOPK ? a->ntop++ : GL_TOPK - 1;
    for (; i > 0 && worse(w->ulp, w->xbits, a->top[i - 1].ulp, a->top[i - 1].xbits); i--)
        a->top[i] = a->top[i - 1];
    a->top[i] = *w;
}

static int is_faithful(double y, double yr, struct gl_dd r, double ulp)
{
    if (y == yr || (isnan(y) && isnan(yr))) return 1;
    if (!(ulp < 1)) return 0;
    double side = (r.hi - yr) + r.lo; /* where r lies from yr */
    return (y > yr && side > 0) || (y < yr && side < 0);
}

int gl_region_of(double x)
{
    if (isnan(x)) return GL_REGIONS;
    int reg = x < -5 ? GL_REGION_TAIL_NEG : x > 5 ? GL_REGION_POS : GL_REGION_CORE;
    return reg | (fabs(x) < 0x1p-10 ? 8 : 0);
}

static void add_sample(struct gl_acc *a, uint64_t xbits, int binade, int region, double x, double y,
                       double yr, struct gl_dd r, double ulp);

void gl_acc_add_pre(struct gl_acc *a, const struct gl_format *fmt, uint64_t xbits, int binade,
                    int region, double scale, double x, double y, double yr, struct gl_dd r)
{
    double ulp =
        scale != 0 && isfinite(y) ? fabs((y - r.hi) - r.lo) * scale : gl_ulp_error(y, r, fmt);
    add_sample(a, xbits, binade, region, x, y, yr, r, ulp);
}

void gl_acc_add(struct gl_acc *a, const struct gl_format *fmt, uint64_t xbits, int xsign, int xexp,
                double x, double y, double yr, struct gl_dd r)
{
    add_sample(a, xbits, xsign * GL_BINADES + xexp, gl_region_of(x), x, y, yr, r,
               gl_ulp_error(y, r, fmt));
}

static void add_sample(struct gl_acc *a, uint64_t xbits, int binade, int region, double x, double y,
                       double yr, struct gl_dd r, double ulp)
{
    struct sample p;
    p.w = (struct gl_worst){ulp, xbits, x, y, r.hi};
    p.abs = gl_abs_error(y, r);
    p.rel = isfinite(p.abs) && r.hi != 0 && isfinite(r.hi) ? p.abs / fabs(r.hi) : 0;
    p.cr = memcmp(&y, &yr, sizeof y) == 0 || (isnan(y) && isnan(yr));
    p.faithful = is_faithful(y, yr, r, ulp);
    p.fx_lo = p.fx_hi = 0;
    if (!isinf(ulp)) fixed_ulp(ulp, &p.fx_lo, &p.fx_hi);
    if (region == GL_REGIONS) {
        stats_add(&a->nan_x, &p);
    } else {
        stats_add(&a->region[region & 7], &p);
        if (region & 8) stats_add(&a->region[GL_REGION_TINY], &p);
    }
    a->hist[isinf(ulp) ? GL_HIST_BINS - 1 : gl_hist_bin(ulp)]++;
    if (a->ntop < GL_TOPK || worse(ulp, xbits, a->top[GL_TOPK - 1].ulp, a->top[GL_TOPK - 1].xbits))
        top_insert(a, &p.w);
    struct gl_binade *b = &a->binade[binade / GL_BINADES][binade % GL_BINADES];
    b->n++;
    if (!isinf(ulp)) {
        b->sum_ulp_fx += p.fx_lo;
        if (p.fx_hi) b->sum_ulp_fx += (gl_u128)p.fx_hi << 64;
        if (ulp > b->max_ulp) b->max_ulp = ulp;
    }
}

static void stats_merge(struct gl_stats *s, const struct gl_stats *t)
{
    if (!t->n) return;
    if (!s->n || worse(t->worst.ulp, t->worst.xbits, s->worst.ulp, s->worst.xbits))
        s->worst = t->worst;
    s->n += t->n;
    s->correctly_rounded += t->correctly_rounded;
    s->faithful += t->faithful;
    s->nonfinite += t->nonfinite;
    s->sum_ulp_fx += t->sum_ulp_fx;
    if (t->max_ulp > s->max_ulp) s->max_ulp = t->max_ulp;
    if (t->max_abs > s->max_abs) s->max_abs = t->max_abs;
    if (t->max_rel > s->max_rel) s->max_rel = t->max_rel;
}

void gl_acc_finish(struct gl_acc *a)
{
    memset(&a->all, 0, sizeof a->all);
    stats_merge(&a->all, &a->region[GL_REGION_TAIL_NEG]);
    stats_merge(&a->all, &a->region[GL_REGION_CORE]);
    stats_merge(&a->all, &a->region[GL_REGION_POS]);
    stats_merge(&a->all, &a->nan_x);
}

void gl_acc_merge(struct gl_acc *a, const struct gl_acc *b)
{
    stats_merge(&a->all, &b->all);
    stats_merge(&a->nan_x, &b->nan_x);
    for (int r = 0; r < GL_REGIONS; r++) stats_merge(&a->region[r], &b->region[r]);
    for (int i = 0; i < GL_HIST_BINS; i++) a->hist[i] += b->hist[i];
    for (int i = 0; i < b->ntop; i++) top_insert(a, &b->top[i]);
    for (int s = 0; s < 2; s++) {
        for (int e = 0; e < GL_BINADES; e++) {
            struct gl_binade *x = &a->binade[s][e];
            const struct gl_binade *y = &b->binade[s][e];
            x->n += y->n;
            x->sum_ulp_fx += y->sum_ulp_fx;
            if (y->max_ulp > x->max_ulp) x->max_ulp = y->max_ulp;
        }
    }
}

double gl_stats_mean_ulp(const struct gl_stats *s)
{
    uint64_t n = s->n - s->nonfinite;
    return n ? ldexp((double)s->sum_ulp_fx, -24) / (double)n : 0;
}
