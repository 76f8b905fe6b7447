/* Stand-ins when a peer library was not found at build time: the case is listed as skipped. */
#include <stdlib.h>
#include "peers.h"

#ifndef GL_HAVE_SLEEF
int gl_peer_sleef_built(void)
{
    return 0;
}
void gl_peer_sleef_erf_avx2(const float *x, float *y, size_t n)
{
    (void)x, (void)y, (void)n;
    abort();
}
void gl_peer_sleef_erfc_avx2(const float *x, float *y, size_t n)
{
    (void)x, (void)y, (void)n;
    abort();
}
void gl_peer_sleef_erf_avx512(const float *x, float *y, size_t n)
{
    (void)x, (void)y, (void)n;
    abort();
}
void gl_peer_sleef_erfc_avx512(const float *x, float *y, size_t n)
{
    (void)x, (void)y, (void)n;
    abort();
}
#endif
#ifndef GL_HAVE_ONEDNN
int gl_peer_onednn_built(void)
{
    return 0;
}
void gl_peer_onednn_prepare_erf(size_t n)
{
    (void)n;
}
void gl_peer_onednn_prepare_tanh(size_t n)
{
    (void)n;
}
void gl_peer_onednn_gelu_erf(const float *x, float *y, size_t n)
{
    (void)x, (void)y, (void)n;
    abort();
}
void gl_peer_onednn_gelu_tanh(const float *x, float *y, size_t n)
{
    (void)x, (void)y, (void)n;
    abort();
}
#endif
