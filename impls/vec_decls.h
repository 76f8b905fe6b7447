/* Prototypes of the generic vector kernels, one set per ISA (impls/vec/kernels.h). */
#ifndef GL_IMPLS_VEC_DECLS_H
#define GL_IMPLS_VEC_DECLS_H
#include <stddef.h>

#define GL_VEC_ALGOS(X, isa)                                                                       \
    X(erf, isa)                                                                                    \
    X(tanh, isa)                                                                                   \
    X(sigmoid, isa)                                                                                \
    X(silu, isa)                                                                                   \
    X(poly3, isa) X(poly5, isa) X(poly7, isa) X(accurate, isa) X(tanhfast, isa) X(fast, isa)       \
        X(sigmoidfast, isa) X(cr, isa)
#define GL_VEC_DECL(algo, isa) void gl_k_##algo##_##isa(const float *x, float *y, size_t n);
#ifndef __aarch64__
GL_VEC_ALGOS(GL_VEC_DECL, scalar)
GL_VEC_ALGOS(GL_VEC_DECL, avx2)
GL_VEC_ALGOS(GL_VEC_DECL, avx512)
#else
GL_VEC_ALGOS(GL_VEC_DECL, neon)
#endif
#endif
