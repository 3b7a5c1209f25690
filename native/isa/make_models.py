"""Writes the small quantized models native/isa/packed_check runs on: a random 2-layer qwen2 in
Q4_K_M (Q4_K and Q6_K matrices, as Qwen2.5-Coder's files) and a llama in Q4_1 (as SmolLM2's),
quantized by llama.cpp on this machine. Usage: python make_models.py OUT_DIR"""
from __future__ import annotations

import ctypes
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from gguf_files import tiny_model  # noqa: E402


def main(out: Path) -> None:
    import llama_cpp
    out.mkdir(parents=True, exist_ok=True)
    for arch, ftype, name in (("qwen2", llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_K_M, "tiny-qwen2-q4_k_m.gguf"),
                              ("llama", llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_1, "tiny-llama-q4_1.gguf")):
        f32 = out / f"tiny-{arch}-f32.gguf"
        f32.write_bytes(tiny_model(arch, n_embd=256, n_head=4, n_head_kv=2, n_ff=512, n_vocab=320).to_bytes())
        params = llama_cpp.llama_model_quantize_default_params()
        params.ftype = ftype
        params.nthread = 1
        if llama_cpp.llama_model_quantize(str(f32).encode(), str(out / name).encode(), ctypes.byref(params)) != 0:
            raise SystemExit(f"llama.cpp could not quantize {f32}")
        f32.unlink()
        print(out / name)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python make_models.py OUT_DIR")
    main(Path(sys.argv[1]))
