/* Minimal test helpers: count failures, print them CORE-MATH style, end with a summary line. */
#ifndef GL_TESTS_CHECK_H
#define GL_TESTS_CHECK_H
#include <stdint.h>
#include <stdio.h>

static long gl_checks, gl_failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        gl_checks++;                                                                               \
        if (!(cond)) {                                                                             \
            gl_failures++;                                                                         \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* xorshift64*: repeatable pseudo-random inputs (state passed in, one per test) */
static inline uint64_t gl_test_rng(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

static int gl_check_summary(const char *name)
{
    printf("%s: %ld checks, %ld failed\n", name, gl_checks, gl_failures);
    return gl_failures != 0;
}
#endif
