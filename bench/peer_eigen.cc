/* TensorFlow's GELU over Eigen (gelulab/peers.h): tf.nn.gelu is not one kernel but a composition
 * of element-wise TensorFlow ops, each an Eigen expression over binary32 with its own rounded
 * result (tensorflow/python/ops/nn_ops.py, gelu, as older releases composed it; 2.21's exact form
 * is 0.5 * x * erfc(-x * 0.7071067811865476), measured as tf-2.21-gelu):
 *   approximate=False: 0.5 * x * (1 + erf(x / 1.4142135623730951))
 *        ops: t = x / sqrt2 (RealDiv), e = erf(t), s = 1 + e, h = 0.5 * x, y = h * s
 *   approximate=True:  0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * pow(x, 3))))
 *        ops: p = pow(x, 3), q = 0.044715 * p, u = x + q, v = 0.7978845608 * u, w = tanh(v),
 *             s = 1 + w, h = 0.5 * x, y = h * s
 * Eigen 3.4's vectorised float erf and tanh are rational approximations on a clamped argument
 * (generic_fast_erf_float, generic_fast_tanh_float); they use FMA where the build has it.
 * TensorFlow's x86 wheels are built with -mavx and no FMA, so this file is compiled twice:
 * -mavx (suffix _avx) and -mavx2 -mfma (suffix _avx2, -DGL_EIGEN_AVX2). C++17 (Eigen is
 * C++); the kernel ABI is exported with C linkage. The temporaries are per-thread arrays kept
 * between calls, as TensorFlow's allocator keeps its buffers. */
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>
#include <cstdio>
#include "gelulab/peers.h"

#ifdef GL_EIGEN_AVX2
#define GL_EIGEN_NAME(base) base##_avx2
#else
#define GL_EIGEN_NAME(base) base##_avx
#endif

using Eigen::ArrayXf;
using ConstMap = Eigen::Map<const ArrayXf>;
using Map = Eigen::Map<ArrayXf>;

static void tf_gelu_erf(const float *xp, float *yp, size_t n)
{
    thread_local ArrayXf t, s, h;
    const Eigen::Index m = static_cast<Eigen::Index>(n);
    ConstMap x(xp, m);
    t = x / 1.4142135623730951f;
    t = t.erf(); /* in place, as TensorFlow forwards a dead input buffer */
    s = 1.0f + t;
    h = 0.5f * x;
    Map(yp, m) = h * s;
}

static void tf_gelu_tanh(const float *xp, float *yp, size_t n)
{
    thread_local ArrayXf p, s, h;
    const Eigen::Index m = static_cast<Eigen::Index>(n);
    ConstMap x(xp, m);
    p = x.pow(3.0f);
    p = 0.044715f * p;
    p = x + p;
    p = 0.7978845608028654f * p;
    p = p.tanh();
    s = 1.0f + p;
    h = 0.5f * x;
    Map(yp, m) = h * s;
}

extern "C" {
void GL_EIGEN_NAME(gl_peer_eigen_gelu)(const float *x, float *y, size_t n)
{
    tf_gelu_erf(x, y, n);
}

void GL_EIGEN_NAME(gl_peer_eigen_gelu_tanh)(const float *x, float *y, size_t n)
{
    tf_gelu_tanh(x, y, n);
}

/* the peer table names Eigen 3.4 */
const char *GL_EIGEN_NAME(gl_peer_eigen_check)(void)
{
    static char why[96];
    if (EIGEN_WORLD_VERSION == 3 && EIGEN_MAJOR_VERSION == 4) return nullptr;
    std::snprintf(why, sizeof why, "Eigen %d.%d found, the peers are named for 3.4",
                  EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION);
    return why;
}
}
