/* The piecewise tables a kernel reads together for one piece j of 32: the columns (tables of 32
 * in impls/coeffs.h) in the order the kernel uses them, at most 8. blocks.h vpiece reads them
 * one lookup per column (vlut32) or, on ISAs that load a piece's row (GL_ISA_ROWS8: AVX2, where
 * a lookup of 32 costs 7 instructions), from the same values transposed into rows of 8
 * (gl_ROWS_NAME in gl_avx2_tables.h, written at build time by impls/gen_avx2_tables.c from
 * these lists). */
#ifndef GL_VEC_PIECES_H
#define GL_VEC_PIECES_H
#include "../coeffs.h"

/* gelu-fast's core: a_j, then P from its highest coefficient (degree GL_CORE_FAST_DEGREE) */
#define GL_PIECES_CORE_FAST(X)                                                                     \
    X(gl_CORE_A)                                                                                   \
    X(gl_CORE_FAST[4]) X(gl_CORE_FAST[3]) X(gl_CORE_FAST[2]) X(gl_CORE_FAST[1]) X(gl_CORE_FAST[0])
/* gelu-accurate's core: a_j, S from its highest coefficient (GL_CORE_ACC[5] .. [1]), lo, hi */
#define GL_PIECES_CORE_ACC(X)                                                                      \
    X(gl_CORE_A)                                                                                   \
    X(gl_CORE_ACC[5])                                                                              \
    X(gl_CORE_ACC[4]) X(gl_CORE_ACC[3]) X(gl_CORE_ACC[2]) X(gl_CORE_ACC[1]) X(gl_CORE_ACC_LO)      \
        X(gl_CORE_ACC_HI)
/* gelu-fast's tail: a_j, then R from its highest coefficient (degree GL_TAIL_R_DEGREE) */
#define GL_PIECES_TAIL_R(X)                                                                        \
    X(gl_TAIL_A)                                                                                   \
    X(gl_TAIL_R[5]) X(gl_TAIL_R[4]) X(gl_TAIL_R[3]) X(gl_TAIL_R[2]) X(gl_TAIL_R[1]) X(gl_TAIL_R[0])

/* how many columns a list has */
#define GL_PIECE_ONE(tab) +1
#define GL_PIECES_N(list) (0 list(GL_PIECE_ONE))

_Static_assert(GL_PIECES_N(GL_PIECES_CORE_FAST) == GL_CORE_FAST_DEGREE + 2,
               "a_j and P's coefficients");
_Static_assert(GL_PIECES_N(GL_PIECES_CORE_ACC) == GL_CORE_ACC_DEGREE + 3, "a_j, S, lo and hi");
_Static_assert(GL_PIECES_N(GL_PIECES_TAIL_R) == GL_TAIL_R_DEGREE + 2, "a_j and R's coefficients");

/* the lists, for a generator: X(NAME, LIST) for each */
#define GL_PIECES_ALL(X)                                                                           \
    X(CORE_FAST, GL_PIECES_CORE_FAST) X(CORE_ACC, GL_PIECES_CORE_ACC) X(TAIL_R, GL_PIECES_TAIL_R)

#endif
