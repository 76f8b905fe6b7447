/* The loaded report's data as every section reads it (reports/report_int.h): output files,
 * facts, benchmark figures, bit-identical kernels. Called by report.c and the sections; calls
 * neither. */
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_int.h"

FILE *rep_open(const struct rep *r, const char *name, char *err, size_t errlen)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", r->out, name);
    FILE *f = fopen(p, "w");
    if (!f) snprintf(err, errlen, "cannot write %s", p);
    return f;
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

int rep_cpu_has(const struct rep *r, const char *flag)
{
    const struct gl_json *fl = rep_fact(r, "machine", "cpu_flags");
    return fl && fl->text && has_flag(fl->text, flag);
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

/* The microarchitectures gelulab can name from the CPU's vendor, family and model (as
 * /proc/cpuinfo gives them, decimal): AMD's from its families 23 (17h), 25 (19h) and 26 (1Ah),
 * Intel's server parts of family 6 (Cascade and Cooper Lake share Skylake-SP's model: by
 * stepping). A CPU not here is named by family and model alone. */
static const struct {
    const char *vendor;
    int family, model_lo, model_hi, stepping_lo, stepping_hi;
    const char *name;
} uarchs[] = {
    {"AuthenticAMD", 23, 0x00, 0x2f, 0, 15, "Zen or Zen+"},
    {"AuthenticAMD", 23, 0x30, 0x3f, 0, 15, "Zen 2"},
    {"AuthenticAMD", 23, 0x60, 0x7f, 0, 15, "Zen 2"},
    {"AuthenticAMD", 25, 0x00, 0x0f, 0, 15, "Zen 3"},
    {"AuthenticAMD", 25, 0x20, 0x2f, 0, 15, "Zen 3"},
    {"AuthenticAMD", 25, 0x40, 0x5f, 0, 15, "Zen 3"},
    {"AuthenticAMD", 25, 0x10, 0x1f, 0, 15, "Zen 4"},
    {"AuthenticAMD", 25, 0x60, 0x7f, 0, 15, "Zen 4"},
    {"AuthenticAMD", 25, 0xa0, 0xaf, 0, 15, "Zen 4"},
    {"AuthenticAMD", 26, 0x00, 0x4f, 0, 15, "Zen 5"},
    {"GenuineIntel", 6, 0x3f, 0x3f, 0, 15, "Haswell-EP"},
    {"GenuineIntel", 6, 0x4f, 0x4f, 0, 15, "Broadwell-EP"},
    {"GenuineIntel", 6, 0x55, 0x55, 0, 4, "Skylake-SP"},
    {"GenuineIntel", 6, 0x55, 0x55, 5, 7, "Cascade Lake"},
    {"GenuineIntel", 6, 0x55, 0x55, 10, 11, "Cooper Lake"},
    {"GenuineIntel", 6, 0x6a, 0x6a, 0, 15, "Ice Lake-SP"},
    {"GenuineIntel", 6, 0x6c, 0x6c, 0, 15, "Ice Lake-D"},
    {"GenuineIntel", 6, 0x8f, 0x8f, 0, 15, "Sapphire Rapids"},
    {"GenuineIntel", 6, 0xcf, 0xcf, 0, 15, "Emerald Rapids"},
    {"GenuineIntel", 6, 0xad, 0xad, 0, 15, "Granite Rapids"},
};

const char *rep_cpu_uarch(const struct rep *r)
{
    const struct gl_json *id = rep_fact(r, "machine", "cpu_id");
    char vendor[32];
    int family, model, stepping = 0;
    if (!id || !id->text ||
        sscanf(id->text, "%31s family %d model %d stepping %d", vendor, &family, &model,
               &stepping) < 3)
        return NULL;
    for (size_t i = 0; i < sizeof uarchs / sizeof uarchs[0]; i++)
        if (!strcmp(uarchs[i].vendor, vendor) && uarchs[i].family == family &&
            model >= uarchs[i].model_lo && model <= uarchs[i].model_hi &&
            stepping >= uarchs[i].stepping_lo && stepping <= uarchs[i].stepping_hi)
            return uarchs[i].name;
    return NULL;
}

double rep_pct(uint64_t a, uint64_t n)
{
    return n ? 100.0 * (double)a / (double)n : 0;
}

const char *rep_pct_cr(uint64_t cr, uint64_t n, char *buf, size_t len)
{
    double p = rep_pct(cr, n);
    if (cr < n && p >= 99.995)
        snprintf(buf, len, "> 99.99");
    else if (cr > 0 && p < 0.005)
        snprintf(buf, len, "< 0.01");
    else
        snprintf(buf, len, "%.2f", p);
    return buf;
}

const char *rep_ulp(double u, char *buf, size_t len)
{
    snprintf(buf, len, "%.3g", u);
    if (u > 0.5 && !strcmp(buf, "0.5")) snprintf(buf, len, "%.9g", u);
    return buf;
}

/* the upper edge of the bin of hist that holds the q-quantile of its n counts, as a cell */
static void bin_cell(const uint64_t *hist, uint64_t n, double q, char *buf, size_t len)
{
    uint64_t want = (uint64_t)ceil(q * (double)n), sum = 0;
    int b = 0;
    while (b < GL_HIST_BINS - 1 && (sum += hist[b]) < want) b++;
    double u = gl_hist_upper(b);
    if (isinf(u))
        snprintf(buf, len, "> 2^%d", (int)log2(gl_hist_upper(GL_HIST_BINS - 2)));
    else if (u <= 2)
        snprintf(buf, len, "≤ %g", u);
    else
        snprintf(buf, len, "≤ 2^%d", (int)log2(u));
}

void rep_typical(const struct gl_acc *a, char *buf, size_t len)
{
    uint64_t n = 0;
    for (int b = 0; b < GL_HIST_BINS; b++) n += a->hist[b];
    if (!n) {
        snprintf(buf, len, "-");
        return;
    }
    char m[32], p[32];
    bin_cell(a->hist, n, 0.5, m, sizeof m), bin_cell(a->hist, n, 0.999, p, sizeof p);
    snprintf(buf, len, "%s / %s", m, p);
}

double rep_eps(const struct rep *r, const char *name, size_t n)
{
    const struct gl_bench_row *row = gl_bench_find(&r->bench, name, n);
    return row ? row->eps_median : 0;
}

int rep_framework_row(const struct gl_bench_row *row)
{
    return row && !strcmp(row->timed, "framework");
}

int rep_framework_timed(const struct rep *r, const char *name)
{
    return rep_framework_row(gl_bench_find(&r->bench, name, r->pareto_size));
}

const char *rep_row_mark(const struct gl_bench_row *row)
{
    int fw = rep_framework_row(row), sc = row && row->scaled;
    return fw && sc ? "ᶠˢ" : fw ? "ᶠ" : sc ? "ˢ" : "";
}

const char *rep_timed_mark(const struct rep *r, const char *name)
{
    return rep_row_mark(gl_bench_find(&r->bench, name, r->pareto_size));
}

const char *rep_noise_mark(const struct rep *r, const char *name, size_t n)
{
    const struct gl_bench_row *row = gl_bench_find(&r->bench, name, n);
    return row && row->eps_cv > REP_NOISY ? "~" : "";
}

double rep_cyc(const struct rep *r, const char *name, size_t n)
{
    const struct gl_bench_row *row = gl_bench_find(&r->bench, name, n);
    return row ? row->cyc_median : 0;
}

int rep_same_bits(const struct gl_sweep *s, const struct gl_kernel_src *a,
                  const struct gl_kernel_src *b)
{
    uint64_t h = gl_sweep_res(s, a)->acc[0]->traits.out_hash; /* 0: a file without traits */
    return h && a->defn == b->defn && gl_sweep_res(s, b)->acc[0]->traits.out_hash == h;
}

/* max ULP against exact GELU on [-5, 5]: the accuracy axis of the Pareto front */
double rep_core_exact(const struct rep_kernel *k)
{
    return k->res->acc[1]->region[GL_REGION_CORE].max_ulp;
}

int rep_lib_entry(const struct gl_kernel_src *k)
{
    return k->kind == GL_SRC_LIB && !strncmp(k->name, "lib/", 4);
}

static double pareto_cost(const struct rep *r, const struct gl_sweep *s, int k)
{
    return rep_cyc(r, s->k[k].name, r->pareto_size);
}

int rep_pareto_same(const struct rep *r, const struct gl_sweep *s, int k, int j)
{
    return j != k && pareto_cost(r, s, j) > 0 && !rep_lib_entry(&s->k[j]) &&
           rep_same_bits(s, &s->k[k], &s->k[j]);
}

int rep_pareto_drawn(const struct rep *r, const struct gl_sweep *s, int k, int *more)
{
    double c = pareto_cost(r, s, k);
    int cheaper = 0; /* another of k's group is drawn instead: cheaper, or as cheap and earlier */
    *more = 0;
    if (!(c > 0) || rep_lib_entry(&s->k[k])) return 0;
    for (int j = 0; j < s->nk; j++) {
        if (!rep_pareto_same(r, s, k, j)) continue;
        double cj = pareto_cost(r, s, j);
        ++*more;
        cheaper |= cj < c || (cj == c && j < k);
    }
    return !cheaper;
}

void rep_zero_sign_md(FILE *f, const struct gl_sweep *s, const char *lead, int abi16)
{
    int any = 0;
    fputs(lead, f);
    if (s->no_zero_sign) { /* result files of a gelulab that did not count them */
        fputs("not counted in these result files (written before gelulab counted them).\n", f);
        return;
    }
    for (int k = 0; k < s->nk; k++) {
        const struct gl_stats *a = &s->res[k].acc[0]->all;
        if (!a->zero_sign || (abi16 && !gl_kernel_abi_is16(s->k[k].abi))) continue;
        char cr[2][16];
        fprintf(f, "%s`%s` %llu of its results (%.2f %%; %% CR %s, %s but for the sign of zero)",
                any++ ? "; " : "", s->k[k].name, (unsigned long long)a->zero_sign,
                rep_pct(a->zero_sign, a->n),
                rep_pct_cr(a->correctly_rounded, a->n, cr[0], sizeof cr[0]),
                rep_pct_cr(a->correctly_rounded + a->zero_sign, a->n, cr[1], sizeof cr[1]));
    }
    fprintf(f, "%s.\n", any ? "" : "none");
}

void rep_pareto_groups_md(FILE *f, const struct rep *r, const struct gl_sweep *s)
{
    int any = 0, more;
    for (int i = 0; i < s->nk; i++) {
        if (!rep_pareto_drawn(r, s, i, &more) || !more) continue;
        fprintf(f, "%s`%s` (+%d): ",
                any++ ? "; "
                      : "\nThe chart's points that stand for several kernels with bit-identical "
                        "results (the cheapest drawn and named, (+N) the others): ",
                s->k[i].name, more);
        for (int j = 0, m = 0; j < s->nk; j++)
            if (rep_pareto_same(r, s, i, j)) fprintf(f, "%s`%s`", m++ ? ", " : "", s->k[j].name);
    }
    if (any) fprintf(f, ".\n");
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
        if (j != k && !rep_lib_entry(&s->k[j]) && rep_same_bits(s, &s->k[k], &s->k[j])) return j;
    return -1;
}

int rep_pareto_front(int n, const double *cost, const double *err, int *front)
{
    int nf = 0;
    for (int i = 0; i < n; i++) {
        int on = cost[i] > 0;
        for (int j = 0; j < n && on; j++) /* j dominates i: i is off */
            on = !(j != i && cost[j] > 0 && cost[j] <= cost[i] && err[j] <= err[i] &&
                   (cost[j] < cost[i] || err[j] < err[i]));
        if (!on) continue;
        int at = nf++; /* by cost, then error: insertion */
        for (; at > 0 && (cost[front[at - 1]] > cost[i] ||
                          (cost[front[at - 1]] == cost[i] && err[front[at - 1]] > err[i]));
             at--)
            front[at] = front[at - 1];
        front[at] = i;
    }
    return nf;
}

void rep_by_cost(const struct rep *r, int *idx, int n)
{
    for (int i = 1; i < n; i++) /* insertion: stable */
        for (int j = i; j > 0 && r->rk[idx[j]].cyc < r->rk[idx[j - 1]].cyc; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
}
