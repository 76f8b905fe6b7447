/* gelulab — AddressSanitizer's defaults for the programs that load the peers' modules (gelulab,
 * whose workers load them for sweeps and validate, and gelulab-bench): included once, by each
 * program's main file, in SAN=1 builds only.
 *
 * ASan intercepts __tls_get_addr to track dynamic TLS blocks; with the peers' libraries loaded at
 * run time (PyTorch 1.13's module, gcc 12, glibc 2.36) it recorded a garbage block (0x1d62..),
 * and LeakSanitizer's tracer crashed on it at exit (signal 11, exit 1, depending on the memory
 * layout: seen 2026-12-05). Not intercepting it leaves dynamic TLS unscanned; no leak was
 * reported with it off. */
#ifndef GELULAB_SAN_DEFAULTS_H
#define GELULAB_SAN_DEFAULTS_H
#if defined(__SANITIZE_ADDRESS__)
#ifdef __cplusplus
extern "C" {
#endif
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
#ifdef __cplusplus
}
#endif
#endif
#endif
