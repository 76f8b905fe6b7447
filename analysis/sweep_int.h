/* The sweep engine's internals shared by sweep.c (chunks and threads), sweep_block.c (a block's
 * references, results and statistics), sweep_search.c (the binary64 searches) and sweep_space.c:
 * a block of inputs with its references, and the steps that measure a kernel on it. */
#ifndef GL_ANALYSIS_SWEEP_INT_H
#define GL_ANALYSIS_SWEEP_INT_H
#include <stdint.h>
#include "gelulab/sweep.h"

/* A kernel's part in a chunk. The ISA builds of one algorithm are twins: the first (the lead)
 * gathers its chunk statistics apart and hands them to every twin whose results were
 * bit-identical on the whole chunk (a follower); a follower that differs anywhere is measured
 * on its own in a second pass over the chunk. An external kernel (its results on the whole
 * chunk known before the passes) follows the first earlier external kernel of its definition
 * with the same results on the chunk, if any. */
enum role { DIRECT, LEAD, FOLLOW, DIVERGED, NOT_RUN, DONE };

/* The statistics against definition d of results not correctly rounded on a run of the block,
 * kept for the kernels after the first that give the same results there (the same wrong value
 * in a tail, such as +0 for -0, from several kernels): computed once per block. */
#define GL_SW_MEMO_MAX 128
struct run_memo {
    uint64_t hash, run;
    enum gl_defn d;
    const void *raw; /* the results as the kernel returned them (its block buffer) */
    struct gl_block_stats bs;
    struct gl_traits defects; /* zero lost, wrong sign, Phi above 1 (no hash, no specials) */
};

struct gl_guard;
struct chunk_buf {
    struct gl_guard *guard; /* per built-in kernel: its arrays against guard pages (guard.h),
                             * where its results on the block stay (b->out) until its next call */
    /* the chunk (external kernels) */
    double *cx;
    uint64_t *cbits;
    float *cxf;
    float *dy1;             /* a chunk of ones: dy of backward kernels (dx = f'(x)) */
    float **ext_out;        /* per external kernel: its results on the chunk */
    struct gl_child *child; /* per library kernel: its worker process (pid -1: none yet) */
    /* the block */
    double *x, *yr[GL_DEFN_COUNT];
    uint64_t *bits;
    struct gl_dd *r[GL_DEFN_COUNT];
    float *xf, *yf;
    double *xd, *yd;
    uint16_t *xh;   /* a 16-bit kernel's inputs */
    void **out;     /* per kernel: its results on the block (in its guarded array, or in
                     * ext_out for an external kernel, else in out_own) */
    void **out_own; /* per kernel: a block's room for results converted (16-bit kernels) */
    /* per input, shared by all kernels: binade and region of x, 1/ulp of each reference and
     * where it lies from its rounding */
    int *binade, *region;
    double *scale[GL_DEFN_COUNT], *side[GL_DEFN_COUNT];
    /* runs of inputs with the same binade and region: run_start[0..nruns], last = n; whether a
     * run holds a special input (NaN, +-inf, +-0); the hash of the kernel's results on it */
    uint64_t *run_start, nruns, *run_hash;
    unsigned char *run_special;
    /* per definition and run: the statistics of a correctly rounded kernel (y = yr) on the run,
     * computed when a first kernel is correctly rounded on the whole run (cr_done), added for
     * every such kernel; NULL (local search): not kept */
    struct gl_block_stats *cr[GL_DEFN_COUNT];
    unsigned char *cr_done[GL_DEFN_COUNT];
    int *cr_slot; /* per run: its index in cr[d] and cr_done[d], -1 when too short to check */
    double *y;    /* the kernel's results as doubles, rounded to the format */
    /* the block's memo of results seen on a run (NULL: none); reset by each block */
    struct run_memo *memo;
    int nmemo;
    struct gl_acc **cacc; /* [kernel * 2 + against]: a lead's chunk statistics */
    enum role *role;
    int *lead;                  /* per kernel: the kernel whose chunk statistics it takes */
    unsigned char *lead_of_any; /* per kernel: some kernel takes its chunk statistics */
};

/* Runs this long or longer are checked for being correctly rounded as a whole. */
#define CR_RUN_MIN 32

/* a kernel run out of process (a library's worker, a served or an external evaluator) */
static inline int gl_sw_is_external(const struct gl_kernel_src *k)
{
    return k->kind != GL_SRC_BUILTIN;
}

/* sweep_block.c: */
/* the inputs as the kernels get them, xf[0..n): from their bits in the 16-bit formats (NaN
 * payloads, signaling ones too, bit for bit), x rounded to binary32 otherwise */
void gl_sw_inputs_f32(const struct gl_sweep *s, const uint64_t *bits, const double *x, float *xf,
                      uint64_t n);
/* kernel k's results on the block at offset off of the chunk, in b->out[k] (and b->yf/b->yd) */
void gl_sw_block_results(struct gl_sweep *s, struct chunk_buf *b, int k, uint64_t off, uint64_t n);
/* the reference of definition d at x: rounded (yr) and unrounded (r) */
void gl_sw_reference(const struct gl_sweep *s, enum gl_defn d, double x, double *yr,
                     struct gl_dd *r);
/* the same at x[0..n): yr[i], r[i] (gl_ref_f32_n where the fast path serves the format) */
void gl_sw_references(const struct gl_sweep *s, enum gl_defn d, const double *x, uint64_t n,
                      double *yr, struct gl_dd *r);
/* per input of the block: binade, region, 1/ulp and side of each needed definition; the runs */
void gl_sw_prepare(struct gl_sweep *s, struct chunk_buf *b, const int *need, uint64_t n);
/* the kernel's results (b->yf or b->yd) as doubles rounded to the format, into b->y, and the
 * hash of each run with them (b->run_hash) */
void gl_sw_results(const struct gl_sweep *s, struct chunk_buf *b, uint64_t n);
/* b->y against definition d into a */
void gl_sw_accumulate(struct gl_sweep *s, struct gl_acc *a, enum gl_defn d, struct chunk_buf *b);
/* sweep_space.c: the splitmix64 finaliser: hashed mantissas, the hunt's offsets */
uint64_t gl_sw_mix(uint64_t h);
/* binary64: the search from each kernel's worst input of chunk c of n inputs (one block), the
 * local search or the hunt's climb (sweep_search.c), into the worker's statistics acc */
void gl_sw_search_chunk(struct gl_sweep *s, struct chunk_buf *b, struct gl_acc **acc, uint64_t c,
                        uint64_t n);

#endif
