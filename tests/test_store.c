/* The sweep store (analysis/sweep_store.c) and SHA-256 (analysis/sha256.c).
 *
 * SHA-256 gives FIPS 180-4's example digests, whole and fed in pieces. A bfloat16 sweep of two
 * built-in kernels (gelu-fast/scalar, gelu-erf-naive: every 65 536 input) through an empty store
 * saves both; the same sweep again takes both from it and writes a result file byte-identical to a
 * sweep without the store (and to the first). Then each thing a key holds is changed in turn,
 * and the store must give nothing that no longer matches: another engine (the reference and
 * the engine's code), other MPFR/GMP/C-library versions, another CPU model, other CPU flags,
 * another code hash of one kernel (that kernel alone swept again), another format. A build taken
 * from the store beside its twin that is swept (the engine's leads and followers) gives the
 * same bytes too. A record
 * whose file was cut short, holds another format or whose key text differs is not used (and is
 * swept again, the same bytes). A sweep stopped before its first chunk leaves the stored
 * kernels unmeasured (failed, said why) and saves nothing; a hunt's key holds the kernel's place.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "gelulab/sha256.h"
#include "gelulab/store.h"

static void sha_check(const char *msg, size_t reps, const char *want)
{
    char hex[65], hex2[65];
    struct gl_sha256 c, d;
    gl_sha256_init(&c), gl_sha256_init(&d);
    size_t len = strlen(msg);
    for (size_t r = 0; r < reps; r++) gl_sha256_add(&c, msg, len);
    gl_sha256_hex(&c, hex);
    CHECK(!strcmp(hex, want), "sha256(%.20s x %zu) = %s, want %s", msg, reps, hex, want);
    /* the same bytes in pieces of 1, 7, 63, 64, 65 ... bytes */
    static const size_t piece[] = {1, 7, 63, 64, 65, 128, 1000};
    size_t total = len * reps, at = 0;
    char *all = malloc(total + 1);
    for (size_t r = 0; r < reps; r++) memcpy(all + r * len, msg, len);
    for (int i = 0; at < total; i = (i + 1) % 7) {
        size_t n = piece[i] < total - at ? piece[i] : total - at;
        gl_sha256_add(&d, all + at, n);
        at += n;
    }
    gl_sha256_hex(&d, hex2);
    CHECK(!strcmp(hex2, want), "sha256 in pieces (%.20s) = %s, want %s", msg, hex2, want);
    free(all);
}

static const char *dir;

static void add_builtin(struct gl_sweep *s, const struct gl_impl *im)
{
    struct gl_kernel_src *k = gl_sweep_add_kernel(s);
    snprintf(k->name, sizeof k->name, "%s", im->name);
    k->defn = im->defn, k->impl = im, k->kind = GL_SRC_BUILTIN;
}

/* A bfloat16 (or fmt) sweep of a and b through the store (NULL: none) with env; writes out;
 * returns how many kernels the store gave */
static int sweep(const struct gl_impl *a, const struct gl_impl *b, struct gl_format fmt,
                 const char *store, const struct gl_store_env *env, const char *out)
{
    struct gl_sweep s = {0};
    s.fmt = fmt, s.mode = GL_SWEEP_EXHAUSTIVE, s.threads = 2, s.shard_k = s.shard_n = 1;
    s.run.timeout_s = 60, s.use_fast_ref = 1;
    add_builtin(&s, a), add_builtin(&s, b);
    struct gl_store st;
    char err[600];
    int reused = 0;
    if (store) {
        CHECK(gl_store_take(&st, &s, store, 0, env, err, sizeof err) == 0, "take: %s", err);
        reused = st.reused;
    }
    CHECK(gl_sweep_run(&s) == 0, "sweep ran");
    if (store) CHECK(gl_store_put(&st, &s, err, sizeof err) == 0, "put: %s", err);
    CHECK(gl_sweep_write(&s, out, err, sizeof err) == 0, "write %s: %s", out, err);
    gl_sweep_free(&s);
    return reused;
}

static int same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g, ca, cb;
    while (same && ((ca = fgetc(f)) != EOF) | ((cb = fgetc(g)) != EOF)) same = ca == cb;
    if (f) fclose(f);
    if (g) fclose(g);
    return same;
}

static void same_results(const char *a, const char *b)
{
    static const char *const ext[] = {".json", ".binades.csv", ".hist.csv"};
    for (int i = 0; i < 3; i++) {
        char pa[512], pb[512];
        snprintf(pa, sizeof pa, "%s/%s%s", dir, a, ext[i]);
        snprintf(pb, sizeof pb, "%s/%s%s", dir, b, ext[i]);
        CHECK(same_file(pa, pb), "%s and %s differ", pa, pb);
    }
}

/* replaces the first `from` in the file by `to`; 1 when done */
static int replace_in(const char *file, const char *from, const char *to)
{
    static char buf[1 << 20], out[1 << 20];
    FILE *f = fopen(file, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    char *at = strstr(buf, from);
    if (!at) return 0;
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - buf), buf, to, at + strlen(from));
    f = fopen(file, "w");
    int ok = f && fputs(out, f) >= 0;
    return f && fclose(f) == 0 && ok;
}

static char *path(const char *name)
{
    static char p[8][512];
    static int i;
    i = (i + 1) % 8;
    snprintf(p[i], sizeof p[i], "%s/%s", dir, name);
    return p[i];
}

int main(void)
{
    sha_check("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha_check("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha_check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha_check("a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    char tmpl[] = "/tmp/gl_store_XXXXXX";
    dir = mkdtemp(tmpl);
    CHECK(dir != NULL, "temporary folder");
    if (!dir) return gl_check_summary("test_store");
    const struct gl_impl *fast = gl_impl_find("gelu-fast/scalar"),
                         *erf = gl_impl_find("gelu-erf-naive");
    CHECK(fast && erf && fast->code_hash && strlen(fast->code_hash) == 64,
          "the registry has gelu-fast/scalar and gelu-erf-naive with their code hashes");
    CHECK(strcmp(fast->code_hash, erf->code_hash) != 0,
          "two kernels of different code: two hashes");
    CHECK(!strcmp(fast->code_hash, gl_impl_find("gelu-fast/avx2")->code_hash),
          "the builds of one algorithm share its sources' hash");
    struct gl_store_env here, e;
    gl_store_env_here(&here);
    char st[512];
    snprintf(st, sizeof st, "%s/store", dir);
    struct gl_format bf16 = gl_format_bf16, f16 = gl_format_f16;

    CHECK(sweep(fast, erf, bf16, NULL, NULL, path("plain.json")) == 0, "no store");
    CHECK(sweep(fast, erf, bf16, st, &here, path("first.json")) == 0, "an empty store gives none");
    CHECK(sweep(fast, erf, bf16, st, &here, path("again.json")) == 2, "a rerun takes both");
    same_results("plain", "first"), same_results("plain", "again");

    /* a build taken from the store, its twin (another build of the algorithm) swept */
    const struct gl_impl *fast2 = gl_impl_find("gelu-fast/avx2");
    if (gl_impl_available(fast2)) {
        sweep(fast, fast2, bf16, NULL, NULL, path("twins.json"));
        CHECK(sweep(fast, fast2, bf16, st, &here, path("twins2.json")) == 1,
              "gelu-fast/scalar taken, gelu-fast/avx2 swept");
        same_results("twins", "twins2");
    }

    /* each part of the key changed: nothing reused that no longer matches */
    e = here, e.engine[0] = e.engine[0] == 'a' ? 'b' : 'a';
    CHECK(sweep(fast, erf, bf16, st, &e, path("engine.json")) == 0, "another engine: none");
    e = here, snprintf(e.libs, sizeof e.libs, "mpfr 4.2.1 gmp 6.2.1 libc 2.36");
    CHECK(sweep(fast, erf, bf16, st, &e, path("mpfr.json")) == 0, "another MPFR: none");
    e = here, snprintf(e.cpu.id, sizeof e.cpu.id, "AuthenticAMD family 26 model 2 stepping 0");
    CHECK(sweep(fast, erf, bf16, st, &e, path("cpu.json")) == 0, "another CPU model: none");
    e = here, snprintf(e.cpu.flags + strlen(e.cpu.flags), 16, " avx10");
    CHECK(sweep(fast, erf, bf16, st, &e, path("flags.json")) == 0, "other CPU flags: none");
    same_results("plain", "engine"), same_results("plain", "cpu");
    CHECK(sweep(fast, erf, f16, st, &here, path("f16.json")) == 0, "another format: none");

    /* one kernel's code changed: that one swept again, the other taken */
    struct gl_impl changed = *fast;
    changed.code_hash = "0000000000000000000000000000000000000000000000000000000000000000";
    CHECK(sweep(&changed, erf, bf16, st, &here, path("changed.json")) == 1,
          "one kernel's code changed: the other taken");
    CHECK(sweep(&changed, erf, bf16, st, &here, path("changed2.json")) == 2,
          "and its new results stored under its new key");
    same_results("changed", "changed2");

    /* a damaged record: not used, swept again, the same bytes */
    struct gl_sweep s = {0};
    s.fmt = bf16, s.mode = GL_SWEEP_EXHAUSTIVE, s.shard_k = s.shard_n = 1, s.use_fast_ref = 1;
    add_builtin(&s, erf);
    gl_sweep_layout(&s);
    gl_sweep_find_roots(&s);
    char text[1 << 16], hex[65], rec[600];
    CHECK(gl_store_key_text(&s, 0, &here, text, sizeof text) == 0, "key text");
    CHECK(strstr(text, here.engine) && strstr(text, erf->code_hash) && strstr(text, here.cpu.id),
          "the key text holds the engine, the code hash and the CPU: %s", text);
    gl_sweep_free(&s);
    struct gl_sha256 c;
    gl_sha256_init(&c);
    gl_sha256_add(&c, text, strlen(text));
    gl_sha256_hex(&c, hex);
    snprintf(rec, sizeof rec, "%s/%.2s/%s.json", st, hex, hex);
    struct stat sb;
    CHECK(stat(rec, &sb) == 0 && sb.st_size > 1000, "gelu-erf-naive's record is %s", rec);
    CHECK(truncate(rec, sb.st_size / 2) == 0, "cut the record short");
    CHECK(sweep(fast, erf, bf16, st, &here, path("cut.json")) == 1, "a cut record is not used");
    same_results("plain", "cut");
    CHECK(sweep(fast, erf, bf16, st, &here, path("cut2.json")) == 2, "and it was saved again");
    CHECK(replace_in(rec, "\"format\": \"bf16\"", "\"format\": \"f16\""), "edit the format");
    CHECK(sweep(fast, erf, bf16, st, &here, path("edited.json")) == 1,
          "a record of another format (well formed) is not used");
    same_results("plain", "edited");
    rec[strlen(rec) - 5] = '\0';
    strcat(rec, ".key");
    CHECK(replace_in(rec, "kernel gelu-erf-naive", "kernel erf-naivE"), "edit the key's text");
    CHECK(sweep(fast, erf, bf16, st, &here, path("edited2.json")) == 1,
          "a record whose key text differs is not used");
    same_results("plain", "edited");

    /* a sweep stopped before its first chunk: the kernels the store holds are not filled in
     * (the file's chunks would say otherwise), and nothing is saved */
    {
        struct gl_sweep s2 = {0};
        volatile int stop = 1;
        s2.fmt = bf16, s2.mode = GL_SWEEP_EXHAUSTIVE, s2.threads = 1, s2.shard_k = s2.shard_n = 1;
        s2.use_fast_ref = 1, s2.run.stop = &stop;
        add_builtin(&s2, fast), add_builtin(&s2, erf);
        struct gl_store st2;
        char err[600];
        CHECK(gl_store_take(&st2, &s2, st, 0, &here, err, sizeof err) == 0 && st2.reused == 2,
              "both in the store");
        CHECK(gl_sweep_run(&s2) == 130, "stopped");
        CHECK(gl_store_put(&st2, &s2, err, sizeof err) == 0 && st2.saved == 0, "nothing saved");
        CHECK(s2.res[0].failed && s2.res[1].failed && s2.res[0].chunks_ok == 0 &&
                  strstr(s2.res[0].error, "stopped before"),
              "an interrupted sweep's stored kernels are not measured: %s", s2.res[0].error);
        gl_sweep_free(&s2);
    }

    /* a hunt's key holds the kernel's place (its climbs draw their inputs by it) */
    {
        struct gl_sweep h = {0};
        h.fmt = gl_format_f64, h.mode = GL_SWEEP_HUNT, h.shard_k = h.shard_n = 1;
        h.hunt_per = 4096, h.hunt_lo = -10, h.hunt_hi = 10, h.use_fast_ref = 1;
        add_builtin(&h, erf), add_builtin(&h, gl_impl_find("gelu-tanh-libm"));
        gl_sweep_layout(&h);
        gl_sweep_find_roots(&h);
        CHECK(gl_store_key_text(&h, 1, &here, text, sizeof text) == 0 &&
                  strstr(text, "hunt 4096 -10 10 position 1\n"),
              "hunt key: %s", text);
        gl_sweep_free(&h);
    }

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "clean up");
    return gl_check_summary("test_store");
}
