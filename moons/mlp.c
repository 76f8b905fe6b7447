/* gelulab — the two-moons experiment's activations and network (include/gelulab/moons.h).
 *
 * Activations: forward through binary32 (a registry kernel, or the definition correctly rounded
 * by gl_ref_f32), backward with the exact derivative of the definition in binary64:
 *   exact    Phi(z) + z phi(z)
 *   tanh     (1 + t)/2 + z (1 - t^2) k (1 + 3c z^2) / 2,  t = tanh(k (z + c z^3)), k = sqrt(2/pi),
 *            c = 0.044715
 *   sigmoid  s + a z s (1 - s), s = sigma(a z), a = 1.702 (a = 1: SiLU)
 *   relu     1 for z > 0, else 0
 * or, for "NAME+GRAD", a backward kernel's f' at z rounded to binary32 (dy = 1), times the
 * incoming gradient in binary64
 * Network: fully connected layers, row-major weights (out x in) then biases, in one array; the
 * loss is the mean binary cross-entropy of the logit, max(z, 0) - z y + log1p(exp(-|z|)), whose
 * derivative is sigma(z) - y; backpropagation in the plain order (a fixed summation order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/format.h"
#include "gelulab/moons.h"
#include "gelulab/reference.h"

static const struct {
    const char *name;
    enum gl_act_kind kind;
    enum gl_defn defn;
} act_defns[] = {
    {"relu", GL_ACT_RELU, GL_DEFN_EXACT},     {"gelu-exact", GL_ACT_DEFN, GL_DEFN_EXACT},
    {"gelu-tanh", GL_ACT_DEFN, GL_DEFN_TANH}, {"gelu-sigmoid", GL_ACT_DEFN, GL_DEFN_SIGMOID},
    {"silu", GL_ACT_DEFN, GL_DEFN_SILU},
};
#define N_ACT_DEFNS (sizeof act_defns / sizeof act_defns[0])

/* The backward kernel ALGO/ISA, or ALGO's widest build that runs in this process; NULL after
 * saying why in err */
static const struct gl_impl *grad_kernel(const char *name_given, char *err, size_t errlen)
{
    const struct gl_impl *best = NULL;
    char now[96]; /* a name before 0.2 (grad_fast): the name now (impls/registry.c) */
    const char *name = gl_impl_renamed(name_given, now, sizeof now) ? now : name_given;
    size_t len = strlen(name);
    for (size_t i = 0; i < gl_impl_count(); i++) {
        const struct gl_impl *k = gl_impl_get(i);
        int match = !strcmp(k->name, name) || (!strncmp(k->name, name, len) && k->name[len] == '/');
        if (match && k->bwd && gl_impl_available(k) && (!best || k->isa > best->isa)) best = k;
    }
    if (!best)
        snprintf(err, errlen,
                 "no backward kernel '%s' that runs in this process (see gelulab list: "
                 "gelu-grad-..., gelu-tanh-grad-...)",
                 name_given);
    return best;
}

static int act_parse_forward(const char *name, struct gl_act *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (strlen(name) >= sizeof a->name) {
        snprintf(err, errlen, "activation name too long: '%s'", name);
        return -1;
    }
    strcpy(a->name, name);
    for (size_t i = 0; i < N_ACT_DEFNS; i++)
        if (!strcmp(name, act_defns[i].name)) {
            a->kind = act_defns[i].kind, a->defn = act_defns[i].defn;
            return 0;
        }
    const struct gl_impl *k = gl_impl_find(name);
    if (!k) {
        snprintf(err, errlen,
                 "unknown activation '%s' (relu, gelu-exact, gelu-tanh, gelu-sigmoid, silu, or a "
                 "kernel from 'gelulab list')",
                 name);
        return -1;
    }
    if (!k->f32 || !gl_impl_available(k)) {
        snprintf(err, errlen, "kernel '%s' cannot run in this process (%s)", name,
                 k->u16                  ? "a 16-bit kernel: the network trains in binary32"
                 : k->bwd                ? "a backward kernel: give it as NAME+GRAD"
                 : k->isa == GL_ISA_NEON ? "NEON runs under emulation only"
                                         : "ISA not supported here");
        return -1;
    }
    a->kind = GL_ACT_KERNEL, a->defn = k->defn, a->impl = k;
    if (!strcmp(k->family, "relu")) a->kind = GL_ACT_RELU; /* its derivative is the step */
    return 0;
}

/* NAME or NAME+GRAD (a backward kernel for the backward pass) */
int gl_act_parse(const char *name, struct gl_act *a, char *err, size_t errlen)
{
    const char *plus = strchr(name, '+');
    if (!plus) return act_parse_forward(name, a, err, errlen);
    char fwd[64];
    snprintf(fwd, sizeof fwd, "%.*s", (int)(plus - name), name);
    if (act_parse_forward(fwd, a, err, errlen) != 0) return -1;
    if (a->kind == GL_ACT_RELU)
        return snprintf(err, errlen, "'%s': relu takes no backward kernel", name), -1;
    if (strlen(name) >= sizeof a->name)
        return snprintf(err, errlen, "activation name too long: '%s'", name), -1;
    if (!(a->grad = grad_kernel(plus + 1, err, errlen))) return -1;
    snprintf(a->name, sizeof a->name, "%s", name);
    return 0;
}

static int act_is_relu(const struct gl_act *a)
{
    return a->kind == GL_ACT_RELU;
}

static double sigma(double z)
{
    if (z >= 0) return 1 / (1 + exp(-z));
    double e = exp(z);
    return e / (1 + e);
}

/* The definition in binary64 (gradient checks): the C-library kernels' binary64 versions
 * (impls/libm_kernels.c), no rounding to binary32. */
static gl_kernel_f64 defn64(const struct gl_act *a)
{
    static const char *const name[GL_DEFN_COUNT] = {[GL_DEFN_EXACT] = "gelu-erfc-stable",
                                                    [GL_DEFN_TANH] = "gelu-tanh-libm",
                                                    [GL_DEFN_SIGMOID] = "gelu-sigmoid-libm",
                                                    [GL_DEFN_SILU] = "silu-libm"};
    return gl_impl_find(act_is_relu(a) ? "relu" : name[a->defn])->f64;
}

void gl_act_forward(const struct gl_act *a, const double *z, double *h, float *tmp, size_t n)
{
    if (a->binary64) {
        defn64(a)(z, h, n);
        return;
    }
    for (size_t i = 0; i < n; i++) tmp[i] = (float)z[i];
    if (a->kind == GL_ACT_KERNEL || (a->kind == GL_ACT_RELU && a->impl))
        a->impl->f32(tmp, tmp, n);
    else if (a->kind == GL_ACT_RELU)
        for (size_t i = 0; i < n; i++) tmp[i] = tmp[i] > 0 ? tmp[i] : 0;
    else
        for (size_t i = 0; i < n; i++)
            tmp[i] = (float)gl_ref_f32(a->defn, tmp[i], &gl_format_f32, NULL);
    for (size_t i = 0; i < n; i++) h[i] = tmp[i];
}

double gl_act_deriv(const struct gl_act *a, double z)
{
    if (act_is_relu(a)) return z > 0 ? 1 : 0;
    if (a->grad) { /* the backward kernel's f', as gl_act_backward applies it */
        double g = 1;
        float tmp[2];
        gl_act_backward(a, &z, &g, tmp, 1);
        return g;
    }
    switch (a->defn) {
    case GL_DEFN_EXACT:
        return 0.5 * erfc(-z * M_SQRT1_2) + z * exp(-0.5 * z * z) / sqrt(2 * M_PI);
    case GL_DEFN_TANH: {
        double k = sqrt(2 / M_PI), c = 0.044715, t = tanh(k * (z + c * z * z * z));
        return 0.5 * (1 + t) + 0.5 * z * (1 - t * t) * k * (1 + 3 * c * z * z);
    }
    case GL_DEFN_SIGMOID: {
        double s = sigma(1.702 * z);
        return s + 1.702 * z * s * (1 - s);
    }
    case GL_DEFN_SILU: {
        double s = sigma(z);
        return s + z * s * (1 - s);
    }
    default:
        return NAN;
    }
}

static int grad_available(const char *algo)
{
    char err[200];
    return grad_kernel(algo, err, sizeof err) != NULL;
}

void gl_act_backward(const struct gl_act *a, const double *z, double *g, float *tmp, size_t n)
{
    if (!a->grad) {
        for (size_t i = 0; i < n; i++) g[i] *= gl_act_deriv(a, z[i]);
        return;
    }
    for (size_t i = 0; i < n; i++) tmp[i] = (float)z[i], tmp[n + i] = 1.0f;
    a->grad->bwd(tmp, tmp + n, tmp, n); /* f'(z), over z */
    for (size_t i = 0; i < n; i++) g[i] *= tmp[i];
}

static int same_algo(const char *a, const char *b, size_t len)
{
    return !strncmp(a, b, len) && b[len] == '/';
}

int gl_act_default_list(const char **names, int max)
{
    int n = 0;
    for (size_t i = 0; i < N_ACT_DEFNS && n < max; i++) names[n++] = act_defns[i].name;
    /* per algorithm ("gelu-erfc-fast" of "gelu-erfc-fast/avx2"), its build for the widest ISA this
     * process runs */
    for (size_t i = 0; i < gl_impl_count() && n < max; i++) {
        const char *name = gl_impl_get(i)->name, *slash = strchr(name, '/');
        size_t len = slash ? (size_t)(slash - name) : 0, j;
        for (j = 0; slash && j < i; j++)
            if (same_algo(name, gl_impl_get(j)->name, len)) break;
        if (!slash || j < i) continue; /* not an ISA family, or its algorithm is done */
        const struct gl_impl *best = NULL;
        for (j = i; j < gl_impl_count(); j++) {
            const struct gl_impl *o = gl_impl_get(j);
            if (same_algo(name, o->name, len) && o->f32 && gl_impl_available(o) &&
                (!best || o->isa > best->isa))
                best = o;
        }
        if (best) names[n++] = best->name;
    }
    if (n < max && gl_impl_find("gelu-tanh-lut-f16")) names[n++] = "gelu-tanh-lut-f16";
    /* trained with an approximate gradient: our binary32 backward kernels (widest build) */
    if (n < max && grad_available("gelu-grad-fast")) names[n++] = "gelu-exact+gelu-grad-fast";
    if (n < max && grad_available("gelu-tanh-grad-fast"))
        names[n++] = "gelu-tanh+gelu-tanh-grad-fast";
    return n;
}

/* ---- the network ---- */

static double uniform_pm(struct gl_rng *r, double b)
{
    return b * (2 * gl_rng_uniform(r) - 1);
}

int gl_mlp_init(struct gl_mlp *m, const int *hidden, int nhidden, size_t batch, struct gl_rng *r)
{
    memset(m, 0, sizeof *m);
    if (nhidden < 0 || nhidden >= GL_MLP_MAXLAYERS || batch < 1) return -1;
    m->nlayers = nhidden + 1;
    m->width[0] = 2, m->width[m->nlayers] = 1;
    int wmax = 2;
    for (int l = 0; l < nhidden; l++) {
        if (hidden[l] < 1 || hidden[l] > 4096) return -1;
        m->width[l + 1] = hidden[l];
        if (hidden[l] > wmax) wmax = hidden[l];
    }
    for (int l = 0; l < m->nlayers; l++) {
        m->off[l] = m->nparams;
        m->nparams += (size_t)m->width[l + 1] * (m->width[l] + 1);
    }
    m->cap = batch;
    m->p = calloc(4 * m->nparams, sizeof *m->p);
    m->d0 = calloc(batch * wmax, sizeof *m->d0);
    m->d1 = calloc(batch * wmax, sizeof *m->d1);
    m->tmp = calloc(2 * batch * wmax, sizeof *m->tmp); /* a backward kernel's x and dy */
    m->wt = calloc((size_t)wmax * wmax, sizeof *m->wt);
    int ok = m->p && m->d0 && m->d1 && m->tmp && m->wt;
    for (int l = 0; l <= m->nlayers; l++) {
        if (l < m->nlayers) ok = ok && (m->z[l] = calloc(batch * m->width[l + 1], sizeof(double)));
        ok = ok && (m->h[l] = calloc(batch * m->width[l], sizeof(double)));
    }
    if (!ok) {
        gl_mlp_free(m);
        return -1;
    }
    m->g = m->p + m->nparams, m->m = m->g + m->nparams, m->v = m->m + m->nparams;
    for (int l = 0; l < m->nlayers; l++) { /* nn.Linear: weight, then bias */
        int in = m->width[l], out = m->width[l + 1];
        double b = 1 / sqrt(in), *w = m->p + m->off[l];
        for (int i = 0; i < out * in + out; i++) w[i] = uniform_pm(r, b);
    }
    return 0;
}

void gl_mlp_free(struct gl_mlp *m)
{
    free(m->p), free(m->d0), free(m->d1), free(m->tmp), free(m->wt);
    for (int l = 0; l <= GL_MLP_MAXLAYERS; l++) {
        if (l < GL_MLP_MAXLAYERS) free(m->z[l]);
        free(m->h[l]);
    }
    memset(m, 0, sizeof *m);
}

/* z = W h + b per point, summed in the order b, w_0 h_0, w_1 h_1, ...: over a transposed copy of
 * W so that the inner loop runs along the outputs (vectorisable, the same order per output). */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define GL_CLONE_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define GL_CLONE_AVX2
#endif

/* 256-bit vectors where the CPU has them: the same operations in the same order (no FMA, the
 * build forbids contraction), so the same bits. */
GL_CLONE_AVX2
static void layer_forward(const double *w, int in, int o, const double *h, size_t n, double *z,
                          double *wt)
{
    const double *b = w + (size_t)o * in;
    for (int j = 0; j < o; j++)
        for (int k = 0; k < in; k++) wt[k * o + j] = w[j * in + k];
    for (size_t i = 0; i < n; i++) {
        double *zi = z + i * o;
        for (int j = 0; j < o; j++) zi[j] = b[j];
        for (int k = 0; k < in; k++) {
            double hk = h[i * in + k];
            const double *wk = wt + k * o;
            for (int j = 0; j < o; j++) zi[j] += wk[j] * hk;
        }
    }
}

void gl_mlp_forward(struct gl_mlp *m, const struct gl_act *a, const double *x, size_t n,
                    double *out)
{
    memcpy(m->h[0], x, 2 * n * sizeof *x);
    for (int l = 0; l < m->nlayers; l++) {
        int in = m->width[l], o = m->width[l + 1];
        layer_forward(m->p + m->off[l], in, o, m->h[l], n, m->z[l], m->wt);
        if (l + 1 < m->nlayers) gl_act_forward(a, m->z[l], m->h[l + 1], m->tmp, n * o);
    }
    if (out) memcpy(out, m->z[m->nlayers - 1], n * sizeof *out);
}

double gl_mlp_bce(double z, int y, double *dz)
{
    if (dz) *dz = sigma(z) - y;
    return fmax(z, 0) - z * y + log1p(exp(-fabs(z)));
}

GL_CLONE_AVX2
double gl_mlp_loss_grad(struct gl_mlp *m, const struct gl_act *a, const double *x,
                        const unsigned char *y, size_t n)
{
    gl_mlp_forward(m, a, x, n, NULL);
    const double *zl = m->z[m->nlayers - 1];
    double loss = 0, *delta = m->d0, *next = m->d1;
    for (size_t i = 0; i < n; i++) {
        loss += gl_mlp_bce(zl[i], y[i], &delta[i]);
        delta[i] /= (double)n;
    }
    memset(m->g, 0, m->nparams * sizeof *m->g);
    for (int l = m->nlayers - 1; l >= 0; l--) {
        int in = m->width[l], o = m->width[l + 1];
        const double *w = m->p + m->off[l], *h = m->h[l];
        double *gw = m->g + m->off[l], *gb = gw + (size_t)o * in;
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < o; j++) {
                double d = delta[i * o + j];
                gb[j] += d;
                for (int k = 0; k < in; k++) gw[j * in + k] += d * h[i * in + k];
            }
        if (l == 0) break;
        const double *zp = m->z[l - 1];
        for (size_t i = 0; i < n; i++) { /* W^T delta, summed over j in order */
            double *ni = next + i * in;
            for (int k = 0; k < in; k++) ni[k] = 0;
            for (int j = 0; j < o; j++) {
                double dj = delta[i * o + j];
                for (int k = 0; k < in; k++) ni[k] += w[j * in + k] * dj;
            }
        }
        gl_act_backward(a, zp, next, m->tmp, n * (size_t)in);
        double *t = delta;
        delta = next, next = t;
    }
    return loss / (double)n;
}

void gl_mlp_adam(struct gl_mlp *m, double lr)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    m->step++;
    double bc1 = 1 - pow(b1, (double)m->step), bc2 = 1 - pow(b2, (double)m->step);
    double step = lr / bc1, sbc2 = sqrt(bc2);
    for (size_t i = 0; i < m->nparams; i++) {
        m->m[i] = b1 * m->m[i] + (1 - b1) * m->g[i];
        m->v[i] = b2 * m->v[i] + (1 - b2) * m->g[i] * m->g[i];
        m->p[i] -= step * m->m[i] / (sqrt(m->v[i]) / sbc2 + eps);
    }
}
