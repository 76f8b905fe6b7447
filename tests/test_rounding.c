/* Rounding to the formats (gl_round_to_format) and parsing (gl_parse_value) against
 * independent implementations: MPFR's own mpfr_get_d / mpfr_get_flt (which round to double and
 * float, subnormals included), the compiler's _Float16 conversion, the integer bfloat16
 * round-to-nearest-even, and the C library's strtod / strtof. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gelulab/metrics.h"
#include "gelulab/reference.h"

static uint64_t rng = 0x853c49e6748fea9bull;
static uint64_t next(void)
{
    return gl_test_rng(&rng);
}

/* random 200-bit value with exponent in [emin, emax) and random sign */
static void random_value(mpfr_t v, long emin, long emax)
{
    mpfr_set_ui(v, 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        mpfr_mul_2si(v, v, 50, MPFR_RNDN);
        mpfr_add_ui(v, v, (unsigned long)(next() >> 14), MPFR_RNDN);
    }
    mpfr_set_exp(v, emin + (long)(next() % (uint64_t)(emax - emin)));
    if (next() & 1) mpfr_neg(v, v, MPFR_RNDN);
    if ((next() & 7) == 0) { /* sometimes exactly a midpoint of a narrow format */
        mpfr_prec_round(v, 2 + (long)(next() % 30), MPFR_RNDN);
        mpfr_prec_round(v, 200, MPFR_RNDN);
    }
}

static uint16_t bf16_rne(float f) /* f -> bfloat16, round to nearest even on the bits */
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static void test_round(void)
{
    mpfr_t v, y;
    mpfr_inits2(200, v, y, (mpfr_ptr)0);
    for (int i = 0; i < 400000; i++) {
        random_value(v, -1090, 1030);
        gl_round_to_format(y, v, &gl_format_f64);
        double want = mpfr_get_d(v, MPFR_RNDN), got = mpfr_get_d(y, MPFR_RNDN);
        CHECK(memcmp(&want, &got, 8) == 0, "f64 v=%s got %a want %a",
              mpfr_get_str(NULL, NULL, 16, 0, v, MPFR_RNDN), got, want);
        random_value(v, -160, 132);
        gl_round_to_format(y, v, &gl_format_f32);
        float wf = mpfr_get_flt(v, MPFR_RNDN), gf = mpfr_get_flt(y, MPFR_RNDN);
        CHECK(memcmp(&wf, &gf, 4) == 0, "f32 got %a want %a", (double)gf, (double)wf);
        /* narrow formats from a float input (a single rounding both ways) */
        mpfr_set_flt(v, wf, MPFR_RNDN);
        gl_round_to_format(y, v, &gl_format_bf16);
        float gb = mpfr_get_flt(y, MPFR_RNDN);
        uint16_t want_b = bf16_rne(wf);
        CHECK(isnan(wf) || gl_f32_to_bf16_exact(gb) == want_b, "bf16(%a) got %a want %a",
              (double)wf, (double)gb, (double)gl_bf16_to_f32(want_b));
        float small = ldexpf(wf, -(int)(next() % 140)); /* reach f16's range */
        mpfr_set_flt(v, small, MPFR_RNDN);
        gl_round_to_format(y, v, &gl_format_f16);
        float gh = mpfr_get_flt(y, MPFR_RNDN), wh = (float)(_Float16)small;
        CHECK(memcmp(&gh, &wh, 4) == 0, "f16(%a) got %a want %a", (double)small, (double)gh,
              (double)wh);
    }
    mpfr_clears(v, y, (mpfr_ptr)0);
}

static void test_parse(void)
{
    static const char *strs[] = {
        "0.1",
        "-0.1",
        "1e-45",
        "7e-46",
        "7.006e-46",
        "1.4012984643248170709e-45",
        "3.4028235e38",
        "3.4028236e38",
        "1e39",
        "-1e-400",
        "4.9406564584124654e-324",
        "2.4703282292062328e-324",
        "2.4703282292062327e-324",
        "0x1.8p-3",
        "-0x1.fffffep127",
        "0x1p-149",
        "0x1.000001p0",
        "0x1.0000008p0",
        "0x1.00000080000000000000001p0",
        "1.00000005960464477539062500001",
        "1.000000059604644775390625",
        "inf",
        "-inf",
        "-0",
        "123456789012345678901234567890",
        "2.2250738585072011e-308",
        "8.50705917302346158658e37",
    };
    mpfr_t x;
    mpfr_init2(x, 53);
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        CHECK(gl_parse_value(strs[i], &gl_format_f64, x) == 0, "parse %s", strs[i]);
        double gd = mpfr_get_d(x, MPFR_RNDN), wd = strtod(strs[i], NULL);
        CHECK(memcmp(&gd, &wd, 8) == 0, "f64 '%s' got %a want %a", strs[i], gd, wd);
        CHECK(gl_parse_value(strs[i], &gl_format_f32, x) == 0, "parse %s", strs[i]);
        float gf = mpfr_get_flt(x, MPFR_RNDN), wf = strtof(strs[i], NULL);
        CHECK(memcmp(&gf, &wf, 4) == 0, "f32 '%s' got %a want %a", strs[i], (double)gf, (double)wf);
    }
    const char *bad[] = {"", "abc", "1.5x", "--1", "1e", "0x", " "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(gl_parse_value(bad[i], &gl_format_f32, x) == -1, "'%s' must not parse", bad[i]);
    CHECK(gl_parse_value("nan", &gl_format_f32, x) == 0 && mpfr_nan_p(x), "nan parses");
    mpfr_clear(x);
}

static void test_formats(void)
{
    struct gl_format f;
    CHECK(gl_format_parse("f32", &f) == 0 && f.prec == 24 && f.emin_sub == -149, "f32");
    CHECK(gl_format_parse("bf16", &f) == 0 && f.prec == 8 && f.emin_sub == -133, "bf16");
    CHECK(gl_format_parse("f16", &f) == 0 && f.prec == 11 && f.emax == 16, "f16");
    CHECK(gl_format_parse("mpfr:300", &f) == 0 && f.prec == 300, "mpfr:300");
    CHECK(gl_format_parse("mpfr:1", &f) == -1 && gl_format_parse("f8", &f) == -1 &&
              gl_format_parse("mpfr:", &f) == -1 && gl_format_parse("mpfr:12x", &f) == -1,
          "bad formats");
    for (uint32_t h = 0; h < 65536; h++) { /* f16 <-> f32 round trip, all values */
        float v = gl_f16_to_f32((uint16_t)h);
        CHECK(isnan(v) || gl_f32_to_f16_exact(v) == h, "f16 %04x", h);
        _Float16 hv;
        uint16_t bits = (uint16_t)h;
        memcpy(&hv, &bits, sizeof hv);
        CHECK(isnan(v) || v == (float)hv, "f16 value %04x", h);
    }
}

/* ULP of an unnormalised double-double reference: r = hi + lo with hi = 2^-23 - 2^-46 and
 * lo = 3 2^-47, so r = 2^-23 + 2^-47 lies in the binade above hi, where a binary32 ulp is
 * 2^-46: y = 2^-23 + 2^-46 is 0.5 ULP away (measured with hi's binade it would read 1.0).
 * And r just below a power of two: hi = 2^-23, lo = -2^-60: ulp 2^-47. */
static void test_ulp_binade(void)
{
    struct gl_dd up = {0x1.fffffcp-24, 0x1.8p-46}, down = {0x1p-23, -0x1p-60};
    double u = gl_ulp_error(0x1.000002p-23, up, &gl_format_f32);
    CHECK(u == 0.5, "r above the binade of hi: %.17g ULP, want 0.5", u);
    u = gl_ulp_error(0x1p-23, down, &gl_format_f32);
    CHECK(u == 0x1p-60 / 0x1p-47, "r just below 2^-23: %a ULP, want 2^-13", u);
    struct gl_dd norm = {0x1.000002p-23, 0};
    CHECK(gl_ulp_error(0x1p-23, norm, &gl_format_f32) == 1, "one ulp above 2^-23");
}

int main(void)
{
    test_formats();
    test_ulp_binade();
    test_parse();
    test_round();
    gl_ref_release();
    return gl_check_summary("test_rounding");
}
