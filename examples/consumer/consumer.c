/* A program outside gelulab's build that uses the installed libgelulab: it calls every entry
 * point of gelulab.h on a few inputs and checks each result against `gelulab ref` (the correctly
 * rounded MPFR reference, from the installed gelulab command) within the function's documented
 * bound (the header's comments), plus half an ULP for the reference's own rounding.
 *   usage: consumer [GELULAB]   (default: gelulab, from PATH); exit 0 all agree, 1 not, 2 error
 * Built two ways, as a user builds it: with pkg-config (Makefile) and with CMake
 * (CMakeLists.txt, find_package(gelulab)). */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gelulab.h>

#define N 7
static const float xs[N] = {-3.0f, -1.0f, -0.5f, 0.25f, 1.0f, 2.5f, 4.0f};
static const char *gelulab = "gelulab";
static int failures;

/* `gelulab ref --defn D --format F --hex` at xs, as doubles; -1 when it cannot run */
static int reference(const char *defn, const char *fmt, double *r)
{
    char cmd[1200];
    int len =
        snprintf(cmd, sizeof cmd, "'%s' ref --defn %s --format %s --hex --", gelulab, defn, fmt);
    for (int i = 0; i < N; i++) len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %a", xs[i]);
    FILE *p = popen(cmd, "r");
    int got = 0;
    char line[128];
    while (p && got < N && fgets(line, sizeof line, p)) r[got++] = strtod(line, NULL);
    int rc = p ? pclose(p) : -1;
    if (rc != 0 || got != N) {
        fprintf(stderr, "consumer: cannot run '%s'\n", cmd);
        return -1;
    }
    return 0;
}

/* y against the reference r of format precision p within `ulps` ULPs (plus half of one) */
static void check(const char *fn, const char *defn, const char *fmt, int p, const double *y,
                  double ulps)
{
    double r[N];
    if (reference(defn, fmt, r) != 0) exit(2);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        double ulp = ldexp(1.0, (r[i] != 0 ? ilogb(r[i]) : -149) - (p - 1));
        double e = fabs(y[i] - r[i]) / ulp;
        if (e > worst) worst = e;
    }
    int ok = worst <= ulps + 0.5;
    failures += !ok;
    printf("%s %-24s %.3g ULP from gelulab ref --defn %s (bound %g + 0.5)\n", ok ? "ok  " : "FAIL",
           fn, worst, defn, ulps);
}

typedef void (*fwd_fn)(const float *, float *, size_t);
typedef void (*bwd_fn)(const float *, const float *, float *, size_t);
typedef void (*u16_fn)(const uint16_t *, uint16_t *, size_t);

static void forward(const char *name, fwd_fn f, const char *defn, double ulps)
{
    float y[N];
    double d[N];
    f(xs, y, N);
    for (int i = 0; i < N; i++) d[i] = y[i];
    check(name, defn, "f32", 24, d, ulps);
}

static void backward(const char *name, bwd_fn f, const char *defn, double ulps)
{
    float ones[N], dx[N];
    double d[N];
    for (int i = 0; i < N; i++) ones[i] = 1.0f;
    f(xs, ones, dx, N);
    for (int i = 0; i < N; i++) d[i] = dx[i];
    check(name, defn, "f32", 24, d, ulps);
}

/* bfloat16 or binary16 bits of the (exactly representable) value v, and back */
static uint16_t to16(float v, int bf16)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    if (bf16) return (uint16_t)(u >> 16);
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    return (uint16_t)((u >> 16 & 0x8000) | (v == 0 ? 0 : (unsigned)e << 10 | (u >> 13 & 0x3ff)));
}

static double from16(uint16_t h, int bf16)
{
    if (bf16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    int e = h >> 10 & 0x1f, m = h & 0x3ff;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}

static void bits16(const char *name, u16_fn f, const char *defn, int bf16)
{
    uint16_t x[N], y[N];
    double d[N];
    for (int i = 0; i < N; i++) x[i] = to16(xs[i], bf16);
    f(x, y, N);
    for (int i = 0; i < N; i++) d[i] = from16(y[i], bf16);
    check(name, defn, bf16 ? "bf16" : "f16", bf16 ? 8 : 11, d, 0); /* correctly rounded */
}

int main(int argc, char **argv)
{
    if (argc > 1) gelulab = argv[1];
    printf("libgelulab %s: binary32 functions run the %s build, 16-bit ones the %s build\n",
           GELULAB_VERSION, gl_gelu_isa(), gl_gelu_isa_16());
    forward("gl_gelu_cr", gl_gelu_cr, "exact", 0);
    forward("gl_gelu_accurate", gl_gelu_accurate, "exact", 1);
    forward("gl_gelu_fast", gl_gelu_fast, "exact", 3);
    forward("gl_gelu_tanh_accurate", gl_gelu_tanh_accurate, "tanh", 1);
    forward("gl_gelu_sigmoid_accurate", gl_gelu_sigmoid_accurate, "sigmoid", 1);
    backward("gl_gelu_grad_accurate", gl_gelu_grad_accurate, "exact_grad", 1);
    backward("gl_gelu_grad_fast", gl_gelu_grad_fast, "exact_grad", 28);
    backward("gl_gelu_tanh_grad_accurate", gl_gelu_tanh_grad_accurate, "tanh_grad", 1);
    backward("gl_gelu_tanh_grad_fast", gl_gelu_tanh_grad_fast, "tanh_grad", 63);
    bits16("gl_gelu_cr_bf16", gl_gelu_cr_bf16, "exact", 1);
    bits16("gl_gelu_cr_f16", gl_gelu_cr_f16, "exact", 0);
    bits16("gl_gelu_tanh_cr_bf16", gl_gelu_tanh_cr_bf16, "tanh", 1);
    bits16("gl_gelu_tanh_cr_f16", gl_gelu_tanh_cr_f16, "tanh", 0);
    printf("%s: %d of 13 functions outside their bound\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
