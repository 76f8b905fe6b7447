/* Planted backward kernels for the tests of `gelulab sweep --backward` and `gelulab validate
 * --backward` (libgl_backward_kernels.so), void k(const float *x, const float *dy, float *dx,
 * size_t n): one per bug class, each otherwise dx = dy * GELU'(x) with GELU'(x) = Phi(x) +
 * x phi(x) evaluated in binary64 (Phi from erfc, no cancellation) and the product rounded once
 * to binary32.
 *   b_good        correct (GELU'(x) to ~2^-50 relative, dy * g rounded once: <= 0.5 ULP + tiny)
 *   b_dy_ignored  dx = GELU'(x) whatever dy
 *   b_dy_added    dx = GELU'(x) + (dy - 1): right for dy = 1, wrong for every other dy
 *   b_dy_ftz      subnormal dy flushed to zero (a DAZ mode or a max with FLT_MIN)
 *   b_tail        Phi(x) as 0.5 (1 + erf(x/sqrt2)) in binary32: Phi is lost for x < -5.5 or
 *                 so and the derivative is x phi(x) alone (a relative error of 1/x^2)
 *   b_ftz         Phi(x) flushed to zero below 2^-126 (subnormals off): from x = -12.95 down
 *                 the derivative is x phi(x) alone, as b_tail's far out
 *   b_float       Phi(x) + x phi(x) in binary32 (each term rounded): fine away from the zero
 *                 of GELU', hundreds of ULP next to it (its terms cancel there)
 *   b_tanh        the tanh form's derivative, while the tests claim the exact one
 *   b_inplace_dy  two passes (GELU'(x) into dx, then dx * dy): over dy, the second pass reads
 *                 GELU'(x) for dy
 *   b_crash       SIGSEGV on inputs in [1, 2)
 *   b_read_dy_past  reads dy[n] (a look-ahead of one element) */
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>

#define K(name) void name(const float *x, const float *dy, float *dx, size_t n)
K(b_good);
K(b_dy_ignored);
K(b_dy_added);
K(b_dy_ftz);
K(b_tail);
K(b_ftz);
K(b_float);
K(b_tanh);
K(b_inplace_dy);
K(b_crash);
K(b_read_dy_past);

static const double rsqrt2 = 0x1.6a09e667f3bcdp-1, rsqrt2pi = 0x1.9884533d43651p-2;

/* GELU'(x) in binary64; +inf: 1, -inf: -0 (the limits) */
static double grad(float v)
{
    double d = v;
    if (isinf(d)) return d > 0 ? 1.0 : -0.0;
    return 0.5 * erfc(-d * rsqrt2) + d * exp(-0.5 * d * d) * rsqrt2pi;
}

/* the tanh form's derivative in binary64: (1 + t)/2 + (x/2)(1 - t^2) u', u = c (x + a x^3) */
static double grad_tanh(float v)
{
    const double c = 0x1.9884533d43651p-1, a = 0.044715;
    double d = v;
    if (isinf(d)) return d > 0 ? 1.0 : -0.0;
    double t = tanh(c * (d + a * d * d * d));
    return 0.5 * (1 + t) + 0.5 * d * (1 - t * t) * c * (1 + 3 * a * d * d);
}

K(b_good)
{
    for (size_t i = 0; i < n; i++) dx[i] = (float)(dy[i] * grad(x[i]));
}
K(b_dy_ignored)
{
    (void)dy;
    for (size_t i = 0; i < n; i++) dx[i] = (float)grad(x[i]);
}
K(b_dy_added)
{
    for (size_t i = 0; i < n; i++) dx[i] = (float)(grad(x[i]) + ((double)dy[i] - 1));
}
K(b_dy_ftz)
{
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(dy[i]) < FLT_MIN ? copysignf(0.0f, dy[i]) : dy[i];
        dx[i] = (float)(d * grad(x[i]));
    }
}
K(b_tail)
{
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        float g = isinf(v) ? (float)grad(v)
                           : 0.5f * (1.0f + erff(v * 0x1.6a09e6p-1f)) +
                                 v * expf(-0.5f * v * v) * 0x1.988454p-2f;
        dx[i] = dy[i] * g;
    }
}
K(b_ftz)
{
    for (size_t i = 0; i < n; i++) {
        double d = x[i], phi = 0.5 * erfc(-d * rsqrt2);
        dx[i] = isinf(d) || phi >= 0x1p-126 ? (float)(dy[i] * grad(x[i]))
                                            : (float)(dy[i] * d * exp(-0.5 * d * d) * rsqrt2pi);
    }
}
K(b_float)
{
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        float g =
            isinf(v) ? (float)grad(v)
                     : 0.5f * erfcf(-v * 0x1.6a09e6p-1f) + v * expf(-0.5f * v * v) * 0x1.988454p-2f;
        dx[i] = dy[i] * g;
    }
}
K(b_tanh)
{
    for (size_t i = 0; i < n; i++) dx[i] = (float)(dy[i] * grad_tanh(x[i]));
}
K(b_inplace_dy)
{
    for (size_t i = 0; i < n; i++) dx[i] = (float)grad(x[i]);
    for (size_t i = 0; i < n; i++) dx[i] = dx[i] * dy[i];
}
K(b_crash)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] >= 1.0f && x[i] < 2.0f) raise(SIGSEGV);
        dx[i] = (float)(dy[i] * grad(x[i]));
    }
}
K(b_read_dy_past)
{
    for (size_t i = 0; i < n; i++) {
        float next = ((volatile const float *)dy)[i + 1]; /* one past the end at i = n - 1 */
        dx[i] = (float)(dy[i] * grad(x[i])) + 0.0f * (next - next);
    }
}
