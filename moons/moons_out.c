/* gelulab — the two-moons experiment's statistics, result file and table (docs/moons.md).
 *
 * Per activation: mean, sd and 95 % Student-t interval over the seeds of test accuracy, training
 * accuracy, final training loss and test loss. Paired comparisons (the same seed: same data,
 * initial weights and batch order): every activation against gelu-exact (does the approximation
 * change the outcome?) and against relu (does it beat ReLU?), on test accuracy and final training
 * loss: mean difference with its 95 % interval, the paired t-test, Holm's adjustment within each
 * (baseline, metric) family, wins/ties/losses, and the fraction of test points whose predicted
 * class differs from the baseline's model. Significant means Holm-adjusted p < 0.05. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/moons.h"
#include "gelulab/stats.h"
#include "gelulab/json.h"

enum { M_TEST_ACC, M_TRAIN_ACC, M_TRAIN_LOSS, M_TEST_LOSS, N_METRICS };
static const char *const metric_name[N_METRICS] = {"test_acc", "train_acc", "train_loss",
                                                   "test_loss"};
static const char *const baseline_name[2] = {"gelu-exact", "relu"};
static const int compared_metrics[2] = {M_TEST_ACC, M_TRAIN_LOSS};

struct cmp {
    int a, b, metric;
    struct gl_paired t;
    double p_holm, disagree;
};

static double metric_of(const struct gl_moons_run *r, int m)
{
    return m == M_TEST_ACC     ? r->test_acc
           : m == M_TRAIN_ACC  ? r->train_acc
           : m == M_TRAIN_LOSS ? r->train_loss
                               : r->test_loss;
}

static void values(const struct gl_moons_exp *e, int act, int m, double *v)
{
    for (int s = 0; s < e->seeds_done; s++) v[s] = metric_of(&e->runs[s * e->nacts + act], m);
}

static int find_act(const struct gl_moons_exp *e, const char *name)
{
    for (int i = 0; i < e->nacts; i++)
        if (!strcmp(e->acts[i].name, name)) return i;
    return -1;
}

/* mean fraction of test points classified differently by the models of a and b */
static double disagreement(const struct gl_moons_exp *e, int a, int b)
{
    double sum = 0;
    for (int s = 0; s < e->seeds_done; s++) {
        const struct gl_moons_run *ra = &e->runs[s * e->nacts + a],
                                  *rb = &e->runs[s * e->nacts + b];
        size_t diff = 0;
        for (size_t i = 0; i < ra->n_test; i++) diff += ra->pred[i] != rb->pred[i];
        sum += (double)diff / (double)(ra->n_test ? ra->n_test : 1);
    }
    return e->seeds_done ? sum / e->seeds_done : NAN;
}

/* all comparisons (caller frees); *n gets their count */
static struct cmp *comparisons(const struct gl_moons_exp *e, int *n)
{
    int ns = e->seeds_done, cap = 4 * e->nacts + 1;
    struct cmp *c = calloc(cap, sizeof *c);
    double *va = malloc((ns + 1) * sizeof *va), *vb = malloc((ns + 1) * sizeof *vb);
    double *p = malloc(cap * sizeof *p), *adj = malloc(cap * sizeof *adj);
    *n = 0;
    for (int bi = 0; bi < 2; bi++) {
        int b = find_act(e, baseline_name[bi]);
        for (int mi = 0; b >= 0 && mi < 2; mi++) {
            int first = *n, m = compared_metrics[mi];
            values(e, b, m, vb);
            for (int a = 0; a < e->nacts; a++) {
                if (a == b) continue;
                struct cmp *x = &c[(*n)++];
                values(e, a, m, va);
                x->a = a, x->b = b, x->metric = m;
                gl_stats_paired(va, vb, ns, &x->t);
                x->disagree = disagreement(e, a, b);
                p[*n - 1 - first] = x->t.p;
            }
            gl_stats_holm(p, *n - first, adj);
            for (int i = first; i < *n; i++) c[i].p_holm = adj[i - first];
        }
    }
    free(va), free(vb), free(p), free(adj);
    return c;
}

static void sample_json(FILE *f, const char *key, const struct gl_sample *s)
{
    fprintf(f, "\"%s\": {\"n\": %d, \"mean\": ", key, s->n);
    gl_json_put_double(f, s->mean);
    fputs(", \"sd\": ", f);
    gl_json_put_double(f, s->sd);
    fputs(", \"ci_lo\": ", f);
    gl_json_put_double(f, s->ci_lo);
    fputs(", \"ci_hi\": ", f);
    gl_json_put_double(f, s->ci_hi);
    fputs("}", f);
}

static void write_config(FILE *f, const struct gl_moons_exp *e)
{
    const struct gl_moons_cfg *c = &e->cfg;
    fprintf(f, "  \"config\": {\"samples\": %zu, \"noise\": ", c->samples);
    gl_json_put_double(f, c->noise);
    fputs(", \"test_fraction\": ", f);
    gl_json_put_double(f, c->test_frac);
    fputs(", \"hidden\": [", f);
    for (int i = 0; i < c->nhidden; i++) fprintf(f, "%s%d", i ? ", " : "", c->hidden[i]);
    fprintf(f, "], \"batch\": %zu, \"epochs\": %d, \"lr\": ", c->batch, c->epochs);
    gl_json_put_double(f, c->lr);
    fprintf(f,
            ", \"optimizer\": \"Adam beta1 0.9 beta2 0.999 eps 1e-8\", \"first_seed\": %llu, "
            "\"seeds_requested\": %d, \"seeds\": %d, \"interrupted\": %s},\n",
            (unsigned long long)e->first_seed, e->nseeds, e->seeds_done,
            e->seeds_done < e->nseeds ? "true" : "false");
}

static void write_act(FILE *f, const struct gl_moons_exp *e, int a, double *v)
{
    const struct gl_act *x = &e->acts[a];
    const char *kind = x->kind == GL_ACT_RELU   ? "relu"
                       : x->kind == GL_ACT_DEFN ? "definition"
                                                : "kernel";
    fprintf(f, "    {\"name\": \"%s\", \"kind\": \"%s\", \"defn\": \"%s\", \"kernel\": ", x->name,
            kind, x->kind == GL_ACT_RELU ? "relu" : gl_defn_name(x->defn));
    if (x->impl)
        fprintf(f, "\"%s\",\n     \"method\": \"%s\",\n", x->impl->name, x->impl->note);
    else
        fputs("null,\n", f);
    if (x->grad) fprintf(f, "     \"gradient\": \"%s\",\n", x->grad->name);
    fputs("     \"summary\": {", f);
    for (int m = 0; m < N_METRICS; m++) {
        struct gl_sample s;
        values(e, a, m, v);
        gl_stats_sample(v, e->seeds_done, &s);
        if (m) fputs(", ", f);
        sample_json(f, metric_name[m], &s);
    }
    fputs("},\n     \"runs\": [", f);
    for (int s = 0; s < e->seeds_done; s++) {
        const struct gl_moons_run *r = &e->runs[s * e->nacts + a];
        fprintf(f, "%s\n       {\"seed\": %llu", s ? "," : "",
                (unsigned long long)(e->first_seed + (uint64_t)s));
        for (int m = 0; m < N_METRICS; m++) {
            fprintf(f, ", \"%s\": ", metric_name[m]);
            gl_json_put_double(f, metric_of(r, m));
        }
        fputs("}", f);
    }
    fprintf(f, "]}%s\n", a + 1 < e->nacts ? "," : "");
}

static void write_cmp(FILE *f, const struct gl_moons_exp *e, const struct cmp *c, int last)
{
    fprintf(f, "    {\"a\": \"%s\", \"b\": \"%s\", \"metric\": \"%s\", ", e->acts[c->a].name,
            e->acts[c->b].name, metric_name[c->metric]);
    sample_json(f, "diff", &c->t.d);
    const char *keys[] = {"t", "p", "p_holm", "disagreement"};
    double vals[] = {c->t.t, c->t.p, c->p_holm, c->disagree};
    for (int i = 0; i < 4; i++) {
        fprintf(f, ", \"%s\": ", keys[i]);
        gl_json_put_double(f, vals[i]);
    }
    fprintf(f, ", \"significant\": %s, \"wins\": %d, \"ties\": %d, \"losses\": %d}%s\n",
            c->p_holm < 0.05 ? "true" : "false", c->t.wins, c->t.ties, c->t.losses,
            last ? "" : ",");
}

int gl_moons_exp_write(const struct gl_moons_exp *e, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    double *v = malloc((e->seeds_done + 1) * sizeof *v);
    int nc;
    struct cmp *c = comparisons(e, &nc);
    fputs("{\n  \"schema\": \"gelulab-moons/1\",\n", f);
    write_config(f, e);
    fputs("  \"activations\": [\n", f);
    for (int a = 0; a < e->nacts; a++) write_act(f, e, a, v);
    fputs("  ],\n  \"comparisons\": [\n", f);
    for (int i = 0; i < nc; i++) write_cmp(f, e, &c[i], i + 1 == nc);
    fputs("  ]\n}\n", f);
    free(v), free(c);
    if (fclose(f)) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

static const struct cmp *find_cmp(const struct cmp *c, int n, int a, int b, int m)
{
    for (int i = 0; i < n; i++)
        if (c[i].a == a && c[i].b == b && c[i].metric == m) return &c[i];
    return NULL;
}

void gl_moons_exp_print(const struct gl_moons_exp *e, FILE *f)
{
    const struct gl_moons_cfg *c = &e->cfg;
    fprintf(f, "two moons: %zu points, noise %g, %.0f%% test; MLP 2", c->samples, c->noise,
            100 * c->test_frac);
    for (int i = 0; i < c->nhidden; i++) fprintf(f, "-%d", c->hidden[i]);
    fprintf(f, "-1, Adam lr %g, batch %zu, %d epochs; %d seeds (from %llu)%s\n", c->lr, c->batch,
            c->epochs, e->seeds_done, (unsigned long long)e->first_seed,
            e->seeds_done < e->nseeds ? " -- interrupted" : "");
    int nc, ex = find_act(e, "gelu-exact");
    struct cmp *cs = comparisons(e, &nc);
    double *v = malloc((e->seeds_done + 1) * sizeof *v);
    fprintf(f, "%-36s %-28s %-30s %s\n", "activation", "test accuracy %: mean +- sd [95% CI]",
            "final train loss: mean +- sd",
            "vs gelu-exact: test acc diff (pp) [95% CI], p Holm, "
            "predictions differing");
    for (int a = 0; a < e->nacts; a++) {
        struct gl_sample acc, loss;
        values(e, a, M_TEST_ACC, v);
        gl_stats_sample(v, e->seeds_done, &acc);
        values(e, a, M_TRAIN_LOSS, v);
        gl_stats_sample(v, e->seeds_done, &loss);
        fprintf(f, "%-36s %6.2f +- %4.2f [%6.2f, %6.2f]  %.5f +- %.5f        ", e->acts[a].name,
                100 * acc.mean, 100 * acc.sd, 100 * acc.ci_lo, 100 * acc.ci_hi, loss.mean, loss.sd);
        const struct cmp *x = find_cmp(cs, nc, a, ex, M_TEST_ACC);
        if (x)
            fprintf(f, "%+6.3f [%+6.3f, %+6.3f], p %.3g%s, %.2f%%\n", 100 * x->t.d.mean,
                    100 * x->t.d.ci_lo, 100 * x->t.d.ci_hi, x->p_holm,
                    x->p_holm < 0.05 ? " (significant)" : "", 100 * x->disagree);
        else
            fputs("-\n", f);
    }
    int relu = find_act(e, "relu");
    const struct cmp *g = ex >= 0 && relu >= 0 ? find_cmp(cs, nc, ex, relu, M_TEST_ACC) : NULL;
    if (g)
        fprintf(
            f,
            "gelu-exact - relu, test accuracy: %+.3f pp [%+.3f, %+.3f], paired t p = %.3g (Holm "
            "%.3g): %s; gelu-exact better on %d seeds, equal on %d, worse on %d\n",
            100 * g->t.d.mean, 100 * g->t.d.ci_lo, 100 * g->t.d.ci_hi, g->t.p, g->p_holm,
            g->p_holm < 0.05 ? "significant" : "not significant", g->t.wins, g->t.ties,
            g->t.losses);
    free(cs), free(v);
}
