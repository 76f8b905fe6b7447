/* PyTorch peer (gelulab/peers.h): at::gelu_out on a 1-D binary32 tensor that wraps the caller's
 * arrays (at::from_blob, no copy), one intra-op thread. C++ (C++17 for 1.13, C++20 for 2.15:
 * its headers require it), the one language libtorch has; the kernel ABI is exported with C
 * linkage. Compiled once per version: Debian's 1.13 into libgelulab-peer-torch.so, PyPI's 2.15 into
 * the module libgelulab-peer-torch215.so (GL_TORCH_WANT "2.15", bench/CMakeLists.txt).
 *
 * Three peers, because what PyTorch 1.13 computes depends on how it is called
 * (aten/src/ATen/native/Activation.cpp): approximate="none" on more than one element goes to
 * oneDNN's gelu_erf while mkldnn is enabled (the default) and to ATen's own vectorised kernel
 * when it is disabled (at::globalContext().setUserEnabledMkldnn(false)), or for one element;
 * approximate="tanh" is always ATen's. The mkldnn switch is global state of libtorch: each call
 * sets it. The backward pass, at::gelu_backward_out (the backward kernel ABI: grad_output dy,
 * self x, grad_input dx), takes the same paths: oneDNN's eltwise backward for "none" with
 * mkldnn on, ATen's GeluBackwardKernel otherwise.
 *
 * In 16 bits (the 16-bit kernel ABI), at::gelu_out on bfloat16 and half tensors over the
 * caller's bits, approximate "none" and "tanh", mkldnn left on (its default): what a model kept
 * in those formats gets. Whether this build has the kernel for a format is asked once (a call
 * on two elements, its exception caught): the check says why a peer does not run. */
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/api/include/torch/version.h>
#include <cstdio>
#include <cstring>
#include "gelulab/peers.h"

/* the version the peers' names say (the check compares the headers' version with it) */
#ifndef GL_TORCH_WANT
#define GL_TORCH_WANT "1.13"
#endif
#define GL_STR2(x) #x
#define GL_STR(x)  GL_STR2(x)
static const char torch_found[] = GL_STR(TORCH_VERSION_MAJOR) "." GL_STR(TORCH_VERSION_MINOR);

static at::Tensor wrap(const float *p, size_t n)
{
    return at::from_blob(const_cast<float *>(p), {static_cast<int64_t>(n)}, at::kFloat);
}

static at::Tensor wrap16(const uint16_t *p, size_t n, at::ScalarType t)
{
    return at::from_blob(const_cast<uint16_t *>(p), {static_cast<int64_t>(n)}, t);
}

static void torch_gelu16(const uint16_t *x, uint16_t *y, size_t n, const char *approximate,
                         at::ScalarType t)
{
    static bool one_thread = (at::set_num_threads(1), true);
    (void)one_thread;
    at::globalContext().setUserEnabledMkldnn(true);
    at::Tensor out = wrap16(y, n, t);
    at::gelu_out(out, wrap16(x, n, t), approximate);
}

extern "C" const char *gl_peer_torch_check(void);

/* NULL when this libtorch has GELU on CPU tensors of type t (both forms), else why not */
static const char *torch_check16(at::ScalarType t, char *why, size_t len)
{
    const char *v = gl_peer_torch_check();
    if (v) return v;
    uint16_t x[2] = {0x3f80, 0x4000}, y[2];
    try {
        torch_gelu16(x, y, 2, "none", t);
        torch_gelu16(x, y, 2, "tanh", t);
    } catch (const std::exception &e) {
        std::snprintf(why, len, "PyTorch %s has no CPU GELU for %s: %.120s", torch_found,
                      t == at::kHalf ? "half" : "bfloat16", e.what());
        why[std::strcspn(why, "\n")] = '\0'; /* its first line: "... not implemented for ..." */
        return why;
    }
    return nullptr;
}

static void torch_gelu(const float *x, float *y, size_t n, const char *approximate, bool mkldnn)
{
    static bool one_thread = (at::set_num_threads(1), true);
    (void)one_thread;
    at::globalContext().setUserEnabledMkldnn(mkldnn);
    at::Tensor out = wrap(y, n);
    at::gelu_out(out, wrap(x, n), approximate);
}

static void torch_gelu_bwd(const float *x, const float *dy, float *dx, size_t n,
                           const char *approximate, bool mkldnn)
{
    static bool one_thread = (at::set_num_threads(1), true);
    (void)one_thread;
    at::globalContext().setUserEnabledMkldnn(mkldnn);
    at::Tensor out = wrap(dx, n);
    at::gelu_backward_out(out, wrap(dy, n), wrap(x, n), approximate);
}

extern "C" {
void gl_peer_torch_gelu_bwd(const float *x, const float *dy, float *dx, size_t n)
{
    torch_gelu_bwd(x, dy, dx, n, "none", true);
}

void gl_peer_torch_gelu_bwd_aten(const float *x, const float *dy, float *dx, size_t n)
{
    torch_gelu_bwd(x, dy, dx, n, "none", false);
}

void gl_peer_torch_gelu_tanh_bwd(const float *x, const float *dy, float *dx, size_t n)
{
    torch_gelu_bwd(x, dy, dx, n, "tanh", true);
}

void gl_peer_torch_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    torch_gelu16(x, y, n, "none", at::kBFloat16);
}

void gl_peer_torch_gelu_tanh_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    torch_gelu16(x, y, n, "tanh", at::kBFloat16);
}

void gl_peer_torch_gelu_f16(const uint16_t *x, uint16_t *y, size_t n)
{
    torch_gelu16(x, y, n, "none", at::kHalf);
}

void gl_peer_torch_gelu_tanh_f16(const uint16_t *x, uint16_t *y, size_t n)
{
    torch_gelu16(x, y, n, "tanh", at::kHalf);
}

const char *gl_peer_torch_check_bf16(void)
{
    static char why[200];
    static const char *r = torch_check16(at::kBFloat16, why, sizeof why);
    return r;
}

const char *gl_peer_torch_check_f16(void)
{
    static char why[200];
    static const char *r = torch_check16(at::kHalf, why, sizeof why);
    return r;
}

void gl_peer_torch_gelu(const float *x, float *y, size_t n)
{
    torch_gelu(x, y, n, "none", true);
}

void gl_peer_torch_gelu_aten(const float *x, float *y, size_t n)
{
    torch_gelu(x, y, n, "none", false);
}

void gl_peer_torch_gelu_tanh(const float *x, float *y, size_t n)
{
    torch_gelu(x, y, n, "tanh", true);
}

/* the peer table names PyTorch GL_TORCH_WANT */
const char *gl_peer_torch_check(void)
{
    static char why[96];
    if (!std::strcmp(torch_found, GL_TORCH_WANT)) return nullptr;
    std::snprintf(why, sizeof why, "PyTorch %s found, the peers are named for " GL_TORCH_WANT,
                  torch_found);
    return why;
}
}
