/* Prototypes of the generic vector kernels, one set per ISA (GL_VEC_ALGOS: impls/algos.list,
 * through the generated gl_algos.h). */
#ifndef GL_IMPLS_VEC_DECLS_H
#define GL_IMPLS_VEC_DECLS_H
#include <stddef.h>
#include "gl_algos.h"

#define GL_VEC_DECL(algo, isa) void gl_k_##algo##_##isa(const float *x, float *y, size_t n);
#ifndef __aarch64__
GL_VEC_ALGOS(GL_VEC_DECL, scalar)
GL_VEC_ALGOS(GL_VEC_DECL, avx2)
GL_VEC_ALGOS(GL_VEC_DECL, avx512)
#else
GL_VEC_ALGOS(GL_VEC_DECL, neon)
#endif
#endif
