/* Intel MKL peer (gelulab/peers.h): GELU as an HPC user writes it over MKL's vector math (VM),
 * one thread (libmkl_sequential), in the module libgelulab-peer-mkl.so (bench/CMakeLists.txt).
 *
 *   cdfnorm: y = x * Phi(x), Phi by vmsCdfNorm (the normal CDF itself, no 1 + erf cancellation)
 *   erfc:    y = (x/2) * erfc(-x/sqrt2), erfc by vmsErfc (-x/sqrt2 rounded to binary32 first)
 *
 * each in VM's three accuracy modes, passed per call (VML_HA: high accuracy, VML_LA: low
 * accuracy, VML_EP: enhanced performance; MKL's documentation bounds them by about 1, 4 and
 * half the bits). The arrays are processed in blocks of CHUNK elements through a buffer on the
 * stack (Phi or erfc of the block, then the product), as one would to stay in cache; any n,
 * x == y allowed (each y[i] is written after x[i] is read). */
#include <stdio.h>
#include <string.h>
#include <mkl.h>
#include "gelulab/peers.h"

#define CHUNK 1024

static void gelu_cdfnorm(const float *x, float *y, size_t n, MKL_INT64 mode)
{
    float t[CHUNK];
    for (size_t i = 0; i < n; i += CHUNK) {
        MKL_INT m = (MKL_INT)(n - i < CHUNK ? n - i : CHUNK);
        vmsCdfNorm(m, x + i, t, mode);
        vsMul(m, x + i, t, y + i);
    }
}

static void gelu_erfc(const float *x, float *y, size_t n, MKL_INT64 mode)
{
    float t[CHUNK];
    for (size_t i = 0; i < n; i += CHUNK) {
        MKL_INT m = (MKL_INT)(n - i < CHUNK ? n - i : CHUNK);
        for (MKL_INT j = 0; j < m; j++) t[j] = x[i + j] * -0x1.6a09e6p-1f; /* -x/sqrt2 */
        vmsErfc(m, t, t, mode);
        for (MKL_INT j = 0; j < m; j++) y[i + j] = 0.5f * x[i + j] * t[j];
    }
}

/* Each peer twice: as its users call it, in VM's default error mode, which reports every
 * element whose result leaves the normal range (errno, a callback, the floating-point
 * exceptions), and its twin, the same code with VML_ERRMODE_NOERR added to vmsCdfNorm's or
 * vmsErfc's mode (vsMul and the rest as they are), which the sweeps run (the table's
 * sweep_symbol): the same results bit for bit (test_peers.sh; and over all 2^32 binary32
 * inputs, f192320's cold run against e0ebffe's), but where erfc or Phi underflows (x below
 * about -13, a quarter of the binary32 inputs) 9.6-15 ns an element instead of 120.7 ns, and
 * 1.9-2.7 ns elsewhere (1 Mi inputs a chunk, 2026-12-08, AMD EPYC Zen 4): 846 s of the
 * workers' time in an exhaustive binary32 sweep of the six, then 167 s. */
#define GL_MKL_PEER(form, acc, MODE)                                                               \
    void gl_peer_mkl_##form##_##acc(const float *x, float *y, size_t n)                            \
    {                                                                                              \
        gelu_##form(x, y, n, MODE);                                                                \
    }                                                                                              \
    void gl_peer_mkl_##form##_##acc##_noerr(const float *x, float *y, size_t n)                    \
    {                                                                                              \
        gelu_##form(x, y, n, MODE | VML_ERRMODE_NOERR);                                            \
    }
GL_MKL_PEER(cdfnorm, ha, VML_HA)
GL_MKL_PEER(cdfnorm, la, VML_LA)
GL_MKL_PEER(cdfnorm, ep, VML_EP)
GL_MKL_PEER(erfc, ha, VML_HA)
GL_MKL_PEER(erfc, la, VML_LA)
GL_MKL_PEER(erfc, ep, VML_EP)

/* NULL when the MKL loaded is the version the peers' names say (2026.2: MKL reports its
 * update as MinorVersion 0, UpdateVersion 2), else why not */
const char *gl_peer_mkl_check(void)
{
    static char why[120];
    MKLVersion v;
    mkl_get_version(&v);
    if (v.MajorVersion == 2026 && v.UpdateVersion == 2) return NULL;
    snprintf(why, sizeof why, "MKL %d.%d found, the peers are named for 2026.2", v.MajorVersion,
             v.UpdateVersion);
    return why;
}
