/* The peers in the report (reports/report_int.h): the peer table as built (IN/peers.tsv, from
 * `gelulab list --peers --tsv`; the 16-bit peers' IN/peers16.tsv, --format bf16 and f16), each
 * peer's diagnoses (IN/validate/NAME.json, from `gelulab
 * validate --probes-only`), and the section "What the frameworks compute", written from those
 * files and the sweeps' statistics and traits only. */
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

/* IN/FILE (a table of gelulab list --peers --tsv) into *peers (at most 64 rows), with each
 * peer's diagnoses */
static int load_table(const struct rep *r, const char *file, struct rep_peer **peers, int *npeers,
                      char *err, size_t errlen)
{
    char path[1200], line[1200];
    snprintf(path, sizeof path, "%s/%s", r->in, file);
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* optional: without it, peers are known from the benchmark only */
    *peers = calloc(64, sizeof **peers);
    while (fgets(line, sizeof line, f) && *npeers < 64) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "name\t", 5)) continue; /* the header */
        struct rep_peer *p = &(*peers)[*npeers];
        char *field[7], *s = line;
        int n = 0;
        for (; n < 7 && s; n++) {
            field[n] = s;
            s = strchr(s, '\t');
            if (s) *s++ = '\0';
        }
        if (n != 7) {
            fclose(f);
            return snprintf(err, errlen,
                            "%s: a line without the 7 columns of gelulab list "
                            "--peers --tsv",
                            path),
                   -1;
        }
        snprintf(p->name, sizeof p->name, "%s", field[0]);
        snprintf(p->defn, sizeof p->defn, "%s", field[1]);
        snprintf(p->isa, sizeof p->isa, "%s", field[2]);
        snprintf(p->library, sizeof p->library, "%s", field[3]);
        snprintf(p->package, sizeof p->package, "%s", field[4]);
        p->runs = !strcmp(field[5], "yes");
        snprintf(p->note, sizeof p->note, "%s", field[6]);
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
    if (!(t->special_seen >> i & 1)) {
        snprintf(buf, len, "not swept");
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
        if (!strcmp(s->k[i].name, name) && s->k[i].acc[0]) return &s->k[i].acc[0]->traits;
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

/* The names on row i: the peers of its group; and the kernel whose results they are, when that
 * is not a peer (a gelulab or C-library kernel listed above) */
static void row_names(const struct rep *r, int i, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < r->nrk && used < len; j++)
        if (group(r, j) == group(r, i) && rep_peer_find(r, r->rk[j].k->name))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " = " : "",
                                     r->rk[j].k->name);
    if (used < len && !rep_peer_find(r, r->rk[group(r, i)].k->name))
        snprintf(buf + used, len - used, " (bit-identical to %s)", r->rk[group(r, i)].k->name);
}

static void md_peer_table(FILE *f, const struct rep *r)
{
    int cmp = r->bench.compare[0] != 0;
    double dnnl = cmp ? rep_eps(r, r->bench.compare, r->pareto_size) : 0;
    fprintf(f, "| peers (bit-identical ones share a row) | library | claims | own: core | own: all "
               "| %% CR | exact: core | returns ±0 where the definition is not 0 | sign not x's "
               "| \\|y\\| > \\|x\\| (Φ > 1) | NaN → | +∞ → | −∞ → |");
    if (cmp) fprintf(f, " × %s (%zu floats) |", r->bench.compare_title, r->pareto_size);
    fprintf(f, "\n|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n", cmp ? "---|" : "");
    for (int i = 0; i < r->nrk; i++) {
        const struct rep_kernel *k = &r->rk[i];
        const struct rep_peer *p = rep_peer_find(r, k->k->name);
        if (!p || row_of(r, i) != i) continue;
        const struct gl_acc *o = k->k->acc[0];
        const struct gl_traits *t = &o->traits;
        char names[600], c[GL_TRAITS][160], sp[3][80];
        row_names(r, i, names, sizeof names);
        for (int q = 0; q < GL_TRAITS; q++) trait_cell(t, q, c[q], sizeof c[q]);
        for (int s = 0; s < 3; s++)
            special_cell(t, traits_in(&r->bf16, k->k->name), s, sp[s], sizeof sp[s]);
        fprintf(f, "| %s | %s | %s | %.3g | %.3g | %.2f | %.3g | %s | %s | %s | %s | %s | %s |",
                names, p->library, p->defn, o->region[GL_REGION_CORE].max_ulp, o->all.max_ulp,
                o->all.n ? 100.0 * (double)o->all.correctly_rounded / (double)o->all.n : 0,
                rep_core_exact(k), c[0], c[1], c[2], sp[0], sp[1], sp[2]);
        double x = rep_eps(r, k->k->name, r->pareto_size);
        if (cmp) x > 0 && dnnl > 0 ? fprintf(f, " %.3f |", x / dnnl) : fprintf(f, " - |");
        fputc('\n', f);
    }
}

void rep_peer_diagnoses(FILE *f, const struct rep_peer *p)
{
    const struct gl_json *checks = p->validate ? gl_json_get(p->validate, "checks") : NULL;
    if (!checks) return;
    fprintf(f, "- **%s** (%s, claims %s):", p->name, p->library, p->defn);
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
            if (!b || strcmp(a->library, b->library) || strcmp(a->defn, b->defn)) continue;
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

void rep_peers_md(FILE *f, const struct rep *r)
{
    int n = 0, out = 0, swept = 0;
    for (int i = 0; i < r->npeers; i++) n += r->peers[i].runs;
    for (int i = 0; i < r->nrk; i++) swept += rep_peer_find(r, r->rk[i].k->name) != NULL;
    if (!r->npeers) return;
    fprintf(f,
            "\n## What the frameworks compute\n\nGELU as each framework computes it, called as "
            "its users call it (the peer table, `bench/peers.c`; as built here: "
            "`data/peers.tsv`): %d of its %d peers run on this machine; %d were swept like the "
            "kernels above (binary32 %s). Every cell is read from the result files. Max ULP "
            "against the peer's own definition and against exact GELU; the columns after "
            "count the swept inputs where the result is ±0 though the correctly rounded "
            "definition is not (lost to cancellation or underflow), has not the sign of x, or "
            "exceeds |x| in magnitude (Φ(x) = y/x above 1, i.e. erf above 1), with the range "
            "of such x; then the results at the special inputs (bold: not what GELU gives; ᵇ: "
            "from the bfloat16 sweep, when the binary32 one is sampled). "
            "Peers served through a pipe (ONNX Runtime in Node) are measured for accuracy "
            "only.\n\n",
            n, r->npeers, swept,
            r->f32.mode == GL_SWEEP_EXHAUSTIVE ? "exhaustive" : "quick, sampled");
    md_peer_table(f, r);
    md_call_paths(f, r);
    md_peer_diagnoses(f, r);
    for (int i = 0; i < r->npeers; i++) {
        if (r->peers[i].runs) continue;
        if (!out++) fprintf(f, "\nNot measured on this machine:\n\n");
        fprintf(f, "- %s (%s): %s.\n", r->peers[i].name, r->peers[i].library, r->peers[i].note);
    }
}
