/* The report's charts: data files and gnuplot scripts in OUT/charts/, rendered by gnuplot to
 * OUT/NAME.png and OUT/NAME.svg, each at the size it is printed at (a column, REP_COL_PT). Every
 * chart reads only files under OUT and IN. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report_int.h"

#define FLOOR_ABS 1e-12 /* absolute errors below it drawn at it, as REP_FLOOR_ULP */

/* Appends to buf[cap] at *used; once it is full, nothing more (and *used = cap, which
 * chart_full reports): a chart script never runs past its buffer */
static void chart_add(char *buf, size_t cap, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void chart_add(char *buf, size_t cap, size_t *used, const char *fmt, ...)
{
    if (*used >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    *used = k < 0 || (size_t)k >= cap - *used ? cap : *used + (size_t)k;
}
static int chart_full(const char *chart, size_t used, size_t cap, char *err, size_t errlen)
{
    if (used < cap) return 0;
    snprintf(err, errlen, "chart %s: its gnuplot script is longer than %zu bytes", chart, cap);
    return -1;
}

/* The chart at REP_COL_PT x h points, its text in points: the PNG at REP_PX_PT pixels a point
 * (fonts, lines and points scaled alike), the SVG in points */
const char *rep_floor_tic(void)
{
    static char tic[80];
    snprintf(tic, sizeof tic, "set ytics add ('<10^{%d}' %g)\n", (int)lround(log10(REP_FLOOR_ULP)),
             REP_FLOOR_ULP);
    return tic;
}

/* gnuplot renders the charts while the report writes the next ones: at most one process a core
 * at a time (21 charts: 4.2 s one after another, 2.3 s of it gnuplot's CPU time, on a 2-core Zen
 * 4), the oldest waited for first; rep_render_wait collects them all. A failure is reported by
 * the call that finds it, naming the chart. */
static struct rendering {
    pid_t pid;
    char out[1000], name[64]; /* the script: OUT/charts/NAME.gp */
} rendering[64];
static int nrendering;

static int render_reap_oldest(char *err, size_t errlen)
{
    struct rendering j = rendering[0];
    memmove(rendering, rendering + 1, (size_t)--nrendering * sizeof rendering[0]);
    int st;
    while (waitpid(j.pid, &st, 0) < 0)
        if (errno != EINTR)
            return snprintf(err, errlen, "gnuplot on %s/charts/%s.gp: lost", j.out, j.name), -1;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
    return snprintf(err, errlen, "gnuplot failed on %s/charts/%s.gp (see %s/charts/%s.log)", j.out,
                    j.name, j.out, j.name),
           -1;
}

int rep_render_wait(char *err, size_t errlen)
{
    int rc = 0;
    while (nrendering)
        if (render_reap_oldest(rc ? NULL : err, rc ? 0 : errlen)) rc = -1;
    return rc;
}

static int render_start(const char *cmd, const char *out, const char *name, char *err,
                        size_t errlen)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int most = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    while (nrendering >= most)
        if (render_reap_oldest(err, errlen)) return rep_render_wait(NULL, 0), -1;
    pid_t pid = fork();
    if (pid < 0)
        return snprintf(err, errlen, "cannot start gnuplot on %s/charts/%s.gp", out, name), -1;
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    struct rendering *j = &rendering[nrendering++];
    j->pid = pid;
    snprintf(j->out, sizeof j->out, "%s", out), snprintf(j->name, sizeof j->name, "%s", name);
    return 0;
}

int rep_render(const struct rep *r, const char *name, const char *body, int h, char *err,
               size_t errlen)
{
    char p[1200], cmd[2600];
    snprintf(p, sizeof p, "%s/charts/%s.gp", r->out, name);
    FILE *f = fopen(p, "w");
    if (!f) return snprintf(err, errlen, "cannot write %s", p), -1;
    const char *term[2][2] = {
        {"pngcairo size %d,%d font 'Sans,%d' fontscale %g linewidth %g pointscale %g", "png"},
        {"svg size %d,%d font 'Sans,%d' fontscale 1 linewidth %g dynamic\nset pointsize %g",
         "svg"}};
    /* the provenance along the right edge of every chart: the machine, the commit, the date */
    char prov[400], *q;
    const struct gl_json *id = rep_fact(r, "machine", "cpu_id");
    /* the microarchitecture where gelulab's table names it, in place of the vendor's name
     * (the model's name says it): "AMD EPYC (Zen 4, family 25 model 17 stepping 1)", shorter
     * than the vendor's, so that the provenance stays one line on the shortest charts */
    const char *uarch = rep_cpu_uarch(r), *cid = id ? rep_str(id) : "";
    if (uarch && strchr(cid, ' ')) cid = strchr(cid, ' ') + 1;
    snprintf(prov, sizeof prov, "%s%s%s%s%s%s, commit %s, %s",
             rep_str(rep_fact(r, "machine", "cpu")), id || uarch ? " (" : "", uarch ? uarch : "",
             uarch && id ? ", " : "", cid, id || uarch ? ")" : "",
             rep_str(rep_fact(r, "machine", "commit")), rep_str(rep_fact(r, "machine", "date")));
    while ((q = strpbrk(prov, "'\"\\")) != NULL) *q = ' '; /* inside a quoted gnuplot string */
    /* in 5 points (a character about 3 wide), in two lines where the chart is too short for one:
     * the machine, then the commit and the date */
    double x = 0.992; /* its descenders inside the edge */
    if (strlen(prov) * 3.0 > h - 6 && (q = strstr(prov, ", commit ")) != NULL)
        q[0] = '\\', q[1] = 'n', x -= 7.5 / REP_COL_PT; /* ", " becomes gnuplot's "\n" */
    for (int t = 0; t < 2; t++) {
        char tm[160];
        if (t == 0) /* pngcairo sets a font of s points s * 4/3 pixels high at fontscale 1, a
                     * line width of 1 is then half a point, a point's size that of the text */
            snprintf(tm, sizeof tm, term[0][0], REP_COL_PT * REP_PX_PT, h * REP_PX_PT, REP_FONT_PT,
                     REP_PX_PT * 0.75, 0.5 * REP_PX_PT, 0.5 * REP_PX_PT);
        else
            snprintf(tm, sizeof tm, term[1][0], REP_COL_PT, h, REP_FONT_PT, 0.5, 0.5);
        fprintf(f,
                "reset\nset terminal %s\nset output '%s/%s.%s'\nset grid lw 0.5\n"
                "set datafile separator ','\nset label 999 \"%s\" at screen %g, screen 0.005 "
                "left rotate by 90 font ',5' tc rgb '#777777' noenhanced\n%s\nunset "
                "multiplot\nunset output\n",
                tm, r->out, name, term[t][1], prov, x, body);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "exec gnuplot '%s' 2>'%s/charts/%s.log'", p, r->out, name);
    return render_start(cmd, r->out, name, err, errlen);
}

static int chart_definitions(const struct rep *r, char *err, size_t errlen)
{
    char body[3000];
    snprintf(
        body, sizeof body,
        "set multiplot layout 2,1 title 'GELU definitions (correctly rounded binary64 "
        "reference)' font ',6'\n"
        "set lmargin at screen 0.15\nset xlabel 'x' offset 0,0.5\nset ylabel 'f(x)'\n"
        "set key outside top center horizontal "
        "maxcols 2 samplen 2\nset xrange [-6:6]\n"
        "plot '%s/curves.csv' every ::1 using 1:2 w l lw 2 t 'exact  x{/Symbol F}(x)', '' every "
        "::1 using 1:3 w l t 'tanh form', "
        "'' every ::1 using 1:4 w l t 'sigmoid x{/Symbol s}(1.702x)', '' every ::1 using 1:5 "
        "w l t 'SiLU x{/Symbol s}(x)'\n"
        "set logscale y\nset format y '10^{%%L}'\nset ylabel '|difference| from exact GELU'\n"
        "set title 'its zero at x = 0 is not drawn' font ',6'\n"
        "plot '%s/curves.csv' every ::1 using 1:(abs($6) > 0 ? abs($6) : NaN) w l lw 2 t '|tanh "
        "- exact|', "
        "'' every ::1 using 1:(abs($7) > 0 ? abs($7) : NaN) w l lw 2 t '|sigmoid - exact|'\n",
        r->in, r->in);
    return rep_render(r, "definitions", body, 300, err, errlen);
}

/* families of the listed (non-twin) built-in kernels, in order of first appearance */
static int families(const struct rep *r, const char **fam, int max)
{
    int n = 0;
    for (int i = 0; i < r->nrk; i++) {
        if (r->rk[i].twin || !r->rk[i].facts) continue;
        int j = 0;
        while (j < n && strcmp(fam[j], r->rk[i].family)) j++;
        if (j == n && n < max) fam[n++] = r->rk[i].family;
    }
    return n;
}

/* errors.csv rows of the family's kernels, as gnuplot index blocks; returns the block count and
 * the kernels' names in names */
static int family_errors(const struct rep *r, const char *family, char names[][64], char *err,
                         size_t errlen)
{
    char p[1200], line[512], dat[200];
    snprintf(p, sizeof p, "%s/errors.csv", r->in);
    FILE *in = fopen(p, "r");
    snprintf(dat, sizeof dat, "charts/errors_%s.dat", family);
    FILE *out = rep_open(r, dat, err, errlen);
    if (!in || !out) {
        if (in) fclose(in);
        if (out) fclose(out);
        if (!in) snprintf(err, errlen, "cannot read %s", p);
        return -1;
    }
    int n = 0;
    char cur[64] = "";
    while (fgets(line, sizeof line, in)) {
        char name[64];
        double x, a, u, ue;
        if (sscanf(line, "%63[^,],%lf,%lf,%lf,%lf", name, &x, &a, &u, &ue) != 5) continue;
        int keep = 0;
        for (int i = 0; i < r->nrk; i++)
            if (!r->rk[i].twin && !strcmp(r->rk[i].k->name, name) &&
                !strcmp(r->rk[i].family, family))
                keep = 1;
        if (!keep) continue;
        if (strcmp(cur, name)) {
            if (n) fprintf(out, "\n\n");
            snprintf(cur, sizeof cur, "%s", name);
            snprintf(names[n++], 64, "%s", name);
        }
        fprintf(out, "%g,%.6g,%.6g,%.6g\n", x, a > FLOOR_ABS ? a : FLOOR_ABS,
                u > REP_FLOOR_ULP ? u : REP_FLOOR_ULP, ue > REP_FLOOR_ULP ? ue : REP_FLOOR_ULP);
        if (n == 16) break;
    }
    fclose(in);
    fclose(out);
    return n;
}

static int chart_errors(const struct rep *r, const char *family, char *err, size_t errlen)
{
    char names[16][64], body[8000], plot1[3500] = "", plot2[3500] = "", name[100];
    int n = family_errors(r, family, names, err, errlen);
    if (n < 0) return -1;
    if (n == 0) return 0;
    for (int i = 0; i < n; i++) {
        size_t l1 = strlen(plot1), l2 = strlen(plot2);
        snprintf(plot1 + l1, sizeof plot1 - l1,
                 "%s'%s/charts/errors_%s.dat' index %d using 1:2 w l t '%s' noenhanced",
                 i ? ", " : "", r->out, family, i, names[i]);
        snprintf(plot2 + l2, sizeof plot2 - l2,
                 "%s'%s/charts/errors_%s.dat' index %d using 1:3 w l t '%s' noenhanced",
                 i ? ", " : "", r->out, family, i, names[i]);
    }
    /* one key, above the first panel: the second draws the same kernels in the same colours */
    snprintf(body, sizeof body,
             "set multiplot layout 2,1 title \"Family %s: largest error in cells of width 0.02 "
             "on [-8, 8]\\n(256 evenly spaced binary32 inputs each), against its own "
             "definition;\\na cell "
             "whose errors are all below the lowest tic is drawn on it\" font ',6'\n"
             "set logscale y\nset format y '10^{%%L}'\nset key outside top center horizontal "
             "maxcols 2 samplen 2\nset lmargin at screen 0.15\nset xlabel 'x' offset 0,0.5\n"
             "set ylabel 'max absolute error'\nset yrange [%g:*]\nset ytics %g, 100\n"
             "set ytics add ('<10^{%d}' %g)\nplot %s\nset key off\n"
             "set title 'the same kernels in ULP' font ',6'\n"
             "set ylabel 'max error (ULP, binary32)'\nset yrange [%g:*]\nset ytics %g, 100\n"
             "set ytics add ('<10^{%d}' %g)\nplot %s\n",
             family, FLOOR_ABS / 2, FLOOR_ABS * 100, (int)lround(log10(FLOOR_ABS)), FLOOR_ABS,
             plot1, REP_FLOOR_ULP / 2, REP_FLOOR_ULP * 100, (int)lround(log10(REP_FLOOR_ULP)),
             REP_FLOOR_ULP, plot2);
    snprintf(name, sizeof name, "errors_%s", family);
    return rep_render(r, name, body, 38 + 6 * ((n + 1) / 2) + 270, err, errlen);
}

/* max ULP per binade (own definition), negative and positive x, one line per algorithm */
/* kernel i goes on the chart of the peers (peers = 1) or of the others, once per group of
 * bit-identical results */
static int on_chart(const struct rep *r, int i, int peers)
{
    return !r->rk[i].twin && (strcmp(r->rk[i].family, "peer") == 0) == peers;
}

/* how many kernels left off the per-group charts (twins) repeat kernel i's results */
static int twins_of(const struct rep *r, int i)
{
    int n = 0;
    for (int j = 0; j < r->nrk; j++) n += j != i && r->rk[j].twin && rep_twin_lead(r, j) == i;
    return n;
}

int rep_peer_charts(const struct rep *r)
{
    int n = 0;
    for (int i = 0; i < r->nrk; i++) n += on_chart(r, i, 1);
    return n > 0;
}

/* the colours of a panel's series, distinct up to CHART_COLOURS series */
#define CHART_COLOURS 12
static const char *const chart_colours[CHART_COLOURS] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
    "#8c564b", "#e377c2", "#bcbd22", "#7f7f7f", "#000000", "#aec7e8"};

/* series c of a panel: its colour, a dash pattern and (points: drawn with them) a point shape,
 * so that a series drawn over an identical one still shows beside it ("lc ... dt ... pt ...") */
static const char *series_style(int c, int points)
{
    static char buf[8][64];
    static const int shape[] = {7, 5, 9, 11, 13};
    char *b = buf[c % 8];
    int k = snprintf(b, sizeof buf[0], "lc rgb '%s' dt %d", chart_colours[c % CHART_COLOURS],
                     1 + c % 4);
    if (points) snprintf(b + k, sizeof buf[0] - (size_t)k, " pt %d", shape[c % 5]);
    return b;
}

/* the index of group g among groups[0..*ng), added at the end if new; -1 when it is new and
 * groups[] already holds max */
static int group_index(const char **groups, int *ng, int max, const char *g)
{
    int j = 0;
    while (j < *ng && strcmp(groups[j], g)) j++;
    if (j < *ng) return j;
    if (*ng == max) return -1;
    groups[(*ng)++] = g;
    return j;
}

/* the group a kernel is drawn in on the per-group charts: a peer's library, or a kernel's family */
static const char *chart_group(const struct rep *r, int i)
{
    const struct rep_peer *p = rep_peer_find(r, r->rk[i].k->name);
    return p ? p->library : r->rk[i].family;
}

/* Small multiples at column width: np panels in two columns, each titled above its frame and
 * keyed below it (a line per entry, outside the data: nkey[p] lines), a row as tall as the
 * longer key of its two panels; head: the points above the first row (the chart's title),
 * title: above each frame (its title), plot: each frame's height. Each panel's frame and key corner
 * in screen fractions; returns the chart's height in points. The left column's frames leave room
 * for a y label. */
#define GRID_MAX 32
struct grid_frame {
    double l, r, b, t, key_x, key_y, title_y; /* title_y: its title's offset (characters) */
};
static int grid_layout(int np, const int *nkey, double head, double title, double plot,
                       struct grid_frame *f)
{
    const double lm[2] = {34, 22}, gap = 6, w = (REP_COL_PT - 12 - lm[0] - lm[1] - gap) / 2;
    const double below = 15, line = 6.5;
    double y = head, row_top[GRID_MAX / 2];
    if (np > GRID_MAX) np = GRID_MAX;
    int rows = (np + 1) / 2;
    for (int row = 0; row < rows; row++) {
        int keys = nkey[2 * row];
        if (2 * row + 1 < np && nkey[2 * row + 1] > keys) keys = nkey[2 * row + 1];
        row_top[row] = y;
        y += title + plot + below + line * keys + 6;
    }
    if (y < REP_MIN_H) y = REP_MIN_H; /* room below the last row */
    for (int p = 0; p < np; p++) {
        int c = p % 2, row = p / 2;
        double x0 = c ? lm[0] + w + gap + lm[1] : lm[0], t = row_top[row] + title, b = t + plot;
        f[p].l = x0 / REP_COL_PT, f[p].r = (x0 + w) / REP_COL_PT;
        f[p].t = 1 - t / y, f[p].b = 1 - b / y;
        f[p].key_x = (x0 - (c ? lm[1] : lm[0]) + 2) / REP_COL_PT, f[p].key_y = 1 - (b + below) / y;
        f[p].title_y = (title - 10) / 6 - 0.6;
    }
    return (int)ceil(y);
}

/* a panel of a grid_layout: its frame, title, axis labels (the y label in the left column
 * only) and its key below it */
static void grid_panel(char *body, size_t cap, size_t *used, const struct grid_frame *f, int p,
                       const char *title, const char *xlabel, const char *ylabel)
{
    chart_add(body, cap, used,
              "set lmargin at screen %g\nset rmargin at screen %g\nset bmargin at screen %g\n"
              "set tmargin at screen %g\nset title '%s' font ',6' offset 0,%g noenhanced\n"
              "set xlabel '%s' offset 0,0.6\nset ylabel '%s' offset 1,0\n"
              "set key at screen %g, screen %g left top Left reverse font ',5' samplen 1.5 "
              "spacing 0.85 maxcols 1 width -2\n",
              f[p].l, f[p].r, f[p].b, f[p].t, title, f[p].title_y, xlabel, p % 2 ? "" : ylabel,
              f[p].key_x, f[p].key_y);
}

#define BIN_GROUPS 16
#define BIN_ZERO   1e-4 /* where a binade without an error above it is drawn, its tic so labelled */
#define BIN_TINY   (-32) /* below 2^BIN_TINY a binade takes a quarter step (the shaded band) */

/* Where binade e of |x| (2^e <= |x| < 2^(e+1); the subnormals e = -127) sits on a per-binade
 * chart's x axis, right of 0: a step per binade from 2^BIN_TINY out, a quarter step below it,
 * where GELU(x) and its derivative differ from x/2 and 1/2 by under 2^-32 relative (far below an
 * ULP) and the curves are flat but at the subnormals; so |x| >= 1, where the kernels differ,
 * takes a fifth to a third of each half (the backward chart, the peers') instead of a tenth to a
 * seventh. */
static double binade_pos(int e)
{
    return e < BIN_TINY ? 1 + (e + 127) / 4.0 : 1 + (BIN_TINY + 127) / 4.0 + (e - BIN_TINY);
}

/* A max-ULP-per-binade chart (IN/CSV: kernel,against,sign,exponent_field,max_ulp,...; the
 * rows against the kernel's own definition) of the kernels ks[0..nk), in small multiples: a
 * panel per group (ks[i].group), two to a row, x on a log scale each side of 0 (the binades of
 * x < 0 left of 0, mirrored; binade_pos), a binade whose errors are all below BIN_ZERO (exact
 * results included) drawn on the line so marked, the x axis ending 8 binades past the last error.
 * what: the title's first lines (gnuplot's "\\n" between them, at most 74 characters each). */
int rep_binades_chart(const struct rep *r, const char *chart, const char *csv,
                      const struct rep_chart_kernel *ks, int nk, const char *what, char *err,
                      size_t errlen)
{
    char p[1200], line[512], dat[64];
    snprintf(p, sizeof p, "%s/%s", r->in, csv);
    snprintf(dat, sizeof dat, "charts/%s.dat", chart);
    FILE *in = fopen(p, "r");
    FILE *out = rep_open(r, dat, err, errlen);
    if (!in || !out) {
        if (in) fclose(in);
        if (out) fclose(out);
        return in ? -1 : (snprintf(err, errlen, "cannot read %s", p), -1);
    }
    char names[64][180], cur[160] = ""; /* names: the keys' words; cur: the kernel read */
    int cur_kept = 0;
    int n = 0, group_of[64], ng = 0;
    const char *groups[BIN_GROUPS];
    double top = 1;
    int emax = 0; /* the largest exponent with an error: the x axis ends a little beyond */
    while (fgets(line, sizeof line, in)) {
        char name[160], against[16];
        int sign, e, keep = -1;
        double mx;
        if (sscanf(line, "%159[^,],%15[^,],%d,%d,%lf", name, against, &sign, &e, &mx) != 5)
            continue;
        for (int i = 0; i < nk && keep < 0; i++)
            if (!strcmp(ks[i].name, name)) keep = i;
        if (keep < 0 || strcmp(against, "own") || e == 255) continue;
        if (strcmp(cur, name)) { /* a kernel's first row: on the chart, or left out */
            int j = n == 64 ? -1 : group_index(groups, &ng, BIN_GROUPS, ks[keep].group);
            snprintf(cur, sizeof cur, "%s", name);
            cur_kept = j >= 0;
            if (j < 0) {
                fprintf(stderr, "gelulab report: %s: %s left out (chart full)\n", chart, name);
                continue;
            }
            if (n) fprintf(out, "\n\n");
            snprintf(names[n], sizeof names[n], ks[keep].more ? "%s (+%d)" : "%s", name,
                     ks[keep].more),
                group_of[n++] = j;
        } else if (!cur_kept) {
            continue; /* a kernel left out above */
        }
        fprintf(out, "%d,%d,%.6g,%g\n", sign, e - 127, mx > BIN_ZERO ? mx : BIN_ZERO,
                binade_pos(e - 127));
        top = mx > top && isfinite(mx) ? mx : top;
        if (mx > 0 && e - 127 > emax) emax = e - 127;
    }
    fclose(in);
    fclose(out);
    /* x on a logarithmic scale on each side of 0: binade e of x < 0 at -binade_pos(e), of
     * x > 0 at binade_pos(e), the subnormals (e = -127) next to 0 */
    int np = ng ? ng : 1, nkey[GRID_MAX];
    int xend = emax + 8 < 128 ? emax + 8 : 128; /* the last binade drawn */
    double xmax = binade_pos(xend), tiny = binade_pos(BIN_TINY), one = binade_pos(0);
    struct grid_frame fr[GRID_MAX];
    for (int g = 0; g < np && g < GRID_MAX; g++) {
        nkey[g] = 0;
        for (int i = 0; i < n; i++) nkey[g] += group_of[i] == g;
    }
    int lines = 5; /* the title's: what's lines and the four below them */
    for (const char *c = what; (c = strstr(c, "\\n")); c += 2) lines++;
    int h = grid_layout(np < GRID_MAX ? np : GRID_MAX, nkey, 8 + 6 * lines, 10, 52, fr);
    char body[60000];
    size_t used = 0;
    chart_add(
        body, sizeof body, &used,
        "set multiplot title \"%s\\nx on a log scale each side of 0, a step per binade 2^e <= "
        "|x| < 2^{e+1},\\na quarter step below 2^{%d} (shaded), the subnormals at 0; a binade "
        "whose\\nerrors are all below 10^{-4} ULP (exact results too) is drawn at <10^{-4};\\n"
        "beyond 2^{%d} every finite result has error 0; non-finite ones: tables only\" "
        "font ',5'\n"
        "set logscale y\nset format y '10^{%%L}'\nset yrange [%g:%g]\nset ytics 1e4\n"
        "set ytics add ('<10^{-4}' %g)\nset xrange [%g:%g]\n"
        "set xtics ('-1' -%g, '-2^{-32}' -%g, '0' 0, '2^{-32}' %g, '1' %g)\n"
        "set xtics add ('' -%g 1, '' -%g 1, '' %g 1, '' %g 1, '' -%g 1, '' %g 1)\n"
        "set grid xtics ytics\n"
        "set object 1 rect from -%g, graph 0 to %g, graph 1 fc rgb '#eeeeee' fs solid "
        "noborder behind\n"
        "set arrow from 0, graph 0 to 0, graph 1 nohead dt 3 lc rgb '#999999'\n",
        what, BIN_TINY, xend, BIN_ZERO / 2, top * 10, BIN_ZERO, -xmax, xmax, one, tiny, tiny, one,
        binade_pos(-16), binade_pos(-64), binade_pos(-64), binade_pos(-16), binade_pos(16),
        binade_pos(16), tiny, tiny);
    for (int g = 0; g < np && g < GRID_MAX; g++) {
        grid_panel(body, sizeof body, &used, fr, g, ng ? groups[g] : "none swept", "x",
                   "max error (ULP)");
        chart_add(body, sizeof body, &used, "plot ");
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (group_of[i] != g) continue;
            for (int s = 1; s >= 0; s--) /* x < 0 (sign 1), then x > 0: one key entry */
                chart_add(body, sizeof body, &used,
                          "%s'%s/%s' index %d using ($1 == %d ? %s$4 : NaN):3 w l lw 1.5 "
                          "%s %s%s%s noenhanced",
                          c || s == 0 ? ", " : "", r->out, dat, i, s, s ? "-" : "",
                          series_style(c, 0), s ? "t '" : "notitle", s ? names[i] : "",
                          s ? "'" : "");
            c++;
        }
        if (!c) chart_add(body, sizeof body, &used, "1e30 notitle");
        chart_add(body, sizeof body, &used, "\n");
    }
    if (chart_full(chart, used, sizeof body, err, errlen)) return -1;
    return rep_render(r, chart, body, h, err, errlen);
}

/* binades.png (peers = 0) or binades_peers.png: the binary32 sweep's kernels or peers, once
 * per group of bit-identical results, a panel per family or library */
static int chart_binades(const struct rep *r, int peers, char *err, size_t errlen)
{
    struct rep_chart_kernel ks[256];
    int nk = 0;
    for (int i = 0; i < r->nrk && nk < 256; i++)
        if (on_chart(r, i, peers))
            ks[nk].name = r->rk[i].k->name, ks[nk].group = chart_group(r, i),
            ks[nk++].more = twins_of(r, i);
    char what[200];
    snprintf(what, sizeof what,
             "Max ULP error per binade of x (binary32, %s, own definition):\\n%s%s",
             r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : "sampled",
             peers ? "the peers, a panel per library" : "gelulab's kernels, a panel per family",
             "; (+N): N others with these results");
    return rep_binades_chart(r, peers ? "binades_peers" : "binades", "f32.binades.csv", ks, nk,
                             what, err, errlen);
}

/* hist.png (peers = 0) or hist_peers.png */
static int chart_hist(const struct rep *r, int peers, char *err, size_t errlen)
{
    char dat[64];
    const char *chart = peers ? "hist_peers" : "hist";
    snprintf(dat, sizeof dat, "charts/%s.dat", chart);
    FILE *out = rep_open(r, dat, err, errlen);
    if (!out) return -1;
    /* small multiples: a panel per group (the peers' library, the kernels' family) */
    const char *groups[BIN_GROUPS];
    int kern[128], group_of[128], n = 0, ng = 0;
    for (int i = 0; i < r->nrk && n < 128; i++) {
        const struct rep_kernel *k = &r->rk[i];
        if (!on_chart(r, i, peers)) continue;
        int j = group_index(groups, &ng, BIN_GROUPS, chart_group(r, i));
        if (j < 0) {
            fprintf(stderr, "gelulab report: %s: %s left out (chart full)\n", chart, k->k->name);
            continue;
        }
        if (n) fprintf(out, "\n\n");
        for (int b = 0; b < GL_HIST_BINS; b++)
            fprintf(out, "%d,%llu\n", b - 1, (unsigned long long)k->res->acc[0]->hist[b]);
        kern[n] = i, group_of[n++] = j;
    }
    fclose(out);
    int np = ng ? ng : 1, nkey[GRID_MAX];
    struct grid_frame fr[GRID_MAX];
    for (int g = 0; g < np; g++) {
        nkey[g] = 0;
        for (int i = 0; i < n; i++) nkey[g] += group_of[i] == g;
    }
    int h = grid_layout(np, nkey, 33, 10, 55, fr);
    char body[40000];
    size_t used = 0;
    chart_add(
        body, sizeof body, &used,
        "set multiplot title \"ULP error histograms (binary32 sweep, own definition)%s;\\n(+N): "
        "N others with these results;\\n"
        "inputs per bin; the point at b counts errors in (2^{b-1}, 2^b] ULP;\\nb = -1: [0, "
        "1/2]; b = 40: above 2^{39} or not finite\" font ',6'\n"
        "set logscale y\nset format y '10^{%%L}'\nset xrange [-2:41]\nset yrange [0.5:2e10]\n"
        "set xtics 10\nset ytics 1e3\n",
        peers ? ", a panel per library" : ", a panel per family");
    for (int g = 0; g < np; g++) {
        grid_panel(body, sizeof body, &used, fr, g, ng ? groups[g] : "none swept", "b (log_2 ULP)",
                   "inputs");
        chart_add(body, sizeof body, &used, "plot ");
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (group_of[i] != g) continue;
            char key[200];
            int more = twins_of(r, kern[i]);
            snprintf(key, sizeof key, more ? "%s (+%d)" : "%s", r->rk[kern[i]].k->name, more);
            chart_add(body, sizeof body, &used,
                      "%s'%s/%s' index %d using 1:($2 > 0 ? $2 : NaN) w lp ps 0.4 lw 1.5 %s "
                      "t '%s' noenhanced",
                      c ? ", " : "", r->out, dat, i, series_style(c, 1), key);
            c++;
        }
        if (!c) chart_add(body, sizeof body, &used, "1e30 notitle");
        chart_add(body, sizeof body, &used, "\n");
    }
    if (chart_full(chart, used, sizeof body, err, errlen)) return -1;
    return rep_render(r, chart, body, h, err, errlen);
}

static double core_ulp(const struct rep_kernel *k) /* rep_core_exact, floored for log axes */
{
    double u = rep_core_exact(k);
    return u > REP_FLOOR_ULP ? u : REP_FLOOR_ULP;
}

/* how many placed labels (bx, by, bw) and obstacles (ox, oy, other than the point's own
 * px, py) a label box at (xc, yc), w wide, covers; a box outside the range counts as many */
static int label_clashes(double xc, double yc, double w, double cw, double ch, const double *range,
                         const double *bx, const double *by, const double *bw, int placed,
                         const double *ox, const double *oy, int no, double px, double py)
{
    if (xc < range[0] + cw || xc + w > range[1] || yc - 0.5 * ch < range[2] ||
        yc + 0.5 * ch > range[3])
        return 1000;
    int k = 0;
    for (int j = 0; j < placed; j++)
        k += xc < bx[j] + bw[j] + 0.5 * cw && bx[j] - 0.5 * cw < xc + w &&
             fabs(yc - by[j]) < 0.9 * ch;
    /* each about a character wide; a marker (REP_MARK_*) and a label's letters are each about
     * 0.6 of a line high, so a point within 0.85 of a line of a box's middle touches the
     * letters or all but does (0.7 let a triangle's tip touch them) */
    for (int j = 0; j < no; j++)
        k += (ox[j] != px || oy[j] != py) && xc < ox[j] + 0.6 * cw && ox[j] - 0.6 * cw < xc + w &&
             fabs(yc - oy[j]) < 0.85 * ch;
    return k;
}

/* whether the segment (x0, y0)-(x1, y1) passes through the box [bx, bx + bw] x [by - bh/2,
 * by + bh/2] (Liang-Barsky clipping: the part of the segment inside is not empty) */
static int segment_hits_box(double x0, double y0, double x1, double y1, double bx, double by,
                            double bw, double bh)
{
    double t0 = 0, t1 = 1, d[2] = {x1 - x0, y1 - y0};
    double lo[2] = {bx - x0, by - 0.5 * bh - y0}, hi[2] = {bx + bw - x0, by + 0.5 * bh - y0};
    for (int a = 0; a < 2; a++) {
        if (d[a] == 0) {
            if (lo[a] > 0 || hi[a] < 0) return 0;
            continue;
        }
        double ta = lo[a] / d[a], tb = hi[a] / d[a];
        if (ta > tb) {
            double t = ta;
            ta = tb, tb = t;
        }
        t0 = fmax(t0, ta), t1 = fmin(t1, tb);
        if (t0 >= t1) return 0;
    }
    return 1;
}

/* whether a label box at (xc, yc), w wide, right of its point (px, py) or left of it (left), its
 * near end nearer another of the points (ox, oy)[0..npoints) than its own, would be read as that
 * point's (distances in characters and lines: cw, ch) */
static int nearer_another(double xc, double yc, double w, int left, double px, double py,
                          const double *ox, const double *oy, int npoints, double cw, double ch)
{
    double ax = left ? xc + w : xc, own = hypot((ax - px) / cw, (yc - py) / ch);
    for (int j = 0; j < npoints; j++)
        if ((ox[j] != px || oy[j] != py) && hypot((ax - ox[j]) / cw, (yc - oy[j]) / ch) < own)
            return 1;
    return 0;
}

/* whether a label at place c (rep_place_labels: its height c / 2, its side c % 2) and shift sh
 * is set apart from its point, joined to it by a leader */
static int set_apart(size_t c, int sh)
{
    return c / 2 >= 3 || sh > 0;
}

/* the leader of a label box at (xc, yc), w wide, from its point (px, py) to the box's edge at
 * the label's height (rep_place_labels: ex, ey) */
static double leader_end(double px, double xc, double w)
{
    return fmin(fmax(px, xc), xc + w);
}

/* how many crossings of leaders with label boxes and points a label box at (xc, yc), w wide,
 * makes: its own leader (when it has one) through the boxes placed and the other points (ox, oy:
 * 1.2 characters wide as label_clashes takes them, 0.7 of a line high), and the leaders placed
 * (lpx, lpy to lex, ley; NaN: none) through it */
static int leader_clashes(double xc, double yc, double w, double cw, double ch, int leader,
                          double px, double py, const double *bx, const double *by,
                          const double *bw, const double *lpx, const double *lpy, const double *lex,
                          int placed, const double *ox, const double *oy, int npoints)
{
    int k = 0;
    double e = leader_end(px, xc, w);
    for (int j = 0; leader && j < npoints; j++)
        k += (ox[j] != px || oy[j] != py) &&
             segment_hits_box(px, py, e, yc, ox[j] - 0.6 * cw, oy[j], 1.2 * cw, 0.7 * ch);
    for (int j = 0; j < placed; j++) {
        /* a label 0.8 of a line high (its letters): a leader between two lines counts not */
        k += leader && segment_hits_box(px, py, e, yc, bx[j], by[j], bw[j], 0.8 * ch);
        k += !isnan(lex[j]) && segment_hits_box(lpx[j], lpy[j], lex[j], by[j], xc, yc, w, 0.8 * ch);
    }
    return k;
}

void rep_place_labels(int n, const double *px, const double *py, char (*text)[96], const int *first,
                      const double *fx, const double *fy, int nfront, const double range[4],
                      double frame_w, double frame_h, int *number, double *lx, double *ly,
                      int *right, double *ex, double *ey)
{
    /* a character of a 5-point label about 2.8 points wide (more than most names take), a
     * line 6.5 points high */
    double cw = (range[1] - range[0]) * 2.8 / frame_w, ch = (range[3] - range[2]) * 6.5 / frame_h;
    /* a name's places: up to 3.2 lines away; a number's, further (a leader joins them) */
    static const double dy[] = {0, 0.8, -0.8, 1.6, -1.6, 2.4, -2.4, 3.2, -3.2, 4, -4, 4.8, -4.8};
    double bx[256], by[256], bw[256], ox[2048], oy[2048], lpx[256], lpy[256], lex[256];
    int order[256], m = 0, placed = 0, no = 0;
    if (n > 256) n = 256;
    for (int i = 0; i < n; i++) lx[i] = ly[i] = ex[i] = ey[i] = NAN, right[i] = 0;
    /* the obstacles: the points, and the line through (fx, fy) sampled every half character */
    for (int i = 0; i < n && no < 2048; i++) ox[no] = px[i], oy[no++] = py[i];
    double x0 = 0, y0 = 0;
    for (int f = 0; f < nfront; f++) {
        double len = f ? hypot((fx[f] - x0) / cw, (fy[f] - y0) / ch) : 0;
        for (int s = 1; s < 2 * len && no < 2048; s++) {
            double t = s / (2 * len);
            ox[no] = x0 + t * (fx[f] - x0), oy[no++] = y0 + t * (fy[f] - y0);
        }
        x0 = fx[f], y0 = fy[f];
    }
    for (int pass = 0; pass < 2; pass++) /* the first ones first */
        for (int i = 0; i < n; i++)
            if ((first[i] != 0) == (pass == 0)) order[m++] = i;
    for (int o = 0; o < m; o++) {
        int i = order[o], best = 1 << 30;
        double w = 0, best_x = NAN, best_y = NAN;
        size_t c = 0, best_c = 0;
        int best_shift = 0;
        for (int numbered = 0; numbered < 2 && best; numbered++) {
            if (numbered) { /* the name fits nowhere: its number, the name in the list */
                if (first[i]) break;
                snprintf(text[i], sizeof text[i], "%d", ++*number);
                best = 1 << 30;
            }
            w = (double)strlen(text[i]) * cw;
            /* a name: beside its point; a number or a first one: also a few characters out */
            size_t places = numbered || first[i] ? sizeof dy / sizeof dy[0] : 8;
            int shifts = numbered || first[i] ? 3 : 1;
            for (int sh = 0; sh < shifts && best; sh++)
                for (c = 0; c < 2 * places && best; c++) { /* right of the point, then left */
                    double yc = py[i] + dy[c / 2] * ch, d = (0.8 + 3 * sh) * cw;
                    double xc = c % 2 ? px[i] - d - w : px[i] + d;
                    /* a box covered counts four times a leader crossed (a number or a first
                     * one is placed in any case: where it crosses rather than covers) */
                    int covers =
                            label_clashes(xc, yc, w, cw, ch, range, bx, by, bw, placed, ox, oy, no,
                                          px[i], py[i]) +
                            (!set_apart(c, sh) && nearer_another(xc, yc, w, (int)(c % 2), px[i],
                                                                 py[i], ox, oy, n, cw, ch)),
                        k = 4 * covers + leader_clashes(xc, yc, w, cw, ch, set_apart(c, sh), px[i],
                                                        py[i], bx, by, bw, lpx, lpy, lex, placed,
                                                        ox, oy, n);
                    if (k < best && (k == 0 || numbered || first[i]))
                        best = k, best_x = xc, best_y = yc, best_c = c, best_shift = sh;
                }
        }
        /* placed in any case: every place scores below 1 << 30, a place outside the frame
         * 4 000 (label_clashes), so a label goes outside only where no place is inside */
        int leader = set_apart(best_c, best_shift); /* a leader to its box's edge */
        lpx[placed] = px[i], lpy[placed] = py[i];
        lex[placed] = leader ? leader_end(px[i], best_x, w) : NAN;
        bx[placed] = best_x, by[placed] = best_y, bw[placed++] = w;
        right[i] = best_c % 2; /* left of the point: the text ends at lx */
        lx[i] = pow(10, right[i] ? best_x + w : best_x), ly[i] = pow(10, best_y);
        if (leader) ex[i] = pow(10, lex[placed - 1]), ey[i] = ly[i];
    }
}

int rep_numbered_list(int n, const char (*names)[96], const char (*text)[96], int from, int to,
                      char *list, size_t cap, size_t *used, size_t *line)
{
    int lines = 0;
    for (int k = from + 1; k <= to; k++) /* in the numbers' order */
        for (int i = 0; i < n; i++) {
            char num[16], entry[128];
            snprintf(num, sizeof num, "%d", k);
            if (strcmp(text[i], num) || !strcmp(names[i], num)) continue;
            int len = snprintf(entry, sizeof entry, "%s: %s", num, names[i]);
            if (*used + (size_t)len + 16 >= cap) { /* full: cut between entries */
                if (*used + 6 < cap && !strstr(list, ", ...")) chart_add(list, cap, used, ", ...");
                return lines;
            }
            if (!*used) /* the first line: what the numbers are */
                chart_add(list, cap, used, "numbered: %s", entry), *line = 0, lines++;
            else if (*used - *line + (size_t)len + 2 > 76) /* a new line */
                chart_add(list, cap, used, "\\n%s", entry), *line = *used - (size_t)len, lines++;
            else
                chart_add(list, cap, used, ", %s", entry);
        }
    return lines;
}

int rep_label_layers(char *buf, size_t cap, const char *dat, const char *cond, const char *marks)
{
    int k = snprintf(buf, cap,
                     "'%s' using (%s ? $1 : NaN):2:($7 - $1):($8 - $2) w vectors nohead lc rgb "
                     "'#aaaaaa' notitle, '' using (%s && $10 == 0 ? $5 : NaN):6:9 w labels left "
                     "boxed font ',5' noenhanced notitle, '' using (%s && $10 == 1 ? $5 : NaN):6:9 "
                     "w labels right boxed font ',5' noenhanced notitle, %s",
                     dat, cond, cond, cond, marks);
    return k >= 0 && (size_t)k < cap ? 0 : -1;
}

/* The Pareto chart's labels (rep_place_labels): one panel's kernels idx[0..n) by increasing
 * cost, the front's points placed first and its line (both panels' front points by cost:
 * front[]) an obstacle */
static void pareto_labels(const struct rep *r, const int *idx, int n, char (*text)[96],
                          const int *front, int nfront, const double range[4], double frame_w,
                          double frame_h, int *number, double *lx, double *ly, int *right,
                          double *ex, double *ey)
{
    double px[256], py[256], fx[256], fy[256];
    int first[256];
    for (int i = 0; i < n && i < 256; i++)
        px[i] = log10(r->rk[idx[i]].cyc), py[i] = log10(core_ulp(&r->rk[idx[i]])),
        first[i] = r->rk[idx[i]].pareto != 0;
    for (int f = 0; f < nfront && f < 256; f++)
        fx[f] = log10(r->rk[front[f]].cyc), fy[f] = log10(core_ulp(&r->rk[front[f]]));
    rep_place_labels(n, px, py, text, first, fx, fy, nfront, range, frame_w, frame_h, number, lx,
                     ly, right, ex, ey);
}

int rep_pareto_panel(const struct rep *r, const struct rep_kernel *k)
{
    return strcmp(k->family, "peer") ? 0 : rep_framework_timed(r, k->k->name) ? 2 : 1;
}

int rep_pareto_panels(const struct rep *r, int pid[3])
{
    int has[3] = {1, 0, 0}, np = 1, more;
    for (int i = 0; i < r->nrk; i++)
        if (rep_pareto_drawn(r, &r->f32, i, &more)) has[rep_pareto_panel(r, &r->rk[i])] = 1;
    pid[0] = 0;
    if (has[1] || !has[2]) pid[np++] = 1;
    if (has[2]) pid[np++] = 2;
    return np;
}

/* a panel's title "PREFIX: LIBS" in buf, in two lines at the comma nearest half when long; a
 * quote or backslash in LIBS (peers.tsv's, bench.json's) a space, inside gnuplot's quotes */
static void pareto_panel_title(char *buf, size_t len, const char *prefix, const char *libs)
{
    snprintf(buf, len, "%s: %s", prefix, libs);
    for (char *q = buf + strlen(prefix); (q = strpbrk(q, "\"\\")) != NULL;) *q = ' ';
    if (strlen(buf) <= 60 || strlen(buf) + 2 >= len) return;
    char *best = NULL, *c = buf;
    size_t half = strlen(buf) / 2;
    while ((c = strstr(c, ", ")) != NULL) {
        if (!best || labs((long)(c - buf) - (long)half) < labs((long)(best - buf) - (long)half))
            best = c;
        c += 2;
    }
    if (best) best[1] = '\\', memmove(best + 3, best + 2, strlen(best + 2) + 1), best[2] = 'n';
}

/* Accuracy against cost, in panels on the same axes (one crowded panel overprinted its labels
 * once the Python frameworks came): gelulab's kernels, the peers called in gelulab's process,
 * the peers timed in their framework's process (when any is drawn), the Pareto front of all in
 * each; one key, above the first frame, off the data. Of kernels with bit-identical results
 * (the builds of one algorithm, a peer that runs another's code) only the cheapest is drawn,
 * its label counting the others. */
static int chart_pareto(const struct rep *r, char *err, size_t errlen)
{
    FILE *out = rep_open(r, "charts/pareto.dat", err, errlen);
    if (!out) return -1;
    int idx[256], n = 0, more[256], panel[256];
    char text[256][96], label[256][96]; /* a point's name, and its label: the name or a number */
    for (int i = 0; i < r->nrk && n < 256; i++) { /* the library's entry points: their builds */
        int m;
        if (rep_pareto_drawn(r, &r->f32, i, &m)) more[n] = m, idx[n++] = i;
    }
    rep_by_cost(r, idx, n);
    for (int i = 0; i < n; i++) rep_pareto_drawn(r, &r->f32, idx[i], &more[i]);
    for (int i = 0; i < n; i++) {
        snprintf(text[i], sizeof text[i], more[i] ? "%s%s (+%d)" : "%s%s", r->rk[idx[i]].k->name,
                 rep_timed_mark(r, r->rk[idx[i]].k->name), more[i]);
        panel[i] = rep_pareto_panel(r, &r->rk[idx[i]]);
    }
    int pid[3], np = rep_pareto_panels(r, pid);
    double range[4] = {1e300, -1e300, 1e300, -1e300}; /* decades: x0 x1 y0 y1, every panel */
    int floored = 0; /* a point on the floor: the axis starts just below it */
    for (int i = 0; i < n; i++) {
        double x = log10(r->rk[idx[i]].cyc), y = log10(core_ulp(&r->rk[idx[i]]));
        range[0] = fmin(range[0], floor(x)), range[1] = fmax(range[1], floor(x) + 1);
        range[2] = fmin(range[2], floor(y) - 1),
        range[3] = fmax(range[3], ceil(y) + 1); /* labels */
        floored |= rep_core_exact(&r->rk[idx[i]]) < REP_FLOOR_ULP;
    }
    if (floored) range[2] = log10(REP_FLOOR_ULP) - 0.5;
    /* frames of PARETO_FRAME points square-ish, one above the other (points from the top: the
     * title, the one key, gelulab's panel; each peers' panel with its title of two lines; the x
     * label) */
    enum { PARETO_FRAME = 165, PARETO_LEFT = 34, PARETO_RIGHT = 14 };
    double top[3] = {50 + 9 + 8};
    for (int q = 1; q < np; q++) top[q] = top[q - 1] + PARETO_FRAME + 9 + 4 + 15;
    const double hpt = top[np - 1] + PARETO_FRAME + 9 + 9 + 3,
                 frame_w = REP_COL_PT - PARETO_LEFT - PARETO_RIGHT;
    double lx[256], ly[256], ex[256], ey[256];
    int front[256], nfront = 0, numbers = 0, right[256];
    for (int i = 0; i < n; i++)
        if (r->rk[idx[i]].pareto) front[nfront++] = idx[i];
    char list[4000] = ""; /* the numbered points' names, "\n" between lines */
    size_t used = 0, line = 0;
    int lines = 0;
    char titles[3][300] = {"gelulab's kernels"};
    for (int q = 0; q < np; q++) { /* each panel's labels apart */
        int p = pid[q], sub[256], m = 0;
        double sx[256], sy[256], tx[256], ty[256];
        int sr[256];
        for (int i = 0; i < n; i++)
            if (panel[i] == p) sub[m++] = i;
        int kidx[256];
        char ktext[256][96];
        for (int i = 0; i < m; i++)
            kidx[i] = idx[sub[i]], memcpy(ktext[i], text[sub[i]], sizeof ktext[i]);
        if (p) {
            char libs[200];
            rep_peer_libraries_of(r, kidx, m, libs, sizeof libs);
            pareto_panel_title(titles[p], sizeof titles[p],
                               p == 1 ? "peers called in gelulab's process"
                                      : "peers timed in their framework's process (ᶠ)",
                               libs);
        }
        int from = numbers;
        pareto_labels(r, kidx, m, ktext, front, nfront, range, frame_w, PARETO_FRAME, &numbers, sx,
                      sy, sr, tx, ty);
        char names[256][96];
        for (int i = 0; i < m; i++) memcpy(names[i], text[sub[i]], sizeof names[i]);
        lines += rep_numbered_list(m, names, ktext, from, numbers, list, sizeof list, &used, &line);
        for (int i = 0; i < m; i++)
            lx[sub[i]] = sx[i], ly[sub[i]] = sy[i], ex[sub[i]] = tx[i], ey[sub[i]] = ty[i],
            right[sub[i]] = sr[i], memcpy(label[sub[i]], ktext[i], sizeof label[sub[i]]);
    }
    for (int i = 0; i < n; i++) {
        const struct rep_kernel *k = &r->rk[idx[i]];
        fprintf(out, "%.6g,%.6g,%s,%d,%.6g,%.6g,%.6g,%.6g,%s,%d,%d\n", k->cyc, core_ulp(k), text[i],
                panel[i], lx[i], ly[i], ex[i], ey[i], label[i], right[i], k->pareto);
    }
    fclose(out);
    if (n == 0)
        return rep_render(
            r, "pareto",
            "set title 'Accuracy against cost'\nset label 'no kernel of the sweep was "
            "benchmarked' at graph 0.1,0.5\nplot [1:10] [1:10] 1e30 notitle\n",
            REP_MIN_H, err, errlen);
    const char *dat = "charts/pareto.dat";
    char body[12000];
    size_t k = 0;
    const char *floor_tic = floored ? rep_floor_tic() : ""; /* a point on the floor */
    double htot = hpt + (lines ? 6.5 * lines + 3 : 0);
    chart_add(body, sizeof body, &k,
              "set multiplot title \"Accuracy against cost: max ULP against exact GELU on [-5, "
              "5]\\n(binary32 sweep) vs TSC cycles per element at %zu floats of\\nuniform inputs "
              "on [-8, 8); of kernels with bit-identical results the\\ncheapest is drawn, (+N): N "
              "others; grey: a leader; the front\\nis of all panels together; ᶠ: timed in its "
              "framework's\\nprocess, ˢ: in a run of its own\" font ',6'\n"
              "set logscale xy\nset format y '10^{%%L}'\nset xrange [%g:%g]\nset yrange "
              "[%g:%g]\n" REP_LABEL_BOX
              "set ylabel 'max ULP on [-5, 5]'\n%sset lmargin at screen %g\n"
              "set rmargin at screen %g\n"
              "set key at screen 0.5, screen %g center top horizontal samplen 1.5\n",
              r->pareto_size, pow(10, range[0]), pow(10, range[1]), pow(10, range[2]),
              pow(10, range[3]), floor_tic, (double)PARETO_LEFT / REP_COL_PT,
              1 - (double)PARETO_RIGHT / REP_COL_PT, 1 - 51 / htot);
    if (lines) /* the list under the x label */
        chart_add(body, sizeof body, &k,
                  "set label 1000 \"%s\" at screen 0.01, screen %g left font ',5' noenhanced\n",
                  list, (6.5 * lines - 2) / htot);
    char path[4200]; /* the points' file, as gnuplot reads it */
    snprintf(path, sizeof path, "%s/%s", r->out, dat);
    for (int q = 0; q < np; q++) {
        int p = pid[q];
        const char *mark = p ? REP_MARK_PEER : REP_MARK_OWN;
        /* a panel: its frame and title; the front (the key's first entry), the points, the
         * leaders, the labels (left-justified right of their point, right-justified left of
         * it) on opaque boxes, which hide the leaders and grid lines under their letters; the
         * front's and the points' markers again, over any label placed on them */
        chart_add(body, sizeof body, &k,
                  "%sset tmargin at screen %g\nset bmargin at screen %g\n"
                  "set title \"%s\" font ',6' offset 0,-0.6 noenhanced\nset xlabel %s\n"
                  "plot '< grep \",1$\" %s' using 1:2 w lp " REP_MARK_FRONT " lw 2 "
                  "%s, '%s' using ($4 == %d ? $1 : NaN):2 w p %s notitle, ",
                  p ? "set key off\nunset label 1000\n" : "", 1 - top[q] / htot,
                  1 - (top[q] + PARETO_FRAME) / htot, titles[p],
                  q == np - 1 ? "'cycles per element (time-stamp counter, one core)' offset 0,0.6"
                              : "''",
                  path, p ? "notitle" : "t 'Pareto front'", path, p, mark);
        if (!p) /* the key's entries */
            chart_add(body, sizeof body, &k,
                      "1e30 w p " REP_MARK_OWN " t 'gelulab', 1e30 w p " REP_MARK_PEER
                      " t 'peers', ");
        char cond[32], marks[8600], layers[13000];
        snprintf(cond, sizeof cond, "$4 == %d", p);
        snprintf(marks, sizeof marks,
                 "'< grep \",1$\" %s' using 1:2 w p " REP_MARK_FRONT " notitle, '%s' "
                 "using ($4 == %d ? $1 : NaN):2 w p %s notitle",
                 path, path, p, mark);
        if (rep_label_layers(layers, sizeof layers, path, cond, marks))
            return snprintf(err, errlen, "chart pareto: its label layers run past %zu bytes",
                            sizeof layers),
                   -1;
        chart_add(body, sizeof body, &k, "%s\n", layers);
    }
    if (chart_full("pareto", k, sizeof body, err, errlen)) return -1;
    return rep_render(r, "pareto", body, (int)ceil(htot), err, errlen);
}

/* The throughput chart's panels (small multiples): gelulab's fastest build of each kernel
 * family beside relu-vec, in two panels (exact GELU; the other definitions and ReLU: eleven lines
 * in one panel overlapped), then each peer library's timed binary32 forward peers; memcpy in
 * every panel as the common reference */
#define TP_PANELS 16
#define TP_SERIES CHART_COLOURS
struct tp_panel {
    char title[80]; /* its library, or gelulab's */
    const char *names[TP_SERIES];
    int n, framework; /* framework: timed inside the framework's process (ᶠ) */
};

static int tp_add(struct tp_panel *p, const char *name)
{
    if (p->n == TP_SERIES) return -1;
    p->names[p->n++] = name;
    return 0;
}

static int tp_panels(const struct rep *r, struct tp_panel *pan, int quiet)
{
    /* panel j's library (and "\tf" for its peers timed in their framework's process); gelulab's
     * two panels first: exact GELU, the other definitions */
    const char *libs[TP_PANELS] = {"", "\001"};
    char keys[TP_PANELS + 1][100];
    int np = 2;
    memset(pan, 0, 2 * sizeof *pan);
    snprintf(pan[0].title, sizeof pan[0].title, "gelulab: exact GELU");
    snprintf(pan[1].title, sizeof pan[1].title, "gelulab: other forms, ReLU");
    if (rep_eps(r, "relu-vec", r->pareto_size) > 0)
        tp_add(&pan[0], "relu-vec"), tp_add(&pan[1], "relu-vec");
    const char *fam[32];
    int nf = families(r, fam, 32);
    for (int f = 0; f < nf; f++) {
        const struct rep_kernel *best = NULL;
        for (int i = 0; i < r->nrk; i++) {
            const struct rep_kernel *k = &r->rk[i];
            double e = rep_eps(r, k->k->name, r->pareto_size);
            if (!strcmp(k->family, fam[f]) && e > 0 &&
                (!best || e > rep_eps(r, best->k->name, r->pareto_size)))
                best = k;
        }
        if (!best) continue;
        int other = best->k->defn != GL_DEFN_EXACT || !strcmp(best->family, "relu");
        if (tp_add(&pan[other], best->k->name) && !quiet)
            fprintf(stderr, "gelulab report: throughput chart: %s left out (panel full)\n",
                    best->k->name);
    }
    for (int i = 0; i < r->npeers; i++) { /* the peers of a library together, its first order */
        const struct rep_peer *p = &r->peers[i];
        if (rep_eps(r, p->name, r->pareto_size) <= 0) continue;
        int framework = rep_framework_timed(r, p->name);
        snprintf(keys[np], sizeof keys[np], "%s%s", p->library, framework ? "\tf" : "");
        int had = np, j = group_index(libs, &np, TP_PANELS, keys[np]);
        if (j > 0 && j == had) {
            memset(&pan[j], 0, sizeof pan[j]);
            snprintf(pan[j].title, sizeof pan[j].title, "%s", p->library);
            pan[j].framework = framework;
        }
        if ((j < 0 || tp_add(&pan[j], p->name)) && !quiet)
            fprintf(stderr, "gelulab report: throughput chart: %s left out (%s full)\n", p->name,
                    j < 0 ? "chart" : "panel");
    }
    int kept = 0; /* a gelulab panel with no kernel of its own (relu-vec alone) is left out */
    for (int j = 0; j < np; j++) {
        int own = pan[j].n - (pan[j].n && !strcmp(pan[j].names[0], "relu-vec"));
        if (j < 2 && !own) continue;
        if (kept != j) pan[kept] = pan[j];
        kept++;
    }
    return kept ? kept : 1; /* nothing timed: gelulab's first panel, empty */
}

int rep_throughput_frameworks(const struct rep *r)
{
    struct tp_panel pan[TP_PANELS];
    int np = tp_panels(r, pan, 1), any = 0;
    for (int p = 0; p < np; p++) any |= pan[p].framework;
    return any;
}

/* throughput.png (framework = 0: gelulab's kernels and the peers timed in gelulab-bench) or
 * throughput_frameworks.png (the peers timed inside their framework's process, ᶠ), a panel
 * per library with memcpy in each */
static int chart_throughput(const struct rep *r, int framework, char *err, size_t errlen)
{
    const char *chart = framework ? "throughput_frameworks" : "throughput";
    char dat[64];
    snprintf(dat, sizeof dat, "charts/%s.dat", chart);
    struct tp_panel all_pan[TP_PANELS], pan[TP_PANELS];
    int nall_pan = tp_panels(r, all_pan, framework), np = 0, idx = 0;
    for (int p = 0; p < nall_pan; p++)
        if (all_pan[p].framework == framework) pan[np++] = all_pan[p];
    if (framework && !np) return 0;
    if (!np) { /* nothing timed here: gelulab's first panel, empty */
        memset(&pan[0], 0, sizeof pan[0]);
        snprintf(pan[0].title, sizeof pan[0].title, "gelulab: exact GELU");
        np = 1;
    }
    FILE *out = rep_open(r, dat, err, errlen);
    if (!out) return -1;
    int has_memcpy = rep_eps(r, "memcpy", r->pareto_size) > 0;
    double lo = INFINITY, hi = 0; /* over both charts' series: the same axes in every panel */
    for (int p = 0; p < nall_pan; p++)
        for (int i = 0; i < all_pan[p].n; i++)
            for (size_t s = 0; s < r->nsizes; s++) {
                double e = rep_eps(r, all_pan[p].names[i], r->sizes[s]) * 1e-6;
                if (e > 0) lo = e < lo ? e : lo, hi = e > hi ? e : hi;
            }
    /* memcpy first (index 0), then every panel's series in order */
    const char *all[TP_PANELS * TP_SERIES + 1];
    int nall = 0;
    if (has_memcpy) all[nall++] = "memcpy";
    for (int p = 0; p < np; p++)
        for (int i = 0; i < pan[p].n; i++) /* relu-vec: once, though in two panels */
            group_index(all, &nall, TP_PANELS * TP_SERIES + 1, pan[p].names[i]);
    for (int i = 0; i < nall; i++) {
        if (i) fprintf(out, "\n\n");
        for (size_t s = 0; s < r->nsizes; s++) {
            double e = rep_eps(r, all[i], r->sizes[s]) * 1e-6;
            fprintf(out, "%zu,%.6g\n", r->sizes[s], e);
            if (e > 0) lo = e < lo ? e : lo, hi = e > hi ? e : hi;
        }
    }
    fclose(out);
    if (!(hi > 0)) lo = 1, hi = 1e5;
    char body[40000], marks[600] = "";
    size_t used = 0;
    /* the cache levels, for two arrays (x and y) of n floats: n = size / 8 */
    double x0 = r->nsizes ? (double)r->sizes[0] / 1.5 : 1, /* no size: an empty axis */
        x1 = r->nsizes ? (double)r->sizes[r->nsizes - 1] * 1.5 : 2;
    for (int c = 0; c < 3; c++) /* those within the axis */
        if (r->bench.cache[c] / 8 > x0 && r->bench.cache[c] / 8 < x1)
            chart_add(marks, sizeof marks, &used,
                      "set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc rgb '#999999'\n"
                      "set label 'L%d' at %g, graph 1.07 center font ',5' tc rgb '#666666'\n",
                      r->bench.cache[c] / 8, r->bench.cache[c] / 8, c + 1, r->bench.cache[c] / 8);
    int nkey[GRID_MAX];
    struct grid_frame fr[GRID_MAX];
    for (int p = 0; p < np; p++) nkey[p] = pan[p].n;
    int h = grid_layout(np, nkey, framework ? 26 : 33, 16, 62, fr);
    char xtics[200] = ""; /* the sizes at least 2^4 apart: closer, their labels overprint */
    size_t xt = 0;
    for (size_t s = 0, last = 0; s < r->nsizes; s++)
        if (s == 0 || r->sizes[s] >= 16 * r->sizes[last])
            chart_add(xtics, sizeof xtics, &xt, "%s%zu", s ? ", " : "", r->sizes[s]), last = s;
    used = 0;
    chart_add(body, sizeof body, &used,
              "set multiplot title \"Throughput against array size (one core, median of "
              "repetitions,\\nuniform inputs on [-8, 8)): %s;\\ngrey: memcpy (glibc), what "
              "moving the data costs; dotted: the array\\nsizes whose two arrays, x and y, fill "
              "the L1, L2, L3 caches\" font ',5'\n"
              "set logscale x 2\nset logscale y\nset format x '2^{%%L}'\nset format y '10^{%%L}'\n"
              "set xrange [%g:%g]\nset yrange [%g:%g]\nset xtics (%s)\n%s",
              framework ? "the peers timed inside their framework's process (ᶠ)"
                        : "gelulab's kernels (the fastest build of each family) and the "
                          "peers\\ntimed in gelulab-bench",
              x0, x1, lo / 1.5, hi * 1.5, xtics, marks);
    for (int p = 0; p < np; p++) {
        grid_panel(body, sizeof body, &used, fr, p, pan[p].title, "array size (floats)",
                   "10^6 elements/s");
        chart_add(body, sizeof body, &used, "plot ");
        if (has_memcpy)
            chart_add(body, sizeof body, &used,
                      "'%s/%s' index 0 using 1:($2 > 0 ? $2 : NaN) w l lw 4 lc rgb '#bbbbbb' "
                      "notitle",
                      r->out, dat);
        for (int i = 0, c = 0; i < pan[p].n; i++) {
            if (!strcmp(pan[p].names[i], "memcpy")) continue;
            for (idx = 0; idx < nall && strcmp(all[idx], pan[p].names[i]); idx++) {
            }
            chart_add(body, sizeof body, &used,
                      "%s'%s/%s' index %d using 1:($2 > 0 ? $2 : NaN) w lp ps 0.5 lw 1.5 %s "
                      "t '%s%s' noenhanced",
                      has_memcpy || c ? ", " : "", r->out, dat, idx, series_style(c, 1),
                      pan[p].names[i], rep_timed_mark(r, pan[p].names[i]));
            c++;
        }
        chart_add(body, sizeof body, &used, has_memcpy || pan[p].n ? "\n" : "1e30 notitle\n");
    }
    if (chart_full(chart, used, sizeof body, err, errlen)) return -1;
    return rep_render(r, chart, body, h, err, errlen);
}

int rep_charts(struct rep *r, char *err, size_t errlen)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/charts", r->out);
    mkdir(p, 0777);
    int peers = rep_peer_charts(r);
    if (chart_definitions(r, err, errlen) || chart_binades(r, 0, err, errlen) ||
        chart_hist(r, 0, err, errlen) || (peers && chart_binades(r, 1, err, errlen)) ||
        (peers && chart_hist(r, 1, err, errlen)) || chart_pareto(r, err, errlen) ||
        chart_throughput(r, 0, err, errlen) || chart_throughput(r, 1, err, errlen))
        return -1;
    const char *fam[32];
    int nf = families(r, fam, 32);
    for (int f = 0; f < nf; f++)
        if (chart_errors(r, fam[f], err, errlen)) return -1;
    return 0;
}
