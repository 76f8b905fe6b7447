/* Building blocks shared by several algorithms of the generic vector kernels (algo/NAME.h), over
 * the lane model (lanes.h): exp in binary32 and binary64, x sigma(s) in binary32 and binary64,
 * x Phi(x) in binary64 (the method of gelu-accurate, algo/gelu_accurate.h, also gelu-cr's fast
 * path) and the polynomial-Phi family. Constants are hex floats; polynomials come from
 * impls/coeffs.h (impls/coeffs.sollya, make coeffs). */
#include "../coeffs.h"
#include "pieces.h"

/* exp(a): a = n ln2 + r, |r| <= ln2/2 (Cody-Waite, two constants, fma), e^r by the degree-6
 * fit GL_EXP (relative error 3.7e-9), times 2^n in two halves (so that results down to the
 * subnormals are reached without overflowing an exponent). a < -104: 0 (e^a < 2^-150);
 * a > 88.72: inf. Lanes outside [-104, 88.8] (and NaN) compute e^0 and are replaced at the end:
 * no subnormal intermediate where the result is a constant (subnormals cost a microcode assist
 * on many x86 cores; the results are the same). */
#define GL_LOG2E  0x1.715476p+0f /* RN(1/ln2) */
#define GL_LN2_HI 0x1.62e43p-1f  /* ln2 = GL_LN2_HI - GL_LN2_LO + 8.8e-17; HI has 21 bits */
#define GL_LN2_LO 0x1.05c61p-29f
static inline V vexp(V a)
{
    V ac = vsel(GL_MASK((a >= -104.0f) & (a <= 88.8f)), a, vdup(0.0f));
    V n = vround(ac * GL_LOG2E);
    V r = vfma(n, vdup(-GL_LN2_HI), ac);
    r = vfma(n, vdup(GL_LN2_LO), r);
    V p = vpoly(r, gl_EXP, GL_EXP_DEGREE);
    VI ni = GL_CVT(n, VI);
    VI n1 = ni >> 1, n2 = ni - n1;
    V s1 = vfloat((n1 + 127) << 23), s2 = vfloat((n2 + 127) << 23);
    V e = p * s1 * s2;
    e = vsel(GL_MASK(a < -104.0f), vdup(0.0f), e);
    return vsel(GL_MASK(a > 88.72f), vdup(__builtin_inff()), e);
}

/* x * sigma(s) = x / (1 + e^-s) for s >= 0, x e^s / (1 + e^s) for s < 0 (no overflow, no
 * cancellation); s has x's sign. s < -104: -0. */
static inline V x_sigma(V x, V s)
{
    V e = vexp(-vabs(s));
    V num = vsel(GL_MASK(s >= 0.0f), x, x * e);
    V y = num / (1.0f + e);
    return vsel(GL_MASK(s < -104.0f), vdup(-0.0f), y);
}

/* e^(-t^2/2) = 2^n (1 + q) for binary32 t >= 0 (gelu-fast's method; algo/gelu_fast.h derives its
 * error): t^2 = h + l exactly (*h gets h); n = round(-h/(2 ln2)) by the 1.5 2^23 shift, *kd =
 * n + 1.5 2^23 (its low bits hold n); s = 2r = (-h - 2n ln2hi) + (-l + 2n ln2lo), q = e^r - 1 =
 * s Q(s/2)/2 (Horner in s with GL_EXP[i] 2^-i: each step is 2^-k times the step in r, so the
 * same roundings). Returns q. */
static inline V exp_half_sq(V t, V *h, V *kd)
{
    V hh = t * t, l = vfma(t, t, -hh);
    V k = vfma(hh, vdup(-0.5f * GL_LOG2E), vdup(0x1.8p23f)), n = k - 0x1.8p23f;
    V s = vfma(n, vdup(-2 * GL_LN2_HI), -hh) + vfma(n, vdup(2 * GL_LN2_LO), -l);
    V e = vdup(gl_EXP[GL_EXP_DEGREE] / (float)(1 << GL_EXP_DEGREE));
#pragma GCC unroll 32
    for (int i = GL_EXP_DEGREE - 1; i >= 1; i--) e = vfma(e, s, vdup(gl_EXP[i] / (float)(1 << i)));
    *h = hh, *kd = k;
    return s * e;
}

/* R(t) = erfc(t/sqrt2) e^(t^2/2)/2 for 0 <= t <= GL_FAST_T by gelu-fast's 8 pieces (GL_FAST):
 * j = round(t k) in the low bits of a shifted sum, u = t - a_j exact, Horner per piece */
static inline V fast_R(V t)
{
    VI j = vbits(vfma(t, vdup(GL_FAST_K), vdup(0x1.8p23f)));
    V u = t - vlut8(gl_FAST_A, j);
    V R = vlut8(gl_FAST_C[GL_FAST_DEGREE], j);
#pragma GCC unroll 32
    for (int i = GL_FAST_DEGREE - 1; i >= 0; i--) R = vfma(R, u, vlut8(gl_FAST_C[i], j));
    return R;
}

/* c[k] = column k of piece j (j & 31) of the list GL_PIECES_name (vec/pieces.h): one vlut32
 * per column, or on ISAs that load a piece's row (GL_ISA_ROWS8: AVX2) piece j's row of
 * gl_ROWS_name (gl_avx2_tables.h, generated from the same columns: the same values) */
#ifdef GL_ISA_ROWS8
#define vpiece(name, j, c) vrows8(gl_ROWS_##name, j, c)
#else
#define GL_PIECE_LUT(tab) c_[k_++] = vlut32(tab, j_);
#define vpiece(name, j, c)                                                                         \
    do {                                                                                           \
        V *c_ = (c);                                                                               \
        VI j_ = (j);                                                                               \
        int k_ = 0;                                                                                \
        GL_PIECES_##name(GL_PIECE_LUT)                                                             \
    } while (0)
#endif

/* Horner with per-lane coefficients c[0] u^degree + ... + c[degree] */
static inline V vhorner(V u, const V *c, int degree)
{
    V p = c[0];
#pragma GCC unroll 8
    for (int i = 1; i <= degree; i++) p = vfma(p, u, c[i]);
    return p;
}

/* The core range |x| <= GL_CORE_B (gelu-fast, gelu-accurate): Phi(-t), t = |x|, by one
 * polynomial per piece of 32, piece j = round(k t (t + c)) (narrower pieces where Phi(-t) falls
 * faster: every piece's |u Phi'/Phi| <= 0.143), u = t - a_j (exact: a_j is a binary32 within a
 * factor 2 of every t of its piece; a_j the first column of the piece's tables, vpiece),
 * coefficients from impls/coeffs.sollya (CORE). Returns j in the low 5 bits. */
static inline VI core_index(V t)
{
    return vbits(vfma(t, vfma(t, vdup(GL_CORE_K), vdup(GL_CORE_KC)), vdup(0x1.8p23f)));
}

/* A kernel with a core range |x| <= GL_CORE_B: core(x, |x|) for every lane, and tail(x) only
 * where some lane lies beyond (or is NaN), those lanes taking its result: each result depends on
 * its own input alone. One vector at a time (the plain scalar ISA's kernels). */
static inline __attribute__((always_inline)) V core_or_tail(V x, V (*core)(V, V), V (*tail)(V))
{
    V t = vabs(x), y = core(x, t);
    if (vany_gt(t, GL_CORE_B)) y = vsel(GL_MASK(t <= GL_CORE_B), y, tail(x));
    return y;
}

/* The same kernel over an array, the tail's lanes gathered. Block by block: core(x, |x|) for
 * every lane, stored; the inputs of the lanes with !(|x| <= GL_CORE_B) (NaN too) appended to a
 * queue (vqueue_gt), each such vector's place and mask kept; a block ends after GL_QUEUE_BLOCK
 * elements or once the queue holds GL_QUEUE_FILL lanes (so that its last, padded, vector is a
 * small share and the block's results are still in the L1 cache). Then tail() on the queue, VW
 * lanes at a time, in place, and each such vector's stored results take the queue's, in order,
 * where its mask says (vunqueue). Every result is its own path's (the same bits as
 * core_or_tail); a vector with one tail lane costs its core and 1/VW of a tail, not both paths
 * (docs/kernel-notes.md). x and y may be the same array (the queue holds copies). */
#define GL_QUEUE_BLOCK 4096
#define GL_QUEUE_FILL  256
#ifndef GL_ISA_PLAIN
/* one vector *v of the block: *v gets its core results, its tail lanes go to q; their mask */
static inline __attribute__((always_inline)) uint32_t core_queue_step(V *v, V (*core)(V, V),
                                                                      float *q)
{
    V t = vabs(*v);
    uint32_t lanes = vany_gt(t, GL_CORE_B) ? vqueue_gt(*v, t, GL_CORE_B, q) : 0;
    *v = core(*v, t);
    return lanes;
}
#ifdef GL_ISA_ROWS8
/* The whole vectors of a block from element m, on ISAs that load a piece's row (AVX2): core(x,
 * |x|) = eval(x, |x|, c) with c from the rows of piece core_index(|x|), whose addresses are taken
 * one vector ahead: the loads of a row wait for the index's way through the general registers
 * (about 25 of the 50 cycles of a vector's dependency chain), which the out-of-order window
 * could not hide (docs/kernel-notes.md). The same operations as core_queue_step's; returns the
 * next m. */
static inline __attribute__((always_inline)) int core_rows_whole(const float *xb, float *yb, int m,
                                                                 int lim, const float (*rows)[8],
                                                                 V (*eval)(V, V, const V *),
                                                                 float *q, int *nq_io, int32_t *at,
                                                                 uint32_t *lanes, int *nv_io)
{
    if (m + VW > lim) return m;
    int nq = *nq_io, nv = *nv_io; /* in registers (at and lanes could alias them) */
    V v, t, c[8];
    memcpy(&v, xb + m, sizeof v);
    t = vabs(v);
    VROWS r = vrows8_at(core_index(t));
    for (;;) {
        int mn = m + 2 * VW <= lim ? m + VW : m; /* the next vector (the last: itself again) */
        V vn, tn;
        memcpy(&vn, xb + mn, sizeof vn);
        tn = vabs(vn);
        VROWS rn = vrows8_at(core_index(tn));
        uint32_t k = vany_gt(t, GL_CORE_B) ? vqueue_gt(v, t, GL_CORE_B, q + nq) : 0;
        vrows8_load(rows, r, c);
        v = eval(v, t, c);
        memcpy(yb + m, &v, sizeof v);
        if (k) at[nv] = m, lanes[nv++] = k, nq += __builtin_popcount(k);
        m += VW;
        if (mn == m - VW || nq >= GL_QUEUE_FILL) break;
        v = vn, t = tn, r = rn;
    }
    *nq_io = nq, *nv_io = nv;
    return m;
}
#endif
/* rows and eval: core's parts (GL_DEFINE_KERNEL_CORE_TAIL), for core_rows_whole */
static inline __attribute__((always_inline)) void
core_tail_queue(const float *x, float *y, size_t n, V (*core)(V, V), const float (*rows)[8],
                V (*eval)(V, V, const V *), V (*tail)(V))
{
    /* inputs, then results, of the tail lanes: the whole-vector loop stops below FILL + VW,
     * the last short vector adds VW - 1 more and the padding of the last queue vector VW:
     * nq + VW <= FILL + 3 VW - 2 */
    float q[GL_QUEUE_FILL + 3 * VW];
    int32_t at[GL_QUEUE_BLOCK / VW];     /* where each vector with tail lanes is */
    uint32_t lanes[GL_QUEUE_BLOCK / VW]; /* and which of its lanes are */
    for (size_t b = 0; b < n;) {         /* a block: elements [b, b + m) */
        int lim = n - b < GL_QUEUE_BLOCK ? (int)(n - b) : GL_QUEUE_BLOCK, m = 0, nq = 0, nv = 0;
        const float *xb = x + b;
        float *yb = y + b;
#ifdef GL_ISA_ROWS8
        m = core_rows_whole(xb, yb, m, lim, rows, eval, q, &nq, at, lanes, &nv);
#else
        (void)rows, (void)eval;
        for (; m + VW <= lim && nq < GL_QUEUE_FILL; m += VW) {
            V v;
            memcpy(&v, xb + m, sizeof v);
            uint32_t k = core_queue_step(&v, core, q + nq);
            memcpy(yb + m, &v, sizeof v);
            if (k) at[nv] = m, lanes[nv++] = k, nq += __builtin_popcount(k);
        }
#endif
        if (m < lim && lim - m < VW) { /* the array's last lim - m elements, in a zeroed vector */
            V v = vdup(0.0f);          /* (0: a core lane) */
            memcpy(&v, xb + m, (size_t)(lim - m) * sizeof(float));
            uint32_t k = core_queue_step(&v, core, q + nq);
            memcpy(yb + m, &v, (size_t)(lim - m) * sizeof(float));
            if (k) at[nv] = m, lanes[nv++] = k, nq += __builtin_popcount(k);
            m = lim;
        }
        for (int k = nq; k < nq + VW; k++) q[k] = 0.0f; /* the last vector, filled */
        for (int k = 0; k < nq; k += VW) {
            V v;
            memcpy(&v, q + k, sizeof v);
            v = tail(v);
            memcpy(q + k, &v, sizeof v);
        }
        for (int j = 0, k = 0; j < nv; j++) {
            int i = at[j], len = m - i < VW ? m - i : VW;
            V r = vdup(0.0f);
            if (len == VW)
                memcpy(&r, yb + i, sizeof r);
            else
                memcpy(&r, yb + i, (size_t)len * sizeof(float));
            r = vunqueue(r, lanes[j], q + k);
            if (len == VW)
                memcpy(yb + i, &r, sizeof r);
            else
                memcpy(yb + i, &r, (size_t)len * sizeof(float));
            k += __builtin_popcount(lanes[j]);
        }
        b += (size_t)m;
    }
}
#endif

/* The kernel gl_k_ALGO_ISA of a core-and-tail algorithm whose core is eval(x, |x|, c), c the
 * values of piece core_index(|x|) of the list GL_PIECES_pieces (vpiece): core_tail_queue on
 * vector ISAs, core_or_tail one lane at a time on the plain scalar ISA (whose loop the compiler
 * vectorises) */
#define GL_DEFINE_CORE(algo, pieces, eval)                                                         \
    static inline V algo##_core(V x, V t)                                                          \
    {                                                                                              \
        V c[8];                                                                                    \
        vpiece(pieces, core_index(t), c);                                                          \
        return eval(x, t, c);                                                                      \
    }
#ifdef GL_ISA_PLAIN
#define GL_DEFINE_KERNEL_CORE_TAIL(algo, pieces, eval, tail)                                       \
    GL_DEFINE_CORE(algo, pieces, eval)                                                             \
    static inline V algo##_core_or_tail(V x)                                                       \
    {                                                                                              \
        return core_or_tail(x, algo##_core, tail);                                                 \
    }                                                                                              \
    GL_DEFINE_KERNEL(algo, algo##_core_or_tail)
#else
#ifdef GL_ISA_ROWS8
#define GL_CORE_ROWS(pieces) gl_ROWS_##pieces
#else
#define GL_CORE_ROWS(pieces) NULL
#endif
#define GL_DEFINE_KERNEL_CORE_TAIL(algo, pieces, eval, tail)                                       \
    GL_DEFINE_CORE(algo, pieces, eval)                                                             \
    GL_KERNEL_ATTR void GL_KNAME(algo)(const float *x, float *y, size_t n)                         \
    {                                                                                              \
        core_tail_queue(x, y, n, algo##_core, GL_CORE_ROWS(pieces), eval, tail);                   \
    }
#endif

/* e^s = 2^n p for s in [-130, 1]: s = n ln2 + r, |r| <= ln2/2 + 2^-40, n = round(s / ln2) by
 * the 1.5 2^52 shift, r by two fma with ln2 = hi + lo; p = e^r by the polynomial c (GL_EXP_D
 * here, GL_EXP_CR in gelu-cr); 2^n (into the exponent field) goes to *scale, so that the
 * caller can apply it where it costs no latency. vexpd: the product. */
static inline __attribute__((always_inline)) VD vexpd_parts(VD s, const double *c, int degree,
                                                            VD *scale)
{
    const double shift = 0x1.8p52;
    VD kd = vfmad(s, vdupd(0x1.71547652b82fep0), vdupd(shift));
    VD n = kd - shift;
    VD r = vfmad(n, vdupd(-0x1.62e42fefa39efp-1), s);
    r = vfmad(n, vdupd(-0x1.abc9e3b39803fp-56), r);
    *scale = vdouble(vshld_u(vbitsd(kd) + 1023, 52));
    return vpolyd(r, c, degree);
}
static inline __attribute__((always_inline)) VD vexpd(VD s, const double *c, int degree)
{
    VD scale, p = vexpd_parts(s, c, degree, &scale);
    return p * scale;
}

/* x Phi(x) in binary64 lanes by gelu-accurate's method (algo/gelu_accurate.h says it and derives
 * its error), with the polynomials Q (the erfc form) and E (e^r): gelu-accurate and gelu-cr's fast
 * path differ only in these. */
static inline __attribute__((always_inline)) VD gelu_xphi_d(VD x, const double *Q, int q_degree,
                                                            const double *E, int e_degree)
{
    VD xc = vmaxd(vdupd(-15.5), x);                                        /* -inf too; NaN stays */
    VD a = vmind(vdouble(vbitsd(xc) & 0x7fffffffffffffffLL), vdupd(15.5)); /* +inf; NaN: 15.5 */
    VD t = 1.0 / vfmad(a, vdupd(0x1.6a09e667f3bcdp-2), vdupd(1.0));        /* 1/(1 + z/2) */
    VD q = vpolyd(1.0 - t, Q, q_degree);                                   /* w = 1 - t */
    VD scale, p = vexpd_parts(a * a * -0.5, E, e_degree, &scale);          /* e^(-a^2/2) = 2^n p */
    VD ts = (0.5 * t) * scale; /* exact: 2^-178 < ts <= 1/2 */
    /* Phi(-a) = ts p q; the products with x (or a) come before q, which is ready last */
    VD yn = q * (p * (xc * ts)), yp = vfmad(-q, p * (a * ts), xc);
    return vseld_sign(xc, yn, yp); /* x < 0 (-0, NaN too): x Phi(x); else x - a Phi(-a) */
}

/* Polynomial families: Phi(a), a = max(-|x|, -c), by a polynomial in u = a k + 1 (GL_PHI_*);
 * x < 0: x Phi(x); x >= 0: x (1 - Phi(-x)). Tail: x < -c gives -0, x > c gives x. */
#define GL_GELU_POLY(NAME)                                                                         \
    static inline V gelu_##NAME(V x)                                                               \
    {                                                                                              \
        V a = vmax(-vabs(x), vdup(-GL_PHI_##NAME##_CLAMP));                                        \
        V p = vpoly(vfma(a, vdup(GL_PHI_##NAME##_K), vdup(1.0f)), gl_PHI_##NAME,                   \
                    GL_PHI_##NAME##_DEGREE);                                                       \
        V y = vsel(GL_MASK(x < 0.0f), x * p, vfma(-x, p, x));                                      \
        y = vsel(GL_MASK(x == 0.0f), x, y); /* keep the sign of a zero */                          \
        y = vsel(GL_MASK(x < -GL_PHI_##NAME##_CLAMP), vdup(-0.0f), y);                             \
        return vsel(GL_MASK(x > GL_PHI_##NAME##_CLAMP), x, y);                                     \
    }

/* x sigma(s) for s of x's sign, |s| <= 120 computed and beyond: e = exp(-min(|s|, 120)),
 * (x < 0 ? x e : x) / (1 + e); x < 0 with |s| > 120: -0. */
static inline __attribute__((always_inline)) VD x_sigma_d(VD x, VD s)
{
    VD a = vdouble(vbitsd(s) & 0x7fffffffffffffffLL);
    VD ac = vmind(a, vdupd(120.0)); /* +-inf, NaN: 120 (NaN propagates through x) */
    VD e = vexpd(-ac, gl_EXP_D, GL_EXP_D_DEGREE);
    VD y = vseld(GL_MASKD(x < 0.0), x * e, x) / (1.0 + e);
    return vseld(GL_MASKD((x < 0.0) & (a > 120.0)), vdupd(-0.0), y);
}
