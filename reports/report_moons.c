/* The report's two-moons section and chart, from moons.json (docs/moons.md): per activation the
 * test accuracy and final training loss over the seeds, the paired comparisons against
 * gelu-exact and relu, and the two answers (GELU against ReLU; approximations against exact
 * GELU) worded from the comparisons' Holm-adjusted p-values. */
#include <math.h>
#include <string.h>
#include "report_int.h"

static double jnum(const struct gl_json *o, const char *k)
{
    return rep_num(gl_json_get(o, k));
}

static const char *jstr(const struct gl_json *o, const char *k)
{
    return rep_str(gl_json_get(o, k));
}

/* summary[metric] of activation a */
static const struct gl_json *summary(const struct gl_json *a, const char *metric)
{
    const struct gl_json *s = gl_json_get(a, "summary");
    return s ? gl_json_get(s, metric) : NULL;
}

static const struct gl_json *comparison(const struct rep *r, const char *a, const char *b,
                                        const char *metric)
{
    const struct gl_json *cs = gl_json_get(r->moons, "comparisons");
    for (size_t i = 0; cs && i < cs->n; i++) {
        const struct gl_json *c = &cs->items[i];
        if (!strcmp(jstr(c, "a"), a) && !strcmp(jstr(c, "b"), b) &&
            !strcmp(jstr(c, "metric"), metric))
            return c;
    }
    return NULL;
}

static int significant(const struct gl_json *c)
{
    const struct gl_json *s = c ? gl_json_get(c, "significant") : NULL;
    return s && s->text && !strcmp(s->text, "true");
}

/* about three tics over [lo, hi], each 1, 2 or 5 times a power of ten (more overprint at a
 * panel's width in the column) */
static double tic_step(double lo, double hi)
{
    double raw = hi > lo ? (hi - lo) / 3 : 1, mag = pow(10, floor(log10(raw)));
    return raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
}

int rep_moons_chart(const struct rep *r, char *err, size_t errlen)
{
    FILE *out = rep_open(r, "charts/moons.dat", err, errlen);
    if (!out) return -1;
    const struct gl_json *acts = gl_json_get(r->moons, "activations");
    int n = 0, base = -1; /* base: gelu-exact's row, which the right panel compares with */
    double lo = INFINITY, hi = -INFINITY; /* the left panel's range: its tics' step */
    double dlo = 0, dhi = 0;              /* the right panel's, 0 included */
    for (size_t i = 0; acts && i < acts->n; i++, n++) {
        const struct gl_json *a = &acts->items[i], *s = summary(a, "test_acc");
        const struct gl_json *c = comparison(r, jstr(a, "name"), "gelu-exact", "test_acc");
        const struct gl_json *d = c ? gl_json_get(c, "diff") : NULL;
        lo = fmin(lo, 100 * jnum(s, "ci_lo")), hi = fmax(hi, 100 * jnum(s, "ci_hi"));
        if (!strcmp(jstr(a, "name"), "gelu-exact")) base = n;
        if (d) dlo = fmin(dlo, 100 * jnum(d, "ci_lo")), dhi = fmax(dhi, 100 * jnum(d, "ci_hi"));
        /* no comparison (gelu-exact with itself): NaN, not drawn, rather than a measured 0 */
        fprintf(out, "%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", jstr(a, "name"), 100 * jnum(s, "mean"),
                100 * jnum(s, "ci_lo"), 100 * jnum(s, "ci_hi"), d ? 100 * jnum(d, "mean") : NAN,
                d ? 100 * jnum(d, "ci_lo") : NAN, d ? 100 * jnum(d, "ci_hi") : NAN);
    }
    fclose(out);
    const struct gl_json *cfg = gl_json_get(r->moons, "config");
    double step = tic_step(lo, hi), dstep = tic_step(dlo, dhi);
    char body[3200], label[120] = "";
    if (base >= 0)
        snprintf(label, sizeof label,
                 "set label 'the baseline' at first 0, first %d right offset -0.5,0 font ',5' "
                 "tc rgb '#888888'\n",
                 base);
    int h = n * 11 + 58 > REP_MIN_H ? n * 11 + 58 : REP_MIN_H;
    /* the activations' names once, left of the first panel; each panel's x label in two
     * lines (the column is narrow) */
    snprintf(body, sizeof body,
             "set multiplot title \"Two moons: test accuracy over %g seeds (mean and 95%% "
             "interval),\\nMLP trained with each activation\" font ',6'\n"
             "set datafile separator ','\nset yrange [-0.5:%d.5] reverse\nset ytics nomirror "
             "noenhanced\n"
             "set key off\nset grid x\nset tmargin at screen %g\nset bmargin at screen %g\n"
             "set lmargin at screen 0.41\nset rmargin at screen 0.65\n"
             "set xlabel \"test accuracy\\n(%%)\"\nset xtics %g\n"
             "plot '%s/charts/moons.dat' using 2:0:3:4:ytic(1) with xerrorbars pt 7 ps 0.6 lw 1.5 "
             "lc rgb '#1f77b4' noenhanced\n"
             "set lmargin at screen 0.72\nset rmargin at screen 0.95\n"
             "set xlabel \"minus gelu-exact's, same\\nseed (percentage points)\"\n"
             "set ytics format ''\nset xtics %g\nset arrow from 0, graph 0 to 0, graph 1 "
             "nohead lc rgb '#888888'\n%s"
             "plot '%s/charts/moons.dat' using 5:0:6:7 with xerrorbars pt 7 ps 0.6 lw 1.5 lc rgb "
             "'#d62728'\n",
             jnum(cfg, "seeds"), n - 1, 1 - 24.0 / h, 30.0 / h, step, r->out, dstep, label, r->out);
    return rep_render(r, "moons", body, h, err, errlen);
}

static void md_config(FILE *f, const struct gl_json *cfg)
{
    const struct gl_json *h = gl_json_get(cfg, "hidden");
    fprintf(f, "Two-moons data (%g points, noise %g, %g %% kept for testing), an MLP 2",
            jnum(cfg, "samples"), jnum(cfg, "noise"), 100 * jnum(cfg, "test_fraction"));
    for (size_t i = 0; h && i < h->n; i++) fprintf(f, "-%g", gl_json_num(&h->items[i]));
    fprintf(
        f,
        "-1 trained with Adam (lr %g, batch %g) for %g epochs on binary cross-entropy, once per "
        "activation and seed; **%g seeds** (from %g)%s. The same seed gives every activation "
        "the same data, initial weights and batch order, so the comparisons are paired. The "
        "network runs in binary64 and the activation through binary32 (the kernel's result, or "
        "the definition correctly rounded); the backward pass uses the exact derivative of the "
        "activation's definition. Accuracy in %%, means ± sd over seeds, 95 %% Student-t "
        "intervals; p: paired t-test, Holm-adjusted within each baseline and metric.\n\n",
        jnum(cfg, "lr"), jnum(cfg, "batch"), jnum(cfg, "epochs"), jnum(cfg, "seeds"),
        jnum(cfg, "first_seed"),
        !strcmp(jstr(cfg, "interrupted"), "true") ? " (interrupted: fewer than requested)" : "");
}

static void md_cmp(FILE *f, const struct gl_json *c, double scale)
{
    const struct gl_json *d = c ? gl_json_get(c, "diff") : NULL;
    if (!d) {
        fprintf(f, " – | – |");
        return;
    }
    if (jnum(c, "wins") == 0 && jnum(c, "losses") == 0 && jnum(d, "ci_lo") == jnum(d, "ci_hi")) {
        /* the same on every seed: no spread, no t-test (its p is undefined, not 1) */
        fprintf(f, " 0 (equal on every seed) | no test: no differences |");
        return;
    }
    fprintf(f, " %+.3g [%+.3g, %+.3g] | %.3g%s |", scale * jnum(d, "mean"),
            scale * jnum(d, "ci_lo"), scale * jnum(d, "ci_hi"), jnum(c, "p_holm"),
            significant(c) ? " **yes**" : "");
}

static void md_table(FILE *f, const struct rep *r)
{
    const struct gl_json *acts = gl_json_get(r->moons, "activations");
    fprintf(f, "| activation | kind | test accuracy | 95 %% CI | final train loss | vs gelu-exact: "
               "Δ accuracy [95 %% CI] | p (Holm; **yes**: significant) | test predictions "
               "differing | vs relu: Δ accuracy [95 %% CI] | p (Holm; **yes**: significant) |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; acts && i < acts->n; i++) {
        const struct gl_json *a = &acts->items[i], *s = summary(a, "test_acc"),
                             *l = summary(a, "train_loss");
        const char *name = jstr(a, "name");
        int rl = !strcmp(jstr(a, "kind"), "relu");
        fprintf(f, "| %s | %s%s%s | %.2f ± %.2f | [%.2f, %.2f] | %.4f ± %.4f |", name,
                jstr(a, "kind"), rl ? "" : ", ", rl ? "" : jstr(a, "defn"), 100 * jnum(s, "mean"),
                100 * jnum(s, "sd"), 100 * jnum(s, "ci_lo"), 100 * jnum(s, "ci_hi"),
                jnum(l, "mean"), jnum(l, "sd"));
        const struct gl_json *ce = comparison(r, name, "gelu-exact", "test_acc");
        md_cmp(f, ce, 100);
        if (ce)
            fprintf(f, " %.2f %% |", 100 * jnum(ce, "disagreement"));
        else
            fprintf(f, " – |");
        md_cmp(f, comparison(r, name, "relu", "test_acc"), 100);
        fputc('\n', f);
    }
}

/* the activations whose comparison against base on metric is significant, as a list */
static int list_significant(const struct rep *r, const char *base, const char *metric, char *buf,
                            size_t len, int *ncmp)
{
    const struct gl_json *cs = gl_json_get(r->moons, "comparisons");
    int n = 0;
    *ncmp = 0;
    buf[0] = '\0';
    for (size_t i = 0; cs && i < cs->n; i++) {
        const struct gl_json *c = &cs->items[i];
        if (strcmp(jstr(c, "b"), base) || strcmp(jstr(c, "metric"), metric)) continue;
        ++*ncmp;
        if (!significant(c)) continue;
        size_t l = strlen(buf);
        snprintf(buf + l, len - l, "%s%s (%+.3g)", n ? ", " : "", jstr(c, "a"),
                 (strcmp(metric, "test_acc") ? 1 : 100) * jnum(gl_json_get(c, "diff"), "mean"));
        n++;
    }
    return n;
}

static void md_answers(FILE *f, const struct rep *r)
{
    const struct gl_json *g = comparison(r, "gelu-exact", "relu", "test_acc"),
                         *gl = comparison(r, "gelu-exact", "relu", "train_loss");
    if (g) {
        const struct gl_json *d = gl_json_get(g, "diff"), *dl = gl ? gl_json_get(gl, "diff") : NULL;
        fprintf(f,
                "\n**Does GELU beat ReLU here?** Test accuracy of gelu-exact minus relu: %+.3f "
                "percentage points, 95 %% interval [%+.3f, %+.3f], paired t-test p = %.3g (Holm "
                "%.3g): **%s**; gelu-exact was better on %g seeds, equal on %g, worse on %g.",
                100 * jnum(d, "mean"), 100 * jnum(d, "ci_lo"), 100 * jnum(d, "ci_hi"), jnum(g, "p"),
                jnum(g, "p_holm"),
                significant(g) ? (jnum(d, "mean") > 0 ? "GELU is better, significantly"
                                                      : "GELU is worse, significantly")
                               : "no significant difference",
                jnum(g, "wins"), jnum(g, "ties"), jnum(g, "losses"));
        if (dl)
            fprintf(f, " Final training loss, gelu-exact minus relu: %+.4f [%+.4f, %+.4f] (%s).",
                    jnum(dl, "mean"), jnum(dl, "ci_lo"), jnum(dl, "ci_hi"),
                    significant(gl) ? "significant" : "not significant");
        fputc('\n', f);
    }
    char acc[2000], loss[2000];
    int na, nl, nca, ncl;
    na = list_significant(r, "gelu-exact", "test_acc", acc, sizeof acc, &nca);
    nl = list_significant(r, "gelu-exact", "train_loss", loss, sizeof loss, &ncl);
    if (!nca) return;
    fprintf(
        f,
        "\n**Do the approximations change the outcome?** Against gelu-exact, %d of the %d "
        "other activations differ significantly in test accuracy%s%s; %d of %d in final training "
        "loss%s%s. \"Test predictions differing\" is the share of test points that the model "
        "trained with the activation classifies differently from the gelu-exact model of the "
        "same seed.\n",
        na, nca, na ? ": " : "", acc, nl, ncl, nl ? ": " : "", loss);
}

void rep_moons_md(FILE *f, const struct rep *r)
{
    fprintf(f, "\n## Downstream: the two-moons experiment\n\n");
    md_config(f, gl_json_get(r->moons, "config"));
    md_table(f, r);
    md_answers(f, r);
    fprintf(f, "\n![Two moons: test accuracy per activation](moons.png)\n");
}
