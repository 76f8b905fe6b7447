/* The binary64 sweep's local search (analysis/sweep.c): after an unsharded run, each kernel's
 * 10 worst inputs and their 64 nearest binary64 neighbours are measured too and added to its
 * statistics, so that a worst case found by the sampling is followed to its neighbourhood. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/sweep.h"
#include "sweep_int.h"

/* binary64: evaluate 64 neighbours of each kernel's worst inputs (unsharded runs only) */
void gl_sw_local_search(struct gl_sweep *s)
{
    struct chunk_buf b = {0};
    enum { N = GL_TOPK * 64 };
    double *x = malloc(N * sizeof *x), *yr = malloc(N * sizeof *yr), *xd = malloc(N * sizeof *xd),
           *yd = malloc(N * sizeof *yd);
    uint64_t *bits = malloc(N * sizeof *bits);
    struct gl_dd *r = malloc(N * sizeof *r);
    for (int k = 0; k < s->nk; k++) {
        struct gl_kernel_src *ks = &s->k[k];
        if (ks->failed || !ks->acc[0]) continue;
        uint64_t n = 0;
        for (int t = 0; t < ks->acc[0]->ntop; t++) {
            double c = ks->acc[0]->top[t].x;
            for (int j = -32; j <= 32 && isfinite(c); j++) {
                if (j == 0) continue;
                double v = c;
                for (int m = 0; m < abs(j); m++) v = nextafter(v, j < 0 ? -INFINITY : INFINITY);
                x[n] = xd[n] = v;
                memcpy(&bits[n], &v, 8);
                n++;
            }
        }
        b.x = x, b.bits = bits, b.xd = xd, b.yd = yd;
        int bin[N], reg[N], need[GL_DEFN_COUNT] = {0};
        uint64_t runs[N + 1], hashes[N + 1];
        unsigned char special[N + 1];
        double *sc = malloc(N * sizeof *sc), *side = malloc(N * sizeof *side),
               *yy = malloc(N * sizeof *yy);
        b.binade = bin, b.region = reg, b.run_start = runs, b.y = yy;
        b.run_hash = hashes, b.run_special = special;
        for (int d = 0; d < GL_DEFN_COUNT; d++) b.scale[d] = sc, b.side[d] = side;
        enum gl_defn e = gl_defn_exact_of(ks->defn);
        for (int against = 0; against < (ks->defn == e ? 1 : 2); against++) {
            enum gl_defn d = against ? e : ks->defn;
            for (uint64_t i = 0; i < n; i++) gl_sw_reference(s, d, x[i], &yr[i], &r[i]);
            b.yr[d] = yr, b.r[d] = r;
            memset(need, 0, sizeof need);
            need[d] = 1;
            gl_sw_prepare(s, &b, need, n);
            ks->impl->f64(xd, yd, n);
            gl_sw_results(s, &b, n);
            gl_sw_accumulate(s, ks->acc[against], d, &b);
            gl_acc_finish(ks->acc[against]);
        }
        free(sc), free(side), free(yy);
    }
    free(x), free(yr), free(xd), free(yd), free(bits), free(r);
}
