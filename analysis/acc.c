/* Mergeable accuracy accumulators (include/gelulab/acc.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/acc.h"
#include "gelulab/metrics.h"
#include "acc_rules.h"

const char *const gl_region_names[GL_REGIONS] = {"tail_neg", "core", "pos", "tiny", "root"};

void gl_acc_init(struct gl_acc *a)
{
    memset(a, 0, sizeof *a);
}

int gl_hist_bin(double ulp)
{
    if (!(ulp > 0)) return isnan(ulp) ? GL_HIST_BINS - 1 : 0;
    uint64_t u;
    memcpy(&u, &ulp, sizeof u);
    int bin = GL_RULE_BIN((int)((u >> 52) & 0x7ff), (u & 0xfffffffffffffull) != 0);
    if (bin < 0) bin = 0;
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
        *lo = (uint64_t)GL_RULE_FX(ulp), *hi = 0;
        return;
    }
    gl_u128 v = (gl_u128)((ulp < 0x1p64 ? ulp : 0x1p64) * 0x1p24);
    *lo = (uint64_t)v, *hi = (uint64_t)(v >> 64);
}

/* The reference rounded to binary64, as a worst input records it: hi + lo, but hi alone where
 * lo is 0 (-0 + 0 is +0: GELU(-inf) = -0 would read +0) */
static double dd_value(struct gl_dd r)
{
    return r.lo == 0 ? r.hi : r.hi + r.lo;
}

/* One input's errors, computed once and added to every statistic it belongs to. */
struct sample {
    struct gl_worst w;
    double abs, rel;
    uint64_t fx_lo, fx_hi;
    int cr, faithful, zero_sign;
};

static void stats_add(struct gl_stats *s, const struct sample *p)
{
    s->n++;
    s->correctly_rounded += (uint64_t)p->cr;
    s->faithful += (uint64_t)p->faithful;
    s->zero_sign += (uint64_t)p->zero_sign;
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

/* whether an input of error ulp and bits xbits enters the list top[0..ntop) of at most GL_TOPK */
static int list_takes(const struct gl_worst *top, int ntop, double ulp, uint64_t xbits)
{
    return ntop < GL_TOPK || worse(ulp, xbits, top[GL_TOPK - 1].ulp, top[GL_TOPK - 1].xbits);
}

/* w into the list top[0..*ntop) of at most GL_TOPK, worst first */
static void list_insert(struct gl_worst *top, int *ntop, const struct gl_worst *w)
{
    if (!list_takes(top, *ntop, w->ulp, w->xbits)) return;
    int i = *ntop < GL_TOPK ? (*ntop)++ : GL_TOPK - 1;
    for (; i > 0 && worse(w->ulp, w->xbits, top[i - 1].ulp, top[i - 1].xbits); i--)
        top[i] = top[i - 1];
    top[i] = *w;
}

static void top_insert(struct gl_acc *a, const struct gl_worst *w)
{
    list_insert(a->top, &a->ntop, w);
}

static int is_faithful(double y, double yr, struct gl_dd r, double ulp)
{
    return (isnan(y) && isnan(yr)) || GL_RULE_FAITHFUL(y, yr, GL_RULE_SIDE(r.hi, r.lo, yr), ulp);
}

int gl_region_of(double x)
{
    /* tail_neg 0, core 1, pos 2, from the comparisons themselves rather than branches */
    int reg = GL_REGION_CORE + (x > 5) - (x < -5);
    return isnan(x) ? GL_REGIONS : reg | (fabs(x) < 0x1p-10) << 3;
}

static void add_sample(struct gl_acc *a, uint64_t xbits, int binade, int region, double x, double y,
                       double yr, struct gl_dd r, double ulp);

void gl_acc_add(struct gl_acc *a, const struct gl_format *fmt, uint64_t xbits, int xsign, int xexp,
                double x, double y, double yr, struct gl_dd r)
{
    add_sample(a, xbits, xsign * GL_BINADES + xexp, gl_region_of(x), x, y, yr, r,
               gl_ulp_error(y, r, fmt));
}

static struct sample make_sample(uint64_t xbits, double x, double y, double yr, struct gl_dd r,
                                 double ulp)
{
    struct sample p;
    p.w = (struct gl_worst){ulp, xbits, x, y, dd_value(r)};
    p.abs = gl_abs_error(y, r);
    p.rel = isfinite(p.abs) && r.hi != 0 && isfinite(r.hi) ? p.abs / fabs(r.hi) : 0;
    p.cr = memcmp(&y, &yr, sizeof y) == 0 || (isnan(y) && isnan(yr));
    p.faithful = is_faithful(y, yr, r, ulp);
    uint64_t yb, rb;
    memcpy(&yb, &y, 8), memcpy(&rb, &yr, 8);
    p.zero_sign = GL_RULE_ZERO_SIGN(y, yr, yb, rb);
    p.fx_lo = p.fx_hi = 0;
    if (!isinf(ulp)) fixed_ulp(ulp, &p.fx_lo, &p.fx_hi);
    return p;
}

static void add_sample(struct gl_acc *a, uint64_t xbits, int binade, int region, double x, double y,
                       double yr, struct gl_dd r, double ulp)
{
    struct sample p = make_sample(xbits, x, y, yr, r, ulp);
    if (region == GL_REGIONS) {
        stats_add(&a->nan_x, &p);
    } else {
        stats_add(&a->region[region & 7], &p);
        if (region & 8) stats_add(&a->region[GL_REGION_TINY], &p);
    }
    a->hist[isinf(ulp) ? GL_HIST_BINS - 1 : gl_hist_bin(ulp)]++;
    if (list_takes(a->top, a->ntop, ulp, xbits)) top_insert(a, &p.w);
    struct gl_binade *b = &a->binade[binade / GL_BINADES][binade % GL_BINADES];
    b->n++;
    if (!isinf(ulp)) {
        b->sum_ulp_fx += p.fx_lo;
        if (p.fx_hi) b->sum_ulp_fx += (gl_u128)p.fx_hi << 64;
        if (ulp > b->max_ulp) b->max_ulp = ulp;
    }
}

/* ---- blocks: the same statistics, gathered in registers for a run of inputs ---- */

/* An input off the fast path (non-finite result or reference, ULP error >= 2^39): the
 * general per-input code, into the block's statistics. */
static void block_slow(struct gl_block_stats *bs, const struct gl_block *b, size_t i)
{
    double y = b->y[i];
    double ulp = b->scale[i] != 0 && isfinite(y)
                     ? GL_RULE_ULP(fabs(GL_RULE_DIFF(y, b->r[i].hi, b->r[i].lo)), b->scale[i])
                     : gl_ulp_error(y, b->r[i], b->fmt);
    struct sample p = make_sample(b->xbits[i], b->x[i], y, b->yr[i], b->r[i], ulp);
    stats_add(&bs->s, &p);
    bs->hist[isinf(ulp) ? GL_HIST_BINS - 1 : gl_hist_bin(ulp)]++;
    list_insert(bs->top, &bs->ntop, &p.w);
}

/* A NaN or infinite result where the reference and its rounding are finite (a kernel that
 * overflows, or gives NaN, over a whole range: ggml's gelu-quick beyond the binary16 range,
 * the tanh forms' gradients in the tails): its ULP and absolute errors are infinite, its
 * relative error 0, and it is neither correctly rounded, faithful nor a zero of the wrong
 * sign; block_slow adds it to n, nonfinite and the last histogram bin, and to the worst and the
 * top list only where it is worse than their last. */
static int lost_result(const struct gl_block *b, size_t i)
{
    return !isfinite(b->y[i]) && isfinite(b->r[i].hi) && isfinite(b->yr[i]);
}

/* The block's statistics into the region, tiny and binade statistics. */
static void block_commit(struct gl_acc *a, const struct gl_block *b, const struct gl_stats *l)
{
    if (b->region == GL_REGIONS) {
        gl_stats_merge(&a->nan_x, l);
    } else {
        gl_stats_merge(&a->region[b->region & 7], l);
        if (b->region & 8) gl_stats_merge(&a->region[GL_REGION_TINY], l);
    }
    struct gl_binade *bn = &a->binade[b->binade / GL_BINADES][b->binade % GL_BINADES];
    bn->n += l->n;
    bn->sum_ulp_fx += l->sum_ulp_fx;
    if (l->max_ulp > bn->max_ulp) bn->max_ulp = l->max_ulp;
}

/* ---- the fast path of a block ----
 * Vectorised (4 lanes; cloned for AVX2 on x86-64, since the engine is built for the baseline)
 * over the inputs whose ULP error u is finite (result and reference finite): u, its histogram
 * bin (four histograms, one per lane, so that repeated bins do not wait on each other's
 * increments), its fixed-point value round(u 2^24) (u 2^24 + 1/2 truncated: the same integer as
 * fixed_ulp, by the 2^52 trick, exact below 2^52; lanes with u >= 2^28 call fixed_ulp), correctly
 * rounded and faithful counts, the maxima and the block's worst input (largest u, smallest
 * bits); the relative error is divided out only in the lanes where it can exceed the maximum so
 * far (a 2^-40 margin on the test keeps the maximum exact). The other inputs get u = -1 and go
 * through the general code; the top list is scanned only when the block's worst input would
 * enter it. */
#define FAST_MAXN 4096 /* inputs per call: lane sums of round(u 2^24) < 2^62 */
#define FAST_LIM  GL_RULE_FX_LIM

#define VD_SEL(m, a, b) ((VD4)(((m) & (VL4)(a)) | (~(m) & (VL4)(b)))) /* m ? a : b by lanes */
#define VL_SEL(m, a, b) (((m) & (a)) | (~(m) & (b)))

struct fast_part {
    uint64_t slow, cr, faithful, zero_sign;
    gl_u128 sum;
    double max_ulp, max_abs, max_rel, rel_cut;
    double worst_ulp; /* -1: no fast input */
    uint64_t worst_bits;
    size_t worst_i;
    uint32_t hist[4][GL_HIST_BINS + 1]; /* [lane][bin], bin GL_HIST_BINS: not counted */
};

static void fast_rel(struct fast_part *f, double d, double rh)
{
    double rel = d / fabs(rh);
    if (rel > f->max_rel) f->max_rel = rel, f->rel_cut = rel * (1 - 0x1p-40);
}

static void fast_big(struct fast_part *f, double u) /* the fixed-point value of u >= 2^28 */
{
    uint64_t lo, hi;
    fixed_ulp(u, &lo, &hi);
    f->sum += (gl_u128)hi << 64 | lo;
}

static void fast_worst(struct fast_part *f, double u, uint64_t bits, size_t i)
{
    if (worse(u, bits, f->worst_ulp, f->worst_bits))
        f->worst_ulp = u, f->worst_bits = bits, f->worst_i = i;
}

/* one input, the same arithmetic as a lane of the vector loop */
static void fast_one(const struct gl_block *b, size_t i, double *u, struct fast_part *f)
{
    double y = b->y[i], yr = b->yr[i], side = b->side[i], rh = b->r[i].hi;
    double d = fabs(GL_RULE_DIFF(y, rh, b->r[i].lo)), v = GL_RULE_ULP(d, b->scale[i]);
    u[i] = -1.0;
    if (!(v < INFINITY) || b->scale[i] == 0) { /* also NaN and infinite y */
        f->slow++;
        return;
    }
    uint64_t yb, rb;
    memcpy(&yb, &y, 8), memcpy(&rb, &yr, 8);
    u[i] = v;
    f->hist[0][gl_hist_bin(v)]++;
    f->cr += yb == rb;
    f->zero_sign += (uint64_t)GL_RULE_ZERO_SIGN(y, yr, yb, rb);
    f->faithful += (uint64_t)GL_RULE_FAITHFUL(y, yr, side, v);
    if (v < FAST_LIM)
        f->sum += (uint64_t)GL_RULE_FX(v);
    else
        fast_big(f, v);
    f->max_ulp = v > f->max_ulp ? v : f->max_ulp;
    f->max_abs = d > f->max_abs ? d : f->max_abs;
    if (d > f->rel_cut * fabs(rh) && rh != 0) fast_rel(f, d, rh);
    fast_worst(f, v, b->xbits[i], i);
}

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#endif
static void
fast_block(const struct gl_block *b, double *restrict u, struct fast_part *f)
{
    const VL4 pair0 = {0, 2, 4, 6}, absmask = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
    const VL4 mant = {0xfffffffffffffll, 0xfffffffffffffll, 0xfffffffffffffll, 0xfffffffffffffll};
    const VL4 sign = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}, lane = {0, 1, 2, 3};
    const VD4 minus1 = {-1, -1, -1, -1}, two52 = {0x1p52, 0x1p52, 0x1p52, 0x1p52};
    VL4 slow = {0}, cr = {0}, zsign = {0}, faithful = {0}, sum = {0}, wbits = {0}, wi = {0};
    VD4 max_abs = {0}, wu = minus1; /* wu: the lane's worst u, so also its largest */
    size_t i = 0;
    for (; i + 4 <= b->n; i += 4) {
        VD4 y, yr, sc, side, r0, r1;
        VL4 bits;
        memcpy(&y, b->y + i, sizeof y), memcpy(&yr, b->yr + i, sizeof yr);
        memcpy(&sc, b->scale + i, sizeof sc), memcpy(&side, b->side + i, sizeof side);
        memcpy(&r0, b->r + i, sizeof r0), memcpy(&r1, b->r + i + 2, sizeof r1);
        memcpy(&bits, b->xbits + i, sizeof bits);
        VD4 hi = __builtin_shuffle(r0, r1, pair0), lo = __builtin_shuffle(r0, r1, pair0 + 1);
        VD4 d = (VD4)((VL4)GL_RULE_DIFF(y, hi, lo) & absmask), v = GL_RULE_ULP(d, sc);
        VL4 ok = (v < INFINITY) & (sc != 0), big = ok & (v >= FAST_LIM);
        VD4 uv = VD_SEL(ok, v, minus1), t = GL_RULE_FX(v), m = t + two52;
        VL4 fx = ((VL4)m - (VL4)two52) + (VL4)((m - two52) > t);     /* trunc(t) */
        VL4 bn = GL_RULE_BIN((VL4)v >> 52, -(((VL4)v & mant) != 0)); /* v >= 0: no sign bit */
        bn = VL_SEL(bn > GL_HIST_BINS - 1, (VL4){0} + (GL_HIST_BINS - 1), bn & (bn > 0));
        bn = VL_SEL(ok, bn, (VL4){0} + GL_HIST_BINS);
        memcpy(u + i, &uv, sizeof uv);
        for (int k = 0; k < 4; k++) f->hist[k][bn[k]]++;
        slow -= ~ok;
        cr -= ok & ((VL4)y == (VL4)yr);
        zsign -= ok & GL_RULE_ZERO_SIGN(y, yr, (VL4)y, (VL4)yr);
        faithful -= ok & GL_RULE_FAITHFUL(y, yr, side, v);
        sum += ok & ~big & fx;
        VL4 anybig = big | __builtin_shuffle(big, (VL4){2, 3, 0, 1});
        anybig |= __builtin_shuffle(anybig, (VL4){1, 0, 3, 2});
        for (int k = 0; anybig[0] && k < 4; k++)
            if (big[k]) fast_big(f, v[k]);
        max_abs = VD_SEL(ok & (d > max_abs), d, max_abs);
        VL4 w = ok & ((uv > wu) | ((uv == wu) & ((bits ^ sign) < (wbits ^ sign))));
        wu = VD_SEL(w, uv, wu), wbits = VL_SEL(w, bits, wbits),
        wi = VL_SEL(w, lane + (int64_t)i, wi);
        VL4 rel = ok & (d > f->rel_cut * (VD4)((VL4)hi & absmask)) & (hi != 0), any = rel;
        any |= __builtin_shuffle(any, (VL4){2, 3, 0, 1}),
            any |= __builtin_shuffle(any, (VL4){1, 0, 3, 2});
        for (int k = 0; any[0] && k < 4; k++)
            if (rel[k] && d[k] > f->rel_cut * fabs(hi[k])) fast_rel(f, d[k], hi[k]);
    }
    for (int k = 0; k < 4; k++) {
        f->slow += (uint64_t)slow[k], f->cr += (uint64_t)cr[k], f->zero_sign += (uint64_t)zsign[k];
        f->faithful += (uint64_t)faithful[k], f->sum += (uint64_t)sum[k];
        f->max_ulp = wu[k] > f->max_ulp ? wu[k] : f->max_ulp;
        f->max_abs = max_abs[k] > f->max_abs ? max_abs[k] : f->max_abs;
        if (wu[k] >= 0) fast_worst(f, wu[k], (uint64_t)wbits[k], (size_t)wi[k]);
    }
    for (; i < b->n; i++) fast_one(b, i, u, f);
}

/* The block's fast inputs worse than `floor` into its top list (which holds its slow inputs
 * already). The scan starts from the end nearer the block's worst input, so that errors that
 * grow (or shrink) along the block cost one comparison per input, not one insertion; four
 * inputs whose largest error is below the list's floor cost one comparison together. */
static void fast_top(struct gl_block_stats *bs, const struct gl_block *b, const double *u,
                     size_t worst_i, struct gl_worst t)
{
    size_t n = b->n;
    int back = worst_i >= n / 2;
    for (size_t k = 0; k < n; k++) {
        if (k % 4 == 0 && k + 4 <= n) { /* u: -1 (slow) or a finite error */
            const double *g = u + (back ? n - 4 - k : k);
            double m01 = g[0] > g[1] ? g[0] : g[1], m23 = g[2] > g[3] ? g[2] : g[3];
            if ((m01 > m23 ? m01 : m23) < t.ulp) {
                k += 3;
                continue;
            }
        }
        size_t i = back ? n - 1 - k : k;
        if (u[i] < 0 || !worse(u[i], b->xbits[i], t.ulp, t.xbits)) continue;
        struct gl_worst w = {u[i], b->xbits[i], b->x[i], b->y[i], dd_value(b->r[i])};
        list_insert(bs->top, &bs->ntop, &w);
        if (bs->ntop == GL_TOPK &&
            worse(bs->top[GL_TOPK - 1].ulp, bs->top[GL_TOPK - 1].xbits, t.ulp, t.xbits))
            t = bs->top[GL_TOPK - 1];
    }
}

/* Block b's statistics (at most FAST_MAXN inputs); only its inputs worse than `floor` need
 * enter bs->top (ulp -1: all of them). */
static void block_stats(struct gl_block_stats *bs, const struct gl_block *b, struct gl_worst floor)
{
    double u[FAST_MAXN];
    memset(bs, 0, sizeof *bs);
    bs->s.worst.ulp = -1; /* none yet: every input is worse */
    struct fast_part f;
    memset(&f, 0, sizeof f);
    f.worst_ulp = -1;
    fast_block(b, u, &f);
    for (size_t i = 0; f.slow && i < b->n; i++)
        if (u[i] >= 0) {
            continue;
        } else if (lost_result(b, i) && !list_takes(bs->top, bs->ntop, INFINITY, b->xbits[i])) {
            bs->s.n++, bs->s.nonfinite++, bs->hist[GL_HIST_BINS - 1]++; /* block_slow's sums */
        } else {
            block_slow(bs, b, i);
        }
    struct gl_stats *l = &bs->s;
    if (f.worst_ulp >= 0) {
        size_t i = f.worst_i;
        if (worse(f.worst_ulp, f.worst_bits, l->worst.ulp, l->worst.xbits))
            l->worst =
                (struct gl_worst){f.worst_ulp, f.worst_bits, b->x[i], b->y[i], dd_value(b->r[i])};
        if (worse(f.worst_ulp, f.worst_bits, floor.ulp, floor.xbits))
            fast_top(bs, b, u, f.worst_i, floor);
    }
    for (int k = 0; k < GL_HIST_BINS; k++)
        bs->hist[k] += (uint64_t)f.hist[0][k] + f.hist[1][k] + f.hist[2][k] + f.hist[3][k];
    l->n += b->n - f.slow, l->correctly_rounded += f.cr, l->faithful += f.faithful;
    l->zero_sign += f.zero_sign;
    l->sum_ulp_fx += f.sum;
    if (f.max_ulp > l->max_ulp) l->max_ulp = f.max_ulp;
    if (f.max_abs > l->max_abs) l->max_abs = f.max_abs;
    if (f.max_rel > l->max_rel) l->max_rel = f.max_rel;
}

/* block_stats for any number of inputs: in parts of FAST_MAXN, merged */
static void block_stats_parts(struct gl_block_stats *bs, const struct gl_block *b,
                              struct gl_worst floor)
{
    if (b->n <= FAST_MAXN) {
        block_stats(bs, b, floor);
        return;
    }
    struct gl_block part = *b;
    struct gl_block_stats ps;
    memset(bs, 0, sizeof *bs);
    for (size_t off = 0; off < b->n; off += FAST_MAXN) {
        part.n = b->n - off < FAST_MAXN ? b->n - off : FAST_MAXN;
        part.xbits = b->xbits + off, part.x = b->x + off, part.y = b->y + off;
        part.yr = b->yr + off, part.scale = b->scale + off, part.side = b->side + off;
        part.r = b->r + off;
        block_stats(&ps, &part, floor);
        gl_stats_merge(&bs->s, &ps.s);
        for (int k = 0; k < GL_HIST_BINS; k++) bs->hist[k] += ps.hist[k];
        for (int k = 0; k < ps.ntop; k++) list_insert(bs->top, &bs->ntop, &ps.top[k]);
    }
}

void gl_block_stats(struct gl_block_stats *bs, const struct gl_block *b)
{
    block_stats_parts(bs, b, (struct gl_worst){-1, 0, 0, 0, 0});
}

void gl_acc_add_block_stats(struct gl_acc *a, const struct gl_block *b,
                            const struct gl_block_stats *bs)
{
    block_commit(a, b, &bs->s);
    for (int k = 0; k < GL_HIST_BINS; k++) a->hist[k] += bs->hist[k];
    for (int k = 0; k < bs->ntop; k++) top_insert(a, &bs->top[k]);
}

void gl_acc_add_block(struct gl_acc *a, const struct gl_block *b)
{
    struct gl_block_stats bs;
    struct gl_worst floor = {-1, 0, 0, 0, 0}; /* inputs not worse cannot enter a's top list */
    if (a->ntop == GL_TOPK) floor = a->top[GL_TOPK - 1];
    block_stats_parts(&bs, b, floor);
    gl_acc_add_block_stats(a, b, &bs);
}

void gl_stats_merge(struct gl_stats *s, const struct gl_stats *t)
{
    if (!t->n) return;
    if (!s->n || worse(t->worst.ulp, t->worst.xbits, s->worst.ulp, s->worst.xbits))
        s->worst = t->worst;
    s->n += t->n;
    s->correctly_rounded += t->correctly_rounded;
    s->faithful += t->faithful;
    s->zero_sign += t->zero_sign;
    s->nonfinite += t->nonfinite;
    s->sum_ulp_fx += t->sum_ulp_fx;
    if (t->max_ulp > s->max_ulp) s->max_ulp = t->max_ulp;
    if (t->max_abs > s->max_abs) s->max_abs = t->max_abs;
    if (t->max_rel > s->max_rel) s->max_rel = t->max_rel;
}

void gl_acc_finish(struct gl_acc *a)
{
    memset(&a->all, 0, sizeof a->all);
    gl_stats_merge(&a->all, &a->region[GL_REGION_TAIL_NEG]);
    gl_stats_merge(&a->all, &a->region[GL_REGION_CORE]);
    gl_stats_merge(&a->all, &a->region[GL_REGION_POS]);
    gl_stats_merge(&a->all, &a->region[GL_REGION_ROOT]);
    gl_stats_merge(&a->all, &a->nan_x);
}

void gl_traits_merge(struct gl_traits *a, const struct gl_traits *b)
{
    for (int t = 0; t < GL_TRAITS; t++) {
        if (!b->n[t]) continue;
        if (!a->n[t] || b->x_lo[t] < a->x_lo[t]) a->x_lo[t] = b->x_lo[t];
        if (!a->n[t] || b->x_hi[t] > a->x_hi[t]) a->x_hi[t] = b->x_hi[t];
        a->n[t] += b->n[t];
    }
    a->out_hash += b->out_hash;
    for (int i = 0; i < GL_SPECIALS; i++)
        if (b->special_seen >> i & 1) a->special[i] = b->special[i];
    a->special_seen |= b->special_seen;
}

void gl_acc_merge(struct gl_acc *a, const struct gl_acc *b)
{
    gl_traits_merge(&a->traits, &b->traits);
    gl_stats_merge(&a->all, &b->all);
    gl_stats_merge(&a->nan_x, &b->nan_x);
    for (int r = 0; r < GL_REGIONS; r++) gl_stats_merge(&a->region[r], &b->region[r]);
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
