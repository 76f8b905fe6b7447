/* Progress of a long run on stderr (analysis/progress.c: the sweep and the two-moons
 * experiment). Mode 0: nothing; 1: a bar redrawn in place (a terminal); 2: a line every 10 s
 * (logs). The line: "WHAT: DONE/TOTAL UNIT (P%) T s, ETA E s". */
#ifndef GELULAB_PROGRESS_H
#define GELULAB_PROGRESS_H
#include <stdatomic.h>
#include <stdint.h>

struct gl_progress {
    int mode;
    char what[64];
    const char *unit;
    uint64_t total;
    double t0;
};
void gl_progress_start(struct gl_progress *p, int mode, const char *what, const char *unit,
                       uint64_t total);
/* Shows *done until it reaches the total or *stop is set (stop may be NULL); polls 4 times a
 * second. Returns at once in mode 0. */
void gl_progress_wait(const struct gl_progress *p, atomic_ulong *done, volatile int *stop);
/* The last line (after the workers joined), ended by a newline in mode 1. */
void gl_progress_end(const struct gl_progress *p, uint64_t done);
#endif
