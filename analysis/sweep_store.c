/* The sweep store (include/gelulab/store.h; docs/result-format.md, "The sweep store"): a
 * record per kernel and key, DIR/XX/KEY.json (a result file of that kernel alone, read back by
 * gl_sweep_read, which loses nothing: gelulab merge's rule) beside DIR/XX/KEY.key (the key's
 * text), XX the key's first two hex digits. Wrong reuse is the one failure this must never
 * have: what cannot be identified (a file the key names that cannot be read, ldd failing on a
 * library) is not stored, and a record is taken only when its key text, header and kernel all
 * match. */
#include <errno.h>
#include <ftw.h>
#include <gmp.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <mpfr.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gelulab/sha256.h"
#include "gelulab/store.h"
#include "gl_engine_hash.h" /* generated: cmake/code_hash.cmake */

/* The store's version: raised on any change to what a record holds or how it is read or
 * written here (this file is not in GL_ENGINE_HASH; the keys' text says what they hold) */
#define STORE_SCHEMA "gelulab-store/1"
#define TREE_MAX     200000 /* files a folder's identity may list (more: not identified) */

/* Environment variables that can change a kernel's results (the C library's or a framework's
 * choice of code path, what is loaded): each one set is a line of every key */
static const char *const env_vars[] = {"GLIBC_TUNABLES",
                                       "LD_PRELOAD",
                                       "LD_LIBRARY_PATH",
                                       "PYTHONPATH",
                                       "PYTHONHOME",
                                       "NODE_PATH",
                                       "NODE_OPTIONS",
                                       "ONEDNN_MAX_CPU_ISA",
                                       "DNNL_MAX_CPU_ISA",
                                       "ONEDNN_DEFAULT_FPMATH_MODE",
                                       "MKL_ENABLE_INSTRUCTIONS",
                                       "MKL_CBWR",
                                       "ATEN_CPU_CAPABILITY",
                                       "TF_ENABLE_ONEDNN_OPTS",
                                       "XLA_FLAGS",
                                       "JAX_ENABLE_X64",
                                       "JAX_PLATFORMS",
                                       "JAX_DEFAULT_MATMUL_PRECISION",
                                       "OMP_NUM_THREADS"};
#define KEY_TEXT_MAX (1 << 16)

void gl_store_env_here(struct gl_store_env *e)
{
    snprintf(e->engine, sizeof e->engine, "%s", GL_ENGINE_HASH);
    snprintf(e->libs, sizeof e->libs, "mpfr %s gmp %s libc %s", mpfr_get_version(), gmp_version,
             gnu_get_libc_version());
    gl_machine_cpu(&e->cpu);
}

const char *gl_store_code_hash(const char *what)
{
    return !strcmp(what, "engine")   ? GL_ENGINE_HASH
           : !strcmp(what, "probes") ? GL_PROBES_HASH
           : !strcmp(what, "moons")  ? GL_MOONS_HASH
                                     : NULL;
}

/* ---- the key's text ---- */

struct text {
    char *p;
    size_t len, cap;
    int bad; /* too long, or something it names could not be identified */
};

__attribute__((format(printf, 2, 3))) static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = t->len < t->cap ? vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap) : -1;
    va_end(ap);
    if (n < 0 || (size_t)n >= t->cap - t->len)
        t->bad = 1, t->len = t->cap ? t->cap - 1 : 0;
    else
        t->len += (size_t)n;
}

int gl_store_args_text(int argc, char **argv, const char *const *drop, char *buf, size_t len)
{
    struct text t = {buf, 0, len, 0};
    put(&t, "args");
    for (int i = 1; i < argc; i++) {
        int skip = 0;
        for (const char *const *d = drop; *d && !skip; d++) {
            size_t n = strlen(*d), val = n && (*d)[n - 1] == '=';
            skip = strlen(argv[i]) == n - val && !strncmp(argv[i], *d, n - val) ? 1 + (int)val : 0;
        }
        if (skip) {
            i += skip - 1;
            continue;
        }
        put(&t, " [%s]", argv[i]);
    }
    put(&t, "\n");
    return t.bad ? -1 : 0;
}

/* The identities computed in this process (a library's many kernels, one evaluator's): a
 * file's lines of the key, a folder's hash */
struct known {
    char what[PATH_MAX + 8], *text;
};
static struct known known[64];
static int nknown;

static const char *known_get(const char *what)
{
    for (int i = 0; i < nknown; i++)
        if (!strcmp(known[i].what, what)) return known[i].text;
    return NULL;
}

static const char *known_add(const char *what, const char *text)
{
    struct known *k = &known[nknown < 64 ? nknown++ : 63];
    free(k->text);
    snprintf(k->what, sizeof k->what, "%s", what);
    return k->text = strdup(text);
}

/* A folder's files as "PATH SIZE MTIME" lines (paths relative to it), sorted, hashed;
 * Python's byte code caches left out */
static char **tree_line;
static size_t tree_n, tree_cap, tree_root;
static int tree_bad;

static int tree_visit(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    const char *base = path + f->base;
    size_t bl = strlen(base);
    /* what Python writes as it imports (not the code: the sources beside it are) */
    if (flag == FTW_D && !strcmp(base, "__pycache__")) return FTW_SKIP_SUBTREE;
    if (flag == FTW_F && bl > 4 && !strcmp(base + bl - 4, ".pyc")) return FTW_CONTINUE;
    if (flag == FTW_DNR || flag == FTW_NS || tree_n >= TREE_MAX) return tree_bad = 1, FTW_STOP;
    char target[PATH_MAX] = "";
    if (flag == FTW_SL) { /* a link: where it points */
        ssize_t n = readlink(path, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
    } else if (flag != FTW_F)
        return FTW_CONTINUE;
    if (tree_n == tree_cap) {
        tree_cap = tree_cap ? 2 * tree_cap : 1024;
        char **p = realloc(tree_line, tree_cap * sizeof *p);
        if (!p) return tree_bad = 1, FTW_STOP;
        tree_line = p;
    }
    if (asprintf(&tree_line[tree_n], "%s %lld %lld.%09ld%s%s", path + tree_root,
                 (long long)st->st_size, (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec,
                 target[0] ? " -> " : "", target) < 0)
        return tree_bad = 1, FTW_STOP;
    tree_n++;
    return FTW_CONTINUE;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *tree_hash(const char *dir)
{
    char what[PATH_MAX + 8];
    snprintf(what, sizeof what, "tree:%s", dir);
    const char *h = known_get(what);
    if (h) return h;
    tree_n = 0, tree_bad = !strcmp(dir, "/"), tree_root = strlen(dir) + 1;
    if (!tree_bad && nftw(dir, tree_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL) != 0) tree_bad = 1;
    qsort(tree_line, tree_n, sizeof *tree_line, cmp_str);
    struct gl_sha256 c;
    gl_sha256_init(&c);
    for (size_t i = 0; i < tree_n; i++) {
        gl_sha256_add(&c, tree_line[i], strlen(tree_line[i]) + 1);
        free(tree_line[i]);
    }
    free(tree_line);
    tree_line = NULL, tree_cap = 0;
    char hex[65];
    gl_sha256_hex(&c, hex);
    return tree_bad ? NULL : known_add(what, hex);
}

static void lib_deps(struct text *t, const char *path);

static int is_elf(const char *path);

/* A file's lines of the key: its content's hash and, for an ELF file, what it loads; NULL when
 * it cannot be identified */
static const char *file_identity(const char *real)
{
    char what[PATH_MAX + 8], hex[65];
    snprintf(what, sizeof what, "file:%s", real);
    const char *known_text = known_get(what);
    if (known_text) return known_text;
    if (gl_sha256_file(real, hex) != 0) return NULL;
    /* as long as a key may be: libtorch's 286 libraries take 23 KB */
    char *buf = malloc(KEY_TEXT_MAX);
    struct text ft = {buf, 0, buf ? KEY_TEXT_MAX : 0, !buf};
    put(&ft, "file %s sha256 %s\n", real, hex);
    if (is_elf(real)) lib_deps(&ft, real); /* an executable's or a library's shared libraries */
    const char *id = ft.bad ? NULL : known_add(what, buf);
    free(buf);
    return id;
}

static int is_elf(const char *path)
{
    unsigned char m[4] = {0};
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(m, 1, 4, f) : 0;
    if (f) fclose(f);
    return n == 4 && !memcmp(m,
                             "\x7f"
                             "ELF",
                             4);
}

/* The line "WHAT DIR tree H" of a folder */
static void put_tree(struct text *t, const char *what, const char *dir)
{
    const char *h = tree_hash(dir);
    if (!h) t->bad = 1;
    put(t, "%s %s tree %s\n", what, dir, h ? h : "?");
}

/* A word of a command that names a file or a folder: its identity (a file: its content; a
 * folder: its tree; a Python environment's interpreter: the environment's tree too) */
static void word_identity(struct text *t, const char *word)
{
    char real[PATH_MAX], w[PATH_MAX];
    struct stat st;
    snprintf(w, sizeof w, "%s", word);
    if (stat(w, &st) != 0) { /* FILE.py:FUNC (--python) */
        char *colon = strrchr(w, ':');
        if (!colon) return;
        *colon = '\0';
        if (stat(w, &st) != 0) return;
    }
    if (!realpath(w, real)) return (void)(t->bad = 1);
    if (S_ISDIR(st.st_mode)) return put_tree(t, "folder", real);
    if (!S_ISREG(st.st_mode)) return;
    const char *id = file_identity(real);
    if (!id) t->bad = 1;
    put(t, "%s", id ? id : "file ? (unreadable)\n");
    /* an interpreter in a Python virtual environment (DIR/bin/python, DIR/pyvenv.cfg) */
    char venv[PATH_MAX + 16];
    char *slash = strrchr(w, '/');
    if (!slash) return;
    *slash = '\0';
    slash = strrchr(w, '/');
    if (!slash || strcmp(slash, "/bin") != 0) return;
    *slash = '\0';
    snprintf(venv, sizeof venv, "%s/pyvenv.cfg", w);
    if (access(venv, R_OK) == 0 && realpath(w, real)) put_tree(t, "python_env", real);
}

/* The program a command names without a folder, found on PATH as /bin/sh would: its path into
 * buf, 0; -1 when not found */
static int on_path(const char *name, char *buf, size_t len)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, len, "%.*s/%s", (int)n, p, name);
        if (n && access(buf, X_OK) == 0) return 0;
        p += n + (p[n] == ':');
    }
    return -1;
}

/* The words of a /bin/sh command ('...', "...", backslashes), each identified; the program
 * (the first word but `exec`; program 0: no program, the arguments that name a kernel to a
 * serving library's process) found on PATH when it names no folder, and not identified when
 * not found there */
static void command_identity(struct text *t, const char *cmd, int program)
{
    char word[PATH_MAX], prog[PATH_MAX + 8];
    const char *p = cmd;
    for (int first = program;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        if (!*p) return;
        size_t n = 0;
        char q = 0;
        for (; *p && (q || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
            if (!q && (*p == '\'' || *p == '"')) {
                q = *p;
                continue;
            }
            if (q && *p == q) {
                q = 0;
                continue;
            }
            if (q != '\'' && *p == '\\' && p[1]) p++;
            if (n + 1 < sizeof word) word[n++] = *p;
        }
        word[n] = '\0';
        if (first && strcmp(word, "exec") != 0) {
            first = 0;
            if (!strchr(word, '/')) {
                if (on_path(word, prog, sizeof prog) != 0) t->bad = 1;
                word_identity(t, prog);
                continue;
            }
        }
        word_identity(t, word);
    }
}

/* The libraries an ELF file loads (ldd): path, size and modification time each (a static
 * executable: none) */
static void lib_deps(struct text *t, const char *path)
{
    if (strchr(path, '\'')) return (void)(t->bad = 1);
    char cmd[PATH_MAX + 64], line[PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "ldd -- '%s' 2>&1", path);
    FILE *f = popen(cmd, "r");
    if (!f) return (void)(t->bad = 1);
    int deps = 0, is_static = 0;
    while (fgets(line, sizeof line, f)) {
        is_static |= strstr(line, "not a dynamic executable") || strstr(line, "statically linked");
        char *arrow = strstr(line, "=> "), *dep = arrow ? arrow + 3 : line + strspn(line, " \t");
        if (*dep != '/') {
            if (strstr(line, "not found")) put(t, "needs %s", line + strspn(line, " \t"));
            continue;
        }
        dep[strcspn(dep, " (\n")] = '\0';
        struct stat st;
        if (stat(dep, &st) != 0) {
            t->bad = 1;
            continue;
        }
        put(t, "loads %s %lld %lld.%09ld\n", dep, (long long)st.st_size,
            (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
        deps++;
    }
    int rc = pclose(f);
    if (!is_static && (rc != 0 || deps == 0)) t->bad = 1; /* ldd missing or failing */
}

static const char *kind_word(enum gl_src_kind k)
{
    return k == GL_SRC_BUILTIN ? "builtin"
           : k == GL_SRC_LIB   ? "lib"
           : k == GL_SRC_EXEC  ? "exec"
                               : "serve";
}

static void shard_range(const struct gl_sweep *s, uint64_t *lo, uint64_t *hi)
{
    gl_sweep_shard_chunks(s, s->shard_k, s->shard_n, lo, hi);
}

/* the lines every key starts with: the schema, the code's hash, the libraries, the CPU */
static void env_lines(struct text *t, const char *schema, const char *code,
                      const struct gl_store_env *env)
{
    put(t, "%s\n%s\n%s\ncpu %s | %s\ncpu_flags %s\n", schema, code, env->libs, env->cpu.id,
        env->cpu.model, env->cpu.flags);
}

/* the environment variables set that can change a kernel's results */
static void env_var_lines(struct text *t)
{
    for (size_t i = 0; i < sizeof env_vars / sizeof *env_vars; i++)
        if (getenv(env_vars[i])) put(t, "env %s=%s\n", env_vars[i], getenv(env_vars[i]));
}

static void kernel_lines(struct text *t, const struct gl_kernel_src *ks);

int gl_store_key_text(const struct gl_sweep *s, int k, const struct gl_store_env *env, char *buf,
                      size_t len)
{
    struct text t = {buf, 0, len, 0};
    const struct gl_kernel_src *ks = &s->k[k];
    uint64_t lo, hi;
    char code[80];
    shard_range(s, &lo, &hi);
    snprintf(code, sizeof code, "engine %s", env->engine);
    env_lines(&t, STORE_SCHEMA, code, env);
    put(&t, "sweep %s %s inputs %llu chunk_size %llu chunks %llu range %llu %llu reference %s\n",
        s->fmt.name, gl_sweep_mode_name(s->mode), (unsigned long long)s->n_inputs,
        (unsigned long long)s->chunk_size, (unsigned long long)s->n_chunks, (unsigned long long)lo,
        (unsigned long long)hi, s->use_fast_ref ? "fast" : "mpfr");
    env_var_lines(&t);
    if (s->mode == GL_SWEEP_HUNT) /* a hunt's climbs draw their inputs by the kernel's place */
        put(&t, "hunt %llu %d %d position %d\n", (unsigned long long)s->hunt_per, s->hunt_lo,
            s->hunt_hi, k);
    put(&t, "roots");
    for (int r = 0; r < s->nroot; r++) put(&t, " %a", s->root[r]);
    put(&t, "\n");
    kernel_lines(&t, ks);
    return t.bad ? -1 : 0;
}

int gl_store_head_text(const char *schema, const char *code, const struct gl_store_env *env,
                       char *buf, size_t len)
{
    struct text t = {buf, 0, len, 0};
    env_lines(&t, schema, code, env);
    env_var_lines(&t);
    return t.bad ? -1 : 0;
}

int gl_store_kernel_text(const struct gl_kernel_src *ks, char *buf, size_t len)
{
    struct text t = {buf, 0, len, 0};
    kernel_lines(&t, ks);
    return t.bad ? -1 : 0;
}

/* what identifies kernel ks: its name, definition, source, ABI and code */
static void kernel_lines(struct text *t, const struct gl_kernel_src *ks)
{
    put(t, "kernel %s\ndefn %s source %s abi %s backward %d f64 %d python %d\n", ks->name,
        gl_defn_name(ks->defn), kind_word(ks->kind), gl_kernel_abi_name(ks->abi), ks->backward,
        ks->f64, ks->python);
    if (ks->impl) /* a built-in (NEON builds run as a command: its evaluator's file too) */
        put(t, "builtin %s code %s\n", ks->impl->name,
            ks->impl->code_hash ? ks->impl->code_hash : (t->bad = 1, "?"));
    if (ks->kind == GL_SRC_LIB) {
        put(t, "symbol %s\n", ks->lib_path[0] ? ks->lib_symbol : "?");
        word_identity(t, ks->lib_path); /* its content and (ELF) what it loads */
        if (access(ks->lib_path, R_OK) != 0 || !is_elf(ks->lib_path)) t->bad = 1;
    } else if (ks->kind == GL_SRC_EXEC || ks->kind == GL_SRC_SERVE) {
        put(t, "command %s\n", ks->cmd);
        command_identity(t, ks->cmd, !ks->serve_lib[0]);
        if (ks->serve_lib[0]) {
            put(t, "serve_lib %s\n", ks->serve_lib);
            command_identity(t, ks->serve_lib, 1);
        }
    } else if (!ks->impl)
        t->bad = 1;
}

/* ---- records ---- */

static void record_path(const struct gl_store *st, int k, const char *ext, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%.2s/%s%s", st->dir, st->key[k], st->key[k], ext);
}

/* "" when rec (a record read) holds kernel k's results over s's chunks, else why not */
static const char *record_mismatch(const struct gl_sweep *s, int k, const struct gl_sweep *rec)
{
    const struct gl_kernel_src *a = &s->k[k], *b = rec->k;
    uint64_t lo, hi;
    shard_range(s, &lo, &hi);
    if (rec->fmt.id != s->fmt.id || rec->mode != s->mode || rec->n_inputs != s->n_inputs ||
        rec->n_chunks != s->n_chunks || rec->chunk_size != s->chunk_size)
        return "another input space";
    if (s->mode == GL_SWEEP_HUNT &&
        (rec->hunt_per != s->hunt_per || rec->hunt_lo != s->hunt_lo || rec->hunt_hi != s->hunt_hi))
        return "another hunt";
    for (uint64_t c = 0; c < s->n_chunks; c++)
        if (rec->chunk_done[c] != (c >= lo && c < hi)) return "other chunks";
    if (rec->nk != 1 || strcmp(a->name, b->name) || a->defn != b->defn || a->kind != b->kind ||
        a->backward != b->backward || a->abi != b->abi)
        return "another kernel";
    if (rec->res[0].failed || rec->res[0].chunks_ok != hi - lo) return "an incomplete result";
    return "";
}

static int read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, len - 1, f);
    int bad = ferror(f) || !feof(f);
    fclose(f);
    buf[n] = '\0';
    return bad ? -1 : 0;
}

int gl_store_take(struct gl_store *st, struct gl_sweep *s, const char *dir, int fresh,
                  const struct gl_store_env *env, char *err, size_t errlen)
{
    struct gl_store_env here;
    if (!env) gl_store_env_here(&here), env = &here;
    memset(st, 0, sizeof *st);
    st->dir = dir, st->fresh = fresh, st->nk = s->nk;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return snprintf(err, errlen, "cannot make the store %s: %s", dir, strerror(errno)), -1;
    gl_sweep_layout(s);
    gl_sweep_find_roots(s);
    st->key = calloc((size_t)s->nk + 1, sizeof *st->key);
    st->hit = calloc((size_t)s->nk + 1, sizeof *st->hit);
    st->text = calloc((size_t)s->nk + 1, sizeof *st->text);
    char *text = malloc(KEY_TEXT_MAX), *old = malloc(KEY_TEXT_MAX);
    if (!st->key || !st->hit || !st->text || !text || !old) {
        free(text), free(old), free(st->key), free(st->hit), free(st->text);
        memset(st, 0, sizeof *st);
        return snprintf(err, errlen, "out of memory"), -1;
    }
    for (int k = 0; k < s->nk; k++) {
        if (gl_store_key_text(s, k, env, text, KEY_TEXT_MAX) != 0) {
            fprintf(stderr,
                    "gelulab sweep: store: %s cannot be identified (a file it names "
                    "unreadable, or ldd failed): swept, not stored\n",
                    s->k[k].name);
            continue;
        }
        struct gl_sha256 c;
        gl_sha256_init(&c);
        gl_sha256_add(&c, text, strlen(text));
        gl_sha256_hex(&c, st->key[k]);
        st->text[k] = strdup(text);
        char path[PATH_MAX + 80], why[400];
        record_path(st, k, ".key", path, sizeof path);
        if (fresh || read_text(path, old, KEY_TEXT_MAX) != 0) continue; /* not stored */
        record_path(st, k, ".json", path, sizeof path);
        struct gl_sweep *rec = &st->hit[k];
        const char *bad = strcmp(old, text) ? "its key text differs"
                          : gl_sweep_read(rec, path, why, sizeof why) != 0
                              ? why
                              : record_mismatch(s, k, rec);
        if (*bad) {
            fprintf(stderr, "gelulab sweep: store: the record of %s (%s) is not used: %s\n",
                    s->k[k].name, path, bad);
            gl_sweep_free(rec);
            memset(rec, 0, sizeof *rec);
            continue;
        }
        s->res[k].reused = 1;
        st->reused++;
    }
    free(text), free(old);
    return 0;
}

int gl_store_write_file(const char *path, const char *bytes, size_t n)
{
    char tmp[PATH_MAX + 100];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int bad = !f || fwrite(bytes, 1, n, f) != n;
    bad |= f && fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) return unlink(tmp), -1;
    return 0;
}

static int save_record(const struct gl_store *st, const struct gl_sweep *s, int k, const char *text,
                       char *err, size_t errlen)
{
    char sub[PATH_MAX + 8], path[PATH_MAX + 80], tmp[PATH_MAX + 100];
    snprintf(sub, sizeof sub, "%s/%.2s", st->dir, st->key[k]);
    if (mkdir(sub, 0777) != 0 && errno != EEXIST)
        return snprintf(err, errlen, "cannot make %s: %s", sub, strerror(errno)), -1;
    struct gl_sweep one = *s;
    one.k = &s->k[k], one.res = &s->res[k], one.nk = 1;
    record_path(st, k, ".json", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (gl_sweep_write_json(&one, tmp, err, errlen) != 0 || rename(tmp, path) != 0)
        return unlink(tmp), snprintf(err, errlen, "cannot write %s", path), -1;
    record_path(st, k, ".key", path, sizeof path);
    if (gl_store_write_file(path, text, strlen(text)) != 0)
        return snprintf(err, errlen, "cannot write %s", path), -1;
    return 0;
}

int gl_store_put(struct gl_store *st, struct gl_sweep *s, char *err, size_t errlen)
{
    uint64_t lo, hi;
    shard_range(s, &lo, &hi);
    int all = !s->interrupted, rc = 0;
    for (uint64_t c = lo; c < hi && all; c++) all = s->chunk_done && s->chunk_done[c];
    for (int k = 0; k < st->nk && k < s->nk; k++) {
        struct gl_kernel_result *ks = &s->res[k];
        if (ks->reused && !all) { /* the file's chunks are part of the space: it ran on none */
            ks->failed = 1;
            snprintf(ks->error, sizeof ks->error,
                     "%s: not measured: the sweep stopped before its results were taken from the "
                     "store (rerun it)",
                     s->k[k].name);
            continue;
        }
        if (ks->reused) {
            struct gl_kernel_result *r = st->hit[k].res;
            for (int a = 0; a < 2; a++) free(ks->acc[a]), ks->acc[a] = r->acc[a], r->acc[a] = NULL;
            ks->chunks_ok = r->chunks_ok, ks->failed = 0, ks->error[0] = '\0';
            continue;
        }
        if (!st->text[k] || ks->failed || !all || ks->chunks_ok != hi - lo) continue;
        if (rc == 0 && save_record(st, s, k, st->text[k], err, errlen) != 0) rc = -1;
        st->saved += rc == 0;
    }
    for (int k = 0; k < st->nk; k++) gl_sweep_free(&st->hit[k]), free(st->text[k]);
    free(st->hit), free(st->key), free(st->text);
    st->hit = NULL, st->key = NULL, st->text = NULL;
    return rc;
}
