/* The kernel arguments the commands share (sweep, validate, facts): a built-in added to a sweep,
 * --backward, --abi, --python, and the probe of a --lib kernel's worker; and the reference's
 * self-check of sweep and validate, kept in the store */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "gelulab/impl.h"
#include "gelulab/json.h"
#include "gelulab/reference.h"
#include "gelulab/sha256.h"
#include "gelulab/store.h"
#include "gelulab/sweep.h"

struct gl_kernel_src *gl_cli_add_kernel(struct gl_sweep *s)
{
    struct gl_kernel_src *k = gl_sweep_add_kernel(s);
    k->defn = GL_DEFN_COUNT; /* must be given */
    return k;
}

const struct gl_impl *gl_cli_find_impl(const char *cmdname, const char *name)
{
    const struct gl_impl *k = gl_impl_find(name);
    if (k && strcmp(k->name, name))
        fprintf(stderr,
                "gelulab %s: note: '%s' is now named '%s' (the names before gelulab 0.2 are "
                "accepted until 0.3)\n",
                cmdname, name, k->name);
    return k;
}

/* Adds a built-in kernel; returns 0, 1 when skipped (not runnable here), -1 if unknown */
int gl_cli_add_builtin(struct gl_sweep *s, const struct gl_impl *im, int quiet)
{
    char cmd[1024];
    int f64 = s->fmt.id == GL_FMT_F64;
    const char *why = /* a built-in of another 16-bit format: --all's (--impl is refused before) */
        gl_kernel_abi_is16(im->abi) && gl_kernel_abi_format(im->abi) != s->fmt.id
            ? "a 16-bit kernel of another format"
        : f64 && !im->f64 ? "no binary64 version"
        : im->isa == GL_ISA_NEON && (f64 || !gl_impl_neon_command(im, cmd, sizeof cmd))
            ? "NEON needs qemu-aarch64 and the cross build (make deps)"
        : im->isa != GL_ISA_NEON && !gl_impl_available(im) ? "this CPU lacks its ISA"
                                                           : NULL;
    if (why) {
        if (!quiet) fprintf(stderr, "gelulab sweep: skipping %s: %s\n", im->name, why);
        return 1;
    }
    struct gl_kernel_src *k = gl_cli_add_kernel(s);
    snprintf(k->name, sizeof k->name, "%s", im->name);
    k->defn = im->defn;
    k->impl = im;
    k->f64 = f64;
    k->backward = gl_defn_is_grad(im->defn); /* NEON ones too (no function here) */
    k->abi = im->abi;
    k->kind = im->isa == GL_ISA_NEON ? GL_SRC_EXEC : GL_SRC_BUILTIN;
    if (im->isa == GL_ISA_NEON) gl_kernel_src_exec(k, cmd);
    return 0;
}

int gl_cli_set_backward(const char *cmdname, struct gl_kernel_src *k, int backward)
{
    if (gl_defn_is_grad(k->defn) && !backward)
        return gl_cli_error(cmdname, "--defn %s: a derivative needs --backward",
                            gl_defn_name(k->defn));
    k->backward = backward;
    if (backward) k->defn = gl_defn_grad_of(k->defn);
    return 0;
}

int gl_cli_check_abi(const char *cmdname, const struct gl_kernel_src *k, const struct gl_format *f)
{
    if (!gl_kernel_abi_is16(k->abi)) return 0;
    if (k->backward)
        return gl_cli_error(cmdname, "--abi %s: 16-bit kernels are forward kernels (no --backward)",
                            gl_kernel_abi_name(k->abi));
    if (gl_kernel_abi_format(k->abi) != f->id)
        return gl_cli_error(cmdname, "%s takes %s numbers (--abi %s): it needs --format %s, not %s",
                            k->name, gl_kernel_abi_name(k->abi), gl_kernel_abi_name(k->abi),
                            gl_kernel_abi_name(k->abi), f->name);
    return 0;
}

void gl_cli_python_src(struct gl_kernel_src *k, const char *spec)
{
    gl_kernel_src_serve(k, spec);
    k->python = 1;
}

/* s between single quotes for /bin/sh, into out (0), or -1 when it does not fit */
static int sh_quote(const char *s, char *out, size_t len)
{
    size_t o = 0;
    if (len < 3) return -1;
    out[o++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t pl = piece ? strlen(piece) : 1;
        if (o + pl + 2 > len) return -1;
        if (piece)
            memcpy(out + o, piece, pl);
        else
            out[o] = *s;
        o += pl;
    }
    out[o++] = '\'', out[o] = '\0';
    return 0;
}

int gl_cli_python_command(const char *cmdname, struct gl_kernel_src *k)
{
    if (!k->python) return 0;
    char spec[sizeof k->cmd], eval[4200], where[8500];
    snprintf(spec, sizeof spec, "%s", k->cmd);
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !colon[1])
        return gl_cli_error(cmdname, "--python %s: give FILE.py:FUNCTION", spec);
    char file[sizeof spec];
    snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
    if (access(file, R_OK) != 0)
        return gl_cli_error(cmdname, "--python %s: no file %s", spec, file);
    if (gl_cli_find_file("py_eval.py", GL_PRIVATE_DIR, eval, sizeof eval, where, sizeof where))
        return gl_cli_error(cmdname, "--python needs py_eval.py (neither %s): make install", where);
    const char *py = getenv("GELULAB_PYTHON");
    char qpy[1200], qeval[4300], qspec[sizeof k->cmd];
    if (sh_quote(py && *py ? py : "python3", qpy, sizeof qpy) ||
        sh_quote(eval, qeval, sizeof qeval) || sh_quote(spec, qspec, sizeof qspec) ||
        snprintf(k->cmd, sizeof k->cmd, "exec %s %s --serve%s%s%s --callable %s", qpy, qeval,
                 k->backward ? " --backward" : "", gl_kernel_abi_is16(k->abi) ? " --abi " : "",
                 gl_kernel_abi_is16(k->abi) ? gl_kernel_abi_name(k->abi) : "",
                 qspec) >= (int)sizeof k->cmd)
        return gl_cli_error(cmdname, "--python %s: the paths are too long", spec);
    return 0;
}

/* Checks a --lib kernel by running its worker on no input: a clear error, under the name of
 * the command that asked (sweep, validate), before any work. */
int gl_cli_probe_lib(const char *cmdname, const struct gl_sweep *s, const struct gl_kernel_src *k,
                     char *msg, size_t msglen)
{
    char why[1024], own[1600];
    if (gl_kernel_src_probe(&s->run, k, why, sizeof why) == 0) return 0;
    if (!msg) msg = own, msglen = sizeof own;
    snprintf(msg, msglen, "cannot use --lib %s --symbol %s: %s", k->lib_path, k->lib_symbol, why);
    return gl_cli_error(cmdname, "%s", msg);
}

/* The verdict in DIR/XX/KEY.selfcheck (its line, then the first disagreement's), KEY the SHA-256
 * of its key's text (DIR/XX/KEY.key): the head lines of every key of the store */
#define SELFCHECK_SCHEMA "gelulab-selfcheck/1"
#define SELFCHECK_TEXT   8192

long gl_cli_selfcheck(const char *dir, int fresh, char *msg, size_t msglen)
{
    struct gl_store_env env;
    char text[SELFCHECK_TEXT], key[65], sub[PATH_MAX + 8], path[PATH_MAX + 100], got[600], code[80],
        err[PATH_MAX + 20];
    gl_store_env_here(&env);
    snprintf(code, sizeof code, "engine %s", gl_store_code_hash("engine"));
    if (!dir || gl_store_head_text(SELFCHECK_SCHEMA, code, &env, text, sizeof text) != 0)
        return gl_ref_selfcheck(msg, msglen);
    struct gl_sha256 c;
    gl_sha256_init(&c);
    gl_sha256_add(&c, text, strlen(text));
    gl_sha256_hex(&c, key);
    snprintf(sub, sizeof sub, "%s/%.2s", dir, key);
    snprintf(path, sizeof path, "%s/%s.key", sub, key);
    char *old = fresh ? NULL : gl_json_read_file(path, err, sizeof err), *kept = NULL, *end;
    snprintf(path, sizeof path, "%s/%s.selfcheck", sub, key);
    if (old && !strcmp(old, text)) kept = gl_json_read_file(path, err, sizeof err);
    long bad = kept ? strtol(kept, &end, 10) : -1;
    if (kept && bad >= 0 && end > kept && *end == '\n') { /* the verdict, the disagreement */
        end[1 + strcspn(end + 1, "\n")] = '\0';
        if (msglen) snprintf(msg, msglen, "%s", end + 1);
        free(old), free(kept);
        return bad;
    }
    free(old), free(kept);
    char why[256]; /* the first disagreement, kept whatever msglen the caller gave */
    bad = gl_ref_selfcheck(why, sizeof why);
    if (msglen) snprintf(msg, msglen, "%s", why);
    snprintf(got, sizeof got, "%ld\n%s\n", bad, why);
    if ((mkdir(dir, 0777) == 0 || errno == EEXIST) && (mkdir(sub, 0777) == 0 || errno == EEXIST) &&
        gl_store_write_file(path, got, strlen(got)) == 0) {
        snprintf(path, sizeof path, "%s/%s.key", sub, key);
        gl_store_write_file(path, text, strlen(text)); /* the key last: its verdict is there */
    }
    return bad;
}
