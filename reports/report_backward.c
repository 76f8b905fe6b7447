/* The report's backward-pass section (reports/report_int.h): IN/bwd.json (`gelulab sweep
 * --backward`, every binary32 x with dy = 1: the results are f'(x)), the backward cases of
 * IN/bench.json (kinds gelulab-bwd, peer-bwd, baseline-bwd) and the diagnoses of the backward
 * peers and of our kernels' widest builds
 * (IN/validate/NAME.json, `gelulab validate --backward --probes-only`). A table, a Pareto chart
 * (scaled error against cycles per element) and a per-binade ULP chart; without bwd.json the
 * section says which command makes it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gelulab/metrics.h"
#include "report_int.h"

int rep_backward_load(struct rep *r, char *err, size_t errlen)
{
    char p[1200];
    struct stat st;
    snprintf(p, sizeof p, "%s/bwd.json", r->in);
    r->have_bwd = stat(p, &st) == 0;
    return r->have_bwd ? gl_sweep_read(&r->bwd, p, err, errlen) : 0;
}

/* the kernel of bwd.json whose results k repeats (rep_same_as), or -1 */
static int same_as(const struct rep *r, int k)
{
    return rep_same_as(&r->bwd, k);
}

static double cycles(const struct rep *r, const char *name)
{
    return rep_cyc(r, name, r->pareto_size);
}

/* scaled error (absolute, in ulps of 1) over all inputs, against the kernel's own derivative
 * (acc 0) or against exact GELU's (acc 1: the Pareto chart's, as the forward chart's is
 * against exact GELU, so that a tanh kernel is not on the front for matching its own
 * approximation) */
static double scaled_all(const struct rep *r, const struct gl_kernel_src *k, int acc)
{
    return gl_scaled_ulp(gl_sweep_res(&r->bwd, k)->acc[acc]->all.max_abs, &r->bwd.fmt);
}

static double scaled_exact(const struct rep *r, const struct gl_kernel_src *k)
{
    return scaled_all(r, k, 1);
}

/* log10 of an error as the chart draws it: below REP_FLOOR_ULP (zero included), at it */
static double floored_log(double e)
{
    return log10(e > REP_FLOOR_ULP ? e : REP_FLOOR_ULP);
}

/* the backward Pareto front: of the kernels the chart draws (rep_pareto_drawn), those that no
 * other is at least as cheap and as accurate as (by the max scaled error against exact GELU')
 * and better than in one, by cost (cheapest first) in front[]; their count */
static int bwd_front(const struct rep *r, int *front)
{
    int n = 0, drawn[256];
    double cost[256], err[256];
    for (int k = 0, more; k < r->bwd.nk && n < 256; k++)
        if (rep_pareto_drawn(r, &r->bwd, k, &more))
            drawn[n] = k, cost[n] = cycles(r, r->bwd.k[k].name),
            err[n++] = scaled_exact(r, &r->bwd.k[k]);
    int nf = rep_pareto_front(n, cost, err, front);
    for (int f = 0; f < nf; f++) front[f] = drawn[front[f]];
    return nf;
}

/* Accuracy against cost of the backward kernels and peers: of kernels with bit-identical
 * results the cheapest (rep_pareto_drawn), (+N) the others; each name where it fits beside its
 * point (rep_place_labels), else a
 * number listed under the chart; the key below the x axis */
static int chart_pareto_bwd(const struct rep *r, char *err, size_t errlen)
{
    FILE *out = rep_open(r, "charts/backward_pareto.dat", err, errlen);
    if (!out) return -1;
    int n = 0, idx[256], first[256], floored = 0, front[256], nf = bwd_front(r, front);
    double px[256], py[256], range[4] = {1e300, -1e300, 1e300, -1e300}, fx[256], fy[256];
    char text[256][96];
    for (int k = 0, more; k < r->bwd.nk && n < 256; k++) {
        double c = cycles(r, r->bwd.k[k].name), e = scaled_exact(r, &r->bwd.k[k]);
        if (!rep_pareto_drawn(r, &r->bwd, k, &more)) continue;
        idx[n] = k, first[n] = r->bwd.k[k].kind == GL_SRC_BUILTIN; /* gelulab's named first */
        for (int f = 0; f < nf; f++) first[n] |= front[f] == k;    /* and the front's */
        px[n] = log10(c), py[n] = floored_log(e), floored |= !(e > REP_FLOOR_ULP);
        snprintf(text[n], sizeof text[n], more ? "%s%s (+%d)" : "%s%s", r->bwd.k[k].name,
                 rep_timed_mark(r, r->bwd.k[k].name), more);
        range[0] = fmin(range[0], floor(px[n])), range[1] = fmax(range[1], floor(px[n]) + 1);
        range[2] = fmin(range[2], floor(py[n])),
        range[3] = fmax(range[3], py[n] + 0.6); /* labels */
        n++;
    }
    if (floored) range[2] = log10(REP_FLOOR_ULP) - 0.5; /* the floor's tic in the frame */
    /* the frame BWD_FRAME points high between the title (five lines) and the x axis, the key
     * below */
    enum { BWD_FRAME = 212, BWD_LEFT = 34, BWD_RIGHT = 14, BWD_TOP = 42 };
    double lx[256], ly[256], ex[256], ey[256];
    char names[256][96], list[4000] = "", numbered[sizeof list + 100] = "";
    int numbers = 0, right[256];
    size_t used = 0, line = 0;
    memcpy(names, text, sizeof names);
    for (int f = 0; f < nf; f++) { /* the front's line: an obstacle to the labels */
        double e = scaled_exact(r, &r->bwd.k[front[f]]);
        fx[f] = log10(cycles(r, r->bwd.k[front[f]].name)), fy[f] = floored_log(e);
    }
    rep_place_labels(n, px, py, text, first, fx, fy, nf, range, REP_COL_PT - BWD_LEFT - BWD_RIGHT,
                     BWD_FRAME, &numbers, lx, ly, right, ex, ey);
    int lines = rep_numbered_list(n, names, text, 0, numbers, list, sizeof list, &used, &line);
    double h = BWD_TOP + BWD_FRAME + 30 + (lines ? 6.5 * lines + 5 : 0);
    if (lines) /* the list under the key */
        snprintf(numbered, sizeof numbered,
                 "set label 1000 \"%s\" at screen 0.01, screen %g left font ',5' "
                 "noenhanced\n",
                 list, (6.5 * lines - 2) / h);
    for (int i = 0; i < n; i++)
        fprintf(out, "%.6g,%.6g,%s,%d,%.6g,%.6g,%.6g,%.6g,%s,%d\n", pow(10, px[i]), pow(10, py[i]),
                names[i], r->bwd.k[idx[i]].kind != GL_SRC_BUILTIN, lx[i], ly[i], ex[i], ey[i],
                text[i], right[i]);
    fclose(out);
    FILE *fo = rep_open(r, "charts/backward_front.dat", err, errlen); /* by cost */
    if (!fo) return -1;
    for (int f = 0; f < nf; f++) fprintf(fo, "%.6g,%.6g\n", pow(10, fx[f]), pow(10, fy[f]));
    fclose(fo);
    char body[8000];
    if (!n)
        return rep_render(r, "backward_pareto",
                          "set title 'Backward pass: accuracy against cost'\nset label 'no "
                          "backward kernel was benchmarked' at graph 0.1,0.5\nplot [1:10] [1:10] "
                          "1e30 notitle\n",
                          REP_MIN_H, err, errlen);
    char front_dat[4200], points_dat[4200], marks[8800], layers[13400];
    snprintf(front_dat, sizeof front_dat, "%s/charts/backward_front.dat", r->out);
    snprintf(points_dat, sizeof points_dat, "%s/charts/backward_pareto.dat", r->out);
    snprintf(marks, sizeof marks,
             "'%s' using 1:2 w p " REP_MARK_FRONT " notitle, '%s' using ($4 == 0 ? $1 : NaN):2 w "
             "p " REP_MARK_OWN " notitle, '' using ($4 == 1 ? $1 : NaN):2 w p " REP_MARK_PEER
             " notitle",
             front_dat, points_dat);
    if (rep_label_layers(layers, sizeof layers, points_dat, "1", marks))
        return snprintf(err, errlen, "chart backward_pareto: its label layers run past %zu bytes",
                        sizeof layers),
               -1;
    int k = snprintf(
        body, sizeof body,
        "set title \"Backward pass: max scaled error against exact GELU′ (ulps of 1, all\\nfinite "
        "results, dy = 1) vs TSC cycles per element at %zu floats of uniform\\ninputs on [-8, 8); "
        "of "
        "kernels with bit-identical results the cheapest,\\n(+N): N others; grey: a leader; ᶠ: "
        "timed in its framework's process,\\nˢ: in a run of its own\" noenhanced "
        "offset 0,-0.3\n"
        "set logscale xy\nset format y '10^{%%L}'\n"
        "set xrange [%g:%g]\nset yrange [%g:%g]\nset xlabel 'cycles per element "
        "(time-stamp counter, one core)' offset 0,0.6\nset ylabel 'max |dx - GELU′(x)| / "
        "ulp(1)'\n%sset lmargin at screen %g\nset rmargin at screen %g\n"
        "set tmargin at screen %g\nset bmargin at screen %g\n"
        "set key at screen 0.5, screen %g center bottom horizontal samplen 1.5\n%s" REP_LABEL_BOX
        /* the front first: a peer's triangle on it stays in sight; the leaders, the labels and
         * the markers again (rep_label_layers) */
        "plot '%s' using 1:2 w lp " REP_MARK_FRONT " lw 2 t 'Pareto front', '%s' using ($4 == 0 "
        "? $1 : NaN):2 w p " REP_MARK_OWN
        " t 'gelulab', '' using ($4 == 1 ? $1 : NaN):2 w p " REP_MARK_PEER " t 'peers', %s\n",
        r->pareto_size, pow(10, range[0]), pow(10, range[1]), pow(10, range[2]), pow(10, range[3]),
        floored ? rep_floor_tic() : "", (double)BWD_LEFT / REP_COL_PT,
        1 - (double)BWD_RIGHT / REP_COL_PT, 1 - BWD_TOP / h, 1 - (BWD_TOP + BWD_FRAME) / h,
        (lines ? 6.5 * lines + 5 : 1) / h, numbered, front_dat, points_dat, layers);
    if (k < 0 || (size_t)k >= sizeof body)
        return snprintf(err, errlen,
                        "chart backward_pareto: its gnuplot script is longer than %zu "
                        "bytes",
                        sizeof body),
               -1;
    return rep_render(r, "backward_pareto", body, (int)ceil(h), err, errlen);
}

/* max ULP per binade of x for each kernel whose results are not an earlier one's, a panel per
 * library (as the forward charts name it: the library of a forward peer of the same library and
 * version, else the peer's name up to its first '-') and one for gelulab's */
static int chart_binades_bwd(const struct rep *r, char *err, size_t errlen)
{
    struct rep_chart_kernel ks[256];
    char groups[256][32];
    int nk = 0;
    for (int k = 0; k < r->bwd.nk && nk < 256; k++) {
        const struct gl_kernel_src *s = &r->bwd.k[k];
        if (same_as(r, k) >= 0 || rep_lib_entry(s)) continue;
        const struct rep_peer *p = NULL; /* its library: a forward peer's of its library-version */
        const char *v = strchr(s->name, '-'), *e = v ? strchr(v + 1, '-') : NULL;
        for (int j = 0; e && !p && j < r->npeers; j++)
            if (!strncmp(r->peers[j].name, s->name, (size_t)(e + 1 - s->name))) p = &r->peers[j];
        if (s->kind == GL_SRC_BUILTIN)
            snprintf(groups[nk], sizeof groups[nk], "gelulab");
        else if (p)
            snprintf(groups[nk], sizeof groups[nk], "%s", p->library);
        else
            snprintf(groups[nk], sizeof groups[nk], "%.*s", (int)strcspn(s->name, "-"), s->name);
        ks[nk].more = 0;
        for (int j = 0; j < r->bwd.nk; j++) /* those left off that repeat its results */
            ks[nk].more += j != k && same_as(r, j) == k && !rep_lib_entry(&r->bwd.k[j]);
        ks[nk].name = s->name, ks[nk].group = groups[nk], nk++;
    }
    return rep_binades_chart(r, "backward_binades", "bwd.binades.csv", ks, nk,
                             "Backward pass: max ULP error per binade of x (dy = 1, own "
                             "derivative),\\na panel per library; (+N): N others with these "
                             "results;\\nthe binade -[1/2, 1) holds the zero of f' (x = -0.7518), "
                             "where ULP error is unbounded",
                             err, errlen);
}

int rep_backward_charts(const struct rep *r, char *err, size_t errlen)
{
    if (!r->have_bwd) return 0;
    return chart_pareto_bwd(r, err, errlen) || chart_binades_bwd(r, err, errlen) ? -1 : 0;
}

static void special_word(double v, char *b, size_t l)
{
    if (isnan(v))
        snprintf(b, l, "NaN");
    else if (v == 0)
        snprintf(b, l, "%s0", signbit(v) ? "−" : "+");
    else
        snprintf(b, l, "%g", v);
}

/* f' at NaN, +inf, -inf, +0, -0 as the sweep saw them ("?" where it did not sweep one) */
static void specials(const struct gl_traits *t, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int s = 0; s < GL_SPECIALS; s++) {
        char w[32] = "?";
        if (t->special_seen >> s & 1) special_word(t->special[s], w, sizeof w);
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", s ? ", " : "", w);
    }
}

static void md_row(FILE *f, const struct rep *r, int k)
{
    const struct gl_kernel_src *ks = &r->bwd.k[k];
    const struct gl_acc *a = r->bwd.res[k].acc[0];
    char sp[200], eps[32] = "—";
    specials(&a->traits, sp, sizeof sp);
    double e = rep_eps(r, ks->name, r->pareto_size),
           relu = rep_eps(r, "relu-bwd-vec", r->pareto_size);
    if (e > 0) /* marked as in the other tables (REP_MARKS) */
        snprintf(eps, sizeof eps, "%.0f%s (%.3g×)", e / 1e6, rep_timed_mark(r, ks->name),
                 relu > 0 ? e / relu : NAN);
    int j = same_as(r, k);
    char cr[16];
    fprintf(f, "| %s%s%s%s | %s | %.4g | %.4g | %.4g | %.4g | %.4g | %s | %llu | %s | %s |\n",
            ks->name, j >= 0 ? " (= " : "", j >= 0 ? r->bwd.k[j].name : "", j >= 0 ? ")" : "",
            gl_defn_name(ks->defn), a->region[GL_REGION_CORE].max_ulp,
            a->region[GL_REGION_ROOT].max_ulp, scaled_all(r, ks, 0), scaled_exact(r, ks),
            a->region[GL_REGION_TAIL_NEG].max_ulp,
            rep_pct_cr(a->all.correctly_rounded, a->all.n, cr, sizeof cr),
            (unsigned long long)a->all.nonfinite, sp, eps);
}

/* the diagnoses of the backward peers and of the built-in kernels probed (the widest build of
 * each algorithm), from IN/validate/NAME.json: the checks that failed or warned */
static void md_diagnoses(FILE *f, const struct rep *r)
{
    int any = 0;
    for (int k = 0; k < r->bwd.nk; k++) {
        const struct gl_kernel_src *ks = &r->bwd.k[k];
        char p[1400], name[160], err[200];
        struct stat st;
        snprintf(name, sizeof name, "%s", ks->name);
        for (char *c = name; *c; c++) *c = *c == '/' ? '_' : *c;
        snprintf(p, sizeof p, "%s/validate/%s.json", r->in, name);
        if (ks->kind == GL_SRC_BUILTIN && stat(p, &st) != 0) continue; /* not probed: a twin */
        if (rep_lib_entry(ks)) continue; /* the library's: its kernel's diagnoses stand */
        char *text = gl_json_read_file(p, err, sizeof err);
        struct gl_json *v = text ? gl_json_parse(text, err, sizeof err) : NULL;
        free(text);
        const struct gl_json *checks = v ? gl_json_get(v, "checks") : NULL;
        if (!any++)
            fprintf(f, "\nDiagnoses (`gelulab validate --backward --probes-only`; of gelulab's "
                       "kernels, the widest build of each):\n\n");
        fprintf(f, "- **%s**:", ks->name);
        int fails = 0;
        for (size_t i = 0; checks && i < checks->n; i++) {
            const char *st = rep_str(gl_json_get(&checks->items[i], "status"));
            if (strcmp(st, "FAIL") && strcmp(st, "WARN")) continue;
            fprintf(f, "%s %s %s: %s", fails++ ? ";" : "", st,
                    rep_str(gl_json_get(&checks->items[i], "name")),
                    rep_str(gl_json_get(&checks->items[i], "text")));
        }
        fprintf(f, "%s\n",
                !v      ? " not diagnosed (no validate file)"
                : fails ? "."
                        : " every probe passes.");
        if (v) gl_json_free(v);
    }
}

void rep_backward_md(FILE *f, const struct rep *r)
{
    fprintf(f, "\n## Backward pass\n\n");
    if (!r->have_bwd) {
        fprintf(f, "Not measured: no `bwd.json` in the input (made by `gelulab sweep --backward "
                   "--all --format f32 --out IN/bwd.json`, with the backward peers of `gelulab "
                   "list --peers --sweep-args --backward`).\n");
        return;
    }
    char sz[32];
    gl_bench_size_name(r->pareto_size, sz, sizeof sz);
    fprintf(f,
            "Backward kernels compute dx = dy·f′(x). Every binary32 x%s was swept with dy = 1, "
            "so the results are f′(x), against the correctly rounded derivative each kernel "
            "claims. f′ crosses zero at GELU's minimum x₀ (−0.7518 for exact GELU), where ULP "
            "error is unbounded for any finite-precision method: *core* is [−5, 5] without the "
            "*root* region |x − x₀| ≤ 1/32, and the *scaled error* is the absolute error in "
            "ulps of 1 (= ulp(max|f′|)), which stays meaningful there; *vs exact GELU′*: the same "
            "against exact GELU's derivative (for a tanh kernel, the approximation's own error "
            "included), the Pareto chart's axis as the forward chart's is exact GELU. "
            "Throughput: millions of "
            "elements per second at %s floats (x and dy read, dx written) and as a multiple of "
            "relu-bwd-vec, ReLU's backward, the same traffic at the least cost (" REP_MARKS
            "). Special values: "
            "f′ at NaN, +∞, −∞, +0, −0 (exact: NaN, 1, −0, 0.5, 0.5; ?: not an input of this "
            "sweep). `(= k)`: bit-identical "
            "results to kernel k on every input.\n\n",
            r->bwd.mode == GL_SWEEP_EXHAUSTIVE ? " (all 2^32)" : " (quick mode: every 61st)", sz);
    fprintf(f,
            "| kernel | defn | ULP core | ULP root | scaled (all) | scaled vs exact GELU′ (all) | "
            "ULP x < −5 | %% CR | non-finite | f′ at NaN, ±∞, ±0 | Melem/s |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < r->bwd.nk; k++) md_row(f, r, k);
    rep_zero_sign_md(f, &r->bwd,
                     "\nKernels whose results include ±0 where the correctly rounded f′ is the "
                     "other zero, not correctly rounded in the % CR column, though wrong only in "
                     "the sign of zero: ",
                     0);
    fprintf(f, "\n![Backward Pareto](backward_pareto.png)\n");
    int front[256], nf = bwd_front(r, front);
    for (int i = 0; i < nf; i++) /* as the forward list: cost, then the chart's error */
        fprintf(f, "%s`%s` %.2f cycles/element, %.3g ulps of 1%s",
                i ? "; "
                  : "\nPareto front (no kernel at least as cheap and as accurate, by the max "
                    "scaled error against exact GELU′, and better in one): ",
                r->bwd.k[front[i]].name, cycles(r, r->bwd.k[front[i]].name),
                scaled_exact(r, &r->bwd.k[front[i]]), i == nf - 1 ? ".\n" : "");
    rep_pareto_groups_md(f, r, &r->bwd);
    fprintf(f, "\n![Backward binades](backward_binades.png)\n");
    md_diagnoses(f, r);
}
