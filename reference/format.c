/* Formats, and rounding to them in one step (include/gelulab/format.h, reference.h).
 *
 * gl_round_to_format: |v| in [2^(e-1), 2^e) has, in the target, the precision
 * min(p, e - emin_sub) bits (fewer in the subnormal range); MPFR rounds v once to that many bits
 * (ties-to-even). Below half the smallest subnormal the result is a signed zero; a result of
 * 2^emax or more is infinity. This needs no change of MPFR's exponent range (thread-safe). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/reference.h"

const struct gl_format gl_format_f64 = {GL_FMT_F64, "f64", 53, -1074, 1024};
const struct gl_format gl_format_f32 = {GL_FMT_F32, "f32", 24, -149, 128};
const struct gl_format gl_format_bf16 = {GL_FMT_BF16, "bf16", 8, -133, 128};
const struct gl_format gl_format_f16 = {GL_FMT_F16, "f16", 11, -24, 16};

int gl_format_parse(const char *name, struct gl_format *f)
{
    const struct gl_format *named[] = {&gl_format_f64, &gl_format_f32, &gl_format_bf16,
                                       &gl_format_f16};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        if (strcmp(name, named[i]->name) == 0) {
            *f = *named[i];
            return 0;
        }
    }
    if (strncmp(name, "mpfr:", 5) != 0) return -1;
    char *end;
    long bits = strtol(name + 5, &end, 10);
    if (end == name + 5 || *end != '\0' || bits < 2 || bits > 1000000) return -1;
    f->id = GL_FMT_MPFR;
    snprintf(f->name, sizeof f->name, "mpfr:%ld", bits);
    f->prec = bits;
    /* MPFR numbers are m*2^e, m in [1/2, 1), e >= emin: the smallest is 2^(emin-1); taking
     * emin_sub = emin makes anything below 2^(emin-1) round to zero, as a subnormal-free
     * MPFR result would underflow. */
    f->emin_sub = (long)mpfr_get_emin();
    f->emax = (long)mpfr_get_emax();
    return 0;
}

/* sign of |v| - 2^e */
static int cmpabs_pow2(const mpfr_t v, long e)
{
    return mpfr_signbit(v) ? -mpfr_cmp_si_2exp(v, -1, e) : mpfr_cmp_ui_2exp(v, 1, e);
}

void gl_round_to_format(mpfr_t y, const mpfr_t v, const struct gl_format *fmt)
{
    mpfr_set_prec(y, fmt->prec);
    if (!mpfr_number_p(v) || mpfr_zero_p(v)) {
        mpfr_set(y, v, MPFR_RNDN);
        return;
    }
    int neg = mpfr_signbit(v);
    long e = (long)mpfr_get_exp(v);
    long bits = e - fmt->emin_sub;
    if (bits > fmt->prec) bits = fmt->prec;
    if (bits >= 1) {
        mpfr_t t;
        mpfr_init2(t, bits);
        mpfr_set(t, v, MPFR_RNDN);
        mpfr_set(y, t, MPFR_RNDN); /* exact: bits <= prec */
        mpfr_clear(t);
        if (mpfr_get_exp(y) > fmt->emax) mpfr_set_inf(y, neg ? -1 : 1);
        return;
    }
    /* |v| < 2^emin_sub: 0 or the smallest subnormal; exactly 2^(emin_sub-1) is a tie -> 0. */
    int above_half = bits == 0 && cmpabs_pow2(v, fmt->emin_sub - 1) > 0;
    if (above_half)
        mpfr_set_ui_2exp(y, 1, fmt->emin_sub, MPFR_RNDN);
    else
        mpfr_set_zero(y, 1);
    mpfr_setsign(y, y, neg, MPFR_RNDN);
}

/* Round-to-odd at prec+2 bits, then round-to-nearest at the target: the second rounding is then
 * correct (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
 * using rounding to odd", IEEE TC 2008). */
int gl_parse_value(const char *s, const struct gl_format *fmt, mpfr_t x)
{
    mpfr_t t;
    char *end;
    mpfr_init2(t, fmt->prec + 2);
    int inex = mpfr_strtofr(t, s, &end, 0, MPFR_RNDZ);
    int bad = end == s || *end != '\0';
    if (!bad && inex != 0 && mpfr_number_p(t)) {
        mpfr_t even;
        mpfr_init2(even, fmt->prec + 1);
        if (mpfr_set(even, t, MPFR_RNDN) == 0) { /* last bit is 0: step away from zero */
            if (mpfr_signbit(t))
                mpfr_nextbelow(t);
            else
                mpfr_nextabove(t);
        }
        mpfr_clear(even);
    }
    if (!bad) gl_round_to_format(x, t, fmt);
    mpfr_clear(t);
    return bad ? -1 : 0;
}

float gl_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t gl_f32_to_bf16_exact(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(u >> 16);
}

float gl_f16_to_f32(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;
    if (e == 0x1f && m) { /* NaN: the payload kept, shifted (its quiet bit is float's) */
        uint32_t u = (uint32_t)sign << 31 | 0x7f800000u | (uint32_t)m << 13;
        memcpy(&v, &u, sizeof v);
        return v;
    }
    if (e == 0x1f)
        v = __builtin_inff();
    else if (e == 0)
        v = (float)m * 0x1p-24f; /* subnormal: exact */
    else
        v = (float)(0x400 | m) * __builtin_ldexpf(1.0f, e - 25);
    return sign ? -v : v;
}

uint16_t gl_f32_to_f16_exact(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    float a = __builtin_fabsf(f);
    if (a != a) /* NaN: the payload's top ten bits (a quiet NaN when they are all zero) */
        return sign | 0x7c00 | ((u >> 13) & 0x3ff ? (u >> 13) & 0x3ff : 0x200);
    if (a == __builtin_inff()) return sign | 0x7c00;
    if (a < 0x1p-14f) return sign | (uint16_t)(a * 0x1p24f); /* subnormal or zero */
    int e = __builtin_ilogbf(a);
    uint16_t m = (uint16_t)(__builtin_ldexpf(a, 10 - e) - 1024.0f);
    return sign | (uint16_t)((e + 15) << 10) | m;
}

uint16_t gl_f32_to_bits16(enum gl_format_id f, float v)
{
    return f == GL_FMT_BF16 ? gl_f32_to_bf16_exact(v) : gl_f32_to_f16_exact(v);
}

float gl_bits16_to_f32(enum gl_format_id f, uint16_t h)
{
    return f == GL_FMT_BF16 ? gl_bf16_to_f32(h) : gl_f16_to_f32(h);
}

double gl_round_f32(const struct gl_format *f, float y)
{
    if (f->id == GL_FMT_BF16) {
        if (y != y) return y;
        uint32_t u;
        memcpy(&u, &y, 4);
        u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u;
        memcpy(&y, &u, 4);
        return y;
    }
    if (f->id == GL_FMT_F16) return (double)(float)(_Float16)y;
    return y;
}
