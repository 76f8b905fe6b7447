/* Minimal test helpers: count failures, print them CORE-MATH style, end with a summary line. */
#ifndef GL_TESTS_CHECK_H
#define GL_TESTS_CHECK_H
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

static int gl_check_summary(const char *name)
{
    printf("%s: %ld checks, %ld failed\n", name, gl_checks, gl_failures);
    return gl_failures != 0;
}
#endif
