/* gelulab benchmark cases (bench/cases.h): registry kernels, baselines, peers. The bench
 * program is a harness like cli/: the oneDNN primitive of the current size is kept in this
 * file's static state (bench_onednn.c). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cases.h"
#include "gelulab/impl.h"
#include "peers.h"

#define MAX_CASES 96

static struct gl_bench_case cases[MAX_CASES];
static size_t n_cases;

static void add(const char *name, const char *kind, const char *defn, const char *isa,
                gl_bench_fn fn, const char *skip, void (*prepare)(size_t))
{
    if (n_cases == MAX_CASES) return;
    struct gl_bench_case *c = &cases[n_cases++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind, c->defn = defn, c->isa = isa, c->fn = fn, c->skip = skip, c->prepare = prepare;
}

static void add_registry(void)
{
    for (size_t i = 0; i < gl_impl_count(); i++) {
        const struct gl_impl *k = gl_impl_get(i);
        const char *skip = k->isa == GL_ISA_NEON   ? "NEON: runs only under emulation here"
                           : !gl_impl_available(k) ? "ISA not supported by this CPU"
                                                   : NULL;
        add(k->name, "gelulab", gl_defn_name(k->defn), gl_isa_name(k->isa), skip ? NULL : k->f32,
            skip, NULL);
    }
}

static void add_peers(void)
{
    const char *no_sleef = "SLEEF not found at build time (Debian: libsleef-dev)";
    const char *no_avx512 = "ISA not supported by this CPU";
    int sleef = gl_peer_sleef_built(),
        avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    int avx512 = __builtin_cpu_supports("avx512f");
    add("sleef-erf/avx2", "peer", "exact", "avx2", sleef && avx2 ? gl_peer_sleef_erf_avx2 : NULL,
        !sleef ? no_sleef : "ISA not supported by this CPU", NULL);
    add("sleef-erfc/avx2", "peer", "exact", "avx2", sleef && avx2 ? gl_peer_sleef_erfc_avx2 : NULL,
        !sleef ? no_sleef : "ISA not supported by this CPU", NULL);
    add("sleef-erf/avx512", "peer", "exact", "avx512",
        sleef && avx512 ? gl_peer_sleef_erf_avx512 : NULL, !sleef ? no_sleef : no_avx512, NULL);
    add("sleef-erfc/avx512", "peer", "exact", "avx512",
        sleef && avx512 ? gl_peer_sleef_erfc_avx512 : NULL, !sleef ? no_sleef : no_avx512, NULL);
    const char *no_dnnl =
        gl_peer_onednn_built() ? NULL : "oneDNN not found at build time (libdnnl-dev)";
    add("onednn-gelu_erf", "peer", "exact", "jit", no_dnnl ? NULL : gl_peer_onednn_gelu_erf,
        no_dnnl, no_dnnl ? NULL : gl_peer_onednn_prepare_erf);
    add("onednn-gelu_tanh", "peer", "tanh", "jit", no_dnnl ? NULL : gl_peer_onednn_gelu_tanh,
        no_dnnl, no_dnnl ? NULL : gl_peer_onednn_prepare_tanh);
}

const struct gl_bench_case *gl_bench_cases(size_t *n)
{
    if (!n_cases) {
        add("memcpy", "baseline", "-", "libc", gl_base_memcpy, NULL, NULL);
        add("relu-vec", "baseline", "relu", "auto", gl_base_relu_vec, NULL, NULL);
        add_registry();
        add_peers();
    }
    *n = n_cases;
    return cases;
}

int gl_bench_pin(void)
{
    int cpu = sched_getcpu();
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu < 0) return -1;
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

unsigned long long gl_bench_tsc(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}
