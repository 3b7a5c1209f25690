"""Did a model's warnings beat chance on held-out code of a kind? The verdict each view's default
follows (the `model_warnings` option; a calibration's `model_warnings`), read offline from the
benchmarks' reports at the model's shipped margins.

    python bench/warnings_verdict.py --files QUALITY_REPORT_DIR [--files ...]
        --cells NOTEBOOK_SLIPS_REPORT_DIR [--model NAME ...] [--alpha 0.05]

Files: bench/quality.py reports run at margin 0 on held-out pairs (HumanEvalFix; DebugBench's
report half): buggy files with a model warning on a changed line against correct files with any
model warning, at the model's shipped margin and measure (nats or lead). Checks made with `repairs=lines` (the report's options say so) count a line repair
at the model's shipped repair floor as a warning too, as a verdict of their own ("with line
repairs"). Cells: bench/notebook_slips.py's report: slips with
a model warning on the changed line against original cells with any, at the shipped notebook
margin. A warning that knows nothing of the bug lands on a buggy file's changed line less often
than it lands anywhere in a correct one; the warnings beat chance on a kind when the first share
is larger by a one-sided Fisher exact test at --alpha on every dataset of the kind. The last line
is one JSON object: per model, {"files": bool, "cells": bool} and the figures.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from requirements import require  # noqa: E402


def _warned(places: list, margin: float, measure: str, repairs=(), floor: float = math.inf) -> set[int]:
    """The lines with a warning at the margin under the measure (bench/clean_kinds.py's), and
    those whose line repair reaches the repairs' floor (checks with `repairs=lines`)."""
    from clean_kinds import repairs_of, warnings_of
    return {ln for ln, v in warnings_of(places, measure).items() if v >= margin} | \
        set(repairs_of({"repairs": list(repairs)}, floor))


def _places(ev: dict) -> list:
    return ev.get("places") or [[ln, g, True] for ln, g in ev["gains"]]


def test(found: int, n_buggy: int, flagged: int, n_clean: int) -> float:
    from scipy.stats import fisher_exact
    return float(fisher_exact([[found, n_buggy - found], [flagged, n_clean - flagged]], alternative="greater")[1])


def files_figures(directory: Path, margin: float, measure: str, floor: float = math.inf) -> dict:
    pairs = [json.loads(x) for x in open(directory / "pairs.jsonl", encoding="utf-8")]
    if pairs and "evidence" not in pairs[0]:
        return _from_sweep(directory, margin, measure)
    out = {}

    def warned(ev):
        return _warned(_places(ev), margin, measure, ev.get("repairs") or (), floor)
    for d in dict.fromkeys(p["dataset"] for p in pairs):
        ps = [p for p in pairs if p["dataset"] == d]
        found = sum(bool(warned(p["evidence"]["buggy"]) & set(p["changed"])) for p in ps)
        flagged = sum(bool(warned(p["evidence"]["fixed"])) for p in ps)
        out[d] = {"buggy": len(ps), "found": found, "clean": len(ps), "flagged": flagged,
                  "p": round(test(found, len(ps), flagged, len(ps)), 4)}
    return out


def _from_sweep(directory: Path, margin: float, measure: str) -> dict:
    """An older report, whose pairs kept no gains: its margin sweep at the margin (nats only),
    buggy files with a changed line among the top three findings against correct files with any
    finding (errors too: a looser reading, said in the output)."""
    if measure != "nats":
        return {}
    summary = json.loads((directory / "summary.json").read_text())
    out = {}
    for d, sweep in summary["margin_sweep"].items():
        row = next((r for r in sweep if r["margin"] == margin), None)
        n = summary["datasets"][d]["pairs"]
        if row is not None:
            found, flagged = round(row["top3"] * n), round(row["fixed_flagged"] * n)
            out[f"{d} (top-3 finding, any finding)"] = {"buggy": n, "found": found, "clean": n, "flagged": flagged,
                                                         "p": round(test(found, n, flagged, n), 4)}
    return out


def cells_figures(directory: Path, model_file: str, margin: float, measure: str, floor: float = math.inf) -> dict:
    summary = json.loads((directory / "summary.json").read_text())
    key = next((k for k, m in summary.get("models", {}).items() if m["file"] == model_file), None)
    if key is None:
        return {}
    slips = [s for s in map(json.loads, open(directory / "slips.jsonl", encoding="utf-8"))
             if key in s.get("checks", {})]
    cells = [c for c in map(json.loads, open(directory / "cells.jsonl", encoding="utf-8"))
             if key in c.get("checks", {})]
    # the slips' checks kept the supported places only: a lead is read against those
    def warned(check):
        return _warned([[ln, g, True] for ln, g in check["evidence"]], margin, measure, check.get("repairs") or (), floor)
    found = sum(s["line"] in warned(s["checks"][key]) for s in slips)
    flagged = sum(bool(warned(c["checks"][key])) for c in cells)
    return {directory.name: {"buggy": len(slips), "found": found, "clean": len(cells), "flagged": flagged,
                               "p": round(test(found, len(slips), flagged, len(cells)), 4)}}


def crashes_figures(directory: Path, margin: float, measure: str, floor: float = math.inf) -> dict:
    """bench/notebook_crashes.py's cases (code mode): crashing targets with any model warning
    against their fixed versions with any (the fix is often in an earlier cell: no changed line)."""
    rows = [json.loads(x) for x in open(directory / "cases.jsonl", encoding="utf-8")]
    warned = {side: [bool(_warned([e[:3] for e in r["evidence"]], margin, measure, r.get("repairs") or (), floor))
                     for r in rows
                     if r["side"] == side and r["mode"] == "code"] for side in ("buggy", "fixed")}
    found, flagged = sum(warned["buggy"]), sum(warned["fixed"])
    n_b, n_c = len(warned["buggy"]), len(warned["fixed"])
    return {f"{directory.name} (JunoBench crashes, any warning)": {
        "buggy": n_b, "found": found, "clean": n_c, "flagged": flagged, "p": round(test(found, n_b, flagged, n_c), 4)}}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", action="append", default=[], help="a bench/quality.py report run at margin 0")
    ap.add_argument("--cells", action="append", default=[], help="a bench/notebook_slips.py report")
    ap.add_argument("--crashes", action="append", default=[],
                    help="a bench/notebook_crashes.py report of one model (its cases.jsonl), for cells")
    ap.add_argument("--alpha", type=float, default=0.05)
    args = ap.parse_args(argv)
    require("bench/warnings_verdict.py", packages=("scipy",), paths=[*args.files, *args.cells, *args.crashes])
    from jupyter_codecheck.core.calibration import (shipped, shipped_margin, shipped_margin_measure,
                                                    shipped_repair_margin)
    from jupyter_codecheck.core.repairs import FIM_MARGIN
    from jupyter_codecheck.engine.paths import KNOWN_MODELS, resolve_model_path
    by_file = {resolve_model_path(name).name: name for name in KNOWN_MODELS
               if _installed(resolve_model_path, name)}
    out = {}
    def floor_of(model_file: str, options: dict, notebook: bool) -> float:
        """The shipped floor of the line repairs where the report's checks made them, else none."""
        if options.get("repairs") != "lines":
            return math.inf
        return shipped(lambda p: shipped_repair_margin(p, notebook=notebook), by_file.get(model_file), FIM_MARGIN)

    for directory in args.files:
        summary = json.loads((Path(directory) / "summary.json").read_text())
        model_file = summary["model"]
        margin = shipped(shipped_margin, by_file.get(model_file), 2.0)
        measure = shipped(shipped_margin_measure, by_file.get(model_file), "nats")
        floor = floor_of(model_file, summary.get("options") or {}, False)
        key = model_file + (" with line repairs" if math.isfinite(floor) else "")
        out.setdefault(key, {"files": {}, "cells": {}, "margins": {}})
        out[key]["margins"]["files"] = [margin, measure] + ([floor] if math.isfinite(floor) else [])
        out[key]["files"].update(files_figures(Path(directory), margin, measure, floor))
    for directory in args.cells:
        summary = json.loads((Path(directory) / "summary.json").read_text())
        for m in summary.get("models", {}).values():
            model_file = m["file"]
            margin = shipped(lambda p: shipped_margin(p, notebook=True), by_file.get(model_file), 2.0)
            measure = shipped(shipped_margin_measure, by_file.get(model_file), "nats")
            floor = floor_of(model_file, summary.get("options") or {}, True)
            key = model_file + (" with line repairs" if math.isfinite(floor) else "")
            out.setdefault(key, {"files": {}, "cells": {}, "margins": {}})
            out[key]["margins"]["cells"] = [margin, measure] + ([floor] if math.isfinite(floor) else [])
            out[key]["cells"].update(cells_figures(Path(directory), model_file, margin, measure, floor))
    for directory in args.crashes:
        model_file = _crash_model(Path(directory), by_file)
        margin = shipped(lambda p: shipped_margin(p, notebook=True), by_file.get(model_file), 2.0)
        measure = shipped(shipped_margin_measure, by_file.get(model_file), "nats")
        options = json.loads((Path(directory) / "summary.json").read_text()).get("options") or {}
        floor = floor_of(model_file, options, True)
        key = model_file + (" with line repairs" if math.isfinite(floor) else "")
        out.setdefault(key, {"files": {}, "cells": {}, "margins": {}})
        out[key]["cells"].update(crashes_figures(Path(directory), margin, measure, floor))
    for model_file, fig in out.items():
        for kind in ("files", "cells"):
            sets = fig[kind].values()
            fig[f"{kind}_beat_chance"] = bool(sets) and all(s["p"] < args.alpha and s["found"] / s["buggy"] >
                                                            s["flagged"] / s["clean"] for s in sets)
            for name, s in fig[kind].items():
                print(f"{model_file} {kind} {name}: {s['found']}/{s['buggy']} buggy with a warning on a changed "
                      f"line, {s['flagged']}/{s['clean']} clean with any, p = {s['p']}")
        print(f"{model_file}: files {'beat' if fig['files_beat_chance'] else 'did not beat'} chance, cells "
              f"{'beat' if fig['cells_beat_chance'] else 'did not beat'} chance")
    print(json.dumps(out))


def _crash_model(directory: Path, by_file: dict) -> str:
    """The model file a notebook_crashes report ran (its summary names it, else its command)."""
    summary = json.loads((directory / "summary.json").read_text())
    named = summary.get("model") or summary.get("options", {}).get("model")
    if named in by_file:
        return named
    short = {v: k for k, v in by_file.items()}
    command = (directory / "command.txt").read_text()
    return next((f for name, f in short.items() if name in command or name in str(named)),
                next(iter(by_file), str(named)))


def _installed(resolve, name) -> bool:
    try:
        return resolve(name).is_file()
    except Exception:  # noqa: BLE001 - a model not installed has no shipped margin to read
        return False


if __name__ == "__main__":
    main()
