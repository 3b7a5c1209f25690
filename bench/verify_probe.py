"""The evidence step's savings (decoding/verify.py): what each saves and what it changes.

    python bench/verify_probe.py [--dataset humanevalfix] [--limit N] [--categories logic]
                                 [--debugbench-split calib]

The screen (`Probe`): a one-token edit whose own part of the gain plus `edit_slack` nats falls
short of the margin is dropped for free; a warning's candidate is scored over its whole
continuation only if its gain after the edit and the first `tokens` written tokens, plus `slack`
nats, reaches the margin. The written side of every gain is read from the walk instead of being
scored again. None of these is a bound, so this measures them, on buggy and fixed files alike:

1. **The grid, offline.** Every candidate is scored in full once (margin 0, no screen) and its
   running log-probabilities kept; each (tokens, slack) and, before the shipped one, each
   `edit_slack` is then replayed on them: the files whose finding lines would change at the
   shipped margin, and the rows it would score against the unscreened verification (a chain's
   last token needs no row; tries ignored).
2. **The written side.** The same trace with the written side scored in branch rows: how far the
   gains move (the walk read the same tokens in other batches) and the files whose finding lines
   change at the shipped margin.
3. **Early exits on the verification rows** (`--early-exit SPEC`, off by default in check()):
   where K,V come from the exit state (`kv_mode="propagate"`, the `lens` policy), the test SPEC
   may stop a verification row before the last layer. Each file is checked at margin 0 with no
   screen with and without it: how far the gains move, the verification rows' layers saved and
   the scoring time.
4. **The shipped setting, live.** check() with its defaults against the same with `probe=0` and
   with the written side scored in rows, in one run: the verification's time over the walk's,
   its rows per token, and the files whose findings differ.

Choose the grid point on a calibration set (DebugBench `--debugbench-split calib`), report it on
the others. The last line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import quality  # noqa: E402  (the datasets and their preludes)

from jupyter_codecheck.core import evidence  # noqa: E402
from jupyter_codecheck.core.check import check  # noqa: E402
from jupyter_codecheck.decoding.verify import Probe  # noqa: E402
from jupyter_codecheck.core.evidence import EvidenceConfig  # noqa: E402

TOKENS = (0, 1, 2, 3, 4, 6)
SLACKS = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0)
EDIT_SLACKS = (2.0, 4.0, 6.0, 8.0, 10.0)   # the free step before the shipped (tokens, slack)


def forget() -> None:
    """Nothing of an earlier check is reused (a re-check keeps verdicts and decisions)."""
    from jupyter_codecheck.core.adapter import load_model
    load_model().forget()


@contextlib.contextmanager
def evidence_config(**fields):
    """check() weighs its evidence with these EvidenceConfig fields changed."""
    import jupyter_codecheck.core.check as check_module
    original = check_module.EvidenceConfig
    if fields:
        check_module.EvidenceConfig = functools.partial(EvidenceConfig, **fields)
    try:
        yield
    finally:
        check_module.EvidenceConfig = original


def written_in_rows(on: bool):
    """check() scores the written side of each gain in branch rows (as before the walk's reading
    was reused) while `on`."""
    return evidence_config(**({"written_from_walk": False} if on else {}))


def traced_check(src: str, context, record: list, rows: bool = False, **options) -> object:
    """check() at margin 0 with no screen, keeping every verdict of the evidence step (`rows`:
    the written side scored in branch rows)."""
    original = evidence._choose

    def keep(verdicts, kept, places, data, facts, margin):
        for v in verdicts:
            c = kept[v.key]
            record.append({"site": c.site, "edit": [c.start, c.end, c.text], "error": c.site in places.error_lines,
                           "deletion": evidence._is_deletion(c), "gain": v.gain, "edit_gain": v.edit_gain,
                           "ce": v.cum_edit.tolist(), "cw": v.cum_written.tolist(),
                           "ne": v.n_edit, "nw": v.n_written})
        return original(verdicts, kept, places, data, facts, margin)

    evidence._choose = keep
    forget()
    try:
        with written_in_rows(rows):
            return check(src, context=context, margin=0.0, probe=0, **options)
    finally:
        evidence._choose = original


def continuation_length(v: dict) -> int:
    return min(len(v["ce"]) - 1 - v["ne"], len(v["cw"]) - 1 - v["nw"])


def score_after(v: dict, tokens: int | None) -> float:
    """The candidate's score (decoding/verify.py; a deletion: its continuation part) after the edit
    and `tokens` written tokens (None: all of them)."""
    ce, cw, ne, nw = v["ce"], v["cw"], v["ne"], v["nw"]
    j = continuation_length(v) if tokens is None else min(tokens, continuation_length(v))
    if v["deletion"]:
        return (ce[ne + j] - ce[ne]) - (cw[nw + j] - cw[nw])
    return ce[ne + j] - cw[nw + j]


def finding_lines(file: dict, margin: float, kept) -> set[int]:
    """The file's finding lines at `margin` when only candidates `kept(v)` are scored in full:
    errors, then places whose best supported candidate reaches the margin (no overlap rule)."""
    lines = set(file["errors"])
    for v in file["verdicts"]:
        if not v["error"] and kept(v) and v["gain"] - v["edit_gain"] >= 0 and score_after(v, None) >= margin:
            lines.add(v["site"])
    return lines


def edit_part(v: dict) -> float | None:
    """The gain's own part of a one-token edit (what the free step screens), None otherwise."""
    return None if v["ne"] != 1 or v["deletion"] else v["ce"][1] - v["cw"][v["nw"]]


def screen(margin: float, tokens: int, slack: float, edit_slack: float | None):
    """(kept(v), rows(v)): whether the screen lets a candidate be scored in full, and the rows it
    costs (a chain's last token needs no row; the full score starts again from the edit)."""
    def kept(v):
        c = continuation_length(v)
        e = edit_part(v)
        if edit_slack is not None and e is not None and e + edit_slack < margin:
            return False
        return tokens >= c or score_after(v, tokens) + slack >= margin

    def rows(v):
        c, ne = continuation_length(v), v["ne"]
        e = edit_part(v)
        if edit_slack is not None and e is not None and e + edit_slack < margin:
            return 0
        if tokens >= c:
            return ne + c - 1
        return ne + min(tokens, c) - 1 + (ne + c - 1 if kept(v) else 0)
    return kept, rows


def replay(files: list[dict], margin: float) -> list[dict]:
    full = [finding_lines(f, margin, lambda v: True) for f in files]
    warnings = [v for f in files for v in f["verdicts"] if not v["error"]]
    rows_full = sum(v["ne"] + continuation_length(v) - 1 for v in warnings)
    points = [(t, s, None) for t in TOKENS for s in SLACKS] + \
             [(EvidenceConfig.probe_tokens, EvidenceConfig.probe_slack, e) for e in EDIT_SLACKS]
    out = []
    for tokens, slack, edit_slack in points:
        kept, rows = screen(margin, tokens, slack, edit_slack)
        changed = sum(finding_lines(f, margin, kept) != b for f, b in zip(files, full))
        out.append({"tokens": tokens, "slack": slack, "edit_slack": edit_slack, "files_changed": changed,
                    "rows_vs_unscreened": sum(rows(v) for v in warnings) / rows_full if rows_full else 1.0})
    return out


def early_exits(jobs, spec: str) -> dict:
    """Gains and costs of the verification with the exit test `spec` on its rows against without
    it, both with K,V from the exit state and the `lens` policy."""
    options = {"kv_mode": "propagate", "exit_policy": "lens"}
    deltas, rows, saved, scoring = [], 0, 0, {True: 0.0, False: 0.0}
    for src, ctx in jobs:
        gains, layers = {}, {}
        for on in (True, False):
            record: list = []
            with evidence_config(early_exit=spec if on else None):
                r = traced_check(src, ctx, record, **options)
            gains[on] = {(v["site"], tuple(v["edit"])): v["gain"] for v in record}
            layers[on] = r.stats["layers_computed"]
            scoring[on] += r.stats["verification"].get("scoring_s", 0.0)
            if on:
                rows += r.stats["verification"].get("rows", 0)
                n_layer = r.stats["n_layer"]
        saved += layers[False] - layers[True]
        deltas += [abs(g - gains[False][k]) for k, g in gains[True].items() if k in gains[False]]
    d = sorted(deltas)
    return {"spec": spec, "candidates": len(d), "mean_abs_gain_moved": sum(d) / len(d) if d else 0.0,
            "p99_abs_gain_moved": d[int(0.99 * (len(d) - 1))] if d else 0.0,
            "max_abs_gain_moved": d[-1] if d else 0.0,
            "verification_layers_saved": saved / (rows * n_layer) if rows else 0.0,
            "scoring_s": scoring[True], "scoring_s_without": scoring[False]}


def written_moves(files: list[dict], files_rows: list[dict], margin: float) -> dict:
    """How far the gains move when the written side is read from the walk instead of scored in
    rows, and the files whose finding lines change at `margin`."""
    deltas = []
    for a, b in zip(files, files_rows):
        theirs = {(v["site"], tuple(v["edit"])): v["gain"] for v in b["verdicts"]}
        deltas += [abs(v["gain"] - theirs[k]) for v in a["verdicts"]
                   if (k := (v["site"], tuple(v["edit"]))) in theirs]
    changed = sum(finding_lines(a, margin, lambda v: True) != finding_lines(b, margin, lambda v: True)
                  for a, b in zip(files, files_rows))
    d = sorted(deltas)
    return {"candidates": len(d), "mean_abs_gain_moved": sum(d) / len(d) if d else 0.0,
            "p99_abs_gain_moved": d[int(0.99 * (len(d) - 1))] if d else 0.0,
            "max_abs_gain_moved": d[-1] if d else 0.0, "files_changed": changed}


def live(jobs, options: dict, rows_written: bool = False) -> tuple[dict, list]:
    walk = verify = 0.0
    rows = tokens = 0
    findings = []
    for src, ctx in jobs:
        forget()
        with written_in_rows(rows_written):
            r = check(src, context=ctx, **options)
        v = r.stats.get("verification") or {}
        verify += v.get("time_s", 0.0)
        walk += r.stats["time_s"] - v.get("time_s", 0.0)
        rows += v.get("rows", 0)
        tokens += r.stats["tokens"]
        findings.append(sorted((f.line, f.severity, f.replacement or "") for f in r.findings))
    return {"verification_over_walk": verify / walk if walk else 0.0,
            "verification_rows_per_token": rows / tokens if tokens else 0.0,
            "check_s": walk + verify}, findings


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", action="append", help="humanevalfix | debugbench | a JSONL path")
    ap.add_argument("--categories", default=None)
    ap.add_argument("--debugbench-split", choices=("all", "calib", "report"), default="all")
    ap.add_argument("--limit", action="append", type=quality.parse_limit, default=[])
    ap.add_argument("--no-prelude", action="store_true")
    ap.add_argument("--margin", type=float, default=None, help="the margin replayed (default: the shipped one)")
    ap.add_argument("--side", choices=("both", "fixed"), default="both",
                    help="check the buggy and fixed files, or the fixed (clean) ones only")
    ap.add_argument("--early-exit", metavar="SPEC", default=None,
                    help="also measure this exit test on the verification rows (e.g. ref-prob:0.9,min:2,every:3)")
    args = ap.parse_args(argv)
    args.limit = dict(args.limit)
    pairs = quality.load_pairs(args)
    sides = ("buggy", "fixed") if args.side == "both" else ("fixed",)
    jobs = [(p[side], p["context"]) for p in pairs for side in sides]
    print(f"{len(pairs)} pairs, {len(jobs)} files", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    files, files_rows = [], []
    for k, (src, ctx) in enumerate(jobs):
        for out, rows in ((files, False), (files_rows, True)):
            record: list = []
            r = traced_check(src, ctx, record, rows)
            out.append({"errors": sorted({f.line for f in r.findings if f.severity == "error"}),
                        "verdicts": record})
        if (k + 1) % 50 == 0:
            print(f"[traced {k + 1}/{len(jobs)}] {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    from jupyter_codecheck.core.calibration import shipped, shipped_margin
    from jupyter_codecheck.core.evidence import EvidenceConfig
    margin = args.margin if args.margin is not None else shipped(shipped_margin, None, EvidenceConfig.margin)
    grid = replay(files, margin)
    print(f"grid at margin {margin:.2f} ({sum(len(f['verdicts']) for f in files)} candidates):")
    for g in grid:
        first = "" if g["edit_slack"] is None else f"edit part + {g['edit_slack']:.0f}, then "
        print(f"  {first}tokens {g['tokens']}  slack {g['slack']:.0f}: {g['files_changed']:3d} files change, "
              f"rows {g['rows_vs_unscreened']:.2f} of unscreened")
    moved = written_moves(files, files_rows, margin)
    print(f"written side read from the walk instead of scored in rows: gains move by {moved['mean_abs_gain_moved']:.3f} "
          f"nats on average (99th percentile {moved['p99_abs_gain_moved']:.3f}, max {moved['max_abs_gain_moved']:.3f}; "
          f"{moved['candidates']} candidates); finding lines change in {moved['files_changed']} of {len(jobs)} files")

    early = early_exits(jobs, args.early_exit) if args.early_exit else None
    if early:
        print(f"early exits on the verification rows ({early['spec']}, K,V from the exit state, lens policy): "
              f"gains move by {early['mean_abs_gain_moved']:.3f} nats on average (99th percentile "
              f"{early['p99_abs_gain_moved']:.3f}, max {early['max_abs_gain_moved']:.3f}); the verification "
              f"rows' layers saved {early['verification_layers_saved']:.1%}; scoring {early['scoring_s']:.1f} s "
              f"against {early['scoring_s_without']:.1f} s without")

    shipped = Probe(EvidenceConfig.probe_tokens, EvidenceConfig.probe_slack, EvidenceConfig.probe_edit_slack)
    screened, f_screened = live(jobs, {})
    unscreened, f_unscreened = live(jobs, {"probe": 0})
    in_rows, f_in_rows = live(jobs, {}, rows_written=True)
    differ = sum(a != b for a, b in zip(f_screened, f_unscreened))
    differ_rows = sum(a != b for a, b in zip(f_screened, f_in_rows))
    print(f"shipped screen (edit part + {shipped.edit_slack:.1f} nats, then {shipped.tokens} tokens + "
          f"{shipped.slack:.1f} nats): verification over the walk "
          f"{screened['verification_over_walk']:.1%} ({screened['verification_rows_per_token']:.2f} rows/token) "
          f"against {unscreened['verification_over_walk']:.1%} ({unscreened['verification_rows_per_token']:.2f}) "
          f"unscreened; findings differ in {differ} of {len(jobs)} files")
    print(f"the written side scored in rows as well: {in_rows['verification_over_walk']:.1%} "
          f"({in_rows['verification_rows_per_token']:.2f} rows/token); findings differ in {differ_rows} files")
    at = next((g for g in grid if (g["tokens"], g["slack"], g["edit_slack"]) ==
               (shipped.tokens, shipped.slack, shipped.edit_slack)), None)
    print(json.dumps({"files": len(jobs), "margin": round(margin, 3), "probe_tokens": shipped.tokens,
                      "probe_slack": shipped.slack, "probe_edit_slack": shipped.edit_slack,
                      "grid_files_changed": at and at["files_changed"],
                      "grid_rows_vs_unscreened": at and round(at["rows_vs_unscreened"], 3),
                      "verification_over_walk": round(screened["verification_over_walk"], 3),
                      "verification_over_walk_unscreened": round(unscreened["verification_over_walk"], 3),
                      "verification_over_walk_written_in_rows": round(in_rows["verification_over_walk"], 3),
                      "rows_per_token": round(screened["verification_rows_per_token"], 3),
                      "rows_per_token_unscreened": round(unscreened["verification_rows_per_token"], 3),
                      "rows_per_token_written_in_rows": round(in_rows["verification_rows_per_token"], 3),
                      "check_s": round(screened["check_s"], 2), "check_s_unscreened": round(unscreened["check_s"], 2),
                      "files_with_different_findings": differ,
                      "files_with_different_findings_written_in_rows": differ_rows,
                      "written_side": {k: round(v, 4) if isinstance(v, float) else v for k, v in moved.items()},
                      "early_exit": early and {k: round(v, 4) if isinstance(v, float) else v for k, v in early.items()},
                      "grid": grid}))

if __name__ == "__main__":
    main()
