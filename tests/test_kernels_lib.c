/* Kernels for the engine's tests, built as a shared library (libgl_test_kernels.so):
 *   gelu_good     0.5 x erfc(-x/sqrt2) in double, rounded once (<= 0.5 ULP in the core)
 *   gelu_planted  the same, wrong at exactly one of the 2^32 inputs: x = 0x1.921fb6p+1 (pi,
 *                 bits 0x40490fdb) gets a result 1000 ULPs too large
 *   gelu_crash    the same, but raises SIGSEGV when it sees an input in [1, 2)
 *   gelu_flush    gelu_good, but +0 for every x < -10 (the negative tail flushed: wrong)
 *   gelu_flush_late  +0 for x < -12 only, and 1 ULP too large on [1, 2): on most of the tail
 *                 the same wrong results as gelu_flush, different beside them (the sweep's run
 *                 memo, tests/test_sweep.sh) */
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void gelu_good(const float *x, float *y, size_t n);
void gelu_planted(const float *x, float *y, size_t n);
void gelu_crash(const float *x, float *y, size_t n);
void gelu_flush(const float *x, float *y, size_t n);
void gelu_flush_late(const float *x, float *y, size_t n);

static float good(float v)
{
    return v == -INFINITY ? -0.0f : (float)(0.5 * v * erfc(-(double)v * 0x1.6a09e667f3bcdp-1));
}

void gelu_good(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = good(x[i]);
}

void gelu_planted(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], 4);
        y[i] = good(x[i]);
        if (u == 0x40490fdbu) {
            memcpy(&u, &y[i], 4);
            u += 1000;
            memcpy(&y[i], &u, 4);
        }
    }
}

void gelu_crash(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] >= 1.0f && x[i] < 2.0f) raise(SIGSEGV);
        y[i] = good(x[i]);
    }
}

void gelu_flush(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] < -10.0f ? 0.0f : good(x[i]);
}

void gelu_flush_late(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = x[i] < -12.0f ? 0.0f : good(x[i]);
        if (x[i] >= 1.0f && x[i] < 2.0f) y[i] = nextafterf(y[i], INFINITY);
    }
}
