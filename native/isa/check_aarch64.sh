#!/usr/bin/env bash
# The engine on 64-bit ARM, checked on an x86-64 machine: ggml and our engine cross-compiled for
# aarch64 (Debian's g++-aarch64-linux-gnu), native/isa/packed_check run under QEMU's user-mode
# emulation (qemu-user) on a CPU with the dot-product instructions (our NEON kernels) and on one
# without (ggml's products). Correctness only: timings under emulation mean nothing.
# Usage: native/isa/check_aarch64.sh BUILD_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
out="$(mkdir -p "$1" && cd "$1" && pwd)"
python="${PYTHON:-$here/.venv/bin/python}"
if ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq g++-aarch64-linux-gnu qemu-user >/dev/null
  else
    echo "check_aarch64.sh needs Debian's g++-aarch64-linux-gnu and qemu-user: sudo apt-get install g++-aarch64-linux-gnu qemu-user" >&2
    exit 1
  fi
fi
lib="$("$here/native/isa/build_ggml.sh" aarch64 "$out")"
ggml_src="$(dirname "$(dirname "$lib")")"
ggml_inc="$(ls -d "$out"/llama_cpp_python-*/vendor/llama.cpp/ggml/include | head -1)"
# the engine's sources, as the fuzz harness builds them
sources=$(sed -n '/^set(CODECHECK_ENGINE_SOURCES/,/)/p' "$here/CMakeLists.txt" | grep -o 'native/[^ )]*\.cpp')
objs=()
for s in $sources native/isa/packed_check.cpp; do
  o="$out/obj-aarch64/$(basename "$s" .cpp).o"
  mkdir -p "$(dirname "$o")"
  aarch64-linux-gnu-g++ -std=c++17 -O2 -Wall -Wno-unused-parameter -I "$here/native/include" -I "$here/native/src" \
    -I "$ggml_inc" -c "$here/$s" -o "$o"
  objs+=("$o")
done
aarch64-linux-gnu-g++ -o "$out/packed_check-aarch64" "${objs[@]}" -L "$lib" -lggml -lggml-base -lggml-cpu -lpthread \
  -Wl,-rpath,"$lib"
models=$("$python" "$here/native/isa/make_models.py" "$out/models")
lib_v8="$("$here/native/isa/build_ggml.sh" aarch64-v8 "$out")"
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
# max: every Armv8 extension QEMU emulates, the dot product included (our NEON kernels); a CPU
# without it (cortex-a72, Armv8.0) runs ggml built for it (pip builds ggml for the CPU it is on)
echo "== aarch64 under QEMU, -cpu max (dot product)"
qemu-aarch64 -cpu max -E LD_LIBRARY_PATH="$lib" "$out/packed_check-aarch64" $models
echo "== aarch64 under QEMU, -cpu cortex-a72 (no dot product)"
qemu-aarch64 -cpu cortex-a72 -E LD_LIBRARY_PATH="$lib_v8" "$out/packed_check-aarch64" $models
