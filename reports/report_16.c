/* The native 16-bit kernels in the report (reports/report_int.h): the kernels and peers of the
 * bfloat16 and binary16 sweeps that take and give 16-bit numbers (their "abi" in the result
 * files), their throughput beside memcpy16 and relu16 (the benchmark's 16-bit cases), the 16-bit
 * peers that do not run here (IN/peers16.tsv) and their diagnoses (IN/validate/NAME.json).
 * Written from those files only. */
#include <math.h>
#include <string.h>
#include "report_int.h"

/* the best % correctly rounded of the binary32 kernels of sweep s whose definition is d, and
 * which kernel */
static double best_f32(const struct gl_sweep *s, enum gl_defn d, const char **name)
{
    double best = -1;
    *name = "-";
    for (int i = 0; i < s->nk; i++) {
        const struct gl_stats *a = &s->res[i].acc[0]->all;
        double p = rep_pct(a->correctly_rounded, a->n);
        if (!gl_kernel_abi_is16(s->k[i].abi) && s->k[i].defn == d && p > best)
            best = p, *name = s->k[i].name;
    }
    return best;
}

/* one row per 16-bit kernel of sweep s */
static void rows(FILE *f, const struct rep *r, const struct gl_sweep *s)
{
    for (int i = 0; i < s->nk; i++) {
        const struct gl_kernel_src *k = &s->k[i];
        if (!gl_kernel_abi_is16(k->abi)) continue;
        const struct gl_acc *o = s->res[i].acc[0], *e = s->res[i].acc[1];
        double x = rep_eps(r, k->name, r->pareto_size), m = rep_eps(r, "memcpy16", r->pareto_size);
        double c = rep_cyc(r, k->name, r->pareto_size);
        char u[32], cr[16];
        fprintf(f, "| %s%s | %s | %s | %s | %.3g | %s | %llu | %llu of %llu | %llu |", k->name,
                gl_sweep_complete(s) ? "" : " †", s->fmt.name, gl_defn_name(k->defn),
                rep_ulp(o->all.max_ulp, u, sizeof u), e->all.max_ulp,
                rep_pct_cr(o->all.correctly_rounded, o->all.n, cr, sizeof cr),
                (unsigned long long)(o->all.n - o->all.correctly_rounded),
                (unsigned long long)o->nan_x.correctly_rounded, (unsigned long long)o->nan_x.n,
                (unsigned long long)o->traits.n[GL_TRAIT_ZERO_LOST]);
        const char *mk = rep_timed_mark(r, k->name);
        if (x > 0) /* ratios below 0.1 in 2 significant digits (the frameworks' loops: 0.00049) */
            fprintf(f, " %.0f%s | %.*f%s | %.2f%s |\n", x * 1e-6, mk,
                    m > 0 && x / m < 0.1 ? 1 - (int)floor(log10(x / m)) : 3, m > 0 ? x / m : 0, mk,
                    c, mk);
        else
            fprintf(f, " - | - | - |\n");
    }
}

/* the 16-bit peers that do not run here, and the FAIL and WARN diagnoses of those that do */
static void peers(FILE *f, const struct rep *r)
{
    int out = 0;
    for (int i = 0; i < r->npeers16; i++) {
        const struct rep_peer *p = &r->peers16[i];
        if (!p->runs)
            fprintf(f, "%s`%s` (%s)", out++ ? "; " : "\nNot measured here: ", p->name, p->note);
    }
    if (out) fprintf(f, ".\n");
    out = 0;
    for (int i = 0; i < r->npeers16; i++) {
        const struct rep_peer *p = &r->peers16[i];
        if (!p->validate) continue;
        if (!out++)
            fprintf(f, "\nWhat `gelulab validate --abi F --probes-only` says of each 16-bit peer "
                       "(its FAIL and WARN lines; `data/validate/`):\n\n");
        rep_peer_diagnoses(f, p);
    }
}

void rep_native16_md(FILE *f, const struct rep *r)
{
    int n = 0;
    for (int i = 0; i < r->bf16.nk; i++) n += gl_kernel_abi_is16(r->bf16.k[i].abi);
    for (int i = 0; i < r->f16.nk; i++) n += gl_kernel_abi_is16(r->f16.k[i].abi);
    if (!n) return; /* result files from before the 16-bit kernel ABI */
    char sz[16];
    gl_bench_size_name(r->pareto_size, sz, sizeof sz);
    double m = rep_eps(r, "memcpy16", r->pareto_size), z = rep_eps(r, "relu16", r->pareto_size);
    fprintf(f,
            "\n### Native 16-bit kernels\n\nKernels that take and give bfloat16 or binary16 "
            "numbers (the 16-bit kernel ABI, `gelulab sweep --format F` with `--abi F`), "
            "exhaustive over the 65 536 inputs of their format, every NaN payload included: max "
            "ULP of the format against the own definition and against exact GELU, %% correctly "
            "rounded and the inputs that are not, the NaN inputs that give a NaN, the results "
            "±0 where the correctly rounded value is not (zero lost); then the median "
            "throughput at %s elements and its ratio to memcpy16 (%.0f Melem/s, what copying the "
            "16-bit data costs; not an upper bound) in the same run; relu16 (the cheapest 16-bit "
            "activation) runs at %.0f Melem/s; " REP_MARKS ".\n\n"
            "| kernel | format | defn | own, ULP | exact, ULP | %% CR | not CR | NaN → NaN | zero "
            "lost | "
            "Melem/s %s | × memcpy16 | cyc/elem |\n|---|---|---|---|---|---|---|---|---|---|---|"
            "---|\n",
            sz, m * 1e-6, z * 1e-6, sz);
    rows(f, r, &r->bf16);
    rows(f, r, &r->f16);
    const struct gl_sweep *sw[2] = {&r->bf16, &r->f16};
    for (int i = 0; i < 2; i++) { /* the "not CR" column's results wrong in the sign only */
        char lead[200];
        snprintf(lead, sizeof lead,
                 "%s%s kernels whose results include ±0 where the correctly rounded result is "
                 "the other zero (in the not CR column, though wrong only in the sign of zero): ",
                 i ? "" : "\n", sw[i]->fmt.name);
        rep_zero_sign_md(f, sw[i], lead, 1);
    }
    const char *nb, *nh;
    double pb = best_f32(&r->bf16, GL_DEFN_EXACT, &nb), ph = best_f32(&r->f16, GL_DEFN_EXACT, &nh);
    fprintf(f,
            "\nComputed in binary32 and rounded afterwards (the table above), the best exact-GELU "
            "kernel reaches %.2f%% correctly rounded in bfloat16 (`%s`) and %.2f%% in binary16 "
            "(`%s`)%s\n",
            pb, nb, ph, nh,
            pb < 100 || ph < 100
                ? ": a correctly rounded binary32 result rounded again to 16 bits misses the "
                  "inputs whose binary32 result lands on a 16-bit midpoint (double rounding)."
                : ".");
    peers(f, r);
}
