/* gelulab report (reports/report.h): loads the result files, derives the per-kernel rows and
 * the Pareto front, then writes the charts and REPORT.md. */
#include <glob.h>
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

FILE *rep_open(const struct rep *r, const char *name, char *err, size_t errlen)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", r->out, name);
    FILE *f = fopen(p, "w");
    if (!f) snprintf(err, errlen, "cannot write %s", p);
    return f;
}

static size_t add_library(char *buf, size_t used, size_t len, const char *lib)
{
    const char *p = buf;
    for (size_t l = strlen(lib); (p = strstr(p, lib)); p += l)
        if ((p == buf || p[-1] == ' ') && (p[l] == ',' || p[l] == '\0')) return used;
    if (used + strlen(lib) + 3 < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", lib);
    return used;
}

void rep_peer_libraries(const struct rep *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->nrk && r->npeers; i++) {
        const struct rep_peer *p = rep_peer_find(r, r->rk[i].k->name);
        if (p) used = add_library(buf, used, len, p->library);
    }
    for (size_t i = 0; i < r->bench.nrows && !r->npeers; i++) {
        const struct gl_bench_row *b = &r->bench.rows[i];
        if (strcmp(b->kind, "peer") || !strcmp(b->lib, "-")) continue;
        used = add_library(buf, used, len, b->lib);
    }
    if (!used) snprintf(buf, len, "none");
}

double rep_num(const struct gl_json *j)
{
    return j ? gl_json_num(j) : NAN;
}

const char *rep_str(const struct gl_json *j)
{
    return j && j->text ? j->text : "?";
}

void rep_bench_add_runs(struct gl_bench *b, const char *pattern)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char why[600]; /* its peers are then not timed in the report: said, not fatal */
        if (gl_bench_add_run(b, g.gl_pathv[i], why, sizeof why))
            fprintf(stderr, "gelulab report: warning: a run of its own not merged: %s\n", why);
    }
    globfree(&g);
}

const struct gl_json *rep_fact(const struct rep *r, const char *section, const char *key)
{
    const struct gl_json *s = gl_json_get(r->facts, section);
    return s && key ? gl_json_get(s, key) : s;
}

/* whether the space-separated list `flags` holds `flag` */
static int has_flag(const char *flags, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = flags; (p = strstr(p, flag)) != NULL; p += n)
        if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

const char *rep_isa_phrase(const struct rep *r)
{
    static char buf[160];
    const struct gl_json *fl = rep_fact(r, "machine", "cpu_flags");
    const char *f = fl && fl->text ? fl->text : NULL;
    if (!f || !strcmp(f, "unknown")) return "";
    static const char *const avx512[][2] = {{"avx512f", "F"},        {"avx512dq", "DQ"},
                                            {"avx512bw", "BW"},      {"avx512vl", "VL"},
                                            {"avx512_vnni", "VNNI"}, {"avx512_bf16", "BF16"},
                                            {"avx512_fp16", "FP16"}};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof avx512 / sizeof avx512[0]; i++)
        if (has_flag(f, avx512[i][0]))
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s",
                                     used ? "/" : ", AVX-512 ", avx512[i][1]);
    if (!used)
        snprintf(buf, sizeof buf, "%s",
                 has_flag(f, "avx2") && has_flag(f, "fma") ? ", AVX2 and FMA, no AVX-512"
                 : has_flag(f, "asimd")                    ? ", NEON"
                                                           : ", neither AVX2 nor AVX-512");
    return buf;
}

double rep_pct(uint64_t a, uint64_t n)
{
    return n ? 100.0 * (double)a / (double)n : 0;
}

double rep_eps(const struct rep *r, const char *name, size_t n)
{
    const struct gl_bench_row *row = gl_bench_find(&r->bench, name, n);
    return row ? row->eps_median : 0;
}

const char *rep_timed_mark(const struct rep *r, const char *name)
{
    const struct gl_bench_row *row = gl_bench_find(&r->bench, name, r->pareto_size);
    return row && !strcmp(row->timed, "framework") ? "ᶠ" : "";
}

double rep_cyc(const struct rep *r, const char *name, size_t n)
{
    const struct gl_bench_row *row = gl_bench_find(&r->bench, name, n);
    return row ? row->cyc_median : 0;
}

int rep_same_bits(const struct gl_kernel_src *a, const struct gl_kernel_src *b)
{
    uint64_t h = a->acc[0]->traits.out_hash; /* 0: a file without traits */
    return h && a->defn == b->defn && b->acc[0]->traits.out_hash == h;
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

/* max ULP against exact GELU on [-5, 5]: the accuracy axis of the Pareto front */
double rep_core_exact(const struct rep_kernel *k)
{
    return k->k->acc[1]->region[GL_REGION_CORE].max_ulp;
}

/* Pareto-optimal: no other benchmarked kernel is at least as cheap and as accurate (max ULP
 * against exact GELU on the core) and strictly better in one. */
static void pareto(struct rep *r)
{
    for (int i = 0; i < r->nrk; i++) {
        struct rep_kernel *a = &r->rk[i];
        a->pareto = a->cyc > 0 && !rep_lib_entry(a->k); /* an entry point: its build stands */
        for (int j = 0; j < r->nrk && a->pareto; j++) {
            const struct rep_kernel *b = &r->rk[j];
            if (j == i || b->cyc <= 0 || rep_lib_entry(b->k)) continue;
            if (b->cyc <= a->cyc && rep_core_exact(b) <= rep_core_exact(a) &&
                (b->cyc < a->cyc || rep_core_exact(b) < rep_core_exact(a)))
                a->pareto = 0;
        }
    }
}

int rep_lib_entry(const struct gl_kernel_src *k)
{
    return k->kind == GL_SRC_LIB && !strncmp(k->name, "lib/", 4);
}

int rep_twin_lead(const struct rep *r, int i)
{
    while (i >= 0 && r->rk[i].twin) {
        const struct rep_kernel *k = &r->rk[i];
        int lead = k->same_as;
        size_t len = strcspn(k->k->name, "/");
        for (int j = 0; j < i && lead < 0 && k->facts; j++)
            if (!strncmp(r->rk[j].k->name, k->k->name, len + 1)) lead = j;
        if (lead >= i) return -1;
        i = lead;
    }
    return i;
}

int rep_same_as(const struct gl_sweep *s, int k)
{
    int lib = rep_lib_entry(&s->k[k]);
    for (int j = 0; j < (lib ? s->nk : k); j++)
        if (j != k && !rep_lib_entry(&s->k[j]) && rep_same_bits(&s->k[k], &s->k[j])) return j;
    return -1;
}

static void derive(struct rep *r)
{
    r->nsizes = gl_bench_sizes(&r->bench, r->sizes, REP_MAXSIZES);
    r->pareto_size = r->nsizes > 1 ? r->sizes[1] : r->nsizes ? r->sizes[0] : 0; /* 4 Ki */
    r->nrk = r->f32.nk;
    r->rk = calloc((size_t)r->nrk, sizeof *r->rk);
    for (int i = 0; i < r->nrk; i++) {
        struct rep_kernel *k = &r->rk[i];
        k->k = &r->f32.k[i];
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
    rc = rep_charts(&r, err, errlen) || rep_backward_charts(&r, err, errlen) ||
                 rep_markdown(&r, err, errlen)
             ? -1
             : 0;
done:
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
