/* Internal to reports/: the loaded result files and what the report derives from them. */
#ifndef GELULAB_REPORT_INT_H
#define GELULAB_REPORT_INT_H
#include <stdio.h>
#include "gelulab/bench.h"
#include "gelulab/sweep.h"
#include "gelulab/json.h"

#define REP_MAXSIZES 8

/* calloc(n, size), at least one element; out of memory: one line and exit 1 */
void *rep_calloc(size_t n, size_t size);

struct rep_kernel {
    const struct gl_kernel_src *k;      /* in the f32 sweep */
    const struct gl_kernel_result *res; /* its results there */
    const struct gl_json *facts;        /* its entry in facts.json, or NULL */
    const char *family, *isa;
    double eps[REP_MAXSIZES]; /* median elements/s per bench size, 0: not benchmarked */
    double cyc;               /* TSC cycles per element at the Pareto size, 0: none */
    int twin;    /* its results are an earlier kernel's (an ISA build of an algorithm listed) */
    int same_as; /* the first earlier kernel of its definition with bit-identical results on
                  * every swept input (the sweep's traits), or -1 */
    int pareto;
};

/* a row of the peer table as built (IN/peers.tsv) and its diagnoses (IN/validate/NAME.json) */
#define REP_MAX_PEERS 128 /* rows of one peers table */
struct rep_peer {
    char name[160], defn[16], isa[16], library[64], version[32], package[96], path[240], note[240];
    char lineage[64]; /* the library whose versions it is compared with (its own name, or
                       * "TensorFlow" for Eigen 3.4's composition of tf.nn.gelu) */
    char call[240];   /* the call a user writes, every setting at its default, when it reaches
                       * this peer's code; "-": none (gl_peer's call) */
    int runs;
    struct gl_json *validate; /* NULL: not diagnosed */
};

/* the benchmark per distribution of inputs (reports/report_dist.c): uniform on [-8, 8], N(0, 1),
 * MiniLM's activations */
#define REP_NDIST 3
struct rep_dist {
    struct gl_bench b;
    int have;                   /* b read from IN/dist-NAME.json */
    const struct gl_bench *run; /* b, or (uniform without a run of its own) the main run */
    char skipped[400];          /* else why not */
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
    struct rep_peer *peers; /* IN/peers.tsv (absent: none) */
    int npeers;
    struct rep_peer *peers16; /* IN/peers16.tsv: the 16-bit peers (absent: none) */
    int npeers16;
    struct gl_sweep bwd; /* IN/bwd.json, the backward pass (have_bwd 0: absent) */
    int have_bwd;
    struct rep_dist dist[REP_NDIST]; /* uniform, N(0, 1), MiniLM */
    struct gl_json *minilm;          /* IN/minilm-inputs.json, the activations' provenance */
};

/* report_data.c, what the sections read of the loaded data (it calls none of them): a JSON
 * number (NaN when absent) and text ("?" when absent) */
double rep_num(const struct gl_json *j);
const char *rep_str(const struct gl_json *j);
const struct gl_json *rep_fact(const struct rep *r, const char *section, const char *key);
/* the vector ISA the CPU of facts.json has, as the report names it after the CPU: ", AVX-512
 * F/DQ/BW/VL/VNNI/BF16", ", AVX2 and FMA, no AVX-512", ...; "" without its flags */
const char *rep_isa_phrase(const struct rep *r);
/* whether facts.json's CPU flags hold FLAG ("hypervisor": a virtual machine) */
int rep_cpu_has(const struct rep *r, const char *flag);
/* the CPU's microarchitecture ("Zen 4") from facts.json's cpu_id (vendor, family, model,
 * stepping) by gelulab's table (report_data.c); NULL where the table does not have it */
const char *rep_cpu_uarch(const struct rep *r);
/* 100 a / n, 0 when n is 0: a percentage of swept inputs */
double rep_pct(uint64_t a, uint64_t n);
/* % correctly rounded (cr of n) as a cell: two decimals, but "> 99.99" for a kernel not correctly
 * rounded everywhere whose share would print 100.00, "< 0.01" for one correctly rounded somewhere
 * whose share would print 0.00; returns buf */
const char *rep_pct_cr(uint64_t cr, uint64_t n, char *buf, size_t len);
/* a max ULP figure as a cell: three significant digits, nine where three would read 0.5 for an
 * error above it (0.500000010: not correctly rounded, where 0.5 would say it is); returns buf */
const char *rep_ulp(double u, char *buf, size_t len);
/* the kernels of sweep s whose results include +-0 where the correctly rounded result is the
 * other zero (not correctly rounded, bit for bit), each with its count, share and % correctly
 * rounded with and without them, as one sentence led by `lead` ("none" when there are none);
 * abi16: only the kernels of the 16-bit ABI (the native 16-bit table's) */
void rep_zero_sign_md(FILE *f, const struct gl_sweep *s, const char *lead, int abi16);
/* The typical error beside the worst: "≤M / ≤P", the upper edges of the power-of-two bins of a's
 * ULP histogram (gl_hist_upper: [0, 1/2], (1/2, 1], (1, 2], ...; a non-finite result in the last,
 * "> 2^39") that hold the median and the 99.9th percentile of its errors over every input
 * swept; "-" when none was */
void rep_typical(const struct gl_acc *a, char *buf, size_t len);
/* Adds to b every run of one library's peers alone whose file matches the glob PATTERN
 * (gelulab-bench --peers-of), put on b's scale by the compare peer timed in both
 * (gl_bench_add_run); a run that does not merge is a warning on stderr (its peers then lack
 * b's figures), not an error. */
void rep_bench_add_runs(struct gl_bench *b, const char *pattern);
double rep_eps(const struct rep *r, const char *name, size_t n);
/* How a benchmark row was timed, the mark on its speed cells in every table: "ᶠ" inside its
 * framework's process (a served peer: timed=framework), "ˢ" in a gelulab-bench run of its own put
 * on the main run's scale (gl_bench_merge: scaled), else ""; REP_MARKS says so in the tables'
 * words. rep_timed_mark: NAME's mark at the Pareto size in the main run. */
const char *rep_row_mark(const struct gl_bench_row *row);
const char *rep_timed_mark(const struct rep *r, const char *name);
/* whether a benchmark row (NULL: none) was timed inside its framework's process (ᶠ), and whether
 * NAME's row at the Pareto size was */
int rep_framework_row(const struct gl_bench_row *row);
int rep_framework_timed(const struct rep *r, const char *name);
/* "~" where the repetitions of case NAME at size n spread more than REP_NOISY (their coefficient
 * of variation of elements/s), else "": a rough figure, so marked in the summary's speeds */
#define REP_NOISY 0.10
const char *rep_noise_mark(const struct rep *r, const char *name, size_t n);
#define REP_MARKS                                                                                  \
    "ᶠ: timed inside its framework's process (`bench/py_eval.py`: the framework's call in a "    \
    "loop on its own tensor, the pipe excluded); ˢ: timed in a `gelulab-bench` run of its own "   \
    "(a library that cannot share the main run's process, such as a second version of one "        \
    "loaded there) and put on the main run's scale by the compare peer timed in both"
/* median TSC cycles per element of case NAME at size n, 0: not benchmarked */
double rep_cyc(const struct rep *r, const char *name, size_t n);
/* 1 when kernels a and b of one sweep gave bit-identical results (same definition, same hash of
 * the results in the traits) */
int rep_same_bits(const struct gl_sweep *s, const struct gl_kernel_src *a,
                  const struct gl_kernel_src *b);
/* 1 for a libgelulab entry point swept through --lib (make report names them lib/NAME) */
int rep_lib_entry(const struct gl_kernel_src *k);
/* the kernel of sweep s whose results kernel k repeats: the first earlier one with the same
 * bits, never an entry point of the library (an entry point repeats the build it runs, which
 * the sweep lists after it); -1 when none */
int rep_same_as(const struct gl_sweep *s, int k);
/* The Pareto charts' one grouping rule (forward: the binary32 sweep r->f32, whose kernel k is
 * r->rk[k]; backward: r->bwd): one point per group of benchmarked kernels of sweep s with
 * bit-identical results (libgelulab's entry points apart: their builds stand). rep_pareto_same:
 * whether j is in k's group (not k itself); rep_pareto_drawn: whether the chart draws k
 * (benchmarked, not an entry point, the cheapest of its group, or as cheap and earlier), *more
 * the others of its group; rep_pareto_groups_md: REPORT.md's list of who each such point
 * stands for */
int rep_pareto_same(const struct rep *r, const struct gl_sweep *s, int k, int j);
int rep_pareto_drawn(const struct rep *r, const struct gl_sweep *s, int k, int *more);
void rep_pareto_groups_md(FILE *f, const struct rep *r, const struct gl_sweep *s);
/* sorts the kernels idx[0..n) by cost (cycles per element), cheapest first, ties in their order:
 * the Pareto chart's points and REPORT.md's list of the front */
void rep_by_cost(const struct rep *r, int *idx, int n);
/* The Pareto rule of both charts: of the points (cost[i], err[i]), i < n, with cost[i] > 0, those
 * that no other is at least as cheap and as accurate as and better than in one; their indices in
 * front[] by cost, then error (cheapest first); their count */
int rep_pareto_front(int n, const double *cost, const double *err, int *front);
/* the kernel whose results a twin (rep_kernel.twin) repeats, itself not a twin: by its
 * same_as, or else the first build of its algorithm; -1 if none (i itself if not a twin) */
int rep_twin_lead(const struct rep *r, int i);
/* a kernel on a per-group chart, and its group (a library, a family) */
struct rep_chart_kernel {
    const char *name, *group;
    int more; /* the kernels left off the chart that repeat its results: "(+N)" in its key */
};
/* The max-ULP-per-binade chart OUT/CHART.png of the kernels ks[0..nk) from IN/CSV, a panel
 * per group (report_charts.c); 0, or -1 with a message in err */
int rep_binades_chart(const struct rep *r, const char *chart, const char *csv,
                      const struct rep_chart_kernel *ks, int nk, const char *what, char *err,
                      size_t errlen);
/* Where a log-log chart writes each point's label (report_charts.c): right of the point or left
 * of it, at the first of a few heights (level, above, below, further above, further below)
 * where the label's box stays inside the frame, covers neither a label already placed (nor
 * comes within half a character of one side by side) nor another point nor the line through
 * (fx, fy)[0..nfront), nor has its near end nearer another point than its own (unless a leader
 * joins them), and no leader crosses a label or a point (its own leader through a label placed
 * or another point, or one placed through its box). The points with first[i] set are
 * placed first, and named in any case (where their box covers and crosses the fewest, a
 * crossing a quarter of a cover). A name that fits nowhere is replaced in text[i] by a number,
 * ++*number, placed the same way but further out (in any case): the chart lists the numbered
 * names. Coordinates in decades (log10); range: the axes' [x0, x1] and [y0, y1] decades, for a
 * frame frame_w x frame_h points and 5-point labels. Out: the label's anchor (lx, ly: data
 * coordinates; right[i]: the label is left of its point, its text ends at lx, else it starts
 * there) and, for a label set apart, the end of its leader (ex, ey; NaN: none). At most 256
 * points. */
void rep_place_labels(int n, const double *px, const double *py, char (*text)[96], const int *first,
                      const double *fx, const double *fy, int nfront, const double range[4],
                      double frame_w, double frame_h, int *number, double *lx, double *ly,
                      int *right, double *ex, double *ey);
/* The names of the points that rep_place_labels numbered from+1 to `to` (names: before it,
 * text: after), appended to list[cap] at *used (empty: "numbered: " first) as "K: NAME"
 * entries in lines of at most 76 characters (a 5-point line across the column) joined by a
 * gnuplot "\\n", *line the start of the last; cut between entries (", ...") when list is full;
 * returns the lines it began */
int rep_numbered_list(int n, const char (*names)[96], const char (*text)[96], int from, int to,
                      char *list, size_t cap, size_t *used, size_t *line);
/* The last plot elements of a chart whose labels rep_place_labels placed, in buf[cap]: from dat
 * (pareto.dat's columns: 1-2 the point, 5-6 the label's anchor, 7-8 its leader's end, 9 its
 * text, 10 whether it is left of its point), for the rows where cond (a gnuplot expression) holds,
 * the leaders, then the labels over them on opaque boxes (REP_LABEL_BOX, set before the plot: a
 * leader or grid line stops at a label's letters), then marks, plot elements that draw the
 * markers again over any label placed on one; -1 when buf is too small */
#define REP_LABEL_BOX "set style textbox opaque noborder margins 0.3, 0.1\n"
/* the Pareto charts' markers (rep_place_labels takes a marker about 0.6 of a line high): the
 * front's, gelulab's kernels', the peers' */
#define REP_MARK_FRONT "pt 7 ps 1.1 lc rgb '#d62728'"
#define REP_MARK_OWN   "pt 7 ps 0.9 lc rgb '#888888'"
#define REP_MARK_PEER  "pt 9 ps 1.1 lc rgb '#1f77b4'"
int rep_label_layers(char *buf, size_t cap, const char *dat, const char *cond, const char *marks);
/* report_peers.c: the libraries of the peers, distinct, in order: from the peer table when it has
 * one (the swept peers), else from the benchmark's "lib=" labels: "oneDNN, SLEEF"; "none" when it
 * has no peer. rep_peer_libraries_of: those of the peers r->rk[rk[0..n)] (rep_peer_library);
 * rep_peer_library: a peer's library, from the peer table, else its benchmark's "lib=" label,
 * else NULL. */
void rep_peer_libraries(const struct rep *r, char *buf, size_t len);
void rep_peer_libraries_of(const struct rep *r, const int *rk, int n, char *buf, size_t len);
const char *rep_peer_library(const struct rep *r, const char *name);
/* report_charts.c: the Pareto chart's panel of a kernel: 0 gelulab's, 1 a peer called in
 * gelulab's process, 2 a peer timed in its framework's process (ᶠ: REP_MARKS); the panels it
 * draws, top down, in pid[], their count returned: gelulab's; the in-process peers' when one of
 * them is drawn or no peer is (to say so); the frameworks' when one of them is drawn */
int rep_pareto_panel(const struct rep *r, const struct rep_kernel *k);
int rep_pareto_panels(const struct rep *r, int pid[3]);
/* report_data.c: max ULP against exact GELU on [-5, 5] (the Pareto front's accuracy axis); the
 * file OUT/NAME opened for writing (NULL with the message in err) */
double rep_core_exact(const struct rep_kernel *k);
FILE *rep_open(const struct rep *r, const char *name, char *err, size_t errlen);

/* Every chart is drawn at the size it is printed at: a column 8.5 cm (REP_COL_PT points) wide,
 * as tall as it needs, its text REP_FONT_PT points (some titles 6; the provenance smaller on a
 * chart too short for it);
 * the PNG at REP_PX_PT pixels a point (288 dpi at that width), the SVG in points. rep_render
 * writes OUT/charts/NAME.gp rendering BODY at REP_COL_PT x H points to NAME.png and NAME.svg,
 * and starts gnuplot on it, one process a core at a time; rep_render_wait waits for every one
 * started (-1 and the first failure's message if any failed; err may be NULL). */
#define REP_COL_PT  241
#define REP_FONT_PT 5
#define REP_PX_PT   4
#define REP_MIN_H   270 /* the charts' least height: the provenance in one line of 5 points */
int rep_render(const struct rep *r, const char *name, const char *body, int h, char *err,
               size_t errlen);
int rep_render_wait(char *err, size_t errlen);
/* The error axes in ULP (the per-cell error charts, both Pareto charts): an error below
 * REP_FLOOR_ULP, zero included, is drawn at it, on a tic labelled "<10^{-3}": the gnuplot command
 * adding that tic is rep_floor_tic() */
#define REP_FLOOR_ULP 1e-3
const char *rep_floor_tic(void);
int rep_moons_chart(const struct rep *r, char *err, size_t errlen);
void rep_moons_md(FILE *f, const struct rep *r);
/* "Where the sweeps' time went" (reports/report_times.c): IN/f32.times.tsv and bwd.times.tsv
 * per library */
void rep_times_md(FILE *f, const struct rep *r);

int rep_charts(struct rep *r, char *err, size_t errlen);
/* 1 when some peer was timed inside its framework's process (ᶠ): the throughput of those
 * peers is a chart of its own, throughput_frameworks */
int rep_throughput_frameworks(const struct rep *r);
/* 1 when the peers have charts of their own (binades_peers, hist_peers): some peer's results
 * are not an earlier kernel's */
int rep_peer_charts(const struct rep *r);
/* the peer table and diagnoses (reports/report_peers.c); the peer named so, or NULL */
int rep_peers_load(struct rep *r, char *err, size_t errlen);
void rep_peers_free(struct rep *r);
const struct rep_peer *rep_peer_find(const struct rep *r, const char *name);
void rep_peers_md(FILE *f, const struct rep *r);
/* "What changed between versions": the libraries measured at two versions, side by side */
void rep_versions_md(FILE *f, const struct rep *r);
/* "- **NAME** (LIBRARY, claims D): its FAIL and WARN diagnoses" (nothing when not diagnosed) */
void rep_peer_diagnoses(FILE *f, const struct rep_peer *p);
int rep_markdown(struct rep *r, char *err, size_t errlen);
/* the backward pass (reports/report_backward.c): IN/bwd.json when present, its charts, its
 * section of REPORT.md */
int rep_backward_load(struct rep *r, char *err, size_t errlen);
int rep_backward_charts(const struct rep *r, char *err, size_t errlen);
void rep_backward_md(FILE *f, const struct rep *r);
/* the native 16-bit kernels and peers (reports/report_16.c): their section of REPORT.md, from
 * the bf16 and f16 sweeps' kernels with a 16-bit ABI, the benchmark and IN/peers16.tsv */
void rep_native16_md(FILE *f, const struct rep *r);
/* speed by input distribution (reports/report_dist.c): IN/dist-*.json, a table of REPORT.md */
int rep_dist_load(struct rep *r, char *err, size_t errlen);
void rep_dist_free(struct rep *r);
void rep_dist_md(FILE *f, const struct rep *r);
/* libgelulab's entry points against the builds they run (reports/report_lib.c) */
void rep_library_md(FILE *f, const struct rep *r);
#endif
