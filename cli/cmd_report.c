/* gelulab report — charts and REPORT.md from saved result files (reports/). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "report.h"

static const char report_help[] =
    "usage: gelulab report --in DIR --out DIR\n"
    "\n"
    "Writes OUT/REPORT.md and its charts (OUT/*.png, *.svg; data and gnuplot scripts in\n"
    "OUT/charts/) from result files only, without running any kernel:\n"
    "  IN/f32.json (+ .binades.csv, .hist.csv), IN/bf16.json, IN/f16.json, IN/f64.json\n"
    "                 gelulab sweep --all --format F --out IN/F.json\n"
    "  IN/bench.json  gelulab-bench --benchmark_out=IN/bench.json --benchmark_out_format=json\n"
    "  IN/facts.json, IN/curves.csv, IN/errors.csv   gelulab facts --out IN\n"
    "make report runs all of them (pipeline/make_report.sh). Needs gnuplot.\n";

int gl_cmd_report(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(report_help, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--in") && i + 1 < argc)
            in = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else
            return gl_cli_error("report", "unknown or incomplete option '%s' (see --help)",
                                argv[i]);
    }
    if (!in || !out) return gl_cli_error("report", "needs --in DIR and --out DIR (see --help)");
    char err[1400];
    if (gl_report(in, out, err, sizeof err) != 0) return gl_cli_error("report", "%s", err);
    fprintf(stderr, "gelulab report: wrote %s/REPORT.md and its charts\n", out);
    return 0;
}
