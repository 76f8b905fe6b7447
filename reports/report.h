/* gelulab report: charts (gnuplot) and REPORT.md from saved result files only (docs/design.md,
 * "Reports"): IN/f32.json (+ .binades.csv, .hist.csv), bf16.json, f16.json, f64.json (sweeps),
 * bench.json (gelulab-bench), facts.json, curves.csv, errors.csv (gelulab facts). */
#ifndef GELULAB_REPORT_H
#define GELULAB_REPORT_H
#include <stddef.h>

/* 0, or -1 with a one-line message in err (a missing input names the file and the command
 * that makes it). */
int gl_report(const char *in, const char *out, char *err, size_t errlen);

#endif
