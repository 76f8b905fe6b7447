/* gelulab — the two-moons experiment: one training run, the grid of activations x seeds on
 * threads, and its result file and table (include/gelulab/moons.h, docs/moons.md). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/moons.h"
#include "gelulab/reference.h"
#include "gelulab/stats.h"
#include "gelulab/progress.h"

void gl_moons_cfg_default(struct gl_moons_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->samples = 2000, c->batch = 32, c->noise = 0.2, c->test_frac = 0.2, c->lr = 0.001;
    c->nhidden = 2, c->hidden[0] = 16, c->hidden[1] = 16, c->epochs = 100;
}

/* loss and accuracy of points [lo, hi) of d; predictions into pred if non-NULL */
static void evaluate(struct gl_mlp *m, const struct gl_act *a, const struct gl_moons_data *d,
                     size_t lo, size_t hi, double *loss, double *acc, unsigned char *pred)
{
    double sum = 0, *z = malloc((hi - lo) * sizeof *z);
    size_t right = 0;
    gl_mlp_forward(m, a, d->x + 2 * lo, hi - lo, z);
    for (size_t i = lo; i < hi; i++) {
        double zi = z[i - lo];
        int y = d->y[i], p = zi > 0;
        sum += gl_mlp_bce(zi, y, NULL);
        right += p == y;
        if (pred) pred[i - lo] = (unsigned char)p;
    }
    free(z);
    *loss = sum / (double)(hi - lo), *acc = (double)right / (double)(hi - lo);
}

static void one_epoch(struct gl_mlp *m, const struct gl_act *a, const struct gl_moons_cfg *c,
                      const struct gl_moons_data *d, size_t *order, double *xb, unsigned char *yb,
                      struct gl_rng *r)
{
    size_t n = d->n_train;
    for (size_t i = n - 1; i > 0; i--) { /* a fresh batch order each epoch */
        size_t j = gl_rng_below(r, i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (size_t s = 0; s < n; s += c->batch) {
        size_t nb = n - s < c->batch ? n - s : c->batch;
        for (size_t i = 0; i < nb; i++) {
            size_t k = order[s + i];
            xb[2 * i] = d->x[2 * k], xb[2 * i + 1] = d->x[2 * k + 1], yb[i] = d->y[k];
        }
        gl_mlp_loss_grad(m, a, xb, yb, nb);
        gl_mlp_adam(m, c->lr);
    }
}

int gl_moons_train(const struct gl_moons_cfg *c, const struct gl_act *a, uint64_t seed,
                   struct gl_moons_run *out)
{
    struct gl_moons_data d;
    struct gl_mlp m;
    struct gl_rng r;
    memset(out, 0, sizeof *out);
    if (gl_moons_make(c->samples, c->noise, c->test_frac, seed, &d)) return -1;
    size_t n = d.n_train, cap = d.n > c->batch ? d.n : c->batch;
    gl_rng_seed(&r, seed, 2);
    if (gl_mlp_init(&m, c->hidden, c->nhidden, cap, &r)) {
        gl_moons_free(&d);
        return -1;
    }
    size_t *order = malloc(n * sizeof *order);
    double *xb = malloc(2 * c->batch * sizeof *xb);
    unsigned char *yb = malloc(c->batch);
    out->n_test = d.n - n;
    out->pred = malloc(out->n_test);
    int rc = order && xb && yb && out->pred ? 0 : -1;
    if (!rc) {
        for (size_t i = 0; i < n; i++) order[i] = i;
        gl_rng_seed(&r, seed, 3);
        for (int e = 0; e < c->epochs; e++) one_epoch(&m, a, c, &d, order, xb, yb, &r);
        evaluate(&m, a, &d, 0, n, &out->train_loss, &out->train_acc, NULL);
        evaluate(&m, a, &d, n, d.n, &out->test_loss, &out->test_acc, out->pred);
    }
    free(order), free(xb), free(yb);
    gl_mlp_free(&m);
    gl_moons_free(&d);
    return rc;
}

void gl_moons_run_free(struct gl_moons_run *r)
{
    free(r->pred);
    r->pred = NULL;
}

/* ---- the grid, on threads ---- */

struct job_queue {
    struct gl_moons_exp *e;
    atomic_int next, failed;
    atomic_ulong done;
    atomic_uchar *finished; /* per run */
};

static void *worker(void *arg)
{
    struct job_queue *q = arg;
    struct gl_moons_exp *e = q->e;
    int total = e->nseeds * e->nacts;
    for (;;) {
        if (e->stop && *e->stop) break;
        int k = atomic_fetch_add(&q->next, 1);
        if (k >= total) break;
        uint64_t seed = e->first_seed + (uint64_t)(k / e->nacts);
        if (gl_moons_train(&e->cfg, &e->acts[k % e->nacts], seed, &e->runs[k]))
            atomic_fetch_add(&q->failed, 1);
        else
            atomic_store(&q->finished[k], 1);
        atomic_fetch_add(&q->done, 1);
    }
    gl_ref_thread_done();
    return NULL;
}

int gl_moons_exp_run(struct gl_moons_exp *e)
{
    int total = e->nseeds * e->nacts, nt = e->threads < 1 ? 1 : e->threads;
    if (nt > total) nt = total ? total : 1;
    struct job_queue q = {.e = e};
    e->runs = calloc(total ? total : 1, sizeof *e->runs);
    q.finished = calloc(total ? total : 1, sizeof *q.finished);
    pthread_t *th = calloc(nt, sizeof *th);
    if (!e->runs || !q.finished || !th) {
        free(q.finished), free(th);
        return -1;
    }
    for (int t = 0; t < nt; t++) pthread_create(&th[t], NULL, worker, &q);
    struct gl_progress prog;
    gl_progress_start(&prog, e->progress, "moons", "training runs", (uint64_t)total);
    gl_progress_wait(&prog, &q.done, e->stop);
    for (int t = 0; t < nt; t++) pthread_join(th[t], NULL);
    gl_progress_end(&prog, atomic_load(&q.done));
    /* keep whole seeds only: every activation of a kept seed finished (paired comparisons) */
    e->seeds_done = 0;
    for (int s = 0; s < e->nseeds; s++) {
        int all = 1;
        for (int a = 0; a < e->nacts; a++) all = all && atomic_load(&q.finished[s * e->nacts + a]);
        if (!all) break;
        e->seeds_done = s + 1;
    }
    int failed = atomic_load(&q.failed);
    free(q.finished), free(th);
    return failed ? -1 : 0;
}

void gl_moons_exp_free(struct gl_moons_exp *e)
{
    for (int i = 0; e->runs && i < e->nseeds * e->nacts; i++) gl_moons_run_free(&e->runs[i]);
    free(e->runs);
    e->runs = NULL;
}
