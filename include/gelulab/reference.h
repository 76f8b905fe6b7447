/* gelulab — ground truth: every definition correctly rounded, from MPFR, and a certified fast path.
 *
 * gl_ref_mpfr: interval evaluation with MPFR directed roundings (each endpoint rounded outward,
 * so [lo, hi] provably contains f(x)), in a Ziv loop: the working precision doubles until both
 * endpoints round to the same value of the target format. Rounding is monotone, so that value is
 * the correctly rounded f(x). No error analysis per formula is needed, and composite formulas
 * (x*erfc(..)/2, x/(1+exp(..))) are rounded once, not once per MPFR call.
 *
 * gl_ref_fast: binary32 inputs, evaluated in double with a per-input error bound written next to
 * each formula (reference/ref_fast.c); when the bound decides the rounding the result is returned,
 * otherwise the caller falls back to gl_ref_mpfr (gl_ref_f32 does both). */
#ifndef GELULAB_REFERENCE_H
#define GELULAB_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include <mpfr.h>
#include "gelulab/defn.h"
#include "gelulab/format.h"

/* An unrounded value as hi + lo (double-double). */
struct gl_dd {
    double hi, lo;
};

enum gl_ref_status {
    GL_REF_OK = 0,
    GL_REF_UNDECIDED = -1, /* the precision cap was reached before the rounding was decided */
};

/* The working precision is never raised above this (bits). */
#define GL_REF_MAX_PREC 65536

/* y = f(x) correctly rounded to fmt (y's precision is set to fmt->prec). x is any MPFR number.
 * If approx != NULL it receives the midpoint of the final enclosure (at approx's own precision):
 * the unrounded value, for error measurement. Returns GL_REF_OK or GL_REF_UNDECIDED. */
int gl_ref_mpfr(enum gl_defn d, const mpfr_t x, const struct gl_format *fmt, mpfr_t y,
                mpfr_t approx);

/* The same for a binary64 x and a format of at most 53 bits (f64, f32, bf16, f16): the rounded
 * result is returned in *y (exactly representable in fmt), the unrounded one in *r (if non-NULL).
 */
int gl_ref_d(enum gl_defn d, double x, const struct gl_format *fmt, double *y, struct gl_dd *r);

/* 1 when definition d has a fast certified path (exact, tanh, sigmoid, silu), else 0. */
int gl_ref_has_fast(enum gl_defn d);

/* Fast certified path for a binary32 x and a format of at most 24 bits (f32, bf16, f16).
 * Returns 1 and sets *y when the error bound decides the rounding; 0 when it does not (use
 * gl_ref_d); -1 when d has no fast path. When it returns 0 or 1, *r (if non-NULL) receives the
 * unrounded approximation (relative error below 2^-40 wherever |f(x)| >= 2^-1000). */
int gl_ref_fast(enum gl_defn d, float x, const struct gl_format *fmt, double *y, struct gl_dd *r);

/* Fast path with the MPFR fallback: always the correctly rounded f(x). Returns the rounded value;
 * *r (if non-NULL) gets the unrounded one. Thread-safe. */
double gl_ref_f32(enum gl_defn d, float x, const struct gl_format *fmt, struct gl_dd *r);

/* gl_ref_f32 on n inputs, each x[i] a binary32 value: y[i] = gl_ref_f32(d, x[i], fmt, &r[i]) bit
 * for bit (r may be NULL), the binary32 rounding decisions taken 256 inputs at a time in vector
 * lanes (the sweep's blocks: analysis/sweep_block.c). Thread-safe. */
void gl_ref_f32_n(enum gl_defn d, const double *x, uint64_t n, const struct gl_format *fmt,
                  double *y, struct gl_dd *r);

/* Start-up self-check of the fast path on this machine's libm: compares it with gl_ref_mpfr on a
 * fixed spread of inputs of every binade and sign for each fast definition, and checks the libm
 * error bounds the fast path assumes. Returns the number of disagreements (0 = trust the fast
 * path); the first one is described in msg, with the input in %a. */
long gl_ref_selfcheck(char *msg, size_t msglen);

/* MPFR keeps caches (constants such as pi, pools) per thread: a thread that used the reference
 * calls gl_ref_thread_done() before it ends; the program calls gl_ref_release() last. */
void gl_ref_thread_done(void);
void gl_ref_release(void);

/* y = v rounded to nearest-even in fmt (subnormals and overflow to infinity included), in one
 * rounding. y's precision is set to fmt->prec. */
void gl_round_to_format(mpfr_t y, const mpfr_t v, const struct gl_format *fmt);

/* Parse a number: decimal, hex-float ("0x1.8p-3"), "inf", "-inf", "nan" (MPFR's syntax, base 0),
 * correctly rounded to fmt in one rounding (x's precision is set to fmt->prec).
 * Returns 0, or -1 when s is not entirely a number. */
int gl_parse_value(const char *s, const struct gl_format *fmt, mpfr_t x);

#endif
