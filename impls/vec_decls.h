/* Prototypes of the generic vector kernels, one set per ISA (GL_VEC_ALGOS: impls/algos.list,
 * and the backward kernels GL_VEC_GRADS: impls/grads.list, through the generated gl_algos.h). */
#ifndef GL_IMPLS_VEC_DECLS_H
#define GL_IMPLS_VEC_DECLS_H
#include <stddef.h>
#include "gl_algos.h"

#define GL_VEC_DECL(algo, isa) void gl_k_##algo##_##isa(const float *x, float *y, size_t n);
#define GL_VEC_BWD_DECL(algo, isa)                                                                 \
    void gl_k_##algo##_##isa(const float *x, const float *dy, float *dx, size_t n);
#ifndef __aarch64__
GL_VEC_ALGOS(GL_VEC_DECL, scalar)
GL_VEC_ALGOS(GL_VEC_DECL, avx2)
GL_VEC_ALGOS(GL_VEC_DECL, avx512)
GL_VEC_GRADS(GL_VEC_BWD_DECL, scalar)
GL_VEC_GRADS(GL_VEC_BWD_DECL, avx2)
GL_VEC_GRADS(GL_VEC_BWD_DECL, avx512)
#else
GL_VEC_ALGOS(GL_VEC_DECL, neon)
GL_VEC_GRADS(GL_VEC_BWD_DECL, neon)
#endif
#endif
