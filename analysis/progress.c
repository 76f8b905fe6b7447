/* Progress of a long run on stderr (include/gelulab/progress.h). */
#include "gelulab/progress.h"
#include <stdio.h>
#include <time.h>           /* nanosleep */
#include "gelulab/runner.h" /* gl_monotonic_s */

void gl_progress_start(struct gl_progress *p, int mode, const char *what, const char *unit,
                       uint64_t total)
{
    p->mode = mode, p->unit = unit, p->total = total, p->t0 = gl_monotonic_s();
    snprintf(p->what, sizeof p->what, "%s", what);
}

static void show(const struct gl_progress *p, uint64_t done)
{
    double t = gl_monotonic_s() - p->t0,
           eta = done ? t * (double)(p->total - done) / (double)done : 0;
    fprintf(stderr, "%s%s: %llu/%llu %s (%5.1f%%) %6.1f s, ETA %6.1f s%s", p->mode == 1 ? "\r" : "",
            p->what, (unsigned long long)done, (unsigned long long)p->total, p->unit,
            100.0 * (double)done / (double)(p->total ? p->total : 1), t, eta,
            p->mode == 1 ? " " : "\n");
}

void gl_progress_wait(const struct gl_progress *p, atomic_ulong *done, volatile int *stop)
{
    double last = p->t0;
    while (p->mode && atomic_load(done) < p->total && !(stop && *stop)) {
        if (p->mode == 1 || gl_monotonic_s() - last >= 10) {
            show(p, atomic_load(done));
            last = gl_monotonic_s();
        }
        struct timespec ms = {0, 250000000};
        nanosleep(&ms, NULL);
    }
}

void gl_progress_end(const struct gl_progress *p, uint64_t done)
{
    if (!p->mode) return;
    show(p, done);
    if (p->mode == 1) fputc('\n', stderr);
}
