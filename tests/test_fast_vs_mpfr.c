/* The fast certified binary32 path equals pure MPFR:
 *  - COUNT binary32 inputs per fast definition (default 10^7 for exact, 4*10^6 for tanh,
 *    sigmoid and silu, 10^6 for each derivative: their MPFR side costs more), spread evenly
 *    over every binade (subnormals included) and both signs, random mantissas (xorshift, fixed
 *    seed), f32 results;
 *  - every bfloat16 and every binary16 value as input, with results in f32 and in the
 *    input's own format.
 * Every result the fast path decides must be bit-identical to MPFR's, and gl_ref_f32 (fast path
 * plus fallback) must always be. Runs on all cores (pthreads). Prints FAIL x=%a ref=%a got=%a.
 * Then gl_ref_f32_n (the sweeps' blocks, its decisions in vector lanes) must give gl_ref_f32's
 * results and unrounded values bit for bit: every definition, every 509th binary32 pattern
 * (each binade and sign, zeros, subnormals, infinities and NaNs among them), in blocks of
 * varied lengths; and bfloat16/binary16 formats, which it hands to gl_ref_f32. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gelulab/reference.h"

struct job {
    enum gl_defn d;
    const struct gl_format *fmt;
    long begin, end; /* input indices */
    int source;      /* 0: stratified binary32, 1: every bf16, 2: every f16 */
    long n_strata;
    long bad, fallbacks;
};

static float stratified_input(long i, long n_strata)
{
    /* stratum = (sign, biased exponent 0..254); mantissa from a hash of i */
    long stratum = i % n_strata;
    uint64_t h = (uint64_t)i * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    uint32_t u =
        (uint32_t)(stratum & 1) << 31 | (uint32_t)(stratum >> 1) << 23 | (uint32_t)(h & 0x7fffff);
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static float job_input(const struct job *j, long i)
{
    if (j->source == 1) return gl_bf16_to_f32((uint16_t)i);
    if (j->source == 2) return gl_f16_to_f32((uint16_t)i);
    return stratified_input(i, j->n_strata);
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void *run_job(void *arg)
{
    struct job *j = arg;
    for (long i = j->begin; i < j->end; i++) {
        float x = job_input(j, i);
        double ref, fast, full;
        gl_ref_d(j->d, x, j->fmt, &ref, NULL);
        int decided = gl_ref_fast(j->d, x, j->fmt, &fast, NULL) == 1;
        full = gl_ref_f32(j->d, x, j->fmt, NULL);
        j->fallbacks += !decided;
        if ((decided && !same(fast, ref)) || !same(full, ref)) {
            if (j->bad++ < 5)
                printf("FAIL %s/%s x=%a ref=%a got=%a\n", gl_defn_name(j->d), j->fmt->name,
                       (double)x, ref, decided ? fast : full);
        }
    }
    gl_ref_thread_done();
    return NULL;
}

/* Runs one input set on all cores; returns the number of failures. */
static long run_parallel(enum gl_defn d, const struct gl_format *fmt, int source, long count)
{
    long nt = sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1) nt = 1;
    if (nt > 64) nt = 64;
    struct job jobs[64];
    pthread_t th[64];
    for (long t = 0; t < nt; t++) {
        jobs[t] = (struct job){d, fmt, count * t / nt, count * (t + 1) / nt, source, 2 * 255, 0, 0};
        pthread_create(&th[t], NULL, run_job, &jobs[t]);
    }
    long bad = 0, fb = 0;
    for (long t = 0; t < nt; t++) {
        pthread_join(th[t], NULL);
        bad += jobs[t].bad;
        fb += jobs[t].fallbacks;
    }
    const char *what[] = {"stratified binary32", "every bfloat16", "every binary16"};
    printf("%-10s %-5s %-20s %9ld inputs  %6ld fallbacks to MPFR  %ld failures\n", gl_defn_name(d),
           fmt->name, what[source], count, fb, bad);
    fflush(stdout);
    return bad;
}

static int bits_equal(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

/* gl_ref_f32_n against gl_ref_f32, as the header says; the number of differences */
static long block_equals_scalar(enum gl_defn d, const struct gl_format *fmt, uint64_t step)
{
    enum { N = 4099 }; /* not a multiple of the block or of a vector: every tail is taken */
    static double x[N], y[N];
    static struct gl_dd r[N];
    long bad = 0;
    for (uint64_t b0 = 0; b0 < (1ull << 32); b0 += N * step) {
        int n = 0;
        for (uint64_t b = b0; b < (1ull << 32) && n < N; b += step, n++) {
            uint32_t u = (uint32_t)b;
            float f;
            memcpy(&f, &u, sizeof f);
            x[n] = f;
        }
        int len = 1 + (int)(b0 / (N * step)) % n; /* 1 .. n: short blocks too */
        gl_ref_f32_n(d, x, (uint64_t)len, fmt, y, r);
        gl_ref_f32_n(d, x + len, (uint64_t)(n - len), fmt, y + len, r + len);
        for (int i = 0; i < n; i++) {
            struct gl_dd rs;
            double ys = gl_ref_f32(d, (float)x[i], fmt, &rs);
            if (bits_equal(ys, y[i]) && bits_equal(rs.hi, r[i].hi) && bits_equal(rs.lo, r[i].lo))
                continue;
            if (bad++ < 5)
                printf("FAIL gl_ref_f32_n %s %s x=%a: got %a (%a + %a), gl_ref_f32 %a (%a + %a)\n",
                       gl_defn_name(d), fmt->name, x[i], y[i], r[i].hi, r[i].lo, ys, rs.hi, rs.lo);
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    long n_exact = argc > 1 ? atol(argv[1]) : 10000000L;
    long n_other = argc > 2 ? atol(argv[2]) : 4000000L;
    long bad = 0;
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        if (!gl_ref_has_fast((enum gl_defn)d)) continue;
        long n = d == GL_DEFN_EXACT ? n_exact : d <= GL_DEFN_SILU ? n_other : n_other / 4;
        bad += run_parallel((enum gl_defn)d, &gl_format_f32, 0, n);
        bad += run_parallel((enum gl_defn)d, &gl_format_f32, 1, 65536);
        bad += run_parallel((enum gl_defn)d, &gl_format_bf16, 1, 65536);
        bad += run_parallel((enum gl_defn)d, &gl_format_f32, 2, 65536);
        bad += run_parallel((enum gl_defn)d, &gl_format_f16, 2, 65536);
    }
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        if (!gl_ref_has_fast((enum gl_defn)d)) continue;
        long b = block_equals_scalar((enum gl_defn)d, &gl_format_f32, 509);
        b += block_equals_scalar((enum gl_defn)d, &gl_format_bf16, 65537);
        b += block_equals_scalar((enum gl_defn)d, &gl_format_f16, 65537);
        printf("%s gl_ref_f32_n = gl_ref_f32 (every 509th binary32 pattern; bf16, f16): %s\n",
               gl_defn_name((enum gl_defn)d), b ? "FAIL" : "ok");
        bad += b;
    }
    gl_ref_release();
    printf("%s\n", bad ? "FAILED" : "all equal");
    return bad != 0;
}
