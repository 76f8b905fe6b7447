/* oneDNN peer (gelulab/peers.h): eltwise forward inference, gelu_erf and gelu_tanh, on a 1-D
 * f32 tensor of n elements, CPU engine; and eltwise backward (the backward kernel ABI: src x,
 * diff_dst dy, diff_src dx), whose primitive descriptor takes a forward-training one as its
 * hint. One thread: the bench program runs with
 * OMP_NUM_THREADS=1 (gl_bench.cc re-executes itself with it; make report sweeps it so). The
 * primitive for the current size is built by prepare, outside the timed loop (a call with
 * another size builds it first: sweeps call with chunks of any size); the call sets the data
 * handles and executes, as an application calling oneDNN per tensor does.
 *
 * In 16 bits (the 16-bit kernel ABI), the same forward primitive on bf16 or f16 memory (oneDNN
 * computes in f32 and rounds the result to the memory's type); whether this oneDNN has it on
 * this CPU is asked once, by creating its primitive descriptor (the check says why not).
 *
 * Compiled once per oneDNN: Debian's 2.6 (the module libgelulab-peer-onednn.so) and PyPI's 3.13
 * (the modules libgelulab-peer-onednn3.so and libgelulab-peer-onednn3-avx2.so,
 * bench/CMakeLists.txt). 3.x replaced the operation descriptors with one call per primitive
 * descriptor; the two APIs meet in eltwise_pd and md_1d below. GL_ONEDNN_CAP (the -avx2 module)
 * caps the ISA oneDNN generates code for (dnnl_set_max_cpu_isa, before the first primitive: what
 * ONEDNN_MAX_CPU_ISA=AVX2 does), so that its AVX2 path is a peer of its own on an AVX-512 CPU.
 * PyPI's oneDNN is a SYCL build: its CPU engine is a SYCL device, which the wheels' OpenCL CPU
 * runtime provides; GL_ONEDNN_OCL_ICD names that runtime's library (OCL_ICD_FILENAMES, set
 * before the first engine unless the user set it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <oneapi/dnnl/dnnl.h>
#include "gelulab/peers.h"

#if DNNL_VERSION_MAJOR >= 3
typedef dnnl_memory_desc_t gl_md; /* 3.x: a handle */
#define MD(md) (md)
#else
typedef dnnl_memory_desc_t gl_md; /* 2.x: a struct, passed by address */
#define MD(md) (&(md))
#endif

/* once per process, before the first engine: the ISA cap and the SYCL CPU device's runtime;
 * dnnl_success, or the cap's status (it fails once oneDNN has generated code) */
static dnnl_status_t onednn_setup(void)
{
    static int done;
    static dnnl_status_t s = dnnl_success;
    if (done++) return s;
#ifdef GL_ONEDNN_OCL_ICD
    setenv("OCL_ICD_FILENAMES", GL_ONEDNN_OCL_ICD, 0);
#endif
#ifdef GL_ONEDNN_CAP
    s = dnnl_set_max_cpu_isa(GL_ONEDNN_CAP);
#endif
    return s;
}

/* a 1-D memory descriptor of n elements of type */
static dnnl_status_t md_1d(gl_md *md, size_t n, dnnl_data_type_t type)
{
    dnnl_dims_t dims = {(dnnl_dim_t)n};
#if DNNL_VERSION_MAJOR >= 3
    return dnnl_memory_desc_create_with_tag(md, 1, dims, type, dnnl_a);
#else
    return dnnl_memory_desc_init_by_tag(md, 1, dims, type, dnnl_a);
#endif
}

static void md_free(gl_md md)
{
#if DNNL_VERSION_MAJOR >= 3
    dnnl_memory_desc_destroy(md);
#else
    (void)md;
#endif
}

struct onednn_state { /* harness state (like cli/): one primitive per algorithm and pass */
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_primitive_t prim;
    dnnl_memory_t src, dst, diff; /* backward: src x, dst dy (diff_dst), diff dx (diff_src) */
    size_t n;
};
static struct onednn_state st_erf, st_tanh, st_erf_bwd, st_tanh_bwd;
static struct onednn_state st16[2][2]; /* [f16][tanh]: the 16-bit primitives */

static void check(dnnl_status_t s, const char *what)
{
    if (s != dnnl_success) {
        fprintf(stderr, "gelulab: oneDNN peer: %s failed (status %d)\n", what, (int)s);
        exit(2);
    }
}

/* The eltwise primitive descriptor: forward inference, or backward with a forward-training
 * descriptor as its hint */
static dnnl_status_t eltwise_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t engine,
                                    dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, gl_md *md)
{
#if DNNL_VERSION_MAJOR >= 3
    return dnnl_eltwise_forward_primitive_desc_create(pd, engine, prop, alg, *md, *md, 0.f, 0.f,
                                                      NULL);
#else
    dnnl_eltwise_desc_t d;
    dnnl_status_t s = dnnl_eltwise_forward_desc_init(&d, prop, alg, md, 0.f, 0.f);
    return s != dnnl_success ? s : dnnl_primitive_desc_create(pd, &d, NULL, engine, NULL);
#endif
}

static dnnl_primitive_desc_t eltwise_pd(struct onednn_state *st, dnnl_alg_kind_t alg, gl_md *md,
                                        int backward)
{
    dnnl_primitive_desc_t fpd, pd;
    check(eltwise_fwd_pd(&fpd, st->engine,
                         backward ? dnnl_forward_training : dnnl_forward_inference, alg, md),
          "primitive desc");
    if (!backward) return fpd;
#if DNNL_VERSION_MAJOR >= 3
    check(dnnl_eltwise_backward_primitive_desc_create(&pd, st->engine, alg, *md, *md, *md, 0.f, 0.f,
                                                      fpd, NULL),
          "backward primitive desc");
#else
    dnnl_eltwise_desc_t bd;
    check(dnnl_eltwise_backward_desc_init(&bd, alg, md, md, 0.f, 0.f), "eltwise backward desc");
    check(dnnl_primitive_desc_create(&pd, &bd, NULL, st->engine, fpd), "backward primitive desc");
#endif
    dnnl_primitive_desc_destroy(fpd);
    return pd;
}

static void prepare_typed(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n, int backward,
                          dnnl_data_type_t type)
{
    if (!st->engine) {
        onednn_setup();
        check(dnnl_engine_create(&st->engine, dnnl_cpu, 0), "engine");
        check(dnnl_stream_create(&st->stream, st->engine, dnnl_stream_default_flags), "stream");
    }
    if (st->prim && st->n == n) return;
    if (st->prim) {
        dnnl_primitive_destroy(st->prim);
        dnnl_memory_destroy(st->src), dnnl_memory_destroy(st->dst);
        if (st->diff) dnnl_memory_destroy(st->diff), st->diff = NULL;
    }
    gl_md md;
    check(md_1d(&md, n, type), "memory desc");
    dnnl_primitive_desc_t pd = eltwise_pd(st, alg, &md, backward);
    check(dnnl_primitive_create(&st->prim, pd), "primitive");
    dnnl_primitive_desc_destroy(pd);
    check(dnnl_memory_create(&st->src, MD(md), st->engine, DNNL_MEMORY_NONE), "src memory");
    check(dnnl_memory_create(&st->dst, MD(md), st->engine, DNNL_MEMORY_NONE), "dst memory");
    if (backward)
        check(dnnl_memory_create(&st->diff, MD(md), st->engine, DNNL_MEMORY_NONE), "diff memory");
    md_free(md);
    st->n = n;
}

static void prepare_pass(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n, int backward)
{
    prepare_typed(st, alg, n, backward, dnnl_f32);
}

static void prepare(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n)
{
    prepare_pass(st, alg, n, 0);
}

static void execute(struct onednn_state *st, const void *x, void *y)
{
    dnnl_memory_set_data_handle(st->src, (void *)x);
    dnnl_memory_set_data_handle(st->dst, y);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, st->src}, {DNNL_ARG_DST, st->dst}};
    check(dnnl_primitive_execute(st->prim, st->stream, 2, args), "execute");
    dnnl_stream_wait(st->stream);
}

static void run(struct onednn_state *st, dnnl_alg_kind_t alg, const float *x, float *y, size_t n)
{
    if (!n) return;
    prepare(st, alg, n); /* nothing to do when the benchmark prepared this size */
    execute(st, x, y);
}

static void run16(int f16, int tanh, const uint16_t *x, uint16_t *y, size_t n)
{
    if (!n) return;
    prepare_typed(&st16[f16][tanh], tanh ? dnnl_eltwise_gelu_tanh : dnnl_eltwise_gelu_erf, n, 0,
                  f16 ? dnnl_f16 : dnnl_bf16);
    execute(&st16[f16][tanh], x, y);
}

/* the version the peers' names say */
#ifndef GL_ONEDNN_WANT
#define GL_ONEDNN_WANT "2.6"
#endif

/* NULL when the oneDNN loaded is the version the peers' names say and has a CPU engine here,
 * else why not (once per process) */
const char *gl_peer_onednn_check(void)
{
    static int done;
    static char why[160];
    if (done++) return why[0] ? why : NULL;
    const dnnl_version_t *v = dnnl_version();
    char have[32];
    snprintf(have, sizeof have, "%d.%d", v->major, v->minor);
    dnnl_engine_t engine;
    if (strcmp(have, GL_ONEDNN_WANT))
        snprintf(why, sizeof why, "oneDNN %s found, the peers are named for " GL_ONEDNN_WANT, have);
    else if (onednn_setup() != dnnl_success)
        snprintf(why, sizeof why, "oneDNN %s: its ISA cannot be capped any more in this process",
                 have);
    else if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success)
        snprintf(why, sizeof why,
                 "oneDNN %s: no CPU engine (a SYCL build needs its OpenCL CPU "
                 "runtime)",
                 have);
    else {
        dnnl_engine_destroy(engine);
#ifdef GL_ONEDNN_OCL_ICD /* PyPI's: the path the peer's name says (its ISA, fixed from now on) */
        dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
#ifdef GL_ONEDNN_CAP
        if (isa != GL_ONEDNN_CAP)
#else
        if ((isa & dnnl_cpu_isa_avx512_core) != dnnl_cpu_isa_avx512_core)
#endif
            snprintf(why, sizeof why,
                     "oneDNN %s runs its ISA %#x here, not the one named "
                     "(ONEDNN_MAX_CPU_ISA?)",
                     have, (unsigned)isa);
#endif
    }
    return why[0] ? why : NULL;
}

/* NULL when oneDNN has forward GELU (both forms) on memory of that type here, else why not */
static const char *check16(dnnl_data_type_t type, const char *name)
{
    static char why[2][120];
    char *w = why[type == dnnl_f16];
    dnnl_engine_t engine;
    gl_md md;
    const char *v = gl_peer_onednn_check();
    if (v) return v;
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success)
        return snprintf(w, 120, "oneDNN: no CPU engine"), w;
    md_1d(&md, 64, type);
    for (int t = 0; t < 2 && !w[0]; t++) {
        dnnl_primitive_desc_t pd;
        dnnl_status_t s = eltwise_fwd_pd(&pd, engine, dnnl_forward_inference,
                                         t ? dnnl_eltwise_gelu_tanh : dnnl_eltwise_gelu_erf, &md);
        if (s == dnnl_success)
            dnnl_primitive_desc_destroy(pd);
        else
            snprintf(w, 120, "oneDNN has no %s eltwise GELU on this CPU: %s", name,
                     s == dnnl_unimplemented ? "unimplemented" : "not created");
    }
    md_free(md);
    dnnl_engine_destroy(engine);
    return w[0] ? w : NULL;
}

const char *gl_peer_onednn_check_bf16(void)
{
    static int done;
    static const char *r;
    return done++ ? r : (r = check16(dnnl_bf16, "bf16"));
}
const char *gl_peer_onednn_check_f16(void)
{
    static int done;
    static const char *r;
    return done++ ? r : (r = check16(dnnl_f16, "f16"));
}
void gl_peer_onednn_gelu_erf_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    run16(0, 0, x, y, n);
}
void gl_peer_onednn_gelu_tanh_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    run16(0, 1, x, y, n);
}
void gl_peer_onednn_gelu_erf_f16(const uint16_t *x, uint16_t *y, size_t n)
{
    run16(1, 0, x, y, n);
}
void gl_peer_onednn_gelu_tanh_f16(const uint16_t *x, uint16_t *y, size_t n)
{
    run16(1, 1, x, y, n);
}

static void run_bwd(struct onednn_state *st, dnnl_alg_kind_t alg, const float *x, const float *dy,
                    float *dx, size_t n)
{
    if (!n) return;
    prepare_pass(st, alg, n, 1);
    dnnl_memory_set_data_handle(st->src, (void *)x);
    dnnl_memory_set_data_handle(st->dst, (void *)dy);
    dnnl_memory_set_data_handle(st->diff, dx);
    dnnl_exec_arg_t args[3] = {
        {DNNL_ARG_SRC, st->src}, {DNNL_ARG_DIFF_DST, st->dst}, {DNNL_ARG_DIFF_SRC, st->diff}};
    check(dnnl_primitive_execute(st->prim, st->stream, 3, args), "execute backward");
    dnnl_stream_wait(st->stream);
}

void gl_peer_onednn_prepare_erf_bwd(size_t n)
{
    prepare_pass(&st_erf_bwd, dnnl_eltwise_gelu_erf, n, 1);
}
void gl_peer_onednn_prepare_tanh_bwd(size_t n)
{
    prepare_pass(&st_tanh_bwd, dnnl_eltwise_gelu_tanh, n, 1);
}
void gl_peer_onednn_gelu_erf_bwd(const float *x, const float *dy, float *dx, size_t n)
{
    run_bwd(&st_erf_bwd, dnnl_eltwise_gelu_erf, x, dy, dx, n);
}
void gl_peer_onednn_gelu_tanh_bwd(const float *x, const float *dy, float *dx, size_t n)
{
    run_bwd(&st_tanh_bwd, dnnl_eltwise_gelu_tanh, x, dy, dx, n);
}

void gl_peer_onednn_prepare_erf(size_t n)
{
    prepare(&st_erf, dnnl_eltwise_gelu_erf, n);
}
void gl_peer_onednn_prepare_tanh(size_t n)
{
    prepare(&st_tanh, dnnl_eltwise_gelu_tanh, n);
}
void gl_peer_onednn_gelu_erf(const float *x, float *y, size_t n)
{
    run(&st_erf, dnnl_eltwise_gelu_erf, x, y, n);
}
void gl_peer_onednn_gelu_tanh(const float *x, float *y, size_t n)
{
    run(&st_tanh, dnnl_eltwise_gelu_tanh, x, y, n);
}
