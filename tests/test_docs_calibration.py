"""What the README's model table and docs/reference.md say ships for each model agrees with the
calibration files the package ships (core/calibration/*.json)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import jupyter_codecheck.core.calibration as calibration

REPO = Path(__file__).resolve().parent.parent
MODELS = {"qwen2.5-coder-0.5b": "qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b": "qwen2.5-coder-1.5b-instruct"}


def _shipped() -> set[str]:
    folder = Path(calibration.__file__).with_suffix("")
    return {Path(json.loads(p.read_text())["model"]["file"]).stem.lower() for p in folder.glob("*.json")}


def test_the_docs_say_a_calibration_ships_exactly_for_the_models_that_have_one():
    shipped = _shipped()
    reference = (REPO / "docs" / "reference.md").read_text()
    models = reference.split("## Models", 1)[1].split("\n## ", 1)[0]
    # each model's part of the section: from its `--model NAME` to the next one
    parts = re.split(r"(?=`--model qwen2\.5-coder-[\d.]+b`)", models)
    readme_rows = [ln for ln in (REPO / "README.md").read_text().splitlines() if ln.startswith("| Qwen2.5-Coder")]
    for name, stem in MODELS.items():
        (part,) = [" ".join(p.split()) for p in parts if p.startswith(f"`--model {name}`")]
        ships = stem in shipped
        assert ("No calibration ships" not in part) == ships, (name, ships)
        row = [r for r in readme_rows if f"`--model {name}`" in r]
        for r in row:
            says_it_ships = "calibrated thresholds ship" in r or (
                "calibration ships" in r and "no calibration ships" not in r.lower())
            assert says_it_ships == ships, (name, r)
