"""ctypes declarations of native/include/codecheck.h. Keep in step with the header."""
from __future__ import annotations

import ctypes as C
import os
from pathlib import Path

from .errors import BY_CODE, EngineError

LIB_NAME = "libcodecheck.so"
library_path: Path     # the engine library loaded (set by _load)


class cc_error(C.Structure):
    _fields_ = [("code", C.c_int32), ("offset", C.c_int64), ("key", C.c_char * 128),
                ("message", C.c_char * 512)]


class cc_model_info(C.Structure):
    _fields_ = [("arch", C.c_char * 32), ("name", C.c_char * 128), ("n_layer", C.c_int32),
                ("n_embd", C.c_int32), ("n_head", C.c_int32), ("n_head_kv", C.c_int32),
                ("head_dim", C.c_int32), ("n_ff", C.c_int32), ("n_vocab", C.c_int32),
                ("n_ctx_train", C.c_int32), ("rope_freq_base", C.c_float), ("norm_eps", C.c_float),
                ("tied_output", C.c_int32), ("output_type", C.c_int32), ("layer_type", C.c_int32),
                ("n_params", C.c_int64),
                ("file_size", C.c_int64)]


class cc_context_params(C.Structure):
    _fields_ = [("n_ctx", C.c_int32), ("n_batch", C.c_int32), ("n_threads", C.c_int32),
                ("kv_f32", C.c_int32), ("batch_type", C.c_int32), ("batch_min_rows", C.c_int32),
                ("packed", C.c_int32)]


class cc_head_out(C.Structure):
    _fields_ = [("logits", C.c_void_p), ("ref_logprob", C.c_void_p), ("ref_rank", C.c_void_p),
                ("topk_ids", C.c_void_p), ("topk_logprob", C.c_void_p), ("logsumexp", C.c_void_p)]


P = C.c_void_p
I32 = C.c_int32
ERR = C.POINTER(cc_error)

_SIGNATURES = {
    "cc_model_load": (P, [C.c_char_p, ERR]),
    "cc_model_free": (None, [P]),
    "cc_model_get_info": (None, [P, C.POINTER(cc_model_info)]),
    "cc_model_set_batch_cache": (C.c_int, [P, I32, C.c_char_p, ERR]),
    "cc_model_batch_source": (I32, [P, I32]),
    "ggml_type_name": (C.c_char_p, [C.c_int]),       # ggml's, reached through the engine's library
    "cc_context_default_params": (cc_context_params, []),
    "cc_context_new": (P, [P, cc_context_params, ERR]),
    "cc_context_free": (None, [P]),
    "cc_set_threads": (C.c_int, [P, I32]),
    "cc_n_ctx": (I32, [P]),
    "cc_n_past": (I32, [P]),
    "cc_truncate": (C.c_int, [P, I32, ERR]),
    "cc_batch_begin": (C.c_int, [P, P, I32, I32, ERR]),
    "cc_batch_begin_tree": (C.c_int, [P, P, P, P, I32, I32, ERR]),
    "cc_tree_commit": (C.c_int, [P, P, I32, ERR]),
    "cc_batch_step": (C.c_int, [P, ERR]),
    "cc_batch_layer": (I32, [P]),
    "cc_batch_active": (I32, [P, P]),
    "cc_batch_stop": (C.c_int, [P, P, I32, ERR]),
    "cc_batch_hidden": (C.c_int, [P, P, I32, P, ERR]),
    "cc_batch_exit_layers": (C.c_int, [P, P]),
    "cc_batch_run": (C.c_int, [P, ERR]),
    "cc_batch_end": (C.c_int, [P, ERR]),
    "cc_batch_abort": (C.c_int, [P, ERR]),
    "cc_flush": (C.c_int, [P, ERR]),
    "cc_batch_rows_per_layer": (C.c_int, [P, P]),
    "cc_packed_supported": (I32, []),
    "cc_model_packed_bytes": (C.c_int64, [P]),
    "cc_model_product": (C.c_int, [P, I32, I32, P, I32, P, I32, ERR]),
    "cc_packed_quantize": (C.c_int, [I32, P, I32, C.c_int64, P, I32, ERR]),
    "cc_head": (C.c_int, [P, P, I32, P, I32, I32, C.POINTER(cc_head_out), ERR]),
    "cc_head_states": (C.c_int, [P, P, I32, P, I32, I32, C.POINTER(cc_head_out), ERR]),
    "cc_set_shortlist": (C.c_int, [P, P, I32, ERR]),
}


def _find_library() -> Path:
    override = os.environ.get("JUPYTER_CODECHECK_NATIVE_LIB")
    if override:
        return Path(override)
    here = Path(__file__).parent / LIB_NAME
    if here.is_file():
        return here
    # imported from a source checkout (e.g. the repository root is the working directory): use
    # the library of the installed distribution
    try:
        from importlib.metadata import PackageNotFoundError, distribution
        installed = Path(distribution("jupyter-codecheck").locate_file(f"jupyter_codecheck/engine/{LIB_NAME}"))
        if installed.is_file():
            return installed
    except (PackageNotFoundError, ImportError):
        pass
    raise ImportError(
        f"the native engine ({LIB_NAME}) is not built next to {Path(__file__).parent}; "
        "install the package with `pip install .` (or `make install`) so CMake builds it")


def _load():
    # no `import llama_cpp`: our library finds the ggml installed beside it through its RUNPATH
    # ($ORIGIN); llama.cpp's ggml has the same sonames, so a process loading both holds one copy
    global library_path
    library_path = _find_library()
    lib = C.CDLL(str(library_path))
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


lib = _load()


def raise_error(err: cc_error, rc: int | None = None) -> None:
    code = err.code or (rc or -16)
    message = err.message.decode("utf-8", "replace") or f"engine error {code}"
    cls = BY_CODE.get(code, EngineError)
    offset = err.offset if err.offset >= 0 else None
    key = err.key.decode("utf-8", "replace") or None
    if cls is MemoryError:
        raise MemoryError(message)
    raise cls(message, code=code, offset=offset, key=key)


def check(rc: int, err: cc_error) -> int:
    """Raises the engine's error when a call returned a negative status."""
    if rc < 0:
        raise_error(err, rc)
    return rc


def ptr(array) -> int | None:
    """Address of a numpy array's data (None for None)."""
    return None if array is None else array.ctypes.data
