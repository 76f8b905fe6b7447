/* gelulab moons — the two-moons experiment over activations and seeds (moons/moons.c,
 * docs/moons.md). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/moons.h"
#include "gelulab/store.h"

static const char help[] =
    "usage: gelulab moons [--seeds N] [--first-seed S] [--act NAME[,NAME...]]... [--samples N]\n"
    "                     [--noise X] [--test-frac F] [--hidden W[,W...]] [--epochs N]\n"
    "                     [--batch N] [--lr X] [--threads N] [--out FILE.json] [--progress]\n"
    "                     [--store DIR [--fresh]]\n"
    "\n"
    "Trains the same small network on scikit-learn-style two moons once per activation and\n"
    "seed (same seed: same data, initial weights and batch order), then compares the\n"
    "activations over the seeds: test accuracy and final training loss (mean, sd, 95 %\n"
    "interval) and paired t-tests against gelu-exact and relu (Holm-adjusted).\n"
    "The network runs in binary64; the activation takes and returns binary32 values, from a\n"
    "gelulab kernel or the definition correctly rounded; the backward pass uses the exact\n"
    "derivative of the activation's definition. Bit-identical results for the same seed on\n"
    "the same build, whatever --threads.\n"
    "\n"
    "  --seeds N        seeds (default 30; 20 or more for the intervals to mean much)\n"
    "  --first-seed S   seeds S, S+1, ... (default 1)\n"
    "  --act LIST       activations: relu, gelu-exact, gelu-tanh, gelu-sigmoid, silu, or kernels\n"
    "                   from 'gelulab list' (default: the five definitions and the fastest\n"
    "                   build of each gelulab kernel family runnable here, and gelu-tanh-lut-f16)\n"
    "  --samples N      points (default 2000)        --noise X    noise sd (default 0.2)\n"
    "  --test-frac F    test share (default 0.2)     --hidden W   hidden widths (default 16,16)\n"
    "  --epochs N       epochs (default 100)         --batch N    mini-batch (default 32)\n"
    "  --lr X           Adam learning rate (default 0.001)\n"
    "  --threads N      worker threads (default: all cores)\n"
    "  --out FILE.json  the result file (docs/moons.md); the table goes to stdout\n"
    "  --progress       progress on stderr even when it is not a terminal (a line every 10 s)\n"
    "  --store DIR      a finished experiment kept in DIR (its table and --out file), keyed by\n"
    "                   the experiment's code, its settings, the kernels' code hashes, the CPU\n"
    "                   and the libraries; the same key again prints it without training\n"
    "                   (make report); --fresh: train, and keep\n"
    "Ctrl-C stops after the runs in progress and keeps the seeds finished for every activation.\n";

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

#define MAX_ACTS 64
struct moons_args {
    struct gl_moons_exp e;
    struct gl_act acts[MAX_ACTS];
    const char *out, *store;
    int fresh;
};

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

static int parse_double(const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi)) return -1;
    *out = x;
    return 0;
}

static int add_acts(struct moons_args *a, char *list)
{
    char err[300];
    for (char *save, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (a->e.nacts == MAX_ACTS)
            return gl_cli_error("moons", "more than %d activations", MAX_ACTS);
        for (int i = 0; i < a->e.nacts; i++)
            if (!strcmp(a->acts[i].name, t))
                return gl_cli_error("moons", "activation '%s' twice", t);
        if (gl_act_parse(t, &a->acts[a->e.nacts++], err, sizeof err))
            return gl_cli_error("moons", "%s", err);
    }
    return 0;
}

static int parse_hidden(struct gl_moons_cfg *c, char *v)
{
    c->nhidden = 0;
    for (char *save, *t = strtok_r(v, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long w;
        if (c->nhidden == GL_MLP_MAXLAYERS - 1 || parse_long(t, 1, 4096, &w)) return -1;
        c->hidden[c->nhidden++] = (int)w;
    }
    return 0;
}

static int parse_opt(struct moons_args *a, const char *o, char *v)
{
    struct gl_moons_cfg *c = &a->e.cfg;
    long n;
    double x;
    int bad = 0;
    if (!strcmp(o, "--seeds"))
        bad = parse_long(v, 1, 100000, &n), a->e.nseeds = (int)n;
    else if (!strcmp(o, "--first-seed"))
        bad = parse_long(v, 0, 1L << 40, &n), a->e.first_seed = (uint64_t)n;
    else if (!strcmp(o, "--act"))
        return add_acts(a, v);
    else if (!strcmp(o, "--samples"))
        bad = parse_long(v, 10, 10000000, &n), c->samples = (size_t)n;
    else if (!strcmp(o, "--noise"))
        bad = parse_double(v, 0, 100, &c->noise);
    else if (!strcmp(o, "--test-frac"))
        bad = parse_double(v, 0.01, 0.99, &c->test_frac);
    else if (!strcmp(o, "--hidden"))
        bad = parse_hidden(c, v);
    else if (!strcmp(o, "--epochs"))
        bad = parse_long(v, 0, 1000000, &n), c->epochs = (int)n;
    else if (!strcmp(o, "--batch"))
        bad = parse_long(v, 1, 1000000, &n), c->batch = (size_t)n;
    else if (!strcmp(o, "--lr"))
        bad = parse_double(v, 1e-12, 10, &x), c->lr = x;
    else if (!strcmp(o, "--threads"))
        bad = parse_long(v, 1, 1024, &n), a->e.threads = (int)n;
    else if (!strcmp(o, "--out"))
        a->out = v;
    else if (!strcmp(o, "--store"))
        a->store = v;
    else
        return gl_cli_error("moons", "unknown option '%s' (try --help)", o);
    return bad ? gl_cli_error("moons", "bad value for %s: '%s'", o, v) : 0;
}

static int parse(int argc, char **argv, struct moons_args *a, int *done)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(help, stdout);
            *done = 1;
            return 0;
        }
        if (!strcmp(o, "--progress")) {
            a->e.progress = a->e.progress ? a->e.progress : 2;
            continue;
        }
        if (!strcmp(o, "--fresh")) {
            a->fresh = 1;
            continue;
        }
        if (i + 1 >= argc)
            return gl_cli_error("moons", "unknown argument or missing value: '%s'", o);
        int rc = parse_opt(a, o, argv[++i]);
        if (rc) return rc;
    }
    if (a->e.nacts == 0) {
        const char *names[MAX_ACTS];
        int n = gl_act_default_list(names, MAX_ACTS);
        char err[300];
        for (int i = 0; i < n; i++)
            if (gl_act_parse(names[i], &a->acts[a->e.nacts++], err, sizeof err))
                return gl_cli_error("moons", "%s", err);
    }
    if (a->fresh && !a->store) return gl_cli_error("moons", "--fresh goes with --store DIR");
    if (a->e.cfg.samples * a->e.cfg.test_frac < 1 ||
        a->e.cfg.samples * (1 - a->e.cfg.test_frac) < 1)
        return gl_cli_error("moons", "--samples %zu with --test-frac %g leaves an empty set",
                            a->e.cfg.samples, a->e.cfg.test_frac);
    return 0;
}

/* What identifies the activations: each one's kind, definition and kernels' code hashes */
static int acts_text(const struct moons_args *a, char *buf, size_t len)
{
    size_t n = 0;
    for (int i = 0; i < a->e.nacts; i++) {
        const struct gl_act *t = &a->acts[i];
        const char *ic = t->impl ? t->impl->code_hash : "-",
                   *gc = t->grad ? t->grad->code_hash : "-";
        int w = snprintf(
            buf + n, len - n, "act %s kind %d defn %s binary64 %d impl %s %s grad %s %s\n", t->name,
            (int)t->kind, gl_defn_name(t->defn), t->binary64, t->impl ? t->impl->name : "-",
            ic ? ic : "?", t->grad ? t->grad->name : "-", gc ? gc : "?");
        if (w < 0 || (size_t)w >= len - n || !ic || !gc) return -1;
        n += (size_t)w;
    }
    return 0;
}

static int moons_run(struct moons_args *a);
static int moons_call(void *a)
{
    return moons_run(a);
}

int gl_cmd_moons(int argc, char **argv)
{
    static struct moons_args a;
    memset(&a, 0, sizeof a);
    gl_moons_cfg_default(&a.e.cfg);
    a.e.acts = a.acts, a.e.nseeds = 30, a.e.first_seed = 1;
    a.e.threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    a.e.progress = isatty(2);
    a.e.stop = (volatile int *)&interrupted;
    /* parse cuts the lists of a copy (strtok_r): argv stays whole for the store's key */
    static char **args; /* kept to the end: the options point into it */
    args = calloc((size_t)argc + 1, sizeof *args);
    for (int i = 0; args && i < argc; i++)
        if (!(args[i] = strdup(argv[i]))) return gl_cli_error("moons", "out of memory");
    if (!args) return gl_cli_error("moons", "out of memory");
    int done = 0, rc = parse(argc, args, &a, &done);
    if (rc || done) return rc;
    if (a.out) { /* fail before hours of training, not after */
        FILE *f = fopen(a.out, "a");
        if (!f) return gl_cli_error("moons", "cannot write %s", a.out);
        fclose(f);
    }
    if (!a.store) return moons_run(&a);
    static const char *const drop[] = {
        "--out=", "--store=", "--threads=", "--fresh", "--progress", NULL};
    enum { KEY_MAX = 1 << 15 };
    static char text[KEY_MAX], acts[KEY_MAX];
    char err[300];
    if (acts_text(&a, acts, sizeof acts) != 0 ||
        gl_output_store_key(text, sizeof text, "moons", argc, argv, drop, acts) != 0) {
        fprintf(stderr, "gelulab moons: store: the experiment cannot be identified: run, not "
                        "stored\n");
        return moons_run(&a);
    }
    if (gl_output_store_run("moons", a.store, a.fresh, text, a.out, 0, moons_call, &a, &rc, err,
                            sizeof err) < 0)
        return gl_cli_error("moons", "%s", err);
    return rc;
}

/* The experiment run, its table printed and its file written: the exit status */
static int moons_run(struct moons_args *a)
{
    int rc;
    signal(SIGINT, on_sigint);
    rc = gl_moons_exp_run(&a->e);
    signal(SIGINT, SIG_DFL);
    if (rc) {
        gl_moons_exp_free(&a->e);
        return gl_cli_error("moons", "out of memory");
    }
    if (a->e.seeds_done < a->e.nseeds)
        fprintf(stderr, "gelulab moons: interrupted; keeping the %d seeds finished\n",
                a->e.seeds_done);
    gl_moons_exp_print(&a->e, stdout);
    char err[300];
    if (a->out && gl_moons_exp_write(&a->e, a->out, err, sizeof err))
        rc = gl_cli_error("moons", "%s", err);
    gl_moons_exp_free(&a->e);
    return rc ? rc : a->e.seeds_done < a->e.nseeds ? 130 : 0;
}
