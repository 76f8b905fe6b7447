/* gelulab — the sweep store (docs/result-format.md, "The sweep store"): each kernel's results
 * of a sweep kept between runs, keyed by what determines them, so that a rerun sweeps only the
 * kernels whose key is new.
 *
 * A key is the SHA-256 of a text (kept beside the record as KEY.key) of everything the results
 * depend on: the store's and the engine's version (GL_ENGINE_HASH: the reference, the engine,
 * the toolchain), MPFR's, GMP's and the C library's versions, the CPU (vendor, family, model,
 * stepping, model name, flags), the sweep (format, mode, hunt, input space, chunks covered, the
 * reference's path, the root region's zeros), and the kernel: its name, definition, source and
 * ABI, and its code: a built-in's code hash (cmake/code_hash.cmake), a library's content hash,
 * symbol and the libraries it loads (path, size, modification time), an external command's
 * text and the content of the files it names (a folder: each file's path, size and modification
 * time; a Python environment's interpreter: its environment's files likewise). Only a kernel
 * swept over every chunk of its range without failing is saved; a record is read back only
 * when its own header and kernel match the sweep's, else it is swept again. */
#ifndef GELULAB_STORE_H
#define GELULAB_STORE_H
#include <stddef.h>
#include "gelulab/machine.h"
#include "gelulab/sweep.h"

/* What every key of this build on this machine holds (gl_store_env_here); the tests vary it */
struct gl_store_env {
    char engine[65]; /* GL_ENGINE_HASH */
    char libs[160];  /* "mpfr 4.2.0 gmp 6.2.1 libc 2.36" */
    struct gl_machine_cpu cpu;
};
void gl_store_env_here(struct gl_store_env *e);

struct gl_store {
    const char *dir;
    int fresh;            /* sweep every kernel (the store is written, not read) */
    char (*key)[65];      /* per kernel of the sweep ("": it cannot be identified, not stored) */
    char **text;          /* per kernel: the key's text (NULL likewise) */
    struct gl_sweep *hit; /* per kernel: the record read (nk == 1), or nk == 0 */
    int nk, reused, saved;
};
/* Before gl_sweep_run: the key of each kernel of s; a kernel whose record DIR holds (and fresh
 * is 0) is marked reused and its record read; env: NULL for this build on this machine. 0, or -1
 * with a one-line reason in err (DIR cannot be made). */
int gl_store_take(struct gl_store *st, struct gl_sweep *s, const char *dir, int fresh,
                  const struct gl_store_env *env, char *err, size_t errlen);
/* After gl_sweep_run: the reused kernels' results put in place, and the records of the kernels
 * swept over all their chunks without failing written (each atomically); frees st. 0, or -1
 * with the first record that could not be written in err (the sweep's results stay right). */
int gl_store_put(struct gl_store *st, struct gl_sweep *s, char *err, size_t errlen);
/* The key's text of kernel k of s (s laid out, its roots found), into buf. 0, or -1 when a file the
 * key needs cannot be read. */
int gl_store_key_text(const struct gl_sweep *s, int k, const struct gl_store_env *env, char *buf,
                      size_t len);

#endif
