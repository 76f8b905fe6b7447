/* The 16-bit table kernels (impls/tab16.c) in process, every build this CPU runs:
 *  - known values: results at landmarks computed independently (mpmath, 200 bits, rounded to the
 *    format by hand; neither gelulab's reference nor its tables);
 *  - every one of the 65 536 inputs equals the certified fast reference (gl_ref_f32, not the MPFR
 *    path that generated the tables) correctly rounded to the format, bit for bit; a NaN input
 *    gives itself made quiet (sign and payload kept);
 *  - the contract: the witness gives `got`, its reference is `want`, its error rounded up to 4
 *    digits is ulp_core, and abs_all is the largest error over all finite inputs rounded up;
 *    the documented specials;
 *  - any n (0 to 100), offsets 0 to 7 elements, in place (x == y), nothing written past y[n-1].
 * The NEON builds (under qemu) are swept exhaustively by tests/test_abi16.sh. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gelulab/impl.h"
#include "gelulab/metrics.h"

struct known {
    uint16_t x, y;
};

/* mpmath: x Phi(x) and 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) at 200 bits */
static const struct known exact_bf16[] = {{0x3f80, 0x3f57}, {0xbf80, 0xbe22}, {0x4000, 0x3ffa},
                                          {0xc040, 0xbb85}, {0x3e4d, 0x3dee}, {0xbf40, 0xbe2e},
                                          {0xc0a0, 0xb5c0}, {0xc0b0, 0xb3e0}, {0x0001, 0x0001},
                                          {0x8001, 0x8000}, {0x4120, 0x4120}};
static const struct known tanh_bf16[] = {{0x3f80, 0x3f57}, {0xbf80, 0xbe23}, {0x4000, 0x3ffa},
                                         {0xc040, 0xbb6e}, {0x3e4d, 0x3dee}, {0xbf40, 0xbe2e},
                                         {0xc0a0, 0xb476}, {0xc0b0, 0xb1cc}, {0x0001, 0x0001},
                                         {0x8001, 0x8000}, {0x4120, 0x4120}};
static const struct known exact_f16[] = {{0x3c00, 0x3abb}, {0xbc00, 0xb114}, {0x4000, 0x3fd1},
                                         {0xc200, 0x9c26}, {0x3266, 0x2f6a}, {0xba00, 0xb170},
                                         {0xc500, 0x8018}, {0xc580, 0x8002}, {0x0001, 0x0001},
                                         {0x8001, 0x8000}, {0x4900, 0x4900}};
static const struct known tanh_f16[] = {{0x3c00, 0x3abb}, {0xbc00, 0xb115}, {0x4000, 0x3fd2},
                                        {0xc200, 0x9b73}, {0x3266, 0x2f6a}, {0xba00, 0xb171},
                                        {0xc500, 0x8004}, {0xc580, 0x8000}, {0x0001, 0x0001},
                                        {0x8001, 0x8000}, {0x4900, 0x4900}};

static const struct known *known_of(const struct gl_impl *k)
{
    int bf = k->abi == GL_KERNEL_BF16;
    return k->defn == GL_DEFN_EXACT ? (bf ? exact_bf16 : exact_f16) : (bf ? tanh_bf16 : tanh_f16);
}

static double round_up_4(double v) /* as the contracts state their maxima */
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.3e", v);
    double r = strtod(buf, NULL);
    if (r < v) {
        snprintf(buf, sizeof buf, "%.3e", r + pow(10, floor(log10(r)) - 3));
        r = strtod(buf, NULL);
    }
    return r;
}

static void check_known(const struct gl_impl *k)
{
    const struct known *kn = known_of(k);
    for (int i = 0; i < 11; i++) {
        uint16_t y;
        k->u16(&kn[i].x, &y, 1);
        CHECK(y == kn[i].y, "%s: x = 0x%04x gives 0x%04x, mpmath says 0x%04x", k->name, kn[i].x, y,
              kn[i].y);
    }
}

/* every input against the reference; the contract's abs_all and witness */
static void check_all(const struct gl_impl *k, const struct gl_format *f, uint16_t *x, uint16_t *y)
{
    unsigned quiet = k->abi == GL_KERNEL_BF16 ? 0x40 : 0x200;
    double max_abs = 0;
    int wrong = 0;
    for (unsigned i = 0; i < 65536; i++) x[i] = (uint16_t)i;
    k->u16(x, y, 65536);
    for (unsigned i = 0; i < 65536; i++) {
        float v = gl_bits16_to_f32(f->id, (uint16_t)i);
        struct gl_dd r;
        uint16_t want = (uint16_t)(i | quiet);
        if (v == v) want = gl_f32_to_bits16(f->id, (float)gl_ref_f32(k->defn, v, f, &r));
        if (v == v && isfinite(v)) {
            double a = gl_abs_error(gl_bits16_to_f32(f->id, y[i]), r);
            max_abs = a > max_abs ? a : max_abs;
        }
        if (y[i] != want && wrong++ < 3)
            CHECK(0, "%s: x = 0x%04x gives 0x%04x, the reference 0x%04x", k->name, i, y[i], want);
    }
    CHECK(!wrong, "%s: %d of 65536 inputs not correctly rounded", k->name, wrong);
    CHECK(round_up_4(max_abs) == k->abs_all, "%s: max abs error %.4g, documented %.4g", k->name,
          max_abs, k->abs_all);
    const struct gl_witness *w = &k->witness;
    uint16_t wx = gl_f32_to_bits16(f->id, (float)w->x), wy;
    k->u16(&wx, &wy, 1);
    struct gl_dd r;
    gl_ref_f32(k->defn, (float)w->x, f, &r);
    double got = gl_bits16_to_f32(f->id, wy);
    CHECK(got == w->got && r.hi + r.lo == w->want,
          "%s: witness x = %a: got %a (documented %a), "
          "reference %a (documented %a)",
          k->name, w->x, got, w->got, r.hi + r.lo, w->want);
    CHECK(round_up_4(gl_ulp_error(got, r, f)) == k->ulp_core,
          "%s: witness error %.4g, documented "
          "%.4g",
          k->name, gl_ulp_error(got, r, f), k->ulp_core);
}

static void check_specials(const struct gl_impl *k, const struct gl_format *f)
{
    const float in[5] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
    char words[80] = "";
    for (int i = 0; i < 5; i++) {
        uint16_t x = gl_f32_to_bits16(f->id, in[i]), y;
        k->u16(&x, &y, 1);
        float v = gl_bits16_to_f32(f->id, y);
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s", i ? " " : "",
                 v != v       ? "nan"
                 : isinf(v)   ? (v > 0 ? "inf" : "-inf")
                 : signbit(v) ? "-0"
                              : "0");
    }
    CHECK(!strcmp(words, k->specials), "%s: specials '%s', documented '%s'", k->name, words,
          k->specials);
}

/* n = 0..100 at offsets 0..7, fresh and in place, guards after y[n-1] and before y[0] */
static void check_lengths(const struct gl_impl *k, const uint16_t *ref)
{
    uint16_t src[128], buf[128], want[128];
    for (int i = 0; i < 128; i++) src[i] = (uint16_t)(0x3c00 + 0x9e37u * (unsigned)i);
    for (int i = 0; i < 128; i++) want[i] = ref[src[i]];
    int bad = 0;
    for (size_t n = 0; n <= 100; n++)
        for (size_t off = 0; off < 8; off++)
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int i = 0; i < 128; i++) buf[i] = 0x5555;
                if (inplace) memcpy(buf + off, src, n * sizeof *src);
                k->u16(inplace ? buf + off : src, buf + off, n);
                int ok = buf[off + n] == 0x5555 && (!off || buf[off - 1] == 0x5555);
                for (size_t i = 0; i < n; i++) ok &= buf[off + i] == want[i];
                if (!ok && bad++ < 3)
                    CHECK(0, "%s: n = %zu, offset %zu%s: wrong results or a write out of bounds",
                          k->name, n, off, inplace ? ", in place" : "");
            }
    CHECK(!bad, "%s: %d lengths, offsets or in-place calls wrong", k->name, bad);
}

int main(void)
{
    uint16_t *x = malloc(65536 * sizeof *x), *y = malloc(65536 * sizeof *y);
    int tested = 0;
    for (size_t i = 0; i < gl_impl_count(); i++) {
        const struct gl_impl *k = gl_impl_get(i);
        if (!gl_kernel_abi_is16(k->abi) || !k->u16) continue;
        if (!gl_impl_available(k)) {
            printf("skip %-20s (ISA missing)\n", k->name);
            continue;
        }
        struct gl_format f;
        gl_format_parse(gl_kernel_abi_name(k->abi), &f);
        check_known(k);
        check_all(k, &f, x, y);
        check_specials(k, &f);
        check_lengths(k, y);
        printf("ok   %-20s all 65536 inputs correctly rounded\n", k->name);
        tested++;
    }
    CHECK(tested >= 8, "only %d 16-bit builds ran (scalar and AVX2 of four kernels expected)",
          tested);
    free(x), free(y);
    gl_ref_release();
    return gl_check_summary("test_tab16");
}
