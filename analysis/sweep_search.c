/* The binary64 sweep's searches around each chunk's worst input (analysis/sweep.c), after the
 * chunk, for each kernel; the inputs measured are added to its statistics.
 *
 * Local search (exhaustive and quick modes): the 64 nearest binary64 neighbours (32 on each
 * side) of the kernel's worst input of the chunk, so that a worst case found by the sampling is
 * followed to its neighbourhood.
 *
 * Hunt (--mode hunt, chunks of one stratum, sign and binade, or a part of one): the kernel
 * climbs from its worst input of the chunk: at the scales 2^48, 2^44, ..., 2^0 ulps it
 * measures 16 inputs at hashed offsets of up to that many ulps around the best input so far,
 * mantissas wrapping inside the stratum, and moves to the worst of them when it is worse. The
 * 13 x 16 = 208 inputs per kernel and chunk are added to its statistics. Everything depends only
 * on the chunk, so the shards of a hunt merge into the unsharded run byte for byte, and the
 * merge keeps the worst inputs that any shard found. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/metrics.h"
#include "gelulab/sweep.h"
#include "sweep_int.h"

/* buffers for measuring one kernel on up to cap inputs of our choosing */
struct points {
    struct chunk_buf b;
    double *x, *xd, *yd, *yr, *sc, *side, *yy;
    uint64_t *bits, *runs, *hashes;
    struct gl_dd *r;
    int *bin, *reg;
    unsigned char *special;
};

static void points_init(struct points *p, uint64_t cap)
{
    memset(p, 0, sizeof *p);
    p->x = malloc(cap * sizeof *p->x), p->xd = malloc(cap * sizeof *p->xd);
    p->yd = malloc(cap * sizeof *p->yd), p->yr = malloc(cap * sizeof *p->yr);
    p->sc = malloc(cap * sizeof *p->sc), p->side = malloc(cap * sizeof *p->side);
    p->yy = malloc(cap * sizeof *p->yy), p->bits = malloc(cap * sizeof *p->bits);
    p->runs = malloc((cap + 1) * sizeof *p->runs),
    p->hashes = malloc((cap + 1) * sizeof *p->hashes);
    p->r = malloc(cap * sizeof *p->r), p->bin = malloc(cap * sizeof *p->bin);
    p->reg = malloc(cap * sizeof *p->reg), p->special = malloc(cap + 1);
    struct chunk_buf *b = &p->b;
    b->x = p->x, b->bits = p->bits, b->xd = p->xd, b->yd = p->yd, b->y = p->yy;
    b->binade = p->bin, b->region = p->reg, b->run_start = p->runs;
    b->run_hash = p->hashes, b->run_special = p->special;
    for (int d = 0; d < GL_DEFN_COUNT; d++) b->scale[d] = p->sc, b->side[d] = p->side;
}

static void points_free(struct points *p)
{
    free(p->x), free(p->xd), free(p->yd), free(p->yr), free(p->sc), free(p->side), free(p->yy);
    free(p->bits), free(p->runs), free(p->hashes), free(p->r), free(p->bin), free(p->reg);
    free(p->special);
}

/* Kernel ks (binary64) on p->x[0..n) (bits in p->bits) against its own definition into acc[0]
 * and against exact GELU into acc[1] (once when they are the same); err[i], when given, the ULP
 * error against its own definition (NaN errors as +inf). */
static void measure_points(struct gl_sweep *s, struct gl_kernel_src *ks, struct gl_acc **acc,
                           struct points *p, uint64_t n, double *err)
{
    struct chunk_buf *b = &p->b;
    enum gl_defn e = gl_defn_exact_of(ks->defn);
    memcpy(p->xd, p->x, n * sizeof *p->x);
    ks->impl->f64(p->xd, p->yd, n);
    for (int against = 0; against < (ks->defn == e ? 1 : 2); against++) {
        enum gl_defn d = against ? e : ks->defn;
        int need[GL_DEFN_COUNT] = {0};
        for (uint64_t i = 0; i < n; i++) gl_sw_reference(s, d, p->x[i], &p->yr[i], &p->r[i]);
        b->yr[d] = p->yr, b->r[d] = p->r, need[d] = 1;
        gl_sw_prepare(s, b, need, n);
        gl_sw_results(s, b, n);
        gl_sw_accumulate(s, acc[against], d, b);
        for (uint64_t i = 0; !against && err && i < n; i++) {
            double u = gl_ulp_error(p->yy[i], p->r[i], &s->fmt);
            err[i] = isnan(u) ? INFINITY : u;
        }
    }
}

enum { HUNT_TRIES = 16, HUNT_TOP_SCALE = 48, HUNT_SCALE_STEP = 4 };

/* The 64 nearest neighbours of `from` (bits) */
static void neighbours(struct gl_sweep *s, struct gl_kernel_src *ks, struct gl_acc **acc,
                       struct points *p, uint64_t from)
{
    double c, v;
    memcpy(&c, &from, 8);
    uint64_t n = 0;
    for (int dir = -1; dir <= 1 && isfinite(c); dir += 2) {
        v = c;
        for (int j = 0; j < 32; j++) {
            v = nextafter(v, dir * INFINITY);
            p->x[n] = v;
            memcpy(&p->bits[n++], &v, 8);
        }
    }
    measure_points(s, ks, acc, p, n, NULL);
}

/* The climb of one kernel from its worst input `from` (bits) of chunk c, error `worst`. */
static void hunt_climb(struct gl_sweep *s, struct gl_kernel_src *ks, struct gl_acc **acc,
                       struct points *p, uint64_t c, int k, uint64_t from, double worst)
{
    const uint64_t mant = (1ull << 52) - 1;
    double err[HUNT_TRIES];
    for (int scale = HUNT_TOP_SCALE; scale >= 0; scale -= HUNT_SCALE_STEP) {
        for (int t = 0; t < HUNT_TRIES; t++) {
            uint64_t h =
                gl_sw_mix(c << 24 ^ (uint64_t)k << 12 ^ (uint64_t)scale << 6 ^ (uint64_t)t);
            uint64_t off = (h >> 12 & ((1ull << scale) - 1)) + 1;
            uint64_t m = (from & mant) + (t & 1 ? mant + 1 - (off & mant) : off);
            p->bits[t] = (from & ~mant) | (m & mant);
            memcpy(&p->x[t], &p->bits[t], 8);
        }
        measure_points(s, ks, acc, p, HUNT_TRIES, err);
        for (int t = 0; t < HUNT_TRIES; t++)
            if (err[t] > worst) worst = err[t], from = p->bits[t];
    }
}

/* After binary64 chunk c (one block: its inputs in b->x and b->bits, each kernel's results in
 * b->out[k], the references in b->r): each kernel that ran searches from its worst input of the
 * chunk, into the worker's statistics acc[2k + against]. */
void gl_sw_search_chunk(struct gl_sweep *s, struct chunk_buf *b, struct gl_acc **acc, uint64_t c,
                        uint64_t n)
{
    struct points p;
    points_init(&p, 64);
    for (int k = 0; k < s->nk; k++) {
        if (b->role[k] == NOT_RUN) continue;
        const double *y = b->out[k];
        const struct gl_dd *r = b->r[s->k[k].defn];
        double worst = -1;
        uint64_t from = b->bits[0];
        for (uint64_t i = 0; i < n; i++) {
            double u = gl_ulp_error(y[i], r[i], &s->fmt);
            if (isnan(u)) u = INFINITY;
            if (u > worst) worst = u, from = b->bits[i];
        }
        if (s->mode == GL_SWEEP_HUNT)
            hunt_climb(s, &s->k[k], acc + 2 * k, &p, c, k, from, worst);
        else
            neighbours(s, &s->k[k], acc + 2 * k, &p, from);
    }
    points_free(&p);
}
