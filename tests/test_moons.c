/* The two-moons experiment's parts against independently known values: Student-t quantiles and
 * p-values (mpmath, 40 digits), Holm's adjustment (by hand), the moons geometry, the network's
 * gradient against central finite differences, Adam's first step, and a seeded run's recorded
 * result (bit for bit, this build). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gelulab/moons.h"
#include "gelulab/stats.h"

static void check_rel(double got, double want, double tol, const char *what)
{
    CHECK(fabs(got - want) <= tol * fabs(want), "%s: got %.17g want %.17g", what, got, want);
}

static void test_stats(void)
{
    /* quantiles t_{0.975, nu} (mpmath findroot on the regularised incomplete beta, 40 digits) */
    check_rel(gl_t_quantile(0.975, 1), 12.706204736174704646, 1e-13, "t(0.975, 1)");
    check_rel(gl_t_quantile(0.975, 4), 2.7764451051977943578, 1e-13, "t(0.975, 4)");
    check_rel(gl_t_quantile(0.975, 19), 2.0930240544083097692, 1e-13, "t(0.975, 19)");
    check_rel(gl_t_quantile(0.975, 29), 2.0452296421327042982, 1e-13, "t(0.975, 29)");
    check_rel(gl_t_quantile(0.025, 29), -2.0452296421327042982, 1e-13, "t(0.025, 29)");
    CHECK(gl_betainc(2, 3, 0.5) == 0.6875, "I_0.5(2,3) = 11/16: %.17g", gl_betainc(2, 3, 0.5));
    check_rel(gl_t_cdf(1, 1), 0.75, 1e-15, "Cauchy cdf(1)");
    CHECK(gl_t_cdf(0, 7) == 0.5, "t cdf(0)");
    /* paired t: d = 1 2 3 4 4: mean 2.8, sd sqrt(1.7), t = 4.8019603839902474466, p (df 4) */
    double a[5] = {1, 2, 3, 4, 5}, b[5] = {0, 0, 0, 0, 1};
    struct gl_paired r;
    gl_stats_paired(a, b, 5, &r);
    check_rel(r.d.mean, 2.8, 1e-15, "paired mean");
    check_rel(r.d.sd, sqrt(1.7), 1e-15, "paired sd");
    check_rel(r.t, 4.8019603839902474466, 1e-14, "paired t");
    check_rel(r.p, 0.008635792607551538124, 1e-12, "paired p");
    CHECK(r.wins == 5 && r.ties == 0 && r.losses == 0, "wins %d ties %d losses %d", r.wins, r.ties,
          r.losses);
    check_rel(r.d.ci_hi - r.d.mean, 2.7764451051977943578 * sqrt(1.7) / sqrt(5), 1e-13, "CI half");
    gl_stats_paired(a, a, 5, &r);
    CHECK(r.p == 1 && r.ties == 5 && r.d.mean == 0, "identical samples: p %g ties %d", r.p, r.ties);
    /* Holm, by hand: sorted 0.005 0.01 0.03 0.04 -> 0.02 0.03 0.06 max(0.04, 0.06) */
    double p[4] = {0.01, 0.04, 0.03, 0.005}, adj[4], want[4] = {0.03, 0.06, 0.06, 0.02};
    gl_stats_holm(p, 4, adj);
    for (int i = 0; i < 4; i++) check_rel(adj[i], want[i], 1e-15, "Holm");
}

static void test_data(void)
{
    struct gl_moons_data d;
    CHECK(gl_moons_make(2000, 0, 0.2, 7, &d) == 0, "make_moons");
    CHECK(d.n == 2000 && d.n_train == 1600, "split %zu/%zu", d.n_train, d.n);
    size_t ones = 0;
    double worst = 0;
    for (size_t i = 0; i < d.n; i++) { /* noise 0: on the unit circles around (0,0), (1,0.5) */
        double x = d.x[2 * i] - d.y[i], y = d.x[2 * i + 1] - 0.5 * d.y[i];
        double r = x * x + y * y, up = d.y[i] ? -y : y; /* outer moon upper, inner lower half */
        worst = fmax(worst, fabs(r - 1));
        CHECK(up >= -1e-15, "point %zu on the wrong half", i);
        ones += d.y[i];
    }
    CHECK(ones == 1000 && worst < 1e-15, "labels %zu, max |r^2 - 1| %g", ones, worst);
    gl_moons_free(&d);
    /* noise 0.2: the residuals' sd; the estimate of sd from 4000 normals has sd 0.2/sqrt(8000) */
    struct gl_moons_data c, n;
    gl_moons_make(2000, 0, 0.2, 3, &c), gl_moons_make(2000, 0.2, 0.2, 3, &n);
    double ss = 0;
    for (size_t i = 0; i < 4000; i++) ss += (n.x[i] - c.x[i]) * (n.x[i] - c.x[i]);
    CHECK(fabs(sqrt(ss / 4000) - 0.2) < 5 * 0.2 / sqrt(8000), "noise sd %g", sqrt(ss / 4000));
    CHECK(!memcmp(n.y, c.y, 2000), "same seed, same shuffle");
    gl_moons_free(&c), gl_moons_free(&n);
}

/* |analytic - central difference| <= 1e-8: the difference's own error is O(h^2 L''') + O(eps L/h),
 * about 1e-10 with h = 1e-6 and L ~ 1, so 1e-8 leaves a factor 100 */
static void test_gradient(const char *name)
{
    struct gl_act a;
    char err[200];
    CHECK(gl_act_parse(name, &a, err, sizeof err) == 0, "%s", err);
    a.binary64 = 1;
    struct gl_rng r;
    gl_rng_seed(&r, 11, 0);
    int hidden[2] = {5, 4};
    struct gl_mlp m;
    CHECK(gl_mlp_init(&m, hidden, 2, 7, &r) == 0, "init");
    double x[14];
    unsigned char y[7];
    for (int i = 0; i < 14; i++) x[i] = 3 * gl_rng_normal(&r);
    for (int i = 0; i < 7; i++) y[i] = i & 1;
    gl_mlp_loss_grad(&m, &a, x, y, 7);
    double *g = malloc(m.nparams * sizeof *g), worst = 0, h = 1e-6;
    memcpy(g, m.g, m.nparams * sizeof *g);
    for (size_t i = 0; i < m.nparams; i++) {
        double p = m.p[i];
        m.p[i] = p + h;
        double lp = gl_mlp_loss_grad(&m, &a, x, y, 7);
        m.p[i] = p - h;
        double lm = gl_mlp_loss_grad(&m, &a, x, y, 7);
        m.p[i] = p;
        worst = fmax(worst, fabs((lp - lm) / (2 * h) - g[i]));
    }
    CHECK(worst <= 1e-8, "%s: gradient vs central differences, max difference %g", name, worst);
    free(g);
    gl_mlp_free(&m);
}

static void test_derivatives(void)
{
    const char *names[] = {"gelu-exact", "gelu-tanh", "gelu-sigmoid", "silu"};
    for (int k = 0; k < 4; k++) {
        struct gl_act a;
        char err[200];
        gl_act_parse(names[k], &a, err, sizeof err);
        a.binary64 = 1;
        double worst = 0;
        for (double z = -8; z <= 8; z += 0.0625) {
            double h = 1e-5, zz[2] = {z + h, z - h}, v[2];
            gl_act_forward(&a, zz, v, NULL, 2);
            worst = fmax(worst, fabs((v[0] - v[1]) / (2 * h) - gl_act_deriv(&a, z)));
        }
        CHECK(worst < 1e-8, "%s: derivative vs central differences %g", names[k], worst);
    }
    /* known values: exact GELU'(0) = 1/2, GELU'(1) = Phi(1) + phi(1) (mpmath, 30 digits) */
    struct gl_act e;
    char err[200];
    gl_act_parse("gelu-exact", &e, err, sizeof err);
    CHECK(gl_act_deriv(&e, 0) == 0.5, "GELU'(0)");
    check_rel(gl_act_deriv(&e, 1), 1.0833154705876862984, 4e-16, "GELU'(1)");
}

static void test_adam(void)
{
    /* first step: m^ = g, v^ = g^2, so p moves by lr g / (|g| + 1e-8) */
    struct gl_rng r;
    gl_rng_seed(&r, 1, 0);
    struct gl_mlp m;
    gl_mlp_init(&m, NULL, 0, 1, &r); /* 2 -> 1: three parameters */
    double p0[3] = {m.p[0], m.p[1], m.p[2]}, g[3] = {0.5, -2, 1e-3};
    memcpy(m.g, g, sizeof g);
    gl_mlp_adam(&m, 0.001);
    for (int i = 0; i < 3; i++)
        check_rel(p0[i] - m.p[i], 0.001 * g[i] / (fabs(g[i]) + 1e-8), 1e-12, "Adam step 1");
    gl_mlp_free(&m);
}

static void test_recorded_run(void)
{
    struct gl_moons_cfg c;
    gl_moons_cfg_default(&c);
    c.samples = 400, c.epochs = 20, c.hidden[0] = c.hidden[1] = 8;
    const char *names[2] = {"relu", "gelu-exact"};
    /* recorded from this code (test accuracy out of 80 test points, final training loss) */
    const double want_acc[2] = {66.0 / 80, 67.0 / 80};
    const double want_loss[2] = {0x1.1e242e1f1d113p-1, 0x1.f34c862703ce6p-2};
    for (int k = 0; k < 2; k++) {
        struct gl_act a;
        char err[200];
        gl_act_parse(names[k], &a, err, sizeof err);
        struct gl_moons_run r1, r2;
        gl_moons_train(&c, &a, 42, &r1);
        gl_moons_train(&c, &a, 42, &r2);
        printf("%s: test acc %.17g (%g/80), train loss %a\n", names[k], r1.test_acc,
               r1.test_acc * 80, r1.train_loss);
        CHECK(r1.test_acc == r2.test_acc && r1.train_loss == r2.train_loss &&
                  !memcmp(r1.pred, r2.pred, r1.n_test),
              "%s: two runs of seed 42 differ", names[k]);
        CHECK(r1.test_acc == want_acc[k], "%s: test accuracy %.17g, recorded %.17g", names[k],
              r1.test_acc, want_acc[k]);
        CHECK(r1.train_loss == want_loss[k], "%s: train loss %a, recorded %a", names[k],
              r1.train_loss, want_loss[k]);
        gl_moons_run_free(&r1), gl_moons_run_free(&r2);
    }
}

int main(void)
{
    test_stats();
    test_data();
    const char *acts[] = {"gelu-exact", "gelu-tanh", "gelu-sigmoid", "silu", "relu"};
    for (int i = 0; i < 5; i++) test_gradient(acts[i]);
    test_derivatives();
    test_adam();
    test_recorded_run();
    return gl_check_summary("test_moons");
}
