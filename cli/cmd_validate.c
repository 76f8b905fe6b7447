/* gelulab validate — a CI gate for one activation kernel: the engine's sweep against bounds,
 * then probes for the usual bugs (analysis/validate.c). Exit 0 every bound and check holds,
 * 1 one fails, 2 usage, load or crash. */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/metrics.h"
#include "gelulab/store.h"
#include "gelulab/validate.h"

static const char help[] =
    "usage: gelulab validate (--lib PATH --symbol SYM | --exec 'CMD' | --serve 'CMD' |\n"
    "                         --serve ARGS --serve-lib 'CMD' | --python FILE.py:FUNC |\n"
    "                         --impl NAME)\n"
    "                        [--defn exact|tanh|sigmoid|silu] [--format f32|bf16|f16]\n"
    "                        [--max-ulp U] [--max-abs A] [--region core|all]\n"
    "                        [--mode exhaustive|quick] [--probes-only] [--json FILE]\n"
    "                        [--name NAME] [--timeout S] [--backward | --abi bf16|f16]\n"
    "                        [--store DIR [--fresh]]\n"
    "\n"
    "Checks one kernel, void SYM(const float *x, float *y, size_t n) from a shared library, an\n"
    "external evaluator (docs/exec-protocol.md; --serve: one that serves requests) or a\n"
    "built-in, against the correctly rounded\n"
    "reference of the definition it claims (default exact) and reports, per region, max ULP\n"
    "and abs error against that definition and against exact GELU with the worst inputs; then\n"
    "diagnoses: results of the wrong sign or larger than |x| (Phi above 1: erf above 1), special\n"
    "values (NaN, +-inf, +-0), zeros in the negative tail (cancellation, or an intermediate\n"
    "flushed to zero below 2^-126: subnormals off), subnormal inputs taken as zero or results\n"
    "flushed, a\n"
    "definition other than the one claimed (decided by max abs error on [-5, 5]), precision\n"
    "lost through a narrower format, results that depend on length, position, in-place use or\n"
    "the call.\n"
    "\n"
    "First, memory: every call runs on arrays against unmapped guard pages, with canaries; a\n"
    "kernel that reads or writes outside [x, x+n) and [y, y+n), leaves outputs unwritten or\n"
    "writes its input fails (\"writes y[17] past the end (n = 17)\") and the rest is skipped\n"
    "(n = 0..1003, arrays ending and starting at a guard page, apart and in place; not for\n"
    "--exec/--serve, whose memory is their own). A crash or hang is narrowed to the input(s)\n"
    "that cause it, named by value (\"narrowed to x = nan (n = 1)\").\n"
    "\n"
    "--backward: the kernel is a backward kernel, void SYM(const float *x, const float *dy,\n"
    "float *dx, size_t n) with dx = dy f'(x) (--exec/--serve: pairs x, dy on stdin), and\n"
    "--defn names its forward definition (or exact_grad, ...). The sweep runs with dy = 1\n"
    "against the derivative; --max-ulp bounds the ULP error outside the zero of f' (region\n"
    "root, |x - x0| <= 1/32, where ULP error is unbounded) and the scaled error (absolute, in\n"
    "ulps of 1 = ulp(max|f'|)) everywhere on the region, root included. Further diagnoses:\n"
    "the derivative at the special inputs, the negative tail, the definition, and dy: random\n"
    "magnitudes and signs, subnormal, +-0, +-inf and NaN, where dx must be dy f'(x) (dy\n"
    "ignored, added, its sign lost, subnormal dy flushed). Layouts include dx == dy.\n"
    "\n"
    "--python FILE.py:FUNC: a Python callable that takes a one-dimensional float32 NumPy array\n"
    "and returns one of the same shape and dtype (a torch or JAX function through a one-line\n"
    "adapter: docs/exec-protocol.md), served by py_eval.py under $GELULAB_PYTHON (default\n"
    "python3, with NumPy); with --backward it takes x and dy, with --abi the 16-bit dtype\n"
    "(ml_dtypes.bfloat16, numpy.float16). An exception, a wrong shape or dtype is one line.\n"
    "\n"
    "--abi bf16|f16: the kernel takes 16-bit numbers, void SYM(const uint16_t *x, uint16_t *y,\n"
    "size_t n) on bfloat16 or binary16 bits (--exec/--serve: raw little-endian 16-bit values),\n"
    "swept over all 65536 inputs of that format (the default --format), every NaN payload\n"
    "included. Diagnoses: specials; nan (every NaN input gives a NaN, a quiet one); rounding\n"
    "(the wrong results classified: truncation toward zero, double rounding through binary32);\n"
    "subnormal (inputs and results flushed to zero); definition; layout (offsets in 16-bit\n"
    "elements).\n"
    "\n"
    "Default bounds, on the region (default core, [-5, 5]; all: every input):\n"
    "  f32: --max-ulp 4 --max-abs 2e-6;  bf16: 1 ULP, 0.0625;  f16: 1 ULP, 0.0078\n"
    "--max-ulp 0.5 means correctly rounded: every result on the region equal to the correctly\n"
    "rounded reference, bit for bit (the check says how many are not).\n"
    "Default mode: quick for f32 (every 61st of the 2^32 inputs, seconds), exhaustive for\n"
    "bf16 and f16 (all 65536); --mode exhaustive sweeps all 2^32 binary32 inputs (minutes).\n"
    "--probes-only: the diagnoses alone, no sweep and no bounds (seconds, any kernel);\n"
    "--name NAME labels the kernel in the output and --json; --json FILE is written on every\n"
    "exit (\"verdict\": \"pass\", \"fail\" or \"error\" with the error; docs/report-format.md).\n"
    "--store DIR: a verdict (pass or fail) is kept in DIR with its output and --json file, keyed\n"
    "by what determines it (validate's code, the kernel's, the arguments, the CPU, the\n"
    "libraries: docs/result-format.md, \"The sweep store\"); a rerun with the same key prints\n"
    "it again without running the kernel (make report's diagnoses). --fresh: run, and keep.\n"
    "Exit: 0 pass, 1 a bound or check fails, 2 usage error, kernel cannot be loaded, crashes\n"
    "or hangs (the message names the inputs).\n";

struct vargs {
    struct gl_sweep s;
    struct gl_kernel_src *k;
    double max_ulp, max_abs;
    int region_all, mode_given, probes_only, backward, format_given, fresh;
    const char *json, *store;
    char error[1600]; /* why validate could not judge the kernel (exit 2), for --json too */
};

/* A one-line error on stderr, kept for --json: returns 2 */
static int verr(struct vargs *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int verr(struct vargs *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->error, sizeof a->error, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gelulab validate: %s\n", a->error);
    return 2;
}

static int parse(int argc, char **argv, struct vargs *a)
{
    struct gl_kernel_src *k = a->k;
    char sym[200] = "";
    int nsrc = 0;
    const char *name = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--probes-only") || !strcmp(o, "--backward") || !strcmp(o, "--fresh")) {
            *(o[2] == 'p' ? &a->probes_only : o[2] == 'b' ? &a->backward : &a->fresh) = 1;
            continue;
        }
        if (!v) return verr(a, "unknown argument or missing value: '%s'", o);
        i++;
        if (!strcmp(o, "--lib") || !strcmp(o, "--exec") || !strcmp(o, "--serve") ||
            !strcmp(o, "--python")) {
            o[2] == 'l'   ? gl_kernel_src_lib(k, v, "")
            : o[3] == 'x' ? gl_kernel_src_exec(k, v)
            : o[2] == 'p' ? gl_cli_python_src(k, v)
                          : gl_kernel_src_serve(k, v);
            snprintf(k->name, sizeof k->name, "%s", v), nsrc++;
        } else if (!strcmp(o, "--impl")) {
            if (!(k->impl = gl_cli_find_impl("validate", v)))
                return verr(a, "no built-in kernel '%s' (see gelulab list)", v);
            if (!gl_impl_available(k->impl)) return verr(a, "%s cannot run on this machine", v);
            k->kind = GL_SRC_BUILTIN, k->defn = k->impl->defn, k->abi = k->impl->abi, nsrc++;
            snprintf(k->name, sizeof k->name, "%s", k->impl->name);
        } else if (!strcmp(o, "--serve-lib")) {
            if (k->kind != GL_SRC_SERVE || k->python)
                return verr(a, "--serve-lib goes with --serve ARGS");
            snprintf(k->serve_lib, sizeof k->serve_lib, "%s", v);
        } else if (!strcmp(o, "--symbol")) {
            snprintf(sym, sizeof sym, "%s", v);
        } else if (!strcmp(o, "--defn")) {
            if (gl_defn_parse(v, &k->defn) != 0 || k->defn > GL_DEFN_SILU_GRAD)
                return gl_cli_error("validate",
                                    "unknown definition '%s' (exact, tanh, sigmoid, silu)", v);
        } else if (!strcmp(o, "--format")) {
            if (gl_format_parse(v, &a->s.fmt) != 0 || a->s.fmt.id == GL_FMT_MPFR ||
                a->s.fmt.id == GL_FMT_F64)
                return verr(a, "unknown format '%s' (f32, bf16, f16)", v);
            a->format_given = 1;
        } else if (!strcmp(o, "--abi")) {
            if (gl_kernel_abi_parse(v, &k->abi) != 0)
                return verr(a, "unknown --abi '%s' (f32, bf16, f16)", v);
        } else if (!strcmp(o, "--max-ulp") || !strcmp(o, "--max-abs")) {
            char *e;
            double d = strtod(v, &e);
            if (*e || !(d >= 0)) return verr(a, "bad %s '%s' (a number >= 0)", o, v);
            *(o[6] == 'u' ? &a->max_ulp : &a->max_abs) = d;
        } else if (!strcmp(o, "--region")) {
            if (strcmp(v, "core") && strcmp(v, "all"))
                return verr(a, "unknown region '%s' (core, all)", v);
            a->region_all = !strcmp(v, "all");
        } else if (!strcmp(o, "--mode")) {
            if (strcmp(v, "exhaustive") && strcmp(v, "quick"))
                return verr(a, "unknown mode '%s' (exhaustive, quick)", v);
            a->s.mode = strcmp(v, "quick") ? GL_SWEEP_EXHAUSTIVE : GL_SWEEP_QUICK,
            a->mode_given = 1;
        } else if (!strcmp(o, "--json")) {
            a->json = v;
        } else if (!strcmp(o, "--store")) {
            a->store = v;
        } else if (!strcmp(o, "--name")) {
            name = v;
        } else if (!strcmp(o, "--timeout")) {
            if (!((a->s.run.timeout_s = atof(v)) > 0)) return verr(a, "bad --timeout '%s'", v);
        } else {
            return verr(a, "unknown option '%s' (see gelulab validate --help)", o);
        }
    }
    if (nsrc != 1)
        return verr(
            a, "give exactly one kernel: --lib PATH --symbol SYM, --exec 'CMD', --serve 'CMD', "
               "--python FILE.py:FUNC or --impl NAME");
    if (k->kind == GL_SRC_LIB) {
        if (!*sym) return verr(a, "--lib needs --symbol SYM");
        const char *p = k->lib_path, *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        snprintf(k->name, sizeof k->name, "%.100s:%.50s", base, sym);
        snprintf(k->lib_symbol, sizeof k->lib_symbol, "%s", sym);
    } else if (*sym) {
        return verr(a, "--symbol goes with --lib");
    }
    if (name) snprintf(k->name, sizeof k->name, "%s", name);
    if (k->kind == GL_SRC_BUILTIN && a->backward && !gl_defn_is_grad(k->impl->defn))
        return verr(a, "%s is a forward kernel: not with --backward", k->name);
    if (k->kind == GL_SRC_BUILTIN) a->backward = gl_defn_is_grad(k->impl->defn);
    if (k->kind == GL_SRC_BUILTIN && gl_kernel_abi_is16(k->impl->abi) && k->abi != k->impl->abi)
        return verr(a, "%s is a %s kernel: --abi %s", k->name, gl_kernel_abi_name(k->impl->abi),
                    gl_kernel_abi_name(k->impl->abi));
    if (gl_kernel_abi_is16(k->abi) && !a->format_given) /* a 16-bit kernel: its own format */
        gl_format_parse(gl_kernel_abi_name(k->abi), &a->s.fmt);
    if (gl_cli_set_backward("validate", k, a->backward) != 0 ||
        gl_cli_check_abi("validate", k, &a->s.fmt) != 0 ||
        gl_cli_python_command("validate", k) != 0)
        return snprintf(a->error, sizeof a->error, "usage error (the message on stderr)"), 2;
    if (a->fresh && !a->store) return verr(a, "--fresh goes with --store DIR");
    if (a->probes_only && a->s.fmt.id != gl_kernel_abi_format(k->abi))
        return verr(a, "--probes-only checks the kernel's own calls: not with "
                       "--format (a 16-bit kernel: --abi)");
    return 0;
}

static const char *status_word(enum gl_check_status st)
{
    return st == GL_CHECK_PASS   ? "PASS"
           : st == GL_CHECK_WARN ? "WARN"
           : st == GL_CHECK_FAIL ? "FAIL"
                                 : "SKIP";
}

static void print_regions(const struct gl_kernel_src *k, const struct gl_kernel_result *res,
                          const struct gl_format *fmt)
{
    const char *regs[5] = {"tail_neg x < -5", "core [-5, 5]", "pos x > 5", "root |x-x0|<=1/32",
                           "all"};
    const int order[5] = {GL_REGION_TAIL_NEG, GL_REGION_CORE, GL_REGION_POS, GL_REGION_ROOT, -1};
    printf("%-22s %-18s %11s  %-16s %10s%s\n", "against", "region", "max ULP", "worst x", "max abs",
           k->backward ? "   scaled" : "");
    for (int a = 0; a < (k->defn == gl_defn_exact_of(k->defn) ? 1 : 2); a++)
        for (int r = 0; r < 5; r++) {
            const struct gl_stats *st =
                order[r] >= 0 ? &res->acc[a]->region[order[r]] : &res->acc[a]->all;
            if (!st->n) continue;
            printf("%-22s %-18s %11.4g  %-16a %10.3g",
                   !r && a ? (k->backward ? "exact GELU'" : "exact GELU")
                   : !r    ? gl_defn_name(k->defn)
                           : "",
                   regs[r], st->max_ulp, st->worst.x, st->max_abs);
            if (k->backward) printf(" %8.4g", gl_scaled_ulp(st->max_abs, fmt));
            printf("\n");
        }
}

/* s as a JSON string */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', f);
        if ((unsigned char)*p < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* verdict: 0 pass, 1 fail, 2 error (a->error says why) */
static void write_json(const struct vargs *a, const struct gl_validation *v, int verdict)
{
    FILE *f = fopen(a->json, "w");
    if (!f) {
        fprintf(stderr, "gelulab validate: cannot write %s\n", a->json);
        return;
    }
    const struct gl_kernel_src *k = a->k;
    const struct gl_kernel_result *res = a->s.res; /* the one kernel's */
    fprintf(f,
            "{\"schema\": \"gelulab-validate/1\", \"kernel\": \"%s\", \"defn\": \"%s\", "
            "\"abi\": \"%s\", \"format\": \"%s\",\n"
            " \"mode\": \"%s\", \"inputs\": %llu, \"region\": \"%s\", \"max_ulp_bound\": %.17g, "
            "\"max_abs_bound\": %.17g,\n"
            " \"verdict\": \"%s\",\n",
            k->name, gl_defn_name(k->defn),
            k->backward                  ? "backward"
            : gl_kernel_abi_is16(k->abi) ? gl_kernel_abi_name(k->abi)
                                         : "forward",
            a->s.fmt.name,
            a->probes_only                     ? "probes"
            : a->s.mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive"
                                               : "quick",
            (unsigned long long)a->s.n_inputs, a->region_all ? "all" : "core", a->max_ulp,
            a->max_abs,
            verdict == 2 ? "error"
            : verdict    ? "fail"
                         : "pass");
    if (verdict == 2) fputs(" \"error\": ", f), json_string(f, a->error), fputs(",\n", f);
    fputs(" \"regions\": {", f);
    int swept =
        verdict != 2 && !a->probes_only && a->s.n_inputs && res && res->acc[0] && res->acc[1];
    const int order[5] = {GL_REGION_TAIL_NEG, GL_REGION_CORE, GL_REGION_POS, GL_REGION_ROOT, -1};
    for (int x = 0; x < 2 && swept; x++)
        for (int r = 0; r < 5; r++) {
            if (order[r] == GL_REGION_ROOT && !k->backward) continue;
            const struct gl_stats *st =
                order[r] >= 0 ? &res->acc[x]->region[order[r]] : &res->acc[x]->all;
            fprintf(f,
                    "%s\"%s_%s\": {\"max_ulp\": %.17g, \"max_abs\": %.17g, \"worst_x\": \"%a\", "
                    "\"nonfinite\": %llu",
                    x || r ? ", " : "", x ? "exact" : "own",
                    order[r] >= 0 ? gl_region_names[order[r]] : "all", st->max_ulp, st->max_abs,
                    st->worst.x, (unsigned long long)st->nonfinite);
            if (k->backward)
                fprintf(f, ", \"max_scaled\": %.17g", gl_scaled_ulp(st->max_abs, &a->s.fmt));
            fputc('}', f);
        }
    fprintf(f, "},\n \"checks\": [");
    for (int i = 0; i < v->n; i++) {
        fprintf(f, "%s\n  {\"name\": \"%s\", \"status\": \"%s\", \"text\": ", i ? "," : "",
                v->c[i].name, status_word(v->c[i].status));
        json_string(f, v->c[i].text);
        fputs("}", f);
    }
    fprintf(f, "]}\n");
    fclose(f);
}

/* The end of a run that could not judge the kernel: --json with the failure, exit 2 */
static int end_error(struct vargs *a, const struct gl_validation *v)
{
    if (a->json) write_json(a, v, 2);
    gl_sweep_free(&a->s);
    return 2;
}

/* The checks, the verdict and --json; the exit status */
static int end_verdict(struct vargs *a, const struct gl_validation *v, int rc)
{
    int fails = 0;
    for (int i = 0; i < v->n; i++) {
        printf("%s  %-10s %s\n", status_word(v->c[i].status), v->c[i].name, v->c[i].text);
        fails += v->c[i].status == GL_CHECK_FAIL;
    }
    printf("\nverdict: %s (%d of %d checks failed)\n", fails ? "FAIL" : "PASS", fails, v->n);
    if (a->json) write_json(a, v, fails != 0);
    gl_sweep_free(&a->s);
    return rc == 130 ? 130 : fails ? 1 : 0;
}

static int validate_run(struct vargs *a, struct gl_validation *v);

struct validate_call {
    struct vargs *a;
    struct gl_validation *v;
};
static int validate_call(void *p)
{
    struct validate_call *c = p;
    return validate_run(c->a, c->v);
}

/* With --store: the verdict (exit 0 or 1) kept in DIR, or taken from it */
static int validate_stored(struct vargs *a, struct gl_validation *v, int argc, char **argv)
{
    static const char *const drop[] = {"--json=", "--store=", "--fresh", NULL};
    enum { KEY_MAX = 1 << 16 };
    char *text = malloc(KEY_MAX), *kern = malloc(KEY_MAX), err[300];
    struct validate_call c = {a, v};
    int rc = 2, taken = 0;
    if (!text || !kern || gl_store_kernel_text(a->k, kern, KEY_MAX) != 0 ||
        gl_output_store_key(text, KEY_MAX, "probes", argc, argv, drop, kern) != 0) {
        fprintf(stderr, "gelulab validate: store: %s cannot be identified: run, not stored\n",
                a->k->name);
        rc = validate_run(a, v);
    } else if ((taken = gl_output_store_run("validate", a->store, a->fresh, text, a->json, 1,
                                            validate_call, &c, &rc, err, sizeof err)) < 0) {
        rc = verr(a, "%s", err), end_error(a, v);
    } else if (taken) {
        gl_sweep_free(&a->s);
    }
    free(text), free(kern);
    return rc;
}

int gl_cmd_validate(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return fputs(help, stdout), 0;
    static struct vargs a;
    memset(&a, 0, sizeof a);
    struct gl_sweep *s = &a.s;
    s->fmt = gl_format_f32, s->mode = GL_SWEEP_QUICK,
    s->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    s->shard_k = s->shard_n = 1, s->run.timeout_s = 120, s->run.self_exe = gl_cli_self_exe(),
    s->use_fast_ref = 1;
    s->progress = isatty(2);
    a.k = gl_sweep_add_kernel(s);
    a.k->defn = GL_DEFN_EXACT, a.max_ulp = a.max_abs = -1;
    struct gl_validation v;
    memset(&v, 0, sizeof v);
    for (int i = 1; i + 1 < argc; i++) /* --json even when another argument is refused */
        if (!strcmp(argv[i], "--json")) a.json = argv[i + 1];
    int rc = parse(argc, argv, &a);
    if (rc) return end_error(&a, &v);
    if (!a.mode_given && s->fmt.id != GL_FMT_F32) s->mode = GL_SWEEP_EXHAUSTIVE;
    int f32 = s->fmt.id == GL_FMT_F32, bf16 = s->fmt.id == GL_FMT_BF16;
    if (a.max_ulp < 0) a.max_ulp = f32 ? 4 : 1;
    if (a.max_abs < 0) a.max_abs = f32 ? 2e-6 : bf16 ? 0.0625 : 0.0078;
    return a.store ? validate_stored(&a, &v, argc, argv) : validate_run(&a, &v);
}

/* The kernel loaded, its memory, sweep and probes checked, the verdict printed: the exit status */
static int validate_run(struct vargs *a, struct gl_validation *v)
{
    struct gl_sweep *s = &a->s;
    int rc;
    if (a->k->kind == GL_SRC_LIB &&
        gl_cli_probe_lib("validate", s, a->k, a->error, sizeof a->error))
        return end_error(a, v);
    char msg[256];
    if (gl_cli_selfcheck(a->store, a->fresh, msg, sizeof msg) != 0) {
        fprintf(stderr,
                "gelulab validate: fast reference disagrees with MPFR here (%s); using pure MPFR "
                "(slow)\n",
                msg);
        s->use_fast_ref = 0;
    }
    if (a->probes_only)
        printf("gelulab validate: %s claiming the %s definition%s; the probes only\n", a->k->name,
               gl_defn_name(a->k->defn), a->backward ? " (backward)" : "");
    else
        printf("gelulab validate: %s claiming the %s definition%s; %s %s sweep\n", a->k->name,
               gl_defn_name(a->k->defn), a->backward ? " (backward, dy = 1)" : "", s->fmt.name,
               s->mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : "quick");
    fflush(stdout);
    /* memory first: a kernel that touches memory outside its arrays is judged on that alone */
    struct gl_child ch = gl_child_idle(1); /* the memory check's and the probes' worker */
    int mem = gl_validate_memory(s, a->k, &ch, v);
    /* not kept idle through a sweep (a failed memory check has stopped it already) */
    if (!a->probes_only) gl_child_stop(&ch);
    if (mem < 0) {
        verr(a, "%s: %s", v->n ? v->c[v->n - 1].name : "memory", v->n ? v->c[v->n - 1].text : "?");
        return end_error(a, v);
    }
    if (mem > 0) {
        printf("the memory check failed: the sweep and the other checks are skipped (no figure "
               "of a kernel that does this means anything)\n\n");
        return end_verdict(a, v, 0);
    }
    rc = a->probes_only ? 0 : gl_sweep_run(s);
    if (s->res[0].failed) {
        verr(a, "%s", s->res[0].error);
        return end_error(a, v);
    }
    if (!a->probes_only)
        gl_validate_bounds(a->k, &s->res[0], &s->fmt, a->max_ulp, a->max_abs, a->region_all, v),
            gl_validate_range(a->k, &s->res[0], v);
    int probes = gl_validate_probes(s, a->k, &ch, a->region_all, v);
    gl_child_stop(&ch);
    if (probes != 0) {
        verr(a, "%s: %s", v->n ? v->c[v->n - 1].name : "probes", v->n ? v->c[v->n - 1].text : "?");
        return end_error(a, v);
    }
    if (!a->probes_only) {
        char ulp[40];
        if (a->max_ulp == 0.5)
            snprintf(ulp, sizeof ulp, "correctly rounded");
        else
            snprintf(ulp, sizeof ulp, "max ULP <= %g", a->max_ulp);
        printf("%llu inputs; bounds on %s: %s, max abs <= %g%s\n\n",
               (unsigned long long)s->n_inputs, a->region_all ? "all inputs" : "the core [-5, 5]",
               ulp, a->max_abs, " (--max-ulp, --max-abs, --region)");
        print_regions(a->k, &s->res[0], &s->fmt);
        printf("\n");
    }
    return end_verdict(a, v, rc);
}
