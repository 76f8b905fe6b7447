/* gelulab — SHA-256 (FIPS 180-4), for the sweep store's keys (analysis/sweep_store.c): the
 * content of a kernel's library or an evaluator's script, and the keys themselves. */
#ifndef GELULAB_SHA256_H
#define GELULAB_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct gl_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char buf[64];
};
void gl_sha256_init(struct gl_sha256 *c);
void gl_sha256_add(struct gl_sha256 *c, const void *data, size_t n);
/* the digest as 64 lowercase hex digits and a '\0' */
void gl_sha256_hex(struct gl_sha256 *c, char hex[65]);
/* the digest of a whole file's content into hex: 0, or -1 when it cannot be read */
int gl_sha256_file(const char *path, char hex[65]);

#endif
