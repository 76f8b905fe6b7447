/* Internal to reports/: the loaded result files and what the report derives from them. */
#ifndef GELULAB_REPORT_INT_H
#define GELULAB_REPORT_INT_H
#include <stdio.h>
#include "gelulab/bench.h"
#include "gelulab/sweep.h"
#include "json.h"

#define REP_MAXSIZES 8

struct rep_kernel {
    const struct gl_kernel_src *k; /* in the f32 sweep */
    const struct gl_json *facts;   /* its entry in facts.json, or NULL */
    const char *family, *isa;
    double eps[REP_MAXSIZES]; /* median elements/s per bench size, 0: not benchmarked */
    double cyc;               /* TSC cycles per element at the Pareto size, 0: none */
    int twin;                 /* an ISA build of an algorithm already listed (same results) */
    int pareto;
};

struct rep {
    const char *in, *out;
    struct gl_sweep f32, bf16, f16, f64;
    struct gl_bench bench;
    struct gl_json *facts;
    struct gl_json *moons; /* moons.json: the two-moons experiment */
    struct rep_kernel *rk;
    int nrk;
    size_t sizes[REP_MAXSIZES], nsizes, pareto_size;
};

/* helpers: a JSON number (NaN when absent) and text ("?" when absent) */
double rep_num(const struct gl_json *j);
const char *rep_str(const struct gl_json *j);
const struct gl_json *rep_fact(const struct rep *r, const char *section, const char *key);
double rep_eps(const struct rep *r, const char *name, size_t n);
/* The libraries of the benchmark's peers (its "lib=" labels), distinct, in the benchmark's
 * order: "oneDNN, SLEEF"; "none" when it has no peer. */
void rep_peer_libraries(const struct rep *r, char *buf, size_t len);
double rep_core_exact(const struct rep_kernel *k);
FILE *rep_open(const struct rep *r, const char *name, char *err, size_t errlen);

/* Writes OUT/charts/NAME.gp rendering BODY to NAME.png and NAME.svg, and runs gnuplot. */
int rep_render(const struct rep *r, const char *name, const char *body, char *err, size_t errlen);
int rep_moons_chart(const struct rep *r, char *err, size_t errlen);
void rep_moons_md(FILE *f, const struct rep *r);

int rep_charts(struct rep *r, char *err, size_t errlen);
int rep_markdown(struct rep *r, char *err, size_t errlen);
#endif
