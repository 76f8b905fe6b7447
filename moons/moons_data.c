/* gelulab — the two-moons data set and the experiment's random numbers (include/gelulab/moons.h).
 *
 * gl_rng is xoshiro256** (Blackman & Vigna, 2018), seeded through splitmix64 from (seed, stream):
 * one stream per purpose (data, initial weights, batch order) so that changing one use of random
 * numbers does not shift the others. Normal deviates: Box-Muller, the cosine branch only (one
 * value per two uniforms: no cached state, so a stream's values depend only on its calls).
 *
 * gl_moons_make follows scikit-learn's make_moons(n, shuffle=True, noise): the outer moon is
 * (cos t, sin t) and the inner one (1 - cos t, 1/2 - sin t) for t evenly spaced on [0, pi]
 * (n/2 rounded down points outer, the rest inner), shuffled, then N(0, noise^2) added to each
 * coordinate. The same distribution as scikit-learn, not its exact numbers (a different generator).
 */
#include <math.h>
#include <stdlib.h>
#include "gelulab/moons.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void gl_rng_seed(struct gl_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t gl_rng_next(struct gl_rng *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double gl_rng_uniform(struct gl_rng *r)
{
    return (gl_rng_next(r) >> 11) * 0x1p-53;
}

double gl_rng_normal(struct gl_rng *r)
{
    double u = 1 - gl_rng_uniform(r); /* (0, 1]: log(u) finite */
    double v = gl_rng_uniform(r);
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A uniform integer in [0, n): Lemire's multiply-shift with rejection (no modulo bias). */
size_t gl_rng_below(struct gl_rng *r, size_t n)
{
    for (;;) {
        unsigned __int128 m = (unsigned __int128)gl_rng_next(r) * n;
        uint64_t lo = (uint64_t)m;
        if (lo >= n || lo >= (-(uint64_t)n) % n) return (size_t)(m >> 64);
    }
}

int gl_moons_make(size_t n, double noise, double test_frac, uint64_t seed, struct gl_moons_data *d)
{
    d->x = NULL, d->y = NULL;
    if (n < 4 || !(test_frac > 0 && test_frac < 1)) return -1;
    d->n = n;
    size_t n_test = (size_t)llround(n * test_frac);
    if (n_test < 1) n_test = 1;
    if (n_test >= n) n_test = n - 1;
    d->n_train = n - n_test;
    d->x = malloc(2 * n * sizeof *d->x);
    d->y = malloc(n);
    if (!d->x || !d->y) {
        gl_moons_free(d);
        return -1;
    }
    size_t n_out = n / 2, n_in = n - n_out;
    for (size_t i = 0; i < n_out; i++) {
        double t = n_out > 1 ? M_PI * (double)i / (double)(n_out - 1) : 0;
        d->x[2 * i] = cos(t), d->x[2 * i + 1] = sin(t), d->y[i] = 0;
    }
    for (size_t i = 0; i < n_in; i++) {
        double t = n_in > 1 ? M_PI * (double)i / (double)(n_in - 1) : 0;
        size_t j = n_out + i;
        d->x[2 * j] = 1 - cos(t), d->x[2 * j + 1] = 1 - sin(t) - 0.5, d->y[j] = 1;
    }
    struct gl_rng r;
    gl_rng_seed(&r, seed, 1);
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = gl_rng_below(&r, i + 1);
        double x0 = d->x[2 * i], x1 = d->x[2 * i + 1];
        unsigned char y = d->y[i];
        d->x[2 * i] = d->x[2 * j], d->x[2 * i + 1] = d->x[2 * j + 1], d->y[i] = d->y[j];
        d->x[2 * j] = x0, d->x[2 * j + 1] = x1, d->y[j] = y;
    }
    for (size_t i = 0; i < 2 * n; i++) d->x[i] += noise * gl_rng_normal(&r);
    return 0;
}

void gl_moons_free(struct gl_moons_data *d)
{
    free(d->x);
    free(d->y);
    d->x = NULL, d->y = NULL;
}
