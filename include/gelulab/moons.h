/* gelulab — the two-moons experiment: does the activation, or a cheaper kernel for it, change what
 * a small network learns? (docs/moons.md)
 *
 * Data: scikit-learn's make_moons (two interleaved half circles, Gaussian noise), shuffled and
 * split into a training and a test set. Model: an MLP 2 -> hidden... -> 1 (logit), PyTorch's
 * default initialisation, binary cross-entropy on the logit, Adam, mini-batches.
 *
 * Precision: the network runs in binary64; the activation alone sees binary32, as a binary32
 * kernel would: its input is rounded to binary32 and its output is a binary32 value (a registry
 * kernel's result, or the definition correctly rounded by the reference). So two runs differ
 * only by the activation's values. The backward pass uses the exact derivative of the
 * activation's definition, evaluated in binary64 at the unrounded input.
 *
 * Determinism: everything random comes from gl_rng (xoshiro256**) seeded by the run's seed; no
 * state is shared between runs; sums run in a fixed order. The same seed gives bit-identical
 * results on the same build, whatever the number of threads. */
#ifndef GELULAB_MOONS_H
#define GELULAB_MOONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "gelulab/defn.h"
#include "gelulab/impl.h"

/* ---- random numbers ---- */
struct gl_rng {
    uint64_t s[4];
};
/* Seeds stream `stream` of seed `seed` (splitmix64 expansion): independent streams per purpose. */
void gl_rng_seed(struct gl_rng *r, uint64_t seed, uint64_t stream);
uint64_t gl_rng_next(struct gl_rng *r);
double gl_rng_uniform(struct gl_rng *r); /* [0, 1), 53 random bits */
double gl_rng_normal(struct gl_rng *r);  /* standard normal (Box-Muller, one value per call) */
size_t gl_rng_below(struct gl_rng *r, size_t n); /* uniform in [0, n), n >= 1, unbiased */

/* ---- data ---- */
struct gl_moons_data {
    size_t n, n_train; /* points [0, n_train) train, [n_train, n) test */
    double *x;         /* 2 coordinates per point */
    unsigned char *y;  /* 0 outer moon, 1 inner moon */
};
/* make_moons(n, noise, shuffle=True) then a split keeping round(n * test_frac) points for the
 * test set. Returns 0, or -1 (out of memory or n < 4). */
int gl_moons_make(size_t n, double noise, double test_frac, uint64_t seed, struct gl_moons_data *d);
void gl_moons_free(struct gl_moons_data *d);

/* ---- activations ---- */
enum gl_act_kind { GL_ACT_RELU, GL_ACT_DEFN, GL_ACT_KERNEL };
struct gl_act {
    char name[64];
    enum gl_act_kind kind;
    enum gl_defn defn;          /* the definition (its derivative is the backward pass) */
    const struct gl_impl *impl; /* GL_ACT_KERNEL: the registry kernel */
    const struct gl_impl *grad; /* NULL, or the backward kernel whose f' (dy = 1, binary32 z)
                                 * replaces the exact derivative */
    int binary64;               /* 1: forward in binary64, no rounding (gradient checks only) */
};
/* "relu", "gelu-exact", "gelu-tanh", "gelu-sigmoid", "silu", or a registry kernel name
 * ("gelu-erfc-fast/avx2"); any of them + a backward kernel ("gelu-exact+gelu-grad-fast/avx2", or
 * without the ISA: its widest build here) for the backward pass. Returns 0, or -1 with the reason
 * in err. */
int gl_act_parse(const char *name, struct gl_act *a, char *err, size_t errlen);
/* h[i] = act(z[i]); tmp holds n floats. */
void gl_act_forward(const struct gl_act *a, const double *z, double *h, float *tmp, size_t n);
/* The derivative of the activation's definition at z, or the backward kernel's f' at z rounded
 * to binary32. */
double gl_act_deriv(const struct gl_act *a, double z);
/* g[i] *= the derivative at z[i] (gl_act_deriv's, one backward-kernel call for all n); tmp
 * holds 2n floats. */
void gl_act_backward(const struct gl_act *a, const double *z, double *g, float *tmp, size_t n);
/* The default list of the experiment: the five definitions, gelulab's fastest kernel of each
 * family runnable here, and exact GELU and the tanh form trained with gelulab's binary32
 * backward kernels (gelu-exact+gelu-grad-fast, gelu-tanh+gelu-tanh-grad-fast). Writes at most max
 * names into names; returns the count. */
int gl_act_default_list(const char **names, int max);

/* ---- the network ---- */
#define GL_MLP_MAXLAYERS 8
struct gl_mlp {
    int nlayers;                     /* weight layers */
    int width[GL_MLP_MAXLAYERS + 1]; /* width[0] = 2 inputs, width[nlayers] = 1 logit */
    size_t nparams, off[GL_MLP_MAXLAYERS];
    double *p, *g, *m,
        *v;     /* parameters (W row-major out x in, then b, per layer), gradient, Adam */
    size_t cap; /* batch capacity of the buffers below */
    double *z[GL_MLP_MAXLAYERS], *h[GL_MLP_MAXLAYERS + 1]; /* pre-/post-activation per layer */
    double *d0, *d1, *wt; /* backward scratch; a transposed weight matrix */
    float *tmp;
    long step; /* Adam steps taken */
};
/* hidden: the hidden widths. Parameters drawn as nn.Linear does: U(-1/sqrt(fan_in), +..). */
int gl_mlp_init(struct gl_mlp *m, const int *hidden, int nhidden, size_t batch, struct gl_rng *r);
void gl_mlp_free(struct gl_mlp *m);
/* Logits of n <= cap points (x: 2 per point) into out. */
void gl_mlp_forward(struct gl_mlp *m, const struct gl_act *a, const double *x, size_t n,
                    double *out);
/* Mean binary cross-entropy of n <= cap points; its gradient with respect to p goes into m->g. */
double gl_mlp_loss_grad(struct gl_mlp *m, const struct gl_act *a, const double *x,
                        const unsigned char *y, size_t n);
/* Binary cross-entropy of logit z for label y; *dz (if non-NULL) gets its derivative. */
double gl_mlp_bce(double z, int y, double *dz);
/* One Adam step on m->g (PyTorch's update: beta1 0.9, beta2 0.999, eps 1e-8, bias-corrected). */
void gl_mlp_adam(struct gl_mlp *m, double lr);

/* ---- one training run ---- */
struct gl_moons_cfg {
    size_t samples, batch;
    double noise, test_frac, lr;
    int hidden[GL_MLP_MAXLAYERS - 1], nhidden, epochs;
};
/* The defaults: 2000 samples, noise 0.2, test 20 %, 2-16-16-1, Adam lr 0.001, batch 32, 100 epochs.
 */
void gl_moons_cfg_default(struct gl_moons_cfg *c);

struct gl_moons_run {
    double test_acc, train_acc, train_loss, test_loss; /* after the last epoch */
    unsigned char *pred;                               /* test-set predictions, n_test bytes */
    size_t n_test;
};
/* Trains with activation a from seed: the data, the initial weights and the batch order depend on
 * the seed only, so runs of different activations with the same seed are paired. 0, or -1
 * (out of memory). */
int gl_moons_train(const struct gl_moons_cfg *c, const struct gl_act *a, uint64_t seed,
                   struct gl_moons_run *out);
void gl_moons_run_free(struct gl_moons_run *r);

/* ---- the experiment: activations x seeds, in parallel ---- */
struct gl_moons_exp {
    struct gl_moons_cfg cfg;
    const struct gl_act *acts;
    int nacts, nseeds, threads, progress; /* progress: 0 none, 1 bar, 2 a line every 10 s */
    uint64_t first_seed;
    volatile int *stop;        /* set (by a signal handler) to stop after the running runs */
    struct gl_moons_run *runs; /* [seed * nacts + act] */
    int seeds_done;            /* leading seeds whose every run finished */
};
/* Runs everything (or until *stop); the results stay in e->runs. 0, or -1 (out of memory). */
int gl_moons_exp_run(struct gl_moons_exp *e);
void gl_moons_exp_free(struct gl_moons_exp *e);
/* The result file (docs/moons.md): configuration, every run, summaries, paired comparisons. */
int gl_moons_exp_write(const struct gl_moons_exp *e, const char *path, char *err, size_t errlen);
/* The summary table on f. */
void gl_moons_exp_print(const struct gl_moons_exp *e, FILE *f);

#endif
