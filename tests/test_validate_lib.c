/* Planted kernels for gelulab validate's tests (libgl_validate_kernels.so): one per bug class,
 * each otherwise the correct 0.5 x erfc(-x/sqrt2) in double, rounded once.
 *   v_good       correct (<= 0.5 ULP; NaN, +-inf, +-0 right)
 *   v_nan_inf    -inf gives NaN (PyTorch's complaint about x * Phi(x) at -inf)
 *   v_no_nan     NaN gives 0 (a max/select that swallows NaN)
 *   v_zero_sign  -0 gives +0 (x * Phi(x) computed as Phi(x) * x + 0)
 *   v_tail       0.5 x (1 + erf(x/sqrt2)) in float: 0 for x < -5.5 or so (cancellation)
 *   v_tanh       the tanh form, while the test claims exact
 *   v_fp16       the result rounded through binary16
 *   v_vtail      a vector tail bug: the last n mod 8 elements of a call get the tanh form
 *   v_inplace    two passes (Phi(x) into y, then x * y): in place, the second pass reads Phi
 *   v_nondet     a call counter perturbs every other call by one ULP
 *   v_crash      SIGSEGV on inputs in [1, 2)
 *   v_hang       loops forever on inputs in [1, 2) */
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define K(name) void name(const float *x, float *y, size_t n)
K(v_good);
K(v_nan_inf);
K(v_no_nan);
K(v_zero_sign);
K(v_tail);
K(v_tanh);
K(v_fp16);
K(v_vtail);
K(v_inplace);
K(v_nondet);
K(v_crash);
K(v_hang);

static float good(float v)
{
    return v == -INFINITY ? -0.0f : (float)(0.5 * v * erfc(-(double)v * 0x1.6a09e667f3bcdp-1));
}

static float tanh_form(float v)
{
    double d = v;
    return v == -INFINITY
               ? -0.0f
               : (float)(0.5 * d * (1 + tanh(0.7978845608028654 * (d + 0.044715 * d * d * d))));
}

K(v_good)
{
    for (size_t i = 0; i < n; i++) y[i] = good(x[i]);
}
K(v_nan_inf)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] == -INFINITY ? NAN : good(x[i]);
}
K(v_no_nan)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] != x[i] ? 0.0f : good(x[i]);
}
K(v_zero_sign)
{
    for (size_t i = 0; i < n; i++) y[i] = good(x[i]) + 0.0f;
}
K(v_tail)
{
    for (size_t i = 0; i < n; i++)
        y[i] = isinf(x[i]) ? good(x[i]) : 0.5f * x[i] * (1.0f + erff(x[i] * 0x1.6a09e6p-1f));
}
K(v_tanh)
{
    for (size_t i = 0; i < n; i++) y[i] = tanh_form(x[i]);
}
K(v_fp16)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)(_Float16)good(x[i]);
}
K(v_vtail)
{
    size_t full = n / 8 * 8;
    for (size_t i = 0; i < n; i++) y[i] = i < full ? good(x[i]) : tanh_form(x[i]);
}
K(v_inplace) /* two passes: Phi(x) into y, then x * y; in place the second pass sees Phi */
{
    for (size_t i = 0; i < n; i++)
        y[i] = isinf(x[i]) ? (x[i] > 0 ? 1.0f : 0.0f)
                           : (float)(0.5 * erfc(-(double)x[i] * 0x1.6a09e667f3bcdp-1));
    for (size_t i = 0; i < n; i++) y[i] = x[i] == -INFINITY ? -0.0f : x[i] * y[i];
}
static unsigned calls;
K(v_nondet)
{
    unsigned c = calls++;
    for (size_t i = 0; i < n; i++) {
        y[i] = good(x[i]);
        if ((c & 1) && isfinite(y[i]) && y[i] != 0) y[i] = nextafterf(y[i], INFINITY);
    }
}
K(v_crash)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] >= 1.0f && x[i] < 2.0f) raise(SIGSEGV);
        y[i] = good(x[i]);
    }
}
K(v_hang)
{
    for (size_t i = 0; i < n; i++) {
        volatile unsigned spin = 0;
        while (x[i] >= 1.0f && x[i] < 2.0f) spin++;
        y[i] = good(x[i]);
    }
}
