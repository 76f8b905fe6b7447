/* oneDNN peer (bench/peers.h): eltwise forward inference, gelu_erf and gelu_tanh, on a 1-D
 * f32 tensor of n elements, CPU engine; and eltwise backward (the backward kernel ABI: src x,
 * diff_dst dy, diff_src dx), whose primitive descriptor takes a forward-training one as its
 * hint. One thread: the bench program runs with
 * OMP_NUM_THREADS=1 (gl_bench.cc re-executes itself with it; make report sweeps it so). The
 * primitive for the current size is built by prepare, outside the timed loop (a call with
 * another size builds it first: sweeps call with chunks of any size); the call sets the data
 * handles and executes, as an application calling oneDNN per tensor does. */
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

static void prepare_pass(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n, int backward)
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
    check(dnnl_memory_desc_init_by_tag(&md, 1, dims, dnnl_f32, dnnl_a), "memory desc");
    dnnl_primitive_desc_t pd = eltwise_pd(st, alg, &md, backward);
    check(dnnl_primitive_create(&st->prim, pd), "primitive");
    dnnl_primitive_desc_destroy(pd);
    check(dnnl_memory_create(&st->src, &md, st->engine, DNNL_MEMORY_NONE), "src memory");
    check(dnnl_memory_create(&st->dst, &md, st->engine, DNNL_MEMORY_NONE), "dst memory");
    if (backward)
        check(dnnl_memory_create(&st->diff, &md, st->engine, DNNL_MEMORY_NONE), "diff memory");
    st->n = n;
}

static void prepare(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n)
{
    prepare_pass(st, alg, n, 0);
}

static void run(struct onednn_state *st, dnnl_alg_kind_t alg, const float *x, float *y, size_t n)
{
    if (!n) return;
    prepare(st, alg, n); /* nothing to do when the benchmark prepared this size */
    dnnl_memory_set_data_handle(st->src, (void *)x);
    dnnl_memory_set_data_handle(st->dst, y);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, st->src}, {DNNL_ARG_DST, st->dst}};
    check(dnnl_primitive_execute(st->prim, st->stream, 2, args), "execute");
    dnnl_stream_wait(st->stream);
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
