/* Planted 16-bit kernels for gelulab validate --abi's tests (libgl_abi16_kernels.so, and the
 * evaluator gl_eval16 built from this file with -DGL_EVAL16_MAIN): one per 16-bit bug class, each
 * otherwise exact GELU 0.5 x erfc(-x/sqrt2) in binary64, rounded once to the format. The 16-bit
 * ABI: void k(const uint16_t *x, uint16_t *y, size_t n) on the format's bits.
 *   h_good_bf16, h_good_f16  correct (rounded once, nearest-even; NaN made quiet)
 *   h_trunc_bf16             the binary32 result truncated to bfloat16 (its low half dropped)
 *   h_twice_bf16             rounded to binary32 first, then to bfloat16 (double rounding)
 *   h_daz_bf16               subnormal inputs taken as zero
 *   h_ftz_f16                subnormal results flushed to zero
 *   h_ftz_bf16               x Phi(x) with Phi(x) flushed to zero below 2^-126 (an intermediate
 *                            flushed, as with subnormals off): 0 from x = -13 down, where GELU is
 *                            a normal bfloat16 number
 *   h_nan_bf16               NaN inputs give +0
 *   h_snan_bf16              a NaN input is returned as it is (a signaling one stays signaling)
 *   h_tanh_f16               the tanh form, while the test claims exact
 *   h_tail_bf16              0.5 x (1 + erf(x/sqrt2)) in binary32: 0 below x = -5.5 or so
 *   h_crash_bf16             SIGSEGV on inputs in [1, 2)
 *   h_write_past_bf16        h_good_bf16, then writes y[n] */
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define K(name) void name(const uint16_t *x, uint16_t *y, size_t n)
K(h_good_bf16);
K(h_good_f16);
K(h_trunc_bf16);
K(h_twice_bf16);
K(h_daz_bf16);
K(h_ftz_f16);
K(h_ftz_bf16);
K(h_nan_bf16);
K(h_snan_bf16);
K(h_tanh_f16);
K(h_crash_bf16);
K(h_write_past_bf16);
K(h_tail_bf16);

static float from_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t bits32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float from_f16(uint16_t h)
{
    _Float16 v;
    memcpy(&v, &h, sizeof v);
    return (float)v;
}

/* exact GELU in binary64; below 2^-30 in magnitude x/2 + x^2/sqrt(2 pi) is x/2 nudged up (the
 * square is beyond binary64's reach, and x/2 may be a midpoint of the format) */
static double gelu(double v)
{
    if (v == -INFINITY) return -0.0;
    if (v != 0 && fabs(v) < 0x1p-30) return nextafter(0.5 * v, INFINITY);
    return 0.5 * v * erfc(-v * 0x1.6a09e667f3bcdp-1);
}

static double gelu_tanh(double v)
{
    if (v == -INFINITY) return -0.0;
    double u = 0x1.9884533d43651p-1 * (v + 0.044715 * v * v * v);
    return v / (1 + exp(-2 * u));
}

/* v rounded once to bfloat16, nearest-even (from binary64: the bits below bfloat16's, with a
 * sticky bit for what binary32 would drop) */
static uint16_t to_bf16(double v)
{
    if (v != v) return 0x7fc0;
    float f = (float)v;
    uint32_t u = bits32(f);
    if ((double)f != v && (u & 0xffff) == 0x8000) u += ((double)f < v) == (v > 0) ? 1 : -1;
    return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/* v rounded once to binary16 (the conversion from binary64 rounds once) */
static uint16_t to_f16(double v)
{
    _Float16 h = (_Float16)v;
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

K(h_good_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        y[i] = v != v ? x[i] | 0x40 : to_bf16(gelu(v));
    }
}

K(h_good_f16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_f16(x[i]);
        y[i] = v != v ? x[i] | 0x200 : to_f16(gelu(v));
    }
}

K(h_trunc_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        y[i] = v != v ? x[i] | 0x40 : (uint16_t)(bits32((float)gelu(v)) >> 16);
    }
}

K(h_twice_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        y[i] = v != v ? x[i] | 0x40 : to_bf16((float)gelu(v));
    }
}

K(h_daz_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        if (v != 0 && fabsf(v) < 0x1p-126f) v = 0;
        y[i] = v != v ? x[i] | 0x40 : to_bf16(gelu(v));
    }
}

K(h_ftz_bf16)
{
    for (size_t i = 0; i < n; i++) {
        double v = from_bf16(x[i]), phi = 0.5 * erfc(-v * 0x1.6a09e667f3bcdp-1);
        y[i] = v != v                 ? x[i] | 0x40
               : v == -INFINITY       ? 0x8000
               : fabs(phi) < 0x1p-126 ? to_bf16(0.0 * v)
                                      : to_bf16(gelu(v));
    }
}

K(h_ftz_f16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_f16(x[i]);
        uint16_t r = to_f16(gelu(v));
        y[i] = v != v ? x[i] | 0x200 : (r & 0x7c00) == 0 ? r & 0x8000 : r;
    }
}

K(h_nan_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        y[i] = v != v ? 0 : to_bf16(gelu(v));
    }
}

K(h_snan_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        y[i] = v != v ? x[i] : to_bf16(gelu(v));
    }
}

K(h_tanh_f16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_f16(x[i]);
        y[i] = v != v ? x[i] | 0x200 : to_f16(gelu_tanh(v));
    }
}

K(h_crash_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        if (v >= 1 && v < 2) raise(SIGSEGV);
        y[i] = v != v ? x[i] | 0x40 : to_bf16(gelu(v));
    }
}

K(h_tail_bf16)
{
    for (size_t i = 0; i < n; i++) {
        float v = from_bf16(x[i]);
        float t = v == -INFINITY ? -0.0f : 0.5f * v * (1.0f + erff(v * 0x1.6a09e6p-1f));
        y[i] = v != v ? x[i] | 0x40 : to_bf16(t);
    }
}

#ifdef GL_EVAL16_MAIN
/* gl_eval16 [f16]: h_good_bf16 (h_good_f16) as an external evaluator: raw little-endian 16-bit
 * values on stdin, the results on stdout (docs/exec-protocol.md) */
int main(int argc, char **argv)
{
    static uint16_t in[4096], out[4096];
    size_t m;
    int f16 = argc > 1 && !strcmp(argv[1], "f16");
    while ((m = fread(in, sizeof in[0], 4096, stdin)) > 0) {
        (f16 ? h_good_f16 : h_good_bf16)(in, out, m);
        if (fwrite(out, sizeof out[0], m, stdout) != m) return 1;
    }
    return 0;
}
#endif
K(h_write_past_bf16)
{
    h_good_bf16(x, y, n);
    y[n] = 0;
}
