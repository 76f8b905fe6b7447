/* Speed by input distribution: the binary32 exact-GELU cases timed once per distribution of
 * inputs (make_report.sh: gelulab-bench --dist=D into IN/dist-D.json, a run of its own per
 * library that needs one into IN/dist-D-MODULE.json, or IN/dist-D.skipped with the reason), in
 * one table of REPORT.md. Uniform inputs are the main run's (IN/bench.json): without a
 * dist-uniform.json, the table takes its cases from that run (make report times them there
 * at 4 Ki and 64 Ki already; QUICK's main run has no 64 Ki, so it runs --dist=uniform). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report_int.h"

static const char *const dist_names[REP_NDIST] = {"uniform", "normal", "minilm"};
static const char *const dist_titles[REP_NDIST] = {"uniform [−8, 8]", "N(0, 1)", "MiniLM"};

int rep_dist_load(struct rep *r, char *err, size_t errlen)
{
    for (int d = 0; d < REP_NDIST; d++) {
        struct rep_dist *rd = &r->dist[d];
        char p[1200];
        snprintf(p, sizeof p, "%s/dist-%s.json", r->in, dist_names[d]);
        if (access(p, F_OK) == 0) {
            if (gl_bench_read(p, &rd->b, err, errlen)) return -1;
            rd->have = 1, rd->run = &rd->b;
            snprintf(p, sizeof p, "%s/dist-%s-*.json", r->in, dist_names[d]);
            rep_bench_add_runs(&rd->b, p); /* dist-D-MODULE.json */
            continue;
        }
        if (d == 0 && gl_bench_find(&r->bench, "memcpy", 4096) &&
            gl_bench_find(&r->bench, "memcpy",
                          65536)) { /* uniform: the main run's, if it has both sizes */
            rd->run = &r->bench;
            continue;
        }
        snprintf(p, sizeof p, "%s/dist-%s.skipped", r->in, dist_names[d]);
        FILE *f = fopen(p, "r");
        if (f) {
            if (!fgets(rd->skipped, sizeof rd->skipped, f)) rd->skipped[0] = 0;
            rd->skipped[strcspn(rd->skipped, "\n")] = 0;
            fclose(f);
        }
        if (!rd->skipped[0])
            snprintf(rd->skipped, sizeof rd->skipped, "not measured for this data (%s)",
                     "make_report.sh's bench stage writes IN/dist-*.json");
    }
    char p[1200];
    snprintf(p, sizeof p, "%s/minilm-inputs.json", r->in);
    char *text = gl_json_read_file(p, NULL, 0);
    if (text) {
        char jerr[200];
        r->minilm = gl_json_parse(text, jerr, sizeof jerr);
        free(text);
    }
    return 0;
}

void rep_dist_free(struct rep *r)
{
    for (int d = 0; d < REP_NDIST; d++)
        if (r->dist[d].have) gl_bench_free(&r->dist[d].b);
    if (r->minilm) gl_json_free(r->minilm);
}

/* an exact-GELU binary32 peer's row (the peers the ratios are to) */
static int exact_peer(const struct gl_bench_row *w)
{
    return !strcmp(w->kind, "peer") && !strcmp(w->defn, "exact") && !w->fmt[0];
}

/* a case the table shows: memcpy and the binary32 exact-GELU forward cases, peers and the vector
 * builds of gelulab's kernels (make_report.sh's filter of the --dist runs) */
static int dist_case(const struct gl_bench_row *w)
{
    return !strcmp(w->name, "memcpy") || exact_peer(w) ||
           (!strcmp(w->kind, "gelulab") && !strcmp(w->defn, "exact") && !w->fmt[0] &&
            strcmp(w->isa, "scalar"));
}

/* the fastest exact-GELU binary32 peer of run b at size n, or NULL */
static const struct gl_bench_row *fastest_peer(const struct gl_bench *b, size_t n)
{
    const struct gl_bench_row *best = NULL;
    for (size_t i = 0; i < b->nrows; i++) {
        const struct gl_bench_row *w = &b->rows[i];
        if (w->n == n && exact_peer(w) && (!best || w->eps_median > best->eps_median)) best = w;
    }
    return best;
}

/* case NAME's cell at size n of run b: Melem/s and the ratio to p, the run's fastest exact peer
 * at that size (none: NULL) */
static void cell(FILE *f, const struct gl_bench *b, const char *name, size_t n,
                 const struct gl_bench_row *p)
{
    const struct gl_bench_row *w = gl_bench_find(b, name, n);
    if (!w) {
        fprintf(f, " – |");
        return;
    }
    fprintf(f, " %.0f%s", w->eps_median / 1e6, rep_row_mark(w));
    if (p && strcmp(name, "memcpy")) fprintf(f, " (%.2f×)", w->eps_median / p->eps_median);
    fprintf(f, " |");
}

void rep_dist_md(FILE *f, const struct rep *r)
{
    static const size_t sizes[] = {4096, 65536};
    const struct gl_bench *runs[REP_NDIST];
    const struct gl_bench_row *fastest[REP_NDIST][2]; /* per run and size */
    const char *titles[REP_NDIST];
    int nruns = 0, first = -1;
    for (int d = 0; d < REP_NDIST; d++)
        if (r->dist[d].run) {
            if (first < 0) first = d;
            for (size_t s = 0; s < 2; s++)
                fastest[nruns][s] = fastest_peer(r->dist[d].run, sizes[s]);
            runs[nruns] = r->dist[d].run, titles[nruns++] = dist_titles[d];
        }
    fprintf(f, "\n## Speed by input distribution\n\n");
    for (int d = 0; d < REP_NDIST; d++)
        if (!r->dist[d].run)
            fprintf(f, "%s inputs: skipped: %s.\n\n", dist_titles[d], r->dist[d].skipped);
    if (first < 0) return;
    fprintf(f,
            "A kernel with a slow path runs at a speed that depends on its inputs (gelu-fast and "
            "gelu-accurate: the lanes with |x| > 3.5, their contracts' `tail`). Each "
            "binary32 exact-GELU case that runs here (the vector builds, the peers, memcpy "
            "for what moving the data costs) timed on three inputs on one core: uniform on [−8, 8] "
            "(%s), "
            "N(0, 1) and ",
            r->dist[0].run == &r->bench ? "the figures of the main benchmark run"
                                        : "a run of its own; the inputs of the other figures");
    const struct gl_json *m = r->minilm, *st = gl_json_get(m, "stats");
    if (m)
        fprintf(f,
                "MiniLM: the inputs of the GELUs of %s (PyPI `%s==%s`) run on the project's "
                "%.0f sentences (`bench/minilm_sentences.txt`), %.0f values in [%.4g, %.4g], "
                "%.2f %% of them beyond |x| = 3.5 (`make deps-activations`).",
                rep_str(gl_json_get(m, "model")), rep_str(gl_json_get(m, "package")),
                rep_str(gl_json_get(m, "version")), rep_num(gl_json_get(m, "sentences")),
                rep_num(gl_json_get(m, "count")), rep_num(gl_json_get(st, "min")),
                rep_num(gl_json_get(st, "max")),
                100 * rep_num(gl_json_get(gl_json_get(st, "frac_abs_gt"), "3.5")));
    else
        fprintf(f, "MiniLM: the inputs of the GELUs of all-MiniLM-L6-v2 (`make "
                   "deps-activations`).");
    fprintf(f, " Median Melem/s; in brackets the ratio to the fastest exact-GELU peer of the same "
               "run at that size (its last row); " REP_MARKS ".\n\n"
               "| case (Melem/s, × the fastest exact peer) |");
    for (int i = 0; i < nruns; i++)
        for (size_t s = 0; s < 2; s++) {
            char sz[16];
            gl_bench_size_name(sizes[s], sz, sizeof sz);
            fprintf(f, " %s, %s |", titles[i], sz);
        }
    fprintf(f, "\n|---|");
    for (int i = 0; i < 2 * nruns; i++) fprintf(f, "---|");
    fprintf(f, "\n");
    const struct gl_bench *lead = r->dist[first].run; /* its cases, in gelulab-bench's order */
    for (size_t i = 0; i < lead->nrows; i++) {
        const struct gl_bench_row *w = &lead->rows[i];
        if (i && !strcmp(w->name, lead->rows[i - 1].name)) continue; /* one row per case */
        if (lead == &r->bench && !dist_case(w)) continue; /* a dist run holds only those */
        fprintf(f, "| %s |", w->name);
        for (int k = 0; k < nruns; k++)
            for (size_t s = 0; s < 2; s++) cell(f, runs[k], w->name, sizes[s], fastest[k][s]);
        fprintf(f, "\n");
    }
    fprintf(f, "| *fastest exact peer* |");
    for (int k = 0; k < nruns; k++)
        for (size_t s = 0; s < 2; s++)
            fprintf(f, " %s |", fastest[k][s] ? fastest[k][s]->name : "–");
    fprintf(f, "\n");
    /* the main run's exact peers that no run of its own timed on other inputs */
    int left = 0;
    for (size_t i = 0; i < r->bench.nrows; i++) {
        const struct gl_bench_row *w = &r->bench.rows[i];
        if (!exact_peer(w) || (i && !strcmp(w->name, r->bench.rows[i - 1].name))) continue;
        int timed = 0;
        for (int k = 0; k < nruns && !timed; k++)
            timed = runs[k] != &r->bench && (gl_bench_find(runs[k], w->name, sizes[0]) ||
                                             gl_bench_find(runs[k], w->name, sizes[1]));
        if (timed || lead == &r->bench) continue;
        fprintf(f, "%s%s",
                left++ ? ", " : "\nNot timed on these inputs (the main run only): ", w->name);
    }
    if (left)
        fprintf(f, "%s.\n",
                !strcmp(rep_str(rep_fact(r, "machine", "report_mode")), "quick")
                    ? " (`QUICK=1` leaves the peers of the serving libraries, "
                      "whose frameworks each run would start again, out of these runs)"
                    : "");
}
