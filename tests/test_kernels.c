/* Every built-in kernel against the correctly rounded reference of its own definition:
 *  - inputs: every bfloat16 value as a float, 10^6 stratified random binary32 (every binade,
 *    both signs) and 10^6 uniform on [-10, 10] (fixed seeds), tails and landmarks;
 *  - asserts the contract's bounds: max ULP on [-5, 5] <= ulp_core, max |error| <= abs_all
 *    over all finite inputs; and the documented results for NaN, +-inf, +-0;
 *  - evaluates the contract's witness: the kernel gives `got` for x bit for bit, the reference
 *    is `want`, and the error of got against it, rounded up to 4 significant digits, is
 *    ulp_core (the documented maximum is attained there, to 4 digits);
 *  - the SIMD builds (AVX2, AVX-512, NEON under qemu) of an algorithm equal its scalar build
 *    bit for bit on all of these inputs;
 *  - any n (0 to 100), unaligned pointers, in place (x == y), no write past y[n-1];
 *  - gelu-cr (family "cr") equals the correctly rounded reference bit for bit on every input,
 *    and breaks the ties that GELU(x) = x/2 + x^2/sqrt(2 pi) + ... makes near the subnormal
 *    midpoints the way that series says.
 * Backward kernels (impls/grads.list) run with dy = 1 against their derivative, ULP on [-5, 5]
 * outside the root region (|x - x0| > 1/32), and with dy varied: dx == dy f' computed as
 * documented (RN32(dy RN32(f')) or RN32(dy f') from binary64), any n, offsets, dx == x, dx == dy.
 * The 16-bit kernels (impls/tab16.c) are tested by tests/test_abi16.sh and test_tab16.c.
 * `test_kernels --measure [N]` prints the measured maxima with their witnesses on every
 * bfloat16 and binary16 value and N (default 10^7) stratified inputs (the contracts' figures
 * come from the exhaustive sweep of all 2^32 inputs: docs/design.md, "Add a kernel"). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "gelulab/acc.h"
#include "gelulab/impl.h"
#include "gelulab/metrics.h"

struct inputs {
    float *x;
    size_t n;
    struct gl_dd *ref[GL_DEFN_COUNT]; /* unrounded reference per definition, computed once */
    float *rounded;                   /* exact GELU correctly rounded to binary32 */
};

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rng(void)
{
    return gl_test_rng(&rng_state);
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void build_inputs(struct inputs *in, long n_random, int with_f16)
{
    static const float landmarks[] = {
        -5.0f,        5.0f,   -5.6f,   -10.0f,    10.0f,      -14.0f,          -20.0f,
        -0.75179154f, 1e-30f, -1e-30f, 0x1p-149f, -0x1p-149f, 0x1.fffffep127f, -0x1.fffffep127f,
        3.5f,         -3.5f,  4.75f,   -4.75f,    5.625f,     -5.625f,         88.0f,
        -88.0f,       104.0f, -104.0f};
    size_t cap = 65536 * 2 + 2 * (size_t)n_random + 64;
    in->x = malloc(cap * sizeof *in->x);
    in->n = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float v = gl_bf16_to_f32((uint16_t)h);
        if (!isnan(v)) in->x[in->n++] = v;
        v = gl_f16_to_f32((uint16_t)h);
        if (with_f16 && !isnan(v)) in->x[in->n++] = v;
    }
    for (long i = 0; i < n_random; i++) { /* stratified: sign and exponent uniform */
        uint64_t r = rng();
        uint32_t exp = (uint32_t)(r >> 40) % 255;
        in->x[in->n++] =
            from_bits((uint32_t)(r >> 63) << 31 | exp << 23 | (uint32_t)(r & 0x7fffff));
        in->x[in->n++] = (float)((double)(rng() >> 11) * 0x1p-53 * 20.0 - 10.0);
    }
    for (size_t i = 0; i < sizeof landmarks / sizeof landmarks[0]; i++)
        in->x[in->n++] = landmarks[i];
    for (int d = 0; d < GL_DEFN_COUNT; d++) {
        in->ref[d] = NULL;
        if (!gl_ref_has_fast((enum gl_defn)d)) continue;
        in->ref[d] = malloc(in->n * sizeof *in->ref[d]);
        for (size_t i = 0; i < in->n; i++)
            gl_ref_f32((enum gl_defn)d, in->x[i], &gl_format_f32, &in->ref[d][i]);
    }
    in->rounded = malloc(in->n * sizeof *in->rounded);
    for (size_t i = 0; i < in->n; i++)
        in->rounded[i] = (float)gl_ref_f32(GL_DEFN_EXACT, in->x[i], &gl_format_f32, NULL);
}

/* Runs kernel k on x (a backward kernel: with dy, or dy = 1 when dy is NULL; NEON: through its
 * qemu evaluator, pairs x, dy for a backward kernel). Returns 0 on success. */
static int run_kernel_dy(const struct gl_impl *k, const float *x, const float *dy, float *y,
                         size_t n)
{
    float *ones = NULL;
    if (gl_defn_is_grad(k->defn) && !dy) {
        ones = malloc((n + 1) * sizeof *ones);
        for (size_t i = 0; i < n; i++) ones[i] = 1.0f;
        dy = ones;
    }
    if (k->f32 || k->bwd) {
        if (k->bwd)
            k->bwd(x, dy, y, n);
        else
            k->f32(x, y, n);
        free(ones);
        return 0;
    }
    char cmd[1024], full[1400];
    if (!gl_impl_neon_command(k, cmd, sizeof cmd)) return free(ones), -1;
    char in_path[] = "/tmp/gl_kin_XXXXXX", out_path[] = "/tmp/gl_kout_XXXXXX";
    int fi = mkstemp(in_path), fo = mkstemp(out_path);
    FILE *f = fdopen(fi, "wb");
    for (size_t i = 0; i < n; i++) {
        fwrite(x + i, sizeof *x, 1, f);
        if (dy) fwrite(dy + i, sizeof *dy, 1, f);
    }
    fclose(f);
    free(ones);
    close(fo);
    snprintf(full, sizeof full, "%s < %s > %s", cmd, in_path, out_path);
    int rc = system(full);
    f = fopen(out_path, "rb");
    size_t got = f ? fread(y, sizeof *y, n, f) : 0;
    if (f) fclose(f);
    unlink(in_path);
    unlink(out_path);
    return rc == 0 && got == n ? 0 : -1;
}

static int run_kernel(const struct gl_impl *k, const float *x, float *y, size_t n)
{
    return run_kernel_dy(k, x, NULL, y, n);
}

/* x lies in the root region of a backward kernel's derivative (no ULP bound there) */
static int in_root(const struct gl_impl *k, float x)
{
    return gl_defn_is_grad(k->defn) && fabs(x - gl_defn_root(k->defn)) <= GL_ROOT_HALFWIDTH;
}

struct worst {
    double ulp_core, abs_all;
    float x_ulp, x_abs, y_ulp, y_abs;
    double want_ulp, want_abs;
};

static struct worst measure(const struct gl_impl *k, const struct inputs *in, const float *y)
{
    struct worst w = {0};
    const struct gl_dd *ref = in->ref[k->defn];
    for (size_t i = 0; i < in->n; i++) {
        double u = gl_ulp_error(y[i], ref[i], &gl_format_f32), a = gl_abs_error(y[i], ref[i]);
        if (fabsf(in->x[i]) <= 5.0f && !in_root(k, in->x[i]) && !(u <= w.ulp_core))
            w.ulp_core = u, w.x_ulp = in->x[i], w.y_ulp = y[i], w.want_ulp = ref[i].hi;
        if (isfinite(in->x[i]) && !(a <= w.abs_all))
            w.abs_all = a, w.x_abs = in->x[i], w.y_abs = y[i], w.want_abs = ref[i].hi;
    }
    return w;
}

/* v rounded up to 4 significant digits, as the contracts state their maxima */
static double round_up_4(double v)
{
    if (!(v > 0) || isinf(v)) return v;
    char buf[32];
    snprintf(buf, sizeof buf, "%.3e", v); /* nearest; step up when that is below v */
    double r = strtod(buf, NULL);
    if (r < v) {
        double step = pow(10, floor(log10(r)) - 3);
        snprintf(buf, sizeof buf, "%.3e", r + step);
        r = strtod(buf, NULL);
    }
    return r;
}

static void check_witness(const struct gl_impl *k)
{
    const struct gl_witness *w = &k->witness;
    float x = (float)w->x, y;
    CHECK((double)x == w->x && fabs(x) <= 5 && !in_root(k, x),
          "%s: witness x=%a is not a binary32 input of [-5, 5] (outside the root region)", k->name,
          w->x);
    if (run_kernel(k, &x, &y, 1) != 0) return;
    struct gl_dd r;
    gl_ref_f32(k->defn, x, &gl_format_f32, &r);
    double err = round_up_4(gl_ulp_error(y, r, &gl_format_f32));
    CHECK((double)y == w->got && !signbit(y) == !signbit(w->got),
          "%s: witness x=%a: got %a, documented %a", k->name, w->x, (double)y, w->got);
    CHECK(r.hi + r.lo == w->want, "%s: witness x=%a: reference %a, documented %a", k->name, w->x,
          r.hi + r.lo, w->want);
    CHECK(err == k->ulp_core, "%s: witness x=%a: error %.4g ULP, documented %.4g", k->name, w->x,
          err, k->ulp_core);
}

static void special_words(const struct gl_impl *k, char *buf, size_t len)
{
    float x[5] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f}, y[5];
    if (run_kernel(k, x, y, 5) != 0) {
        snprintf(buf, len, "(failed to run)");
        return;
    }
    buf[0] = '\0';
    for (int i = 0; i < 5; i++) {
        char w[16];
        if (isnan(y[i]))
            snprintf(w, sizeof w, "nan");
        else if (isinf(y[i]))
            snprintf(w, sizeof w, "%sinf", y[i] < 0 ? "-" : "");
        else if (y[i] == 0)
            snprintf(w, sizeof w, "%s0", signbit(y[i]) ? "-" : "");
        else
            snprintf(w, sizeof w, "%a", (double)y[i]);
        strncat(buf, w, len - strlen(buf) - 1);
        if (i < 4) strncat(buf, " ", len - strlen(buf) - 1);
    }
}

/* gelu-cr: every result is the correctly rounded one; and the ties of the series at 0: x
 * subnormal with an odd last bit makes x/2 a binary32 midpoint, and GELU(x) - x/2 ~ x^2/sqrt(2 pi)
 * > 0 decides it upwards (x > 0: away from 0; x < 0: towards 0). */
static void check_correct_rounding(const struct gl_impl *k, const struct inputs *in, const float *y)
{
    static const float tie_x[] = {0x1p-149f,     -0x1p-149f,       0x1.e8p-144f,
                                  -0x1.e8p-144f, 0x1.000002p-126f, -0x1.000002p-126f};
    static const float tie_y[] = {0x1p-149f,        -0.0f,     0x1.fp-145f, -0x1.ep-145f,
                                  0x1.000004p-127f, -0x1p-127f};
    size_t diff = 0, first = 0;
    for (size_t i = 0; i < in->n; i++)
        if (memcmp(&y[i], &in->rounded[i], 4) != 0 && !diff++) first = i;
    CHECK(diff == 0, "%s: %zu results not correctly rounded, first x=%a: %a, want %a", k->name,
          diff, (double)in->x[first], (double)y[first], (double)in->rounded[first]);
    float got[6];
    if (run_kernel(k, tie_x, got, 6) != 0) return;
    for (int i = 0; i < 6; i++)
        CHECK(memcmp(&got[i], &tie_y[i], 4) == 0, "%s(%a) = %a, want %a", k->name, (double)tie_x[i],
              (double)got[i], (double)tie_y[i]);
}

/* The scalar build of a generic vector kernel ("gelu-erfc-fast/avx2" -> "gelu-erfc-fast/scalar"),
 * or NULL. */
static const struct gl_impl *scalar_model(const struct gl_impl *k)
{
    if (k->isa == GL_ISA_SCALAR) return NULL;
    char name[64];
    snprintf(name, sizeof name, "%.*s/scalar", (int)strcspn(k->name, "/"), k->name);
    return gl_impl_find(name);
}

static void check_lengths(const struct gl_impl *k, const float *src)
{
    float ref[256], buf[300], inplace[300];
    k->f32(src, ref, 256);
    for (size_t n = 0; n <= 100; n++) {
        for (size_t off = 0; off < 3; off++) {
            for (size_t i = 0; i < 300; i++) buf[i] = -7.0f;
            k->f32(src + off, buf + off, n);
            memcpy(inplace + off, src + off, n * sizeof(float));
            k->f32(inplace + off, inplace + off, n);
            int ok = buf[off + n] == -7.0f && (off == 0 || buf[off - 1] == -7.0f);
            for (size_t i = 0; i < n && ok; i++) {
                float want = 0;
                k->f32(src + off + i, &want, 1);
                ok = memcmp(&buf[off + i], &want, 4) == 0 &&
                     memcmp(&inplace[off + i], &want, 4) == 0;
            }
            CHECK(ok, "%s: n=%zu offset=%zu: results differ by position/length/aliasing", k->name,
                  n, off);
        }
    }
    (void)ref;
    /* lengths across the blocks a kernel may work in (gelu-fast's queue of tail lanes: 1024) */
    static const size_t long_n[] = {1023, 1024, 1025, 2048 + 17, 4100};
    float *lb = malloc((4100 + 2) * sizeof *lb), *li = malloc((4100 + 2) * sizeof *li);
    for (size_t m = 0; m < sizeof long_n / sizeof *long_n; m++) {
        size_t n = long_n[m];
        lb[n + 1] = -7.0f;
        k->f32(src + 1, lb + 1, n);
        memcpy(li + 1, src + 1, n * sizeof(float));
        k->f32(li + 1, li + 1, n);
        int ok = lb[n + 1] == -7.0f;
        for (size_t i = 0; i < n && ok; i++) {
            float want = 0;
            k->f32(src + 1 + i, &want, 1);
            ok = memcmp(&lb[1 + i], &want, 4) == 0 && memcmp(&li[1 + i], &want, 4) == 0;
        }
        CHECK(ok, "%s: n=%zu: results differ by position/length/aliasing", k->name, n);
    }
    free(lb);
    free(li);
    /* the queue of tail lanes full at a block's end: two core lanes, then tail lanes only (4.0),
     * so that the queue passes its fill level inside a whole vector and the array's last, short
     * vector adds up to 15 more (the queue's buffer must hold them and the padding: the SAN
     * build sees an overflow); every length from 256 to 320 */
    float qx[320], qy[320];
    for (size_t i = 0; i < 320; i++) qx[i] = i < 2 ? 0.5f : 4.0f + 0x1p-10f * (float)i;
    for (size_t n = 256; n <= 320; n++) {
        k->f32(qx, qy, n);
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++) {
            float want = 0;
            k->f32(qx + i, &want, 1);
            ok = memcmp(&qy[i], &want, 4) == 0;
        }
        CHECK(ok, "%s: n=%zu, a full queue: results differ by position/length", k->name, n);
    }
}

/* A backward kernel: dx = dy f' as documented for varied dy (against its own f' at dy = 1), and
 * any n, offsets, dx over x and over dy, no write past dx[n-1] */
static void check_backward(const struct gl_impl *k, const float *src)
{
    float g[256], dy[256], want[256], buf[300], over[300];
    int wide = strcmp(k->family, "gelu-grad-fast") && strcmp(k->family, "gelu-tanh-grad-fast");
    for (int i = 0; i < 256; i++)
        dy[i] = ldexpf(i % 2 ? -1.0f - i / 256.0f : 1.0f + i / 512.0f, i % 41 - 20);
    run_kernel(k, src, g, 256);
    k->bwd(src, dy, want, 256);
    for (int i = 0; i < 256; i++) {
        /* binary64 kernels: dx = RN32(dy f64) where RN32(f64) = g; binary32: RN32(dy g) */
        float fw = wide ? want[i] : g[i] * dy[i];
        CHECK(memcmp(&want[i], &fw, 4) == 0, "%s: x=%a dy=%a: dx=%a, want %a", k->name,
              (double)src[i], (double)dy[i], (double)want[i], (double)fw);
        if (wide) {
            double r = (double)g[i] * dy[i]; /* within one binary32 ULP of RN32(dy g) */
            CHECK(fabs(want[i] - r) <= fabs(r) * 0x1p-23 + 0x1p-149,
                  "%s: x=%a dy=%a: dx=%a far from dy f'", k->name, (double)src[i], (double)dy[i],
                  (double)want[i]);
        }
    }
    for (size_t n = 0; n <= 100; n++)
        for (size_t off = 0; off < 3; off++) {
            int ok = 1;
            for (int where = 0; where < 3; where++) { /* fresh dx, over x, over dy */
                for (size_t i = 0; i < 300; i++) buf[i] = -7.0f;
                float *out = buf + off;
                if (where) memcpy(over + off, where == 1 ? src : dy, n * sizeof(float));
                if (where) out = over + off;
                k->bwd(where == 1 ? over + off : src, where == 2 ? over + off : dy, out, n);
                ok &= where || (buf[off + n] == -7.0f && (off == 0 || buf[off - 1] == -7.0f));
                for (size_t i = 0; i < n && ok; i++) ok = memcmp(&out[i], &want[i], 4) == 0;
            }
            CHECK(ok, "%s: n=%zu offset=%zu: results differ by position/length/aliasing", k->name,
                  n, off);
        }
}

static void test_kernel(const struct gl_impl *k, const struct inputs *in, float *y, float *y_model)
{
    int neon = k->isa == GL_ISA_NEON;
    if ((!neon && !gl_impl_available(k)) || run_kernel(k, in->x, y, in->n) != 0) {
        printf("skip %-30s (%s)\n", k->name,
               neon ? "no qemu-aarch64 or NEON build" : "ISA missing");
        return;
    }
    struct worst w = measure(k, in, y);
    printf("%-30s ulp[-5,5] %-10.6g (x=%a got %a want %a)  abs %-9.4g (x=%a)\n", k->name,
           w.ulp_core, (double)w.x_ulp, (double)w.y_ulp, w.want_ulp, w.abs_all, (double)w.x_abs);
    CHECK(w.ulp_core <= k->ulp_core, "%s: ULP on [-5,5] %.4g > documented %.4g at x=%a", k->name,
          w.ulp_core, k->ulp_core, (double)w.x_ulp);
    CHECK(w.abs_all <= k->abs_all, "%s: abs error %.4g > documented %.4g at x=%a", k->name,
          w.abs_all, k->abs_all, (double)w.x_abs);
    check_witness(k);
    char sp[128];
    special_words(k, sp, sizeof sp);
    CHECK(!strcmp(sp, k->specials), "%s: special values '%s', documented '%s'", k->name, sp,
          k->specials);
    const struct gl_impl *model = scalar_model(k);
    if (model) {
        run_kernel(model, in->x, y_model, in->n);
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < in->n; i++)
            if (memcmp(&y[i], &y_model[i], 4) != 0 && !diff++) first = i;
        CHECK(diff == 0, "%s differs from %s on %zu inputs, first x=%a: %a vs %a", k->name,
              model->name, diff, (double)in->x[first], (double)y[first], (double)y_model[first]);
        /* NaN inputs too, bit for bit: both signs, quiet and signalling, several payloads (the
         * compiler may commute an operation's operands, and x86 returns the first NaN) */
        static const uint32_t nan_bits[] = {0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
                                            0x7fa5a5a5, 0xffbfffff, 0x7fffffff, 0xffc00001};
        enum { NN = sizeof nan_bits / sizeof nan_bits[0] };
        float nx[NN], ny[NN], nm[NN];
        for (int i = 0; i < NN; i++) nx[i] = from_bits(nan_bits[i]);
        run_kernel(k, nx, ny, NN), run_kernel(model, nx, nm, NN);
        for (int i = 0; i < NN; i++) {
            uint32_t a, b;
            memcpy(&a, &ny[i], 4), memcpy(&b, &nm[i], 4);
            CHECK(a == b, "%s(NaN 0x%08x) = 0x%08x, %s gives 0x%08x", k->name, nan_bits[i], a,
                  model->name, b);
        }
    }
    if (!strcmp(k->family, "cr")) check_correct_rounding(k, in, y);
    if (k->f32) check_lengths(k, in->x + 70000);
    if (k->bwd) check_backward(k, in->x + 70000);
}

int main(int argc, char **argv)
{
    int measure_only = argc > 1 && !strcmp(argv[1], "--measure");
    long n = measure_only ? (argc > 2 ? atol(argv[2]) : 10000000L) : 1000000L;
    struct inputs in;
    build_inputs(&in, n, measure_only);
    float *y = malloc(in.n * sizeof *y), *y_model = malloc(in.n * sizeof *y_model);
    printf("%zu inputs per kernel\n", in.n);
    for (size_t i = 0; i < gl_impl_count(); i++) /* 16-bit kernels: tests/test_abi16.sh */
        if (!gl_kernel_abi_is16(gl_impl_get(i)->abi)) test_kernel(gl_impl_get(i), &in, y, y_model);
    free(y);
    free(y_model);
    free(in.x);
    free(in.rounded);
    for (int d = 0; d < GL_DEFN_COUNT; d++) free(in.ref[d]);
    gl_ref_release();
    if (measure_only) return 0;
    return gl_check_summary("test_kernels");
}
