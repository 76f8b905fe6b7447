/* Planted kernels for gelulab validate's tests (libgl_validate_kernels.so): one per bug class,
 * each otherwise the correct 0.5 x erfc(-x/sqrt2) in double, rounded once.
 *   v_good       correct (<= 0.5 ULP; NaN, +-inf, +-0 right)
 *   v_nan_inf    -inf gives NaN (PyTorch's complaint about x * Phi(x) at -inf)
 *   v_no_nan     NaN gives 0 (a max/select that swallows NaN)
 *   v_zero_sign  -0 gives +0 (x * Phi(x) computed as Phi(x) * x + 0)
 *   v_tail       0.5 x (1 + erf(x/sqrt2)) in float: 0 for x < -5.5 or so (cancellation)
 *   v_ftz        x Phi(x) in float with subnormals off (FTZ and DAZ, as TensorFlow's and XLA's
 *                threads run): subnormal inputs read as 0, Phi(x) and the result flushed to 0
 *                below 2^-126 (so 0 from x = -13.0 down, where GELU is still normal)
 *   v_tanh       the tanh form, while the test claims exact
 *   v_fp16       the result rounded through binary16
 *   v_vtail      a vector tail bug: the last n mod 8 elements of a call get the tanh form
 *   v_inplace    two passes (Phi(x) into y, then x * y): in place, the second pass reads Phi
 *   v_nondet     a call counter perturbs every other call by one ULP
 *   v_crash      SIGSEGV on inputs in [1, 2)
 *   v_hang       loops forever on inputs in [1, 2)
 * Memory (each caught by the guard pages or canaries around the arrays, guard.h):
 *   v_write_past   writes y[n] after its loop
 *   v_read_past    a vector loop of 4 without a tail: reads x up to 3 elements past n
 *   v_unwritten    the same loop stopping at the last full vector: the last n mod 4 outputs
 *                  are left unwritten
 *   v_write_before writes y[-1] (a loop that starts one element early, for a carry)
 *   v_write_input  uses x as scratch (writes through the const pointer)
 * Crashes and hangs narrowed to their input:
 *   v_nan_crash    SIGSEGV (a store to address 16) on a NaN input
 *   v_nan_hang     loops forever on a NaN input
 * Definitions claimed wrongly (validate --defn exact, the default):
 *   v_tanh_naive   0.5x(1 + tanhf(u)) in binary32: the tanh form, cancelling in the tail
 *   v_sigmoid      x sigma(1.702 x) (QuickGELU)
 *   v_silu         x sigma(x) */
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
K(v_ftz);
K(v_tanh);
K(v_fp16);
K(v_vtail);
K(v_inplace);
K(v_nondet);
K(v_crash);
K(v_hang);
K(v_write_past);
K(v_read_past);
K(v_unwritten);
K(v_write_before);
K(v_write_input);
K(v_nan_crash);
K(v_nan_hang);
K(v_tanh_naive);
K(v_sigmoid);
K(v_silu);

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
/* v flushed to zero below binary32's least normal number, its sign kept */
static float ftz(float v)
{
    return fabsf(v) < 0x1p-126f ? 0.0f * v : v;
}
K(v_ftz)
{
    for (size_t i = 0; i < n; i++) {
        float v = ftz(x[i]), phi = ftz((float)(0.5 * erfc(-(double)v * 0x1.6a09e667f3bcdp-1)));
        y[i] = v == -INFINITY ? -0.0f : ftz(v * phi);
    }
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
K(v_write_past)
{
    for (size_t i = 0; i < n; i++) y[i] = good(x[i]);
    y[n] = 0.0f;
}
K(v_read_past)
{
    for (size_t i = 0; i < n; i += 4) {
        float v[4];
        for (int j = 0; j < 4; j++) v[j] = ((volatile const float *)x)[i + j];
        for (size_t j = 0; j < 4 && i + j < n; j++) y[i + j] = good(v[j]);
    }
}
K(v_unwritten)
{
    for (size_t i = 0; i + 4 <= n; i += 4)
        for (int j = 0; j < 4; j++) y[i + j] = good(x[i + j]);
}
K(v_write_before)
{
    float carry = 0.0f;
    for (size_t i = 0; i <= n; i++) { /* y[i - 1]: one element early */
        ((volatile float *)y)[(ptrdiff_t)i - 1] = carry;
        carry = i < n ? good(x[i]) : 0.0f;
    }
}
K(v_write_input)
{
    float *scratch = (float *)(uintptr_t)x;
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        scratch[i] = 0.0f;
        y[i] = good(v);
    }
}
K(v_nan_crash)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] != x[i]) *(volatile int *)16 = 0;
        y[i] = good(x[i]);
    }
}
K(v_nan_hang)
{
    for (size_t i = 0; i < n; i++) {
        volatile unsigned spin = 0;
        while (x[i] != x[i]) spin++;
        y[i] = good(x[i]);
    }
}
K(v_tanh_naive)
{
    for (size_t i = 0; i < n; i++) {
        float v = x[i], u = 0.7978846f * (v + 0.044715f * v * v * v);
        y[i] = 0.5f * v * (1.0f + tanhf(u));
    }
}
K(v_sigmoid)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] / (1.0f + expf(-1.702f * x[i]));
}
K(v_silu)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] / (1.0f + expf(-x[i]));
}
