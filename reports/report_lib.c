/* libgelulab in the report (reports/report_int.h): each entry point of include/gelulab.h as a
 * program linked with the library calls it (the benchmark's kinds lib, lib-bwd, lib16, whose
 * isa is the build it dispatched to), against that build of its kernel in the same run, and
 * whether the sweeps found their results bit-identical (the library swept through --lib as
 * lib/NAME, NAME the kernel's name). Written from the result files only. */
#include <string.h>
#include "gelulab/lib_api.h"
#include "gl_algos.h" /* generated: GL_NAME_ID */
#include "report_int.h"

/* the entry point that runs the kernel NAME (gelulab/lib_api.h: gl_ID runs ID), or NULL */
static const char *lib_function(const char *name)
{
#define MAP(algo, what)                                                                            \
    if (!strcmp(name, GL_NAME_##algo)) return "gl_" #algo;
    GL_LIB_FORWARD(MAP) GL_LIB_BACKWARD(MAP) GL_LIB_16(MAP) return NULL;
}

/* the kernel named `name` in sweep s, or NULL */
static const struct gl_kernel_src *in_sweep(const struct gl_sweep *s, const char *name)
{
    for (int i = 0; i < s->nk; i++)
        if (!strcmp(s->k[i].name, name)) return &s->k[i];
    return NULL;
}

/* "yes", "no", or "-" (not both swept) for lib/NAME and the build against sweep s */
static const char *same(const struct gl_sweep *s, const char *lib, const char *build)
{
    const struct gl_kernel_src *a = in_sweep(s, lib), *b = in_sweep(s, build);
    return !a || !b ? "-" : rep_same_bits(s, a, b) ? "yes" : "**no**";
}

void rep_library_md(FILE *f, const struct rep *r)
{
    int any = 0;
    char sz[16];
    gl_bench_size_name(r->pareto_size, sz, sizeof sz);
    for (size_t i = 0; i < r->bench.nrows; i++) {
        const struct gl_bench_row *row = &r->bench.rows[i];
        if (strncmp(row->kind, "lib", 3) || row->n != r->pareto_size) continue;
        const char *algo = row->name + 4, *fn = lib_function(algo); /* lib/NAME */
        if (!fn) continue;
        char build[64];
        snprintf(build, sizeof build, "%s/%s", algo, row->isa);
        double b = rep_eps(r, build, r->pareto_size);
        const struct gl_sweep *s = !strcmp(row->kind, "lib-bwd")                       ? &r->bwd
                                   : !strcmp(row->kind, "lib16") && row->fmt[0] == 'b' ? &r->bf16
                                   : !strcmp(row->kind, "lib16")                       ? &r->f16
                                                                                       : &r->f32;
        if (!any++)
            fprintf(f,
                    "\n## libgelulab: the kernels as a library\n\nEach entry point of "
                    "`include/gelulab.h` as a program linked with libgelulab calls it (run-time "
                    "dispatch included: it runs the build named), against that build called "
                    "directly, in the same benchmark run (median Melem/s at %s elements); and "
                    "whether the sweeps found their results bit-identical on every swept input "
                    "(the library swept through `--lib` as `lib/NAME`).\n\n"
                    "| function | runs | Melem/s | the build, Melem/s | ratio | same bits |\n"
                    "|---|---|---|---|---|---|\n",
                    sz);
        fprintf(f, "| %s | %s | %.0f | %.0f | %.3f | %s |\n", fn, build, row->eps_median * 1e-6,
                b * 1e-6, b > 0 ? row->eps_median / b : 0,
                r->have_bwd || s != &r->bwd ? same(s, row->name, build) : "-");
    }
}
