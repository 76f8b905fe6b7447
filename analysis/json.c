/* A small JSON reader (include/gelulab/json.h): recursive descent, depth-limited. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gelulab/json.h"

struct parser {
    const char *s, *p;
    char *err;
    size_t errlen;
    int failed;
};

static void fail(struct parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->err, ps->errlen, "malformed JSON at byte %ld: %s", (long)(ps->p - ps->s),
                 what);
    ps->failed = 1;
}

static void skip_ws(struct parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\t' || *ps->p == '\r') ps->p++;
}

static char *parse_string(struct parser *ps)
{
    if (*ps->p != '"') return fail(ps, "expected a string"), NULL;
    const char *q = ++ps->p;
    size_t len = 0;
    while (*q && *q != '"') q += (*q == '\\' && q[1]) ? 2 : 1, len++;
    if (!*q) return fail(ps, "unterminated string"), NULL;
    char *out = malloc(len + 1), *o = out;
    for (; ps->p < q; ps->p++) {
        char c = *ps->p;
        if (c == '\\') {
            c = *++ps->p;
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        *o++ = c;
    }
    *o = '\0';
    ps->p++;
    return out;
}

static int parse_value(struct parser *ps, struct gl_json *j, int depth);

static int parse_items(struct parser *ps, struct gl_json *j, int depth, char close, int keyed)
{
    size_t cap = 8;
    j->items = calloc(cap, sizeof *j->items);
    ps->p++;
    skip_ws(ps);
    if (*ps->p == close) return ps->p++, 0;
    for (;;) {
        if (j->n == cap) {
            j->items = realloc(j->items, (cap *= 2) * sizeof *j->items);
            memset(j->items + j->n, 0, (cap - j->n) * sizeof *j->items);
        }
        struct gl_json *it = &j->items[j->n++];
        skip_ws(ps);
        if (keyed) {
            if (!(it->key = parse_string(ps))) return -1;
            skip_ws(ps);
            if (*ps->p++ != ':') return fail(ps, "expected ':'"), -1;
        }
        if (parse_value(ps, it, depth + 1) != 0) return -1;
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) return ps->p++, 0;
        return fail(ps, "expected ',' or a closing bracket"), -1;
    }
}

static int parse_value(struct parser *ps, struct gl_json *j, int depth)
{
    if (depth > 32) return fail(ps, "nested too deeply"), -1;
    skip_ws(ps);
    char c = *ps->p;
    if (c == '{') return j->type = GL_JSON_OBJ, parse_items(ps, j, depth, '}', 1);
    if (c == '[') return j->type = GL_JSON_ARR, parse_items(ps, j, depth, ']', 0);
    if (c == '"') return j->type = GL_JSON_STR, (j->text = parse_string(ps)) ? 0 : -1;
    const char *words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(words[i]);
        if (!strncmp(ps->p, words[i], l)) {
            j->type = i < 2 ? GL_JSON_BOOL : GL_JSON_NULL;
            j->text = i < 2 ? strdup(words[i]) : NULL;
            ps->p += l;
            return 0;
        }
    }
    /* numbers; also NaN, Infinity and -Infinity, which Google Benchmark writes (strtod reads them)
     */
    const char *special[] = {"NaN", "Infinity", "-Infinity"};
    size_t l = strspn(ps->p, "+-0123456789.eE");
    for (int i = 0; i < 3 && l <= 1; i++)
        if (!strncmp(ps->p, special[i], strlen(special[i]))) l = strlen(special[i]);
    if (!l) return fail(ps, "unexpected character"), -1;
    j->type = GL_JSON_NUM;
    j->text = strndup(ps->p, l);
    ps->p += l;
    return 0;
}

struct gl_json *gl_json_parse(const char *s, char *err, size_t errlen)
{
    struct parser ps = {s, s, err, errlen, 0};
    struct gl_json *j = calloc(1, sizeof *j);
    if (parse_value(&ps, j, 0) == 0) {
        skip_ws(&ps);
        if (*ps.p) fail(&ps, "trailing characters");
    }
    if (ps.failed) {
        gl_json_free(j);
        return NULL;
    }
    return j;
}

static void free_items(struct gl_json *j)
{
    for (size_t i = 0; i < j->n; i++) {
        free_items(&j->items[i]);
        free(j->items[i].key);
        free(j->items[i].text);
    }
    free(j->items);
}

void gl_json_free(struct gl_json *j)
{
    if (!j) return;
    free_items(j);
    free(j->text);
    free(j);
}

const struct gl_json *gl_json_get(const struct gl_json *obj, const char *key)
{
    if (!obj || obj->type != GL_JSON_OBJ) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (!strcmp(obj->items[i].key, key)) return &obj->items[i];
    return NULL;
}

double gl_json_num(const struct gl_json *j)
{
    return j && j->text ? strtod(j->text, NULL) : 0;
}

uint64_t gl_json_u64(const struct gl_json *j)
{
    return j && j->text ? strtoull(j->text, NULL, 0) : 0;
}

unsigned __int128 gl_json_u128(const struct gl_json *j)
{
    unsigned __int128 v = 0;
    for (const char *p = j && j->text ? j->text : ""; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (unsigned)(*p - '0');
    return v;
}

char *gl_json_read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, r;
    char *buf = malloc(cap + 1);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += r) == cap) buf = realloc(buf, (cap *= 2) + 1);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

void gl_json_put_double(FILE *f, double v)
{
    if (isnan(v))
        fputs("\"nan\"", f);
    else if (isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
    else
        fprintf(f, "%.17g", v);
}
