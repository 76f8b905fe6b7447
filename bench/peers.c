/* The table of peers (bench/peers.h): each peer named once. Adding a peer: its source file,
 * its weak declaration and one entry here, one gl_peer() line in bench/CMakeLists.txt, and its
 * Debian package in the Makefile's DEPS_PKGS. */
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

#define PEER(name, defn, isa, lib, pkg, fn, prepare, compare)                                      \
    {                                                                                              \
        name, defn, isa, lib, pkg, fn, #fn, prepare, compare                                       \
    }

static const struct gl_peer peers[] = {
    PEER("onednn-gelu_erf", "exact", "jit", "oneDNN", "libdnnl-dev", gl_peer_onednn_gelu_erf,
         gl_peer_onednn_prepare_erf, "oneDNN erf"),
    PEER("onednn-gelu_tanh", "tanh", "jit", "oneDNN", "libdnnl-dev", gl_peer_onednn_gelu_tanh,
         gl_peer_onednn_prepare_tanh, NULL),
    PEER("sleef-erf/avx2", "exact", "avx2", "SLEEF", "libsleef-dev", gl_peer_sleef_erf_avx2, NULL,
         NULL),
    PEER("sleef-erfc/avx2", "exact", "avx2", "SLEEF", "libsleef-dev", gl_peer_sleef_erfc_avx2, NULL,
         NULL),
    PEER("sleef-erf/avx512", "exact", "avx512", "SLEEF", "libsleef-dev", gl_peer_sleef_erf_avx512,
         NULL, NULL),
    PEER("sleef-erfc/avx512", "exact", "avx512", "SLEEF", "libsleef-dev", gl_peer_sleef_erfc_avx512,
         NULL, NULL),
};

const struct gl_peer *gl_peers(size_t *n)
{
    *n = sizeof peers / sizeof peers[0];
    return peers;
}

/* what the peers' builds need: avx2 with fma (-mavx2 -mfma), avx512 F alone (SLEEF's avx512f
 * functions, -mavx512f; gelulab's own AVX-512 builds also need DQ) */
static int cpu_has(const char *isa)
{
#if defined(__x86_64__)
    if (!strcmp(isa, "avx2"))
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!strcmp(isa, "avx512")) return __builtin_cpu_supports("avx512f");
#endif
    return !strcmp(isa, "jit");
}

const char *gl_peer_skip(const struct gl_peer *p, char *buf, size_t len)
{
    if (!p->fn)
        snprintf(buf, len, "%s not found at build time (Debian: %s)", p->library, p->package);
    else if (!cpu_has(p->isa))
        snprintf(buf, len, "ISA not supported by this CPU");
    else
        return NULL;
    return buf;
}
