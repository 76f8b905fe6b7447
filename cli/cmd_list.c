/* gelulab list — the catalogue of built-in kernels (impls/registry.c), and with --peers the
 * table of peers (bench/peers.c) as built into libgelulab-peers.so. */
#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gelulab/peers.h"
#include "gelulab/lib_api.h"
#include "gl_algos.h" /* generated: GL_NAME_ID */
#include "cli.h"
#include "gelulab/impl.h"

/* where an install keeps the peers and libgelulab, relative to gelulab's folder (set by CMake
 * from the install layout: the top-level CMakeLists.txt) */
#ifndef GL_PRIVATE_DIR
#define GL_PRIVATE_DIR "../libexec/gelulab"
#endif
#ifndef GL_LIB_DIR
#define GL_LIB_DIR "../lib"
#endif

static const char list_help[] =
    "usage: gelulab list [--peers [--lib PATH] [--sweep-args | --tsv]\n"
    "                    [--backward | --format bf16|f16 | --all-kinds]] [--help]\n"
    "       gelulab list --library [--lib PATH] [--sweep-args [--backward | --format F]]\n"
    "\n"
    "Prints every built-in kernel: name (algorithm/ISA), the definition it implements, family,\n"
    "ISA, whether it can run here (yes; no: the CPU lacks the ISA; qemu: NEON, run under\n"
    "qemu-aarch64 as an external evaluator; no-qemu: NEON without the cross build or qemu),\n"
    "its documented bounds against its own definition (max ULP on [-5, 5], max absolute error\n"
    "over all finite inputs) and its method.\n"
    "\n"
    "  --peers [--lib PATH]  the peers instead (other projects' kernels, bench/peers.c), from\n"
    "                 libgelulab-peers.so (default: beside gelulab, or where make install\n"
    "                 puts it: " GL_PRIVATE_DIR " from gelulab's folder): name, the definition it\n"
    "                 claims, ISA, library and version, whether it runs here (or why not), the\n"
    "                 symbol of the call as its users write it (the benchmark times it), and\n"
    "                 a note: the peer that the report's ratios are to (compare), or that the\n"
    "                 sweeps call its twin (--sweep-args). A peer whose library\n"
    "                 runs only in a process of its own (oneDNN 3.13) is checked in one, and\n"
    "                 runs: yes, with the note that the benchmark times it in a run of its own\n"
    "                 (gelulab-bench --peers-of MODULE).\n"
    "  --sweep-args   with --peers: for each peer that runs here, one line of the arguments\n"
    "                 that measure it with gelulab sweep (tab-separated: --lib\n"
    "                 DIR/libgelulab-peer-MODULE.so --symbol SYM, or --serve CMD; then --defn D\n"
    "                 --name NAME), as make report does. SYM is the peer's twin where the\n"
    "                 table names one: the same call with its library's error reporting off\n"
    "                 (MKL: VML_ERRMODE_NOERR), whose results are the call's bit for bit\n"
    "                 (make test checks it) and which skips the default's cost per element\n"
    "                 reported (MKL: 120 ns for each underflow); the benchmark times the call.\n"
    "  --tsv          with --peers: the table as tab-separated columns with a header (name,\n"
    "                 defn, isa, library, version, package, path, runs, note, lineage,\n"
    "                 call), as make report keeps it (data/peers.tsv,\n"
    "                 docs/report-format.md); a swept twin is said at the end of the path.\n"
    "  --backward     with --sweep-args or --tsv: the backward peers (dx = dy f'(x); swept by\n"
    "                 gelulab sweep --backward) instead of the forward ones\n"
    "  --library      libgelulab's entry points (include/gelulab.h) instead: function, the\n"
    "                 kernel it runs, its definition, ABI, bound and method; with --sweep-args\n"
    "                 the arguments that sweep them from the library as users call them\n"
    "                 (--lib PATH, default libgelulab.so beside gelulab, or installed in\n"
    "                 " GL_LIB_DIR " from gelulab's folder; named lib/NAME): the\n"
    "                 binary32 forward ones, --backward ones, or the 16-bit ones of --format F\n"
    "  --format F     with --sweep-args or --tsv: the 16-bit peers of F (bf16 or f16: the\n"
    "                 16-bit kernel ABI; their sweep arguments hold --abi F) instead of the\n"
    "                 binary32 ones\n"
    "  --all-kinds    with --sweep-args or --tsv: the binary32 forward, backward, bfloat16 and\n"
    "                 binary16 peers at once (the peers' library is loaded once: PyTorch's\n"
    "                 start-up takes most of a second), each line led by its kind and a tab:\n"
    "                 f32, bwd, bf16 or f16 (--tsv: a first column `kind`)\n";

typedef const char *(*skip_fn)(const struct gl_peer *p, char *buf, size_t len);

/* whether peer p is listed: the backward ones with --backward, the 16-bit ones of format fmt
 * with --format fmt, else the binary32 forward ones */
static int listed(const struct gl_peer *p, int backward, const char *fmt)
{
    if (fmt) return gl_kernel_abi_is16(p->abi) && !strcmp(gl_kernel_abi_name(p->abi), fmt);
    return p->abi == (backward ? GL_KERNEL_BWD : GL_KERNEL_F32);
}

/* The sweep arguments (sweep_args) or table rows (tsv) of the peers listed with backward and
 * fmt, each line led by `kind` and a tab when kind is not NULL */
static void peer_lines(const struct gl_peer *p, size_t n, skip_fn skip, const char *dir,
                       int sweep_args, int backward, const char *fmt, const char *kind)
{
    for (size_t i = 0; i < n; i++) {
        char why[200];
        if (!listed(&p[i], backward, fmt)) continue;
        const char *no = skip(&p[i], why, sizeof why), *alone = NULL;
        if (p[i].per_process) alone = no, no = NULL; /* it runs in a process of its own */
        if (sweep_args && no) continue;
        if (kind) printf("%s\t", kind);
        if (!sweep_args) {
            printf("%s\t%s\t%s\t%s\t%s\t%s\t%s%s%s%s\t%s\t%s\t%s\t%s\n", p[i].name,
                   gl_defn_name(p[i].defn), gl_peer_isa_name(p[i].isa), p[i].lib->name,
                   p[i].lib->version, p[i].lib->package, p[i].path ? p[i].path : "-",
                   p[i].sweep_symbol ? "; swept through its twin " : "",
                   p[i].sweep_symbol ? p[i].sweep_symbol : "",
                   p[i].sweep_symbol ? ", the same call with the library's error reporting off "
                                       "(the same results, checked), timed as written"
                                     : "",
                   no ? "no" : "yes",
                   no             ? no
                   : alone        ? alone
                   : p[i].compare ? p[i].compare
                   : p[i].time    ? "served; timed inside its framework's process"
                   : p[i].serve   ? "served (accuracy only)"
                                  : "-",
                   p[i].lib->lineage ? p[i].lib->lineage : p[i].lib->name,
                   p[i].call ? p[i].call : "-");
            continue;
        }
        if (p[i].serve && p[i].lib->server)
            printf("--serve\t%s\t--serve-lib\t%s", p[i].serve, p[i].lib->server);
        else if (p[i].serve)
            printf("--serve\t%s", p[i].serve);
        else
            printf("--lib\t%s/libgelulab-peer-%s.so\t--symbol\t%s", dir, p[i].lib->module,
                   p[i].sweep_symbol ? p[i].sweep_symbol : p[i].symbol);
        if (gl_kernel_abi_is16(p[i].abi)) printf("\t--abi\t%s", gl_kernel_abi_name(p[i].abi));
        printf("\t--defn\t%s\t--name\t%s\n", gl_defn_name(p[i].defn), p[i].name);
    }
}

static int list_peers(const char *lib, int sweep_args, int tsv, int backward, const char *fmt,
                      int all_kinds)
{
    char path[4200], where[8500];
    if (!lib) {
        if (gl_cli_find_file("libgelulab-peers.so", GL_PRIVATE_DIR, path, sizeof path, where,
                             sizeof where))
            return gl_cli_error("list",
                                "the peers are not installed (neither %s): they are built only "
                                "with Google Benchmark (Debian libbenchmark-dev) and installed "
                                "by make install, not by the Debian package: install "
                                "libbenchmark-dev, rebuild and make install",
                                where);
        lib = path;
    }
    struct gl_peer_table t;
    char err[600];
    if (gl_peer_table_open(lib, &t, err, sizeof err)) return gl_cli_error("list", "%s", err);
    skip_fn skip = t.skip;
    size_t n;
    const struct gl_peer *p = t.peers(&n);
    char tmp[4200], dir[4200]; /* the per-library peer objects lie beside the table */
    snprintf(tmp, sizeof tmp, "%s", lib);
    snprintf(dir, sizeof dir, "%s", dirname(tmp));
    if (sweep_args || tsv) {
        static const struct {
            const char *kind, *fmt;
            int backward;
        } kinds[] = {{"f32", NULL, 0}, {"bwd", NULL, 1}, {"bf16", "bf16", 0}, {"f16", "f16", 0}};
        if (tsv)
            printf(
                "%sname\tdefn\tisa\tlibrary\tversion\tpackage\tpath\truns\tnote\tlineage\tcall\n",
                all_kinds ? "kind\t" : "");
        for (size_t k = 0; all_kinds && k < sizeof kinds / sizeof *kinds; k++)
            peer_lines(p, n, skip, dir, sweep_args, kinds[k].backward, kinds[k].fmt, kinds[k].kind);
        if (!all_kinds) peer_lines(p, n, skip, dir, sweep_args, backward, fmt, NULL);
        return 0;
    }
    printf("%-34s %-10s %-6s %-20s %-4s %-30s %s\n", "name", "defn", "isa", "library", "runs",
           "symbol", "note");
    for (size_t i = 0; i < n; i++) {
        char why[200], libv[64];
        const char *no = skip(&p[i], why, sizeof why);
        snprintf(libv, sizeof libv, "%s %s", p[i].lib->name, p[i].lib->version);
        printf("%-34s %-10s %-6s %-20s %-4s %-30s %s\n", p[i].name, gl_defn_name(p[i].defn),
               gl_peer_isa_name(p[i].isa), libv, no && !p[i].per_process ? "no" : "yes",
               p[i].serve || !p[i].symbol ? "-" : p[i].symbol,
               no                  ? no
               : p[i].compare      ? "compare"
               : p[i].sweep_symbol ? "swept through its twin (--sweep-args): the same results"
                                   : "-");
    }
    return 0;
}

/* libgelulab's entry points (gelulab/lib_api.h) and the kernels they run, or with sweep_args the
 * sweep arguments that measure them as a user calls them (--lib LIB --symbol gl_ALGO ... --name
 * lib/NAME, NAME the kernel's name): the binary32 forward ones, the backward ones, or the 16-bit
 * ones of format fmt */
static int list_library(const char *lib, int sweep_args, int backward, const char *fmt)
{
    char path[4200], where[8500];
    if (!lib) { /* beside gelulab (the build tree), else in the installed library folder */
        gl_cli_find_file("libgelulab.so", GL_LIB_DIR, path, sizeof path, where, sizeof where);
        lib = path;
    }
    if (sweep_args && access(lib, R_OK) != 0)
        return gl_cli_error("list", "no library %s (--lib PATH: libgelulab.so)", lib);
#define LIB_ROW(algo, kind) {"gl_" #algo, "lib/" GL_NAME_##algo, GL_NAME_##algo, kind},
    static const struct {
        const char *symbol, *name, *algo;
        int kind; /* 0 forward, 1 backward, 2 16-bit */
    } rows[] = {
#define F(algo, what) LIB_ROW(algo, 0)
#define B(algo, what) LIB_ROW(algo, 1)
#define H(algo, what) LIB_ROW(algo, 2)
        GL_LIB_FORWARD(F) GL_LIB_BACKWARD(B) GL_LIB_16(H)};
    if (!sweep_args)
        printf("%-26s %-24s %-10s %-5s %12s  %s\n", "function", "kernel", "defn", "abi",
               "ulp[-5,5]", "method");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char k[64];
        snprintf(k, sizeof k, "%s/scalar", rows[i].algo);
        const struct gl_impl *im = gl_impl_find(k);
        if (!sweep_args) {
            printf("%-26s %-24s %-10s %-5s %12.4g  %s\n", rows[i].symbol, rows[i].algo,
                   gl_defn_name(im->defn), gl_kernel_abi_name(im->abi), im->ulp_core, im->note);
            continue;
        }
        int want = fmt ? 2 : backward ? 1 : 0;
        if (rows[i].kind != want || (fmt && strcmp(gl_kernel_abi_name(im->abi), fmt))) continue;
        printf("--lib\t%s\t--symbol\t%s", lib, rows[i].symbol);
        if (fmt) printf("\t--abi\t%s", fmt);
        printf("\t--defn\t%s\t--name\t%s\n", gl_defn_name(im->defn), rows[i].name);
    }
    return 0;
}

int gl_cmd_list(int argc, char **argv)
{
    int peers = 0, library = 0, sweep_args = 0, tsv = 0, backward = 0, all_kinds = 0;
    const char *lib = NULL, *fmt = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(list_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--peers")) {
            peers = 1;
        } else if (!strcmp(argv[i], "--library")) {
            library = 1;
        } else if (!strcmp(argv[i], "--sweep-args")) {
            sweep_args = 1;
        } else if (!strcmp(argv[i], "--tsv")) {
            tsv = 1;
        } else if (!strcmp(argv[i], "--backward")) {
            backward = 1;
        } else if (!strcmp(argv[i], "--all-kinds")) {
            all_kinds = 1;
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            fmt = argv[++i];
            if (strcmp(fmt, "bf16") && strcmp(fmt, "f16"))
                return gl_cli_error("list", "--format %s: the 16-bit peers are bf16 or f16", fmt);
        } else if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
            lib = argv[++i];
        } else {
            return gl_cli_error("list", "unknown argument '%s' (see gelulab list --help)", argv[i]);
        }
    }
    if (library) {
        if (peers || tsv || all_kinds)
            return gl_cli_error("list", "--library: not with --peers, --tsv or --all-kinds");
        if ((backward || fmt) && !sweep_args)
            return gl_cli_error("list", "%s goes with --sweep-args",
                                backward ? "--backward" : "--format");
        if (backward && fmt) return gl_cli_error("list", "--backward and --format: no such entry");
        return list_library(lib, sweep_args, backward, fmt);
    }
    if ((lib || sweep_args || tsv || backward || fmt || all_kinds) && !peers)
        return gl_cli_error("list", "%s goes with --peers",
                            lib          ? "--lib"
                            : sweep_args ? "--sweep-args"
                            : tsv        ? "--tsv"
                            : fmt        ? "--format"
                            : backward   ? "--backward"
                                         : "--all-kinds");
    if ((backward || fmt || all_kinds) && !sweep_args && !tsv)
        return gl_cli_error("list", "%s goes with --sweep-args or --tsv",
                            backward ? "--backward"
                            : fmt    ? "--format"
                                     : "--all-kinds");
    if (backward && fmt) return gl_cli_error("list", "--backward and --format: no such peers");
    if (all_kinds && (backward || fmt))
        return gl_cli_error("list", "--all-kinds lists every kind: not with %s",
                            backward ? "--backward" : "--format");
    if (peers) return list_peers(lib, sweep_args, tsv, backward, fmt, all_kinds);
    printf("%-30s %-10s %-23s %-6s %-9s %12s %10s  %s\n", "name", "defn", "family", "isa",
           "available", "ulp[-5,5]", "abs(all)", "method");
    for (size_t i = 0; i < gl_impl_count(); i++) {
        const struct gl_impl *k = gl_impl_get(i);
        char cmd[512];
        const char *avail = k->isa == GL_ISA_NEON
                                ? (gl_impl_neon_command(k, cmd, sizeof cmd) ? "qemu" : "no-qemu")
                            : gl_impl_available(k) ? "yes"
                                                   : "no";
        printf("%-30s %-10s %-23s %-6s %-9s %12.4g %10.3g  %s%s%s\n", k->name,
               gl_defn_name(k->defn), k->family, gl_isa_name(k->isa), avail, k->ulp_core,
               k->abs_all, gl_kernel_abi_is16(k->abi) ? gl_kernel_abi_name(k->abi) : "",
               gl_kernel_abi_is16(k->abi) ? " in and out (ULP of that format): " : "", k->note);
    }
    return 0;
}
