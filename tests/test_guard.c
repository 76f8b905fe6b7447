/* Guard pages (runner/guard.c) through the calls validate makes of a built-in kernel, in
 * process (gl_kernel_call): each planted access outside the arrays is named exactly (array,
 * index, read or write, n, in place), a fault comes back as the finding (gl_guard_escape)
 * instead of ending the process, a good kernel passes on every length and placement. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "gelulab/guard.h"
#include "gelulab/runner.h"

static void good(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0.0f;
}
static void write_past(const float *x, float *y, size_t n) /* faults on the guard page */
{
    good(x, y, n);
    ((volatile float *)y)[n] = 0.0f;
}
static void read_past(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = ((volatile const float *)x)[i + 1] * 0.0f + x[i];
}
static void write_before(const float *x, float *y, size_t n) /* in the canaries (ends flush) */
{
    good(x, y, n);
    ((volatile float *)y)[-2] = 1.0f;
}
static void write_far_past(const float *x, float *y, size_t n) /* with an offset: canaries */
{
    good(x, y, n);
    ((volatile float *)y)[n + 1] = 1.0f;
}
static void half(const float *x, float *y, size_t n)
{
    good(x, y, n / 2);
}
static void scratch(const float *x, float *y, size_t n)
{
    good(x, y, n);
    if (n) ((float *)(uintptr_t)x)[n - 1] = 7.0f;
}
static void skip_29_32(const float *x, float *y, size_t n) /* in and after the vector loop */
{
    for (size_t i = 0; i < n; i++)
        if (i != 29 && i != 32) y[i] = x[i];
}
static void u16_good(const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i];
}
static void u16_skip_last(const uint16_t *x, uint16_t *y, size_t n)
{
    u16_good(x, y, n ? n - 1 : 0);
}
static void u16_far_past(const uint16_t *x, uint16_t *y, size_t n) /* with an offset: canaries */
{
    u16_good(x, y, n);
    ((volatile uint16_t *)y)[n + 1] = 1;
}
static void u16_before(const uint16_t *x, uint16_t *y, size_t n)
{
    u16_good(x, y, n);
    ((volatile uint16_t *)y)[-3] = 1;
}
static void u16_past(const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i <= n; i++) ((volatile uint16_t *)y)[i] = x[i < n ? i : 0];
}

/* k called on n inputs with layout lay through validate's path; the finding (or "") */
static const char *run(gl_kernel_f32 f, gl_kernel_u16 h, size_t n, const struct gl_call_layout *lay)
{
    static struct gl_impl im;
    static struct gl_kernel_src k;
    static char why[600];
    static float x[64], y[64];
    memset(&im, 0, sizeof im), memset(&k, 0, sizeof k);
    im.name = "planted", im.f32 = f, im.u16 = h, im.abi = h ? GL_KERNEL_BF16 : GL_KERNEL_F32;
    k.kind = GL_SRC_BUILTIN, k.impl = &im, k.abi = im.abi;
    snprintf(k.name, sizeof k.name, "planted");
    for (size_t i = 0; i < n; i++) x[i] = (float)i - 3.0f;
    why[0] = 0;
    if (gl_kernel_call(NULL, &k, NULL, x, NULL, y, n, lay, why, sizeof why) == 0) return "";
    return why;
}

static void expect(const char *got, const char *want, const char *what)
{
    CHECK(!strcmp(got, want), "%s: got '%s', want '%s'", what, got, want);
}

int main(void)
{
    const struct gl_call_layout start = {0, 0, 0, 0, GL_GUARD_START},
                                inplace = {0, 0, 1, 0, GL_GUARD_END},
                                offset2 = {2, 0, 0, 0, GL_GUARD_END};
    for (size_t n = 0; n <= 33; n++) {
        CHECK(!*run(good, NULL, n, NULL), "good, n = %zu: %s", n, run(good, NULL, n, NULL));
        CHECK(!*run(good, NULL, n, &start), "good at the start, n = %zu", n);
        CHECK(!*run(good, NULL, n, &inplace), "good in place, n = %zu", n);
        /* 16-bit elements: every canary window and output length, at every placement */
        CHECK(!*run(NULL, u16_good, n, NULL), "16-bit good, n = %zu", n);
        CHECK(!*run(NULL, u16_good, n, &start), "16-bit good at the start, n = %zu", n);
        CHECK(!*run(NULL, u16_good, n, &offset2), "16-bit good with an offset, n = %zu", n);
    }
    expect(run(write_past, NULL, 5, NULL), "writes y[5] past the end (n = 5)", "write past");
    expect(run(write_past, NULL, 0, NULL), "writes y[0] past the end (n = 0)", "n = 0");
    expect(run(write_past, NULL, 5, &inplace), "writes y[5] past the end (n = 5; in place)",
           "write past, in place");
    expect(run(read_past, NULL, 7, NULL), "reads x[7] past the end (n = 7)", "read past");
    expect(run(write_before, NULL, 4, NULL), "writes y[-2] before the start (n = 4)",
           "canary before");
    expect(run(write_before, NULL, 4, &start), "writes y[-2] before the start (n = 4)",
           "guard page before");
    expect(run(write_far_past, NULL, 9, &offset2), "writes y[10] past the end (n = 9)",
           "canary after");
    expect(run(half, NULL, 9, NULL), "leaves 5 of the n = 9 outputs unwritten (first y[4])",
           "unwritten");
    expect(run(skip_29_32, NULL, 33, NULL),
           "leaves 2 of the n = 33 outputs unwritten (first y[29])", "unwritten, long");
    expect(run(NULL, u16_skip_last, 17, NULL),
           "leaves 1 of the n = 17 outputs unwritten (first y[16])", "16-bit unwritten");
    expect(run(NULL, u16_far_past, 9, &offset2), "writes y[10] past the end (n = 9)",
           "16-bit canary after");
    expect(run(NULL, u16_before, 9, NULL), "writes y[-3] before the start (n = 9)",
           "16-bit canary before");
    expect(run(scratch, NULL, 6, NULL), "writes its input x[5] (n = 6)", "input changed");
    expect(run(NULL, u16_past, 3, NULL), "writes y[3] past the end (n = 3)", "16-bit elements");
    /* after the findings, a good kernel is still judged good (the handler was disarmed) */
    CHECK(!*run(good, NULL, 17, NULL), "good after the findings");
    CHECK(gl_guard_finding("writes y[1] past the end (n = 1)") &&
              !gl_guard_finding("crashed (signal 11, Segmentation fault)"),
          "gl_guard_finding");
    return gl_check_summary("test_guard");
}
