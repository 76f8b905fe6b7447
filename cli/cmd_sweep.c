/* gelulab sweep — measure kernels against the reference over an input space (the merge of
 * shards: cmd_merge.c; the library worker: cmd_eval_lib.c; the kernel arguments sweep, validate
 * and facts share: kernel_args.c) */
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/store.h"
#include "gelulab/sweep.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* The CPUs this process may run on (its affinity: taskset, cgroups, a Slurm allocation) */
static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static const char sweep_help[] =
    "usage: gelulab sweep [--format f32|bf16|f16|f64] [--mode exhaustive|quick|hunt]\n"
    "                     (--impl NAME ... | --all | --lib PATH --symbol SYM --defn D |\n"
    "                      --exec 'CMD' --defn D | --serve 'CMD' --defn D |\n"
    "                      --python FILE.py:FUNC --defn D) ...\n"
    "                     [--backward] [--threads N] [--shard K/N]\n"
    "                     [--timeout S] [--store DIR [--fresh]] [--out FILE.json]\n"
    "                     [--times FILE.tsv]\n"
    "\n"
    "Measures kernels against the correctly rounded reference of their own definition and of\n"
    "exact GELU: ULP (against the unrounded reference), absolute and relative error, % correctly\n"
    "rounded and faithful, per region, per binade, histogram, worst inputs.\n"
    "\n"
    "  --format F     f32 (default), bf16, f16 (binary32 kernels compute in f32, results rounded\n"
    "                 to F; 16-bit kernels, --abi, take and give F),\n"
    "                 f64 (built-in kernels with a binary64 version)\n"
    "  --mode M       exhaustive (default): all 2^32 f32 patterns, all 65536 bf16/f16 values,\n"
    "                 f64: 256 inputs per binade and sign + 2^20 uniform on [-10, 10] + local\n"
    "                 search around the worst; quick: every 61st f32 pattern, f64: 16 per binade\n"
    "                 and sign + 2^16; hunt (f64): the worst-case hunt, below\n"
    "  --per-stratum M  hunt: inputs sampled per binade and sign (default 4096; at most 4096,\n"
    "                 or a multiple of it), each chunk of 4096 followed by a 208-input climb per\n"
    "                 kernel from its worst (docs/design.md, \"Worst-case hunt\")\n"
    "  --exponents LO:HI  hunt: the binades 2^LO .. 2^HI of both signs (default -1023:1023,\n"
    "                 -1023 standing for the subnormals); shards split them in order\n"
    "  --impl NAME    a built-in kernel (see gelulab list); repeatable\n"
    "  --all          every built-in kernel this machine can run (NEON under qemu-aarch64,\n"
    "                 except in exhaustive f32 sweeps, where emulation would take hours)\n"
    "  --with-emulated  with --all: NEON kernels in exhaustive f32 sweeps too\n"
    "  --no-emulated  with --all: no NEON kernels at all\n"
    "  --lib PATH --symbol SYM --defn D\n"
    "                 void SYM(const float *x, float *y, size_t n) from a shared library,\n"
    "                 run in a child process\n"
    "  --exec 'CMD' --defn D\n"
    "                 an external evaluator: raw little-endian float32 on stdin, the same\n"
    "                 number of float32 results on stdout (docs/exec-protocol.md)\n"
    "  --serve 'CMD' --defn D\n"
    "                 an external evaluator that serves requests, one process per thread\n"
    "                 (docs/exec-protocol.md, \"Serving\")\n"
    "  --defn D       exact, tanh, sigmoid or silu: the definition the kernel claims (with\n"
    "                 --backward: its derivative; exact_grad, ... are accepted too)\n"
    "  --serve-lib 'CMD'\n"
    "                 after --serve ARGS: the kernel is served by CMD, one process per thread\n"
    "                 for every kernel that names the same CMD, each request led by its ARGS\n"
    "                 (docs/exec-protocol.md: a framework loaded once for all its kernels)\n"
    "  --python FILE.py:FUNC --defn D\n"
    "                 a Python callable, float32 NumPy array in, one of the same shape and\n"
    "                 dtype out (gelulab validate --help), served by py_eval.py under\n"
    "                 $GELULAB_PYTHON (default python3)\n"
    "  --abi A        f32 (default), bf16 or f16: the preceding --lib/--exec/--serve kernel\n"
    "                 takes 16-bit numbers, void SYM(const uint16_t *x, uint16_t *y, size_t n)\n"
    "                 on bfloat16 or binary16 bits (an evaluator: raw little-endian 16-bit\n"
    "                 values in and out); swept with --format A over all 65536 inputs, NaN\n"
    "                 payloads included. --all takes the built-in 16-bit kernels of --format\n"
    "  --backward     the --lib/--exec/--serve kernels are backward kernels,\n"
    "                 void SYM(const float *x, const float *dy, float *dx, size_t n),\n"
    "                 dx = dy f'(x); --exec/--serve evaluators read pairs x, dy\n"
    "                 (docs/exec-protocol.md); --all takes the built-in backward kernels.\n"
    "                 Swept with dy = 1 (dx = f'(x)) against the derivative; the region\n"
    "                 \"root\" holds the inputs within 1/32 of its zero (GELU's minimum), where\n"
    "                 ULP error is unbounded: the scaled error (absolute, in ulps of 1 =\n"
    "                 ulp(max|f'|)) is printed beside it\n"
    "  --name NAME    the label of the preceding --lib/--exec/--serve kernel in the results\n"
    "  --threads N    worker threads (default: the CPUs this process may run on, which\n"
    "                 taskset, cgroups and Slurm restrict)\n"
    "  --shard K/N    run only the K-th of N equal parts (merge them with gelulab merge)\n"
    "  --timeout S    seconds a child process may take per chunk (default 120)\n"
    "  --mpfr-reference  pure MPFR reference instead of the fast certified path (slow; checks)\n"
    "  --progress     progress on stderr even when it is not a terminal (a line every 10 s)\n"
    "  --store DIR    keep each kernel's results in DIR, keyed by what determines them (its\n"
    "                 code, the sweep, the engine and reference, the CPU; docs/result-format.md,\n"
    "                 \"The sweep store\"), and take from DIR the kernels whose key it holds: a\n"
    "                 rerun sweeps only the kernels that changed (make report: build/store)\n"
    "  --fresh        with --store: sweep every kernel again, then store the results\n"
    "  --out FILE     write FILE (JSON, docs/result-format.md), FILE.binades.csv, FILE.hist.csv\n"
    "  --times FILE   write where the run's time went, per kernel: running it and measuring\n"
    "                 its results, in seconds of the workers' wall clock (docs/result-format.md,\n"
    "                 \"Sweep times\"; kept apart from the results, which a rerun reproduces)\n"
    "\n"
    "A kernel that crashes, fails or hangs is reported with the inputs of its chunk and\n"
    "stops there; the others go on. Ctrl-C (or SIGTERM: a scheduler's time limit) stops after the\n"
    "running chunks and writes what was finished. Exit: 0; 2 usage error or a kernel failed; 130 "
    "interrupted.\n";

struct sweep_args {
    struct gl_sweep s;
    const char *out, *store, *times;
    int all, with_emulated, backward, fresh;
};

static int parse_shard(const char *v, long *k, long *n)
{
    char *e;
    *k = strtol(v, &e, 10);
    if (*e != '/') return -1;
    *n = strtol(e + 1, &e, 10);
    return *e || *n < 1 || *k < 1 || *k > *n ? -1 : 0;
}

/* The --lib kernels' libraries, each loaded once by its worker with every symbol the sweep takes
 * from it; one that fails is probed kernel by kernel, to name the kernel at fault. */
static int probe_libraries(const struct gl_sweep *s)
{
    struct gl_runner r = gl_sweep_runner(s);
    for (int k = 0; k < s->nk; k++) {
        int run = 0; /* a kernel of the library that the store does not hold */
        for (int j = k; j < s->nk; j++)
            run |= s->k[j].kind == GL_SRC_LIB && gl_kernel_src_lib_lead(s->k, j) == k &&
                   !s->res[j].reused;
        if (s->k[k].kind != GL_SRC_LIB || gl_kernel_src_lib_lead(s->k, k) != k || !run ||
            gl_kernel_src_probe_library(&r, k, NULL, 0) == 0)
            continue;
        for (int j = k; j < s->nk; j++)
            if (s->k[j].kind == GL_SRC_LIB && gl_kernel_src_lib_lead(s->k, j) == k &&
                gl_cli_probe_lib("sweep", s, &s->k[j], NULL, 0) != 0)
                return 2;
        return gl_cli_error("sweep", "cannot load --lib %s with all its kernels' symbols",
                            s->k[k].lib_path);
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct sweep_args *a, int *done)
{
    struct gl_sweep *s = &a->s;
    struct gl_kernel_src *ext = NULL;
    *done = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(sweep_help, stdout);
            *done = 1;
            return 0;
        }
        if (!strcmp(o, "--all")) {
            a->all = 1;
            continue;
        }
        if (!strcmp(o, "--with-emulated") || !strcmp(o, "--no-emulated")) {
            a->with_emulated = o[2] == 'w' ? 1 : -1;
            continue;
        }
        if (!strcmp(o, "--backward")) {
            a->backward = 1;
            continue;
        }
        if (!strcmp(o, "--fresh")) {
            a->fresh = 1;
            continue;
        }
        if (!strcmp(o, "--progress")) {
            s->progress = s->progress ? s->progress : 2;
            continue;
        }
        if (!strcmp(o, "--mpfr-reference")) {
            s->use_fast_ref = 0;
            continue;
        }
        if (!v || o[0] != '-')
            return gl_cli_error("sweep", "unknown argument or missing value: '%s'", o);
        i++;
        if (!strcmp(o, "--format")) {
            if (gl_format_parse(v, &s->fmt) != 0 || s->fmt.id == GL_FMT_MPFR)
                return gl_cli_error("sweep", "unknown format '%s' (f32, bf16, f16, f64)", v);
        } else if (!strcmp(o, "--mode")) {
            if (gl_sweep_mode_parse(v, &s->mode) != 0)
                return gl_cli_error("sweep", "unknown mode '%s' (exhaustive, quick, hunt)", v);
        } else if (!strcmp(o, "--per-stratum")) {
            char *end;
            s->hunt_per = strtoull(v, &end, 10);
            if (*end || gl_sweep_hunt_check(s->hunt_per, -1023, 1023) != 0)
                return gl_cli_error("sweep",
                                    "bad --per-stratum '%s' (1..4096, or a multiple of 4096)", v);
        } else if (!strcmp(o, "--exponents")) {
            char tail;
            if (sscanf(v, "%d:%d%c", &s->hunt_lo, &s->hunt_hi, &tail) != 2 ||
                gl_sweep_hunt_check(1, s->hunt_lo, s->hunt_hi) != 0)
                return gl_cli_error("sweep",
                                    "bad --exponents '%s' (LO:HI, -1023 <= LO <= HI <= 1023)", v);
        } else if (!strcmp(o, "--impl")) {
            const struct gl_impl *im = gl_cli_find_impl("sweep", v);
            if (!im) return gl_cli_error("sweep", "no built-in kernel '%s' (see gelulab list)", v);
            ext = NULL;
            struct gl_kernel_src *k = gl_cli_add_kernel(s);
            snprintf(k->name, sizeof k->name, "%s", im->name); /* resolved after --format */
            k->impl = im;
        } else if (!strcmp(o, "--lib") || !strcmp(o, "--exec") || !strcmp(o, "--serve") ||
                   !strcmp(o, "--python")) {
            ext = gl_cli_add_kernel(s);
            if (o[2] == 'l')
                gl_kernel_src_lib(ext, v, ""); /* the symbol follows */
            else if (o[3] == 'x')
                gl_kernel_src_exec(ext, v);
            else if (o[2] == 'p')
                gl_cli_python_src(ext, v);
            else
                gl_kernel_src_serve(ext, v);
            snprintf(ext->name, sizeof ext->name, "%s:%s", o + 2, v);
        } else if (!strcmp(o, "--serve-lib")) {
            if (!ext || ext->kind != GL_SRC_SERVE || ext->python || ext->serve_lib[0])
                return gl_cli_error("sweep", "--serve-lib must follow --serve ARGS");
            snprintf(ext->serve_lib, sizeof ext->serve_lib, "%s", v);
        } else if (!strcmp(o, "--symbol")) {
            if (!ext || ext->kind != GL_SRC_LIB || ext->lib_symbol[0])
                return gl_cli_error("sweep", "--symbol must follow --lib PATH");
            snprintf(ext->lib_symbol, sizeof ext->lib_symbol, "%s", v);
            snprintf(ext->name, sizeof ext->name, "lib:%s", v);
        } else if (!strcmp(o, "--defn")) {
            if (!ext) return gl_cli_error("sweep", "--defn must follow --lib, --exec or --serve");
            if (gl_defn_parse(v, &ext->defn) != 0 || ext->defn > GL_DEFN_SILU_GRAD)
                return gl_cli_error("sweep", "unknown definition '%s' (exact, tanh, sigmoid, silu)",
                                    v);
        } else if (!strcmp(o, "--abi")) {
            if (!ext) return gl_cli_error("sweep", "--abi must follow --lib, --exec or --serve");
            if (gl_kernel_abi_parse(v, &ext->abi) != 0)
                return gl_cli_error("sweep", "unknown --abi '%s' (f32, bf16, f16)", v);
        } else if (!strcmp(o, "--name")) {
            if (!ext) return gl_cli_error("sweep", "--name must follow --lib, --exec or --serve");
            snprintf(ext->name, sizeof ext->name, "%s", v);
        } else if (!strcmp(o, "--threads")) {
            s->threads = atoi(v);
            if (s->threads < 1 || s->threads > 1024)
                return gl_cli_error("sweep", "bad --threads '%s'", v);
        } else if (!strcmp(o, "--shard")) {
            if (parse_shard(v, &s->shard_k, &s->shard_n) != 0)
                return gl_cli_error("sweep", "bad --shard '%s' (K/N with 1 <= K <= N)", v);
        } else if (!strcmp(o, "--timeout")) {
            s->run.timeout_s = atof(v);
            if (!(s->run.timeout_s > 0)) return gl_cli_error("sweep", "bad --timeout '%s'", v);
        } else if (!strcmp(o, "--store")) {
            a->store = v;
        } else if (!strcmp(o, "--out")) {
            a->out = v;
        } else if (!strcmp(o, "--times")) {
            a->times = v;
        } else {
            return gl_cli_error("sweep", "unknown option '%s' (see gelulab sweep --help)", o);
        }
    }
    return 0;
}

/* Resolves built-ins for the format, checks external kernels. */
static int finish_kernels(struct sweep_args *a)
{
    struct gl_sweep *s = &a->s;
    struct gl_kernel_src *given = s->k;
    int n = s->nk;
    if (s->mode == GL_SWEEP_HUNT && s->fmt.id != GL_FMT_F64)
        return gl_cli_error("sweep", "--mode hunt searches binary64: it needs --format f64");
    free(s->res); /* all zero: nothing run yet */
    s->k = NULL, s->res = NULL;
    s->nk = 0;
    for (int i = 0; i < n; i++) {
        const struct gl_impl *im = given[i].impl;
        if (im && gl_kernel_abi_is16(im->abi) && gl_kernel_abi_format(im->abi) != s->fmt.id)
            return free(given),
                   gl_cli_error("sweep", "%s is a %s kernel: it needs --format %s", im->name,
                                gl_kernel_abi_name(im->abi), gl_kernel_abi_name(im->abi));
        if (im) {
            gl_cli_add_builtin(s, im, 0);
            continue;
        }
        struct gl_kernel_src *k = gl_cli_add_kernel(s);
        *k = given[i];
        if (k->defn == GL_DEFN_COUNT)
            return free(given), gl_cli_error("sweep", "%s needs --defn", k->name);
        if (gl_cli_set_backward("sweep", k, a->backward) != 0 ||
            gl_cli_check_abi("sweep", k, &s->fmt) != 0 || gl_cli_python_command("sweep", k) != 0)
            return free(given), 2;
        if (k->kind == GL_SRC_LIB && !k->lib_symbol[0])
            return free(given), gl_cli_error("sweep", "%s needs --symbol", k->name);
        if (s->fmt.id == GL_FMT_F64)
            return free(given),
                   gl_cli_error("sweep",
                                "--lib/--exec/--serve kernels are binary32: not with --format f64");
    }
    free(given);
    int emulated_too =
        a->with_emulated > 0 ||
        (a->with_emulated == 0 && (s->fmt.id != GL_FMT_F32 || s->mode != GL_SWEEP_EXHAUSTIVE));
    for (size_t i = 0; a->all && i < gl_impl_count(); i++) {
        const struct gl_impl *im = gl_impl_get(i);
        if ((im->isa != GL_ISA_NEON || emulated_too) && gl_defn_is_grad(im->defn) == a->backward)
            gl_cli_add_builtin(s, im, 1);
    }
    if (a->all && !emulated_too && a->with_emulated == 0)
        fprintf(stderr,
                "gelulab sweep: --all leaves out the NEON kernels (qemu runs them at ~0.2-0.4 "
                "us per input: hours for 2^32); --with-emulated includes them\n");
    if (s->nk == 0)
        return gl_cli_error("sweep", "no kernel to sweep (--impl, --all, --lib or --exec)");
    if (a->fresh && !a->store) return gl_cli_error("sweep", "--fresh goes with --store DIR");
    return 0;
}

int gl_cmd_sweep(int argc, char **argv)
{
    struct sweep_args a = {0};
    struct gl_sweep *s = &a.s;
    s->fmt = gl_format_f32;
    s->mode = GL_SWEEP_EXHAUSTIVE;
    s->threads = usable_cpus();
    s->hunt_per = 4096, s->hunt_lo = -1023, s->hunt_hi = 1023;
    s->shard_k = s->shard_n = 1;
    s->run.timeout_s = 120.0;
    s->progress = isatty(2);
    s->run.self_exe = gl_cli_self_exe();
    s->use_fast_ref = 1;
    s->run.stop = (volatile int *)&interrupted;
    int done, rc = parse_args(argc, argv, &a, &done);
    if (rc || done || (rc = finish_kernels(&a)) != 0) {
        gl_sweep_free(s);
        return rc;
    }
    if (s->use_fast_ref) {
        char msg[256];
        if (gl_cli_selfcheck(a.store, a.fresh, msg, sizeof msg) != 0) {
            fprintf(stderr,
                    "gelulab sweep: fast reference disagrees with MPFR here (%s); "
                    "using pure MPFR (slow)\n",
                    msg);
            s->use_fast_ref = 0;
        }
    }
    struct gl_store store;
    char err[PATH_MAX + 300];
    if (a.store) {
        if (gl_store_take(&store, s, a.store, a.fresh, NULL, err, sizeof err) != 0) {
            gl_sweep_free(s);
            return gl_cli_error("sweep", "%s", err);
        }
        fprintf(stderr,
                "gelulab sweep: store %s: %d of %d kernels' results taken from it, %d to "
                "sweep\n",
                a.store, store.reused, s->nk, s->nk - store.reused);
    }
    if (probe_libraries(s) != 0) {
        if (a.store) gl_store_put(&store, s, err, sizeof err);
        gl_sweep_free(s);
        return 2;
    }
    signal(SIGINT, on_sigint);
    signal(SIGTERM, on_sigint);
    rc = gl_sweep_run(s);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    /* the store first: it says which of its kernels a stopped sweep left unmeasured */
    if (a.store) {
        if (gl_store_put(&store, s, err, sizeof err) != 0)
            fprintf(stderr, "gelulab sweep: store: %s (the results below are not affected)\n", err);
        if (store.saved)
            fprintf(stderr, "gelulab sweep: store %s: %d results saved\n", a.store, store.saved);
    }
    for (int k = 0; k < s->nk; k++)
        if (s->res[k].failed) fprintf(stderr, "gelulab sweep: %s\n", s->res[k].error);
    if (rc == 130) fprintf(stderr, "gelulab sweep: interrupted; keeping the finished chunks\n");
    gl_sweep_print_summary(s);
    if (a.out && gl_sweep_write(s, a.out, err, sizeof err) != 0)
        rc = gl_cli_error("sweep", "%s", err);
    if (a.times && gl_sweep_write_times(s, a.times, err, sizeof err) != 0)
        rc = gl_cli_error("sweep", "%s", err);
    gl_sweep_free(s);
    return rc;
}
