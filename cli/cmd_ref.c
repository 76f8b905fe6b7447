/* gelulab ref — print correctly rounded reference values; also the fast path's self-check and
 * its throughput against pure MPFR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gelulab/reference.h"
#include "gelulab/runner.h"

static const char ref_help[] =
    "usage: gelulab ref [--defn NAME] [--format FMT] [--hex] X...\n"
    "       gelulab ref --self-check\n"
    "       gelulab ref --speed [--defn NAME] [--count N]\n"
    "\n"
    "Prints f(X) correctly rounded (round to nearest, ties to even, subnormals included) for\n"
    "each X, computed with MPFR in a Ziv loop over interval enclosures.\n"
    "\n"
    "  --defn NAME    exact (default), tanh, sigmoid, silu; their derivatives exact_grad,\n"
    "                 tanh_grad, sigmoid_grad, silu_grad; erf, erfc, phi, tanhf\n"
    "  --format FMT   f32 (default), f64, bf16, f16, or mpfr:BITS (any precision, 2..1000000,\n"
    "                 MPFR's exponent range)\n"
    "  --hex          print only the result, one hex-float per line (C %a; MPFR %Ra for mpfr:)\n"
    "  --self-check   compare the fast certified binary32 path with MPFR on this machine's libm\n"
    "                 (exit 0: agrees; 1: it does not, sweeps must not use it)\n"
    "  --speed        measure correctly rounded binary32 results per second on one core: fast\n"
    "                 path (with its MPFR fallback) against pure MPFR\n"
    "  --count N      inputs per --speed measurement (default 4000000; MPFR gets N/400)\n"
    "  --help         this text\n"
    "\n"
    "X: decimal (-1, 2.5e-3), hex-float (0x1.8p-3), inf, -inf, nan. X is first rounded to the\n"
    "format (once, correctly); the default output is: x (hex-float), f(x) in decimal with enough\n"
    "digits to round-trip, and f(x) in hex-float.\n"
    "\n"
    "Definitions:\n";

static void print_help(void)
{
    fputs(ref_help, stdout);
    for (int d = 0; d < GL_DEFN_COUNT; d++)
        printf("  %-11s %s\n", gl_defn_name((enum gl_defn)d), gl_defn_formula((enum gl_defn)d));
}

/* decimal digits that round-trip a p-bit value: ceil(1 + p*log10(2)) */
static int roundtrip_digits(long p)
{
    return (int)(1 + (p * 30103 + 99999) / 100000);
}

static void print_value(const mpfr_t v, const struct gl_format *fmt, int hex)
{
    if (mpfr_nan_p(v)) { /* no sign: the payload of a NaN result carries no meaning here */
        fputs("nan", stdout);
        return;
    }
    if (fmt->id == GL_FMT_MPFR) {
        if (hex)
            mpfr_printf("%Ra", v);
        else
            mpfr_printf("%.*Rg", roundtrip_digits(fmt->prec), v);
        return;
    }
    double d = mpfr_get_d(v, MPFR_RNDN); /* exact: v is representable in fmt */
    if (hex)
        printf("%a", d);
    else
        printf("%.*g", roundtrip_digits(fmt->prec), d);
}

static int ref_values(enum gl_defn d, const struct gl_format *fmt, int hex, char **xs, int n)
{
    int rc = 0;
    mpfr_t x, y;
    mpfr_inits2(fmt->prec, x, y, (mpfr_ptr)0);
    for (int i = 0; i < n; i++) {
        if (gl_parse_value(xs[i], fmt, x) != 0) {
            rc = gl_cli_error("ref", "cannot parse '%s' as a number", xs[i]);
            break;
        }
        if (gl_ref_mpfr(d, x, fmt, y, NULL) != GL_REF_OK) {
            fprintf(stderr, "gelulab ref: %s(%s): rounding undecided at %d bits\n", gl_defn_name(d),
                    xs[i], GL_REF_MAX_PREC);
            rc = 1;
            continue;
        }
        if (!hex) {
            print_value(x, fmt, 1);
            fputc('\t', stdout);
            print_value(y, fmt, 0);
            fputc('\t', stdout);
        }
        print_value(y, fmt, 1);
        fputc('\n', stdout);
    }
    mpfr_clears(x, y, (mpfr_ptr)0);
    return rc;
}

static uint64_t rng_next(uint64_t *s) /* xorshift64*, fixed seed: repeatable inputs */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

/* x from every bit pattern (core == 0) or uniform on [-10, 10] (core == 1) */
static float speed_input(uint64_t *s, int core)
{
    uint64_t r = rng_next(s);
    if (core) return (float)((double)(r >> 11) * 0x1p-53 * 20.0 - 10.0);
    uint32_t u = (uint32_t)(r >> 32);
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* results per second: pure MPFR (mpfr == 1) or the fast path with fallback */
static double speed_run(enum gl_defn d, int core, int mpfr, long n, long *fallbacks)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    volatile double sink; /* keeps every result computed */
    double y, t0 = gl_monotonic_s();
    for (long i = 0; i < n; i++) {
        float x = speed_input(&seed, core);
        if (mpfr)
            gl_ref_d(d, x, &gl_format_f32, &y, NULL);
        else if (gl_ref_fast(d, x, &gl_format_f32, &y, NULL) != 1) {
            ++*fallbacks;
            gl_ref_d(d, x, &gl_format_f32, &y, NULL);
        }
        sink = y;
    }
    (void)sink;
    return n / (gl_monotonic_s() - t0);
}

static int ref_speed(enum gl_defn d, long n)
{
    if (!gl_ref_has_fast(d))
        return gl_cli_error("ref", "definition '%s' has no fast path (exact, tanh, sigmoid, silu)",
                            gl_defn_name(d));
    printf("# correctly rounded binary32 %s references per second, one thread\n", gl_defn_name(d));
    printf("%-24s %14s %14s %8s %12s\n", "inputs", "fast path /s", "pure MPFR /s", "ratio",
           "fallbacks");
    for (int core = 0; core < 2; core++) {
        long fb = 0, unused = 0;
        double fast = speed_run(d, core, 0, n, &fb);
        double slow = speed_run(d, core, 1, n / 400 > 0 ? n / 400 : 1, &unused);
        printf("%-24s %14.4g %14.4g %8.0f %5ld of %ld\n",
               core ? "uniform on [-10, 10]" : "uniform bit patterns", fast, slow, fast / slow, fb,
               n);
    }
    return 0;
}

int gl_cmd_ref(int argc, char **argv)
{
    enum gl_defn d = GL_DEFN_EXACT;
    struct gl_format fmt = gl_format_f32;
    int hex = 0, selfcheck = 0, speed = 0, nx = 0;
    long count = 4000000;
    char **xs = calloc((size_t)argc, sizeof *xs);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_help();
            free(xs);
            return 0;
        } else if (!strcmp(a, "--hex")) {
            hex = 1;
        } else if (!strcmp(a, "--self-check")) {
            selfcheck = 1;
        } else if (!strcmp(a, "--speed")) {
            speed = 1;
        } else if (!strcmp(a, "--defn") && has_val) {
            if (gl_defn_parse(argv[++i], &d) != 0) {
                free(xs);
                return gl_cli_error("ref", "unknown definition '%s' (see gelulab ref --help)",
                                    argv[i]);
            }
        } else if (!strcmp(a, "--format") && has_val) {
            if (gl_format_parse(argv[++i], &fmt) != 0) {
                free(xs);
                return gl_cli_error("ref", "unknown format '%s' (f32, f64, bf16, f16, mpfr:BITS)",
                                    argv[i]);
            }
        } else if (!strcmp(a, "--count") && has_val) {
            char *end;
            count = strtol(argv[++i], &end, 10);
            if (*end || count < 1) {
                free(xs);
                return gl_cli_error("ref", "--count needs a positive integer, not '%s'", argv[i]);
            }
        } else if (!strcmp(a, "--")) {
            while (++i < argc) xs[nx++] = argv[i];
        } else if (a[0] == '-' && a[1] == '-') {
            free(xs);
            return gl_cli_error("ref", "unknown option or missing value: '%s' (see --help)", a);
        } else {
            xs[nx++] = argv[i]; /* a number; "-1", "-inf" are numbers, not options */
        }
    }
    int rc;
    if (selfcheck) {
        char msg[256];
        long bad = gl_ref_selfcheck(msg, sizeof msg);
        printf(bad ? "self-check: %ld disagreements; first: %s\n" : "self-check: ok%.0ld%s\n", bad,
               bad ? msg : "");
        rc = bad ? 1 : 0;
    } else if (speed) {
        rc = ref_speed(d, count);
    } else if (nx == 0) {
        rc = gl_cli_error("ref", "no value given (see gelulab ref --help)");
    } else {
        rc = ref_values(d, &fmt, hex, xs, nx);
    }
    free(xs);
    return rc;
}
