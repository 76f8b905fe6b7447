/* The sweep's input spaces (include/gelulab/sweep.h; docs/result-format.md): index i -> x.
 *   f32 exhaustive  i in [0, 2^32): the bit pattern i                     chunks of 2^20
 *   f32 quick       i in [0, ceil(2^32/61)): the bit pattern 61 i          chunks of 2^20
 *   bf16, f16       i in [0, 65536): the bit pattern i (kernels compute in binary32 on the
 *                   value; their result is rounded to the format, nearest-even)  chunks of 4096
 *   f64             per sign and exponent field (4094 strata) PER inputs with hashed mantissas
 *                   (PER = 256 exhaustive, 16 quick), then D uniform on [-10, 10] (2^20 / 2^16);
 *                   each chunk then followed by a local search (sweep_search.c).
 *   f64 hunt        per stratum of --exponents LO:HI (sign major within a binade: stratum j is
 *                   sign j & 1 of binade LO + j / 2) PER inputs (--per-stratum) with mantissas
 *                   hashed from the stratum and the input's rank in it, so that a stratum gets
 *                   the same inputs whatever the range; chunks of min(PER, 4096) inputs, one
 *                   stratum or a part of one each; each chunk then searched (sweep_search.c). */
#include <string.h>
#include "gelulab/sweep.h"
#include "sweep_int.h"

#define F64_STRATA 4094

uint64_t gl_sw_mix(uint64_t h) /* splitmix64 finaliser */
{
    h += 0x9e3779b97f4a7c15ull;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

const char *gl_sweep_mode_name(enum gl_sweep_mode m)
{
    return m == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : m == GL_SWEEP_QUICK ? "quick" : "hunt";
}

int gl_sweep_mode_parse(const char *name, enum gl_sweep_mode *m)
{
    for (int i = GL_SWEEP_EXHAUSTIVE; i <= GL_SWEEP_HUNT; i++)
        if (!strcmp(name, gl_sweep_mode_name((enum gl_sweep_mode)i)))
            return *m = (enum gl_sweep_mode)i, 0;
    return -1;
}

void gl_sweep_shard_chunks(const struct gl_sweep *s, long k, long n, uint64_t *lo, uint64_t *hi)
{
    *lo = s->n_chunks * (uint64_t)(k - 1) / (uint64_t)n;
    *hi = s->n_chunks * (uint64_t)k / (uint64_t)n;
}

static uint64_t f64_per(const struct gl_sweep *s)
{
    return s->mode == GL_SWEEP_EXHAUSTIVE ? 256 : 16;
}

int gl_sweep_hunt_check(uint64_t per, int lo, int hi)
{
    int per_ok = per >= 1 && (per <= 4096 || (per % 4096 == 0 && per <= (1ull << 40)));
    return per_ok && -1023 <= lo && lo <= hi && hi <= 1023 ? 0 : -1;
}

void gl_sweep_layout(struct gl_sweep *s)
{
    switch (s->fmt.id) {
    case GL_FMT_F32:
        s->n_inputs = s->mode == GL_SWEEP_EXHAUSTIVE ? 1ull << 32 : ((1ull << 32) + 60) / 61;
        s->chunk_size = 1u << 20;
        break;
    case GL_FMT_F64:
        if (s->mode == GL_SWEEP_HUNT) {
            s->n_inputs = 2 * (uint64_t)(s->hunt_hi - s->hunt_lo + 1) * s->hunt_per;
            s->chunk_size = s->hunt_per < 4096 ? s->hunt_per : 4096;
            break;
        }
        s->n_inputs =
            F64_STRATA * f64_per(s) + (s->mode == GL_SWEEP_EXHAUSTIVE ? 1u << 20 : 1u << 16);
        s->chunk_size = 4096;
        break;
    default:
        s->n_inputs = 65536;
        s->chunk_size = 4096;
    }
    s->n_chunks = (s->n_inputs + s->chunk_size - 1) / s->chunk_size;
}

static double bits_to_value(const struct gl_format *f, uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float v;
    double d;
    switch (f->id) {
    case GL_FMT_F32:
        memcpy(&v, &u, 4);
        return v;
    case GL_FMT_BF16:
        return gl_bf16_to_f32((uint16_t)bits);
    case GL_FMT_F16:
        return gl_f16_to_f32((uint16_t)bits);
    default:
        memcpy(&d, &bits, 8);
        return d;
    }
}

static uint64_t f64_hunt_bits(const struct gl_sweep *s, uint64_t i)
{
    uint64_t j = i / s->hunt_per, rank = i % s->hunt_per;
    uint64_t sign = j & 1, field = (uint64_t)(s->hunt_lo + 1023) + j / 2;
    uint64_t h = gl_sw_mix((field << 1 | sign) << 40 ^ rank ^ 0x68756e74ull << 44);
    return sign << 63 | field << 52 | (h & 0xfffffffffffffull);
}

static uint64_t f64_input_bits(const struct gl_sweep *s, uint64_t i)
{
    if (s->mode == GL_SWEEP_HUNT) return f64_hunt_bits(s, i);
    uint64_t per = f64_per(s), h = gl_sw_mix(i);
    if (i < F64_STRATA * per) {
        uint64_t stratum = i / per;
        return (stratum & 1) << 63 | (stratum >> 1) << 52 | (h & 0xfffffffffffffull);
    }
    double x = (double)(h >> 11) * 0x1p-53 * 20.0 - 10.0;
    uint64_t b;
    memcpy(&b, &x, 8);
    return b;
}

uint64_t gl_sweep_chunk_inputs(const struct gl_sweep *s, uint64_t c, double *x, uint64_t *xbits)
{
    uint64_t lo = c * s->chunk_size, hi = lo + s->chunk_size;
    if (hi > s->n_inputs) hi = s->n_inputs;
    gl_sweep_inputs(s, lo, hi, x, xbits);
    return hi - lo;
}

void gl_sweep_inputs(const struct gl_sweep *s, uint64_t lo, uint64_t hi, double *x, uint64_t *xbits)
{
    if (s->fmt.id == GL_FMT_F32) { /* quick: every 61st pattern, (i * 61) mod 2^32; else i */
        uint32_t step = s->mode == GL_SWEEP_QUICK ? 61 : 1;
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t u = (uint32_t)i * step;
            float v;
            memcpy(&v, &u, sizeof v);
            xbits[i - lo] = u, x[i - lo] = v;
        }
        return;
    }
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t b = s->fmt.id == GL_FMT_F64 ? f64_input_bits(s, i) : i;
        xbits[i - lo] = b;
        x[i - lo] = bits_to_value(&s->fmt, b);
    }
}
