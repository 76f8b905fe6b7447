/* REPORT.md from the loaded result files (reports/report_int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_int.h"

/* The mark of a figure taken from an incomplete sweep (a partial merge, an interrupted run) */
static const char *mark(const struct gl_sweep *s)
{
    return gl_sweep_complete(s) ? "" : " †";
}

static void md_incomplete(FILE *f, const struct rep *r)
{
    const struct gl_sweep *sw[4] = {&r->f32, &r->bf16, &r->f16, &r->f64};
    const char *file[4] = {"f32.json", "bf16.json", "f16.json", "f64.json"};
    for (int i = 0; i < 4; i++) {
        if (gl_sweep_complete(sw[i])) continue;
        char missing[600];
        gl_sweep_missing(sw[i], 1, missing, sizeof missing);
        fprintf(f,
                "**Incomplete sweep**: `%s` covers %llu of %llu chunks (missing: %s); every "
                "figure taken from it is marked †.\n\n",
                file[i], (unsigned long long)gl_sweep_chunks_done(sw[i]),
                (unsigned long long)sw[i]->n_chunks, missing);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "median of 3 repetitions, one core; ..." with the repetitions' spread over the main run's
 * benchmarks (case and size): the median and 90th percentile of their coefficients of
 * variation, so that a reader knows how far apart two figures must be to differ */
static void bench_spread(const struct gl_bench *b, char *buf, size_t len)
{
    double *cv = rep_calloc(b->nrows, sizeof *cv);
    size_t n = 0;
    int lo = 0, hi = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        const struct gl_bench_row *w = &b->rows[i];
        if (w->reps < 2 || w->scaled) continue; /* a run of its own: its own noise */
        cv[n++] = w->eps_cv;
        lo = !lo || w->reps < lo ? w->reps : lo, hi = w->reps > hi ? w->reps : hi;
    }
    if (!n) {
        snprintf(buf, len, "median of repetitions, one core");
    } else {
        qsort(cv, n, sizeof *cv, cmp_double);
        char reps[24];
        snprintf(reps, sizeof reps, lo == hi ? "%d" : "%d-%d", lo, hi);
        snprintf(buf, len,
                 "median of %s repetitions, one core; the repetitions' spread (coefficient of "
                 "variation of elements/s) over the run's %zu benchmarks, case and size: median "
                 "%.1f %%, 90th percentile %.1f %%",
                 reps, n, 100 * cv[(n - 1) / 2], 100 * cv[(size_t)(0.9 * (double)(n - 1))]);
    }
    free(cv);
}

static void md_header(FILE *f, const struct rep *r)
{
    const char *uarch = rep_cpu_uarch(r);
    fprintf(f, "# gelulab report\n\n");
    fprintf(f,
            "Accuracy and cost of GELU implementations, measured against correctly rounded MPFR "
            "references on this machine (%s%s%s%s%s%s%s), gelulab %s%scommit %s, %s. Every figure "
            "below is read from the result files in the report's input directory; none is typed "
            "in.\n\n",
            rep_str(rep_fact(r, "machine", "cpu")), uarch ? ", " : "", uarch ? uarch : "",
            rep_fact(r, "machine", "cpu_id") ? ", " : "",
            rep_fact(r, "machine", "cpu_id") ? rep_str(rep_fact(r, "machine", "cpu_id")) : "",
            rep_isa_phrase(r),
            rep_cpu_has(r, "hypervisor") ? "; a virtual machine: the hypervisor flag" : "",
            rep_fact(r, "machine", "gelulab") ? rep_str(rep_fact(r, "machine", "gelulab")) : "",
            rep_fact(r, "machine", "gelulab") ? ", " : "",
            rep_str(rep_fact(r, "machine", "commit")), rep_str(rep_fact(r, "machine", "date")));
    char spread[300], caches[200] = "", scale[160] = "";
    bench_spread(&r->bench, spread, sizeof spread);
    for (int c = 0, k = 0; c < 3 && k >= 0 && (size_t)k < sizeof caches; c++)
        if (r->bench.cache[c] > 0) /* the caches the throughput charts mark */
            k += snprintf(caches + k, sizeof caches - (size_t)k, "%sL%d %.0f KiB",
                          k ? ", " : "; caches (Google Benchmark's context): ", c + 1,
                          r->bench.cache[c] / 1024);
    if (r->bench.compare[0])
        snprintf(scale, sizeof scale,
                 "; a run of its own (ˢ) is put on this run's scale by `%s`, timed in both",
                 r->bench.compare);
    fprintf(f, "binary32 sweep: %s, %llu inputs%s. Benchmarks: %s%s%s.\n\n",
            r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "**exhaustive** (all 2^32 bit patterns)"
                                               : "quick (every 61st bit pattern)",
            (unsigned long long)r->f32.n_inputs,
            r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "" : " (QUICK=1: sampled, not a proof)", spread,
            caches, scale);
    md_incomplete(f, r);
}

static void md_summary(FILE *f, const struct rep *r)
{
    char sl[16], libs[200];
    rep_peer_libraries(r, libs, sizeof libs);
    gl_bench_size_name(r->pareto_size, sl, sizeof sl);
    fprintf(
        f,
        "## Summary\n\nOne row per kernel and peer swept (libgelulab's entry points: in their "
        "own section); `relu` is ReLU, whose own definition is exact GELU: its errors are "
        "ReLU's distance from GELU. ISA: what a build's vector code is written for (`scalar`: "
        "one lane, plain C for the baseline x86-64, which the compiler may still vectorise with "
        "SSE2; a peer: the code its library runs). Max ULP error per region (tail_neg: x < -5, "
        "core: [-5, 5], "
        "pos: x > 5) "
        "against the kernel's own definition and against exact GELU, over the results that are "
        "finite where the reference is (the others: listed below the table); beside the worst, "
        "the typical error: the mean ULP over the core's inputs (own definition; over its "
        "bit patterns, %.1f %% of which have |x| < 2^-10, so it is mostly the error on tiny "
        "inputs: a mean over x uniform on [−5, 5] would weigh them by their width), and the "
        "median and the 99.9th percentile of the ULP errors over all inputs (own definition; "
        "each bit pattern counted once, so that tiny and huge |x|, where most kernels are "
        "exact, weigh as much as the core; "
        "each the upper edge of the power-of-two bin that holds it: ≤ 0.5, ≤ 1, ≤ 2, ≤ 2^2, ...; a "
        "non-finite result counts as > 2^39); max absolute "
        "error over all finite inputs (own definition); %% correctly rounded (own definition, "
        "bit for bit: +0 where the correctly rounded result is −0 counts as not; how many such "
        "results each kernel gives: below the table); throughput in "
        "million elements/s per array size (uniform inputs on [−8, 8); other inputs: Speed by "
        "input distribution, below); TSC cycles/element and ratios at %s floats, to "
        "`relu-vec` (the benchmark's vectorised ReLU, the same traffic and a max: timed, not "
        "swept, so it has no row) and to the peer the last column names. `*` "
        "marks the Pareto front "
        "(no kernel both cheaper and more accurate against exact GELU on the core). Peers "
        "(%s) are swept through the same code the benchmark times, or where a peer's path says "
        "so through its twin, the same call with its library's error reporting off, whose results "
        "are the call's bit for bit (a worker per library; "
        "ONNX Runtime 1.30 served through Node, swept but not timed: `-` in the speed columns; "
        "the Python frameworks served by `bench/py_eval.py`). " REP_MARKS "; ~: a rough "
        "figure, its repetitions' coefficient of variation above %.0f %%.\n\n",
        100.0 * 0x3a800000 / (0x40a00000 + 1.0), /* binary32 patterns in [0, 2^-10), [0, 5] */
        sl, libs, 100 * REP_NOISY);
    fprintf(f, "| kernel | defn | ISA | own: core, ULP | own: all, ULP | exact: tail_neg, ULP | "
               "exact: core, ULP | exact: pos, ULP | mean ULP, own: core | ULP, own: all, median / "
               "99.9 %% | max abs | %% CR |");
    for (size_t s = 0; s < r->nsizes; s++)
        gl_bench_size_name(r->sizes[s], sl, sizeof sl), fprintf(f, " Melem/s %s |", sl);
    int cmp = r->bench.compare[0] != 0; /* the comparison peer, named by the benchmark file */
    fprintf(f, " cyc/elem | × relu-vec |");
    if (cmp) fprintf(f, " × %s |", r->bench.compare); /* the peer's name: which oneDNN */
    fprintf(f, "\n|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (size_t s = 0; s < r->nsizes; s++) fprintf(f, "---|");
    fprintf(f, cmp ? "---|---|---|\n" : "---|---|\n");
    double relu = rep_eps(r, "relu-vec", r->pareto_size),
           dnnl = cmp ? rep_eps(r, r->bench.compare, r->pareto_size) : 0;
    for (int i = 0; i < r->nrk; i++) {
        const struct rep_kernel *k = &r->rk[i];
        const struct gl_acc *o = k->res->acc[0], *e = k->res->acc[1];
        if (rep_lib_entry(k->k)) continue; /* in the section on libgelulab, beside its build */
        char typical[64], u[2][32], cr[16];
        rep_typical(o, typical, sizeof typical);
        fprintf(f, "| %s%s%s | %s | %s | %s | %s | %.3g | %.3g | %.3g | %.3g | %s | %.3g | %s |",
                k->k->name, k->pareto ? " *" : "", mark(&r->f32), gl_defn_name(k->k->defn), k->isa,
                rep_ulp(o->region[GL_REGION_CORE].max_ulp, u[0], sizeof u[0]),
                rep_ulp(o->all.max_ulp, u[1], sizeof u[1]), e->region[GL_REGION_TAIL_NEG].max_ulp,
                e->region[GL_REGION_CORE].max_ulp, e->region[GL_REGION_POS].max_ulp,
                gl_stats_mean_ulp(&o->region[GL_REGION_CORE]), typical, o->all.max_abs,
                rep_pct_cr(o->all.correctly_rounded, o->all.n, cr, sizeof cr));
        const char *fw = rep_timed_mark(r, k->k->name), *nz;
        for (size_t s = 0; s < r->nsizes; s++)
            k->eps[s] > 0 ? fprintf(f, " %.0f%s%s |", k->eps[s] * 1e-6, fw,
                                    rep_noise_mark(r, k->k->name, r->sizes[s]))
                          : fprintf(f, " - |");
        double x = rep_eps(r, k->k->name, r->pareto_size);
        nz = rep_noise_mark(r, k->k->name, r->pareto_size);
        if (x > 0) /* a ratio is rough where either figure is */
            fprintf(f, " %.2f%s%s | %.3f%s%s |", k->cyc, fw, nz, relu > 0 ? x / relu : NAN, fw,
                    *nz ? nz : rep_noise_mark(r, "relu-vec", r->pareto_size));
        else
            fprintf(f, " - | - |");
        if (cmp)
            x > 0 ? fprintf(f, " %.3f%s%s |", dnnl > 0 ? x / dnnl : NAN, fw,
                            *nz ? nz : rep_noise_mark(r, r->bench.compare, r->pareto_size))
                  : fprintf(f, " - |");
        fputc('\n', f);
        if (k->res->failed) fprintf(f, "| ↳ **failed**: %s |\n", k->res->error);
    }
    fprintf(f, "\nKernels with a non-finite result where the reference is finite, or a finite "
               "one where it is not (NaN inputs included; left out of the ULP columns): ");
    int any = 0;
    for (int i = 0; i < r->nrk; i++)
        if (r->rk[i].res->acc[0]->all.nonfinite)
            fprintf(f, "%s%s (%llu inputs)", any++ ? ", " : "", r->rk[i].k->name,
                    (unsigned long long)r->rk[i].res->acc[0]->all.nonfinite);
    fprintf(f, "%s.\n\n", any ? "" : "none");
    rep_zero_sign_md(f, &r->f32,
                     "Kernels whose results include ±0 where the correctly rounded result is the "
                     "other zero (−0 below the underflow of GELU's negative tail, and at x = −0), "
                     "not correctly rounded in the % CR column, though wrong only in the sign of "
                     "zero: ",
                     0);
    fprintf(f, "\nWorst input of each kernel (own definition), as C hex-floats:\n\n| kernel | x | "
               "result | reference | ULP |\n|---|---|---|---|---|\n");
    for (int i = 0; i < r->nrk; i++) {
        const struct gl_worst *w = &r->rk[i].res->acc[0]->all.worst;
        if (r->rk[i].twin) continue;
        fprintf(f, "| %s | `%a` | `%a` | `%a` | %.4g |\n", r->rk[i].k->name, w->x, w->y, w->r,
                w->ulp);
    }
    /* the rows left out: each repeats a listed kernel's results, so its worst input */
    fprintf(f, "\nLeft out of this table and of the per-binade and histogram charts below, "
               "each with the results of the kernel it follows (bit-identical on "
               "every swept input, or a build of the same algorithm, whose contract is the same "
               "bits on every ISA), so the same worst input and the same curves:");
    int groups = 0;
    for (int i = 0; i < r->nrk; i++) {
        if (r->rk[i].twin) continue;
        int n = 0;
        for (int j = i + 1; j < r->nrk; j++)
            if (r->rk[j].twin && rep_twin_lead(r, j) == i)
                fprintf(f, "%s`%s`", n++ ? ", " : groups++ ? "; " : " ", r->rk[j].k->name);
        if (n) fprintf(f, " (as `%s`)", r->rk[i].k->name);
    }
    for (int j = 0, n = 0; j < r->nrk; j++) /* none to follow: said so, not dropped */
        if (r->rk[j].twin && rep_twin_lead(r, j) < 0)
            fprintf(f, "%s`%s`",
                    n++        ? ", "
                    : groups++ ? "; and, their kernel not swept: "
                               : " their kernel not swept: ",
                    r->rk[j].k->name);
    fprintf(f, "%s.\n", groups ? "" : " none");
}

static void md_pareto(FILE *f, const struct rep *r)
{
    fprintf(
        f,
        "\n## Pareto front\n\nKernels that no other kernel beats on both cost (cycles/element) and "
        "accuracy (max ULP against exact GELU on [-5, 5]); cost at 4 Ki floats of uniform inputs "
        "on [−8, 8], whose share of slow-path lanes is large (other inputs: Speed by input "
        "distribution, below):\n\n");
    int front[256], nf = 0; /* by cost, cheapest first */
    for (int i = 0; i < r->nrk && nf < 256; i++)
        if (r->rk[i].pareto) front[nf++] = i;
    rep_by_cost(r, front, nf);
    for (int q = 0; q < nf; q++) {
        const struct rep_kernel *k = &r->rk[front[q]];
        fprintf(f, "- **%s** (%s): %.2f cycles/element, %.3g ULP%s\n", k->k->name,
                !strcmp(k->family, "relu") ? "ReLU, against exact GELU" : gl_defn_name(k->k->defn),
                k->cyc, rep_core_exact(k), mark(&r->f32));
    }
    int peers = 0, pid[3], np = rep_pareto_panels(r, pid); /* the chart's panels */
    for (int i = 0; i < r->nrk; i++) peers += !strcmp(r->rk[i].family, "peer");
    char libs[200];
    rep_peer_libraries(r, libs, sizeof libs);
    if (peers)
        fprintf(f,
                "\nThe %d peers (%s) were swept like the kernels: they are in the "
                "list above when nothing beats them, and drawn apart on the chart%s.\n",
                peers, libs,
                np == 3 ? ": those called in gelulab's process in one panel, those timed in "
                          "their framework's process (ᶠ) in another"
                : pid[np - 1] == 2 ? ", timed in their framework's process (ᶠ)"
                                   : "");
    else
        fprintf(f,
                "\nPeers (%s) appear in the throughput figures only: their "
                "accuracy was not swept for this report (libgelulab-peers.so not built).\n",
                libs);
    fprintf(f, "\n![Pareto](pareto.png)\n");
    rep_pareto_groups_md(f, r, &r->f32);
    fprintf(f, "\n![Throughput](throughput.png)\n");
    if (rep_throughput_frameworks(r))
        fprintf(f, "\n![Throughput, the frameworks](throughput_frameworks.png)\n");
    /* memcpy is the memory traffic's reference, not a bound: say where a kernel passes it */
    double mc[REP_MAXSIZES], rv[REP_MAXSIZES];
    int above = 0;
    for (size_t s = 0; s < r->nsizes; s++) {
        mc[s] = rep_eps(r, "memcpy", r->sizes[s]), rv[s] = rep_eps(r, "relu-vec", r->sizes[s]);
        above += mc[s] > 0 && rv[s] > mc[s];
    }
    fprintf(f,
            "\nThroughput, one panel per group: gelulab's fastest build of each kernel family "
            "beside `relu-vec`, in two panels (exact GELU; the tanh, sigmoid and SiLU forms and "
            "ReLU), then each library's peers (binary32, forward, timed here; those timed "
            "inside their framework's process, ᶠ, in the second chart), the "
            "same axes in every panel of both. memcpy (glibc's, in grey in every panel) moves the "
            "bytes a "
            "kernel moves, x read and y written, and marks what that traffic costs; it is not an "
            "upper bound on speed");
    if (above) {
        fprintf(f, ": the vectorised ReLU (`relu-vec`), the same traffic and a max, runs faster "
                   "than it at");
        for (size_t s = 0, n = 0; s < r->nsizes; s++)
            if (mc[s] > 0 && rv[s] > mc[s]) {
                char sl[16];
                gl_bench_size_name(r->sizes[s], sl, sizeof sl);
                fprintf(f, "%s %s (%.2f×)", n++ ? "," : "", sl, rv[s] / mc[s]);
            }
        fprintf(f, " floats");
    }
    fprintf(f, ". The dotted lines mark the sizes whose two arrays fill each cache level "
               "(Google Benchmark's cache sizes for this CPU).\n");
}

static void md_charts(FILE *f, const struct rep *r)
{
    fprintf(f, "\n## Definitions and errors\n\n![Definitions](definitions.png)\n\n");
    const char *seen[32];
    int ns = 0;
    for (int i = 0; i < r->nrk; i++) {
        const char *fam = r->rk[i].family;
        int j = 0;
        while (j < ns && strcmp(seen[j], fam)) j++;
        if (j < ns || r->rk[i].twin || !r->rk[i].facts || ns == 32) continue;
        seen[ns++] = fam;
        fprintf(f, "![Errors of the %s family](errors_%s.png)\n\n", fam, fam);
    }
    fprintf(f, "![Max ULP per binade](binades.png)\n\n![ULP histograms](hist.png)\n\n");
    if (rep_peer_charts(r))
        fprintf(f, "The peers' (one curve per group of bit-identical ones, named after the "
                   "first; who follows whom: the list under the worst-input table):\n\n"
                   "![Max ULP per binade, peers](binades_peers.png)\n\n"
                   "![ULP histograms, peers](hist_peers.png)\n\n");
    fprintf(f, "Every chart also exists as SVG beside the PNG; its data and gnuplot script are in "
               "`charts/` beside REPORT.md where `make report` writes it (`build/report/`; `make "
               "publish` copies only REPORT.md and the charts).\n");
}

static void md_specials(FILE *f, const struct rep *r)
{
    fprintf(f,
            "\n## Special values\n\nMeasured results (binary32) of gelulab's kernels for NaN, +∞, "
            "−∞, +0, −0; every GELU definition gives NaN, +∞, −0, +0, −0. Differences from that "
            "are in bold. The peers' are in the frameworks table (its NaN, +∞ and −∞ columns) and "
            "in their diagnoses (`specials`: the sign of zero too). The NEON "
            "builds (`/neon`) run here under qemu's AArch64 emulation (`gelulab-neon-eval`): "
            "their results are the NEON code's, as in the bfloat16 and binary16 tables below; "
            "their speed is not measured.\n\n"
            "| kernel | NaN | +∞ | −∞ | +0 | −0 |\n|---|---|---|---|---|---|\n");
    const struct gl_json *ks = rep_fact(r, "kernels", NULL);
    const char *ideal[5] = {"nan", "0x1p+128", "-0", "0", "-0"};
    for (size_t i = 0; ks && i < ks->n; i++) {
        const struct gl_json *sp = gl_json_get(&ks->items[i], "specials");
        fprintf(f, "| %s |", rep_str(gl_json_get(&ks->items[i], "name")));
        for (size_t j = 0; sp && j < 5 && j < sp->n; j++) {
            const char *v = rep_str(&sp->items[j]);
            int ok = !strcmp(v, ideal[j]) || (j == 1 && !strcmp(v, "inf"));
            fprintf(f, ok ? " %s |" : " **%s** |", !strcmp(v, "0x1p+128") ? "inf" : v);
        }
        fputc('\n', f);
    }
}

static void md_formats(FILE *f, const struct rep *r)
{
    fprintf(f, "\n## bfloat16 and binary16\n\nOf the 65 536 inputs of each format (NaNs aside), "
               "how many round "
               "to a different value under another definition than under exact GELU:\n\n"
               "| format | tanh form | sigmoid form | SiLU |\n|---|---|---|---|\n");
    const char *fm[2] = {"bf16", "f16"};
    for (int i = 0; i < 2; i++) {
        const struct gl_json *c = rep_fact(r, "format_changes", fm[i]);
        fprintf(f, "| %s | %.0f | %.0f | %.0f |\n", fm[i], rep_num(gl_json_get(c, "tanh")),
                rep_num(gl_json_get(c, "sigmoid")), rep_num(gl_json_get(c, "silu")));
    }
    fprintf(
        f,
        "\nKernels computing in binary32 with the result rounded to the format (exhaustive "
        "over the "
        "65 536 inputs): max ULP of the format against the own definition, against exact "
        "GELU, %% correctly rounded.\n\n"
        "| kernel | bf16 own, ULP | bf16 exact, ULP | bf16 %% CR | f16 own, ULP | f16 exact, ULP | "
        "f16 %% CR "
        "|\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < r->bf16.nk; i++) { /* the binary32 kernels, in both sweeps */
        const struct gl_kernel_src *kb = &r->bf16.k[i], *kh = NULL;
        for (int j = 0; j < r->f16.nk && !kh; j++)
            if (!strcmp(r->f16.k[j].name, kb->name)) kh = &r->f16.k[j];
        if (gl_kernel_abi_is16(kb->abi) || !kh || gl_kernel_abi_is16(kh->abi)) continue;
        const struct gl_kernel_result *rb = gl_sweep_res(&r->bf16, kb),
                                      *rh = gl_sweep_res(&r->f16, kh);
        const struct gl_acc *b = rb->acc[0], *be = rb->acc[1], *h = rh->acc[0], *he = rh->acc[1];
        char cb[16], ch[16], ub[32], uh[32];
        fprintf(f, "| %s%s%s | %s | %.3g | %s | %s | %.3g | %s |\n", kb->name, mark(&r->bf16),
                mark(&r->f16), rep_ulp(b->all.max_ulp, ub, sizeof ub), be->all.max_ulp,
                rep_pct_cr(b->all.correctly_rounded, b->all.n, cb, sizeof cb),
                rep_ulp(h->all.max_ulp, uh, sizeof uh), he->all.max_ulp,
                rep_pct_cr(h->all.correctly_rounded, h->all.n, ch, sizeof ch));
    }
    rep_native16_md(f, r);
    fprintf(
        f,
        "\n## binary64 (sampled)\n\n%llu inputs: 256 per binade and sign, dense on [-10, 10], then "
        "local search around the worst.\n\n| kernel | max ULP core | max ULP all | max abs | %% CR "
        "|\n|---|---|---|---|---|\n",
        (unsigned long long)r->f64.n_inputs);
    for (int i = 0; i < r->f64.nk; i++) {
        const struct gl_acc *a = r->f64.res[i].acc[0];
        char cr[16], u[2][32];
        fprintf(f, "| %s%s | %s | %s | %.3g | %s |\n", r->f64.k[i].name, mark(&r->f64),
                rep_ulp(a->region[GL_REGION_CORE].max_ulp, u[0], sizeof u[0]),
                rep_ulp(a->all.max_ulp, u[1], sizeof u[1]), a->all.max_abs,
                rep_pct_cr(a->all.correctly_rounded, a->all.n, cr, sizeof cr));
    }
}

static void claim(FILE *f, const char *what, const char *measured, int holds)
{
    fprintf(f, "| %s | %s | %s |\n", what, measured, holds ? "holds" : "**does not hold**");
}

static void md_claims(FILE *f, const struct rep *r)
{
    char m[300];
    double g1 = rep_num(rep_fact(r, "claims", "gelu_m1")),
           g2 = rep_num(rep_fact(r, "claims", "gelu_2"));
    double p1 = rep_num(rep_fact(r, "claims", "phi_1")),
           mx = rep_num(rep_fact(r, "claims", "min_x"));
    double my = rep_num(rep_fact(r, "claims", "min_y")),
           td = rep_num(rep_fact(r, "claims", "tanh_diff"));
    double tx = rep_num(rep_fact(r, "claims", "tanh_diff_x")),
           sd = rep_num(rep_fact(r, "claims", "sigmoid_diff"));
    double sx = rep_num(rep_fact(r, "claims", "sigmoid_diff_x"));
    fprintf(f, "\n## Claims checked\n\n| claim | measured | verdict |\n|---|---|---|\n");
    snprintf(m, sizeof m, "%.17g", g1);
    claim(f, "GELU(−1) ≈ −0.159", m, fabs(g1 + 0.159) < 5e-4);
    snprintf(m, sizeof m, "%.17g", g2);
    claim(f, "GELU(2) ≈ 1.954", m, fabs(g2 - 1.954) < 5e-4);
    snprintf(m, sizeof m, "%.17g", p1);
    claim(f, "Φ(1) ≈ 0.8413", m, fabs(p1 - 0.8413) < 5e-5);
    snprintf(m, sizeof m, "minimum %.17g at x = %.17g (GELU′ = 0)", my, mx);
    claim(f, "GELU is not monotonic", m, my < 0 && mx < 0);
    snprintf(m, sizeof m, "max \\|tanh form − exact\\| = %.4g at x = ±%.4f", td, fabs(tx));
    claim(f, "the tanh form is close to exact (within 10^-3)", m, td < 1e-3);
    snprintf(m, sizeof m, "max \\|sigmoid form − exact\\| = %.4g at x = ±%.4f", sd, fabs(sx));
    claim(f, "the sigmoid form x·σ(1.702x) is close to exact (within 10^-3)", m, sd < 1e-3);
    double relu = rep_eps(r, "relu-vec", r->pareto_size), best = 0;
    const char *bn = "none";
    for (int i = 0; i < r->nrk; i++) { /* accurate: within 16 ULP of exact GELU on the core */
        double e = rep_eps(r, r->rk[i].k->name, r->pareto_size);
        if (rep_lib_entry(r->rk[i].k)) continue; /* the build it runs stands for it */
        if (rep_core_exact(&r->rk[i]) <= 16 && e > best) best = e, bn = r->rk[i].k->name;
    }
    snprintf(m, sizeof m,
             "the fastest kernel within 16 ULP of exact GELU on [-5, 5] (%s) runs at %.3g× the "
             "elements/s of relu-vec at %zu floats",
             bn, relu > 0 ? best / relu : NAN, r->pareto_size);
    claim(f, "GELU costs more than ReLU", m, best < relu);
}

static void md_methods(FILE *f, const struct rep *r)
{
    const struct gl_json *m = rep_fact(r, "machine", NULL);
    fprintf(
        f,
        "\n## Methods\n\n"
        "- **Reference**: every definition evaluated with MPFR interval arithmetic in a Ziv loop "
        "(precision doubled until both ends of the interval round to the same value), so results "
        "are correctly rounded to each format; binary32 sweeps use a certified double-precision "
        "path "
        "with a per-input error bound that falls back to MPFR when it cannot decide, checked bit "
        "for "
        "bit against pure MPFR by the test suite.\n"
        "- **Metrics**: ULP error |y − r| / ulp(r) against the unrounded reference r, ulp floored "
        "at "
        "the smallest subnormal; absolute and relative error; %% correctly rounded; per region, "
        "binade "
        "and histogram; each kernel against its own definition and against exact GELU.\n"
        "- **Sweeps**: binary32 %s; bfloat16 and binary16 all 65 536 inputs; binary64 sampled per "
        "binade and sign, dense on [−10, 10], local search around the worst.\n"
        "- **Benchmarks**: Google Benchmark through a C++ shim, process pinned to one CPU, oneDNN "
        "with "
        "one thread, warm-up, repetitions in random interleaving, medians; elements/s, TSC cycles "
        "per "
        "element; memcpy (what moving the data costs, not an upper bound) and a vectorised ReLU "
        "in the same run.\n",
        r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "all 2^32 bit patterns"
                                           : "every 61st bit pattern (quick mode)");
    fprintf(f, "\n## Machine and toolchain\n\n| | |\n|---|---|\n");
    for (size_t i = 0; m && i < m->n; i++) {
        const char *k = m->items[i].key, *v = rep_str(&m->items[i]);
        if (!strcmp(k, "cpu_flags")) {
            size_t nflags = *v ? 1 : 0;
            for (const char *p = v; *p; p++) nflags += *p == ' ';
            fprintf(f, "| cpu_flags | <details><summary>%zu flags</summary>%s</details> |\n",
                    nflags, v);
        } else
            fprintf(f, "| %s | %s |\n", k, v);
    }
    const char *uarch = rep_cpu_uarch(r);
    fprintf(f, "| microarchitecture | %s%s |\n", uarch ? uarch : "not named",
            uarch ? " (by cpu_id's vendor, family and model: gelulab's table, "
                    "`reports/report_data.c`)"
                  : " (cpu_id's vendor, family and model are not in gelulab's table, "
                    "`reports/report_data.c`)");
    fprintf(f, "| benchmark context | %s, %d CPUs at %.0f MHz |\n", r->bench.date,
            r->bench.num_cpus, r->bench.mhz);
}

int rep_markdown(struct rep *r, char *err, size_t errlen)
{
    FILE *f = rep_open(r, "REPORT.md", err, errlen);
    if (!f) return -1;
    md_header(f, r);
    md_summary(f, r);
    md_pareto(f, r);
    rep_dist_md(f, r);
    rep_library_md(f, r);
    rep_peers_md(f, r);
    rep_versions_md(f, r);
    md_charts(f, r);
    md_specials(f, r);
    md_formats(f, r);
    rep_backward_md(f, r);
    md_claims(f, r);
    rep_moons_md(f, r);
    rep_times_md(f, r);
    md_methods(f, r);
    if (fclose(f) != 0) return snprintf(err, errlen, "cannot write %s/REPORT.md", r->out), -1;
    return 0;
}
