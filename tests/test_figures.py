"""The figures of the docs held to their reports: every row of docs/measurements.md's "Figures
and their reports" table is read from its report file and compared with the figure written; the
README states no measured figure outside that table; the model table's "calibration ships"
agrees with the files shipped. Reads the repository's own files only (no benchmark data)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MEASUREMENTS = REPO / "docs/measurements.md"
FIGURE = re.compile(r"^(-?[\d,]*\d(?:\.\d+)?)(?: (%|ms|s|nats|x))?$")
# a measured figure in prose: a share, a time, a margin or a speed ratio
MEASURED = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s?(?:%|ms\b|s\b|min\b|nats\b)|x\b|×)")


def figure_rows(text: str) -> list[dict]:
    """The table under "## Figures and their reports": figure, value, report, where."""
    section = text.split("## Figures and their reports", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 4 and cells[0] not in ("figure", "---"):
            rows.append(dict(zip(("figure", "value", "report", "where"), cells)))
    return rows


def read_report(path: Path, where: str):
    """The value `where` names in the report at `path` (see the table's introduction)."""
    text = path.read_text()
    if where.startswith("/") and where.endswith("/"):
        found = re.search(where[1:-1], text)
        if found is None:
            raise LookupError(f"{path}: no match for {where}")
        return float(found.group(1).replace(",", ""))
    if path.suffix == ".json":
        data = json.loads(text)
    else:       # a text report: its last JSON line
        data = json.loads(next(line for line in reversed(text.splitlines()) if line.startswith("{")))
    for step in re.split(r"\.(?![^\[]*\])", where):        # dots inside [k=v] stay
        key, field, wanted = re.fullmatch(r"([^\[]+)(?:\[(\w+)=([^\]]+)\])?", step).groups()
        data = data[key]
        if field is not None:
            data = next(d for d in data if str(d[field]) == wanted)
    return data


def differs(value_text: str, reported) -> str | None:
    """Why a figure as written differs from the reported value (None: it agrees)."""
    match = FIGURE.match(value_text)
    if match is None:
        return f"{value_text!r} is not a figure (a number, then %, ms, s, nats or x)"
    number, unit = match.groups()
    decimals = len(number.split(".")[1]) if "." in number else 0
    value = float(reported) * (100 if unit == "%" else 1)
    written = float(number.replace(",", ""))
    return None if round(value, decimals) == written else f"written {value_text}, the report says {value:.4g}"


def test_the_table_has_the_figures_the_readme_and_the_issue_named():
    rows = figure_rows(MEASUREMENTS.read_text())
    assert len(rows) >= 20
    named = {r["figure"] for r in rows}
    assert "facts: added CPU on a 40-line cell's check" in named


@pytest.mark.parametrize("row", figure_rows(MEASUREMENTS.read_text()), ids=lambda r: r["figure"])
def test_each_figure_is_its_reports(row):
    path = REPO / row["report"]
    assert path.is_file(), f"{row['figure']}: no report {row['report']}"
    problem = differs(row["value"], read_report(path, row["where"]))
    assert problem is None, f"{row['figure']} ({row['report']} {row['where']}): {problem}"


def test_a_figure_that_drifted_from_its_report_is_caught(tmp_path):
    report = tmp_path / "summary.json"
    report.write_text(json.dumps({"overall": {"top3": 0.0549}, "sweep": [{"margin": 2.0, "ms": 13.46}]}))
    assert differs("5.5 %", read_report(report, "overall.top3")) is None
    assert differs("6.1 %", read_report(report, "overall.top3")) == "written 6.1 %, the report says 5.49"
    assert differs("13.5 ms", read_report(report, "sweep[margin=2.0].ms")) is None
    assert differs("14 ms", read_report(report, "sweep[margin=2.0].ms")) is not None
    assert differs("about 13 ms", 13.0) is not None
    text = tmp_path / "output.txt"
    text.write_text('a line\n{"facts_ms": 9.48}\n78 notebooks, 2272 cells run\n')
    assert differs("9.5 ms", read_report(text, "facts_ms")) is None
    assert differs("2272", read_report(text, r"/(\d+) cells run/")) is None
    assert differs("2273", read_report(text, r"/(\d+) cells run/")) is not None


def test_the_readme_states_no_figure_outside_the_table():
    """A measured figure goes to docs/measurements.md with its report; the README links there."""
    values = {r["value"] for r in figure_rows(MEASUREMENTS.read_text())}
    readme = (REPO / "README.md").read_text()
    prose = re.sub(r"```.*?```", "", readme, flags=re.S)        # code blocks: commands, not claims
    stray = [m.group(0) for m in MEASURED.finditer(prose) if m.group(0) not in values]
    assert not stray, f"figures in README.md without a row in docs/measurements.md: {stray}"
    assert len(readme.splitlines()) <= 250


def test_the_model_table_says_which_calibrations_ship():
    from jupyter_codecheck.core.calibration import SHIPPED_DIR, load
    from jupyter_codecheck.engine.paths import KNOWN_MODELS
    shipped = {load(p).model["file"] for p in SHIPPED_DIR.glob("*.json")}
    readme = (REPO / "README.md").read_text()
    said = 0
    for known in KNOWN_MODELS.values():
        row = next((line for line in readme.splitlines()
                    if line.startswith("| ") and known.display_name in line), None)
        if row is None:
            continue
        ships = "its calibration ships" in row
        assert ships or "no calibration ships" in row, f"the README's model table does not say whether {known.display_name}'s calibration ships"
        assert ships == (known.file in shipped), known.display_name
        said += 1
    assert said == 3
