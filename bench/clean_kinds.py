"""False alarms on clean code of kinds no calibration read, and the measure a model warning is
held to: the margin in nats, or a file-relative one, chosen on one half and reported on the other.

    python bench/clean_kinds.py CLEAN_KINDS.jsonl [--model NAME ...] [--dev QUALITY_REPORT_DIR ...]
        [--limit N] [--threads 1] [--file-target 0.05] [--cell-target 0.01] [--option repairs=lines]
        [--out bench/reports/clean-kinds] [--cache bench/out/cache] [--fresh]

Input: the units of bench/clean_corpus.py (library functions, tutorial scripts, contest
solutions, notebook cells; none from a benchmark here, none from QuixBugs or ConDefects). Each
unit is checked once per model at margin 0, as a view checks it: a file unit alone with its
module's top-level names defined (`namespace`), a notebook cell as the command line checks a
notebook cell (its earlier cells as context). Every weighed place's best gain is kept.

Two measures of a warning (a supported candidate at a place):
  nats      its gain on the rest of the code (today's margin)
  lead      its gain less the best gain available at the unit's other lines (0 when none is
            positive): an edit must stand out of its own file, whatever the file's usual gains
With `--option repairs=lines` every check also keeps each whole-line repair's own gain (a
fill-in-the-middle reading: core/repairs.py), and the repairs' floor is chosen the same way,
beside the nats threshold chosen here (a unit is flagged by a warning or a repair).
The units are split by group (module, tutorial, contest, notebook; a hash of its name) into a
calibration half and a report half. For each measure and model, the threshold is the smallest
(in steps of 0.25) at which no file kind of the calibration half has more than --file-target of
its units with a warning; for notebook cells, --cell-target. The report half's figures per kind
follow, beside today's shipped margins; with --dev (bench/quality.py reports run at margin 0 with
this checker: their pairs.jsonl hold every place's gain), the dev sets' top-3 localisation and
correct files flagged at each threshold, and the same model's raw signal and ruff from that run.
The last stdout line is one JSON object; report.md, units.jsonl, summary.json and command.txt go
to --out.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from check_options import parse_option  # noqa: E402
from requirements import require  # noqa: E402

FILE_KINDS = ("library", "tutorial", "contest")
MEASURES = ("nats", "lead")
GRID = [k / 4 for k in range(0, 161)]
CACHE_VERSION = "2"      # 2: line repairs held to their own floor and gated (core/repairs.not_a_repair)


def split_of(group: str) -> str:
    return "calib" if int(hashlib.sha256(group.encode()).hexdigest(), 16) % 2 == 0 else "report"


# -- the checks ------------------------------------------------------------------------------------

def check_unit(unit: dict, options: dict):
    from jupyter_codecheck.core.check import check
    if unit["kind"] == "notebook":
        from notebook_crashes import check_cell, cli_context
        context, before = cli_context(unit["earlier_cells"])
        return check_cell(unit["source"], context, before, options)
    return check(unit["source"], namespace=unit.get("names") or None, **options)


def unit_key(unit: dict) -> str:
    return json.dumps({k: v for k, v in unit.items() if k not in ("split", "checks")}, sort_keys=True)


def summed_up(unit: dict, options: dict) -> dict:
    from quality_report import _evidence_of
    r = check_unit(unit, options)
    ev = _evidence_of(r)
    return {"places": ev["places"], "repairs": ev["repairs"], "errors": ev["errors"],
            "time_s": r.stats.get("time_s"), "tokens": r.stats.get("tokens")}


def run_checks(units: list[dict], options: dict, cache_dir: Path, fresh: bool) -> list[dict]:
    from disk_cache import cached_checks
    return cached_checks([(unit_key(u), u) for u in units], summed_up, options={**options, "margin": 0.0},
                         directory=cache_dir / "clean-kinds", fresh=fresh, version=CACHE_VERSION)


# -- the measures ----------------------------------------------------------------------------------

def warnings_of(places: list, measure: str) -> dict[int, float]:
    """Each line's strongest warning under the measure (supported candidates only)."""
    best: dict[int, float] = {}
    for line, gain, supported in places:
        if not supported or gain is None:
            continue
        if measure == "lead":
            elsewhere = [g for ln, g, _ in places if ln != line and g is not None]
            gain = gain - max([0.0, *elsewhere])
        best[line] = max(best.get(line, float("-inf")), gain)
    return best


def repairs_of(check: dict, floor: float) -> dict[int, float]:
    """Each line's strongest line repair at or past `floor` (its own gain: core/repairs.py)."""
    best: dict[int, float] = {}
    for line, gain, *_ in check.get("repairs") or []:
        if gain >= floor:
            best[line] = max(best.get(line, float("-inf")), gain)
    return best


def flagged(check: dict, measure: str, threshold: float, repair_floor: float = math.inf) -> bool:
    return any(v >= threshold for v in warnings_of(check["places"], measure).values()) or \
        bool(repairs_of(check, repair_floor))


def share(checks: list[dict], measure: str, threshold: float, repair_floor: float = math.inf) -> float | None:
    return round(sum(flagged(c, measure, threshold, repair_floor) for c in checks) / len(checks), 4) \
        if checks else None


def choose(by_kind: dict[str, list[dict]], kinds, measure: str, target: float, *, repairs_at: float | None = None) -> float:
    """The smallest threshold at which no kind of the calibration half passes the target; with
    `repairs_at` (the warnings' threshold), the line repairs' floor beside those warnings."""
    for t in GRID:
        rule = (measure, t) if repairs_at is None else (measure, repairs_at, t)
        if all((share(by_kind[k], *rule) or 0.0) <= target for k in kinds if by_kind.get(k)):
            return t
    return GRID[-1] if repairs_at is None else math.inf


def dev_figures(pairs: list[dict], measure: str, threshold: float, repair_floor: float = math.inf) -> dict:
    """Top-3 localisation and correct files flagged on a quality.py report's pairs at a threshold:
    error lines first, then warnings by the measure and line repairs past their floor, by gain."""
    def ranked(ev):
        warn = warnings_of(ev.get("places") or [[ln, g, True] for ln, g in ev["gains"]], measure)
        found = [(v, ln) for ln, v in warn.items() if v >= threshold] + \
            [(v, ln) for ln, v in repairs_of(ev, repair_floor).items()]
        order = sorted(((v, ln) for v, ln in found if ln not in ev["errors"]), key=lambda x: (-x[0], x[1]))
        return ev["errors"] + list(dict.fromkeys(ln for _, ln in order))
    n = len(pairs) or 1
    return {"pairs": len(pairs),
            "top3": round(sum(any(ln in p["changed"] for ln in ranked(p["evidence"]["buggy"])[:3]) for p in pairs) / n, 4),
            "fixed_flagged": round(sum(bool(ranked(p["evidence"]["fixed"])) for p in pairs) / n, 4)}


def load_dev(directory: Path) -> dict:
    pairs = [json.loads(x) for x in open(directory / "pairs.jsonl", encoding="utf-8")]
    summary = json.loads((directory / "summary.json").read_text())
    return {"dir": str(directory), "model": summary["model"], "pairs": pairs,
            "datasets": {d: {"raw_signal_top3": f["scores"]["worst"]["top3"],
                             "ruff_top3": f["ruff"]["top3_localisation"], "ruff_flagged": f["ruff"]["false_alarm_rate"]}
                         for d, f in summary["datasets"].items()}}


# -- main ------------------------------------------------------------------------------------------

def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("units", help="the JSONL of bench/clean_corpus.py")
    ap.add_argument("--model", action="append", default=[], help="a model's short name or GGUF path (repeatable)")
    ap.add_argument("--dev", action="append", default=[], help="a bench/quality.py report folder run at margin 0")
    ap.add_argument("--limit", type=int, default=0, help="first N units of each kind")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--file-target", type=float, default=0.05)
    ap.add_argument("--cell-target", type=float, default=0.01)
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "clean-kinds"))
    ap.add_argument("--cache", default=str(ROOT / "bench" / "out" / "cache"))
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--option", action="append", type=parse_option, default=[],
                    help="check() option name=value for every check (e.g. repairs=lines: the line repairs' "
                         "floor is then chosen beside the warnings' threshold)")
    args = ap.parse_args(argv)
    require("bench/clean_kinds.py", paths=[args.units, *args.dev])
    units = [json.loads(x) for x in open(args.units, encoding="utf-8") if x.strip()]
    if args.limit:
        units = [u for k in (*FILE_KINDS, "notebook") for u in [v for v in units if v["kind"] == k][:args.limit]]
    for u in units:
        u["split"] = split_of(u["group"])
    from jupyter_codecheck.core.calibration import shipped, shipped_margin, shipped_margin_measure
    from jupyter_codecheck.engine.paths import resolve_model_path
    devs = [load_dev(Path(d)) for d in args.dev]
    summary = {"units": {k: {s: sum(u["kind"] == k and u["split"] == s for u in units) for s in ("calib", "report")}
                         for k in (*FILE_KINDS, "notebook")}, "models": {}}
    for model in args.model or [None]:
        name = resolve_model_path(model).name
        t0 = time.perf_counter()
        options = {**({"model": model} if model else {}), **({"n_threads": args.threads} if args.threads else {}),
                   **dict(args.option)}
        checks = run_checks(units, options, Path(args.cache), args.fresh)
        for u, c in zip(units, checks):
            u.setdefault("checks", {})[name] = c
        half = {s: {k: [u["checks"][name] for u in units if u["kind"] == k and u["split"] == s]
                    for k in (*FILE_KINDS, "notebook")} for s in ("calib", "report")}
        shipped_now = {"file": shipped(shipped_margin, model, 2.0),
                       "cell": shipped(lambda m: shipped_margin(m, notebook=True), model, 2.0)}
        fig = {"check_s": round(time.perf_counter() - t0, 1), "shipped": shipped_now,
               "errors_share": {k: round(sum(bool(c["errors"]) for c in half["report"][k] + half["calib"][k])
                                         / max(1, len(half["report"][k] + half["calib"][k])), 4)
                                for k in (*FILE_KINDS, "notebook")}}
        today = shipped(shipped_margin_measure, model, "nats")      # the shipped margins' measure
        rows = {f"today ({today})": (today, shipped_now["file"], shipped_now["cell"], math.inf, math.inf)}
        for measure in MEASURES:
            rows[f"{measure}, chosen here"] = (measure, choose(half["calib"], FILE_KINDS, measure, args.file_target),
                                               choose(half["calib"], ("notebook",), measure, args.cell_target),
                                               math.inf, math.inf)
        if any(c.get("repairs") is not None for c in checks) and dict(args.option).get("repairs") == "lines":
            # the line repairs beside the warnings: today's floor, and the one chosen on the
            # calibration half beside the nats threshold chosen there
            from jupyter_codecheck.core.repairs import FIM_MARGIN
            _, t_file, t_cell, _, _ = rows["nats, chosen here"]
            rows["nats + line repairs, today's floor"] = ("nats", t_file, t_cell, FIM_MARGIN, FIM_MARGIN)
            rows["nats + line repairs, chosen here"] = (
                "nats", t_file, t_cell,
                choose(half["calib"], FILE_KINDS, "nats", args.file_target, repairs_at=t_file),
                choose(half["calib"], ("notebook",), "nats", args.cell_target, repairs_at=t_cell))
        fig["rules"] = {}
        for label, (measure, t_file, t_cell, r_file, r_cell) in rows.items():
            rule = {"measure": measure, "file_threshold": t_file, "cell_threshold": t_cell,
                    "repair_floor_files": r_file if math.isfinite(r_file) else None,
                    "repair_floor_cells": r_cell if math.isfinite(r_cell) else None,
                    **{f"{s}_flagged": {k: share(half[s][k], measure, *((t_cell, r_cell) if k == "notebook"
                                                                         else (t_file, r_file)))
                                        for k in (*FILE_KINDS, "notebook")} for s in ("calib", "report")}}
            rule["dev"] = {d: dev_figures([p for p in dev["pairs"] if p["dataset"] == d], measure, t_file, r_file)
                           for dev in devs if dev["model"] == name for d in dev["datasets"]}
            fig["rules"][label] = rule
        fig["dev_baselines"] = {d: f for dev in devs if dev["model"] == name for d, f in dev["datasets"].items()}
        summary["models"][name] = fig
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/clean_kinds.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    with open(out / "units.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps({k: v for k, v in u.items() if k not in ("earlier_cells", "names")}) + "\n" for u in units)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (out / "report.md").write_text(report(summary, command, args))
    print(json.dumps(summary))


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def report(summary: dict, command: str, args) -> str:
    kinds = (*FILE_KINDS, "notebook")
    lines = ["# False alarms on clean code of other kinds, and the measure a warning is held to", "",
             f"`{command}`", "",
             "Units (calibration / report half, split by group): " +
             ", ".join(f"{k} {v['calib']}/{v['report']}" for k, v in summary["units"].items()) + ".", "",
             f"Targets: every file kind ≤ {args.file_target:.0%} flagged, notebook cells ≤ {args.cell_target:.0%}. "
             "Flagged: a model warning (a supported candidate at or past the threshold); Python's errors are "
             "counted apart (`errors`). `lead`: a warning's gain less the best gain available at the unit's other "
             "lines.", ""]
    for name, fig in summary["models"].items():
        lines += [f"## {name} ({fig['check_s']:.0f} s of checks)", "",
                  "Units with an error finding (Python's, not the model's): " +
                  ", ".join(f"{k} {_pct(v)}" for k, v in fig["errors_share"].items()) + ".", "",
                  "| rule | threshold files / cells | " + " | ".join(f"{k} (report)" for k in kinds) + " | " +
                  " | ".join(f"{k} (calib)" for k in kinds) + " |",
                  "|---|---|" + "---|" * (2 * len(kinds))]
        for label, r in fig["rules"].items():
            floors = "" if r.get("repair_floor_files") is None and r.get("repair_floor_cells") is None else \
                f"; repairs {r['repair_floor_files'] if r['repair_floor_files'] is not None else '–'} / " \
                f"{r['repair_floor_cells'] if r['repair_floor_cells'] is not None else '–'}"
            lines.append(f"| {label} | {r['file_threshold']:g} / {r['cell_threshold']:g}{floors} | " +
                         " | ".join(_pct(r["report_flagged"][k]) for k in kinds) + " | " +
                         " | ".join(_pct(r["calib_flagged"][k]) for k in kinds) + " |")
        if any(r["dev"] for r in fig["rules"].values()):
            lines += ["", "Dev sets at each rule's file threshold (bench/quality.py's checks, margin 0, read "
                      "offline): top-3 localisation / correct files flagged; the same run's raw signal and ruff.", "",
                      "| rule | " + " | ".join(fig["dev_baselines"]) + " |", "|---|" + "---|" * len(fig["dev_baselines"])]
            for label, r in fig["rules"].items():
                lines.append(f"| {label} | " + " | ".join(f"{_pct(v['top3'])} / {_pct(v['fixed_flagged'])}"
                                                           for v in r["dev"].values()) + " |")
            lines.append("| raw signal (no threshold) | " + " | ".join(_pct(b["raw_signal_top3"]) + " / –"
                                                                       for b in fig["dev_baselines"].values()) + " |")
            lines.append("| ruff (default rules) | " + " | ".join(f"{_pct(b['ruff_top3'])} / {_pct(b['ruff_flagged'])}"
                                                                 for b in fig["dev_baselines"].values()) + " |")
        lines.append("")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
