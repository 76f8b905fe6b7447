/* "Where the sweeps' time went" (REPORT.md): the sweeps' times files, IN/NAME.times.tsv
 * (gelulab sweep --times; docs/result-format.md, "Sweep times"), summed per library: what a
 * cold make report spends its sweeps on, and how much of it is the kernels' own runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_int.h"

#define MAX_GROUPS 64
#define BUILTINS   "gelulab's built-in kernels"

struct time_group {
    char name[64];
    int kernels, stored;
    double run_s, measure_s;
};

/* where a kernel's time is counted: gelulab's built-in kernels (by the sweep's file, which says
 * how each kernel ran); "lib/..." libgelulab's entry points; a peer "NAME-VERSION-..." (the
 * second '-' token starts with a digit: "mkl-2026.2-erfc-ha") under its library NAME-VERSION;
 * any other kernel (a library or evaluator of the user's) under its own name */
static void group_of(const struct gl_sweep *sw, const char *kernel, char *g, size_t len)
{
    const char *d1 = strchr(kernel, '-');
    int builtin = 0;
    for (int k = 0; k < sw->nk; k++)
        if (!strcmp(sw->k[k].name, kernel)) builtin = sw->k[k].kind == GL_SRC_BUILTIN;
    if (builtin) {
        snprintf(g, len, "%s", BUILTINS);
    } else if (!strncmp(kernel, "lib/", 4)) {
        snprintf(g, len, "libgelulab's entry points");
    } else if (d1 && d1[1] >= '0' && d1[1] <= '9') {
        size_t n = strcspn(d1 + 1, "-/");
        snprintf(g, len, "%.*s", (int)(d1 + 1 + n - kernel), kernel);
    } else {
        snprintf(g, len, "%s", kernel);
    }
}

/* group gn's index in g[0..*ng), made when new; the last of MAX_GROUPS holds all the others */
static int group_index(struct time_group *g, int *ng, const char *gn)
{
    for (int j = 0; j < *ng; j++)
        if (!strcmp(g[j].name, gn)) return j;
    if (*ng == MAX_GROUPS) return MAX_GROUPS - 1;
    int j = (*ng)++;
    memset(&g[j], 0, sizeof g[j]);
    snprintf(g[j].name, sizeof g[j].name, "%s", *ng == MAX_GROUPS ? "others" : gn);
    return j;
}

static int by_time(const void *a, const void *b)
{
    const struct time_group *x = a, *y = b;
    double tx = x->run_s + x->measure_s, ty = y->run_s + y->measure_s;
    return tx < ty ? 1 : tx > ty ? -1 : strcmp(x->name, y->name);
}

/* one sweep's table; 0, or -1 when its file is absent or not a times file (said in the report) */
static int times_table(FILE *f, const struct rep *r, const struct gl_sweep *sw, const char *name,
                       const char *title)
{
    char path[4200], line[1024], what[64] = "", state[16];
    snprintf(path, sizeof path, "%s/%s.times.tsv", r->in, name);
    FILE *in = fopen(path, "r");
    int threads = 0;
    double wall = 0;
    if (!in || !fgets(line, sizeof line, in) ||
        sscanf(line, "# gelulab sweep times %*[^:]: %63[^,], %d threads, %lf s", what, &threads,
               &wall) != 3) {
        fprintf(f,
                "\n**%s**: no times file (`%s.times.tsv`: written by `gelulab sweep --times`).\n",
                title, name);
        if (in) fclose(in);
        return -1;
    }
    struct time_group g[MAX_GROUPS];
    int ng = 0;
    double shared = 0, rest = 0, total = 0;
    while (fgets(line, sizeof line, in)) {
        char kernel[256];
        double run_s, measure_s;
        if (sscanf(line, "%255[^\t]\t%15[^\t]\t%lf\t%lf", kernel, state, &run_s, &measure_s) != 4)
            continue; /* the header */
        total += run_s + measure_s;
        if (!strcmp(state, "shared")) {
            *(strstr(kernel, "references") ? &shared : &rest) += run_s;
            continue;
        }
        char gn[64];
        group_of(sw, kernel, gn, sizeof gn);
        int j = group_index(g, &ng, gn);
        g[j].kernels++, g[j].stored += !strcmp(state, "store");
        g[j].run_s += run_s, g[j].measure_s += measure_s;
    }
    fclose(in);
    qsort(g, (size_t)ng, sizeof *g, by_time);
    fprintf(f,
            "\n**%s** (%s): %.0f s of wall clock on %d threads; the workers' %.0f s (summed over "
            "the threads) went to\n\n"
            "| what | kernels | from the store | running them, s | measuring them, s | share |\n"
            "|---|---:|---:|---:|---:|---:|\n",
            title, what, wall, threads, total);
    double pct = total > 0 ? 100 / total : 0, peers = 0;
    int dp = wall < 100; /* a quick report's seconds: one decimal */
    for (int j = 0; j < ng; j++) {
        fprintf(f, "| %s | %d | %d | %.*f | %.*f | %.1f %% |\n", g[j].name, g[j].kernels,
                g[j].stored, dp, g[j].run_s, dp, g[j].measure_s,
                (g[j].run_s + g[j].measure_s) * pct);
        if (strcmp(g[j].name, BUILTINS)) peers += g[j].run_s;
    }
    fprintf(f, "| the inputs and the references, shared | | | %.*f | | %.1f %% |\n", dp, shared,
            shared * pct);
    fprintf(f, "| the rest: chunk set-up, merges, waits | | | %.*f | | %.1f %% |\n", dp, rest,
            rest * pct);
    fprintf(f,
            "\nRunning every kernel but gelulab's built-in ones (the peers, libgelulab's entry "
            "points), round trips included: %.*f s, "
            "%.1f %% (about %.*f s of wall clock on %d threads); the rest is gelulab's own work "
            "(built-in kernels, measurement, references).\n",
            dp, peers, peers * pct, dp, threads > 0 ? peers / threads : peers, threads);
    return 0;
}

void rep_times_md(FILE *f, const struct rep *r)
{
    fprintf(
        f,
        "\n## Where the sweeps' time went\n\n"
        "Per library, from the sweeps' times files (`data/NAME.times.tsv`, docs/result-format.md, "
        "\"Sweep times\"): seconds of the workers' wall clock, each kernel's round trip "
        "(for a library, evaluator or framework: its own process, inputs in, results back) "
        "and the measurement of its results against the references. A kernel taken from the "
        "sweep store spent no time in this run; a statistic that later kernels reuse (a "
        "correctly rounded run's) counts for the first that needs it. Wall clock: where "
        "other work shares the cores "
        "(make report's facts, diagnoses and two moons run beside the binary32 sweep), a "
        "kernel's time includes its waits for one.\n");
    times_table(f, r, &r->f32, "f32", "binary32");
    if (r->have_bwd) times_table(f, r, &r->bwd, "bwd", "backward pass");
}
