/* The table of peers (gelulab/peers.h), as data: each library described once, each peer naming
 * its library and what differs. Adding a peer: its function in the library's source file and
 * one entry here; a new library: its source file, one gl_peer() (Debian) or gl_pypi_peer()
 * (PyPI) line in bench/CMakeLists.txt, its package in the Makefile (DEPS_PKGS, NPM_PKGS or the
 * PYPI_* groups), and one record below. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlmopen, dladdr, on_exit */
#endif
#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gelulab/peers.h"

/* The served libraries' checks: each a command that prints its library's version (what the
 * peers' names say: want), else why not. All of them start together at a process's first check
 * and are read then (each a Node or Python start, 0.1-0.25 s: one after another they added up
 * to a second in every gelulab-bench); a check's reason names its library and where it was
 * looked for. */
enum { CHECK_ORT, CHECK_TF, CHECK_JAX, CHECK_ORT131, CHECK_OPENVINO, N_CHECKS };
#if defined(GL_ORT_SERVE) || defined(GL_PY_EVAL)
static struct served_check {
    const char *cmd, *library, *where, *want;
    char why[300];
} served_checks[N_CHECKS] = {
#ifdef GL_ORT_SERVE /* Node loads onnxruntime-node and it is the version the names say */
    [CHECK_ORT] = {GL_ORT_SERVE " --version 2>/dev/null", "ONNX Runtime", "under Node", "1.30.0"},
#endif
#ifdef GL_PY_EVAL /* the Python peers' environment holds the library at the version the names say  \
                   * (its package's metadata: nothing loads; a framework that fails to load fails  \
                   * its peers' sweeps, one line each) */
#define PY_CHECK(library, want)                                                                    \
    {                                                                                              \
        GL_PY_EVAL " --version " library " 2>&1", library, "in the Python peers' environment",     \
            want                                                                                   \
    }
    [CHECK_TF] = PY_CHECK("tensorflow", "2.21.0"),
    [CHECK_JAX] = PY_CHECK("jax", "0.12.0.1"),
    [CHECK_ORT131] = PY_CHECK("onnxruntime", "1.31.1"),
    [CHECK_OPENVINO] = PY_CHECK("openvino", "2026.4.1"),
#endif
};

static const char *served_check(int which)
{
    static int done;
    if (!done++) {
        FILE *p[N_CHECKS] = {NULL};
        fflush(NULL);
        for (int i = 0; i < N_CHECKS; i++)
            if (served_checks[i].cmd) p[i] = popen(served_checks[i].cmd, "r");
        for (int i = 0; i < N_CHECKS; i++) {
            struct served_check *c = &served_checks[i];
            char v[200] = "";
            if (!c->cmd) continue;
            if (!p[i] || !fgets(v, sizeof v, p[i])) v[0] = '\0';
            int rc = p[i] ? pclose(p[i]) : -1;
            v[strcspn(v, "\n")] = '\0';
            if (rc != 0 || !v[0])
                snprintf(c->why, sizeof c->why, "%s %s: %s", c->library, c->where,
                         v[0] ? v : "does not load");
            else if (strcmp(v, c->want))
                snprintf(c->why, sizeof c->why, "%s %s %s, the peers are named for %s", c->library,
                         v, c->where, c->want);
        }
    }
    return served_checks[which].why[0] ? served_checks[which].why : NULL;
}
#endif

#ifdef GL_ORT_SERVE
#define ORT(op) GL_ORT_SERVE " " op
static const char *ort_check(void)
{
    return served_check(CHECK_ORT);
}
#else
#define ORT(op)   NULL
#define ort_check NULL
#endif

#ifdef GL_PY_EVAL
/* a Python peer: PY(ARGS) names it to its library's serving process (PY_SERVER(LIBRARY), one
 * per sweep worker thread for all that library's peers) and timing process (PY_TIMER(LIBRARY),
 * one per benchmark run): py_eval.py ARGS. LIBRARY names the process, one per library.
 * (exec: a signal that ends the evaluator is reported as such, not as the shell's 128+N) */
#define PY(args)       .serve = args, .time = args
#define PY_SERVER(lib) "exec " GL_PY_EVAL " --serve-many " lib
#define PY_TIMER(lib)  "exec " GL_PY_EVAL " --time " lib
static const char *tf_check(void)
{
    return served_check(CHECK_TF);
}
static const char *jax_check(void)
{
    return served_check(CHECK_JAX);
}
static const char *ort131_check(void)
{
    return served_check(CHECK_ORT131);
}
static const char *openvino_check(void)
{
    return served_check(CHECK_OPENVINO);
}
#else
#define PY(args)       .serve = NULL
#define PY_SERVER(lib) NULL
#define PY_TIMER(lib)  NULL
#define tf_check       NULL
#define jax_check      NULL
#define ort131_check   NULL
#define openvino_check NULL
#endif
/* a Python library: served, by one process per library (PY_SERVER, PY_TIMER) */
#define PY_LIBRARY(lib) .reach = GL_PEER_SERVED, .server = PY_SERVER(lib), .timer = PY_TIMER(lib)

/* The libraries, each a module (peers.h). Into namespaces of their own: PyTorch 1.13 and 2.15
 * (the same sonames), oneDNN 2.6 (Debian's libtbb and libOpenCL, which oneDNN 3.13's runtimes
 * share sonames with). oneDNN 3.13 stays in the base namespace: its OpenCL runtime and TBB
 * dlopen with RTLD_GLOBAL, which glibc 2.36 does not survive inside a namespace of dlmopen's.
 * It comes twice, as it comes and capped at AVX2 (its ISA cap is set once per process, before
 * its first primitive), and its peers run only in processes of their own (own_process). */
#define ONEDNN3_ALONE                                                                              \
    "oneDNN 3.13's SYCL and TBB runtimes crash where PyTorch 1.13 has run, and its ISA is set "    \
    "once per process"
static const struct gl_peer_lib onednn26 = {.name = "oneDNN",
                                            .version = "2.6",
                                            .package = "Debian libdnnl-dev",
                                            .module = "onednn",
                                            .reach = GL_PEER_NAMESPACE,
                                            .check = "gl_peer_onednn_check"},
                                onednn313 = {.name = "oneDNN",
                                             .version = "3.13",
                                             .package = "PyPI onednn==2026.1.0",
                                             .module = "onednn3",
                                             .reach = GL_PEER_BASE,
                                             .check = "gl_peer_onednn_check",
                                             .own_process = ONEDNN3_ALONE},
                                onednn313_avx2 = {.name = "oneDNN",
                                                  .version = "3.13",
                                                  .package = "PyPI onednn==2026.1.0",
                                                  .module = "onednn3-avx2",
                                                  .reach = GL_PEER_BASE,
                                                  .check = "gl_peer_onednn_check",
                                                  .own_process = ONEDNN3_ALONE},
                                sleef = {.name = "SLEEF",
                                         .version = "3.5",
                                         .package = "Debian libsleef-dev",
                                         .module = "sleef"},
                                torch113 = {.name = "PyTorch",
                                            .version = "1.13",
                                            .package = "Debian libtorch-dev",
                                            .module = "torch",
                                            .reach = GL_PEER_NAMESPACE,
                                            .check = "gl_peer_torch_check"},
                                torch215 = {.name = "PyTorch",
                                            .version = "2.15",
                                            .package = "PyPI torch==2.15.0",
                                            .module = "torch215",
                                            .reach = GL_PEER_NAMESPACE,
                                            .check = "gl_peer_torch_check"},
                                eigen = {.name = "Eigen",
                                         .version = "3.4",
                                         .package = "Debian libeigen3-dev",
                                         .module = "eigen",
                                         .lineage = "TensorFlow"},
                                mkl = {.name = "MKL",
                                       .version = "2026.2",
                                       .package = "PyPI mkl==2026.2.0",
                                       .module = "mkl",
                                       .reach = GL_PEER_BASE,
                                       .check = "gl_peer_mkl_check"},
                                ggml = {.name = "ggml",
                                        .version = "0.23",
                                        .package = "npm @node-llama-cpp/linux-x64@3.21.1",
                                        .module = "ggml",
                                        .check = "gl_peer_ggml_check"},
                                ort = {.name = "ONNX Runtime",
                                       .version = "1.30",
                                       .package = "npm onnxruntime-node@1.30.0",
                                       .reach = GL_PEER_SERVED,
                                       .check_fn = ort_check},
                                /* under Python (bench/py_eval.py, make deps: the Python peers'
                                 * environment) */
    tf = {.name = "TensorFlow",
          .version = "2.21",
          .package = "PyPI tensorflow-cpu==2.21.0",
          PY_LIBRARY("tensorflow"),
          .check_fn = tf_check},
                                jax = {.name = "JAX",
                                       .version = "0.12",
                                       .package = "PyPI jax==0.12.0.1, jaxlib==0.12.0.1",
                                       PY_LIBRARY("jax"),
                                       .check_fn = jax_check},
                                ort131 = {.name = "ONNX Runtime",
                                          .version = "1.31",
                                          .package = "PyPI onnxruntime==1.31.1",
                                          PY_LIBRARY("onnxruntime"),
                                          .check_fn = ort131_check},
                                openvino = {.name = "OpenVINO",
                                            .version = "2026.4",
                                            .package = "PyPI openvino==2026.4.1",
                                            PY_LIBRARY("openvino"),
                                            .check_fn = openvino_check};

/* a binary32 peer: FWD(function); backward: BWD(function); 16-bit: U16(GL_KERNEL_BF16 or
 * GL_KERNEL_F16, function) */
#define FWD(f)    .abi = GL_KERNEL_F32, .symbol = #f
#define BWD(f)    .abi = GL_KERNEL_BWD, .symbol = #f
#define U16(a, f) .abi = a, .symbol = #f
/* a peer swept through its twin with the library's error reporting off (sweep_symbol) */
#define FWD_NOERR(f) FWD(f), .sweep_symbol = #f "_noerr"

/* isa: GL_PEER_JIT (oneDNN generates code) and GL_PEER_AUTO (the library picks its code path
 * at run time) run anywhere; GL_PEER_AVX, _AVX2 (with FMA), _AVX512 (F) need the CPU to have
 * them (gelulab/peers.h) */
static struct gl_peer peers[] = {
    {"onednn-2.6-gelu_erf", GL_DEFN_EXACT, GL_PEER_JIT, &onednn26, FWD(gl_peer_onednn_gelu_erf),
     .prepare = "gl_peer_onednn_prepare_erf", .compare = "oneDNN erf",
     .path =
         "dnnl eltwise forward inference gelu_erf on f32, one thread: the JIT code for this CPU"},
    {"onednn-2.6-gelu_tanh", GL_DEFN_TANH, GL_PEER_JIT, &onednn26, FWD(gl_peer_onednn_gelu_tanh),
     .prepare = "gl_peer_onednn_prepare_tanh",
     .path = "eltwise gelu_tanh on f32, the JIT code for this CPU"},
    {"onednn-3.13-gelu_erf/avx512", GL_DEFN_EXACT, GL_PEER_AVX512, &onednn313,
     FWD(gl_peer_onednn_gelu_erf), .prepare = "gl_peer_onednn_prepare_erf",
     .path = "dnnl eltwise forward inference gelu_erf on f32, one thread: the avx512_core JIT code "
             "an AVX-512 CPU gets"},
    {"onednn-3.13-gelu_erf/avx2", GL_DEFN_EXACT, GL_PEER_AVX2, &onednn313_avx2,
     FWD(gl_peer_onednn_gelu_erf), .prepare = "gl_peer_onednn_prepare_erf",
     .path = "the same call with the ISA capped at AVX2 (ONEDNN_MAX_CPU_ISA=AVX2): the code an "
             "AVX2-only CPU gets"},
    {"onednn-3.13-gelu_tanh/avx512", GL_DEFN_TANH, GL_PEER_AVX512, &onednn313,
     FWD(gl_peer_onednn_gelu_tanh), .prepare = "gl_peer_onednn_prepare_tanh",
     .path = "eltwise gelu_tanh on f32, avx512_core JIT code"},
    {"onednn-3.13-gelu_tanh/avx2", GL_DEFN_TANH, GL_PEER_AVX2, &onednn313_avx2,
     FWD(gl_peer_onednn_gelu_tanh), .prepare = "gl_peer_onednn_prepare_tanh",
     .path = "eltwise gelu_tanh on f32, capped at AVX2"},
    {"sleef-3.5-erf/avx2", GL_DEFN_EXACT, GL_PEER_AVX2, &sleef, FWD(gl_peer_sleef_erf_avx2),
     .path = "0.5 x (1 + Sleef_erff8_u10avx2(x/sqrt2)), as a user writes it"},
    {"sleef-3.5-erfc/avx2", GL_DEFN_EXACT, GL_PEER_AVX2, &sleef, FWD(gl_peer_sleef_erfc_avx2),
     .path = "0.5 x Sleef_erfcf8_u15avx2(-x/sqrt2), as a user writes it"},
    {"sleef-3.5-erf/avx512", GL_DEFN_EXACT, GL_PEER_AVX512, &sleef, FWD(gl_peer_sleef_erf_avx512),
     .path = "0.5 x (1 + Sleef_erff16_u10avx512f(x/sqrt2))"},
    {"sleef-3.5-erfc/avx512", GL_DEFN_EXACT, GL_PEER_AVX512, &sleef, FWD(gl_peer_sleef_erfc_avx512),
     .path = "0.5 x Sleef_erfcf16_u15avx512f(-x/sqrt2)"},
    /* PyTorch: exact through oneDNN (mkldnn on, the default), ATen's own kernel (mkldnn off:
     * also what one element, a non-contiguous tensor and float16 take), tanh always ATen's */
    {"torch-1.13-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &torch113, FWD(gl_peer_torch_gelu),
     .path = "F.gelu(x) on a contiguous float32 tensor of more than one element, mkldnn on (the "
             "default): its oneDNN (Debian: the system oneDNN 2.6) gelu_erf",
     .call = "torch.nn.functional.gelu(x) on a contiguous float32 tensor of more than one element "
             "(one element, or a non-contiguous tensor: torch-1.13-gelu-aten)"},
    {"torch-1.13-gelu-aten", GL_DEFN_EXACT, GL_PEER_AUTO, &torch113, FWD(gl_peer_torch_gelu_aten),
     .path = "F.gelu(x) on one element, a non-contiguous tensor, or with mkldnn off: ATen, 0.5 x "
             "(1 + erf(x/sqrt2)), erf by Sleef_erff16_u10"},
    {"torch-1.13-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &torch113, FWD(gl_peer_torch_gelu_tanh),
     .path = "F.gelu(x, approximate='tanh'): ATen, SLEEF tanh"},
    {"torch-2.15-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &torch215, FWD(gl_peer_torch_gelu),
     .path = "F.gelu(x) on a contiguous float32 tensor of more than one element, mkldnn on (the "
             "default): its bundled oneDNN 3.13 gelu_erf",
     .call = "torch.nn.functional.gelu(x) on a contiguous float32 tensor of more than one element "
             "(one element, or a non-contiguous tensor: torch-2.15-gelu-aten)"},
    {"torch-2.15-gelu-aten", GL_DEFN_EXACT, GL_PEER_AUTO, &torch215, FWD(gl_peer_torch_gelu_aten),
     .path =
         "F.gelu(x) on one element, a non-contiguous tensor, or with mkldnn off: ATen, 0.5 x (1 + "
         "erf(x/sqrt2)), erf by Abramowitz-Stegun 7.1.26 times Sleef_expf16_u10 (vec512_float.h)"},
    {"torch-2.15-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &torch215, FWD(gl_peer_torch_gelu_tanh),
     .path = "F.gelu(x, approximate='tanh'): ATen, SLEEF tanh"},
    /* MKL's vector math: x Phi(x) over vsCdfNorm, (x/2) erfc(-x/sqrt2) over vsErfc, in its
     * three accuracy modes; swept through twins with VM's error reporting off (FWD_NOERR) */
    {"mkl-2026.2-cdfnorm-ha", GL_DEFN_EXACT, GL_PEER_AUTO, &mkl, FWD_NOERR(gl_peer_mkl_cdfnorm_ha),
     .path = "x Phi(x): vmsCdfNorm(n, x, t, VML_HA), then vsMul; one thread (libmkl_sequential)"},
    {"mkl-2026.2-cdfnorm-la", GL_DEFN_EXACT, GL_PEER_AUTO, &mkl, FWD_NOERR(gl_peer_mkl_cdfnorm_la),
     .path = "x Phi(x): vmsCdfNorm in VML_LA mode, then vsMul"},
    {"mkl-2026.2-cdfnorm-ep", GL_DEFN_EXACT, GL_PEER_AUTO, &mkl, FWD_NOERR(gl_peer_mkl_cdfnorm_ep),
     .path = "x Phi(x): vmsCdfNorm in VML_EP mode, then vsMul"},
    {"mkl-2026.2-erfc-ha", GL_DEFN_EXACT, GL_PEER_AUTO, &mkl, FWD_NOERR(gl_peer_mkl_erfc_ha),
     .path = "(x/2) erfc(-x/sqrt2): vmsErfc(n, t, t, VML_HA) on t = -x/sqrt2 rounded to binary32"},
    {"mkl-2026.2-erfc-la", GL_DEFN_EXACT, GL_PEER_AUTO, &mkl, FWD_NOERR(gl_peer_mkl_erfc_la),
     .path = "(x/2) erfc(-x/sqrt2): vmsErfc in VML_LA mode"},
    {"mkl-2026.2-erfc-ep", GL_DEFN_EXACT, GL_PEER_AUTO, &mkl, FWD_NOERR(gl_peer_mkl_erfc_ep),
     .path = "(x/2) erfc(-x/sqrt2): vmsErfc in VML_EP mode"},
    /* the ops of tf.nn.gelu as older TensorFlow composed it, 0.5 x (1 + erf(x/sqrt2)), and of its
     * tanh form, over Eigen 3.4's erf/tanh (TensorFlow's x86 wheels: -mavx; and -march=haswell):
     * not TensorFlow, whose eager ops run over Eigen master and, in 2.21, compose the exact form
     * as 0.5 x erfc(-x/sqrt2) (tf-2.21-*) */
    {"eigen-3.4-gelu/avx", GL_DEFN_EXACT, GL_PEER_AVX, &eigen, FWD(gl_peer_eigen_gelu_avx),
     .check = "gl_peer_eigen_check_avx",
     .path = "0.5 x (1 + erf(x/sqrt2)), older TensorFlow's tf.nn.gelu(x) ops, over Eigen's erf, "
             "built -mavx as TensorFlow's x86 wheels"},
    {"eigen-3.4-gelu/avx2", GL_DEFN_EXACT, GL_PEER_AVX2, &eigen, FWD(gl_peer_eigen_gelu_avx2),
     .check = "gl_peer_eigen_check_avx2",
     .path = "0.5 x (1 + erf(x/sqrt2)), older TensorFlow's tf.nn.gelu(x) ops, over Eigen's erf, "
             "built -mavx2 -mfma"},
    {"eigen-3.4-gelu-tanh/avx", GL_DEFN_TANH, GL_PEER_AVX, &eigen, FWD(gl_peer_eigen_gelu_tanh_avx),
     .check = "gl_peer_eigen_check_avx",
     .path = "tf.nn.gelu(x, approximate=True)'s ops over Eigen's tanh, -mavx"},
    {"eigen-3.4-gelu-tanh/avx2", GL_DEFN_TANH, GL_PEER_AVX2, &eigen,
     FWD(gl_peer_eigen_gelu_tanh_avx2), .check = "gl_peer_eigen_check_avx2",
     .path = "tf.nn.gelu(x, approximate=True)'s ops over Eigen's tanh, -mavx2 -mfma"},
    {"ggml-0.23-gelu", GL_DEFN_TANH, GL_PEER_AUTO, &ggml, FWD(gl_peer_ggml_gelu),
     .prepare = "gl_peer_ggml_prepare_gelu",
     .path = "ggml_gelu on an f32 tensor, one thread: a binary16 table of the tanh form",
     .call = "ggml_gelu(ctx, a) on an f32 tensor (the tanh form; ggml_gelu_erf is the exact one)"},
    {"ggml-0.23-gelu-erf", GL_DEFN_EXACT, GL_PEER_AUTO, &ggml, FWD(gl_peer_ggml_gelu_erf),
     .prepare = "gl_peer_ggml_prepare_gelu_erf",
     .path = "ggml_gelu_erf on an f32 tensor, one thread"},
    {"ggml-0.23-gelu-quick", GL_DEFN_SIGMOID, GL_PEER_AUTO, &ggml, FWD(gl_peer_ggml_gelu_quick),
     .prepare = "gl_peer_ggml_prepare_gelu_quick", .path = "ggml_gelu_quick: x sigmoid(1.702 x)"},
    {"ort-1.30-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &ort, .serve = ORT("gelu"),
     .path = "the ONNX Gelu operator (opset 20), CPU execution provider, under Node",
     .call = "the ONNX Gelu operator (opset 20), approximate left at 'none', in onnxruntime-node"},
    {"ort-1.30-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &ort, .serve = ORT("gelu-tanh"),
     .path = "Gelu with approximate='tanh'"},
    {"ort-1.30-ms-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &ort, .serve = ORT("ms-gelu"),
     .path = "the com.microsoft Gelu contrib operator"},
    {"ort-1.30-fastgelu", GL_DEFN_TANH, GL_PEER_AUTO, &ort, .serve = ORT("fastgelu"),
     .path = "the com.microsoft FastGelu contrib operator (tanh form)"},
    {"ort-1.30-quickgelu", GL_DEFN_SIGMOID, GL_PEER_AUTO, &ort, .serve = ORT("quickgelu"),
     .path = "the com.microsoft QuickGelu contrib operator (sigmoid form)"},
    /* TensorFlow 2.21, JAX 0.12, ONNX Runtime 1.31, OpenVINO 2026.4: from Python
     * (bench/py_eval.py), one thread each, their defaults otherwise */
    {"tf-2.21-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &tf, PY("tf-2.21-gelu"),
     .path = "tf.nn.gelu(x) eager: 0.5 x erfc(-x/sqrt2) (tensorflow/python/ops/nn_ops.py) over "
             "Eigen master's erfc",
     .call = "tf.nn.gelu(x) (approximate=False), eager"},
    {"tf-2.21-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &tf, PY("tf-2.21-gelu-tanh"),
     .path = "tf.nn.gelu(x, approximate=True) eager"},
    {"tf-2.21-gelu-xla", GL_DEFN_EXACT, GL_PEER_AUTO, &tf, PY("tf-2.21-gelu-xla"),
     .path = "tf.function(tf.nn.gelu, jit_compile=True): the same ops compiled by XLA"},
    {"tf-2.21-gelu-tanh-xla", GL_DEFN_TANH, GL_PEER_AUTO, &tf, PY("tf-2.21-gelu-tanh-xla"),
     .path = "tf.nn.gelu(x, approximate=True) under jit_compile=True (XLA)"},
    {"jax-0.12-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &jax, PY("jax-0.12-gelu-tanh"),
     .path = "jax.nn.gelu(x): approximate=True is the default; jitted (XLA CPU)",
     .call = "jax.nn.gelu(x): approximate=True, the tanh form, is the default"},
    {"jax-0.12-gelu-exact", GL_DEFN_EXACT, GL_PEER_AUTO, &jax, PY("jax-0.12-gelu-exact"),
     .path = "jax.nn.gelu(x, approximate=False): 0.5 x erfc(-x/sqrt2) under XLA CPU"},
    {"ort-1.31-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &ort131, PY("ort-1.31-gelu"),
     .path = "the ONNX Gelu operator (opset 20), CPU execution provider, from Python",
     .call =
         "the ONNX Gelu operator (opset 20), approximate left at 'none', in onnxruntime (Python)"},
    {"ort-1.31-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &ort131, PY("ort-1.31-gelu-tanh"),
     .path = "Gelu with approximate='tanh'"},
    {"ort-1.31-ms-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &ort131, PY("ort-1.31-ms-gelu"),
     .path = "the com.microsoft Gelu contrib operator"},
    {"ort-1.31-fastgelu", GL_DEFN_TANH, GL_PEER_AUTO, &ort131, PY("ort-1.31-fastgelu"),
     .path = "the com.microsoft FastGelu contrib operator (tanh form)"},
    {"ort-1.31-quickgelu", GL_DEFN_SIGMOID, GL_PEER_AUTO, &ort131, PY("ort-1.31-quickgelu"),
     .path = "the com.microsoft QuickGelu contrib operator (sigmoid form)"},
    {"openvino-2026.4-gelu", GL_DEFN_EXACT, GL_PEER_AUTO, &openvino, PY("openvino-2026.4-gelu"),
     .path =
         "Gelu (approximation_mode=erf) compiled for the CPU plug-in with its defaults "
         "(INFERENCE_PRECISION_HINT bf16 on a CPU with AVX512_BF16: on a lone Gelu the same bits "
         "as with f32, measured on an AMD Zen 4)",
     .call = "the Gelu operation, approximation_mode left at erf, CPU plug-in defaults"},
    {"openvino-2026.4-gelu-tanh", GL_DEFN_TANH, GL_PEER_AUTO, &openvino,
     PY("openvino-2026.4-gelu-tanh"),
     .path = "Gelu (approximation_mode=tanh), CPU plug-in defaults"},
    /* the backward pass (dx = dy f'(x)) */
    {"onednn-2.6-gelu_erf-bwd", GL_DEFN_EXACT_GRAD, GL_PEER_JIT, &onednn26,
     BWD(gl_peer_onednn_gelu_erf_bwd), .prepare = "gl_peer_onednn_prepare_erf_bwd",
     .path = "eltwise backward gelu_erf (a forward-training hint), f32"},
    {"onednn-2.6-gelu_tanh-bwd", GL_DEFN_TANH_GRAD, GL_PEER_JIT, &onednn26,
     BWD(gl_peer_onednn_gelu_tanh_bwd), .prepare = "gl_peer_onednn_prepare_tanh_bwd",
     .path = "eltwise backward gelu_tanh, f32"},
    {"onednn-3.13-gelu_erf-bwd/avx512", GL_DEFN_EXACT_GRAD, GL_PEER_AVX512, &onednn313,
     BWD(gl_peer_onednn_gelu_erf_bwd), .prepare = "gl_peer_onednn_prepare_erf_bwd",
     .path = "eltwise backward gelu_erf, f32, avx512_core JIT code"},
    {"onednn-3.13-gelu_tanh-bwd/avx512", GL_DEFN_TANH_GRAD, GL_PEER_AVX512, &onednn313,
     BWD(gl_peer_onednn_gelu_tanh_bwd), .prepare = "gl_peer_onednn_prepare_tanh_bwd",
     .path = "eltwise backward gelu_tanh, f32, avx512_core JIT code"},
    {"torch-1.13-gelu-bwd", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &torch113,
     BWD(gl_peer_torch_gelu_bwd),
     .path = "gelu_backward on contiguous float32, mkldnn on: oneDNN eltwise backward"},
    {"torch-1.13-gelu-bwd-aten", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &torch113,
     BWD(gl_peer_torch_gelu_bwd_aten),
     .path = "gelu_backward with mkldnn off: ATen's GeluBackwardKernel"},
    {"torch-1.13-gelu-tanh-bwd", GL_DEFN_TANH_GRAD, GL_PEER_AUTO, &torch113,
     BWD(gl_peer_torch_gelu_tanh_bwd), .path = "gelu_backward, approximate='tanh': ATen"},
    {"torch-2.15-gelu-bwd", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &torch215,
     BWD(gl_peer_torch_gelu_bwd),
     .path = "gelu_backward on contiguous float32, mkldnn on: oneDNN 3.13 eltwise backward"},
    {"torch-2.15-gelu-bwd-aten", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &torch215,
     BWD(gl_peer_torch_gelu_bwd_aten),
     .path = "gelu_backward with mkldnn off: ATen's GeluBackwardKernel"},
    {"torch-2.15-gelu-tanh-bwd", GL_DEFN_TANH_GRAD, GL_PEER_AUTO, &torch215,
     BWD(gl_peer_torch_gelu_tanh_bwd), .path = "gelu_backward, approximate='tanh': ATen"},
    {"tf-2.21-gelu-bwd", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BWD,
     PY("--backward tf-2.21-gelu"),
     .path = "tf.GradientTape over tf.nn.gelu(x), eager: tape.gradient(y, x, dy)"},
    {"tf-2.21-gelu-tanh-bwd", GL_DEFN_TANH_GRAD, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BWD,
     PY("--backward tf-2.21-gelu-tanh"),
     .path = "tf.GradientTape over tf.nn.gelu(x, approximate=True), eager"},
    {"tf-2.21-gelu-xla-bwd", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BWD,
     PY("--backward tf-2.21-gelu-xla"),
     .path = "the GradientTape under tf.function(jit_compile=True)"},
    {"tf-2.21-gelu-tanh-xla-bwd", GL_DEFN_TANH_GRAD, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BWD,
     PY("--backward tf-2.21-gelu-tanh-xla"),
     .path = "the GradientTape of the tanh form under jit_compile=True"},
    {"jax-0.12-gelu-tanh-bwd", GL_DEFN_TANH_GRAD, GL_PEER_AUTO, &jax, .abi = GL_KERNEL_BWD,
     PY("--backward jax-0.12-gelu-tanh"),
     .path = "jax.vjp(jax.nn.gelu, x)[1](dy), jitted (the default tanh form)"},
    {"jax-0.12-gelu-exact-bwd", GL_DEFN_EXACT_GRAD, GL_PEER_AUTO, &jax, .abi = GL_KERNEL_BWD,
     PY("--backward jax-0.12-gelu-exact"),
     .path = "jax.vjp of jax.nn.gelu(x, approximate=False), jitted"},
    /* 16 bits: bfloat16 and binary16 in and out (the 16-bit kernel ABI) */
    {"torch-1.13-gelu-bf16", GL_DEFN_EXACT, GL_PEER_AUTO, &torch113,
     U16(GL_KERNEL_BF16, gl_peer_torch_gelu_bf16), .check = "gl_peer_torch_check_bf16",
     .path = "F.gelu(x) on a contiguous bfloat16 tensor, mkldnn on"},
    {"torch-1.13-gelu-tanh-bf16", GL_DEFN_TANH, GL_PEER_AUTO, &torch113,
     U16(GL_KERNEL_BF16, gl_peer_torch_gelu_tanh_bf16), .check = "gl_peer_torch_check_bf16",
     .path = "F.gelu(x, approximate='tanh') on bfloat16"},
    {"torch-2.15-gelu-bf16", GL_DEFN_EXACT, GL_PEER_AUTO, &torch215,
     U16(GL_KERNEL_BF16, gl_peer_torch_gelu_bf16), .check = "gl_peer_torch_check_bf16",
     .path = "F.gelu(x) on a contiguous bfloat16 tensor, mkldnn on"},
    {"torch-2.15-gelu-tanh-bf16", GL_DEFN_TANH, GL_PEER_AUTO, &torch215,
     U16(GL_KERNEL_BF16, gl_peer_torch_gelu_tanh_bf16), .check = "gl_peer_torch_check_bf16",
     .path = "F.gelu(x, approximate='tanh') on bfloat16"},
    {"onednn-2.6-gelu_erf-bf16", GL_DEFN_EXACT, GL_PEER_JIT, &onednn26,
     U16(GL_KERNEL_BF16, gl_peer_onednn_gelu_erf_bf16), .check = "gl_peer_onednn_check_bf16",
     .path = "eltwise gelu_erf on bf16 memory (computed in f32, rounded)"},
    {"onednn-2.6-gelu_tanh-bf16", GL_DEFN_TANH, GL_PEER_JIT, &onednn26,
     U16(GL_KERNEL_BF16, gl_peer_onednn_gelu_tanh_bf16), .check = "gl_peer_onednn_check_bf16",
     .path = "eltwise gelu_tanh on bf16 memory"},
    {"onednn-3.13-gelu_erf-bf16/avx512", GL_DEFN_EXACT, GL_PEER_AVX512, &onednn313,
     U16(GL_KERNEL_BF16, gl_peer_onednn_gelu_erf_bf16), .check = "gl_peer_onednn_check_bf16",
     .path = "eltwise gelu_erf on bf16 memory, avx512_core JIT code"},
    {"onednn-3.13-gelu_tanh-bf16/avx512", GL_DEFN_TANH, GL_PEER_AVX512, &onednn313,
     U16(GL_KERNEL_BF16, gl_peer_onednn_gelu_tanh_bf16), .check = "gl_peer_onednn_check_bf16",
     .path = "eltwise gelu_tanh on bf16 memory, avx512_core JIT code"},
    {"ggml-0.23-gelu-bf16", GL_DEFN_TANH, GL_PEER_AUTO, &ggml,
     U16(GL_KERNEL_BF16, gl_peer_ggml_gelu_bf16), .check = "gl_peer_ggml_check_bf16",
     .path = "ggml_gelu on a bf16 tensor"},
    {"ggml-0.23-gelu-erf-bf16", GL_DEFN_EXACT, GL_PEER_AUTO, &ggml,
     U16(GL_KERNEL_BF16, gl_peer_ggml_gelu_erf_bf16), .check = "gl_peer_ggml_check_bf16",
     .path = "ggml_gelu_erf on a bf16 tensor"},
    {"tf-2.21-gelu-bf16", GL_DEFN_EXACT, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BF16,
     PY("--abi bf16 tf-2.21-gelu"), .path = "tf.nn.gelu(x) eager on a tf.bfloat16 tensor"},
    {"tf-2.21-gelu-tanh-bf16", GL_DEFN_TANH, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BF16,
     PY("--abi bf16 tf-2.21-gelu-tanh"),
     .path = "tf.nn.gelu(x, approximate=True) eager on a tf.bfloat16 tensor"},
    {"tf-2.21-gelu-xla-bf16", GL_DEFN_EXACT, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BF16,
     PY("--abi bf16 tf-2.21-gelu-xla"),
     .path = "tf.nn.gelu(x) under jit_compile=True on a tf.bfloat16 tensor"},
    {"tf-2.21-gelu-tanh-xla-bf16", GL_DEFN_TANH, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_BF16,
     PY("--abi bf16 tf-2.21-gelu-tanh-xla"),
     .path = "the tanh form under jit_compile=True on a tf.bfloat16 tensor"},
    {"jax-0.12-gelu-tanh-bf16", GL_DEFN_TANH, GL_PEER_AUTO, &jax, .abi = GL_KERNEL_BF16,
     PY("--abi bf16 jax-0.12-gelu-tanh"),
     .path = "jax.nn.gelu(x) (tanh, the default), jitted on a jnp.bfloat16 array"},
    {"jax-0.12-gelu-exact-bf16", GL_DEFN_EXACT, GL_PEER_AUTO, &jax, .abi = GL_KERNEL_BF16,
     PY("--abi bf16 jax-0.12-gelu-exact"),
     .path = "jax.nn.gelu(x, approximate=False), jitted on a jnp.bfloat16 array"},
    {"torch-1.13-gelu-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &torch113,
     U16(GL_KERNEL_F16, gl_peer_torch_gelu_f16), .check = "gl_peer_torch_check_f16",
     .path = "F.gelu(x) on a half tensor"},
    {"torch-1.13-gelu-tanh-f16", GL_DEFN_TANH, GL_PEER_AUTO, &torch113,
     U16(GL_KERNEL_F16, gl_peer_torch_gelu_tanh_f16), .check = "gl_peer_torch_check_f16",
     .path = "F.gelu(x, approximate='tanh') on half"},
    {"torch-2.15-gelu-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &torch215,
     U16(GL_KERNEL_F16, gl_peer_torch_gelu_f16), .check = "gl_peer_torch_check_f16",
     .path = "F.gelu(x) on a contiguous half tensor: widened to float, ATen, rounded back"},
    {"torch-2.15-gelu-tanh-f16", GL_DEFN_TANH, GL_PEER_AUTO, &torch215,
     U16(GL_KERNEL_F16, gl_peer_torch_gelu_tanh_f16), .check = "gl_peer_torch_check_f16",
     .path = "F.gelu(x, approximate='tanh') on half"},
    {"onednn-2.6-gelu_erf-f16", GL_DEFN_EXACT, GL_PEER_JIT, &onednn26,
     U16(GL_KERNEL_F16, gl_peer_onednn_gelu_erf_f16), .check = "gl_peer_onednn_check_f16",
     .path = "eltwise gelu_erf on f16 memory"},
    {"onednn-2.6-gelu_tanh-f16", GL_DEFN_TANH, GL_PEER_JIT, &onednn26,
     U16(GL_KERNEL_F16, gl_peer_onednn_gelu_tanh_f16), .check = "gl_peer_onednn_check_f16",
     .path = "eltwise gelu_tanh on f16 memory"},
    {"onednn-3.13-gelu_erf-f16/avx512", GL_DEFN_EXACT, GL_PEER_AVX512, &onednn313,
     U16(GL_KERNEL_F16, gl_peer_onednn_gelu_erf_f16), .check = "gl_peer_onednn_check_f16",
     .path = "eltwise gelu_erf on f16 memory, avx512_core JIT code"},
    {"ggml-0.23-gelu-f16", GL_DEFN_TANH, GL_PEER_AUTO, &ggml,
     U16(GL_KERNEL_F16, gl_peer_ggml_gelu_f16), .check = "gl_peer_ggml_check_f16",
     .path = "ggml_gelu on an f16 tensor"},
    {"ggml-0.23-gelu-erf-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &ggml,
     U16(GL_KERNEL_F16, gl_peer_ggml_gelu_erf_f16), .check = "gl_peer_ggml_check_f16",
     .path = "ggml_gelu_erf on an f16 tensor"},
    {"tf-2.21-gelu-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_F16,
     PY("--abi f16 tf-2.21-gelu"), .path = "tf.nn.gelu(x) eager on a tf.float16 tensor"},
    {"tf-2.21-gelu-tanh-f16", GL_DEFN_TANH, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_F16,
     PY("--abi f16 tf-2.21-gelu-tanh"),
     .path = "tf.nn.gelu(x, approximate=True) eager on a tf.float16 tensor"},
    {"tf-2.21-gelu-xla-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_F16,
     PY("--abi f16 tf-2.21-gelu-xla"),
     .path = "tf.nn.gelu(x) under jit_compile=True on a tf.float16 tensor"},
    {"tf-2.21-gelu-tanh-xla-f16", GL_DEFN_TANH, GL_PEER_AUTO, &tf, .abi = GL_KERNEL_F16,
     PY("--abi f16 tf-2.21-gelu-tanh-xla"),
     .path = "the tanh form under jit_compile=True on a tf.float16 tensor"},
    {"jax-0.12-gelu-tanh-f16", GL_DEFN_TANH, GL_PEER_AUTO, &jax, .abi = GL_KERNEL_F16,
     PY("--abi f16 jax-0.12-gelu-tanh"),
     .path = "jax.nn.gelu(x) (tanh, the default), jitted on a jnp.float16 array"},
    {"jax-0.12-gelu-exact-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &jax, .abi = GL_KERNEL_F16,
     PY("--abi f16 jax-0.12-gelu-exact"),
     .path = "jax.nn.gelu(x, approximate=False), jitted on a jnp.float16 array"},
    {"ort-1.31-gelu-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &ort131, .abi = GL_KERNEL_F16,
     PY("--abi f16 ort-1.31-gelu"),
     .path = "the ONNX Gelu operator on a float16 tensor (bfloat16: not implemented)"},
    {"ort-1.31-gelu-tanh-f16", GL_DEFN_TANH, GL_PEER_AUTO, &ort131, .abi = GL_KERNEL_F16,
     PY("--abi f16 ort-1.31-gelu-tanh"), .path = "Gelu, approximate='tanh', on float16"},
    {"ort-1.31-ms-gelu-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &ort131, .abi = GL_KERNEL_F16,
     PY("--abi f16 ort-1.31-ms-gelu"), .path = "com.microsoft Gelu on float16"},
    {"ort-1.31-fastgelu-f16", GL_DEFN_TANH, GL_PEER_AUTO, &ort131, .abi = GL_KERNEL_F16,
     PY("--abi f16 ort-1.31-fastgelu"), .path = "com.microsoft FastGelu on float16"},
    {"ort-1.31-quickgelu-f16", GL_DEFN_SIGMOID, GL_PEER_AUTO, &ort131, .abi = GL_KERNEL_F16,
     PY("--abi f16 ort-1.31-quickgelu"), .path = "com.microsoft QuickGelu on float16"},
    {"openvino-2026.4-gelu-f16", GL_DEFN_EXACT, GL_PEER_AUTO, &openvino, .abi = GL_KERNEL_F16,
     PY("--abi f16 openvino-2026.4-gelu"),
     .path = "Gelu (erf) on an f16 model, CPU plug-in defaults (a bf16 model answers in f16)"},
    {"openvino-2026.4-gelu-tanh-f16", GL_DEFN_TANH, GL_PEER_AUTO, &openvino, .abi = GL_KERNEL_F16,
     PY("--abi f16 openvino-2026.4-gelu-tanh"), .path = "Gelu (tanh) on an f16 model"},
};

const struct gl_peer *gl_peers(size_t *n)
{
    *n = sizeof peers / sizeof peers[0];
    return peers;
}

/* The folder of the table's own library (libgelulab-peers.so), where the modules lie */
static const char *modules_dir(void)
{
    static char where[4096];
    if (!where[0]) {
        Dl_info info;
        char path[4096] = ".";
        if (dladdr((void *)gl_peers, &info) && info.dli_fname)
            snprintf(path, sizeof path, "%s", info.dli_fname);
        snprintf(where, sizeof where, "%s", dirname(path));
    }
    return where;
}

/* at exit, once a module was loaded into a namespace of its own: flush and _exit with the
 * status (peers.h says why) */
static void exit_quietly(int status, void *arg)
{
    (void)arg;
    fflush(NULL);
    _exit(status);
}

/* why none of lib's peers run: its module or symbol was not built (make deps); buf */
static char *not_built(const struct gl_peer_lib *lib, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s not found at build time (%s; make deps)", lib->name, lib->version,
             lib->package);
    return buf;
}

/* lib's module, loaded once (NULL with the reason in why) */
static void *lib_handle(const struct gl_peer_lib *lib, char *why, size_t len)
{
    static struct {
        const struct gl_peer_lib *lib;
        void *h;
        char why[300];
    } opened[16];
    size_t i = 0;
    while (i < 16 && opened[i].lib && opened[i].lib != lib) i++;
    if (i == 16) return snprintf(why, len, "more than 16 libraries"), NULL;
    if (!opened[i].lib) {
        char path[4200];
        opened[i].lib = lib;
        snprintf(path, sizeof path, "%s/libgelulab-peer-%s.so", modules_dir(), lib->module);
#if defined(__SANITIZE_ADDRESS__) /* no namespaces: the Debian libraries alone */
        const int under_asan = 1;
#else
        const int under_asan = 0;
#endif
        if (access(path, R_OK))
            not_built(lib, opened[i].why, sizeof opened[i].why);
        else if (under_asan && !strncmp(lib->package, "PyPI", 4))
            snprintf(opened[i].why, sizeof opened[i].why,
                     "%s %s: not loaded under AddressSanitizer (no link namespaces there)",
                     lib->name, lib->version);
        else if (!(opened[i].h = lib->reach == GL_PEER_NAMESPACE && !under_asan
                                     ? dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL)
                                     : dlopen(path, RTLD_NOW | RTLD_LOCAL)))
            snprintf(opened[i].why, sizeof opened[i].why, "%s %s does not load: %s", lib->name,
                     lib->version, dlerror());
        else if (lib->reach == GL_PEER_NAMESPACE && !under_asan) {
            static int once;
            if (!once++) on_exit(exit_quietly, NULL);
        }
    }
    if (!opened[i].h) snprintf(why, len, "%s", opened[i].why);
    return opened[i].h;
}

static char alone[64]; /* gl_peer_run_alone's module, or "" */

void gl_peer_run_alone(const char *module)
{
    snprintf(alone, sizeof alone, "%s", module ? module : "");
}

#define N_PEERS       (sizeof peers / sizeof peers[0])
#define CHECK_ALONE_S 120 /* the child's time to load and check a library, at most */

/* The reasons of the peers of own_process libraries, each library checked in a child process
 * (fork) as it would run: all of them at the first gl_peer_skip of a process, before it loaded
 * any module (a fork after PyTorch 1.13 ran would carry it into the child: oneDNN 3.13's
 * check then crashed, seen). The child says each reason on a line of a pipe: INDEX TAB
 * REASON. NULL: the peer runs. */
static char *alone_why[N_PEERS];

static void set_alone_why(const struct gl_peer_lib *lib, const char *line)
{
    for (size_t i = 0; i < N_PEERS; i++)
        if (peers[i].lib == lib && !alone_why[i]) alone_why[i] = strdup(line);
}

static void check_alone(const struct gl_peer_lib *lib)
{
    int fd[2];
    pid_t pid = -1;
    char line[400];
    fflush(NULL);
    if (pipe(fd) != 0) return set_alone_why(lib, "no pipe to check it through");
    if ((pid = fork()) == 0) {
        close(fd[0]);
        FILE *out = fdopen(fd[1], "w");
        gl_peer_run_alone(lib->module);
        for (size_t i = 0; i < N_PEERS && out; i++) {
            char b[300];
            const char *w = peers[i].lib == lib ? gl_peer_skip(&peers[i], b, sizeof b) : NULL;
            if (w) fprintf(out, "%zu\t%s\n", i, w);
        }
        if (out) fclose(out);
        _exit(0);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        snprintf(line, sizeof line, "%s %s: no process to check it in", lib->name, lib->version);
        return set_alone_why(lib, line);
    }
    FILE *in = fdopen(fd[0], "r");
    struct pollfd pf = {fd[0], POLLIN, 0};
    int late = 0;
    while (in && !(late = poll(&pf, 1, CHECK_ALONE_S * 1000) == 0) &&
           fgets(line, sizeof line, in)) {
        char *tab = strchr(line, '\t');
        size_t i = strtoul(line, NULL, 10);
        if (!tab || i >= N_PEERS) continue;
        tab[strcspn(tab, "\n")] = '\0';
        free(alone_why[i]), alone_why[i] = strdup(tab + 1);
    }
    if (late) kill(pid, SIGKILL);
    in ? fclose(in) : close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (late)
        snprintf(line, sizeof line, "%s %s: its check did not end in %d s", lib->name, lib->version,
                 CHECK_ALONE_S);
    else if (!WIFEXITED(st) || WEXITSTATUS(st)) /* the check itself failed */
        snprintf(line, sizeof line, "%s %s: its check crashed (%s %d)", lib->name, lib->version,
                 WIFSIGNALED(st) ? "signal" : "exit status",
                 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    else
        return;
    set_alone_why(lib, line);
}

/* each own_process library checked once, the first time a process asks (see above) */
static void check_all_alone(void)
{
    static int done;
    if (done++ || alone[0]) return;
    for (size_t i = 0; i < N_PEERS; i++) {
        int first = 1;
        for (size_t j = 0; j < i; j++) first &= peers[j].lib != peers[i].lib;
        if (first && peers[i].lib->own_process) check_alone(peers[i].lib);
    }
}

/* the check named sym in handle h: NULL when it passes (or there is none), else its reason */
static const char *run_check(void *h, const char *sym)
{
    gl_peer_check_fn f;
    if (!sym) return NULL;
    *(void **)&f = dlsym(h, sym);
    return f ? f() : NULL; /* absent with its library: the function was reported missing */
}

const char *gl_peer_skip(const struct gl_peer *cp, char *buf, size_t len)
{
    struct gl_peer *p =
        &peers[cp - peers]; /* the table's own entry: its functions are found here */
    const struct gl_peer_lib *lib = p->lib;
    const char *why;
    void *h = NULL, *f = NULL;
    p->fn = (union gl_kernel_fn){NULL}, p->prepare_fn = NULL, p->per_process = 0;
    check_all_alone(); /* before any module is loaded here */
    if (alone[0] && (!lib->module || strcmp(lib->module, alone)) && !p->compare)
        return snprintf(buf, len, "not in this run (the peers of %s alone)", alone), buf;
    if (lib->reach == GL_PEER_SERVED) {
        if (!p->serve) return not_built(lib, buf, len);
        if (!gl_peer_isa_runs_here(p->isa))
            return snprintf(buf, len, "ISA not supported by this CPU"), buf;
        return lib->check_fn && (why = lib->check_fn()) ? snprintf(buf, len, "%s", why), buf : NULL;
    }
    if (!gl_peer_isa_runs_here(p->isa))
        return snprintf(buf, len, "ISA not supported by this CPU"), buf;
    if (lib->own_process && !alone[0]) { /* its peers run in a process of their own */
        if (alone_why[p - peers]) return snprintf(buf, len, "%s", alone_why[p - peers]), buf;
        return p->per_process = 1,
               snprintf(buf, len, "timed in a run of its own, gelulab-bench --peers-of %s (%s)",
                        lib->module, lib->own_process),
               buf;
    }
    if (!(h = lib_handle(lib, buf, len))) return buf;
    if (!(f = dlsym(h, p->symbol)) || (p->sweep_symbol && !dlsym(h, p->sweep_symbol)))
        return not_built(lib, buf, len);
    if ((why = run_check(h, lib->check)) || (why = run_check(h, p->check)))
        return snprintf(buf, len, "%s", why), buf;
    *(void **)&p->fn = f; /* the member of its ABI: every one a function pointer */
    if (p->prepare) *(void **)&p->prepare_fn = dlsym(h, p->prepare);
    return NULL;
}
