/* gelulab command line: one function per subcommand (cli/cmd_*.c). Exit codes: 0 success,
 * 1 a check failed (a verdict), 2 usage or input error. */
#ifndef GL_CLI_H
#define GL_CLI_H

#include <stddef.h>

int gl_cmd_ref(int argc, char **argv);
int gl_cmd_list(int argc, char **argv);
int gl_cmd_sweep(int argc, char **argv);
int gl_cmd_merge(int argc, char **argv);
int gl_cmd_bench_table(int argc, char **argv);
int gl_cmd_eval_lib(int argc, char **argv);
int gl_cmd_facts(int argc, char **argv);
int gl_cmd_report(int argc, char **argv);
int gl_cmd_moons(int argc, char **argv);

struct gl_sweep;
struct gl_impl;
struct gl_kernel_src;
/* cli/kernel_args.c, the kernel arguments sweep, validate and facts share: */
/* A new kernel source at the end of s->k (zeroed; its definition still to be given) */
struct gl_kernel_src *gl_cli_add_kernel(struct gl_sweep *s);
/* The built-in kernel NAME (gl_impl_find), with a note on stderr when NAME is its name before
 * gelulab 0.2; NULL if none */
const struct gl_impl *gl_cli_find_impl(const char *cmdname, const char *name);
/* Adds built-in kernel im to s as a sweep source (NEON through qemu); 0 added, 1 skipped (not
 * runnable here; said on stderr unless quiet). */
int gl_cli_add_builtin(struct gl_sweep *s, const struct gl_impl *im, int quiet);
struct gl_kernel_src;
/* Runs a --lib kernel's worker on no input: 0, or 2 after "cannot use --lib ... --symbol ...:
 * WHY" on stderr (the worker's words: file not found, a library it needs missing, the symbol not
 * found), the message also into msg when given. */
int gl_cli_probe_lib(const char *cmdname, const struct gl_sweep *s, const struct gl_kernel_src *k,
                     char *msg, size_t msglen);
/* An external kernel's pass from the command's --backward: a derivative as --defn needs it
 * (one-line error under cmdname, 2); with it, the kernel is a backward one and --defn names
 * its forward definition or the derivative itself. 0 when set. */
int gl_cli_set_backward(const char *cmdname, struct gl_kernel_src *k, int backward);
struct gl_format;
/* A 16-bit kernel (--abi bf16|f16) is a forward kernel swept in its own format: 0, or a
 * one-line error under cmdname and 2. */
int gl_cli_check_abi(const char *cmdname, const struct gl_kernel_src *k, const struct gl_format *f);
/* --python FILE.py:FUNC: k becomes a serving kernel whose command, made by
 * gl_cli_python_command once k->backward and k->abi are known, runs py_eval.py (beside gelulab,
 * or installed in GL_PRIVATE_DIR) --serve --callable FILE.py:FUNC under $GELULAB_PYTHON (default
 * python3; it needs NumPy). 0, or a one-line error under cmdname and 2: not FILE:FUNCTION, no
 * such file, no py_eval.py. */
void gl_cli_python_src(struct gl_kernel_src *k, const char *spec);
int gl_cli_python_command(const char *cmdname, struct gl_kernel_src *k);
int gl_cmd_validate(int argc, char **argv);
int gl_cmd_bench(int argc, char **argv);
/* The reference's start-up self-check (gl_ref_selfcheck) of sweep and validate, its verdict
 * kept in the store DIR (--store; make report's build/store): it depends only on what the head
 * of every store key holds (the engine's hash, which covers the reference; the C library, whose
 * libm it measures; the CPU, by which libm picks its code; the environment variables that can
 * change that), so a verdict under the same key text is taken instead of checking again (0.35 s
 * of MPFR in each of make report's sweeps and validates). DIR NULL: checked, not kept; fresh:
 * checked again, kept. Returns as gl_ref_selfcheck. */
long gl_cli_selfcheck(const char *dir, int fresh, char *msg, size_t msglen);

/* The path of the running gelulab executable ("" where /proc/self/exe cannot be read) */
const char *gl_cli_self_exe(void);
/* A file of gelulab's found relative to the running gelulab (cmd_bench.c): NAME beside it (the
 * build tree), else in INSTALLED, a folder relative to gelulab's ("../libexec/gelulab": an
 * install). 0 and its path in path; -1 when in neither (path: the place beside gelulab). where
 * says where it was looked for ("DIR/NAME nor DIR2/NAME"). */
int gl_cli_find_file(const char *name, const char *installed, char *path, size_t size, char *where,
                     size_t wsize);

/* Print "gelulab CMD: MESSAGE" on stderr and return 2 (usage/input error). */
int gl_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
