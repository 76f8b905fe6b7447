/* oneDNN peer (bench/peers.h): eltwise forward inference, gelu_erf and gelu_tanh, on a 1-D
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
 * this CPU is asked once, by creating its primitive descriptor (the check says why not). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <oneapi/dnnl/dnnl.h>
#include "peers.h"

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
static dnnl_primitive_desc_t eltwise_pd(struct onednn_state *st, dnnl_alg_kind_t alg,
                                        const dnnl_memory_desc_t *md, int backward)
{
    dnnl_eltwise_desc_t fd, bd;
    dnnl_primitive_desc_t fpd, pd;
    check(dnnl_eltwise_forward_desc_init(
              &fd, backward ? dnnl_forward_training : dnnl_forward_inference, alg, md, 0.f, 0.f),
          "eltwise desc");
    check(dnnl_primitive_desc_create(&fpd, &fd, NULL, st->engine, NULL), "primitive desc");
    if (!backward) return fpd;
    check(dnnl_eltwise_backward_desc_init(&bd, alg, md, md, 0.f, 0.f), "eltwise backward desc");
    check(dnnl_primitive_desc_create(&pd, &bd, NULL, st->engine, fpd), "backward primitive desc");
    dnnl_primitive_desc_destroy(fpd);
    return pd;
}

static void prepare_typed(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n, int backward,
                          dnnl_data_type_t type)
{
    if (!st->engine) {
        check(dnnl_engine_create(&st->engine, dnnl_cpu, 0), "engine");
        check(dnnl_stream_create(&st->stream, st->engine, dnnl_stream_default_flags), "stream");
    }
    if (st->prim && st->n == n) return;
    if (st->prim) {
        dnnl_primitive_destroy(st->prim);
        dnnl_memory_destroy(st->src), dnnl_memory_destroy(st->dst);
        if (st->diff) dnnl_memory_destroy(st->diff), st->diff = NULL;
    }
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {(dnnl_dim_t)n};
    check(dnnl_memory_desc_init_by_tag(&md, 1, dims, type, dnnl_a), "memory desc");
    dnnl_primitive_desc_t pd = eltwise_pd(st, alg, &md, backward);
    check(dnnl_primitive_create(&st->prim, pd), "primitive");
    dnnl_primitive_desc_destroy(pd);
    check(dnnl_memory_create(&st->src, &md, st->engine, DNNL_MEMORY_NONE), "src memory");
    check(dnnl_memory_create(&st->dst, &md, st->engine, DNNL_MEMORY_NONE), "dst memory");
    if (backward)
        check(dnnl_memory_create(&st->diff, &md, st->engine, DNNL_MEMORY_NONE), "diff memory");
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

/* NULL when oneDNN has forward GELU (both forms) on memory of that type here, else why not */
static const char *check16(dnnl_data_type_t type, const char *name)
{
    static char why[2][120];
    char *w = why[type == dnnl_f16];
    dnnl_engine_t engine;
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {64};
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success)
        return snprintf(w, 120, "oneDNN: no CPU engine"), w;
    dnnl_memory_desc_init_by_tag(&md, 1, dims, type, dnnl_a);
    for (int t = 0; t < 2 && !w[0]; t++) {
        dnnl_eltwise_desc_t d;
        dnnl_primitive_desc_t pd;
        dnnl_eltwise_forward_desc_init(&d, dnnl_forward_inference,
                                       t ? dnnl_eltwise_gelu_tanh : dnnl_eltwise_gelu_erf, &md, 0.f,
                                       0.f);
        dnnl_status_t s = dnnl_primitive_desc_create(&pd, &d, NULL, engine, NULL);
        if (s == dnnl_success)
            dnnl_primitive_desc_destroy(pd);
        else
            snprintf(w, 120, "oneDNN has no %s eltwise GELU on this CPU: %s", name,
                     s == dnnl_unimplemented ? "unimplemented" : "not created");
    }
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
