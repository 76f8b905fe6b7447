// gelulab-bench: the Google Benchmark shim (C++ beside the C++ libraries' peers; docs/design.md,
// "Benchmarks"). It registers one benchmark per case of bench/cases.h and array size, and
// reports elements/s (items_per_second), bytes/s (n floats read + n written; a backward case:
// x and dy read, dx written; a 16-bit case: n 16-bit values read and n written) and
// cycles_per_elem (time-stamp-counter cycles per element: the TSC ticks at a constant
// reference rate, not the core's clock).
//
// Method: the process is pinned to one CPU and runs oneDNN with one OpenMP thread (it
// re-executes itself with OMP_NUM_THREADS=1, which the OpenMP runtime reads at start-up);
// each benchmark warms up (--benchmark_min_warmup_time, default 0.1 s: timed calls, which also
// give the number of calls k that lasts --benchmark_min_time, default 0.05 s, with a 5 %
// margin) then runs --benchmark_repetitions (default 5) repetitions of k calls each (one batch:
// Google Benchmark's own warm-up and iteration-count search, which ran the case up to three
// times more and overshot the minimum time by 1.4x on average, are not used; it is given half
// the minimum time, so that it lengthens a case's repetitions only when they ran twice as fast
// as the warm-up foretold), in random
// interleaving across benchmarks (so that a slow phase of a noisy machine spreads over all
// cases); `gelulab bench-table` takes the median and the coefficient of variation over the
// repetitions.
//
// Options of its own (before Google Benchmark's, which never sees them): --sizes=N,N,...  array
// sizes in floats (default 1024,4096,65536,1048576,16777216: L1, L2, L3, DRAM); --list  the
// cases and why a case is skipped; --lib PATH --symbol SYM [--name N] [--backward | --abi
// bf16|f16]  a user's kernel from a shared library, timed beside the cases of its ABI
// (repeatable: a new kernel starts where one of these options repeats).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

#include "cases.h"
#include "gelulab/san_defaults.h" // SAN=1 builds: ASan's defaults

namespace
{

// The input distribution of this run (--dist): uniform on [-8, 8) (the default: the core and
// both tails of every definition), N(0, 1), or the pre-GELU activations of all-MiniLM-L6-v2
// that `make deps` saves (--dist-file: rows of 1536 values, one per token; n below the file's
// size takes whole rows spread evenly over it, so that every layer is in; above, the file
// repeated).
std::string dist_name = "uniform", dist_file;
std::vector<float> dist_data; // minilm: the file's values

std::vector<float> inputs(size_t n)
{
    std::vector<float> x(n);
    if (dist_name == "minilm") { // whole rows spread evenly, or the file repeated
        size_t row = 1536, rows = dist_data.size() / row, m = (n + row - 1) / row;
        for (size_t i = 0; i < n; i++)
            x[i] = n >= dist_data.size() ? dist_data[i % dist_data.size()]
                                         : dist_data[(i / row) * rows / m * row + i % row];
        return x;
    }
    uint64_t s = 0x9e3779b97f4a7c15ull;
    auto next = [&s]() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (double)(s >> 40) * 0x1p-24; // [0, 1), 24 bits
    };
    bool normal = dist_name == "normal";
    for (size_t i = 0; i < n; i++) {
        if (!normal) {
            x[i] = (float)(next() * 16.0 - 8.0);
        } else { // Box-Muller, one of the pair
            double u1 = 1.0 - next(), u2 = next();
            x[i] = (float)(sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2));
        }
    }
    return x;
}

// --dist NAME [--dist-file PATH]: checks the name and reads minilm's file (an error: false)
bool load_dist(char *err, size_t len)
{
    if (dist_name == "uniform" || dist_name == "normal") return true;
    if (dist_name != "minilm") {
        snprintf(err, len, "--dist %s: uniform, normal or minilm", dist_name.c_str());
        return false;
    }
    if (dist_file.empty()) {
        // the Makefile's GL_CACHE: $GL_CACHE, else $XDG_CACHE_HOME/gelulab, else ~/.cache/gelulab
        const char *cache = getenv("GL_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
                   *home = getenv("HOME");
        dist_file = cache && *cache ? std::string(cache)
                    : xdg && *xdg   ? std::string(xdg) + "/gelulab"
                                    : std::string(home ? home : "") + "/.cache/gelulab";
        dist_file += "/activations/minilm-l6-gelu-inputs.f32";
    }
    FILE *f = fopen(dist_file.c_str(), "rb");
    if (!f) {
        snprintf(err, len, "--dist minilm: cannot open %s: %s (make deps-activations makes it)",
                 dist_file.c_str(), strerror(errno));
        return false;
    }
    float buf[4096];
    size_t got;
    while ((got = fread(buf, sizeof *buf, 4096, f)) > 0)
        dist_data.insert(dist_data.end(), buf, buf + got);
    fclose(f);
    for (float v : dist_data)
        if (!std::isfinite(v)) {
            snprintf(err, len, "--dist minilm: %s holds a value that is not finite",
                     dist_file.c_str());
            return false;
        }
    if (dist_data.empty()) {
        snprintf(err, len, "--dist minilm: %s is empty", dist_file.c_str());
        return false;
    }
    return true;
}

// A line on stderr at most every 10 s: which benchmark runs (the log stays short).
void progress(const gl_bench_case *c, size_t n)
{
    static auto t0 = std::chrono::steady_clock::now(), last = t0;
    auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::seconds(10)) return;
    last = now;
    fprintf(stderr, "gelulab-bench: %4.0f s, running %s/%zu\n",
            std::chrono::duration<double>(now - t0).count(), c->name, n);
}

// x and y in one page-aligned block, y starting half a page after a page boundary: the same
// relative placement for every case and run (otherwise malloc decides, and placements where
// y - x is a multiple of 4 KiB, or just above x, make loads wait on stores that only seem to
// alias, and make memcpy's `rep movsb` slow on some cores: a 25x swing seen on AMD Zen 3).
// A backward case's dy follows y, likewise half a page after a page boundary: dy = x/8. The
// 16-bit cases' inputs (x rounded to bfloat16 and to binary16, nearest-even) and results follow,
// the first at a page boundary, each next one 2 KiB past the end of the one before (the same
// placement for every case and run).
uint16_t to_bf16(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

uint16_t to_f16(float v)
{
    _Float16 h = (_Float16)v;
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

struct buffers {
    float *base, *x, *y, *dy;
    uint16_t *xb, *xh, *y16; // bfloat16 and binary16 inputs, 16-bit results
    explicit buffers(size_t n)
    {
        size_t pad = (n + 1023) / 1024 * 1024; // floats: whole pages
        base = static_cast<float *>(aligned_alloc(4096, (5 * pad + 4096) * sizeof(float)));
        if (!base) {
            fprintf(stderr, "gelulab-bench: out of memory for %zu floats\n", n);
            exit(2);
        }
        x = base, y = base + pad + 512, dy = base + 2 * pad + 1536;
        xb = reinterpret_cast<uint16_t *>(base + 3 * pad + 2048);
        xh = xb + pad + 1024; // pad 16-bit elements (n or more), then 2 KiB
        y16 = xh + pad + 1024;
        std::vector<float> v = inputs(n);
        memcpy(x, v.data(), n * sizeof(float));
        memset(y, 0, n * sizeof(float));
        for (size_t i = 0; i < n; i++) dy[i] = v[i] * 0.125f;
        for (size_t i = 0; i < n; i++) xb[i] = to_bf16(v[i]), xh[i] = to_f16(v[i]);
        memset(y16, 0, n * sizeof *y16);
    }
    ~buffers() { free(base); }
    buffers(const buffers &) = delete;
    buffers &operator=(const buffers &) = delete;
};

// The buffers of size n, made once per size and kept for the run: Google Benchmark calls a
// benchmark several times (warm-up, each repetition, its trial runs), and making 16 Mi inputs
// and faulting in 128 MiB each time cost more wall time than the measurements. Kernels only
// read x, so every case sees the same inputs.
buffers &buffers_of(size_t n)
{
    static std::map<size_t, std::unique_ptr<buffers>> cache;
    std::unique_ptr<buffers> &b = cache[n];
    if (!b) b = std::make_unique<buffers>(n);
    return *b;
}

// whether case c is a backward one (x and dy in, dx out), or a 16-bit one (bits in and out)
bool backward(const gl_bench_case *c)
{
    return c->abi == GL_KERNEL_BWD;
}
bool sixteen(const gl_bench_case *c)
{
    return gl_kernel_abi_is16(c->abi);
}

// One call of the case on the buffers
inline void call_case(const gl_bench_case *c, const buffers &b, size_t n)
{
    const float *xp = b.x, *dyp = b.dy;
    float *yp = b.y;
    if (sixteen(c))
        c->fn.u16(c->abi == GL_KERNEL_F16 ? b.xh : b.xb, b.y16, n);
    else if (c->abi == GL_KERNEL_BWD)
        c->fn.bwd(xp, dyp, yp, n);
    else
        c->fn.f32(xp, yp, n);
}

// The bytes a call of case c reads and writes per element (its ABI: a value read and one
// written; a backward case: x and dy read, dx written)
size_t bytes_per_elem(const gl_bench_case *c)
{
    return sixteen(c) ? 2 * sizeof(uint16_t) : (backward(c) ? 3 : 2) * sizeof(float);
}

// The largest cache's bytes (Google Benchmark's reading of the CPU; where it reads none, as
// if a cache held everything)
size_t largest_cache()
{
    static size_t bytes = [] {
        size_t most = 0;
        for (const auto &cache : benchmark::CPUInfo::Get().caches)
            most = std::max(most, (size_t)std::max(cache.size, 0));
        return most ? most : SIZE_MAX;
    }();
    return bytes;
}

// Whether case c may keep state for each size that the first call at a size makes (the untimed
// call before a repetition does that work: run_case). Only gelulab's own code (its kernels,
// libgelulab's entry points, the baselines) is known to keep none; a peer's library may:
// oneDNN's primitives and ggml's graphs (also built inside their 16-bit calls), Eigen's
// temporaries (3 arrays of n floats, made again when the size changes), and a user's kernel
// is unknown.
bool keeps_per_size_state(const gl_bench_case *c)
{
    static const char *const own[] = {"gelulab", "lib", "baseline"}; // + "-bwd", "16"
    if (c->prepare) return true;
    for (const char *k : own)
        if (!strncmp(c->kind, k, strlen(k))) return false;
    return true;
}

// A benchmark's figures once its loop is done: elements/s, bytes/s (bytes_per_elem), cycles per
// element from the TSC ticks its iterations took, its size and place, and the label bench_io.c
// reads
void report_case(benchmark::State &state, const gl_bench_case *c, size_t n, size_t index,
                 double ticks)
{
    double elems = (double)state.iterations() * (double)n;
    state.SetItemsProcessed((int64_t)elems);
    state.SetBytesProcessed((int64_t)(elems * (double)bytes_per_elem(c)));
    state.counters["cycles_per_elem"] = benchmark::Counter(elems > 0 ? ticks / elems : 0);
    state.counters["n"] = benchmark::Counter((double)n);
    state.counters["case_index"] = benchmark::Counter((double)index); // the table's order
    std::string label = std::string("kind=") + c->kind + " defn=" + c->defn + " isa=" + c->isa;
    if (c->library) label += std::string(" lib=") + c->library; // a user's kernel: its PATH
    if (c->time_cmd) label += " timed=framework";
    if (sixteen(c)) label += std::string(" fmt=") + gl_kernel_abi_name(c->abi);
    if (dist_name != "uniform") label += " dist=" + dist_name; // absent: the default
    state.SetLabel(label);
}

// The warm-up and a repetition's length (--benchmark_min_warmup_time, --benchmark_min_time), in
// seconds: read here, since this shim runs both (Google Benchmark is given no warm-up)
double warmup_s = 0.1, min_time_s = 0.05;

// The calls a repetition of the benchmark (case index, size n) makes: 0 until its warm-up
uint64_t &batch_of(size_t index, size_t n)
{
    static std::map<std::pair<size_t, size_t>, uint64_t> batch;
    return batch[{index, n}];
}

// Warms a benchmark up and sizes its repetitions: `timed(m)` makes m calls and gives the
// seconds they took; batches of calls until warmup_s is spent (at least one call), each sized
// from the calls before so that the warm-up ends near warmup_s; the last batch's seconds per
// call give k, the calls that last min_time_s with a 5 % margin (Google Benchmark, given half
// of min_time_s, runs a repetition again, longer, when it falls short of that).
template <class Timed> uint64_t warm_up(Timed timed)
{
    double spent = 0, per_call = 0;
    uint64_t calls = 0, m = 1;
    for (;;) {
        double s = timed(m);
        if (s < 0) return 0; // failed: said by timed
        spent += s, calls += m, per_call = s / (double)m;
        if (spent >= warmup_s) break;
        double want = per_call > 0 ? (warmup_s - spent) / per_call : 10.0 * (double)calls;
        m = (uint64_t)std::min(std::max(std::ceil(want), 1.0), 10.0 * (double)calls);
    }
    double k = per_call > 0 ? std::ceil(min_time_s * 1.05 / per_call) : 1e9;
    return (uint64_t)std::min(std::max(k, 1.0), 1e9);
}

void run_case(benchmark::State &state, const gl_bench_case *c, size_t n, size_t index)
{
    progress(c, n);
    buffers &b = buffers_of(n);
    if (c->prepare) c->prepare(n);
    uint64_t &k = batch_of(index, n);
    if (k) { // a later repetition: one call, untimed (the first: its warm-up's calls), which
        // does the first call's work and brings the inputs back into the caches after the
        // interleaved benchmarks; not where a repetition is one call on more bytes than the
        // largest cache holds and the case keeps no state per size: there it would double the
        // repetition's cost (at 16 Mi floats, about 6 s of a full run) and bring nothing back
        if (k > 1 || keeps_per_size_state(c) || n * bytes_per_elem(c) <= largest_cache())
            call_case(c, b, n);
    } else {
        k = warm_up([&](uint64_t m) {
            auto t0 = std::chrono::steady_clock::now();
            for (uint64_t i = 0; i < m; i++) call_case(c, b, n);
            benchmark::ClobberMemory();
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        });
    }
    unsigned long long t0 = gl_bench_tsc();
    while (state.KeepRunningBatch((benchmark::IterationCount)k)) {
        for (uint64_t i = 0; i < k; i++) {
            call_case(c, b, n);
            benchmark::DoNotOptimize(b.y);
            benchmark::DoNotOptimize(b.y16);
            benchmark::ClobberMemory();
        }
    }
    report_case(state, c, n, index, (double)(gl_bench_tsc() - t0));
}

// time-stamp-counter ticks per second, measured once (over 20 ms of the steady clock): a served
// peer's seconds, measured in its own process, in the cycles/element of the other cases
double tsc_hz()
{
    static double hz = 0;
    if (hz == 0) {
        auto t0 = std::chrono::steady_clock::now();
        unsigned long long c0 = gl_bench_tsc();
        while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(20)) {
        }
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        hz = (double)(gl_bench_tsc() - c0) / s;
    }
    return hz;
}

// A served peer (a Python framework): its calls are timed inside its own process, the
// framework's call in a loop on its own tensor (docs/exec-protocol.md, "Timing"), a repetition's
// k calls in one request; the pipe and the conversions are not in the time (manual time).
void run_served(benchmark::State &state, const gl_bench_case *c, size_t n, size_t index)
{
    progress(c, n);
    buffers &b = buffers_of(n);
    char why[600];
    const void *in = b.x;
    size_t bytes = n * sizeof(float);
    if (backward(c)) { // pairs x, dy: made once per size, like the buffers (most loads send none)
        static std::map<size_t, std::vector<float>> pairs_of;
        std::vector<float> &pairs = pairs_of[n];
        if (pairs.empty()) {
            pairs.resize(2 * n);
            for (size_t i = 0; i < n; i++) pairs[2 * i] = b.x[i], pairs[2 * i + 1] = b.dy[i];
        }
        in = pairs.data(), bytes *= 2;
    } else if (sixteen(c)) {
        in = c->abi == GL_KERNEL_F16 ? b.xh : b.xb, bytes = n * sizeof(uint16_t);
    }
    if (gl_bench_served_load(c, n, in, bytes, why, sizeof why) != 0) {
        state.SkipWithError(why);
        return;
    }
    uint64_t &k = batch_of(index, n);
    if (!k)
        k = warm_up([&](uint64_t m) {
            double s = 0;
            return gl_bench_served_time(c, n, m, &s, why, sizeof why) == 0 ? s : -1.0;
        });
    if (!k) {
        state.SkipWithError(why);
        return;
    }
    double total = 0; // a repetition: its k calls timed in one request
    while (state.KeepRunningBatch((benchmark::IterationCount)k)) {
        double s = 0;
        if (gl_bench_served_time(c, n, k, &s, why, sizeof why) != 0) {
            state.SkipWithError(why);
            break;
        }
        state.SetIterationTime(s);
        total += s;
    }
    report_case(state, c, n, index, total * tsc_hz());
}

// whether Google Benchmark's --benchmark_filter keeps the benchmark `name` (a regular
// expression searched in it; a leading '-' negates; empty or "all" keeps all)
bool filter_keeps(const std::string &filter, const std::string &name)
{
    if (filter.empty() || filter == "all") return true;
    bool negate = filter[0] == '-';
    try {
        bool found = std::regex_search(name, std::regex(negate ? filter.substr(1) : filter));
        return found != negate;
    } catch (const std::regex_error &) {
        return true; // Google Benchmark reports a bad filter itself
    }
}

bool has_flag(int argc, char **argv, const char *prefix)
{
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], prefix, strlen(prefix))) return true;
    return false;
}

int usage(FILE *f)
{
    fprintf(f,
            "usage: gelulab-bench [--sizes=N,N,...] [--dist=D [--dist-file=PATH]] [--list]\n"
            "                     [--peer-runs | --peers-of MODULE]\n"
            "                     [--lib PATH --symbol SYM [--name N] [--backward | --abi F]]...\n"
            "                     [Google Benchmark options]\n"
            "Throughput of gelulab's kernels, baselines (memcpy, relu-vec) and peers (SLEEF,\n"
            "oneDNN, ...), of the backward kernels, peers and baseline (relu-bwd-vec), and\n"
            "of the 16-bit kernels and peers beside memcpy16 and relu16,\n"
            "pinned to one CPU, 5 repetitions by default. Typical use:\n"
            "  gelulab-bench --benchmark_out=bench.json --benchmark_out_format=json\n"
            "then 'gelulab bench-table bench.json'. The inputs (--dist; the label says\n"
            "dist=D, but for uniform):\n"
            "  uniform   uniform on [-8, 8) (the default: the core and both tails)\n"
            "  normal    N(0, 1)\n"
            "  minilm    the inputs of all-MiniLM-L6-v2's GELUs, in order (make deps saves\n"
            "            them: $GL_CACHE/activations/minilm-l6-gelu-inputs.f32, --dist-file)\n"
            "A user's kernel, timed in the same run:\n"
            "  --lib PATH --symbol SYM  void SYM(const float *x, float *y, size_t n) from the\n"
            "                      shared library PATH (kind user, beside the forward cases)\n"
            "  --backward          SYM is void SYM(const float *x, const float *dy, float *dx,\n"
            "                      size_t n) (kind user-bwd, beside the backward cases)\n"
            "  --abi bf16|f16      SYM is void SYM(const uint16_t *x, uint16_t *y, size_t n) on\n"
            "                      bfloat16 or binary16 bits (kind user16, beside memcpy16)\n"
            "  --name N            the case's name (default: SYM)\n"
            "  Repeat them for several kernels: a new kernel starts where one of these\n"
            "  options repeats; a kernel without --lib takes the one before's. A library or\n"
            "  symbol that does not load: one line, exit 2, before any timing.\n"
            "Peers whose library runs only in a process of its own (oneDNN 3.13: gelulab/peers.h)\n"
            "are skipped here and timed in a run of their own:\n"
            "  --peer-runs         prints the modules of those libraries, one per line (nothing\n"
            "                      is timed)\n"
            "  --peers-of MODULE   times MODULE's peers alone, beside memcpy, memcpy16 and the\n"
            "                      compare peer (oneDNN 2.6 gelu_erf): the scale that gelulab\n"
            "                      bench-table and make report put the run's times on\n"
            "Timing:\n"
            "  --benchmark_min_time=S  a repetition's length (default 0.05): its calls are\n"
            "                      counted from a warm-up of --benchmark_min_warmup_time=S\n"
            "                      (default 0.1), not by Google Benchmark\n"
            "Google Benchmark's own options:\n"
            "  --benchmark_filter=REGEX --benchmark_repetitions=N ...\n");
    return f == stdout ? 0 : 2;
}

// A user's kernel as given: --lib, --symbol, --name, --backward, --abi (NULL, false: not given)
struct user_kernel {
    const char *lib = nullptr, *symbol = nullptr, *name = nullptr, *abi = nullptr;
    bool backward = false;
};

int bad(const char *fmt, const char *a, const char *b = "")
{
    fprintf(stderr, "gelulab-bench: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

// Takes argv[*i] when it is one of the user-kernel options (--opt VALUE or --opt=VALUE) into
// users, a new kernel started where an option repeats; 1 taken, 0 not ours, 2 an error (said).
int user_option(int argc, char **argv, int *i, std::vector<user_kernel> &users)
{
    static const char *const opts[] = {"--lib", "--symbol", "--name", "--abi"};
    const char *a = argv[*i], *v = nullptr;
    size_t k = 0, l = 0;
    while (k < sizeof opts / sizeof *opts &&
           (l = strlen(opts[k]), strncmp(a, opts[k], l) || (a[l] && a[l] != '=')))
        k++;
    if (k == sizeof opts / sizeof *opts && strcmp(a, "--backward")) return 0;
    if (k < sizeof opts / sizeof *opts) {
        v = a[l] == '=' ? a + l + 1 : *i + 1 < argc ? argv[++*i] : nullptr;
        if (!v || !*v || (a[l] != '=' && !strncmp(v, "--", 2)))
            return bad("%s needs a value", opts[k]);
    }
    if (users.empty()) users.emplace_back();
    auto field = [k](user_kernel &u) -> const char *& {
        return k == 0 ? u.lib : k == 1 ? u.symbol : k == 2 ? u.name : u.abi;
    };
    bool flag = k == sizeof opts / sizeof *opts; // --backward
    if (flag ? users.back().backward : field(users.back()) != nullptr)
        users.emplace_back(); // a repeated option: the next kernel
    if (flag)
        users.back().backward = true;
    else
        field(users.back()) = v;
    return 1;
}

// Loads the user's kernels (gl_bench_add_user); 0, or 2 with one line said
int load_users(std::vector<user_kernel> &users)
{
    const char *lib = nullptr;
    for (user_kernel &u : users) {
        if (!u.lib) u.lib = lib;
        if (!u.symbol)
            return u.lib ? bad("--lib %s: no --symbol (the function to time)", u.lib)
                         : bad("%s without --lib PATH --symbol SYM", u.backward ? "--backward"
                                                                     : u.name   ? "--name"
                                                                                : "--abi");
        if (!u.lib)
            return bad("--symbol %s: no --lib (the shared library that holds it)", u.symbol);
        lib = u.lib;
        if (u.abi && strcmp(u.abi, "bf16") && strcmp(u.abi, "f16"))
            return bad("--abi %s: bf16 or f16 (16-bit kernels)", u.abi);
        if (u.abi && u.backward)
            return bad("--symbol %s: --backward and --abi %s (backward kernels are binary32)",
                       u.symbol, u.abi);
        if (!u.name) u.name = u.symbol;
        if (strlen(u.name) >= sizeof(gl_bench_case{}.name))
            return bad("--name %s: longer than %s characters", u.name, "63");
        char err[600];
        if (gl_bench_add_user(u.lib, u.symbol, u.name, u.backward, u.abi, err, sizeof err))
            return bad("%s", err);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const char *omp = getenv("OMP_NUM_THREADS");
    if (!omp || strcmp(omp, "1")) { // oneDNN's OpenMP reads it at start-up: re-execute
        setenv("OMP_NUM_THREADS", "1", 1);
        execv("/proc/self/exe", argv);
        perror("gelulab-bench: re-executing with OMP_NUM_THREADS=1");
        return 2;
    }
    std::vector<size_t> sizes = {1u << 10, 1u << 12, 1u << 16, 1u << 20, 1u << 24};
    std::vector<char *> args = {argv[0]};
    std::vector<user_kernel> users;
    bool list = false;
    const char *peers_of = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return usage(stdout);
        int taken = user_option(argc, argv, &i, users);
        if (taken == 2) return 2;
        if (taken) {
            continue;
        } else if (!strcmp(argv[i], "--list")) {
            list = true;
        } else if (!strcmp(argv[i], "--peer-runs")) {
            for (const char *const *m = gl_bench_peer_runs(); *m; m++) printf("%s\n", *m);
            return 0;
        } else if (!strcmp(argv[i], "--peers-of") || !strncmp(argv[i], "--peers-of=", 11)) {
            const char *m = argv[i][10] == '=' ? argv[i] + 11 : i + 1 < argc ? argv[++i] : nullptr;
            if (!m || !*m)
                return bad("%s", "--peers-of needs a module (gelulab-bench --peer-runs)");
            gl_bench_peers_of(peers_of = m);
        } else if (!strncmp(argv[i], "--dist=", 7)) {
            dist_name = argv[i] + 7;
        } else if (!strncmp(argv[i], "--dist-file=", 12)) {
            dist_file = argv[i] + 12;
        } else if (!strncmp(argv[i], "--sizes=", 8)) {
            sizes.clear();
            for (const char *p = argv[i] + 8; *p;) {
                char *end;
                unsigned long long v = strtoull(p, &end, 10);
                if (end == p || v == 0 || v > (1ull << 28) || (*end && *end != ',')) {
                    fprintf(stderr,
                            "gelulab-bench: bad --sizes '%s' (sizes 1..2^28, comma-separated)\n",
                            argv[i] + 8);
                    return 2;
                }
                sizes.push_back((size_t)v);
                p = *end ? end + 1 : end;
            }
        } else if (!strncmp(argv[i], "--benchmark_min_warmup_time=", 28) ||
                   !strncmp(argv[i], "--benchmark_min_time=", 21)) {
            bool warm = argv[i][16] == 'w'; // the warm-up is this shim's: not passed on
            const char *v = strchr(argv[i], '=') + 1;
            char *end;
            double t = strtod(v, &end);
            if (end == v || *end || !(t >= 0 && t <= 3600))
                return bad("%s: seconds, 0 to 3600", argv[i]);
            (warm ? warmup_s : min_time_s) = t; // neither passed on (below)
        } else {
            args.push_back(argv[i]);
        }
    }
    // Google Benchmark runs a case's first repetition again, longer, when it lasts less than its
    // --benchmark_min_time, and then every later repetition as long: given min_time_s itself,
    // it did so whenever the calls ran more than 5 % faster than in the warm-up (a fifth of the
    // cases on a noisy machine), and their repetitions lasted 74 ms instead of 42 (median). The
    // calls a repetition makes are this shim's (warm_up): Google Benchmark is given half the
    // time, and runs a repetition again only when it ran twice as fast as its warm-up foretold.
    char mint[64];
    snprintf(mint, sizeof mint, "--benchmark_min_time=%.9g", min_time_s / 2);
    // the warm-up is this shim's (warm_up), not also Google Benchmark's, whose default the
    // environment's BENCHMARK_MIN_WARMUP_TIME would otherwise set
    std::string reps = "--benchmark_repetitions=5",
                inter = "--benchmark_enable_random_interleaving=true",
                no_warmup = "--benchmark_min_warmup_time=0";
    if (!has_flag(argc, argv, "--benchmark_repetitions")) args.push_back(&reps[0]);
    args.push_back(mint);
    args.push_back(&no_warmup[0]);
    if (!has_flag(argc, argv, "--benchmark_enable_random_interleaving")) args.push_back(&inter[0]);
    int nargs = (int)args.size();
    args.push_back(nullptr);

    if (!list) { // a wrong flag ends here, in one line, before any work or note
        benchmark::Initialize(&nargs, args.data());
        if (benchmark::ReportUnrecognizedArguments(nargs, args.data())) return 2;
    }
    if (!users.empty() && load_users(users)) return 2;
    char dist_err[600];
    if (!load_dist(dist_err, sizeof dist_err)) return bad("%s", dist_err);
    if (gl_bench_pin() != 0)
        fprintf(stderr, "gelulab-bench: could not pin to one CPU (running unpinned)\n");
    size_t n_cases;
    const gl_bench_case *cases = gl_bench_cases(&n_cases);
    bool of_module = !peers_of; // --peers-of MODULE: one of its peers is listed, run or skipped
    for (size_t i = 0; i < n_cases && !of_module; i++)
        of_module = !strncmp(cases[i].kind, "peer", 4) && !cases[i].compare;
    if (!of_module)
        return bad("--peers-of %s: no peer of that module in the table (gelulab list --peers "
                   "--sweep-args names each peer's module)",
                   peers_of);
    for (size_t i = 0; i < n_cases; i++) // a user's kernel under a name taken: said before timing
        for (size_t j = 0; j < n_cases && !strncmp(cases[i].kind, "user", 4); j++)
            if (j != i && !strcmp(cases[i].name, cases[j].name))
                return bad("--name %s: there is a case of that name (give another --name)",
                           cases[i].name);
    std::string filter;
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--benchmark_filter=", 19)) filter = argv[i] + 19;
    std::vector<const gl_bench_case *> served;
    for (size_t i = 0; i < n_cases; i++) {
        const gl_bench_case *c = &cases[i];
        if (list)
            printf("%-30s %-12s %-10s %-7s %s\n", c->name, c->kind, c->defn, c->isa,
                   c->time_cmd                       ? "runs (timed in its framework's process)"
                   : gl_kernel_fn_set(c->abi, c->fn) ? "runs"
                                                     : c->skip);
        if (!gl_kernel_fn_set(c->abi, c->fn) && !c->time_cmd) {
            if (!list) fprintf(stderr, "gelulab-bench: skipped %s: %s\n", c->name, c->skip);
            continue;
        }
        if (c->compare && !list) { // the case ratios are to, and its column title
            benchmark::AddCustomContext("gelulab_compare", c->name);
            benchmark::AddCustomContext("gelulab_compare_title", c->compare);
        }
        bool timed = false; // a served case that --benchmark_filter keeps: its process warmed
        for (size_t n : sizes) {
            std::string name = std::string(c->name) + "/" + std::to_string(n);
            timed |= c->time_cmd && filter_keeps(filter, name);
            if (c->time_cmd)
                benchmark::RegisterBenchmark(name.c_str(), run_served, c, n, i)->UseManualTime();
            else
                benchmark::RegisterBenchmark(name.c_str(), run_case, c, n, i)->UseRealTime();
        }
        if (timed) served.push_back(c);
    }
    if (list) return 0;
    gl_bench_served_warm(served.data(), served.size());
    benchmark::RunSpecifiedBenchmarks();
    gl_bench_served_stop();
    benchmark::Shutdown();
    return 0;
}
