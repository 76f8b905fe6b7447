/* Benchmark results (include/gelulab/bench.h): Google Benchmark JSON in, medians and tables out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/bench.h"
#include "gelulab/json.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double t[GL_BENCH_MAXREP];
    memcpy(t, v, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static double cv(const double *v, int n)
{
    double mean = 0, var = 0;
    for (int i = 0; i < n; i++) mean += v[i];
    mean /= n;
    for (int i = 0; i < n; i++) var += (v[i] - mean) * (v[i] - mean);
    return n > 1 && mean > 0 ? sqrt(var / (n - 1)) / mean : 0;
}

/* "gelu-erfc-fast/avx2/4096" or "gelu-erfc-fast/avx2/4096/real_time" -> case "gelu-erfc-fast/avx2",
 * n 4096 */
static int split_name(const char *run_name, char *name, size_t len, size_t *n)
{
    char run[160];
    snprintf(run, sizeof run, "%s", run_name);
    for (int t = 0; t < 2; t++) { /* the suffix of real time, or of a served peer's manual time */
        const char *suffix = t ? "/manual_time" : "/real_time";
        size_t rl = strlen(run), sl = strlen(suffix);
        if (rl > sl && !strcmp(run + rl - sl, suffix)) run[rl - sl] = '\0';
    }
    const char *slash = strrchr(run, '/');
    if (!slash || slash == run || (size_t)(slash - run) >= len) return -1;
    char *end;
    unsigned long long v = strtoull(slash + 1, &end, 10);
    if (end == slash + 1 || *end) return -1;
    memcpy(name, run, (size_t)(slash - run));
    name[slash - run] = '\0';
    *n = (size_t)v;
    return 0;
}

static void label_field(const char *label, const char *key, char *out, size_t len)
{
    const char *p = label ? strstr(label, key) : NULL;
    snprintf(out, len, "%s", "-");
    if (!p) return;
    p += strlen(key);
    size_t k = strcspn(p, " ");
    snprintf(out, len, "%.*s", (int)(k < len - 1 ? k : len - 1), p);
}

static struct gl_bench_row *row_for(struct gl_bench *b, const char *name, size_t n, size_t *cap)
{
    for (size_t i = 0; i < b->nrows; i++)
        if (b->rows[i].n == n && !strcmp(b->rows[i].name, name)) return &b->rows[i];
    if (b->nrows == *cap)
        b->rows = realloc(b->rows, (*cap = *cap ? 2 * *cap : 64) * sizeof *b->rows);
    struct gl_bench_row *r = &b->rows[b->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->n = n;
    return r;
}

static int cmp_row(const void *a, const void *b)
{
    const struct gl_bench_row *x = a, *y = b;
    return x->index != y->index ? (x->index > y->index) - (x->index < y->index)
                                : (x->n > y->n) - (x->n < y->n);
}

/* The fields of a run that a row keeps: case name and size, items/s, cycles/element, the label's
 * kind, defn and isa, and the case's index. -1 when it is not a gelulab-bench run. */
static int parse_run(const struct gl_json *e, char *name, size_t len, size_t *n, double *eps,
                     double *cyc)
{
    const struct gl_json *run = gl_json_get(e, "run_name"), *v = gl_json_get(e, "items_per_second"),
                         *c = gl_json_get(e, "cycles_per_elem");
    if (!run || !run->text || !v || split_name(run->text, name, len, n) != 0) return -1;
    *eps = gl_json_num(v), *cyc = c ? gl_json_num(c) : 0;
    return 0;
}

static void set_label(struct gl_bench_row *r, const struct gl_json *e)
{
    const struct gl_json *label = gl_json_get(e, "label"), *index = gl_json_get(e, "case_index");
    label_field(label ? label->text : NULL, "kind=", r->kind, sizeof r->kind);
    label_field(label ? label->text : NULL, "defn=", r->defn, sizeof r->defn);
    label_field(label ? label->text : NULL, "isa=", r->isa, sizeof r->isa);
    label_field(label ? label->text : NULL, "lib=", r->lib, sizeof r->lib);
    label_field(label ? label->text : NULL, "fmt=", r->fmt, sizeof r->fmt);
    label_field(label ? label->text : NULL, "timed=", r->timed, sizeof r->timed);
    if (!strcmp(r->timed, "-")) snprintf(r->timed, sizeof r->timed, "process");
    if (!strcmp(r->fmt, "-")) r->fmt[0] = '\0'; /* not a 16-bit case */
    r->index = index ? (int)gl_json_num(index) : 0;
}

/* Entries of run_type "iteration" (one per repetition): medians and CV computed here. */
static int read_iterations(struct gl_bench *b, const struct gl_json *runs, size_t *cap, char *err,
                           size_t errlen)
{
    for (size_t i = 0; i < runs->n; i++) {
        const struct gl_json *e = &runs->items[i], *type = gl_json_get(e, "run_type"),
                             *error = gl_json_get(e, "error_occurred");
        if (type && type->text && strcmp(type->text, "iteration")) continue;
        if (error && error->text && !strcmp(error->text, "true"))
            continue; /* a case that failed (gelulab-bench said why): no figures */
        char name[64];
        size_t n;
        double eps, cyc;
        if (parse_run(e, name, sizeof name, &n, &eps, &cyc) != 0) {
            snprintf(err, errlen,
                     "benchmark entry %zu is not a gelulab-bench run (name/size, items_per_second)",
                     i);
            return -1;
        }
        struct gl_bench_row *r = row_for(b, name, n, cap);
        if (r->reps == GL_BENCH_MAXREP) continue;
        set_label(r, e);
        r->eps[r->reps] = eps, r->cyc[r->reps] = cyc;
        r->reps++;
    }
    for (size_t i = 0; i < b->nrows; i++) {
        struct gl_bench_row *r = &b->rows[i];
        r->eps_median = median(r->eps, r->reps), r->eps_cv = cv(r->eps, r->reps);
        r->cyc_median = median(r->cyc, r->reps);
    }
    return 0;
}

/* Cases present only as aggregates (--benchmark_report_aggregates_only=true): Google Benchmark's
 * own median (items/s, cycles/element) and cv over its "repetitions"; no per-repetition values. */
static void read_aggregates(struct gl_bench *b, const struct gl_json *runs, size_t *cap)
{
    size_t had = b->nrows;
    for (size_t i = 0; i < runs->n; i++) {
        const struct gl_json *e = &runs->items[i], *type = gl_json_get(e, "run_type"),
                             *agg = gl_json_get(e, "aggregate_name"),
                             *reps = gl_json_get(e, "repetitions");
        char name[64];
        size_t n;
        double eps, cyc;
        if (!type || !type->text || strcmp(type->text, "aggregate") || !agg || !agg->text ||
            parse_run(e, name, sizeof name, &n, &eps, &cyc) != 0)
            continue;
        int median_row = !strcmp(agg->text, "median"), cv_row = !strcmp(agg->text, "cv");
        if (!median_row && !cv_row) continue;
        const struct gl_bench_row *known = gl_bench_find(b, name, n);
        if (known && known < b->rows + had) continue; /* it has its repetitions */
        struct gl_bench_row *r = row_for(b, name, n, cap);
        r->reps = reps ? (int)gl_json_num(reps) : 0;
        if (median_row) set_label(r, e), r->eps_median = eps, r->cyc_median = cyc;
        if (cv_row) r->eps_cv = eps;
    }
}

static int read_runs(struct gl_bench *b, const struct gl_json *runs, char *err, size_t errlen)
{
    size_t cap = 0;
    if (read_iterations(b, runs, &cap, err, errlen) != 0) return -1;
    read_aggregates(b, runs, &cap);
    qsort(b->rows, b->nrows, sizeof *b->rows, cmp_row);
    return 0;
}

int gl_bench_read(const char *path, struct gl_bench *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    char *text = gl_json_read_file(path, err, errlen), jerr[200];
    if (!text) return -1;
    struct gl_json *j = gl_json_parse(text, jerr, sizeof jerr);
    free(text);
    if (!j) {
        snprintf(err, errlen, "%s: %s", path, jerr);
        return -1;
    }
    const struct gl_json *ctx = gl_json_get(j, "context"), *runs = gl_json_get(j, "benchmarks");
    int rc = 0;
    if (!runs || runs->type != GL_JSON_ARR) {
        snprintf(err, errlen, "%s: not Google Benchmark JSON (no \"benchmarks\" array)", path);
        rc = -1;
    } else if (read_runs(b, runs, err, errlen) != 0) {
        rc = -1;
    } else if (!b->nrows) {
        snprintf(err, errlen, "%s: no benchmark runs in the file", path);
        rc = -1;
    }
    const struct gl_json *v;
    if (ctx && (v = gl_json_get(ctx, "date")) && v->text)
        snprintf(b->date, sizeof b->date, "%s", v->text);
    if (ctx && (v = gl_json_get(ctx, "host_name")) && v->text)
        snprintf(b->host, sizeof b->host, "%s", v->text);
    if (ctx && (v = gl_json_get(ctx, "num_cpus"))) b->num_cpus = (int)gl_json_num(v);
    if (ctx && (v = gl_json_get(ctx, "gelulab_compare")) && v->text)
        snprintf(b->compare, sizeof b->compare, "%s", v->text);
    if (ctx && (v = gl_json_get(ctx, "gelulab_compare_title")) && v->text)
        snprintf(b->compare_title, sizeof b->compare_title, "%s", v->text);
    if (ctx && (v = gl_json_get(ctx, "mhz_per_cpu"))) b->mhz = gl_json_num(v);
    const struct gl_json *caches = ctx ? gl_json_get(ctx, "caches") : NULL;
    for (size_t i = 0; caches && caches->type == GL_JSON_ARR && i < caches->n; i++) {
        const struct gl_json *c = &caches->items[i], *ty = gl_json_get(c, "type");
        const struct gl_json *lv = gl_json_get(c, "level"), *sz = gl_json_get(c, "size");
        int level = lv ? (int)gl_json_num(lv) : 0;
        if (level >= 1 && level <= 3 && sz && ty && ty->text && strcmp(ty->text, "Instruction"))
            b->cache[level - 1] = gl_json_num(sz);
    }
    gl_json_free(j);
    if (rc) gl_bench_free(b);
    return rc;
}

static int merge(struct gl_bench *b, const struct gl_bench *run, const char *path, char *err,
                 size_t errlen)
{
    if (!b->compare[0] || strcmp(b->compare, run->compare))
        return snprintf(err, errlen, "%s: its compare peer '%s' is not the main run's '%s'", path,
                        run->compare, b->compare),
               -1;
    size_t add = 0; /* the rows b lacks, each with the compare peer at its size in both runs */
    for (size_t i = 0; i < run->nrows; i++) {
        const struct gl_bench_row *r = &run->rows[i];
        if (gl_bench_find(b, r->name, r->n)) continue;
        const struct gl_bench_row *cm = gl_bench_find(b, b->compare, r->n),
                                  *cr = gl_bench_find(run, run->compare, r->n);
        if (!cm || !cr || !(cm->eps_median > 0) || !(cr->eps_median > 0))
            return snprintf(err, errlen,
                            "%s: no %s at %zu floats in both runs: %s cannot be put on the main "
                            "run's scale",
                            path, b->compare, r->n, r->name),
                   -1;
        add++;
    }
    struct gl_bench_row *rows = realloc(b->rows, (b->nrows + add) * sizeof *rows);
    if (!rows) return snprintf(err, errlen, "%s: out of memory", path), -1;
    b->rows = rows;
    int index = 0;
    for (size_t i = 0; i < b->nrows; i++)
        if (b->rows[i].index >= index) index = b->rows[i].index + 1;
    for (size_t i = 0; i < run->nrows; i++) { /* (found above, where a row is added) */
        const struct gl_bench_row *r = &run->rows[i];
        if (gl_bench_find(b, r->name, r->n)) continue;
        double k = gl_bench_find(b, b->compare, r->n)->eps_median /
                   gl_bench_find(run, run->compare, r->n)->eps_median;
        struct gl_bench_row *o = &b->rows[b->nrows++];
        *o = *r;
        o->scaled = k, o->index = index + r->index;
        for (int j = 0; j < o->reps; j++) o->eps[j] *= k, o->cyc[j] /= k;
        o->eps_median *= k, o->cyc_median /= k;
    }
    qsort(b->rows, b->nrows, sizeof *b->rows, cmp_row);
    return 0;
}

int gl_bench_add_run(struct gl_bench *b, const char *path, char *err, size_t errlen)
{
    struct gl_bench run;
    if (gl_bench_read(path, &run, err, errlen)) return -1;
    int rc = merge(b, &run, path, err, errlen);
    gl_bench_free(&run);
    return rc;
}

void gl_bench_free(struct gl_bench *b)
{
    free(b->rows);
    b->rows = NULL;
    b->nrows = 0;
}

const struct gl_bench_row *gl_bench_find(const struct gl_bench *b, const char *name, size_t n)
{
    for (size_t i = 0; i < b->nrows; i++)
        if (b->rows[i].n == n && !strcmp(b->rows[i].name, name)) return &b->rows[i];
    return NULL;
}

size_t gl_bench_sizes(const struct gl_bench *b, size_t *sizes, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        size_t j = 0;
        while (j < k && sizes[j] != b->rows[i].n) j++;
        if (j == k && k < max) sizes[k++] = b->rows[i].n;
    }
    for (size_t i = 1; i < k; i++) /* insertion sort */
        for (size_t j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
            size_t t = sizes[j];
            sizes[j] = sizes[j - 1], sizes[j - 1] = t;
        }
    return k;
}

void gl_bench_size_name(size_t n, char *buf, size_t len)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, len, "%zuMi", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%zuKi", n >> 10);
    else
        snprintf(buf, len, "%zu", n);
}

/* the cases in file order, each once */
static size_t case_list(const struct gl_bench *b, const struct gl_bench_row **first, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < b->nrows && k < max; i++) {
        size_t j = 0;
        while (j < k && strcmp(first[j]->name, b->rows[i].name)) j++;
        if (j == k) first[k++] = &b->rows[i];
    }
    return k;
}

static void print_ratios(const struct gl_bench *b, const struct gl_bench_row *const *cases,
                         size_t nc, const size_t *sizes, size_t ns, const char *base)
{
    int mem = !strcmp(base, "memcpy");
    printf("\nelements/s as a ratio to %s%s (same run):\n%-30s", base,
           mem ? " (16-bit cases: to memcpy16)" : "", "case");
    for (size_t s = 0; s < ns; s++) {
        char sn[16];
        gl_bench_size_name(sizes[s], sn, sizeof sn);
        printf(" %8s", sn);
    }
    putchar('\n');
    for (size_t c = 0; c < nc; c++) {
        printf("%-30s", cases[c]->name);
        for (size_t s = 0; s < ns; s++) {
            const char *to = mem && cases[c]->fmt[0] ? "memcpy16" : base;
            const struct gl_bench_row *r = gl_bench_find(b, cases[c]->name, sizes[s]),
                                      *q = gl_bench_find(b, to, sizes[s]);
            if (r && q && q->eps_median > 0)
                printf(" %8.3f", r->eps_median / q->eps_median);
            else
                printf(" %8s", "-");
        }
        putchar('\n');
    }
}

void gl_bench_print(const struct gl_bench *b, const char *path)
{
    size_t sizes[16], ns = gl_bench_sizes(b, sizes, 16);
    const struct gl_bench_row *cases[512];
    size_t nc = case_list(b, cases, 512);
    printf("%s: %s, %s, %d CPUs at %.0f MHz; medians over repetitions\n\n", path, b->date, b->host,
           b->num_cpus, b->mhz);
    printf("%-30s %-10s %-7s %-7s %-9s", "case", "kind", "defn", "isa", "timed in");
    for (size_t s = 0; s < ns; s++) {
        char sn[16];
        gl_bench_size_name(sizes[s], sn, sizeof sn);
        printf(" %8s", sn);
    }
    printf("  Melem/s | cyc/elem (smallest, largest) | max CV | reps\n");
    for (size_t c = 0; c < nc; c++) {
        const struct gl_bench_row *r0 = cases[c];
        double maxcv = 0, cyc0 = 0, cyc1 = 0;
        int reps = 0;
        char name[80];
        snprintf(name, sizeof name, "%s%s", r0->name, r0->scaled ? "*" : "");
        printf("%-30s %-10s %-7s %-7s %-9s", name, r0->kind, r0->defn, r0->isa, r0->timed);
        for (size_t s = 0; s < ns; s++) {
            const struct gl_bench_row *r = gl_bench_find(b, r0->name, sizes[s]);
            if (!r) {
                printf(" %8s", "-");
                continue;
            }
            printf(" %8.1f", r->eps_median * 1e-6);
            maxcv = r->eps_cv > maxcv ? r->eps_cv : maxcv;
            if (s == 0) cyc0 = r->cyc_median;
            cyc1 = r->cyc_median, reps = r->reps;
        }
        printf("          | %8.2f %8.2f             | %5.1f%% | %d\n", cyc0, cyc1, 100 * maxcv,
               reps);
    }
    for (size_t c = 0; c < nc; c++)
        if (cases[c]->scaled) {
            printf("\n* timed in a run of its own (gelulab-bench --peers-of), put on this run's "
                   "scale by %s, timed in both\n",
                   b->compare);
            break;
        }
    for (size_t c = 0; c < nc; c++)
        if (!strcmp(cases[c]->timed, "framework")) {
            printf("\ntimed in: process, this benchmark's own calls; framework, a served peer's "
                   "calls timed inside its framework's process (Python: the framework's call in a "
                   "loop on its own tensor, the pipe excluded)\n");
            break;
        }
    print_ratios(b, cases, nc, sizes, ns, "memcpy");
    if (b->compare[0]) print_ratios(b, cases, nc, sizes, ns, b->compare);
}
