/* A small JSON reader for gelulab's own result files and Google Benchmark's (analysis/json.c:
 * the analysis, the report and two moons read with it; bare NaN, Infinity, -Infinity are read
 * as numbers). Numbers are kept
 * as text so that integers and doubles round-trip exactly. */
#ifndef GELULAB_JSON_H
#define GELULAB_JSON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum gl_json_type {
    GL_JSON_NULL,
    GL_JSON_BOOL,
    GL_JSON_NUM,
    GL_JSON_STR,
    GL_JSON_ARR,
    GL_JSON_OBJ
};

struct gl_json {
    enum gl_json_type type;
    char *text;            /* NUM, STR (unescaped), BOOL ("true"/"false") */
    char *key;             /* as a member of an object */
    struct gl_json *items; /* ARR, OBJ */
    size_t n;
};

/* Parses s; returns NULL with a message (and byte offset) in err on malformed input. */
struct gl_json *gl_json_parse(const char *s, char *err, size_t errlen);
void gl_json_free(struct gl_json *j);
/* The whole file as a string (malloc), or NULL with "cannot read PATH" in err. */
char *gl_json_read_file(const char *path, char *err, size_t errlen);
const struct gl_json *gl_json_get(const struct gl_json *obj, const char *key); /* or NULL */
double gl_json_num(const struct gl_json *j);   /* NUM, or STR "inf"/"-inf"/"nan"/hex-float */
uint64_t gl_json_u64(const struct gl_json *j); /* NUM or STR */
unsigned __int128 gl_json_u128(const struct gl_json *j);
/* v with 17 significant digits (an exact round trip); NaN and infinities as the strings "nan",
 * "inf", "-inf" (which gl_json_num reads back). */
void gl_json_put_double(FILE *f, double v);
#endif
