"""The shipped calibrations, read at run time: per model file, the acceptance thresholds and the
evidence margin `jupyter-codecheck calibrate` (tools/calibrate.py) chose on clean code.

The files live in `calibration/*.json` next to this module (schema "jupyter-codecheck/calibration/1",
described in tools/calibrate.py) and are matched to a model file by size, then SHA-256.
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

SCHEMA = "jupyter-codecheck/calibration/1"
SHIPPED_DIR = Path(__file__).resolve().parent / "calibration"


class CalibrationError(ValueError):
    """A calibration file that is missing fields, of another schema, or for another model."""


# -- the calibration file ----------------------------------------------------------------------------

# the model's warnings judged on files and notebook cells; "_with_repairs": checks with line
# repairs (`repairs="lines"`), their repairs at the shipped floor counted as warnings
_VERDICTS = frozenset({"files", "cells", "files_with_repairs", "cells_with_repairs"})

@dataclass
class Calibration:
    model: dict
    options: dict
    target_false_alarm: float
    achieved_false_alarm: float
    buggy_line_hit: float | None
    objective: str
    calibration_set: dict
    created: str
    tool: str = "jupyter-codecheck calibrate"
    schema: str = SCHEMA
    # the evidence margin (nats) a model warning needs, with how it was chosen (bench/quality.py)
    margin: float | None = None
    margin_note: str = ""
    # the margin on notebook cells (bench/notebook_margin.py), where the model's warnings did not
    # tell crashing cells from fixed ones at any margin
    notebook_margin: float | None = None
    notebook_margin_note: str = ""
    # where the model's edits are weighed: its N most surprising lines (the `places` option)
    places: int | None = None
    places_note: str = ""
    # whether the model's warnings beat chance on held-out code of each kind ("files": Python
    # files, "cells": notebook cells), with the figures: where they did not, no view shows them
    model_warnings: dict | None = None
    model_warnings_note: str = ""
    # what `margin` and `notebook_margin` hold a warning's gain to (core/evidence.EvidenceConfig.measure)
    margin_measure: str = "nats"
    # the floor of a fill-in-the-middle line repair's own gain (the `repair_margin` option;
    # core/repairs.py), for files and for notebook cells, with how it was chosen
    repair_margin: dict | None = None
    repair_margin_note: str = ""

    def repair_floor(self, notebook: bool = False) -> float | None:
        """The shipped floor of a line repair's own gain for files or notebook cells, or None."""
        return None if self.repair_margin is None else self.repair_margin["cells" if notebook else "files"]

    def to_dict(self) -> dict:
        return {"schema": self.schema, "model": self.model, "options": self.options,
                "target_false_alarm": self.target_false_alarm,
                "achieved_false_alarm": self.achieved_false_alarm, "buggy_line_hit": self.buggy_line_hit,
                "objective": self.objective, "calibration_set": self.calibration_set,
                "created": self.created, "tool": self.tool,
                **({"margin": self.margin, "margin_note": self.margin_note} if self.margin is not None else {}),
                **({"notebook_margin": self.notebook_margin, "notebook_margin_note": self.notebook_margin_note}
                   if self.notebook_margin is not None else {}),
                **({"places": self.places, "places_note": self.places_note} if self.places is not None else {}),
                **({"model_warnings": self.model_warnings, "model_warnings_note": self.model_warnings_note}
                   if self.model_warnings is not None else {}),
                **({"margin_measure": self.margin_measure} if self.margin_measure != "nats" else {}),
                **({"repair_margin": self.repair_margin, "repair_margin_note": self.repair_margin_note}
                   if self.repair_margin is not None else {})}

    @classmethod
    def from_dict(cls, d: dict) -> "Calibration":
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            raise CalibrationError(f"not a calibration file of schema {SCHEMA!r} "
                                   f"(schema: {d.get('schema') if isinstance(d, dict) else None!r})")
        required = ("model", "options", "target_false_alarm", "achieved_false_alarm", "calibration_set", "created")
        missing = [k for k in required if k not in d]
        if missing:
            raise CalibrationError(f"calibration file lacks {', '.join(missing)}")
        opts = d["options"]
        allowed = {"accept_prob", "accept_rank", "lenient_floor", "lenient_tokens", "accept_combine"}
        if not isinstance(opts, dict) or set(opts) - allowed:
            raise CalibrationError(f"calibration options must be a subset of {sorted(allowed)}, got {opts!r}")
        shown = d.get("model_warnings")
        if shown is not None and (not isinstance(shown, dict) or not {"files", "cells"} <= set(shown) <= _VERDICTS
                                  or not all(isinstance(v, bool) for v in shown.values())):
            raise CalibrationError(f"calibration model_warnings must be {{'files': bool, 'cells': bool}} (and "
                                   f"optionally 'files_with_repairs', 'cells_with_repairs'), got {shown!r}")
        floors = d.get("repair_margin")
        if floors is not None and (not isinstance(floors, dict) or set(floors) != {"files", "cells"} or not all(
                type(v) in (int, float) for v in floors.values())):
            raise CalibrationError(f"calibration repair_margin must be {{'files': nats, 'cells': nats}}, got {floors!r}")
        measure = d.get("margin_measure", "nats")
        if measure not in ("nats", "lead"):
            raise CalibrationError(f"calibration margin_measure must be 'nats' or 'lead', got {measure!r}")
        return cls(model=d["model"], options=dict(opts), target_false_alarm=float(d["target_false_alarm"]),
                   achieved_false_alarm=float(d["achieved_false_alarm"]),
                   buggy_line_hit=d.get("buggy_line_hit"), objective=d.get("objective", ""),
                   calibration_set=d["calibration_set"], created=d["created"],
                   tool=d.get("tool", "jupyter-codecheck calibrate"),
                   margin=None if d.get("margin") is None else float(d["margin"]),
                   margin_note=d.get("margin_note", ""),
                   notebook_margin=None if d.get("notebook_margin") is None else float(d["notebook_margin"]),
                   notebook_margin_note=d.get("notebook_margin_note", ""),
                   places=None if d.get("places") is None else int(d["places"]),
                   places_note=d.get("places_note", ""),
                   model_warnings=None if shown is None else dict(shown),
                   model_warnings_note=d.get("model_warnings_note", ""), margin_measure=measure,
                   repair_margin=None if floors is None else {k: float(v) for k, v in floors.items()},
                   repair_margin_note=d.get("repair_margin_note", ""))

    def save(self, path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=2) + "\n")
        tmp.replace(path)          # never leave a half-written file where the checker looks
        return path


def load(path) -> Calibration:
    try:
        d = json.loads(Path(path).read_text())
    except json.JSONDecodeError as e:
        raise CalibrationError(f"{path}: not JSON ({e})") from None
    return Calibration.from_dict(d)


def file_sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def model_identity(path) -> dict:
    path = Path(path)
    name = path.stem
    try:
        from ..engine import Model    # the name stored in the GGUF, when it loads
        name = Model(path).info.name or name
    except Exception:  # noqa: BLE001 - identity still holds by hash
        pass
    return {"name": name, "file": path.name, "size": path.stat().st_size, "sha256": file_sha256(path)}


def default_for(model_path=None, directory=SHIPPED_DIR) -> Calibration | None:
    """The shipped calibration for a model file (matched by size, then SHA-256), or None.
    Cached per file (path, size, modification time): the hash is read once per process."""
    from ..engine.paths import resolve_model_path
    path = resolve_model_path(model_path).resolve()
    st = path.stat()
    return _default_for(str(path), st.st_size, st.st_mtime_ns, str(directory))


@functools.lru_cache(maxsize=16)
def _default_for(path: str, size: int, _mtime_ns: int, directory: str) -> Calibration | None:
    candidates = []
    for f in sorted(Path(directory).glob("*.json")):
        try:
            c = load(f)
        except (CalibrationError, OSError):
            continue
        if c.model.get("size") == size:
            candidates.append(c)
    if not candidates:
        return None
    # hashing the whole file costs a new process about as much as a small cell's check: the
    # digest is kept on disk, keyed by the file's path, size and modification time
    from ..engine.derived import on_disk
    digest = on_disk(path, "sha256", lambda: file_sha256(path), source=file_sha256)
    return next((c for c in candidates if c.model.get("sha256") == digest), None)


def shipped_margin(model_path=None, notebook: bool = False) -> float | None:
    """The evidence margin shipped for a model file (for a notebook cell, its notebook margin
    where it has one), or None."""
    c = default_for(model_path)
    if c is None:
        return None
    return c.notebook_margin if notebook and c.notebook_margin is not None else c.margin


def shipped_margin_measure(model_path=None) -> str | None:
    """What the shipped margins of a model file measure ("nats" or "lead"), or None."""
    c = default_for(model_path)
    return None if c is None else c.margin_measure


def shipped_repair_margin(model_path=None, notebook: bool = False) -> float | None:
    """The floor of a line repair's own gain shipped for a model file (files or notebook cells),
    or None."""
    c = default_for(model_path)
    return None if c is None else c.repair_floor(notebook)


def shipped_model_warnings(model_path=None, notebook: bool = False, repairs: bool = False) -> bool | None:
    """Whether the model's warnings beat chance on held-out code of this kind (notebook cells,
    or files) by its shipped calibration, in checks with line repairs when `repairs`; None
    without a calibration or a verdict."""
    c = default_for(model_path)
    if c is None or c.model_warnings is None:
        return None
    return c.model_warnings.get(("cells" if notebook else "files") + ("_with_repairs" if repairs else ""))


def default_options(model_path=None) -> dict:
    """check() options from the shipped calibration of a model ({} when there is none)."""
    c = default_for(model_path)
    return dict(c.options) if c is not None else {}


__all__ = ["SCHEMA", "SHIPPED_DIR", "Calibration", "CalibrationError", "default_for", "default_options",
           "file_sha256", "load", "model_identity", "shipped_margin", "shipped_margin_measure", "shipped_model_warnings"]


def shipped(reader, model, default):
    """What a reader of this module (`default_options`, `shipped_margin`, ...) finds shipped for
    this model file, else the default: a model without a calibration, or without a file yet, is
    checked all the same."""
    try:
        value = reader(model)
    except (OSError, ValueError):
        value = None
    return default if value is None else value
