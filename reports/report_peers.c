/* The peers in the report (reports/report_int.h): the peer table as built (IN/peers.tsv, from
 * `gelulab list --peers --tsv`; the 16-bit peers' IN/peers16.tsv, --format bf16 and f16), each
 * peer's diagnoses (IN/validate/NAME.json, from `gelulab
 * validate --probes-only`), and the section "What the frameworks compute", written from those
 * files and the sweeps' statistics and traits only. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strverscmp */
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_int.h"

/* NAME with '/' as '_': the file name of its diagnoses */
static void file_name(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s", name);
    for (char *p = buf; *p; p++)
        if (*p == '/') *p = '_';
}

static void load_validate(const struct rep *r, struct rep_peer *p)
{
    char fn[200], path[1400], err[300], jerr[200];
    file_name(p->name, fn, sizeof fn);
    snprintf(path, sizeof path, "%s/validate/%s.json", r->in, fn);
    FILE *f = fopen(path, "r");
    if (!f) return; /* not diagnosed (it does not run here, or an older data folder) */
    fclose(f);
    char *text = gl_json_read_file(path, err, sizeof err);
    p->validate = text ? gl_json_parse(text, jerr, sizeof jerr) : NULL;
    free(text);
}

/* IN/FILE (a table of gelulab list --peers --tsv) into *peers (at most REP_MAX_PEERS rows),
 * with each peer's diagnoses */
static int load_table(const struct rep *r, const char *file, struct rep_peer **peers, int *npeers,
                      char *err, size_t errlen)
{
    char path[1200], line[1200];
    snprintf(path, sizeof path, "%s/%s", r->in, file);
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* optional: without it, peers are known from the benchmark only */
    *peers = rep_calloc(REP_MAX_PEERS, sizeof **peers);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "name\t", 5)) continue; /* the header */
        if (*npeers == REP_MAX_PEERS) {
            fclose(f);
            return snprintf(err, errlen, "%s: more than %d peers (REP_MAX_PEERS)", path,
                            REP_MAX_PEERS),
                   -1;
        }
        struct rep_peer *p = &(*peers)[*npeers];
        char *field[11], *s = line;
        int n = 0;
        for (; n < 11 && s; n++) {
            field[n] = s;
            s = strchr(s, '\t');
            if (s) *s++ = '\0';
        }
        if ((n != 11 && n != 10 && n != 9 && n != 7) || s) {
            fclose(f);
            return snprintf(err, errlen,
                            "%s: a line without the 11 columns of gelulab list --peers --tsv "
                            "(or the 10 of results before 2026-12-08, the 9 before 2026-12-06, "
                            "the 7 before 2026-12-05)",
                            path),
                   -1;
        }
        int old = n == 7; /* name defn isa library package runs note: no version, no path */
        snprintf(p->name, sizeof p->name, "%s", field[0]);
        snprintf(p->defn, sizeof p->defn, "%s", field[1]);
        snprintf(p->isa, sizeof p->isa, "%s", field[2]);
        snprintf(p->library, sizeof p->library, "%s", field[3]);
        snprintf(p->version, sizeof p->version, "%s", old ? "" : field[4]);
        snprintf(p->package, sizeof p->package, "%s", field[old ? 4 : 5]);
        snprintf(p->path, sizeof p->path, "%s", old ? "-" : field[6]);
        p->runs = !strcmp(field[old ? 5 : 7], "yes");
        snprintf(p->note, sizeof p->note, "%s", field[old ? 6 : 8]);
        snprintf(p->lineage, sizeof p->lineage, "%s", n >= 10 ? field[9] : field[3]);
        snprintf(p->call, sizeof p->call, "%s", n == 11 ? field[10] : "-");
        load_validate(r, p);
        (*npeers)++;
    }
    fclose(f);
    return 0;
}

int rep_peers_load(struct rep *r, char *err, size_t errlen)
{
    return load_table(r, "peers.tsv", &r->peers, &r->npeers, err, errlen) ||
           load_table(r, "peers16.tsv", &r->peers16, &r->npeers16, err, errlen);
}

void rep_peers_free(struct rep *r)
{
    for (int i = 0; i < r->npeers; i++)
        if (r->peers[i].validate) gl_json_free(r->peers[i].validate);
    for (int i = 0; i < r->npeers16; i++)
        if (r->peers16[i].validate) gl_json_free(r->peers16[i].validate);
    free(r->peers), free(r->peers16);
}

const struct rep_peer *rep_peer_find(const struct rep *r, const char *name)
{
    for (int i = 0; i < r->npeers; i++)
        if (!strcmp(r->peers[i].name, name)) return &r->peers[i];
    return NULL;
}

/* "N, x in [a, b]" or "none" */
static void trait_cell(const struct gl_traits *t, int q, char *buf, size_t len)
{
    if (!t->n[q])
        snprintf(buf, len, "none");
    else
        snprintf(buf, len, "%llu, x in [`%a`, `%a`]", (unsigned long long)t->n[q], t->x_lo[q],
                 t->x_hi[q]);
}

/* the result at special input i, bold when not what GELU gives (NaN, +inf, -0, +0, -0); t: the
 * binary32 sweep's traits, t16: the bfloat16 sweep's (NULL: none), which has every special
 * input when a sampled binary32 sweep has not (marked ᵇ) */
static void special_cell(const struct gl_traits *t, const struct gl_traits *t16, int i, char *buf,
                         size_t len)
{
    static const double want[GL_SPECIALS] = {NAN, INFINITY, -0.0, 0.0, -0.0};
    const char *from = "";
    if (!(t->special_seen >> i & 1) && t16 && t16->special_seen >> i & 1) t = t16, from = "ᵇ";
    if (!(t->special_seen >> i & 1)) { /* sampled, and not in a 16-bit sweep (QUICK=1) */
        snprintf(buf, len, "not in the sample");
        return;
    }
    double y = t->special[i];
    char v[48];
    if (isnan(y))
        snprintf(v, sizeof v, "NaN");
    else if (isinf(y))
        snprintf(v, sizeof v, "%s∞", y < 0 ? "−" : "+");
    else if (y == 0)
        snprintf(v, sizeof v, "%s0", signbit(y) ? "−" : "+");
    else
        snprintf(v, sizeof v, "`%a`", y);
    int ok = isnan(want[i]) ? isnan(y) : y == want[i] && signbit(y) == signbit(want[i]);
    snprintf(buf, len, ok ? "%s%s" : "**%s**%s", v, from);
}

/* kernel name's traits in sweep s (own definition), or NULL */
static const struct gl_traits *traits_in(const struct gl_sweep *s, const char *name)
{
    for (int i = 0; i < s->nk; i++)
        if (!strcmp(s->k[i].name, name) && s->res[i].acc[0]) return &s->res[i].acc[0]->traits;
    return NULL;
}

/* the group of kernel i: the first kernel with its results */
static int group(const struct rep *r, int i)
{
    return r->rk[i].same_as >= 0 ? r->rk[i].same_as : i;
}

/* the first peer of kernel i's group (the one whose row it is), or -1 */
static int row_of(const struct rep *r, int i)
{
    for (int j = 0; j < r->nrk; j++)
        if (group(r, j) == group(r, i) && rep_peer_find(r, r->rk[j].k->name)) return j;
    return -1;
}

/* text appended to the cell buf, after sep when buf holds something (truncated at len) */
static void cell_add(char *buf, size_t len, const char *sep, const char *text)
{
    size_t used = strlen(buf);
    if (used < len) snprintf(buf + used, len - used, "%s%s", used ? sep : "", text);
}

/* The cells of row i that speak of its peers, each peer's in the row's order: the names
 * ("a = b", and the kernel whose results they are when that is not a peer: a gelulab or
 * C-library kernel listed above), their libraries ("oneDNN 2.6 / PyTorch 1.13"), their speeds at
 * the Pareto size over the compare peer's ("1.000 / 0.366"; "-": not timed) and the claimed
 * definition (once where they all claim it) */
/* NAME's speed at the Pareto size over the compare peer's (cmp: its elements/s there), with its
 * timing mark ("0.366ᶠ"), or `none` where either was not timed */
static const char *speed_cell(const struct rep *r, const char *name, double cmp, const char *none,
                              char *buf, size_t len)
{
    double x = rep_eps(r, name, r->pareto_size);
    if (x > 0 && cmp > 0)
        snprintf(buf, len, "%.3f%s", x / cmp, rep_timed_mark(r, name));
    else
        snprintf(buf, len, "%s", none);
    return buf;
}

/* why peer table row p has no swept results */
static const char *not_swept_why(const struct rep_peer *p)
{
    return p->runs ? "no sweep" : p->note;
}

struct row_cells {
    char names[600], libs[600], claims[200], speeds[400];
};
static void row_cells(const struct rep *r, int i, double cmp, struct row_cells *c)
{
    c->names[0] = c->libs[0] = c->claims[0] = c->speeds[0] = '\0';
    const char *first = NULL;
    int same = 1;
    for (int j = 0; j < r->nrk; j++) {
        const char *name = r->rk[j].k->name;
        const struct rep_peer *p = rep_peer_find(r, name);
        if (!p || group(r, j) != group(r, i)) continue;
        char lib[100], speed[32];
        snprintf(lib, sizeof lib, "%s %s", p->library, p->version);
        speed_cell(r, name, cmp, "-", speed, sizeof speed);
        cell_add(c->names, sizeof c->names, " = ", name);
        cell_add(c->libs, sizeof c->libs, " / ", lib);
        cell_add(c->speeds, sizeof c->speeds, " / ", speed);
        cell_add(c->claims, sizeof c->claims, " / ", p->defn);
        same &= !first || !strcmp(first, p->defn);
        first = first ? first : p->defn;
    }
    if (same && first) snprintf(c->claims, sizeof c->claims, "%s", first);
    const char *lead = r->rk[group(r, i)].k->name;
    if (!rep_peer_find(r, lead)) {
        char also[200];
        snprintf(also, sizeof also, " (bit-identical to %s)", lead);
        cell_add(c->names, sizeof c->names, "", also);
    }
}

/* the kernel of the swept results named name, or NULL */
static const struct rep_kernel *kernel_of(const struct rep *r, const char *name)
{
    for (int i = 0; i < r->nrk; i++)
        if (!strcmp(r->rk[i].k->name, name)) return &r->rk[i];
    return NULL;
}

/* whether peer table row p names a default call */
static int has_call(const struct rep_peer *p)
{
    return p->call[0] && strcmp(p->call, "-");
}

/* "What a default call gives": each framework version's default call (the peer table's `call`),
 * the peer it reaches and that peer's figures against exact GELU, whatever it claims; the
 * libraries with no call named after it, from the table */
static void md_default_calls(FILE *f, const struct rep *r)
{
    int any = 0;
    for (int j = 0; j < r->npeers; j++) any |= has_call(&r->peers[j]);
    if (!any) return;
    int cmp = r->bench.compare[0] != 0;
    double c = cmp ? rep_eps(r, r->bench.compare, r->pareto_size) : 0;
    char none[600] = ""; /* the libraries (and versions) none of whose peers has a call */
    for (int j = 0; j < r->npeers; j++) {
        const struct rep_peer *p = &r->peers[j];
        int named = 0, seen = 0;
        for (int i = 0; i < r->npeers; i++)
            if (!strcmp(r->peers[i].library, p->library) &&
                !strcmp(r->peers[i].version, p->version))
                named |= has_call(&r->peers[i]), seen |= i < j;
        char lib[100];
        snprintf(lib, sizeof lib, "%s %s", p->library, p->version);
        if (!named && !seen) cell_add(none, sizeof none, ", ", lib);
    }
    fprintf(f,
            "### What a default call gives\n\nWhat a user of each framework gets from its GELU "
            "called with every setting at its default (the peer table's `call`), measured "
            "against exact GELU x Φ(x), whatever the code claims (the claims column: a default "
            "may be an approximation): the max ULP on [−5, 5] over the results that are finite "
            "where the reference is, and the worst input there (a result that is not finite "
            "where the reference is counts as the worst; C hex-floats: x → result, exact GELU "
            "rounded to binary64); the median and 99.9th percentile over all inputs (upper "
            "edges of power-of-two bins; a result that is not finite where the reference is "
            "counts as above 2^39) and the share correctly rounded (NaN inputs aside), binary32 "
            "%s.%s%s%s%s\n\n",
            r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : "quick, sampled",
            none[0] ? " No call: " : "", none,
            none[0] ? " (their callers name the function; every peer, every call, is in the "
                      "table below)."
                    : "",
            cmp ? " " REP_MARKS "." : "");
    fprintf(f, "| framework | the call, every setting at its default | peer | claims | max ULP on "
               "[−5, 5] | ULP, all: median / 99.9 %% | %% CR, all | worst input on [−5, 5] |");
    if (cmp) fprintf(f, " × %s (%zu floats) |", r->bench.compare, r->pareto_size);
    fprintf(f, "\n|---|---|---|---|---|---|---|---|%s\n", cmp ? "---|" : "");
    for (int j = 0; j < r->npeers; j++) {
        const struct rep_peer *p = &r->peers[j];
        if (!has_call(p)) continue;
        const struct rep_kernel *k = kernel_of(r, p->name);
        fprintf(f, "| %s %s | %s | `%s` | %s |", p->library, p->version, p->call, p->name, p->defn);
        if (!k || k->res->failed) {
            fprintf(f, " %s: %s | | | |%s\n", k ? "failed" : "not swept here",
                    k ? k->res->error : not_swept_why(p), cmp ? " |" : "");
            continue;
        }
        const struct gl_acc *e = k->res->acc[1];
        const struct gl_stats *core = &e->region[GL_REGION_CORE];
        const struct gl_worst *w = &core->worst;
        char u[32], typical[64], cr[16], worst[200] = "-", speed[32];
        rep_typical(e, typical, sizeof typical);
        if (core->n && w->ulp >= 0)
            snprintf(worst, sizeof worst, "`%a` → `%a` (`%a`)", w->x, w->y, w->r);
        fprintf(f, " %s | %s | %s | %s |", rep_ulp(rep_core_exact(k), u, sizeof u), typical,
                rep_pct_cr(e->all.correctly_rounded, e->all.n, cr, sizeof cr), worst);
        if (cmp) fprintf(f, " %s |", speed_cell(r, p->name, c, "-", speed, sizeof speed));
        fputc('\n', f);
    }
    fprintf(f, "\n### Every peer\n\n");
}

static void md_peer_table(FILE *f, const struct rep *r)
{
    int cmp = r->bench.compare[0] != 0;
    double dnnl = cmp ? rep_eps(r, r->bench.compare, r->pareto_size) : 0;
    fprintf(
        f,
        "| peers (bit-identical on the sweep's calls: one row) | libraries, each peer's | claims | "
        "own: "
        "core, ULP | mean ULP, own: core | ULP, own: all, median / 99.9 %% | own: all, ULP | "
        "%% CR | exact: core, ULP | "
        "returns ±0 where the "
        "definition is not 0 | sign not x's "
        "| \\|y\\| > \\|x\\| (Φ > 1) | NaN → | +∞ → | −∞ → |");
    if (cmp)
        fprintf(f, " × %s (%zu floats), each peer in the row's order |", r->bench.compare,
                r->pareto_size);
    fprintf(f, "\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n",
            cmp ? "---|" : "");
    for (int i = 0; i < r->nrk; i++) {
        const struct rep_kernel *k = &r->rk[i];
        const struct rep_peer *p = rep_peer_find(r, k->k->name);
        if (!p || row_of(r, i) != i) continue;
        const struct gl_acc *o = k->res->acc[0];
        const struct gl_traits *t = &o->traits;
        struct row_cells rc;
        char c[GL_TRAITS][160], sp[3][80];
        row_cells(r, i, dnnl, &rc);
        for (int q = 0; q < GL_TRAITS; q++) trait_cell(t, q, c[q], sizeof c[q]);
        char typical[64];
        rep_typical(o, typical, sizeof typical);
        for (int s = 0; s < 3; s++)
            special_cell(t, traits_in(&r->bf16, k->k->name), s, sp[s], sizeof sp[s]);
        char u[2][32], cr[16];
        fprintf(f,
                "| %s | %s | %s | %s | %.3g | %s | %s | %s | %.3g | %s | %s | %s | %s | %s | %s |",
                rc.names, rc.libs, rc.claims,
                rep_ulp(o->region[GL_REGION_CORE].max_ulp, u[0], sizeof u[0]),
                gl_stats_mean_ulp(&o->region[GL_REGION_CORE]), typical,
                rep_ulp(o->all.max_ulp, u[1], sizeof u[1]),
                rep_pct_cr(o->all.correctly_rounded, o->all.n, cr, sizeof cr), rep_core_exact(k),
                c[0], c[1], c[2], sp[0], sp[1], sp[2]);
        if (cmp) fprintf(f, " %s |", rc.speeds);
        fputc('\n', f);
    }
}

void rep_peer_diagnoses(FILE *f, const struct rep_peer *p)
{
    const struct gl_json *checks = p->validate ? gl_json_get(p->validate, "checks") : NULL;
    if (!checks) return;
    fprintf(f, "- **%s** (%s %s, claims %s):", p->name, p->library, p->version, p->defn);
    int any = 0;
    for (size_t c = 0; c < checks->n; c++) {
        const char *st = rep_str(gl_json_get(&checks->items[c], "status"));
        if (strcmp(st, "FAIL") && strcmp(st, "WARN")) continue;
        fprintf(f, "%s %s `%s`: %s", any++ ? ";" : "", st,
                rep_str(gl_json_get(&checks->items[c], "name")),
                rep_str(gl_json_get(&checks->items[c], "text")));
    }
    fprintf(f, "%s\n", any ? "." : " every probe passes.");
}

/* each peer's FAIL and WARN diagnoses, in gelulab validate's words */
static void md_peer_diagnoses(FILE *f, const struct rep *r)
{
    fprintf(f, "\nWhat `gelulab validate --probes-only` says of each (its FAIL and WARN lines; "
               "`data/validate/`):\n\n");
    for (int i = 0; i < r->npeers; i++) rep_peer_diagnoses(f, &r->peers[i]);
}

/* peers of one library claiming one definition whose results differ: the call path matters */
static void md_call_paths(FILE *f, const struct rep *r)
{
    int any = 0;
    for (int i = 0; i < r->nrk; i++) {
        const struct rep_peer *a = rep_peer_find(r, r->rk[i].k->name);
        for (int j = i + 1; a && j < r->nrk; j++) {
            const struct rep_peer *b = rep_peer_find(r, r->rk[j].k->name);
            if (!b || strcmp(a->library, b->library) || strcmp(a->version, b->version) ||
                strcmp(a->defn, b->defn))
                continue; /* (two versions: "What changed between versions") */
            if (!any++)
                fprintf(f, "\nOne library, one definition, two calls or builds (results compared "
                           "over every swept input; different results: what a user gets depends "
                           "on how it is called or built):\n\n");
            int same = group(r, i) == group(r, j);
            fprintf(f, "- %s: `%s` and `%s` claim the same definition and give %s.\n", a->library,
                    a->name, b->name, same ? "bit-identical results" : "different results");
        }
    }
}

/* How a library's peers are called and what that does to a call, said once where a peer of
 * that library (or whose package starts with `package`) is in the report: in "What the
 * frameworks compute" and under the library's table of "What changed between versions" (the
 * profiles behind them: docs/design.md, "Peers") */
static const struct {
    const char *library, *package, *note;
} library_notes[] = {
    {"PyTorch", NULL,
     "PyTorch's peers call, from C++, the operator `torch.nn.functional.gelu` dispatches to, "
     "`at::gelu_out`, on a tensor over the caller's arrays (`at::from_blob`), one intra-op "
     "thread, the mkldnn switch set on each call (`bench/peer_torch.cc`): the peer table's "
     "`F.gelu(x)` names the path a Python call takes to the same code; their speeds leave out "
     "Python's own cost per call."},
    {NULL, "PyPI onednn",
     "PyPI's oneDNN is a SYCL build: its CPU engine is a SYCL device, so each call is a command "
     "group handed to the SYCL runtime's thread pool and waited for (`bench/peer_onednn.c`); at "
     "short lengths that hand-off between threads, not oneDNN's JIT code, is most of a call's "
     "time (a `perf` profile: docs/design.md, \"Peers\")."},
};

/* whether peer p is one library_notes[b] speaks of */
static int note_applies(size_t b, const struct rep_peer *p)
{
    return library_notes[b].library
               ? !strcmp(p->library, library_notes[b].library)
               : !strncmp(p->package, library_notes[b].package, strlen(library_notes[b].package));
}

/* the notes of the peers whose lineage is `lineage` (NULL: of every peer), as list items */
static void library_notes_md(FILE *f, const struct rep *r, const char *lineage)
{
    for (size_t b = 0; b < sizeof library_notes / sizeof library_notes[0]; b++)
        for (int j = 0; j < r->npeers; j++)
            if ((!lineage || !strcmp(r->peers[j].lineage, lineage)) &&
                note_applies(b, &r->peers[j])) {
                fprintf(f, "- %s\n", library_notes[b].note);
                break;
            }
}

void rep_peers_md(FILE *f, const struct rep *r)
{
    int n = 0, out = 0, swept = 0;
    for (int i = 0; i < r->npeers; i++) n += r->peers[i].runs;
    for (int i = 0; i < r->nrk; i++) swept += rep_peer_find(r, r->rk[i].k->name) != NULL;
    if (!r->npeers) return;
    fprintf(f, "\n## What the frameworks compute\n\n");
    md_default_calls(f, r);
    fprintf(f,
            "GELU as each framework computes it, called as "
            "its users call it (the peer table, `bench/peers.c`; as built here: "
            "`data/peers.tsv`): %d of its %d peers run on this machine; %d were swept like the "
            "kernels above (binary32 %s). Every cell is read from the result files. A row "
            "holds the peers whose results are bit-identical on the sweep's calls (each call "
            "thousands of elements long, contiguous): other calls can take other paths and give "
            "other bits (PyTorch's calls of one element take ATen's code, its `-aten` peer; "
            "`gelulab validate` checks lengths from 1). Max ULP, over the results that are "
            "finite where the reference is, "
            "against the peer's own definition and against exact GELU, and beside the worst "
            "the typical error, the mean ULP over the core's inputs and the median and 99.9th "
            "percentile over all inputs (as in the summary: the upper edges of power-of-two "
            "bins); the columns after "
            "count the swept inputs where the result is ±0 though the correctly rounded "
            "definition is not (lost to cancellation or underflow), has not the sign of x, or "
            "exceeds |x| in magnitude (Φ(x) = y/x above 1, i.e. erf above 1, or an overflow to ∞), "
            "with the range "
            "of such x; then the results at the special inputs (bold: not what GELU gives; ᵇ: "
            "from the bfloat16 sweep, when the binary32 one is sampled). "
            "Peers served through a pipe are measured for accuracy only (ONNX Runtime 1.30 in "
            "Node) or timed by their own process (the Python frameworks). " REP_MARKS ".\n\n",
            n, r->npeers, swept,
            r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : "quick, sampled");
    md_peer_table(f, r);
    fprintf(f, "\nHow each is called, and what that call runs (the peer table's words, "
               "`data/peers.tsv`):\n\n");
    for (int i = 0; i < r->npeers; i++)
        fprintf(f, "- `%s` (%s %s, %s): %s.\n", r->peers[i].name, r->peers[i].library,
                r->peers[i].version, r->peers[i].package, r->peers[i].path);
    library_notes_md(f, r, NULL);
    md_call_paths(f, r);
    md_peer_diagnoses(f, r);
    for (int i = 0; i < r->npeers; i++) {
        if (r->peers[i].runs) continue;
        if (!out++) fprintf(f, "\nNot measured on this machine:\n\n");
        fprintf(f, "- %s (%s %s, %s): %s.\n", r->peers[i].name, r->peers[i].library,
                r->peers[i].version, r->peers[i].package, r->peers[i].note);
    }
}

/* ---- What changed between versions ---- */

/* peer p's name without its library's short name and version ("torch-1.13-", "eigen-3.4-")
 * and ISA ("/avx512"): what two versions of a lineage share ("gelu", "gelu-tanh") */
static void version_key(const struct rep_peer *p, char *buf, size_t len)
{
    char v[40];
    snprintf(buf, len, "%s", p->name);
    snprintf(v, sizeof v, "-%s", p->version);
    char *at = p->version[0] ? strstr(buf, v) : NULL;
    while (at && at[strlen(v)] && at[strlen(v)] != '-' && at[strlen(v)] != '/')
        at = strstr(at + 1, v); /* "-1.1" is not the version of "torch-1.13-gelu" */
    if (at) {
        const char *rest = at + strlen(v) + (at[strlen(v)] == '-');
        memmove(buf, rest, strlen(rest) + 1);
    }
    char *isa = strchr(buf, '/');
    if (isa) *isa = '\0';
}

/* whether peer a comes before peer b of the same lineage: a library composed under another's
 * name (Eigen 3.4 under TensorFlow's) first, then by version */
static int older(const struct rep_peer *a, const struct rep_peer *b)
{
    int a_own = !strcmp(a->library, a->lineage), b_own = !strcmp(b->library, b->lineage);
    if (a_own != b_own) return b_own;
    return strverscmp(a->version, b->version) < 0;
}

/* two peers of one lineage at different library versions */
static int other_version(const struct rep_peer *a, const struct rep_peer *b)
{
    return !strcmp(a->lineage, b->lineage) &&
           (strcmp(a->library, b->library) || strcmp(a->version, b->version));
}

/* the status of validate's check name for peer p ("PASS", "FAIL", "WARN"; "-": not diagnosed),
 * its text in *text */
static const char *check_of(const struct rep_peer *p, const char *name, const char **text)
{
    const struct gl_json *checks = p->validate ? gl_json_get(p->validate, "checks") : NULL;
    *text = "";
    for (size_t c = 0; checks && c < checks->n; c++)
        if (!strcmp(rep_str(gl_json_get(&checks->items[c], "name")), name)) {
            *text = rep_str(gl_json_get(&checks->items[c], "text"));
            return rep_str(gl_json_get(&checks->items[c], "status"));
        }
    return "-";
}

/* one row of the comparison: the peer's figures, from the result files */
static void version_row(FILE *f, const struct rep *r, const struct rep_peer *p)
{
    const struct rep_kernel *k = kernel_of(r, p->name);
    int own = !strcmp(p->library, p->lineage); /* else its version is another library's */
    if (!k) {
        fprintf(f, "| %s | %s%s%s | not swept here: %s | | | | | | | | | |\n", p->name,
                own ? "" : p->library, own ? "" : " ", p->version, not_swept_why(p));
        return;
    }
    const struct gl_acc *o = k->res->acc[0];
    char tail[200], above[200], sp[3][80];
    trait_cell(&o->traits, GL_TRAIT_ZERO_LOST, tail, sizeof tail);
    trait_cell(&o->traits, GL_TRAIT_PHI_ABOVE1, above, sizeof above);
    for (int s = 0; s < 3; s++)
        special_cell(&o->traits, traits_in(&r->bf16, p->name), s, sp[s], sizeof sp[s]);
    const char *txt, *layout = check_of(p, "layout", &txt);
    char speed[32];
    speed_cell(r, p->name, rep_eps(r, r->bench.compare, r->pareto_size), "not timed", speed,
               sizeof speed);
    char u[2][32], cr[16];
    fprintf(f, "| %s | %s%s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p->name,
            own ? "" : p->library, own ? "" : " ", p->version,
            rep_ulp(o->region[GL_REGION_CORE].max_ulp, u[0], sizeof u[0]),
            rep_ulp(o->all.max_ulp, u[1], sizeof u[1]),
            rep_pct_cr(o->all.correctly_rounded, o->all.n, cr, sizeof cr), tail, above, sp[0],
            sp[1], sp[2],
            !strcmp(layout, "PASS")   ? "none"
            : !strcmp(layout, "FAIL") ? "**depends**"
                                      : "not diagnosed",
            speed);
}

/* what changed from old to new, in words: the checks of validate that one fails and the other
 * passes, and the accuracy */
static void version_words(FILE *f, const struct rep *r, const struct rep_peer *old,
                          const struct rep_peer *nw)
{
    static const char *const checks[] = {"specials", "tail",       "subnormal",
                                         "layout",   "definition", "memory"};
    const struct rep_kernel *ko = kernel_of(r, old->name), *kn = kernel_of(r, nw->name);
    fprintf(f, "- `%s` → `%s`:", old->name, nw->name);
    int any = 0;
    if (ko && kn) {
        double a = ko->res->acc[0]->region[GL_REGION_CORE].max_ulp,
               b = kn->res->acc[0]->region[GL_REGION_CORE].max_ulp;
        int same = rep_same_bits(&r->f32, ko->k, kn->k);
        fprintf(f, " %s", same ? "bit-identical results" : "different results");
        const struct gl_stats *ao = &ko->res->acc[0]->all, *an = &kn->res->acc[0]->all;
        char cr[2][16];
        if (!same)
            fprintf(f,
                    "; max ULP on [-5, 5] %.3g → %.3g (%s by the worst input); %% correctly "
                    "rounded %s → %s",
                    a, b,
                    b < a   ? "more accurate"
                    : b > a ? "less accurate"
                            : "as accurate",
                    rep_pct_cr(ao->correctly_rounded, ao->n, cr[0], sizeof cr[0]),
                    rep_pct_cr(an->correctly_rounded, an->n, cr[1], sizeof cr[1]));
        if (!same && (ao->zero_sign || an->zero_sign)) /* how much of it is the sign of zero */
            fprintf(f, " (%s → %s but for the sign of zero)",
                    rep_pct_cr(ao->correctly_rounded + ao->zero_sign, ao->n, cr[0], sizeof cr[0]),
                    rep_pct_cr(an->correctly_rounded + an->zero_sign, an->n, cr[1], sizeof cr[1]));
        const struct gl_traits *to = &ko->res->acc[0]->traits, *tn = &kn->res->acc[0]->traits;
        char cell[200];
        if (!to->n[GL_TRAIT_PHI_ABOVE1] && tn->n[GL_TRAIT_PHI_ABOVE1]) {
            trait_cell(tn, GL_TRAIT_PHI_ABOVE1, cell, sizeof cell);
            fprintf(f, "; new defect: |y| > |x| (erf above 1, or an overflow to ∞) on %s", cell);
        } else if (to->n[GL_TRAIT_PHI_ABOVE1] && !tn->n[GL_TRAIT_PHI_ABOVE1]) {
            trait_cell(to, GL_TRAIT_PHI_ABOVE1, cell, sizeof cell);
            fprintf(f, "; fixed: |y| > |x| (it was on %s)", cell);
        }
        any++;
    }
    char still[200] = "";
    for (size_t c = 0; c < sizeof checks / sizeof *checks; c++) {
        const char *to, *tn, *so = check_of(old, checks[c], &to),
                             *sn = check_of(nw, checks[c], &tn);
        int bad_o = !strcmp(so, "FAIL") || !strcmp(so, "WARN");
        int bad_n = !strcmp(sn, "FAIL") || !strcmp(sn, "WARN");
        if (bad_o && !strcmp(sn, "PASS"))
            fprintf(f, "%s fixed `%s` (was: %s)", any++ ? ";" : "", checks[c], to);
        else if (bad_n && !strcmp(so, "PASS"))
            fprintf(f, "%s new defect `%s`: %s", any++ ? ";" : "", checks[c], tn);
        else if (bad_o && bad_n && !strcmp(checks[c], "specials") && strcmp(to, tn))
            fprintf(f, "%s `specials` changed: was %s; now %s", any++ ? ";" : "", to, tn);
        else if (bad_o && bad_n)
            snprintf(still + strlen(still), sizeof still - strlen(still), "%s`%s`",
                     still[0] ? ", " : "", checks[c]);
    }
    if (still[0]) fprintf(f, "%s both fail %s", any++ ? ";" : "", still);
    fprintf(f, "%s\n", any ? "." : " neither swept nor diagnosed here.");
}

/* a library's fixed cost per call, in words: the time each of its peers takes for one call of
 * the benchmark's smallest size, and how its peers are called (library_notes) */
static void version_calls(FILE *f, const struct rep *r, const char *lineage)
{
    size_t n0 = r->nsizes ? r->sizes[0] : 0;
    int said = 0;
    for (int j = 0; j < r->npeers; j++) {
        const struct rep_peer *p = &r->peers[j];
        double e = n0 ? rep_eps(r, p->name, n0) : 0;
        if (strcmp(p->lineage, lineage) || !(e > 0)) continue;
        if (!said++)
            fprintf(f, "- One call of %zu floats (%zu ÷ its elements/s at that size) takes:", n0,
                    n0);
        double us = 1e6 * (double)n0 / e;
        fprintf(f, us >= 99.5 ? "%s `%s` %.0f µs%s" : "%s `%s` %.2g µs%s", said > 1 ? "," : "",
                p->name, us, rep_timed_mark(r, p->name));
    }
    if (said) fprintf(f, ".\n");
    said = 0; /* rows of another library, compared because they compute this one's GELU */
    for (int j = 0; j < r->npeers; j++) {
        const struct rep_peer *p = &r->peers[j];
        if (strcmp(p->lineage, lineage) || !strcmp(p->library, lineage)) continue;
        fprintf(f, "%s`%s` (%s %s)", said++ ? ", " : "- ", p->name, p->library, p->version);
    }
    if (said)
        fprintf(f,
                " %s %s %s: %s's GELU as another library computes it (how each is "
                "called: What the frameworks compute).\n",
                said > 1 ? "are not" : "is not a", lineage, said > 1 ? "releases" : "release",
                lineage);
    library_notes_md(f, r, lineage);
}

void rep_versions_md(FILE *f, const struct rep *r)
{
    int libs = 0;
    for (int i = 0; i < r->npeers; i++) {
        const struct rep_peer *a = &r->peers[i];
        int first = 1, versions = 0;
        for (int j = 0; j < i; j++) first &= strcmp(r->peers[j].lineage, a->lineage) != 0;
        if (!first) continue;
        for (int j = i; j < r->npeers; j++) /* another version of a's lineage? */
            versions |= other_version(&r->peers[j], a);
        if (!versions) continue;
        if (!libs++)
            fprintf(
                f,
                "\n## What changed between versions\n\nThe libraries measured at two "
                "versions (`data/peers.tsv`: library, version, package), each peer beside its "
                "namesake at the other version, the same columns for both, every cell read "
                "from the result files: max ULP against the peer's own definition on [-5, 5] "
                "and over all swept inputs (the binary32 forward peers of `data/peers.tsv`), "
                "%% correctly rounded, the tail (inputs where it "
                "returns ±0 though the correctly rounded definition is not 0), where |y| "
                "exceeds |x| (erf above 1, or an overflow to ∞), the results at "
                "NaN, +∞ and −∞ (bold: not what GELU gives), whether results depend on the "
                "call's length or position (`gelulab validate`'s layout check), and the speed "
                "× %s at %zu floats (one run of the benchmark; a library timed in a run of "
                "its own put on its scale by that peer, timed in both). Below each table, what "
                "changed in words: the checks of `gelulab validate` one version fails and the "
                "other passes; then the time one call of the benchmark's smallest size takes, "
                "an upper bound on what a library costs per call whatever its length. " REP_MARKS
                ".\n",
                r->bench.compare_title[0] ? r->bench.compare_title : "the compare peer",
                r->pareto_size);
        fprintf(f,
                "\n### %s\n\n| peer | version | own: core, ULP | own: all, ULP | %% CR | tail "
                "(±0 where not 0) | \\|y\\| > \\|x\\| | NaN → | +∞ → | −∞ → | length dependence | "
                "speed |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|\n",
                a->lineage);
        /* the rows: each key's peers (in order of first appearance), oldest version first */
        char key[160], kj[160];
        int done[REP_MAX_PEERS] = {0}, row[REP_MAX_PEERS];
        for (int j = i; j < r->npeers; j++) {
            if (strcmp(r->peers[j].lineage, a->lineage) || done[j]) continue;
            version_key(&r->peers[j], key, sizeof key);
            int n = 0;
            for (int m = j; m < r->npeers; m++) {
                if (done[m] || strcmp(r->peers[m].lineage, a->lineage)) continue;
                version_key(&r->peers[m], kj, sizeof kj);
                if (strcmp(kj, key)) continue;
                done[m] = 1;
                int at = n++; /* insertion by version, stable */
                while (at > 0 && older(&r->peers[m], &r->peers[row[at - 1]]))
                    row[at] = row[at - 1], at--;
                row[at] = m;
            }
            for (int m = 0; m < n; m++) version_row(f, r, &r->peers[row[m]]);
        }
        fputc('\n', f);
        /* in words: each peer of a version paired with its namesake of another */
        for (int j = i; j < r->npeers; j++) {
            const struct rep_peer *o = &r->peers[j];
            if (strcmp(o->lineage, a->lineage)) continue;
            version_key(o, key, sizeof key);
            for (int m = i; m < r->npeers; m++) {
                const struct rep_peer *nw = &r->peers[m];
                if (!other_version(nw, o)) continue;
                version_key(nw, kj, sizeof kj);
                if (!strcmp(kj, key) && older(o, nw)) version_words(f, r, o, nw);
            }
        }
        version_calls(f, r, a->lineage);
    }
}

static size_t add_library(char *buf, size_t used, size_t len, const char *lib)
{
    const char *p = buf;
    for (size_t l = strlen(lib); (p = strstr(p, lib)); p += l)
        if ((p == buf || p[-1] == ' ') && (p[l] == ',' || p[l] == '\0')) return used;
    if (used + strlen(lib) + 3 < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", lib);
    return used;
}

const char *rep_peer_library(const struct rep *r, const char *name)
{
    const struct rep_peer *p = rep_peer_find(r, name);
    const struct gl_bench_row *b = gl_bench_find(&r->bench, name, r->pareto_size);
    return p ? p->library : b && strcmp(b->lib, "-") ? b->lib : NULL;
}

void rep_peer_libraries_of(const struct rep *r, const int *rk, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *lib = rep_peer_library(r, r->rk[rk[i]].k->name);
        if (lib) used = add_library(buf, used, len, lib);
    }
    if (!used) snprintf(buf, len, "none");
}

void rep_peer_libraries(const struct rep *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (r->npeers) { /* the swept peers */
        int *rk = rep_calloc((size_t)r->nrk, sizeof *rk), n = 0;
        for (int i = 0; i < r->nrk; i++)
            if (!strcmp(r->rk[i].family, "peer")) rk[n++] = i;
        rep_peer_libraries_of(r, rk, n, buf, len);
        free(rk);
        return;
    }
    for (size_t i = 0; i < r->bench.nrows; i++) {
        const struct gl_bench_row *b = &r->bench.rows[i];
        if (strcmp(b->kind, "peer") || !strcmp(b->lib, "-")) continue;
        used = add_library(buf, used, len, b->lib);
    }
    if (!used) snprintf(buf, len, "none");
}
