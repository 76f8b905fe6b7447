/* gelulab merge — combine the result files of a sweep's shards into one */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gelulab/sweep.h"

static const char merge_usage[] =
    "usage: gelulab merge FILE.json... --out FILE.json [--partial] [--shards N]\n"
    "       gelulab merge FILE.json... --shards N --missing-shards\n"
    "\n"
    "Combines the result files of the shards of one sweep (same format, mode and kernels;\n"
    "disjoint chunks) into one, exactly as an unsharded run. When the files do not cover every\n"
    "chunk, it names the missing chunk ranges and the shards (--shard K/N) that would cover\n"
    "them, writes nothing and exits 1.\n"
    "\n"
    "  --out FILE   the merged result (JSON, with FILE.binades.csv and FILE.hist.csv)\n"
    "  --partial    write an incomplete merge all the same (its \"complete\" is false, and\n"
    "               gelulab report marks every figure taken from it)\n"
    "  --shards N   the run had N shards (default: from the files' \"shard\" fields)\n"
    "  --missing-shards  write nothing; print the shards K of N that cover the missing\n"
    "               chunks, comma-separated (\"3,7\"; an empty line when none is missing), for\n"
    "               rerunning only them (sbatch --array=3,7; pipeline/cluster/)\n";

/* "K,K,..." for the shards K of n that hold a chunk s misses */
static void print_missing_shards(const struct gl_sweep *s, long n)
{
    const char *sep = "";
    for (long k = 1; k <= n; k++) {
        uint64_t lo, hi;
        gl_sweep_shard_chunks(s, k, n, &lo, &hi);
        int missing = 0;
        for (uint64_t c = lo; c < hi && !missing; c++) missing = !s->chunk_done[c];
        if (missing) printf("%s%ld", sep, k), sep = ",";
    }
    putchar('\n');
}

/* The shard count the files were run with (their "shard" field), 0 when they disagree */
static long merge_shard_n(long have, const struct gl_sweep *s)
{
    if (s->shard_n <= 1) return have;
    return have == 1 || have == s->shard_n ? s->shard_n : 0;
}

int gl_cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    int nin = 0, partial = 0, list_missing = 0;
    long given_n = 0;
    char **in = calloc((size_t)argc, sizeof *in);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(merge_usage, stdout);
            free(in);
            return 0;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--partial")) {
            partial = 1;
        } else if (!strcmp(argv[i], "--missing-shards")) {
            list_missing = 1;
        } else if (!strcmp(argv[i], "--shards") && i + 1 < argc) {
            char *end;
            given_n = strtol(argv[++i], &end, 10);
            if (*end || given_n < 1 || given_n > 1000000) {
                free(in);
                return gl_cli_error("merge", "bad --shards '%s' (a count from 1)", argv[i]);
            }
        } else if (argv[i][0] == '-') {
            free(in);
            return gl_cli_error("merge", "unknown option '%s'", argv[i]);
        } else {
            in[nin++] = argv[i];
        }
    }
    if (nin == 0 || (!out && !list_missing) || (list_missing && (out || !given_n))) {
        free(in);
        return gl_cli_error("merge", list_missing ? "--missing-shards needs FILE.json... --shards "
                                                    "N and no --out"
                                                  : "need FILE.json... --out FILE.json");
    }
    struct gl_sweep acc, next;
    char err[600];
    int rc = 0;
    long shard_n = 1;
    if (gl_sweep_read(&acc, in[0], err, sizeof err) != 0) rc = gl_cli_error("merge", "%s", err);
    if (!rc) shard_n = merge_shard_n(shard_n, &acc);
    for (int i = 1; !rc && i < nin; i++) {
        if (gl_sweep_read(&next, in[i], err, sizeof err) != 0 ||
            gl_sweep_merge(&acc, &next, err, sizeof err) != 0)
            rc = gl_cli_error("merge", "%s: %s", in[i], err);
        else
            shard_n = merge_shard_n(shard_n, &next);
        gl_sweep_free(&next);
    }
    acc.shard_k = acc.shard_n = 1; /* the merge is no shard */
    if (given_n && shard_n > 1 && shard_n != given_n && !rc)
        rc = gl_cli_error("merge", "the files are shards of %ld, not of --shards %ld", shard_n,
                          given_n);
    if (given_n) shard_n = given_n;
    if (!rc && list_missing) {
        print_missing_shards(&acc, shard_n);
        gl_sweep_free(&acc);
        free(in);
        return 0;
    }
    if (!rc && !gl_sweep_complete(&acc)) {
        char missing[1000];
        gl_sweep_missing(&acc, shard_n, missing, sizeof missing);
        fprintf(stderr, "gelulab merge: %s: %llu of %llu chunks missing: %s\n",
                partial ? "writing a partial result"
                        : "incomplete, nothing written (--partial writes it)",
                (unsigned long long)(acc.n_chunks - gl_sweep_chunks_done(&acc)),
                (unsigned long long)acc.n_chunks, missing);
        if (!partial) rc = 1;
    }
    if (!rc && gl_sweep_write(&acc, out, err, sizeof err) != 0)
        rc = gl_cli_error("merge", "%s", err);
    if (!rc) gl_sweep_print_summary(&acc);
    gl_sweep_free(&acc);
    free(in);
    return rc;
}
