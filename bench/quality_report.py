"""The figures and report.md of bench/quality.py: localisation (top-1/top-3 of the changed lines),
fixed files flagged, exact repairs and speed per method, the evidence's margin sweep, the
baselines beside them.
"""
from __future__ import annotations

import json
from pathlib import Path

from jupyter_codecheck.core.result import CheckResult
from jupyter_codecheck.core.repairs import FIM_SOURCE
from jupyter_codecheck.tools.line_scores import METHODS

from harness import pct

# margins (nats) of the evidence sweep: the findings a margin gives are derived from each
# check's evidence (the best candidate of every weighed place) and its errors
MARGINS = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0]


# -- figures ---------------------------------------------------------------------------------------

def hits(ranked: list[int], lines: set[int], k: int) -> bool:
    return any(ln in lines for ln in ranked[:k])


def _distinct_fixed(rows: list[dict]) -> dict:
    flagged: dict[str, bool] = {}
    for r in rows:
        key = r.get("fixed_key", r["id"])
        flagged[key] = flagged.get(key, False) or r["fixed_findings"] > 0
    return {"distinct_fixed_files": len(flagged),
            "false_alarm_rate_distinct": sum(flagged.values()) / max(1, len(flagged))}


def figures_for(rows: list[dict], method: str) -> dict:
    n = len(rows)
    if not n:
        return {}
    fixed_lines = sum(r["fixed_nlines"] for r in rows) or 1
    f = {
        "pairs": n,
        "top1_localisation": sum(hits(r["ranked"][method], r["changed"], 1) for r in rows) / n,
        "top3_localisation": sum(hits(r["ranked"][method], r["changed"], 3) for r in rows) / n,
        "buggy_flagged": sum(bool(r["ranked"][method]) for r in rows) / n,
        "false_alarm_rate": sum(r["fixed_findings"] > 0 for r in rows) / n,
        # the same without findings that only change whitespace (see layout_only_lines)
        "false_alarm_rate_no_layout": sum(r["fixed_findings"] > r["fixed_layout_findings"] for r in rows) / n,
        # per distinct correct file (DebugBench has several bugs per solution): flagged in any pair
        **_distinct_fixed(rows),
        "findings_per_100_lines": 100 * sum(r["fixed_findings"] for r in rows) / fixed_lines,
        "repair_exact": sum(r["repair_exact"] for r in rows) / n,
        "fixed_unchanged": sum(r["fixed_unchanged"] for r in rows) / n,
    }
    tested = [r for r in rows if r.get("tests") is not None]
    if tested:
        t = [r["tests"] for r in tested]
        f.update({"tested_pairs": len(t),
                  "repair_tests_pass": sum(x["corrected_buggy"] for x in t) / len(t),
                  "buggy_tests_pass": sum(x["buggy"] for x in t) / len(t),
                  "fixed_tests_pass": sum(x["fixed"] for x in t) / len(t),
                  "corrected_fixed_tests_pass": sum(x["corrected_fixed"] for x in t) / len(t)})
    for name in ("compile", "pyflakes", "ruff"):
        b = [r["baselines"][name] for r in rows]
        f[name] = {"top1_localisation": sum(hits(x["buggy"], r["changed"], 1) for x, r in zip(b, rows)) / n,
                   "top3_localisation": sum(hits(x["buggy"], r["changed"], 3) for x, r in zip(b, rows)) / n,
                   "false_alarm_rate": sum(bool(x["fixed"]) for x in b) / n,
                   "findings_per_100_lines": 100 * sum(len(x["fixed"]) for x in b) / fixed_lines}
    best = max(("compile", "pyflakes", "ruff"), key=lambda k: (f[k]["top3_localisation"], -f[k]["false_alarm_rate"]))
    f["best_baseline"] = best
    f["best_baseline_top3"] = f[best]["top3_localisation"]
    f["scores"] = {m: {"top1": sum(hits(r["ranked"][m], r["changed"], 1) for r in rows) / n,
                       "top3": sum(hits(r["ranked"][m], r["changed"], 3) for r in rows) / n} for m in METHODS}
    return f


def speed(results: list[CheckResult]) -> dict:
    tokens = sum(r.stats["tokens"] for r in results)
    t = sum(r.stats["time_s"] for r in results)
    verify_t = sum((r.stats.get("verification") or {}).get("time_s", 0.0) for r in results)
    verify_rows = sum((r.stats.get("verification") or {}).get("rows", 0) for r in results)
    rows = sum(r.stats["rows_scored"] for r in results)
    layers = sum(r.stats["layers_computed"] for r in results)
    hist = [0] * max((len(r.stats["exit_histogram"]) for r in results), default=0)
    for r in results:
        for k, v in enumerate(r.stats["exit_histogram"]):
            hist[k] += v
    return {"tokens": tokens, "time_s": round(t, 2), "tokens_per_s": tokens / t if t else 0.0,
            # the evidence step's share of the check time, and its rows per cell token
            "verification_share": verify_t / t if t else 0.0,
            "verification_over_walk": verify_t / (t - verify_t) if t > verify_t else 0.0,
            "verification_rows_per_token": verify_rows / tokens if tokens else 0.0,
            "layers_per_token": layers / rows if rows else 0.0,
            "n_layer": results[0].stats["n_layer"] if results else 0, "exit_histogram": hist,
            # what check() ran with (its defaults may change between versions)
            "exit_policy": sorted({str(r.stats.get("exit_policy")) for r in results}),
            "lens": sorted({bool(r.stats.get("lens")) for r in results})}


# -- report --------------------------------------------------------------------------------------


def write_report(out: Path, summary: dict, rows: list[dict], results: dict, method: str, command: str):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    (out / "command.txt").write_text(command + "\n")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    # precision-recall of a threshold on the finding score: a reported line is right when it is a
    # changed line of a buggy file; any line reported on a fixed file is wrong
    import numpy as np
    scored = []   # (score, is_hit, pair index)
    for k, r in enumerate(rows):
        for ln, s in r["scores"][method]["buggy"].items():
            scored.append((s, int(ln) in r["changed"], k))
        for s in r["scores"][method]["fixed"].values():
            scored.append((s, False, k))
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    if scored:
        thresholds = sorted({s for s, _, _ in scored})
        prec, rec, fa = [], [], []
        for t in thresholds:
            kept = [(h, k) for s, h, k in scored if s >= t]
            prec.append(sum(h for h, _ in kept) / len(kept))
            rec.append(len({k for h, k in kept if h}) / len(rows))
            fa.append(sum(any(s >= t for s in r["scores"][method]["fixed"].values()) for r in rows) / len(rows))
        ax[0].plot(rec, prec, marker=".", ms=3)
        ax[0].set_xlabel("recall (buggy files with a changed line reported)")
        ax[0].set_ylabel("precision (reported lines that are changed lines)")
        ax[0].set_title(f"finding-score threshold ({method})")
        ax[1].plot(fa, rec, marker=".", ms=3, label="checker (score threshold)")
        for name, m in (("compile", "o"), ("pyflakes", "s"), ("ruff", "^")):
            b = summary["overall"][name]
            ax[1].plot([b["false_alarm_rate"]], [b["top3_localisation"]], m, label=name)
        ax[1].axvline(0.15, color="grey", ls=":", lw=1)
        ax[1].set_xlabel("share of fixed files with a finding")
        ax[1].set_ylabel("buggy files with a changed line reported")
        ax[1].set_title("detection vs false alarms")
        ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "score_threshold.png", dpi=110)
    plt.close(fig)

    sp = summary["speed"]
    if sp["exit_histogram"]:
        fig, ax = plt.subplots(figsize=(6.5, 3.5))
        h = np.array(sp["exit_histogram"], float)
        ax.bar(np.arange(1, len(h) + 1), h / max(h.sum(), 1))
        ax.set_xlabel("layer whose output decided the token")
        ax.set_ylabel("share of scored tokens")
        ax.set_title(f"exit layers ({sp['layers_per_token']:.1f} of {sp['n_layer']} layers per token)")
        fig.tight_layout()
        fig.savefig(out / "exit_layers.png", dpi=110)
        plt.close(fig)

    if summary.get("margin_sweep"):
        fig, ax = plt.subplots(figsize=(6.5, 4.2))
        for d, pts in summary["margin_sweep"].items():
            ax.plot([p["fixed_flagged"] for p in pts], [p["top3"] for p in pts], marker="o", ms=3, label=d)
            for p in pts:
                if p["margin"] in (0.0, 2.0, 5.0, 10.0):
                    ax.annotate(f"{p['margin']:g}", (p["fixed_flagged"], p["top3"]), fontsize=7,
                                textcoords="offset points", xytext=(3, 3))
            b = summary["datasets"][d]["ruff"]
            ax.plot([b["false_alarm_rate"]], [b["top3_localisation"]], "^", label=f"ruff ({d})")
        ax.axvline(0.15, color="grey", ls=":", lw=1)
        ax.set_xlabel("share of fixed files with a finding (error or warning)")
        ax.set_ylabel("top-3 localisation of the buggy files")
        ax.set_title(f"evidence margin (nats) — {summary['model']}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(out / "margin_sweep.png", dpi=110)
        plt.close(fig)

    names = list(summary["datasets"]) + ["overall"]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    w = 0.2
    for j, (label, get) in enumerate((("checker", lambda d: d["top3_localisation"]),
                                      ("compile", lambda d: d["compile"]["top3_localisation"]),
                                      ("pyflakes", lambda d: d["pyflakes"]["top3_localisation"]),
                                      ("ruff", lambda d: d["ruff"]["top3_localisation"]))):
        vals = [get(summary["datasets"][n] if n != "overall" else summary["overall"]) for n in names]
        ax.bar(np.arange(len(names)) + (j - 1.5) * w, vals, w, label=label)
    ax.set_xticks(np.arange(len(names)), names)
    ax.set_ylabel("top-3 localisation")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "localisation.png", dpi=110)
    plt.close(fig)

    lines = ["# Checking quality", "", f"Command: `{command}`", "",
             f"Model: {summary['model']}; options: `{json.dumps(summary['options'])}`; "
             f"findings ranked by `{method}`; {summary['date']}.", "",
             "| set | pairs | top-1 | top-3 | best baseline top-3 | fixed flagged | findings /100 lines (fixed) | repair exact | tests pass after repair |",
             "|---|---|---|---|---|---|---|---|---|"]
    for n in names:
        d = summary["datasets"][n] if n != "overall" else summary["overall"]
        lines.append(f"| {n} | {d['pairs']} | {pct(d['top1_localisation'])} | {pct(d['top3_localisation'])} | "
                     f"{pct(d['best_baseline_top3'])} ({d['best_baseline']}) | {pct(d['false_alarm_rate'])} | "
                     f"{d['findings_per_100_lines']:.2f} | {pct(d['repair_exact'])} | {pct(d.get('repair_tests_pass'))} |")
    lines += ["", "Baselines (same files):", "",
              "| set | tool | top-1 | top-3 | fixed flagged | findings /100 lines (fixed) |", "|---|---|---|---|---|---|"]
    for n in names:
        d = summary["datasets"][n] if n != "overall" else summary["overall"]
        lines.append(f"| {n} | checker | {pct(d['top1_localisation'])} | {pct(d['top3_localisation'])} | "
                     f"{pct(d['false_alarm_rate'])} | {d['findings_per_100_lines']:.2f} |")
        for t in ("compile", "pyflakes", "ruff"):
            b = d[t]
            lines.append(f"| {n} | {t} | {pct(b['top1_localisation'])} | {pct(b['top3_localisation'])} | "
                         f"{pct(b['false_alarm_rate'])} | {b['findings_per_100_lines']:.2f} |")
    lines += ["", "Finding-line scores (the same findings, ranked by each method; see "
              "`jupyter_codecheck/scoring.py`):", "", "| set | " + " | ".join(METHODS) + " |",
              "|---|" + "---|" * len(METHODS)]
    for n in names:
        d = summary["datasets"][n] if n != "overall" else summary["overall"]
        lines.append(f"| {n} top-1 / top-3 | " + " | ".join(
            f"{pct(d['scores'][m]['top1'])} / {pct(d['scores'][m]['top3'])}" for m in METHODS) + " |")
    o = summary["overall"]
    if o.get("tested_pairs"):
        lines += ["", f"HumanEvalFix tests ({o['tested_pairs']} pairs): buggy passes {pct(o['buggy_tests_pass'])}, "
                      f"fixed passes {pct(o['fixed_tests_pass'])}, corrected buggy passes "
                      f"{pct(o['repair_tests_pass'])}, corrected fixed passes {pct(o['corrected_fixed_tests_pass'])}."]
    lines += ["", "Fixed files flagged when findings that only change whitespace are left out: " + ", ".join(
        f"{n} {pct((summary['datasets'][n] if n != 'overall' else summary['overall'])['false_alarm_rate_no_layout'])}"
        for n in names) + "."]
    lines += ["", "Distinct correct files flagged (a file that is the fixed side of several pairs counts once, "
                  "flagged if flagged in any): " + ", ".join(
        f"{n} {pct(d['false_alarm_rate_distinct'])} of {d['distinct_fixed_files']}"
        for n, d in ((n, summary['datasets'][n] if n != 'overall' else summary['overall']) for n in names)) + "."]
    if summary.get("calibration"):
        c = summary["calibration"]
        lines += ["", f"Thresholds from `{c['tool']}` ({c['created']}): target {pct(c['target_false_alarm'])} of clean "
                      f"files flagged, {pct(c['achieved_false_alarm'])} on its {c['calibration_set']['files']} "
                      f"calibration files; objective: {c['objective']}."]
    if summary.get("calibration_sweep"):
        sw = summary["calibration_sweep"]
        lines += ["", f"Operating points on the calibration split ({sw['clean_files']} clean files, "
                      f"{sw['buggy_files']} buggy files; offline, full depth):", "",
                  "| rule (accept_prob, accept_rank, lenient_floor) | clean files flagged | buggy changed line rejected |",
                  "|---|---|---|"]
        for label, v in sw["rules"].items():
            lines.append(f"| {label} | {pct(v['false_alarm'])} | {pct(v['buggy_line_hit'])} |")
        lines += ["", "![calibration](calibration.png)"]
    if summary.get("margin_sweep"):
        lines += ["", "Evidence margin sweep (findings derived from each check's errors and the best gain of every "
                      "weighed place; the checks ran with the options above):", "",
                  "| set | margin (nats) | fixed flagged | top-1 | top-3 |", "|---|---|---|---|---|"]
        for d, pts in summary["margin_sweep"].items():
            for p_ in pts:
                lines.append(f"| {d} | {p_['margin']:g} | {pct(p_['fixed_flagged'])} | {pct(p_['top1'])} | {pct(p_['top3'])} |")
        lines += ["", "![margin sweep](margin_sweep.png)"]
    lines += ["", f"Verification (the evidence step): {pct(sp['verification_share'])} of the check time, "
                  f"{pct(sp['verification_over_walk'])} over the walk alone, "
                  f"{sp['verification_rows_per_token']:.2f} branch rows per cell token."]
    lines += ["", f"Speed: {sp['tokens_per_s']:.1f} tokens/s over {sp['tokens']} tokens "
                  f"({sp['time_s'] / 60:.1f} min of checking; shared 2-core machine), "
                  f"{sp['layers_per_token']:.2f} of {sp['n_layer']} layers per scored token; exit policy "
                  f"{', '.join(sp['exit_policy'])}, exit lens {', '.join(map(str, sp['lens']))}.", "",
              "![localisation](localisation.png)", "", "![score threshold](score_threshold.png)", "",
              "![exit layers](exit_layers.png)", ""]
    (out / "report.md").write_text("\n".join(lines))
    with open(out / "pairs.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps({"id": r["id"], "dataset": r["dataset"], "bug_type": r["bug_type"],
                                "changed": sorted(r["changed"]), "ranked": r["ranked"][method],
                                "fixed_findings": r["fixed_findings"], "repair_exact": r["repair_exact"],
                                "tests": r.get("tests"), "evidence": r["evidence"]}) + "\n")


def _evidence_of(result: CheckResult) -> dict:
    """What a margin sweep needs of a check: its error lines and each supported place's best
    verified gain; `repairs`, the line repairs' own gains;
    `places`, every weighed place's [line, gain, supported] (bench/clean_kinds.py's file-relative
    measure reads the gains available elsewhere in the file)."""
    verified = [e for e in result.evidence if e.source != FIM_SOURCE]
    return {"errors": sorted({f.line for f in result.findings if f.severity == "error"}),
            "gains": [[e.line, e.gain] for e in verified if e.supported],
            "places": [[e.line, e.gain, e.supported] for e in verified],
            "repairs": repair_gains(result.stats)}


def repair_gains(stats: dict) -> list:
    """[line, own gain] of each line repair that passed the gates (`repairs="lines"`), best first;
    a line repair's gain is of another reading than the verified places' (core/repairs.py)."""
    gains = (stats.get("verification") or {}).get("repair_gains") or []
    return [g for g in gains if isinstance(g, list)]


def findings_at(ev: dict, margin: float) -> list[int]:
    """Finding lines at `margin`, ranked: errors first (in line order), then warnings by gain."""
    errors = ev["errors"]
    warn = sorted(((g, ln) for ln, g in ev["gains"] if g >= margin and ln not in errors), key=lambda x: (-x[0], x[1]))
    return errors + list(dict.fromkeys(ln for _, ln in warn))


def margin_sweep(rows: list[dict]) -> list[dict]:
    """Fixed files flagged and top-1/top-3 localisation of the buggy files at each margin."""
    n = len(rows) or 1
    out = []
    for m in MARGINS:
        out.append({"margin": m,
                    "fixed_flagged": sum(bool(findings_at(r["evidence"]["fixed"], m)) for r in rows) / n,
                    "top1": sum(hits(findings_at(r["evidence"]["buggy"], m), r["changed"], 1) for r in rows) / n,
                    "top3": sum(hits(findings_at(r["evidence"]["buggy"], m), r["changed"], 3) for r in rows) / n})
    return out
