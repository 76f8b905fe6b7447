/* libgelulab-peers.so: the benchmark's peers with the kernel ABI, for accuracy sweeps
 * (`gelulab sweep --lib build/libgelulab-peers.so --symbol SYM --defn D --name NAME`), so that
 * the report places them on the accuracy-versus-cost chart beside gelulab's kernels:
 *   gl_peer_lib_onednn_gelu_erf    oneDNN eltwise gelu_erf   (defn exact)
 *   gl_peer_lib_onednn_gelu_tanh   oneDNN eltwise gelu_tanh  (defn tanh)
 *   gl_peer_lib_sleef_erf_avx2     0.5 x (1 + erf(x/sqrt2)), SLEEF u10, AVX2  (defn exact)
 *   gl_peer_lib_sleef_erfc_avx2    0.5 x erfc(-x/sqrt2), SLEEF u15, AVX2      (defn exact)
 * The same code the benchmark times (peer_onednn.c, peer_sleef.c); a symbol whose library was
 * not found at build time is absent. oneDNN's primitive is rebuilt when n changes. */
#include <stddef.h>
#include "peers.h"

#ifdef GL_HAVE_ONEDNN
void gl_peer_lib_onednn_gelu_erf(const float *x, float *y, size_t n)
{
    if (!n) return;
    gl_peer_onednn_prepare_erf(n);
    gl_peer_onednn_gelu_erf(x, y, n);
}
void gl_peer_lib_onednn_gelu_tanh(const float *x, float *y, size_t n)
{
    if (!n) return;
    gl_peer_onednn_prepare_tanh(n);
    gl_peer_onednn_gelu_tanh(x, y, n);
}
#endif

#ifdef GL_HAVE_SLEEF
void gl_peer_lib_sleef_erf_avx2(const float *x, float *y, size_t n)
{
    gl_peer_sleef_erf_avx2(x, y, n);
}
void gl_peer_lib_sleef_erfc_avx2(const float *x, float *y, size_t n)
{
    gl_peer_sleef_erfc_avx2(x, y, n);
}
#endif
