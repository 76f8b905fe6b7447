/* oneDNN peer (bench/peers.h): eltwise forward inference, gelu_erf and gelu_tanh, on a 1-D
 * f32 tensor of n elements, CPU engine. One thread: the bench program runs with
 * OMP_NUM_THREADS=1 (gl_bench.cc re-executes itself with it; make report sweeps it so). The
 * primitive for the current size is built by prepare, outside the timed loop (a call with
 * another size builds it first: sweeps call with chunks of any size); the call sets the data
 * handles and executes, as an application calling oneDNN per tensor does. */
#include <stdio.h>
#include <stdlib.h>
#include <oneapi/dnnl/dnnl.h>
#include "peers.h"

struct onednn_state { /* harness state (like cli/): one primitive per algorithm */
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_primitive_t prim;
    dnnl_memory_t src, dst;
    size_t n;
};
static struct onednn_state st_erf, st_tanh;

static void check(dnnl_status_t s, const char *what)
{
    if (s != dnnl_success) {
        fprintf(stderr, "gelulab: oneDNN peer: %s failed (status %d)\n", what, (int)s);
        exit(2);
    }
}

static void prepare(struct onednn_state *st, dnnl_alg_kind_t alg, size_t n)
{
    if (!st->engine) {
        check(dnnl_engine_create(&st->engine, dnnl_cpu, 0), "engine");
        check(dnnl_stream_create(&st->stream, st->engine, dnnl_stream_default_flags), "stream");
    }
    if (st->prim && st->n == n) return;
    if (st->prim) {
        dnnl_primitive_destroy(st->prim);
        dnnl_memory_destroy(st->src), dnnl_memory_destroy(st->dst);
    }
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {(dnnl_dim_t)n};
    check(dnnl_memory_desc_init_by_tag(&md, 1, dims, dnnl_f32, dnnl_a), "memory desc");
    dnnl_eltwise_desc_t ed;
    check(dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, alg, &md, 0.f, 0.f),
          "eltwise desc");
    dnnl_primitive_desc_t pd;
    check(dnnl_primitive_desc_create(&pd, &ed, NULL, st->engine, NULL), "primitive desc");
    check(dnnl_primitive_create(&st->prim, pd), "primitive");
    dnnl_primitive_desc_destroy(pd);
    check(dnnl_memory_create(&st->src, &md, st->engine, DNNL_MEMORY_NONE), "src memory");
    check(dnnl_memory_create(&st->dst, &md, st->engine, DNNL_MEMORY_NONE), "dst memory");
    st->n = n;
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
