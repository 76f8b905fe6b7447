/* An example kernel library, as a project outside gelulab would ship one: GELU in binary32 by
 * the stable formula 0.5 x erfc(-x/sqrt2), evaluated in double and rounded once (<= 0.5 ULP
 * where erfc is accurate; -inf -> -0, NaN propagates). Built as libmygelu.so; gelulab calls
 * void my_gelu(const float *x, float *y, size_t n) (any n, unaligned, in place allowed).
 *
 * my_gelu_naive is the formula most code writes, 0.5 x (1 + erf(x/sqrt2)) in float: it fails
 * the gate (cancellation: it returns 0 for x below about -5.5, and loses accuracy well before).
 *
 * my_gelu_bf16 takes and returns bfloat16 bits, void my_gelu_bf16(const uint16_t *x,
 * uint16_t *y, size_t n): my_gelu's binary32 result rounded to nearest bfloat16 (ties to
 * even), NaN kept quiet. Rounded twice (double to binary32, then to bfloat16), it is within
 * 0.5 ULP of bfloat16 but not correctly rounded everywhere: the gate warns (`--abi bf16`). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void my_gelu(const float *x, float *y, size_t n);
void my_gelu_naive(const float *x, float *y, size_t n);
void my_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n);

void my_gelu(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        y[i] = v == -INFINITY ? -0.0f : (float)(0.5 * v * erfc(-v * 0x1.6a09e667f3bcdp-1));
    }
}

void my_gelu_naive(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0x1.6a09e6p-1f));
}

void my_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)x[i] << 16;
        float v, r;
        memcpy(&v, &u, sizeof v);
        my_gelu(&v, &r, 1);
        memcpy(&u, &r, sizeof u);
        if (r != r)
            y[i] = (uint16_t)((u >> 16) | 0x40); /* a quiet NaN */
        else
            y[i] = (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16); /* to nearest, ties even */
    }
}
