#!/usr/bin/env bash
# Builds ggml from the llama-cpp-python release the project pins, for one instruction set, so
# that one machine can run the engine's tests on what another CPU runs:
#   avx2     AVX2/FMA/F16C, no AVX-512: what ggml compiles to on most laptops (pip builds it with
#            -march=native)
#   generic  no AVX at all: ggml's plain C paths
#   aarch64  cross-compiled for 64-bit ARM with the dot-product instructions (Armv8.2-A+, as Apple
#            Silicon and Graviton), for QEMU's user-mode emulation (native/isa/check_aarch64.sh)
#   aarch64-v8  the same for Armv8.0-A without the dot product (Raspberry Pi 4, Graviton 1)
# Usage: native/isa/build_ggml.sh ISA OUT_DIR   (prints the directory of the built libraries)
# Load them with LD_LIBRARY_PATH=<that directory>: libllama and our library then share that ggml.
set -euo pipefail
isa="$1"
out="$(mkdir -p "$2" && cd "$2" && pwd)"
here="$(cd "$(dirname "$0")/../.." && pwd)"
python="${PYTHON:-$here/.venv/bin/python}"
version="$(sed -n 's/.*"llama-cpp-python==\([0-9.]*\)".*/\1/p' "$here/pyproject.toml" | head -1)"

case "$isa" in
  avx2)    flags=(-DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON) ;;
  generic) flags=(-DGGML_SSE42=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF) ;;
  aarch64|aarch64-v8)
    arch=armv8.2-a+dotprod; [ "$isa" = aarch64-v8 ] && arch=armv8-a
    flags=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64
           -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++
           -DGGML_CPU_ARM_ARCH="$arch") ;;
  *) echo "build_ggml.sh: ISA must be avx2, generic, aarch64 or aarch64-v8, got '$isa'" >&2; exit 2 ;;
esac

lib="$out/ggml-$isa/src"
if [ -f "$lib/libggml.so" ] && [ -f "$out/ggml-$isa/.version" ] && [ "$(cat "$out/ggml-$isa/.version")" = "$version" ]; then
  echo "$lib"; exit 0
fi

# the release's source (pip keeps the download in its cache)
src="$out/llama_cpp_python-$version"
if [ ! -d "$src" ]; then
  "$python" -m pip download -q --no-deps --no-binary llama-cpp-python "llama-cpp-python==$version" -d "$out" >&2
  tar -xzf "$out/llama_cpp_python-$version.tar.gz" -C "$out"
fi
ggml="$src/vendor/llama.cpp/ggml"
# the sdist leaves out the pkg-config template that ggml's stand-alone build configures
[ -f "$ggml/ggml.pc.in" ] || : > "$ggml/ggml.pc.in"

cmake -S "$ggml" -B "$out/ggml-$isa" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF \
  -DGGML_AVX512_BF16=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF \
  -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF "${flags[@]}" >&2
cmake --build "$out/ggml-$isa" >&2
echo "$version" > "$out/ggml-$isa/.version"
echo "$lib"
