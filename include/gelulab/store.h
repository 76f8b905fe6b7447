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

/* The code hash this binary was built from of "engine" (the reference and the sweep engine),
 * "probes" (gelulab validate) or "moons" (the two-moons experiment); NULL for another word */
const char *gl_store_code_hash(const char *what);
/* "args [A] [B] ...\n": a command's arguments argv[1..argc), less those in drop (NULL-ended,
 * each "--opt" for an option alone or "--opt=" for an option and its value). 0, or -1 (too
 * long) */
int gl_store_args_text(int argc, char **argv, const char *const *drop, char *buf, size_t len);
/* Writes n bytes to path through a temporary file beside it, renamed into place: a record is
 * never half written. 0, or -1 (nothing left behind) */
int gl_store_write_file(const char *path, const char *bytes, size_t n);
/* The first lines of any key: SCHEMA, CODE (a line naming the code's hash), the libraries, the
 * CPU and the environment variables set that can change a kernel's results. 0, or -1 (too long) */
int gl_store_head_text(const char *schema, const char *code, const struct gl_store_env *env,
                       char *buf, size_t len);
/* What identifies kernel ks (the kernel lines of a sweep's key). 0, or -1 when a file it names
 * cannot be identified */
int gl_store_kernel_text(const struct gl_kernel_src *ks, char *buf, size_t len);

/* ---- a command's outputs (analysis/output_store.c): gelulab validate's and gelulab moons'
 * standard output, result file and exit status kept under DIR/XX/KEY.{key,out,file,rc}, KEY the
 * SHA-256 of a key text the command writes (gl_store_head_text with the command's code hash,
 * its arguments, what identifies its kernels) ---- */
/* The key's text of a run of command WHAT ("probes": validate, "moons"): gl_store_head_text with
 * WHAT's code hash (gl_store_code_hash) on this machine, its arguments (gl_store_args_text, less
 * drop), then EXTRA (what identifies its kernels). 0, or -1 (too long) */
int gl_output_store_key(char *buf, size_t len, const char *what, int argc, char **argv,
                        const char *const *drop, const char *extra);
/* A run of command CMD kept in DIR under key text TEXT. When DIR holds its record (and not
 * fresh): the record's standard output printed, its result file copied to FILE (NULL: none),
 * *rc its exit status, and 1. Else RUN(ARG) with its standard output captured (and printed
 * once it returns), *rc its status, the record written when 0 <= *rc <= keep_max (each file
 * atomically, the key last; one that cannot be written is a line on stderr, the run's results
 * stand), and 0. -1 with a one-line reason in err when DIR cannot be made (nothing run). */
int gl_output_store_run(const char *cmd, const char *dir, int fresh, const char *text,
                        const char *file, int keep_max, int (*run)(void *), void *arg, int *rc,
                        char *err, size_t errlen);

#endif
