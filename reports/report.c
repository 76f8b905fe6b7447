/* gelulab report (reports/report.h): loads the result files, derives the per-kernel rows and
 * the Pareto front, then writes the charts and REPORT.md (the sections' files); what they all
 * read of the loaded data is in report_data.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report.h"
#include "report_int.h"

static int need(const char *in, const char *file, const char *made_by, char *err, size_t errlen)
{
    char p[1200];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", in, file);
    if (stat(p, &st) == 0) return 0;
    snprintf(err, errlen, "missing input %s (made by %s)", p, made_by);
    return -1;
}

static int load_sweep(const struct rep *r, const char *file, struct gl_sweep *s, char *err,
                      size_t errlen)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", r->in, file);
    return gl_sweep_read(s, p, err, errlen);
}

static const struct gl_json *facts_kernel(const struct rep *r, const char *name)
{
    const struct gl_json *ks = rep_fact(r, "kernels", NULL);
    for (size_t i = 0; ks && i < ks->n; i++) {
        const struct gl_json *n = gl_json_get(&ks->items[i], "name");
        if (n && n->text && !strcmp(n->text, name)) return &ks->items[i];
    }
    return NULL;
}

void *rep_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "gelulab report: out of memory\n");
        exit(1);
    }
    return p;
}

/* Pareto-optimal (rep_pareto_front): no other benchmarked kernel is at least as cheap and as
 * accurate (max ULP against exact GELU on the core) and strictly better in one; an entry point
 * of the library stands aside: its build stands for it. */
static void pareto(struct rep *r)
{
    double *cost = rep_calloc((size_t)r->nrk, sizeof *cost),
           *err = rep_calloc((size_t)r->nrk, sizeof *err);
    int *front = rep_calloc((size_t)r->nrk, sizeof *front);
    for (int i = 0; i < r->nrk; i++)
        cost[i] = rep_lib_entry(r->rk[i].k) ? 0 : r->rk[i].cyc, err[i] = rep_core_exact(&r->rk[i]);
    int nf = rep_pareto_front(r->nrk, cost, err, front);
    for (int i = 0; i < r->nrk; i++) r->rk[i].pareto = 0;
    for (int f = 0; f < nf; f++) r->rk[front[f]].pareto = 1;
    free(cost), free(err), free(front);
}

static void derive(struct rep *r)
{
    r->nsizes = gl_bench_sizes(&r->bench, r->sizes, REP_MAXSIZES);
    r->pareto_size = r->nsizes > 1 ? r->sizes[1] : r->nsizes ? r->sizes[0] : 0; /* 4 Ki */
    r->nrk = r->f32.nk;
    r->rk = rep_calloc((size_t)r->nrk, sizeof *r->rk);
    for (int i = 0; i < r->nrk; i++) {
        struct rep_kernel *k = &r->rk[i];
        k->k = &r->f32.k[i], k->res = &r->f32.res[i];
        k->facts = facts_kernel(r, k->k->name);
        const struct gl_json *fam = k->facts ? gl_json_get(k->facts, "family") : NULL,
                             *isa = k->facts ? gl_json_get(k->facts, "isa") : NULL;
        k->family = fam && fam->text ? fam->text : "external";
        k->isa = isa && isa->text ? isa->text : "-";
        const struct gl_bench_row *b = gl_bench_find(&r->bench, k->k->name, r->pareto_size);
        const struct rep_peer *p = rep_peer_find(r, k->k->name);
        if (!k->facts && p) /* a peer swept through --lib or --serve */
            k->family = "peer", k->isa = p->isa;
        else if (!k->facts && b && !strcmp(b->kind, "peer"))
            k->family = "peer", k->isa = b->isa;
        for (size_t s = 0; s < r->nsizes; s++) k->eps[s] = rep_eps(r, k->k->name, r->sizes[s]);
        k->cyc = rep_cyc(r, k->k->name, r->pareto_size);
        /* a build of a built-in algorithm listed (whose contract is the same bits on every
         * ISA); a peer's builds are other code (Eigen's -mavx and -mavx2): twins only by bits */
        size_t len = strcspn(k->k->name, "/");
        for (int j = 0; j < i && k->facts && k->k->name[len] == '/' && !rep_lib_entry(k->k); j++)
            if (!strncmp(r->f32.k[j].name, k->k->name, len + 1)) k->twin = 1;
        k->same_as = rep_same_as(&r->f32, i);
        if (k->same_as >= 0) k->twin = 1;
        /* a library entry point (swept before the built-ins) is the twin of the build it runs,
         * never the lead of its group: curves and Pareto points stay under the kernel's name */
        if (rep_lib_entry(k->k)) k->family = "library", k->twin = 1, k->isa = b ? b->isa : "-";
    }
    pareto(r);
}

int gl_report(const char *in, const char *out, char *err, size_t errlen)
{
    static const char *const files[][2] = {
        {"f32.json", "gelulab sweep --all --format f32 --out IN/f32.json"},
        {"f32.binades.csv", "gelulab sweep --out IN/f32.json"},
        {"f32.hist.csv", "gelulab sweep --out IN/f32.json"},
        {"bf16.json", "gelulab sweep --all --format bf16 --out IN/bf16.json"},
        {"f16.json", "gelulab sweep --all --format f16 --out IN/f16.json"},
        {"f64.json", "gelulab sweep --all --format f64 --out IN/f64.json"},
        {"bench.json", "gelulab-bench --benchmark_out=IN/bench.json --benchmark_out_format=json"},
        {"facts.json", "gelulab facts --out IN"},
        {"curves.csv", "gelulab facts --out IN"},
        {"errors.csv", "gelulab facts --out IN"},
        {"moons.json", "gelulab moons --out IN/moons.json"}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (need(in, files[i][0], files[i][1], err, errlen)) return -1;
    struct rep r;
    memset(&r, 0, sizeof r);
    r.in = in, r.out = out;
    mkdir(out, 0777);
    char p[1200], jerr[200];
    int rc = -1;
    if (load_sweep(&r, "f32.json", &r.f32, err, errlen) ||
        load_sweep(&r, "bf16.json", &r.bf16, err, errlen) ||
        load_sweep(&r, "f16.json", &r.f16, err, errlen) ||
        load_sweep(&r, "f64.json", &r.f64, err, errlen))
        goto done;
    snprintf(p, sizeof p, "%s/bench.json", in);
    if (gl_bench_read(p, &r.bench, err, errlen)) goto done;
    snprintf(p, sizeof p, "%s/bench-*.json", in); /* bench-MODULE.json */
    rep_bench_add_runs(&r.bench, p);
    snprintf(p, sizeof p, "%s/facts.json", in);
    char *text = gl_json_read_file(p, err, errlen);
    if (!text) goto done;
    r.facts = gl_json_parse(text, jerr, sizeof jerr);
    free(text);
    if (!r.facts || !rep_fact(&r, "claims", NULL) || !rep_fact(&r, "machine", NULL)) {
        snprintf(err, errlen, "%s: %s", p, r.facts ? "not a gelulab facts file" : jerr);
        goto done;
    }
    snprintf(p, sizeof p, "%s/moons.json", in);
    if (!(text = gl_json_read_file(p, err, errlen))) goto done;
    r.moons = gl_json_parse(text, jerr, sizeof jerr);
    free(text);
    const struct gl_json *schema = r.moons ? gl_json_get(r.moons, "schema") : NULL;
    if (!schema || !schema->text || strcmp(schema->text, "gelulab-moons/1")) {
        snprintf(err, errlen, "%s: %s", p, r.moons ? "not a gelulab moons file" : jerr);
        goto done;
    }
    if (rep_peers_load(&r, err, errlen) || rep_backward_load(&r, err, errlen) ||
        rep_dist_load(&r, err, errlen))
        goto done;
    derive(&r);
    rc = rep_charts(&r, err, errlen) || rep_moons_chart(&r, err, errlen) ||
                 rep_backward_charts(&r, err, errlen) || rep_markdown(&r, err, errlen)
             ? -1
             : 0;
done:
    if (rep_render_wait(rc ? NULL : err, rc ? 0 : errlen)) rc = -1; /* every chart's gnuplot */
    gl_sweep_free(&r.f32), gl_sweep_free(&r.bf16), gl_sweep_free(&r.f16), gl_sweep_free(&r.f64);
    gl_sweep_free(&r.bwd);
    gl_bench_free(&r.bench);
    if (r.facts) gl_json_free(r.facts);
    if (r.moons) gl_json_free(r.moons);
    free(r.rk);
    rep_peers_free(&r);
    rep_dist_free(&r);
    return rc;
}
