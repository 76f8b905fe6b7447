/* A command's outputs kept between runs (include/gelulab/store.h): gelulab validate's diagnoses
 * and gelulab moons' experiment, whose make-report runs cost a minute or more each time and
 * depend on nothing a key cannot name. A record is DIR/XX/KEY.out (the standard output),
 * KEY.file (the result file), KEY.rc (the exit status) and KEY.key (the key's text), written in
 * that order, each through a temporary file: a record is taken only when its key text equals
 * the run's and the other three can be read. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gelulab/sha256.h"
#include "gelulab/store.h"

int gl_output_store_key(char *buf, size_t len, const char *what, int argc, char **argv,
                        const char *const *drop, const char *extra)
{
    struct gl_store_env env;
    char schema[64], code[120];
    const char *hash = gl_store_code_hash(what);
    if (!hash) return -1;
    gl_store_env_here(&env);
    snprintf(schema, sizeof schema, "gelulab-outputs/1 %s", what);
    snprintf(code, sizeof code, "%s %s", what, hash);
    if (gl_store_head_text(schema, code, &env, buf, len) != 0) return -1;
    size_t n = strlen(buf);
    if (gl_store_args_text(argc, argv, drop, buf + n, len - n) != 0) return -1;
    n += strlen(buf + n);
    if (strlen(extra) >= len - n) return -1;
    memcpy(buf + n, extra, strlen(extra) + 1);
    return 0;
}

/* a record's place and the run's captured output */
struct output_store {
    char path[4200];  /* DIR/XX/KEY, without the extension */
    const char *text; /* the key's text */
    int saved_fd;     /* stdout while it is captured, else -1 */
    char tmp[4300];   /* the captured stdout's file */
};

/* The record of key text `text` in DIR (made if missing). 0, or -1 with a reason in err */
static int store_open(struct output_store *o, const char *dir, const char *text, char *err,
                      size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->saved_fd = -1, o->text = text;
    char key[65], sub[4200];
    struct gl_sha256 c;
    gl_sha256_init(&c);
    gl_sha256_add(&c, text, strlen(text));
    gl_sha256_hex(&c, key);
    if (strlen(dir) > 4000) return snprintf(err, errlen, "store path too long: %s", dir), -1;
    snprintf(sub, sizeof sub, "%s/%.2s", dir, key);
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || (mkdir(sub, 0777) != 0 && errno != EEXIST))
        return snprintf(err, errlen, "cannot make the store %s: %s", sub, strerror(errno)), -1;
    snprintf(o->path, sizeof o->path, "%s/%s", sub, key);
    return 0;
}

/* the whole of file `path` (NUL-terminated; *n its length), or NULL */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *b = malloc(cap + 1);
    for (size_t r; b && (r = fread(b + len, 1, cap - len, f)) > 0;) {
        len += r;
        if (len == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) free(b);
            b = nb, cap *= 2;
        }
    }
    int bad = !b || ferror(f);
    fclose(f);
    if (bad) return free(b), NULL;
    b[len] = '\0';
    if (n) *n = len;
    return b;
}

static void ext(const struct output_store *o, const char *e, char *buf, size_t len)
{
    snprintf(buf, len, "%s.%s", o->path, e);
}

/* 1 when the record is there: its output printed, its file copied to `file`, *rc its status */
static int store_take(const struct output_store *o, const char *file, int *rc)
{
    char p[4300];
    size_t nout = 0, nfile = 0;
    ext(o, "key", p, sizeof p);
    char *key = slurp(p, NULL), *out = NULL, *res = NULL, *code = NULL;
    int hit = key && !strcmp(key, o->text);
    if (hit) ext(o, "out", p, sizeof p), hit = (out = slurp(p, &nout)) != NULL;
    if (hit && file) ext(o, "file", p, sizeof p), hit = (res = slurp(p, &nfile)) != NULL;
    if (hit) ext(o, "rc", p, sizeof p), hit = (code = slurp(p, NULL)) != NULL;
    char *end = NULL;
    long v = hit ? strtol(code, &end, 10) : -1;
    hit = hit && end != code && *end == '\n' && v >= 0 && v < 256;
    if (hit && file && gl_store_write_file(file, res, nfile) != 0) hit = 0;
    if (hit) fwrite(out, 1, nout, stdout), fflush(stdout), *rc = (int)v;
    free(key), free(out), free(res), free(code);
    return hit;
}

/* stdout into a temporary file from here on. 0, or -1 */
static int store_capture(struct output_store *o)
{
    fflush(stdout);
    snprintf(o->tmp, sizeof o->tmp, "%s.%ld.stdout", o->path, (long)getpid());
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return -1;
    o->saved_fd = dup(1);
    if (o->saved_fd < 0 || dup2(fd, 1) < 0) {
        close(fd), unlink(o->tmp);
        if (o->saved_fd >= 0) close(o->saved_fd);
        return o->saved_fd = -1;
    }
    close(fd);
    return 0;
}

/* stdout back, the captured output printed, and when keep the record written: the output, the
 * result file, rc, the key. 0, or -1 with the file that could not be written in err */
static int store_put(struct output_store *o, const char *file, int rc, int keep, char *err,
                     size_t errlen)
{
    int bad = 0;
    char *out = NULL, *res = NULL, p[4300];
    size_t nout = 0, nres = 0;
    if (o->saved_fd >= 0) { /* stdout back, and what it said printed */
        fflush(stdout);
        dup2(o->saved_fd, 1), close(o->saved_fd), o->saved_fd = -1;
        out = slurp(o->tmp, &nout);
        unlink(o->tmp);
        if (out) fwrite(out, 1, nout, stdout), fflush(stdout);
        keep = keep && out;
    } else {
        keep = 0;
    }
    if (keep && file) keep = (res = slurp(file, &nres)) != NULL;
    if (keep) {
        char code[16];
        int n = snprintf(code, sizeof code, "%d\n", rc);
        ext(o, "out", p, sizeof p), bad = gl_store_write_file(p, out, nout) != 0;
        if (!bad && file) ext(o, "file", p, sizeof p), bad = gl_store_write_file(p, res, nres) != 0;
        if (!bad) ext(o, "rc", p, sizeof p), bad = gl_store_write_file(p, code, (size_t)n) != 0;
        if (!bad)
            ext(o, "key", p, sizeof p), bad = gl_store_write_file(p, o->text, strlen(o->text)) != 0;
        if (bad) snprintf(err, errlen, "cannot write %s", p);
    }
    free(out), free(res);
    return bad ? -1 : 0;
}

int gl_output_store_run(const char *cmd, const char *dir, int fresh, const char *text,
                        const char *file, int keep_max, int (*run)(void *), void *arg, int *rc,
                        char *err, size_t errlen)
{
    struct output_store o;
    if (store_open(&o, dir, text, err, errlen) != 0) return -1;
    if (!fresh && store_take(&o, file, rc)) return 1;
    int captured = store_capture(&o) == 0;
    *rc = run(arg);
    char why[300];
    if (store_put(&o, file, *rc, captured && *rc >= 0 && *rc <= keep_max, why, sizeof why) != 0)
        fprintf(stderr, "gelulab %s: store: %s (the results stand)\n", cmd, why);
    return 0;
}
