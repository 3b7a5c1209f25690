"""What the products run on in this process: the CPU, the instructions of our packed product
(CODECHECK_PACKED_ISA caps them) and those ggml was built for. Every speed figure names them: a
ratio measured with AVX-512 says nothing of an AVX2 laptop or an ARM Mac."""
from __future__ import annotations

import ctypes
import platform


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ggml_features() -> list[str]:
    """The instruction sets the loaded ggml CPU backend was compiled for (ggml_cpu_has_*)."""
    from jupyter_codecheck.engine import _native  # noqa: F401  (loads ggml first: ours, by its rpath)
    try:
        lib = ctypes.CDLL("libggml-cpu.so.0")
    except OSError:
        return []
    names = ("avx512_vnni", "avx512", "avx_vnni", "avx2", "fma", "f16c", "sse3", "neon", "dotprod", "sve")
    found = []
    for name in names:
        fn = getattr(lib, f"ggml_cpu_has_{name}", None)
        if fn is not None:
            fn.restype = ctypes.c_int
            if fn():
                found.append(name)
    return found


def instruction_sets() -> dict:
    from jupyter_codecheck.engine.session import packed_isa
    return {"cpu": _cpu_name(), "packed_isa": packed_isa(), "ggml_features": _ggml_features()}


def describe(facts: dict) -> str:
    return (f"{facts['cpu']}; packed product: {facts['packed_isa'] or 'none (ggml products)'}; "
            f"ggml built for: {', '.join(facts['ggml_features']) or 'generic'}")
