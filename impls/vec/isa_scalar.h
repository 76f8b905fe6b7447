/* Scalar "ISA" for the generic vector kernels: one-lane vectors, fma from libm. This is the
 * portable model of every vector kernel (same algorithm, same roundings). */
#include <math.h>
#include <stdint.h>
#define GL_ISA_SUFFIX scalar
#define VW            1
typedef float V __attribute__((vector_size(4)));
typedef int32_t VI __attribute__((vector_size(4)));
static inline V vfma(V a, V b, V c)
{
    return (V){fmaf(a[0], b[0], c[0])};
}
