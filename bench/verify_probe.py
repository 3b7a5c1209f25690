"""The verification screen (decoding/verify.py `Probe`): what it saves and what it changes.

    python bench/verify_probe.py [--dataset humanevalfix] [--limit N] [--categories logic]
                                 [--debugbench-split calib]

A warning's candidate is scored over its whole continuation only if its gain after the edit and
the first `tokens` written tokens, plus `slack` nats, reaches the margin. The screen is not a
bound, so this measures it, on buggy and fixed files alike:

1. **The grid, offline.** Every candidate is scored in full once (margin 0, no screen) and its
   running log-probabilities kept; each (tokens, slack) is then replayed on them: the files whose
   finding lines would change at the shipped margin, and the rows it would score against the
   unscreened verification (edit + continuation tokens per candidate, tries ignored).
2. **The shipped setting, live.** check() with its defaults against the same with `probe=0`, in
   one run: the verification's time over the walk's, its rows per token, and the files whose
   findings differ.

Choose the grid point on a calibration set (DebugBench `--debugbench-split calib`), report it on
the others. The last line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
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


def forget() -> None:
    """Nothing of an earlier check is reused (a re-check keeps verdicts and decisions)."""
    from jupyter_codecheck.core.adapter import load_model
    load_model().forget()


def traced_check(src: str, context, record: list) -> object:
    """check() at margin 0 with no screen, keeping every verdict of the evidence step."""
    original = evidence._choose

    def keep(verdicts, kept, places, data, facts, margin):
        for v in verdicts:
            c = kept[v.key]
            record.append({"site": c.site, "error": c.site in places.error_lines,
                           "deletion": evidence._is_deletion(c), "gain": v.gain, "edit_gain": v.edit_gain,
                           "ce": v.cum_edit.tolist(), "cw": v.cum_written.tolist(),
                           "ne": v.n_edit, "nw": v.n_written})
        return original(verdicts, kept, places, data, facts, margin)

    evidence._choose = keep
    forget()
    try:
        return check(src, context=context, margin=0.0, probe=0)
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


def replay(files: list[dict], margin: float) -> list[dict]:
    full = [finding_lines(f, margin, lambda v: True) for f in files]
    rows_full = sum(v["ne"] + continuation_length(v) for f in files for v in f["verdicts"] if not v["error"])
    out = []
    for tokens in TOKENS:
        for slack in SLACKS:
            def kept(v, tokens=tokens, slack=slack):
                return v["error"] or tokens >= continuation_length(v) or score_after(v, tokens) + slack >= margin
            changed = sum(finding_lines(f, margin, kept) != b for f, b in zip(files, full))
            rows = sum(v["ne"] + min(tokens, continuation_length(v)) +
                       (continuation_length(v) if kept(v) and tokens < continuation_length(v) else 0)
                       for f in files for v in f["verdicts"] if not v["error"])
            out.append({"tokens": tokens, "slack": slack, "files_changed": changed,
                        "rows_vs_unscreened": rows / rows_full if rows_full else 1.0})
    return out


def live(jobs, options: dict) -> tuple[dict, list]:
    walk = verify = 0.0
    rows = tokens = 0
    findings = []
    for src, ctx in jobs:
        forget()
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
    args = ap.parse_args(argv)
    args.limit = dict(args.limit)
    pairs = quality.load_pairs(args)
    sides = ("buggy", "fixed") if args.side == "both" else ("fixed",)
    jobs = [(p[side], p["context"]) for p in pairs for side in sides]
    print(f"{len(pairs)} pairs, {len(jobs)} files", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    files = []
    for k, (src, ctx) in enumerate(jobs):
        record: list = []
        r = traced_check(src, ctx, record)
        files.append({"errors": sorted({f.line for f in r.findings if f.severity == "error"}), "verdicts": record})
        if (k + 1) % 50 == 0:
            print(f"[traced {k + 1}/{len(jobs)}] {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    from jupyter_codecheck.core.check import _calibrated_margin
    margin = args.margin if args.margin is not None else _calibrated_margin(None)
    grid = replay(files, margin)
    print(f"grid at margin {margin:.2f} ({sum(len(f['verdicts']) for f in files)} candidates):")
    for g in grid:
        print(f"  tokens {g['tokens']}  slack {g['slack']:.0f}: {g['files_changed']:3d} files change, "
              f"rows {g['rows_vs_unscreened']:.2f} of unscreened")

    shipped = Probe(EvidenceConfig.probe_tokens, EvidenceConfig.probe_slack)
    screened, f_screened = live(jobs, {})
    unscreened, f_unscreened = live(jobs, {"probe": 0})
    differ = sum(a != b for a, b in zip(f_screened, f_unscreened))
    print(f"shipped screen ({shipped.tokens} tokens, {shipped.slack:.1f} nats): verification over the walk "
          f"{screened['verification_over_walk']:.1%} ({screened['verification_rows_per_token']:.2f} rows/token) "
          f"against {unscreened['verification_over_walk']:.1%} ({unscreened['verification_rows_per_token']:.2f}) "
          f"unscreened; findings differ in {differ} of {len(jobs)} files")
    at = next(g for g in grid if g["tokens"] == shipped.tokens and g["slack"] == shipped.slack) \
        if shipped.tokens in TOKENS and shipped.slack in SLACKS else None
    print(json.dumps({"files": len(jobs), "margin": round(margin, 3), "probe_tokens": shipped.tokens,
                      "probe_slack": shipped.slack,
                      "grid_files_changed": at and at["files_changed"],
                      "grid_rows_vs_unscreened": at and round(at["rows_vs_unscreened"], 3),
                      "verification_over_walk": round(screened["verification_over_walk"], 3),
                      "verification_over_walk_unscreened": round(unscreened["verification_over_walk"], 3),
                      "rows_per_token": round(screened["verification_rows_per_token"], 3),
                      "rows_per_token_unscreened": round(unscreened["verification_rows_per_token"], 3),
                      "check_s": round(screened["check_s"], 2), "check_s_unscreened": round(unscreened["check_s"], 2),
                      "files_with_different_findings": differ,
                      "grid": grid}))


if __name__ == "__main__":
    main()
