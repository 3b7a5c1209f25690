"""The report every view gives: finding lines, `--fail-on`, and the text, JSON and SARIF reports.

The command line writes all three; the pytest plugin, the magics and the widgets' plain text use
`finding_line` and `failing`, so a finding reads the same wherever it is shown; the widgets and
the command line's `-v` say what the early exit saved in the words of `depth_summary`. The JSON and
SARIF formats are documented in `views/cli.py` (the command's help).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import quote

from .._version import __version__
from ..core.result import CheckResult, Finding, severity
from ..failure import FailureRepair
from ..pytext.sources import Unit

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

SEVERITY_ORDER = ("warning", "error")     # --fail-on X: findings of severity X or above fail

# finding kind -> (SARIF rule name, short description, severity)
RULES = {
    "syntax": ("SyntaxError", "Python cannot parse this code.", "error"),
    "undefined-name": ("UndefinedName", "This name is used but never defined.", "error"),
    "attribute": ("MissingAttribute", "The live object has no such attribute.", "error"),
    "key": ("MissingKey", "The live dict or DataFrame has no such key or column.", "error"),
    "call": ("BadCall", "The callable's signature rejects these arguments.", "error"),
    "value": ("BadValue", "The library rejects the live inputs' shapes, dtypes or values here.", "error"),
    "replace": ("UnexpectedCode", "The model expects different code here.", "warning"),
    "change": ("UnexpectedCode", "The model expects different code here.", "warning"),
    "insert": ("MissingCode", "Something seems to be missing here.", "warning"),
    "delete": ("SuperfluousCode", "This code seems superfluous.", "warning"),
    "ignore": ("UnknownIgnoreKind", "A '# codecheck: ignore[...]' comment names an unknown finding kind.",
               "warning"),
}


@dataclass
class CellRepair:
    """A notebook cell's stored error and its repair (failure/'s FailureRepair): `units` are the
    units of `fix.cells`, the cells that ran before it (in run order), the failed cell last."""
    fix: FailureRepair
    units: list[Unit]

    @property
    def names(self) -> list[str]:
        return [u.cell_name or u.name for u in self.units]


@dataclass
class Checked:
    unit: Unit
    result: CheckResult
    repair: CellRepair | None = None     # a notebook cell whose stored output holds an error


@dataclass
class Run:
    checked: list[Checked] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)   # (path, message)
    interrupted: bool = False


def failing(result: CheckResult, fail_on: str = "warning") -> list[Finding]:
    """The findings that fail a check under `--fail-on` (`"warning"`: all, `"error"`: errors)."""
    floor = SEVERITY_ORDER.index(fail_on)
    return [f for f in result.findings if SEVERITY_ORDER.index(severity(f)) >= floor]


def finding_line(f, where: str, paint=None) -> str:
    """`where: severity[kind]: message`, `where` being a place such as `nb.ipynb:cell_4:2:5` or
    `line 2:5`: one finding as every view's text shows it. `paint(code, text)` colours parts with
    ANSI codes (a terminal's report)."""
    sev = severity(f)
    if paint is None:
        return f"{where}: {sev}[{f.kind}]: {f.message}"
    return f"{paint('1', where)}: {paint(_SEVERITY_COLOUR[sev], sev)}[{f.kind}]: {f.message}"


def cell_place(f) -> str:
    """`line 2:5` (1-based line and column): a finding's place inside the cell being shown."""
    return f"line {f.line}:{f.column + 1}"


def fails(result: CheckResult, fail_on: str = "warning") -> bool:
    return bool(failing(result, fail_on))


# -- a failed cell's repair in words, as every view says it ----------------------------------------------

_VERIFIED = {"facts": "verified by the kernel's facts",
             "python": "verified by Python's own checks",
             "error": "verified on the failed call's own objects: the name they take",
             None: "not verified: the re-check passes it but does not show it removes the failure"}


def cells_before(fix) -> int:
    """0: the repair is in the failed cell; k: in the cell that ran k cells before it."""
    return fix.failed_cell - fix.repair.cell if fix.repair is not None else 0


def repair_place(fix, cell_names=None) -> str:
    """'line 3 of this cell', 'line 1 of cell_2', 'line 1 of the cell that ran 2 cells before'."""
    r = fix.repair
    if r.cell == fix.failed_cell:
        return f"line {r.line} of this cell"
    if cell_names is not None and r.cell < len(cell_names):
        return f"line {r.line} of {cell_names[r.cell]}"
    k = cells_before(fix)
    return f"line {r.line} of the cell that ran {k} cell{'s' if k != 1 else ''} before"


def repair_summary(fix, cell_names=None) -> str:
    """One line: where the repair is and whether the re-check verified it, or that none was found."""
    if fix.repair is None:
        return "no verified repair found"
    return f"repair on {repair_place(fix, cell_names)} ({_VERIFIED[fix.repair.verified]})"


def diff_text(fix) -> list[str]:
    """The repair's diff rows as text lines (`-`, `+`, ` `; a gap as `…`)."""
    out = []
    for row in fix.diff_rows():
        if row.kind == "gap":
            out.append(f"\u2026 {row.lines} unchanged lines")
        else:
            out.append({"same": " ", "removed": "-", "added": "+"}[row.kind] + row.text)
    return out


def shown_repair(fix) -> dict:
    """The repair as a report keeps it: the failure, the cause, the shown repair (not the other
    candidates)."""
    d = fix.to_dict()
    d.pop("candidates", None)
    return d


# -- the early exit in words, as every view says it -----------------------------------------------------

def mean_exit_depth(counts: list[int]) -> float | None:
    """Mean number of layers run per scored token (exit layer + 1)."""
    total = sum(counts)
    if not total:
        return None
    return sum((k + 1) * c for k, c in enumerate(counts)) / total


def layers_saved(stats: dict) -> tuple[int, int] | None:
    """(layers saved, layers possible) from the check's own accounting; None if not reported."""
    if "layers_possible" not in stats or "layers_computed" not in stats:
        return None
    possible = int(stats["layers_possible"])
    return possible - int(stats["layers_computed"]), possible


def exits_early(counts: list[int]) -> bool:
    """Did any token leave the stack before the last layer (else the histogram is one bar)?"""
    return any(counts[:-1])


def depth_summary(counts: list[int], stats: dict) -> str:
    """What the early exit saved, in words: the layers the tokens ran, and the rows the last
    layer's cheap test settled without the full output head."""
    n = len(counts)
    parts = []
    mean = mean_exit_depth(counts)
    if mean is not None:
        if exits_early(counts):
            parts.append(f"tokens left the model after {mean:.1f} of {n} layers on average")
        else:
            parts.append(f"every token ran all {n} layers")
    saved = layers_saved(stats)
    if saved is not None and saved[1] and saved[0]:
        parts.append(f"{100 * saved[0] / saved[1]:.0f}% of the layer computations skipped")
    rows, heads = stats.get("rows_scored"), stats.get("full_heads")
    if rows and heads is not None:
        vocab = stats.get("n_vocab")
        head = f"the full {vocab:,}-token output head" if vocab else "the full output head"
        parts.append(f"the cheap exit test settled {rows - heads} of {rows} rows "
                     f"({100 * (rows - heads) / rows:.0f}%) without {head} (a row: one token "
                     f"scored, the cell's own or one weighing an edit)")
    return "; ".join(parts) or "no token reached the model"


# -- text -----------------------------------------------------------------------------------------------

class TextReport:
    """file:line:col: severity[kind]: message (gain), then the line as it is and as the model would
    write it. `verbose`: the summary also says what the early exit saved."""

    def __init__(self, *, color: bool, diff: bool, quiet: bool, verbose: bool = False):
        self.color, self.diff, self.quiet, self.verbose = color, diff, quiet, verbose

    def _c(self, code: str, s: str) -> str:
        return f"\033[{code}m{s}\033[0m" if self.color else s

    def unit(self, done: Checked) -> str:
        unit, result = done.unit, done.result
        lines = unit.source.split("\n")
        out = []
        for f in result.findings:
            evidence = _evidence_note(f)
            out.append(finding_line(f, unit.location(f.line, f.column), paint=self._c)
                       + (f" {self._c('2', evidence)}" if evidence else "") + "\n")
            if f.replacement is not None and 0 < f.line <= len(lines):
                out.append(self._c("31", f"    - {lines[f.line - 1]}") + "\n")
                out.append(self._c("32", f"    + {f.replacement}") + "\n")
        if self.diff and result.corrected != unit.source:
            for d in result.diff_lines(unit.name, unit.name + " (corrected)"):
                d += "\n"
                out.append(self._c("32", d) if d.startswith("+") and not d.startswith("+++") else
                           self._c("31", d) if d.startswith("-") and not d.startswith("---") else d)
        if done.repair is not None:
            out.append(self.repair(done))
        return "".join(out)

    def repair(self, done: Checked) -> str:
        """`nb.ipynb:cell_3: raised KeyError: ...`, where the repair is, and its diff."""
        fix, names = done.repair.fix, done.repair.names
        out = [f"{self._c('1', done.unit.name)}: {self._c('1;31', 'raised')} {fix.cause_text}\n",
               f"{self._c('1', done.unit.name)}: {repair_summary(fix, names)}\n"]
        for d in diff_text(fix):
            out.append(self._c("31" if d.startswith("-") else "32" if d.startswith("+") else "0", f"    {d}") + "\n")
        return "".join(out)

    def summary(self, run: Run, elapsed: float) -> str:
        if self.quiet:
            return ""
        counts = run_counts(run)
        n, errors, files_with, files, cells, tokens, silenced = (
            counts[k] for k in ("findings", "errors", "files_with_findings", "files", "notebook_cells",
                                "tokens", "silenced"))
        if not files and not run.errors:
            return "Nothing to check: no Python code in the files given (empty, or no Python cells)\n"
        what = f"{_plural(files, 'file')}" + (f" ({_plural(cells, 'notebook cell')})" if cells else "")
        split = " (" + ", ".join(_plural(k, word) for k, word in ((errors, "error"), (n - errors, "warning"))
                                 if k) + ")"
        head = (self._c("1;31" if errors else "1;33", f"{_plural(n, 'finding')}") + split
                + f" in {files_with} of {what}" if n
                else self._c("1;32", "No findings") + f" in {what}")
        checking = sum(c.result.stats.get("time_s", 0.0) for c in run.checked)
        line = head + (f" ({silenced} silenced)" if silenced else "") + f"; {tokens} tokens"
        if tokens and checking > 0:       # speed of the checks themselves, without the model load
            line += f" at {tokens / checking:.1f} tokens/s"
        line += f", {elapsed:.1f} s in all"
        if run.checked:
            line += f", model {run.checked[-1].result.stats.get('model')}"
        if run.errors:
            line += "; " + self._c("1;31", f"{_plural(len(run.errors), 'file')} could not be checked")
        if self.verbose and run.checked:
            line += "\n" + _early_exit_line([c.result.stats for c in run.checked])
        return line + "\n"


def _early_exit_line(all_stats: list[dict]) -> str:
    """`early exit (policy head): every token ran all 30 layers; ...`, over every check of a run."""
    hists = [s.get("exit_histogram") for s in all_stats]
    counts = ([sum(col) for col in zip(*hists)]
              if all(isinstance(h, list) for h in hists) and len({len(h) for h in hists}) == 1 else [])
    summed = {k: sum(s[k] for s in all_stats)
              for k in ("rows_scored", "full_heads", "layers_computed", "layers_possible")
              if all(isinstance(s.get(k), (int, float)) for s in all_stats)}
    last = all_stats[-1]
    policy = last.get("exit_policy_name") or last.get("exit_policy") or "none"
    return f"early exit (policy {policy}): " + depth_summary(counts, {**summed, "n_vocab": last.get("n_vocab")})


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_SEVERITY_COLOUR = {"error": "1;31", "warning": "33"}


def _evidence_note(f: Finding) -> str:
    """What backs a finding, for the text report: a warning's gain; nothing for Python's errors."""
    gain = getattr(f, "gain", None)
    if isinstance(gain, (int, float)):
        return f"(gain {gain:.1f})"
    return "" if severity(f) == "error" or f.kind == "ignore" else f"(score {f.score:.1f})"


# -- JSON -----------------------------------------------------------------------------------------------

def run_counts(run: Run) -> dict:
    """What a run found, counted: the text report's last line and the JSON report's summary."""
    findings = [f for c in run.checked for f in c.result.findings]
    errors = sum(1 for f in findings if severity(f) == "error")
    return {"files": len({c.unit.path for c in run.checked}),
            "notebook_cells": sum(1 for c in run.checked if c.unit.cell is not None),
            "files_with_findings": len({c.unit.path for c in run.checked if c.result.findings}),
            "findings": len(findings), "errors": errors, "warnings": len(findings) - errors,
            "silenced": sum(c.result.stats.get("silenced", 0) for c in run.checked),
            "tokens": sum(c.result.stats.get("tokens", 0) for c in run.checked)}


def json_report(run: Run) -> dict:
    files = []
    for c in run.checked:
        entry: dict = {"path": c.unit.path}
        if c.unit.cell is not None:
            entry["cell"] = c.unit.cell
        # every field of Finding, in its order (line, column, score, kind, message, replacement,
        # severity, gain, ...): new fields reach the report without a change here
        entry["findings"] = [asdict(f) for f in c.result.findings]
        entry["corrected"] = c.result.corrected
        entry["diff_rows"] = [asdict(row) for row in c.result.diff_rows()]
        entry["stats"] = c.result.stats
        if c.repair is not None:
            entry["repair"] = _json_repair(c.repair)
        files.append(entry)
    summary = {**run_counts(run),
               "model": run.checked[-1].result.stats.get("model") if run.checked else None,
               "unreadable": [{"path": path, "message": message} for path, message in run.errors],
               "interrupted": run.interrupted}
    return {"summary": summary, "files": files}


def _json_repair(done: CellRepair) -> dict:
    """The stored error's repair, its cells named as the notebook numbers them (`cell`: the
    index in the notebook's cells, as a unit's `cell`)."""
    d = shown_repair(done.fix)
    cell_of = [u.cell for u in done.units]
    if d["cause_place"] is not None:
        d["cause_place"]["cell"] = cell_of[d["cause_place"]["cell"]]
    if d["repair"] is not None:
        d["repair"]["cell"] = cell_of[d["repair"]["cell"]]
    d["failure"]["frames"] = [{**f, "cell": cell_of[f["cell"]]} for f in d["failure"]["frames"]]
    return d


# -- SARIF 2.1.0 --------------------------------------------------------------------------------------

def sarif_report(run: Run) -> dict:
    rule_ids = list(RULES)
    rules = [{"id": f"codecheck/{kind}", "name": RULES[kind][0],
              "shortDescription": {"text": RULES[kind][1]},
              "fullDescription": {"text": RULES[kind][1] + " " + _FULL[RULES[kind][2]]},
              "help": {"text": _HELP, "markdown": _HELP},
              "defaultConfiguration": {"level": RULES[kind][2]},
              "properties": {"tags": ["correctness"] + (["language-model"] if RULES[kind][2] == "warning"
                                                        and kind != "ignore" else [])}}
             for kind in rule_ids]
    rules.append(_FAILURE_RULE)
    results = []
    for c in run.checked:
        for f in c.result.findings:
            results.append(_sarif_result(c.unit, f, rule_ids))
        if c.repair is not None:
            results.append(_sarif_failure(c.repair, len(rules) - 1))
    notifications = [{"level": "error", "message": {"text": message},
                      "locations": [{"physicalLocation": {"artifactLocation": _artifact(path)}}]}
                     for path, message in run.errors]
    stats = run.checked[-1].result.stats if run.checked else {}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "jupyter-codecheck", "version": __version__,
                                "semanticVersion": __version__,
                                "rules": rules}},
            "invocations": [{"executionSuccessful": not run.errors and not run.interrupted,
                             "toolExecutionNotifications": notifications,
                             "workingDirectory": {"uri": Path.cwd().as_uri() + "/"}}],
            "originalUriBaseIds": {"SRCROOT": {"uri": Path.cwd().as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"model": stats.get("model"), "exitPolicy": stats.get("exit_policy")},
        }],
    }


_FAILURE_RULE = {
    "id": "codecheck/failure", "name": "CellRaised",
    "shortDescription": {"text": "The notebook's stored output shows that this cell raised."},
    "fullDescription": {"text": "The notebook's stored output shows that this cell raised; the "
                                "location is the cause found for it, and a fix, when given, is a "
                                "repair re-checked by Python's own checks before it is offered."},
    "help": {"text": "Run the notebook again after the repair, or fix the line the cause names.",
             "markdown": "Run the notebook again after the repair, or fix the line the cause names."},
    "defaultConfiguration": {"level": "error"},
    "properties": {"tags": ["correctness", "failure"]}}


def _sarif_failure(done: CellRepair, rule_index: int) -> dict:
    """The stored error as a result at its cause, with the repair as a SARIF fix: the repaired
    line's text replacing the old one's inside the notebook's JSON (escaped as JSON)."""
    fix = done.fix
    place = fix.repair or fix.cause
    unit = done.units[place.cell] if place is not None else done.units[-1]
    line = place.line if place is not None else 1
    text = unit.source.split("\n")[line - 1] if 0 < line <= unit.source.count("\n") + 1 else ""
    start, end = unit.file_position(line, 0), unit.file_position(line, len(text))
    region = {"startLine": start[0], "startColumn": start[1], "endLine": end[0], "endColumn": end[1]}
    message = fix.cause_text.rstrip(".") + "."
    if fix.repair is not None:
        message += f" Repair ({repair_summary(fix, done.names)}): `{fix.repair.new_line.strip()}`"
    location = {"physicalLocation": {"artifactLocation": _artifact(unit.path), "region": region}}
    result: dict = {"ruleId": "codecheck/failure", "ruleIndex": rule_index, "level": "error",
                    "message": {"text": message}, "locations": [location],
                    "properties": {"failedCell": done.units[-1].cell, "error": fix.failure.error}}
    if unit.cell is not None:
        location["logicalLocations"] = [{"name": unit.cell_name, "fullyQualifiedName": unit.name,
                                         "kind": "module"}]
        result["properties"].update(cell=unit.cell, cellLine=line)
    if fix.repair is not None:
        new = fix.repair.new_line
        inserted = json.dumps(new, ensure_ascii=False)[1:-1] if unit.cell is not None else new
        result["fixes"] = [{"description": {"text": f"the repair of the failure ({repair_summary(fix, done.names)})"},
                            "artifactChanges": [{"artifactLocation": _artifact(unit.path), "replacements": [{
                                "deletedRegion": region, "insertedContent": {"text": inserted}}]}]}]
    return result


_FULL = {
    "error": "Python's own check (the compiler, or a name never bound in the code or its context): "
             "the code fails as written.",
    "warning": "A minimal edit the model proposes and has verified on the rest of the code; the "
               "result's gain property is the evidence for it in nats.",
}

_HELP = ("jupyter-codecheck reports two kinds of findings. Errors are Python's own checks: a syntax "
         "error or a name that is never defined. Warnings come from a small language model that "
         "reads the code, proposes the minimal edit where the code differs from what it expects, "
         "and keeps the edit only when it makes the rest of the code more likely (the gain, in "
         "nats). A warning is a hint, not a proof: check the line.")


def _artifact(path: str) -> dict:
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.relative_to(Path.cwd())
        except ValueError:
            return {"uri": p.as_uri()}
    return {"uri": quote(p.as_posix()), "uriBaseId": "SRCROOT"}


def _sarif_result(unit: Unit, f, rule_ids) -> dict:
    line, column = unit.file_position(f.line, f.column)
    lines = unit.source.split("\n")
    text = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
    # the region runs to the end of the line: the finding is about the code from there on
    end_line, end_column = unit.file_position(f.line, max(len(text), f.column))
    message = f.message.rstrip(".") + "."
    if f.replacement is not None:
        message += f" Suggested line: `{f.replacement.strip()}`"
    location: dict = {"physicalLocation": {"artifactLocation": _artifact(unit.path),
                                           "region": {"startLine": line, "startColumn": column,
                                                      "endLine": end_line, "endColumn": end_column}}}
    result: dict = {"ruleId": f"codecheck/{f.kind}", "ruleIndex": rule_ids.index(f.kind) if f.kind in rule_ids else -1,
                    "level": severity(f), "message": {"text": message}, "locations": [location],
                    "properties": {"score": f.score}}
    if getattr(f, "gain", None) is not None:
        result["properties"]["gain"] = f.gain
    if result["ruleIndex"] < 0:       # a kind this CLI does not know yet: keep the result, no index
        del result["ruleIndex"]
    if unit.cell is not None:
        location["logicalLocations"] = [{"name": unit.cell_name, "fullyQualifiedName": unit.name,
                                         "kind": "module"}]
        result["properties"].update(cell=unit.cell, cellLine=f.line, cellColumn=f.column + 1)
    elif f.replacement is not None:
        result["fixes"] = [{"description": {"text": "the model's correction of this line"},
                            "artifactChanges": [{"artifactLocation": _artifact(unit.path), "replacements": [{
                                "deletedRegion": {"startLine": f.line, "startColumn": 1,
                                                  "endLine": f.line, "endColumn": len(text) + 1},
                                "insertedContent": {"text": f.replacement}}]}]}]
    return result


# the stats that say what was checked and with what; the others say how the work went (times,
# threads, rows scored, exits), which depends on what the process checked before (the reused
# reading of the last check) and may differ between two runs that find the same
WHAT_STATS = ("model", "model_name", "arch", "n_layer", "n_vocab", "mode", "exit_policy",
              "exit_policy_name", "kv_mode", "lens", "sampler", "tokens", "context_tokens", "cancelled",
              "silenced")


def what_was_found(report: dict) -> dict:
    """A JSON report with only what its checks found (findings, corrections, diff rows) and the
    stats that say what was checked with what: what two runs of the same files must agree on,
    whichever way they ran (one process, `--jobs`, `--dask`)."""
    def kept(k, v):
        if k == "stats":
            return {n: x for n, x in v.items() if n in WHAT_STATS}
        if k == "repair":                 # its stats are how the repair went (times, rows)
            return {n: x for n, x in v.items() if n != "stats"}
        return v
    return {"summary": report["summary"],
            "files": [{k: kept(k, entry[k]) for k in entry} for entry in report["files"]]}


def formatted(run: Run, fmt: str) -> str:
    """The JSON or SARIF report of `run` as text."""
    report = json_report(run) if fmt == "json" else sarif_report(run)
    return json.dumps(report, indent=2, default=_jsonable) + "\n"


def _jsonable(o):
    if hasattr(o, "item"):        # numpy scalars in stats
        return o.item()
    if hasattr(o, "tolist"):
        return o.tolist()
    return str(o)
