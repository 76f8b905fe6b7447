/* gelulab — the floating-point formats results are rounded to, and rounding to them.
 *
 * A format is a binary format with precision p (bits, hidden bit included), gradual underflow
 * down to the smallest subnormal 2^emin_sub, and finite values below 2^emax. Rounding is
 * round-to-nearest, ties-to-even, done once from a wider value (no double rounding). */
#ifndef GELULAB_FORMAT_H
#define GELULAB_FORMAT_H

#include <stdint.h>
#include <string.h>

enum gl_format_id { GL_FMT_F64, GL_FMT_F32, GL_FMT_BF16, GL_FMT_F16, GL_FMT_MPFR };

struct gl_format {
    enum gl_format_id id;
    char name[24]; /* "f32", "mpfr:200", ... */
    long prec;     /* p, bits of precision */
    long emin_sub; /* the smallest positive value is 2^emin_sub */
    long emax;     /* every finite value is < 2^emax */
};

extern const struct gl_format gl_format_f64, gl_format_f32, gl_format_bf16, gl_format_f16;

/* Parse "f64", "f32", "bf16", "f16" or "mpfr:BITS" (2 <= BITS <= 1000000). mpfr:BITS uses
 * MPFR's default exponent range. Returns 0, or -1 for an unknown name. */
int gl_format_parse(const char *name, struct gl_format *f);

/* Conversions between the 16-bit formats and float (exact: every bf16 and f16 value is a float;
 * a NaN keeps its sign and payload, signaling or quiet: bit for bit through both ways). */
float gl_bf16_to_f32(uint16_t h);
float gl_f16_to_f32(uint16_t h);
/* Bits of a float that is exactly representable in the 16-bit format (caller guarantees it). */
uint16_t gl_f32_to_bf16_exact(float f);
uint16_t gl_f32_to_f16_exact(float f);
/* The same for format f (GL_FMT_BF16 or GL_FMT_F16) */
uint16_t gl_f32_to_bits16(enum gl_format_id f, float v);
float gl_bits16_to_f32(enum gl_format_id f, uint16_t h);

/* y rounded to nearest-even in f (bf16, f16: subnormals and overflow to infinity included; y
 * itself for f32 and wider) */
double gl_round_f32(const struct gl_format *f, float y);

/* 2^k as a double, by its bits, for -1074 <= k <= 1023 (subnormals included). */
static inline double gl_pow2(long k)
{
    uint64_t u = k >= -1022 ? (uint64_t)(k + 1023) << 52 : 1ull << (k + 1074);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

#endif
