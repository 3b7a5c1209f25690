"""The model a check names, resolved once: its file, its shipped calibration, and what that
calibration sets (the acceptance thresholds, the evidence margin, the places weighed).

    model = resolve_model("qwen2.5-coder-1.5b")     # None: the default model
    model.path, model.calibration, model.margin(notebook=True), model.places

check() resolves the `model` option here and hands the object down (the options' thresholds,
the engine's load, the evidence step, the stats), so the name becomes a path in one place.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .calibration import Calibration, default_for


@dataclass(frozen=True)
class ResolvedModel:
    named: str | os.PathLike | None     # what the user gave: a path, a short name, None (the default)
    path: Path                          # the GGUF file
    calibration: Calibration | None     # shipped for this file (matched by size, then SHA-256)

    @property
    def display_name(self) -> str:
        from ..engine.paths import model_display_name
        return model_display_name(self.path)

    def thresholds(self) -> dict:
        """The acceptance thresholds shipped for the file ({} without a calibration)."""
        return dict(self.calibration.options) if self.calibration is not None else {}

    def margin(self, notebook: bool = False) -> float | None:
        """The evidence margin shipped for the file (for a notebook cell, its notebook margin
        where it has one), or None."""
        c = self.calibration
        if c is None:
            return None
        return c.notebook_margin if notebook and c.notebook_margin is not None else c.margin

    def repair_margin(self, notebook: bool = False) -> float | None:
        """The floor shipped for a fill-in-the-middle line repair's own gain (files, or notebook
        cells), or None."""
        return None if self.calibration is None else self.calibration.repair_floor(notebook)

    @property
    def margin_measure(self) -> str:
        """What the shipped margins measure: "nats" (an edit's own gain) or "lead" (its gain less
        the best gain at the cell's other lines); "nats" without a calibration."""
        return "nats" if self.calibration is None else (self.calibration.margin_measure or "nats")

    @property
    def places(self) -> int | None:
        """The `places` shipped for the file, or None."""
        return None if self.calibration is None else self.calibration.places


def resolve_model(model: str | os.PathLike | None = None) -> ResolvedModel:
    """The model `model` names (engine.paths' rules; ModelNotFoundError says how to install a
    missing one) with its shipped calibration. A calibration that cannot be read is none: the
    model is checked all the same."""
    from ..engine.paths import resolve_model_path
    path = resolve_model_path(model)
    try:
        calibration = default_for(path)
    except (OSError, ValueError):
        calibration = None
    return ResolvedModel(model, path, calibration)


def find_model(model: str | os.PathLike | None = None) -> ResolvedModel | None:
    """resolve_model, or None where the file is not there (yet): options may name a model that a
    later step (loading it) reports missing."""
    try:
        return resolve_model(model)
    except (OSError, ValueError):
        return None


__all__ = ["ResolvedModel", "find_model", "resolve_model"]
