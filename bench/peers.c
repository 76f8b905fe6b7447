/* The table of peers (bench/peers.h): each peer named once, under a name that says library,
 * version and mode. Adding a peer: its source file, its weak declaration and one entry here,
 * one gl_peer() line in bench/CMakeLists.txt, and its Debian package in the Makefile's
 * DEPS_PKGS (or its pinned npm package in NPM_PKGS). */
#include <stdio.h>
#include <string.h>
#include "peers.h"

/* The peers' functions, weak: NULL where the library was not found at build time */
/* peer_sleef.c, compiled twice: GELU as a user writes it with SLEEF's vector functions,
 * 0.5 x (1 + erf(x/sqrt2)) (Sleef_erff*_u10) and 0.5 x erfc(-x/sqrt2) (Sleef_erfcf*_u15) */
void gl_peer_sleef_erf_avx2(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_sleef_erfc_avx2(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_sleef_erf_avx512(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_sleef_erfc_avx512(const float *x, float *y, size_t n) __attribute__((weak));
/* peer_onednn.c: eltwise forward inference, gelu_erf and gelu_tanh, one thread; prepare builds
 * the primitive for n (the kernel builds it itself when n changes) */
void gl_peer_onednn_gelu_erf(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_onednn_gelu_tanh(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_onednn_prepare_erf(size_t n) __attribute__((weak));
void gl_peer_onednn_prepare_tanh(size_t n) __attribute__((weak));
/* and eltwise backward (a forward-training hint), gelu_erf and gelu_tanh */
void gl_peer_onednn_gelu_erf_bwd(const float *x, const float *dy, float *dx, size_t n)
    __attribute__((weak));
void gl_peer_onednn_gelu_tanh_bwd(const float *x, const float *dy, float *dx, size_t n)
    __attribute__((weak));
void gl_peer_onednn_prepare_erf_bwd(size_t n) __attribute__((weak));
/* and eltwise forward on bf16 and f16 memory (the 16-bit kernel ABI) */
void gl_peer_onednn_gelu_erf_bf16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_onednn_gelu_tanh_bf16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_onednn_gelu_erf_f16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_onednn_gelu_tanh_f16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
const char *gl_peer_onednn_check_bf16(void) __attribute__((weak));
const char *gl_peer_onednn_check_f16(void) __attribute__((weak));
void gl_peer_onednn_prepare_tanh_bwd(size_t n) __attribute__((weak));
/* peer_torch.cc: at::gelu_out, one thread; exact through oneDNN (mkldnn on, the default) or
 * ATen's own kernel (mkldnn off), tanh always ATen's */
void gl_peer_torch_gelu(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_torch_gelu_aten(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_torch_gelu_tanh(const float *x, float *y, size_t n) __attribute__((weak));
/* and at::gelu_backward_out on the same paths */
void gl_peer_torch_gelu_bwd(const float *x, const float *dy, float *dx, size_t n)
    __attribute__((weak));
void gl_peer_torch_gelu_bwd_aten(const float *x, const float *dy, float *dx, size_t n)
    __attribute__((weak));
void gl_peer_torch_gelu_tanh_bwd(const float *x, const float *dy, float *dx, size_t n)
    __attribute__((weak));
const char *gl_peer_torch_check(void) __attribute__((weak));
/* and at::gelu_out on bfloat16 and half tensors (the 16-bit kernel ABI) */
void gl_peer_torch_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_torch_gelu_tanh_bf16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_torch_gelu_f16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_torch_gelu_tanh_f16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
const char *gl_peer_torch_check_bf16(void) __attribute__((weak));
const char *gl_peer_torch_check_f16(void) __attribute__((weak));
/* peer_eigen.cc, compiled twice (-mavx; -mavx2 -mfma): tf.nn.gelu's ops over Eigen's erf/tanh */
void gl_peer_eigen_gelu_avx(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_eigen_gelu_tanh_avx(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_eigen_gelu_avx2(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_eigen_gelu_tanh_avx2(const float *x, float *y, size_t n) __attribute__((weak));
const char *gl_peer_eigen_check_avx(void) __attribute__((weak));
const char *gl_peer_eigen_check_avx2(void) __attribute__((weak));
/* peer_ggml.c: ggml_gelu (binary16 table), ggml_gelu_erf, ggml_gelu_quick, one thread; prepare
 * builds the graph for n; check loads the library (dlopen) and checks its version */
void gl_peer_ggml_gelu(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_ggml_gelu_erf(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_ggml_gelu_quick(const float *x, float *y, size_t n) __attribute__((weak));
void gl_peer_ggml_prepare_gelu(size_t n) __attribute__((weak));
void gl_peer_ggml_prepare_gelu_erf(size_t n) __attribute__((weak));
void gl_peer_ggml_prepare_gelu_quick(size_t n) __attribute__((weak));
const char *gl_peer_ggml_check(void) __attribute__((weak));
/* and ggml_gelu, ggml_gelu_erf on binary16 and bfloat16 tensors (the 16-bit kernel ABI) */
void gl_peer_ggml_gelu_f16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_ggml_gelu_erf_f16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_ggml_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
void gl_peer_ggml_gelu_erf_bf16(const uint16_t *x, uint16_t *y, size_t n) __attribute__((weak));
const char *gl_peer_ggml_check_f16(void) __attribute__((weak));
const char *gl_peer_ggml_check_bf16(void) __attribute__((weak));
/* ort_eval.mjs: ONNX Runtime's operators in Node (GL_ORT_SERVE: node, the script, --serve and
 * the npm folder, set by CMake when it found them), a serving command per operator */
#ifdef GL_ORT_SERVE
#define ORT(op) GL_ORT_SERVE " " op
/* Node loads onnxruntime-node and it is the version the names say (once per process) */
static const char *ort_check(void)
{
    static int done;
    static char why[200];
    if (done++) return why[0] ? why : NULL;
    char v[64] = "";
    FILE *p = popen(GL_ORT_SERVE " --version 2>/dev/null", "r");
    if (!p || !fgets(v, sizeof v, p)) v[0] = '\0';
    if (p) pclose(p);
    v[strcspn(v, "\n")] = '\0';
    if (strcmp(v, "1.30.0"))
        snprintf(why, sizeof why, "ONNX Runtime %s under Node, the peers are named for 1.30.0",
                 v[0] ? v : "does not load");
    return why[0] ? why : NULL;
}
#else
#define ORT(op)   NULL
#define ort_check NULL
#endif

#define PEER(name, defn, isa, lib, module, pkg, fn, prepare, compare, check)                       \
    {                                                                                              \
        name, defn, isa, lib, pkg, fn, #fn, module, prepare, compare, NULL, check, NULL, NULL,     \
            NULL                                                                                   \
    }
#define PEER_BWD(name, defn, isa, lib, module, pkg, bwd, prepare, check)                           \
    {                                                                                              \
        name, defn, isa, lib, pkg, NULL, #bwd, module, prepare, NULL, NULL, check, bwd, NULL, NULL \
    }
#define PEER16(name, defn, fmt, isa, lib, module, pkg, u16, check)                                 \
    {                                                                                              \
        name, defn, isa, lib, pkg, NULL, #u16, module, NULL, NULL, NULL, check, NULL, u16, fmt     \
    }
#define SERVED(name, defn, lib, pkg, cmd)                                                          \
    {                                                                                              \
        name, defn, "auto", lib, pkg, NULL, "-", NULL, NULL, NULL, cmd, ort_check, NULL, NULL,     \
            NULL                                                                                   \
    }

/* isa: "jit" (oneDNN generates code) and "auto" (the library picks its code path at run time)
 * run anywhere; "avx", "avx2" (with FMA), "avx512" (F) need the CPU to have them */
static const struct gl_peer peers[] = {
    PEER("onednn-gelu_erf", "exact", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
         gl_peer_onednn_gelu_erf, gl_peer_onednn_prepare_erf, "oneDNN erf", NULL),
    PEER("onednn-gelu_tanh", "tanh", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
         gl_peer_onednn_gelu_tanh, gl_peer_onednn_prepare_tanh, NULL, NULL),
    PEER("sleef-erf/avx2", "exact", "avx2", "SLEEF", "sleef", "Debian libsleef-dev",
         gl_peer_sleef_erf_avx2, NULL, NULL, NULL),
    PEER("sleef-erfc/avx2", "exact", "avx2", "SLEEF", "sleef", "Debian libsleef-dev",
         gl_peer_sleef_erfc_avx2, NULL, NULL, NULL),
    PEER("sleef-erf/avx512", "exact", "avx512", "SLEEF", "sleef", "Debian libsleef-dev",
         gl_peer_sleef_erf_avx512, NULL, NULL, NULL),
    PEER("sleef-erfc/avx512", "exact", "avx512", "SLEEF", "sleef", "Debian libsleef-dev",
         gl_peer_sleef_erfc_avx512, NULL, NULL, NULL),
    PEER("torch-1.13-gelu", "exact", "auto", "PyTorch", "torch", "Debian libtorch-dev",
         gl_peer_torch_gelu, NULL, NULL, gl_peer_torch_check),
    PEER("torch-1.13-gelu-aten", "exact", "auto", "PyTorch", "torch", "Debian libtorch-dev",
         gl_peer_torch_gelu_aten, NULL, NULL, gl_peer_torch_check),
    PEER("torch-1.13-gelu-tanh", "tanh", "auto", "PyTorch", "torch", "Debian libtorch-dev",
         gl_peer_torch_gelu_tanh, NULL, NULL, gl_peer_torch_check),
    PEER("tf-eigen-3.4-gelu/avx", "exact", "avx", "Eigen", "eigen", "Debian libeigen3-dev",
         gl_peer_eigen_gelu_avx, NULL, NULL, gl_peer_eigen_check_avx),
    PEER("tf-eigen-3.4-gelu/avx2", "exact", "avx2", "Eigen", "eigen", "Debian libeigen3-dev",
         gl_peer_eigen_gelu_avx2, NULL, NULL, gl_peer_eigen_check_avx2),
    PEER("tf-eigen-3.4-gelu-tanh/avx", "tanh", "avx", "Eigen", "eigen", "Debian libeigen3-dev",
         gl_peer_eigen_gelu_tanh_avx, NULL, NULL, gl_peer_eigen_check_avx),
    PEER("tf-eigen-3.4-gelu-tanh/avx2", "tanh", "avx2", "Eigen", "eigen", "Debian libeigen3-dev",
         gl_peer_eigen_gelu_tanh_avx2, NULL, NULL, gl_peer_eigen_check_avx2),
    PEER("ggml-0.23-gelu", "tanh", "auto", "ggml", "ggml", "npm @node-llama-cpp/linux-x64@3.21.1",
         gl_peer_ggml_gelu, gl_peer_ggml_prepare_gelu, NULL, gl_peer_ggml_check),
    PEER("ggml-0.23-gelu-erf", "exact", "auto", "ggml", "ggml",
         "npm @node-llama-cpp/linux-x64@3.21.1", gl_peer_ggml_gelu_erf,
         gl_peer_ggml_prepare_gelu_erf, NULL, gl_peer_ggml_check),
    PEER("ggml-0.23-gelu-quick", "sigmoid", "auto", "ggml", "ggml",
         "npm @node-llama-cpp/linux-x64@3.21.1", gl_peer_ggml_gelu_quick,
         gl_peer_ggml_prepare_gelu_quick, NULL, gl_peer_ggml_check),
    SERVED("ort-1.30-gelu", "exact", "ONNX Runtime", "npm onnxruntime-node@1.30.0", ORT("gelu")),
    SERVED("ort-1.30-gelu-tanh", "tanh", "ONNX Runtime", "npm onnxruntime-node@1.30.0",
           ORT("gelu-tanh")),
    SERVED("ort-1.30-ms-gelu", "exact", "ONNX Runtime", "npm onnxruntime-node@1.30.0",
           ORT("ms-gelu")),
    SERVED("ort-1.30-fastgelu", "tanh", "ONNX Runtime", "npm onnxruntime-node@1.30.0",
           ORT("fastgelu")),
    SERVED("ort-1.30-quickgelu", "sigmoid", "ONNX Runtime", "npm onnxruntime-node@1.30.0",
           ORT("quickgelu")),
    /* the backward pass (dx = dy f'(x)) */
    PEER_BWD("onednn-gelu_erf-bwd", "exact_grad", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
             gl_peer_onednn_gelu_erf_bwd, gl_peer_onednn_prepare_erf_bwd, NULL),
    PEER_BWD("onednn-gelu_tanh-bwd", "tanh_grad", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
             gl_peer_onednn_gelu_tanh_bwd, gl_peer_onednn_prepare_tanh_bwd, NULL),
    PEER_BWD("torch-1.13-gelu-bwd", "exact_grad", "auto", "PyTorch", "torch", "Debian libtorch-dev",
             gl_peer_torch_gelu_bwd, NULL, gl_peer_torch_check),
    PEER_BWD("torch-1.13-gelu-bwd-aten", "exact_grad", "auto", "PyTorch", "torch",
             "Debian libtorch-dev", gl_peer_torch_gelu_bwd_aten, NULL, gl_peer_torch_check),
    PEER_BWD("torch-1.13-gelu-tanh-bwd", "tanh_grad", "auto", "PyTorch", "torch",
             "Debian libtorch-dev", gl_peer_torch_gelu_tanh_bwd, NULL, gl_peer_torch_check),
    /* 16 bits: bfloat16 and binary16 in and out (the 16-bit kernel ABI) */
    PEER16("torch-1.13-gelu-bf16", "exact", "bf16", "auto", "PyTorch", "torch",
           "Debian libtorch-dev", gl_peer_torch_gelu_bf16, gl_peer_torch_check_bf16),
    PEER16("torch-1.13-gelu-tanh-bf16", "tanh", "bf16", "auto", "PyTorch", "torch",
           "Debian libtorch-dev", gl_peer_torch_gelu_tanh_bf16, gl_peer_torch_check_bf16),
    PEER16("onednn-gelu_erf-bf16", "exact", "bf16", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
           gl_peer_onednn_gelu_erf_bf16, gl_peer_onednn_check_bf16),
    PEER16("onednn-gelu_tanh-bf16", "tanh", "bf16", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
           gl_peer_onednn_gelu_tanh_bf16, gl_peer_onednn_check_bf16),
    PEER16("ggml-0.23-gelu-bf16", "tanh", "bf16", "auto", "ggml", "ggml",
           "npm @node-llama-cpp/linux-x64@3.21.1", gl_peer_ggml_gelu_bf16, gl_peer_ggml_check_bf16),
    PEER16("ggml-0.23-gelu-erf-bf16", "exact", "bf16", "auto", "ggml", "ggml",
           "npm @node-llama-cpp/linux-x64@3.21.1", gl_peer_ggml_gelu_erf_bf16,
           gl_peer_ggml_check_bf16),
    PEER16("torch-1.13-gelu-f16", "exact", "f16", "auto", "PyTorch", "torch", "Debian libtorch-dev",
           gl_peer_torch_gelu_f16, gl_peer_torch_check_f16),
    PEER16("torch-1.13-gelu-tanh-f16", "tanh", "f16", "auto", "PyTorch", "torch",
           "Debian libtorch-dev", gl_peer_torch_gelu_tanh_f16, gl_peer_torch_check_f16),
    PEER16("onednn-gelu_erf-f16", "exact", "f16", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
           gl_peer_onednn_gelu_erf_f16, gl_peer_onednn_check_f16),
    PEER16("onednn-gelu_tanh-f16", "tanh", "f16", "jit", "oneDNN", "onednn", "Debian libdnnl-dev",
           gl_peer_onednn_gelu_tanh_f16, gl_peer_onednn_check_f16),
    PEER16("ggml-0.23-gelu-f16", "tanh", "f16", "auto", "ggml", "ggml",
           "npm @node-llama-cpp/linux-x64@3.21.1", gl_peer_ggml_gelu_f16, gl_peer_ggml_check_f16),
    PEER16("ggml-0.23-gelu-erf-f16", "exact", "f16", "auto", "ggml", "ggml",
           "npm @node-llama-cpp/linux-x64@3.21.1", gl_peer_ggml_gelu_erf_f16,
           gl_peer_ggml_check_f16),
};

const struct gl_peer *gl_peers(size_t *n)
{
    *n = sizeof peers / sizeof peers[0];
    return peers;
}

/* what the peers' builds need: avx (Eigen's TensorFlow-like build), avx2 with fma (-mavx2
 * -mfma), avx512 F alone (SLEEF's avx512f functions, -mavx512f; gelulab's own AVX-512 builds
 * also need DQ) */
static int cpu_has(const char *isa)
{
#if defined(__x86_64__)
    if (!strcmp(isa, "avx")) return __builtin_cpu_supports("avx");
    if (!strcmp(isa, "avx2"))
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!strcmp(isa, "avx512")) return __builtin_cpu_supports("avx512f");
#endif
    return !strcmp(isa, "jit") || !strcmp(isa, "auto");
}

const char *gl_peer_skip(const struct gl_peer *p, char *buf, size_t len)
{
    const char *why;
    if (!p->fn && !p->serve && !p->bwd && !p->u16)
        snprintf(buf, len, "%s not found at build time (%s; make deps)", p->library, p->package);
    else if (!cpu_has(p->isa))
        snprintf(buf, len, "ISA not supported by this CPU");
    else if (p->check && (why = p->check()))
        snprintf(buf, len, "%s", why);
    else
        return NULL;
    return buf;
}
