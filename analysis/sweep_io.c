/* Result files of a sweep (docs/result-format.md): JSON, binade and histogram CSVs; reading them
 * back, merging shards, and the summary table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/metrics.h"
#include "gelulab/sweep.h"
#include "gelulab/json.h"

#define SCHEMA "gelulab-sweep/1"

static const char *kind_name(enum gl_src_kind k)
{
    return k == GL_SRC_BUILTIN ? "builtin"
           : k == GL_SRC_LIB   ? "lib"
           : k == GL_SRC_SERVE ? "serve"
                               : "exec";
}

static void put_u128(FILE *f, gl_u128 v)
{
    char buf[48], *p = buf + sizeof buf - 1;
    *p = '\0';
    do *--p = (char)('0' + (int)(v % 10));
    while (v /= 10);
    fprintf(f, "\"%s\"", p);
}

static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if (*s == '\n') {
            fputs("\\n", f);
            continue;
        }
        fputc(*s, f);
    }
    fputc('"', f);
}

static void put_worst(FILE *f, const struct gl_worst *w)
{
    fputs("{\"ulp\": ", f);
    gl_json_put_double(f, w->ulp);
    fprintf(f, ", \"bits\": \"0x%llx\", \"x\": \"%a\", \"y\": \"%a\", \"ref\": \"%a\"}",
            (unsigned long long)w->xbits, w->x, w->y, w->r);
}

/* zs: with "zero_sign" (0: a sweep read from a file written before it was counted, whose 0s
 * would read as counted) */
static void put_stats(FILE *f, const struct gl_stats *s, int zs)
{
    fprintf(f, "{\"n\": %llu, \"correctly_rounded\": %llu", (unsigned long long)s->n,
            (unsigned long long)s->correctly_rounded);
    if (zs) fprintf(f, ", \"zero_sign\": %llu", (unsigned long long)s->zero_sign);
    fprintf(f, ", \"faithful\": %llu, \"nonfinite\": %llu", (unsigned long long)s->faithful,
            (unsigned long long)s->nonfinite);
    fputs(", \"max_ulp\": ", f), gl_json_put_double(f, s->max_ulp);
    fputs(", \"max_abs\": ", f), gl_json_put_double(f, s->max_abs);
    fputs(", \"max_rel\": ", f), gl_json_put_double(f, s->max_rel);
    fputs(", \"mean_ulp\": ", f), gl_json_put_double(f, gl_stats_mean_ulp(s));
    fputs(", \"sum_ulp_fx\": ", f), put_u128(f, s->sum_ulp_fx);
    fputs(", \"worst\": ", f), put_worst(f, &s->worst);
    fputc('}', f);
}

static const char *const trait_names[GL_TRAITS] = {"zero_lost", "wrong_sign", "phi_above1"};

static void put_traits(FILE *f, const struct gl_traits *t)
{
    static const char *names[GL_SPECIALS] = {"nan", "+inf", "-inf", "+0", "-0"};
    fputc('{', f);
    for (int q = 0; q < GL_TRAITS; q++) {
        fprintf(f, "\"%s\": [%llu", trait_names[q], (unsigned long long)t->n[q]);
        if (t->n[q]) fprintf(f, ", \"%a\", \"%a\"", t->x_lo[q], t->x_hi[q]);
        fputs("], ", f);
    }
    fprintf(f, "\"out_hash\": \"0x%016llx\", \"specials\": {", (unsigned long long)t->out_hash);
    for (int i = 0, first = 1; i < GL_SPECIALS; i++)
        if (t->special_seen >> i & 1) {
            fprintf(f, "%s\"%s\": \"%a\"", first ? "" : ", ", names[i], t->special[i]);
            first = 0;
        }
    fputs("}}", f);
}

static void put_acc(FILE *f, const struct gl_acc *a, int zs)
{
    fputs("{\"traits\": ", f);
    put_traits(f, &a->traits);
    fputs(",\n        \"all\": ", f);
    put_stats(f, &a->all, zs);
    fputs(",\n        \"regions\": {", f);
    for (int r = 0; r < GL_REGIONS; r++) {
        fprintf(f, "%s\"%s\": ", r ? ",\n          " : "", gl_region_names[r]);
        put_stats(f, &a->region[r], zs);
    }
    fputs("},\n        \"nan_x\": ", f);
    put_stats(f, &a->nan_x, zs);
    fputs(",\n        \"hist\": [", f);
    for (int i = 0; i < GL_HIST_BINS; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)a->hist[i]);
    fputs("],\n        \"top\": [", f);
    for (int i = 0; i < a->ntop; i++) {
        fputs(i ? ",\n          " : "", f);
        put_worst(f, &a->top[i]);
    }
    fputs("],\n        \"binades\": [", f);
    int first = 1;
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < GL_BINADES; e++) {
            const struct gl_binade *b = &a->binade[s][e];
            if (!b->n) continue;
            fprintf(f, "%s[%d, %d, ", first ? "" : ", ", s, e);
            gl_json_put_double(f, b->max_ulp);
            fputs(", ", f);
            put_u128(f, b->sum_ulp_fx);
            fprintf(f, ", %llu]", (unsigned long long)b->n);
            first = 0;
        }
    fputs("]}", f);
}

static void put_chunks_done(FILE *f, const struct gl_sweep *s)
{
    fputc('[', f);
    int first = 1;
    for (uint64_t c = 0; c < s->n_chunks;) {
        if (!s->chunk_done[c]) {
            c++;
            continue;
        }
        uint64_t e = c;
        while (e < s->n_chunks && s->chunk_done[e]) e++;
        fprintf(f, "%s[%llu, %llu]", first ? "" : ", ", (unsigned long long)c,
                (unsigned long long)e);
        first = 0;
        c = e;
    }
    fputc(']', f);
}

int gl_sweep_complete(const struct gl_sweep *s)
{
    for (uint64_t c = 0; c < s->n_chunks; c++)
        if (!s->chunk_done[c]) return 0;
    return 1;
}

uint64_t gl_sweep_chunks_done(const struct gl_sweep *s)
{
    uint64_t n = 0;
    for (uint64_t c = 0; c < s->n_chunks; c++) n += s->chunk_done[c];
    return n;
}

/* " K" for every shard K of N (the split of gl_sweep_run) that holds a chunk of [a, b) */
static void shards_of(const struct gl_sweep *s, uint64_t a, uint64_t b, long n, char *buf,
                      size_t len)
{
    for (long k = 1; k <= n; k++) {
        uint64_t lo, hi;
        gl_sweep_shard_chunks(s, k, n, &lo, &hi);
        size_t used = strlen(buf);
        if (lo < b && a < hi && used + 24 < len)
            snprintf(buf + used, len - used, "%s%ld/%ld", strchr(buf, '/') ? ", " : "", k, n);
    }
}

void gl_sweep_missing(const struct gl_sweep *s, long shard_n, char *buf, size_t len)
{
    char shards[400] = "";
    size_t used = 0;
    buf[0] = '\0';
    for (uint64_t c = 0; c < s->n_chunks;) {
        if (s->chunk_done[c]) {
            c++;
            continue;
        }
        uint64_t e = c;
        while (e < s->n_chunks && !s->chunk_done[e]) e++;
        if (used + 64 < len)
            used +=
                (size_t)snprintf(buf + used, len - used, "%schunks [%llu, %llu)", used ? ", " : "",
                                 (unsigned long long)c, (unsigned long long)e);
        if (shard_n > 1) shards_of(s, c, e, shard_n, shards, sizeof shards);
        c = e;
    }
    if (shards[0] && used + 40 < len)
        snprintf(buf + used, len - used, " (rerun --shard %s)", shards);
}

static int write_csvs(const struct gl_sweep *s, const char *path)
{
    char stem[4096], p1[4200], p2[4200];
    snprintf(stem, sizeof stem, "%s", path);
    char *dot = strrchr(stem, '.');
    if (dot && !strcmp(dot, ".json")) *dot = '\0';
    snprintf(p1, sizeof p1, "%s.binades.csv", stem);
    snprintf(p2, sizeof p2, "%s.hist.csv", stem);
    FILE *b = fopen(p1, "w"), *h = fopen(p2, "w");
    if (!b || !h) {
        if (b) fclose(b);
        if (h) fclose(h);
        return -1;
    }
    fprintf(b, "kernel,against,sign,exponent_field,max_ulp,mean_ulp,n\n");
    fprintf(h, "kernel,against,bin,ulp_upper,count\n");
    for (int k = 0; k < s->nk; k++)
        for (int a = 0; a < 2; a++) {
            const struct gl_acc *acc = s->res[k].acc[a];
            const char *ag = a ? "exact" : "own";
            for (int sg = 0; sg < 2; sg++)
                for (int e = 0; e < GL_BINADES; e++) {
                    const struct gl_binade *x = &acc->binade[sg][e];
                    if (x->n)
                        fprintf(b, "%s,%s,%d,%d,%.6g,%.6g,%llu\n", s->k[k].name, ag, sg, e,
                                x->max_ulp, ldexp((double)x->sum_ulp_fx, -24) / (double)x->n,
                                (unsigned long long)x->n);
                }
            for (int i = 0; i < GL_HIST_BINS; i++)
                fprintf(h, "%s,%s,%d,%g,%llu\n", s->k[k].name, ag, i, gl_hist_upper(i),
                        (unsigned long long)acc->hist[i]);
        }
    int bad = ferror(b) || ferror(h);
    bad |= fclose(b) != 0;
    bad |= fclose(h) != 0;
    return bad ? -1 : 0;
}

int gl_sweep_write_json(const struct gl_sweep *s, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    fprintf(f, "{\"schema\": \"%s\",\n \"format\": \"%s\",\n \"mode\": \"%s\",\n", SCHEMA,
            s->fmt.name, gl_sweep_mode_name(s->mode));
    if (s->mode == GL_SWEEP_HUNT)
        fprintf(f, " \"hunt\": {\"per_stratum\": %llu, \"exponents\": [%d, %d]},\n",
                (unsigned long long)s->hunt_per, s->hunt_lo, s->hunt_hi);
    fprintf(f, " \"inputs\": %llu,\n \"chunk_size\": %llu,\n \"chunks\": %llu,\n \"chunks_done\": ",
            (unsigned long long)s->n_inputs, (unsigned long long)s->chunk_size,
            (unsigned long long)s->n_chunks);
    put_chunks_done(f, s);
    if (s->shard_n > 1) fprintf(f, ",\n \"shard\": [%ld, %ld]", s->shard_k, s->shard_n);
    fprintf(f, ",\n \"complete\": %s,\n \"reference\": \"%s\",\n \"kernels\": [",
            gl_sweep_complete(s) ? "true" : "false",
            s->use_fast_ref ? "fast certified path + MPFR fallback" : "MPFR");
    for (int k = 0; k < s->nk; k++) {
        const struct gl_kernel_src *ks = &s->k[k];
        const struct gl_kernel_result *res = &s->res[k];
        fprintf(f, "%s\n  {\"name\": ", k ? "," : "");
        put_json_string(f, ks->name);
        fprintf(f, ", \"defn\": \"%s\", \"source\": \"%s\", \"isa\": \"%s\", \"command\": ",
                gl_defn_name(ks->defn), kind_name(ks->kind),
                ks->impl ? gl_isa_name(ks->impl->isa) : "");
        char command[2400];
        gl_kernel_src_command(ks, command, sizeof command);
        put_json_string(f, command);
        if (ks->kind == GL_SRC_SERVE && ks->serve_lib[0]) { /* the process that serves it */
            fputs(", \"serve_lib\": ", f);
            put_json_string(f, ks->serve_lib);
        }
        if (ks->backward) fputs(", \"abi\": \"backward\"", f);
        if (gl_kernel_abi_is16(ks->abi))
            fprintf(f, ", \"abi\": \"%s\"", gl_kernel_abi_name(ks->abi));
        fprintf(f, ", \"failed\": %s, \"error\": ", res->failed ? "true" : "false");
        put_json_string(f, res->error);
        fprintf(f, ", \"chunks_ok\": %llu,\n   \"own\": ", (unsigned long long)res->chunks_ok);
        put_acc(f, res->acc[0], !s->no_zero_sign);
        fputs(",\n   \"exact\": ", f);
        put_acc(f, res->acc[1], !s->no_zero_sign);
        fputc('}', f);
    }
    fputs("\n ]}\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad) snprintf(err, errlen, "error writing %s", path);
    return bad ? -1 : 0;
}

int gl_sweep_write(const struct gl_sweep *s, const char *path, char *err, size_t errlen)
{
    if (gl_sweep_write_json(s, path, err, errlen) != 0) return -1;
    if (write_csvs(s, path) != 0) {
        snprintf(err, errlen, "error writing the CSV files of %s", path);
        return -1;
    }
    return 0;
}

int gl_sweep_write_times(const struct gl_sweep *s, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    double kernels = 0;
    for (int k = 0; k < s->nk; k++) kernels += s->res[k].run_s + s->res[k].measure_s;
    fprintf(f,
            "# gelulab sweep times (docs/result-format.md, \"Sweep times\"): %s %s, %d threads, "
            "%.1f s of wall clock; seconds of the workers' wall clock, summed over the threads\n"
            "kernel\tstate\trun_s\tmeasure_s\n",
            s->fmt.name, gl_sweep_mode_name(s->mode), s->threads > 0 ? s->threads : 1, s->wall_s);
    for (int k = 0; k < s->nk; k++) {
        const struct gl_kernel_result *r = &s->res[k];
        fprintf(f, "%s\t%s\t%.3f\t%.3f\n", s->k[k].name,
                r->reused   ? "store"
                : r->failed ? "failed"
                            : "swept",
                r->run_s, r->measure_s);
    }
    fprintf(f, "(inputs and references)\tshared\t%.3f\t0\n", s->shared_s);
    double other = s->worker_s - s->shared_s - kernels;
    fprintf(f, "(the rest: chunk set-up, merges, waits)\tshared\t%.3f\t0\n", other > 0 ? other : 0);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad) snprintf(err, errlen, "error writing %s", path);
    return bad ? -1 : 0;
}

/* ---- reading ---- */

static void get_worst(const struct gl_json *j, struct gl_worst *w)
{
    w->ulp = gl_json_num(gl_json_get(j, "ulp"));
    w->xbits = gl_json_u64(gl_json_get(j, "bits"));
    w->x = gl_json_num(gl_json_get(j, "x"));
    w->y = gl_json_num(gl_json_get(j, "y"));
    w->r = gl_json_num(gl_json_get(j, "ref"));
}

static void get_stats(const struct gl_json *j, struct gl_stats *s)
{
    s->n = gl_json_u64(gl_json_get(j, "n"));
    s->correctly_rounded = gl_json_u64(gl_json_get(j, "correctly_rounded"));
    s->zero_sign = gl_json_u64(gl_json_get(j, "zero_sign")); /* 0 in files before it */
    s->faithful = gl_json_u64(gl_json_get(j, "faithful"));
    s->nonfinite = gl_json_u64(gl_json_get(j, "nonfinite"));
    s->max_ulp = gl_json_num(gl_json_get(j, "max_ulp"));
    s->max_abs = gl_json_num(gl_json_get(j, "max_abs"));
    s->max_rel = gl_json_num(gl_json_get(j, "max_rel"));
    s->sum_ulp_fx = gl_json_u128(gl_json_get(j, "sum_ulp_fx"));
    get_worst(gl_json_get(j, "worst"), &s->worst);
}

static void get_traits(const struct gl_json *j, struct gl_traits *t)
{
    static const char *names[GL_SPECIALS] = {"nan", "+inf", "-inf", "+0", "-0"};
    if (!j) return; /* files of earlier versions: no traits */
    for (int q = 0; q < GL_TRAITS; q++) {
        const struct gl_json *v = gl_json_get(j, trait_names[q]);
        if (!v || v->type != GL_JSON_ARR || !v->n) continue;
        t->n[q] = gl_json_u64(&v->items[0]);
        if (t->n[q] && v->n == 3)
            t->x_lo[q] = gl_json_num(&v->items[1]), t->x_hi[q] = gl_json_num(&v->items[2]);
    }
    t->out_hash = gl_json_u64(gl_json_get(j, "out_hash"));
    const struct gl_json *sp = gl_json_get(j, "specials");
    for (int i = 0; i < GL_SPECIALS; i++) {
        const struct gl_json *v = sp ? gl_json_get(sp, names[i]) : NULL;
        if (v) t->special[i] = gl_json_num(v), t->special_seen |= 1u << i;
    }
}

static int get_acc(const struct gl_json *j, struct gl_acc *a)
{
    gl_acc_init(a);
    const struct gl_json *all = gl_json_get(j, "all"), *reg = gl_json_get(j, "regions"),
                         *hist = gl_json_get(j, "hist"), *top = gl_json_get(j, "top"),
                         *bin = gl_json_get(j, "binades");
    if (!all || !reg || !hist || !top || !bin || hist->n != GL_HIST_BINS || top->n > GL_TOPK)
        return -1;
    get_traits(gl_json_get(j, "traits"), &a->traits);
    get_stats(all, &a->all);
    for (int r = 0; r < GL_REGIONS; r++)
        get_stats(gl_json_get(reg, gl_region_names[r]), &a->region[r]);
    get_stats(gl_json_get(j, "nan_x"), &a->nan_x); /* absent from earlier files: none */
    for (int i = 0; i < GL_HIST_BINS; i++) a->hist[i] = gl_json_u64(&hist->items[i]);
    a->ntop = (int)top->n;
    for (size_t i = 0; i < top->n; i++) get_worst(&top->items[i], &a->top[i]);
    for (size_t i = 0; i < bin->n; i++) {
        const struct gl_json *e = &bin->items[i];
        if (e->type != GL_JSON_ARR || e->n != 5) return -1;
        uint64_t sg = gl_json_u64(&e->items[0]), ex = gl_json_u64(&e->items[1]);
        if (sg > 1 || ex >= GL_BINADES) return -1;
        struct gl_binade *b = &a->binade[sg][ex];
        b->max_ulp = gl_json_num(&e->items[2]);
        b->sum_ulp_fx = gl_json_u128(&e->items[3]);
        b->n = gl_json_u64(&e->items[4]);
    }
    return 0;
}

static int read_kernel(const struct gl_json *kj, struct gl_kernel_src *k,
                       struct gl_kernel_result *res)
{
    const struct gl_json *name = gl_json_get(kj, "name"), *defn = gl_json_get(kj, "defn"),
                         *src = gl_json_get(kj, "source"), *own = gl_json_get(kj, "own"),
                         *ex = gl_json_get(kj, "exact"), *cmd = gl_json_get(kj, "command"),
                         *error = gl_json_get(kj, "error");
    if (!name || !defn || !src || !own || !ex || gl_defn_parse(defn->text, &k->defn) != 0)
        return -1;
    snprintf(k->name, sizeof k->name, "%s", name->text);
    snprintf(res->error, sizeof res->error, "%s", error && error->text ? error->text : "");
    k->kind = !strcmp(src->text, "builtin") ? GL_SRC_BUILTIN
              : !strcmp(src->text, "lib")   ? GL_SRC_LIB
              : !strcmp(src->text, "serve") ? GL_SRC_SERVE
                                            : GL_SRC_EXEC;
    if (gl_kernel_src_set_command(k, cmd && cmd->text ? cmd->text : "") != 0) return -1;
    const struct gl_json *serve_lib = gl_json_get(kj, "serve_lib");
    if (k->kind == GL_SRC_SERVE && serve_lib && serve_lib->text)
        snprintf(k->serve_lib, sizeof k->serve_lib, "%s", serve_lib->text);
    k->impl = gl_impl_find(k->name);
    if (k->impl && (k->kind == GL_SRC_BUILTIN || k->kind == GL_SRC_EXEC) &&
        strcmp(k->impl->name, k->name)) /* a file written before the names of 0.2: the name now */
        snprintf(k->name, sizeof k->name, "%s", k->impl->name);
    const struct gl_json *abi = gl_json_get(kj, "abi");
    k->backward = abi && abi->text && !strcmp(abi->text, "backward");
    if (abi && abi->text && !k->backward && gl_kernel_abi_parse(abi->text, &k->abi) != 0)
        k->abi = GL_KERNEL_F32;
    const struct gl_json *failed = gl_json_get(kj, "failed");
    res->failed = failed && failed->text && !strcmp(failed->text, "true");
    res->chunks_ok = gl_json_u64(gl_json_get(kj, "chunks_ok"));
    for (int a = 0; a < 2; a++) res->acc[a] = malloc(sizeof(struct gl_acc));
    return get_acc(own, res->acc[0]) || get_acc(ex, res->acc[1]) ? -1 : 0;
}

/* "hunt": {"per_stratum": M, "exponents": [LO, HI]} */
static int read_hunt(struct gl_sweep *s, const struct gl_json *h)
{
    const struct gl_json *e = h ? gl_json_get(h, "exponents") : NULL;
    if (!e || e->type != GL_JSON_ARR || e->n != 2) return -1;
    s->hunt_per = gl_json_u64(gl_json_get(h, "per_stratum"));
    s->hunt_lo = (int)gl_json_num(&e->items[0]), s->hunt_hi = (int)gl_json_num(&e->items[1]);
    return gl_sweep_hunt_check(s->hunt_per, s->hunt_lo, s->hunt_hi);
}

static int read_doc(struct gl_sweep *s, const struct gl_json *doc, char *err, size_t errlen)
{
    const struct gl_json *schema = gl_json_get(doc, "schema"), *fmt = gl_json_get(doc, "format"),
                         *mode = gl_json_get(doc, "mode"), *done = gl_json_get(doc, "chunks_done"),
                         *ks = gl_json_get(doc, "kernels");
    if (!schema || !schema->text || strcmp(schema->text, SCHEMA) != 0)
        return snprintf(err, errlen, "not a %s result file", SCHEMA), -1;
    if (!fmt || gl_format_parse(fmt->text, &s->fmt) != 0 || !mode || !done || !ks ||
        ks->type != GL_JSON_ARR)
        return snprintf(err, errlen, "missing or bad format, mode, chunks_done or kernels"), -1;
    if (gl_sweep_mode_parse(mode->text, &s->mode) != 0) s->mode = GL_SWEEP_EXHAUSTIVE;
    if (s->mode == GL_SWEEP_HUNT && read_hunt(s, gl_json_get(doc, "hunt")) != 0)
        return snprintf(err, errlen, "a hunt without a valid \"hunt\" object"), -1;
    s->use_fast_ref = 1;
    gl_sweep_layout(s);
    if (gl_json_u64(gl_json_get(doc, "chunks")) != s->n_chunks)
        return snprintf(err, errlen, "chunk count does not match format and mode"), -1;
    s->chunk_done = calloc(s->n_chunks, 1);
    for (size_t i = 0; i < done->n; i++) {
        uint64_t a = gl_json_u64(&done->items[i].items[0]),
                 b = gl_json_u64(&done->items[i].items[1]);
        if (done->items[i].n != 2 || a > b || b > s->n_chunks)
            return snprintf(err, errlen, "bad chunks_done range"), -1;
        memset(s->chunk_done + a, 1, b - a);
    }
    const struct gl_json *shard = gl_json_get(doc, "shard");
    s->shard_k = s->shard_n = 1;
    if (shard && shard->type == GL_JSON_ARR && shard->n == 2)
        s->shard_k = (long)gl_json_u64(&shard->items[0]),
        s->shard_n = (long)gl_json_u64(&shard->items[1]);
    s->nk = (int)ks->n;
    s->k = calloc(ks->n ? ks->n : 1, sizeof *s->k);
    s->res = calloc(ks->n ? ks->n : 1, sizeof *s->res);
    for (size_t i = 0; i < ks->n; i++)
        if (read_kernel(&ks->items[i], &s->k[i], &s->res[i]) != 0)
            return snprintf(err, errlen, "kernel %zu: missing or bad fields", i), -1;
    const struct gl_json *all0 =
        ks->n ? gl_json_get(gl_json_get(&ks->items[0], "own"), "all") : NULL;
    s->no_zero_sign = all0 && !gl_json_get(all0, "zero_sign");
    return 0;
}

int gl_sweep_read(struct gl_sweep *s, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    char *text = gl_json_read_file(path, err, errlen), jerr[200];
    if (!text) return -1;
    struct gl_json *doc = gl_json_parse(text, jerr, sizeof jerr);
    free(text);
    if (!doc) return snprintf(err, errlen, "%s: %s", path, jerr), -1;
    char e2[300];
    int rc = read_doc(s, doc, e2, sizeof e2);
    gl_json_free(doc);
    if (rc) snprintf(err, errlen, "%s: %s", path, e2);
    return rc;
}

int gl_sweep_merge(struct gl_sweep *into, const struct gl_sweep *from, char *err, size_t errlen)
{
    if (strcmp(into->fmt.name, from->fmt.name) || into->mode != from->mode || into->nk != from->nk)
        return snprintf(err, errlen, "different format, mode or kernel list"), -1;
    if (into->mode == GL_SWEEP_HUNT &&
        (into->hunt_per != from->hunt_per || into->hunt_lo != from->hunt_lo ||
         into->hunt_hi != from->hunt_hi))
        return snprintf(err, errlen, "hunts of different --per-stratum or --exponents"), -1;
    if (into->no_zero_sign != from->no_zero_sign)
        return snprintf(err, errlen, "one file predates the zero_sign counts: sweep it again"), -1;
    for (int k = 0; k < into->nk; k++)
        if (strcmp(into->k[k].name, from->k[k].name) || into->k[k].defn != from->k[k].defn ||
            into->k[k].backward != from->k[k].backward || into->k[k].abi != from->k[k].abi)
            return snprintf(err, errlen, "different kernel #%d (%s vs %s)", k, into->k[k].name,
                            from->k[k].name),
                   -1;
    for (uint64_t c = 0; c < into->n_chunks; c++)
        if (into->chunk_done[c] && from->chunk_done[c])
            return snprintf(err, errlen, "both files cover chunk %llu: shards overlap",
                            (unsigned long long)c),
                   -1;
    for (uint64_t c = 0; c < into->n_chunks; c++) into->chunk_done[c] |= from->chunk_done[c];
    for (int k = 0; k < into->nk; k++) {
        struct gl_kernel_result *a = &into->res[k];
        const struct gl_kernel_result *b = &from->res[k];
        gl_acc_merge(a->acc[0], b->acc[0]);
        gl_acc_merge(a->acc[1], b->acc[1]);
        a->chunks_ok += b->chunks_ok;
        if (b->failed && !a->failed) {
            a->failed = 1;
            snprintf(a->error, sizeof a->error, "%s", b->error);
        }
    }
    return 0;
}

static double pct(uint64_t a, uint64_t n)
{
    return n ? 100.0 * (double)a / (double)n : 0;
}

void gl_sweep_print_summary(const struct gl_sweep *s)
{
    printf("%-30s %-10s %11s %11s %11s %11s %10s %7s %9s\n", "kernel", "defn", "ulp[-5,5]",
           "ulp(all)", "ulp/exact", "mean ulp", "max abs", "%CR", "nonfinite");
    for (int k = 0; k < s->nk; k++) {
        const struct gl_kernel_src *ks = &s->k[k];
        const struct gl_acc *a = s->res[k].acc[0];
        printf("%-30s %-10s %11.4g %11.4g %11.4g %11.3g %10.3g %7.3f %9llu%s\n", ks->name,
               gl_defn_name(ks->defn), a->region[GL_REGION_CORE].max_ulp, a->all.max_ulp,
               s->res[k].acc[1]->all.max_ulp, gl_stats_mean_ulp(&a->all), a->all.max_abs,
               pct(a->all.correctly_rounded, a->all.n), (unsigned long long)a->all.nonfinite,
               s->res[k].failed ? "  FAILED" : "");
    }
    for (int k = 0; k < s->nk; k++) {
        const struct gl_kernel_src *ks = &s->k[k];
        const struct gl_acc *a = s->res[k].acc[0];
        const struct gl_stats *root = &a->region[GL_REGION_ROOT];
        if (!ks->backward) continue;
        printf("%s (backward, dy = 1): scaled error (ulps of 1) %.4g on [-5, 5] outside the "
               "root, %.4g near the root (|x - x0| <= 1/32: %.4g ULP), %.4g on all inputs\n",
               ks->name, gl_scaled_ulp(a->region[GL_REGION_CORE].max_abs, &s->fmt),
               gl_scaled_ulp(root->max_abs, &s->fmt), root->max_ulp,
               gl_scaled_ulp(a->all.max_abs, &s->fmt));
    }
}
