/* gelulab facts — the data behind the report that is not a sweep or a benchmark: reference
 * values for the claims, definition curves, 16-bit format effects, special values and errors
 * on a grid of every built-in kernel, the machine and toolchain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/facts.h"
#include "gelulab/machine.h"

#ifndef GL_BUILD_FLAGS
#define GL_BUILD_FLAGS "unknown"
#endif

static const char facts_help[] =
    "usage: gelulab facts --out DIR [--meta KEY=VALUE ...]\n"
    "\n"
    "Writes DIR/facts.json (claims checked against the reference, bfloat16/binary16 effects,\n"
    "special values of every built-in kernel, machine and toolchain; --meta adds entries to\n"
    "the machine section), DIR/curves.csv (the definitions on [-6, 6]) and DIR/errors.csv\n"
    "(each built-in kernel's largest abs and ULP errors in 800 cells of [-8, 8], 256 inputs\n"
    "each). Input of `gelulab report` (docs/report-format.md).\n";

static void put_str(FILE *f, const char *key, const char *v, int comma)
{
    fprintf(f, "    \"%s\": \"", key);
    for (; *v; v++) {
        if (*v == '"' || *v == '\\') fputc('\\', f);
        if ((unsigned char)*v >= 0x20) fputc(*v, f);
    }
    fprintf(f, "\"%s\n", comma ? "," : "");
}

static void write_machine(FILE *f, int nmeta, char **meta)
{
    char mpfr[64], gmp[64];
    struct gl_machine_cpu cpu;
    struct utsname u;
    uname(&u);
    gl_machine_cpu(&cpu);
    gl_facts_versions(mpfr, gmp, sizeof mpfr);
    fprintf(f, "  \"machine\": {\n");
    put_str(f, "cpu", cpu.model, 1);
    if (strcmp(cpu.id, "unknown")) put_str(f, "cpu_id", cpu.id, 1); /* absent where not said */
    put_str(f, "cpu_flags", cpu.flags, 1);
    fprintf(f, "    \"cores\": %ld,\n", sysconf(_SC_NPROCESSORS_ONLN));
    put_str(f, "os", u.sysname, 1), put_str(f, "kernel", u.release, 1);
    put_str(f, "compiler", "gcc " __VERSION__, 1);
    put_str(f, "build_flags", GL_BUILD_FLAGS, 1);
    put_str(f, "mpfr", mpfr, 1), put_str(f, "gmp", gmp, nmeta > 0);
    for (int i = 0; i < nmeta; i++) {
        char key[64];
        size_t kl = strcspn(meta[i], "=");
        snprintf(key, sizeof key, "%.*s", (int)(kl < 63 ? kl : 63), meta[i]);
        put_str(f, key, meta[i] + kl + 1, i + 1 < nmeta);
    }
    fprintf(f, "  },\n");
}

static void write_claims(FILE *f)
{
    struct gl_facts_claims c;
    gl_facts_claims(&c);
    fprintf(f,
            "  \"claims\": {\"gelu_m1\": %.17g, \"gelu_2\": %.17g, \"phi_1\": %.17g,\n"
            "    \"min_x\": %.17g, \"min_y\": %.17g, \"tanh_m1\": %.17g, \"tanh_2\": %.17g,\n"
            "    \"tanh_diff\": %.17g, \"tanh_diff_x\": %.17g,\n"
            "    \"sigmoid_diff\": %.17g, \"sigmoid_diff_x\": %.17g},\n",
            c.gelu_m1, c.gelu_2, c.phi_1, c.min_x, c.min_y, c.tanh_m1, c.tanh_2, c.tanh_diff,
            c.tanh_diff_x, c.sigmoid_diff, c.sigmoid_diff_x);
    const struct gl_format *fmts[2] = {&gl_format_bf16, &gl_format_f16};
    fprintf(f, "  \"format_changes\": {");
    for (int i = 0; i < 2; i++) {
        fprintf(f, "%s\"%s\": {", i ? ", " : "", fmts[i]->name);
        enum gl_defn d[3] = {GL_DEFN_TANH, GL_DEFN_SIGMOID, GL_DEFN_SILU};
        for (int j = 0; j < 3; j++)
            fprintf(f, "%s\"%s\": %ld", j ? ", " : "", gl_defn_name(d[j]),
                    gl_facts_format_changes(fmts[i], d[j]));
        fputc('}', f);
    }
    fprintf(f, "},\n");
}

static void special_name(float v, char *buf, size_t len)
{
    if (v != v)
        snprintf(buf, len, "nan");
    else if (v == 0)
        snprintf(buf, len, "%s", __builtin_signbit(v) ? "-0" : "0");
    else
        snprintf(buf, len, "%a", (double)v);
}

static void write_kernels(FILE *f, struct gl_sweep *s, FILE *errors)
{
    fprintf(f, "  \"kernels\": [\n");
    fprintf(errors, "kernel,x,max_abs,max_ulp_own,max_ulp_exact\n");
    for (int k = 0; k < s->nk; k++) {
        struct gl_kernel_src *ks = &s->k[k];
        float out[5];
        char v[5][48];
        int ok = gl_facts_specials(ks, out) == 0;
        for (int i = 0; i < 5; i++)
            ok ? special_name(out[i], v[i], sizeof v[i]) : snprintf(v[i], sizeof v[i], "?");
        fprintf(
            f,
            "    {\"name\": \"%s\", \"defn\": \"%s\", \"isa\": \"%s\", \"family\": \"%s\",\n"
            "     \"specials\": [\"%s\", \"%s\", \"%s\", \"%s\", \"%s\"], \"documented\": \"%s\",\n"
            "     \"note\": \"%s\"}%s\n",
            ks->name, gl_defn_name(ks->defn), gl_isa_name(ks->impl->isa), ks->impl->family, v[0],
            v[1], v[2], v[3], v[4], ks->impl->specials, ks->impl->note, k + 1 < s->nk ? "," : "");
        if (ks->kind == GL_SRC_BUILTIN) gl_facts_errors(ks, errors, 8.0, 800, 256);
    }
    fprintf(f, "  ]\n");
}

int gl_cmd_facts(int argc, char **argv)
{
    const char *out = NULL;
    char **meta = calloc((size_t)argc, sizeof *meta);
    int nmeta = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(facts_help, stdout);
            free(meta);
            return 0;
        }
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--meta") && i + 1 < argc && strchr(argv[i + 1], '=')) {
            meta[nmeta++] = argv[++i];
        } else {
            free(meta);
            return gl_cli_error("facts", "unknown or incomplete option '%s' (see --help)", argv[i]);
        }
    }
    if (!out) {
        free(meta);
        return gl_cli_error("facts", "missing --out DIR");
    }
    char path[1200], epath[1200];
    snprintf(path, sizeof path, "%s/curves.csv", out);
    if (gl_facts_write_curves(path) != 0) {
        free(meta);
        return gl_cli_error("facts", "cannot write %s", path);
    }
    struct gl_sweep s;
    memset(&s, 0, sizeof s);
    s.fmt = gl_format_f32;
    for (size_t i = 0; i < gl_impl_count(); i++) /* the forward kernels */
        if (!gl_defn_is_grad(gl_impl_get(i)->defn)) gl_cli_add_builtin(&s, gl_impl_get(i), 1);
    snprintf(path, sizeof path, "%s/facts.json", out);
    snprintf(epath, sizeof epath, "%s/errors.csv", out);
    FILE *f = fopen(path, "w"), *e = fopen(epath, "w");
    if (!f || !e) {
        if (f) fclose(f);
        if (e) fclose(e);
        free(meta), gl_sweep_free(&s);
        return gl_cli_error("facts", "cannot write %s", !f ? path : epath);
    }
    fprintf(f, "{\"schema\": \"gelulab-facts/1\",\n");
    write_machine(f, nmeta, meta);
    write_claims(f);
    write_kernels(f, &s, e);
    fprintf(f, "}\n");
    int bad = fclose(f) | fclose(e);
    free(meta), gl_sweep_free(&s);
    return bad ? gl_cli_error("facts", "cannot write %s", path) : 0;
}
