"""The figures and report.md of bench/notebook_crashes.py: balanced accuracy per mode and rule,
the warnings' gains, the linters' baselines, the published figures beside them.
"""
from __future__ import annotations

import json
from pathlib import Path

from harness import normalised, pct
from notebook_linters import BASELINES

KINDS = ("syntax", "undefined-name", "attribute", "key", "call", "value")
# what "flagged" means: any error; any finding; errors of one kind; any warning
RULES = ("error", "any", *KINDS, "warning")
GAIN_MARGINS = (6.0, 8.0, 10.0, 12.0, 15.0)
# published crash prediction on these 53 cases (balanced accuracy; issue 26)
PUBLISHED = {"pylint": 0.585, "pyright": 0.613, "Qwen2.5-32B": 0.670, "GPT-5": 0.764,
             "Qwen2.5-32B + runtime": 0.717, "GPT-5 + runtime": 0.840}


# -- figures --------------------------------------------------------------------------------------------

def flagged_by(findings: list[dict], rule: str) -> list[dict]:
    if rule == "any":
        return findings
    if rule == "error":
        return [f for f in findings if f["severity"] == "error"]
    if rule == "warning":
        return [f for f in findings if f["severity"] != "error"]
    return [f for f in findings if f["severity"] == "error" and f["kind"] == rule]


def share(xs) -> float | None:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else None


def balanced(pairs: list[tuple[bool, bool]]) -> dict:
    """pairs of (crashing flagged, fixed flagged)."""
    crash = share(a for a, _ in pairs)
    fixed = share(b for _, b in pairs)
    ba = None if crash is None else (crash + 1 - fixed) / 2
    return {"crash_flagged": crash, "fixed_flagged": fixed, "balanced_accuracy": ba, "cases": len(pairs)}


def mode_figures(cases: list[dict], rows: dict, clean_rows: list[dict] | None, mode: str) -> dict:
    """rows[(id, side, mode)] -> record."""
    groups = sorted({c["group"] for c in cases})
    out: dict = {"flagged": {}, "located": {}}
    for rule in RULES:
        def pair(c):
            b, f = rows[(c["id"], "buggy", mode)], rows[(c["id"], "fixed", mode)]
            return bool(flagged_by(b["findings"], rule)), bool(flagged_by(f["findings"], rule))
        fig = balanced([pair(c) for c in cases])
        fig["per_group"] = {g: balanced([pair(c) for c in cases if c["group"] == g]) for g in groups}
        if clean_rows is not None:
            fig["clean_flagged"] = share(bool(flagged_by(r["findings"], rule)) for r in clean_rows)
        out["flagged"][rule] = fig
    for rule in ("error", "any", "warning"):
        hits = []
        for c in cases:
            b = rows[(c["id"], "buggy", mode)]
            fs = flagged_by(b["findings"], rule)
            if fs and b["changed_lines"]:
                top = max(fs, key=lambda f: f["score"])
                hits.append(top["line"] in b["changed_lines"])
        out["located"][rule] = {"share": share(hits), "n": len(hits)}
    changed = [c for c in cases if rows[(c["id"], "buggy", mode)]["changed_lines"]]
    out["repair_exact"] = {"share": share(rows[(c["id"], "buggy", mode)]["repair_exact"] for c in changed),
                           "n": len(changed)}
    out["fixed_unchanged"] = share(normalised(rows[(c["id"], "fixed", mode)]["corrected"]) ==
                                   normalised(rows[(c["id"], "fixed", mode)]["target"]) for c in cases)
    # the warnings' gains: a cell counts at margin m when it has a warning of gain >= m
    pops = {"crashing": [rows[(c["id"], "buggy", mode)] for c in cases],
            "fixed": [rows[(c["id"], "fixed", mode)] for c in cases]}
    if clean_rows is not None:
        pops["clean"] = clean_rows
    out["warning_margins"] = [{"margin": m, **{p: share(max_warning_gain(r) >= m for r in rs)
                                              for p, rs in pops.items()}} for m in GAIN_MARGINS]
    out["max_warning_gain_quantiles"] = {p: quantiles([max_warning_gain(r) for r in rs]) for p, rs in pops.items()}
    out["max_evidence_gain_quantiles"] = {p: quantiles([max((e[1] for e in r["evidence"] if e[2]), default=0.0)
                                                        for r in rs]) for p, rs in pops.items()}
    return out



def max_warning_gain(row: dict) -> float:
    return max((f["gain"] or 0.0 for f in row["findings"] if f["severity"] != "error"), default=0.0)


def quantiles(xs: list[float]) -> dict:
    xs = sorted(xs)
    if not xs:
        return {}
    q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))]  # noqa: E731
    return {"n": len(xs), "nonzero": sum(x > 0 for x in xs), "p50": q(0.5), "p75": q(0.75), "p90": q(0.9),
            "max": xs[-1]}


def baseline_figures(cases: list[dict], crash_lint: dict, clean_lint: list[dict] | None) -> dict:
    out = {}
    for name, (tool, keep) in BASELINES.items():
        def flagged(entry):
            return any(keep(code) and entry["first"] <= line <= entry["last"] for line, code in entry[tool])
        pairs = [(flagged(crash_lint[("crash", c["id"], "buggy")]), flagged(crash_lint[("crash", c["id"], "fixed")])) for c in cases]
        fig = balanced(pairs)
        groups = sorted({c["group"] for c in cases})
        fig["per_group"] = {g: balanced([p for p, c in zip(pairs, cases) if c["group"] == g])["balanced_accuracy"]
                            for g in groups}
        if clean_lint is not None:
            fig["clean_flagged"] = share(flagged(e) for e in clean_lint)
        out[name] = fig
    return out


# -- report ----------------------------------------------------------------------------------------------


def write_report(out: Path, summary: dict, command: str) -> None:
    L = ["# Notebook crashes (JunoBench, issue 26): predicting the failure before the cell runs", "",
         f"{summary['date']}; model {summary['model']}; checker {summary['checker_fingerprint']}; "
         f"{summary['cases']} crash cases (a crashing and a fixed side each), {summary['clean_cells']} clean "
         f"cells. Command: `{command}`", "",
         "Every target is checked as the command line checks a notebook cell (the same context window "
         "and `earlier` cells). Kernel mode adds the kernel's namespace as stand-ins built from the "
         f"published runtime summary (`{summary['namespace_option']}=`; bench/notebook_standins.py). "
         f"{len(summary['framework_cases'])} cases need a package missing here for faithful stand-ins "
         f"({', '.join(f'{k} {v}' for k, v in summary['framework_packages'].items()) or 'none'}) "
         "and are checked code only in kernel mode too.", "",
         "Without a namespace check() reads the modules a cell imports from those its process has "
         "loaded (`libraries=\"loaded\"`, the default): code mode runs in a worker process that "
         "has imported only what the command line imports (watched libraries loaded there: "
         f"{summary['code_mode_libraries_loaded'] if summary['code_mode_libraries_loaded'] is not None else 'not run, all cached'}); "
         "kernel mode runs in the bench's process, which has loaded the stand-ins' libraries, as a "
         f"kernel has. Options: {json.dumps(summary['options'])}.", ""]
    modes = summary["modes"]
    L += ["## Balanced accuracy", "",
          "(crashing targets flagged + fixed targets not flagged) / 2; `flagged` read several ways. "
          "Clean: share of the clean cells flagged (code mode).", "",
          "| flagged by | " + " | ".join(f"{m}: BA | crash | fixed" for m in modes) + " | clean |",
          "|---|" + "---|---|---|" * len(modes) + "---|"]
    for rule in RULES:
        cells = []
        for m, f in modes.items():
            x = f["flagged"][rule]
            cells += [pct(x["balanced_accuracy"]), pct(x["crash_flagged"]), pct(x["fixed_flagged"])]
        clean = modes.get("code", {}).get("flagged", {}).get(rule, {}).get("clean_flagged")
        L.append(f"| {rule} | " + " | ".join(cells) + f" | {pct(clean)} |")
    L += ["", "Baselines on the same cells (a notebook linter's view: earlier cells and target in one file, "
          "magics commented out; flagged = any message on the target's lines):", "",
          "| baseline | BA | crash | fixed | clean |", "|---|---|---|---|---|"]
    for name, b in summary["baselines"].items():
        L.append(f"| {name} | {pct(b['balanced_accuracy'])} | {pct(b['crash_flagged'])} | "
                 f"{pct(b['fixed_flagged'])} | {pct(b.get('clean_flagged'))} |")
    L += ["", "Published on these 53 cases (balanced accuracy): " +
          ", ".join(f"{k} {pct(v)}" for k, v in PUBLISHED.items()) + ".", ""]
    if "kernel_subset" in summary:
        ks = summary["kernel_subset"]
        L += [f"On the {ks['cases']} cases checked with stand-ins: code BA (error) {pct(ks['code_error'])}, "
              f"kernel {pct(ks['kernel_error'])}; (any) {pct(ks['code_any'])} vs {pct(ks['kernel_any'])}.", ""]
    L += ["## Per group (BA, flagged = error / any)", "",
          "| group | cases | " + " | ".join(f"{m} error | {m} any" for m in modes) + " | " +
          " | ".join(summary["baselines"]) + " |",
          "|---|---|" + "---|---|" * len(modes) + "---|" * len(summary["baselines"])]
    first = next(iter(modes.values()))
    for g, x in first["flagged"]["error"]["per_group"].items():
        cells = []
        for m, f in modes.items():
            cells += [pct(f["flagged"]["error"]["per_group"][g]["balanced_accuracy"]),
                      pct(f["flagged"]["any"]["per_group"][g]["balanced_accuracy"])]
        cells += [pct(b["per_group"].get(g)) for b in summary["baselines"].values()]
        L.append(f"| {g} | {x['cases']} | " + " | ".join(cells) + " |")
    L += ["", "## Located and repaired", "",
          "Located: among the flagged crashing cells whose fix changes the target, the top finding "
          "(highest score) is on a changed line. Repair: the buggy target's correction equals the fixed "
          "target (trailing whitespace and blank lines ignored), over the cases whose fix changes the "
          "target.", ""]
    for m, f in modes.items():
        loc = f["located"]
        L.append(f"- {m}: located (error) {pct(loc['error']['share'])} of {loc['error']['n']}, (any) "
                 f"{pct(loc['any']['share'])} of {loc['any']['n']}, (warning) {pct(loc['warning']['share'])} of "
                 f"{loc['warning']['n']}; repair exact {pct(f['repair_exact']['share'])} of "
                 f"{f['repair_exact']['n']}; fixed targets left unchanged {pct(f['fixed_unchanged'])}")
    L += ["", "## Warnings' gains", "",
          "Cells with a warning of gain >= margin (nats); the shipped margin applies to every check, so "
          "margins below it are not seen here (cases.jsonl keeps each check's evidence for that).", ""]
    for m, f in modes.items():
        pops = [k for k in f["warning_margins"][0] if k != "margin"]
        L += [f"{m}:", "", "| margin | " + " | ".join(pops) + " |", "|---|" + "---|" * len(pops)]
        for row in f["warning_margins"]:
            L.append(f"| {row['margin']:g} | " + " | ".join(pct(row[p]) for p in pops) + " |")
        L += ["", "max warning gain per cell: " + "; ".join(
            f"{p}: {q.get('nonzero', 0)}/{q.get('n', 0)} with one, p90 {q.get('p90', 0):.1f}, max {q.get('max', 0):.1f}"
            for p, q in f["max_warning_gain_quantiles"].items()), ""]
    st = summary["standins"]
    L += ["## Stand-ins", "",
          f"Over the {st['namespaces']} namespaces built (both sides of every case):", ""]
    for k, v in st["kinds"].items():
        L.append(f"- {k}: {v}")
    L += [""]
    L += ["Libraries here and in JunoBench's environment (its data/requirements.txt); a stand-in "
          "module, class or function is this installation's, so an API that changed between the two "
          "can make a false fact:", ""]
    L += ["| package | here | JunoBench |", "|---|---|---|"]
    for name, (here, there) in summary["library_versions"].items():
        L.append(f"| {name} | {here} | {there} |")
    L += [""]
    if summary.get("kernel_findings"):
        L += ["## Kernel-mode errors (both sides)", ""]
        for e in summary["kernel_findings"]:
            L.append(f"- `{e['id']}` {e['side']} line {e['line']}: {e['kind']}: {e['message']}")
        L += [""]
    if summary.get("clean_errors"):
        L += ["## Errors on clean cells (code mode)", ""]
        for e in summary["clean_errors"]:
            L.append(f"- `{e['id']}` line {e['line']}: {e['kind']}: {e['message']}")
        L += [""]
    if summary.get("fixed_errors"):
        L += ["## Errors on fixed targets", ""]
        for e in summary["fixed_errors"]:
            L.append(f"- `{e['id']}` ({e['mode']}) line {e['line']}: {e['kind']}: {e['message']}")
        L += [""]
    (out / "report.md").write_text("\n".join(L))
