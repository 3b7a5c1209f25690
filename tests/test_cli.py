"""The `jupyter-codecheck` command: exit codes, the JSON and SARIF reports, notebook cell
locations, magics masked, bad inputs. The model runs for real on a few tiny files; each report is
produced once per module (the checks are the slow part). How the reports and the exit code follow
a finding's severity is tested on hand-built results (no model)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from jupyter_codecheck.core import long_sources
from jupyter_codecheck.views import cli, files, report
from jupyter_codecheck.core.result import CheckResult, Evidence, Finding
from jupyter_codecheck.pytext.sources import SourceError, find_files, read_units, split_source

ROOT = Path(__file__).resolve().parents[1]

BUGGY_PY = "x = [1, 2, 3]\npritn(x)\n"
CLEAN_PY = "def add(a, b):\n    return a + b\n"
MAGIC_CELL = "import os\n%timeit os.getcwd()\n!ls -la\nprint(os.getcwd())\n"
MAGIC_LINES = {2, 3}
BASH_CELL = "%%bash\nls -la | wc -l\n"
BUGGY_CELL = "numbers = [1, 2, 3]\npritn(numbers)\n"


def run_cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def write_notebook(path: Path, cells) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nb.cells = cells
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """src/clean.py, src/buggy.py, nb/analysis.ipynb (markdown, magics, %%bash, buggy cell), and
    copies in places a directory walk must skip."""
    root = tmp_path_factory.mktemp("project")
    (root / "src").mkdir()
    (root / "src" / "clean.py").write_text(CLEAN_PY)
    (root / "src" / "buggy.py").write_text(BUGGY_PY)
    (root / "nb").mkdir()
    write_notebook(root / "nb" / "analysis.ipynb", [
        nbformat.v4.new_markdown_cell("# Analysis"),
        nbformat.v4.new_code_cell(MAGIC_CELL),
        nbformat.v4.new_code_cell(BASH_CELL),
        nbformat.v4.new_code_cell(BUGGY_CELL),
    ])
    for skipped in ("nb/.ipynb_checkpoints/analysis-checkpoint.ipynb", ".hidden/x.py",
                    "src/__pycache__/x.py"):
        (root / skipped).parent.mkdir(parents=True, exist_ok=True)
        (root / skipped).write_text(BUGGY_PY)
    return root


@pytest.fixture(scope="module")
def needs_model(model_path):
    return model_path


@pytest.fixture(scope="module")
def project_run(project, needs_model):
    """`jupyter-codecheck --color never --json-output report.json --sarif-output report.sarif .`
    run in PROJECT: one set of checks, the three reports."""
    cwd = os.getcwd()
    os.chdir(project)
    try:
        code, stdout, stderr = run_cli("--color", "never", "--json-output", "report.json",
                                       "--sarif-output", "report.sarif", ".")
    finally:
        os.chdir(cwd)
    return {"code": code, "text": stdout, "stderr": stderr,
            "json": json.loads((project / "report.json").read_text()),
            "sarif": json.loads((project / "report.sarif").read_text())}


def test_exit_code_and_progress(project_run):
    assert project_run["code"] == 1                    # buggy.py and the buggy cell
    # progress on stderr, one line per file when stderr is not a terminal
    # (on a fresh machine the exit lens is fitted first, with its own two lines)
    lines = [ln for ln in project_run["stderr"].splitlines()
             if not ln.startswith("jupyter-codecheck: fitting the exit lens")]
    assert lines == [
        "[1/3] nb/analysis.ipynb", "[2/3] src/buggy.py", "[3/3] src/clean.py"]


# -- JSON ----------------------------------------------------------------------------------------------

def test_json_report_schema(project_run):
    report = project_run["json"]
    assert list(report) == ["summary", "files"]
    # the text report's last line, as data: the counts agree with the entries
    found = [f for e in report["files"] for f in e["findings"]]
    summary = report["summary"]
    assert summary["findings"] == len(found) and summary["errors"] + summary["warnings"] == len(found)
    assert summary["errors"] == sum(f["severity"] == "error" for f in found)
    assert summary["files"] == len({e["path"] for e in report["files"]})
    assert summary["notebook_cells"] == sum("cell" in e for e in report["files"])
    assert summary["tokens"] == sum(e["stats"]["tokens"] for e in report["files"])
    assert summary["model"] == report["files"][-1]["stats"]["model"]
    assert summary["unreadable"] == [] and summary["interrupted"] is False
    for entry in report["files"]:
        expected = ["path", "cell", "findings", "corrected", "diff_rows", "stats"] if "cell" in entry else \
                   ["path", "findings", "corrected", "diff_rows", "stats"]
        assert list(entry) == expected
        assert isinstance(entry["corrected"], str)
        assert isinstance(entry["stats"]["tokens"], int) and entry["stats"]["tokens"] > 0
        for f in entry["findings"]:
            assert list(f)[:8] == ["line", "column", "score", "kind", "message", "replacement",
                                   "severity", "gain"]
            assert isinstance(f["line"], int) and f["line"] >= 1
            assert isinstance(f["column"], int) and f["column"] >= 0
            assert isinstance(f["score"], float)
            assert f["kind"] in {"syntax", "undefined-name", "change", "replace", "insert", "delete"}
            assert f["severity"] == ("error" if f["kind"] in {"syntax", "undefined-name"} else "warning")
            assert (f["gain"] is None) == (f["severity"] == "error")
            assert f["message"]
            assert f["replacement"] is None or isinstance(f["replacement"], str)
    # one entry per .py file and per Python code cell, in walk order; markdown, %%bash,
    # checkpoints, hidden and __pycache__ folders skipped
    assert [(e["path"], e.get("cell")) for e in report["files"]] == [
        ("nb/analysis.ipynb", 1), ("nb/analysis.ipynb", 3), ("src/buggy.py", None), ("src/clean.py", None)]


def test_json_findings_and_corrections(project_run):
    magic_cell, buggy_cell, buggy_py, clean_py = project_run["json"]["files"]
    assert clean_py["findings"] == [] and clean_py["corrected"] == CLEAN_PY
    assert [f["line"] for f in buggy_py["findings"]] == [2]
    assert buggy_py["corrected"] == "x = [1, 2, 3]\nprint(x)\n"
    assert [(row["kind"], row["text"], row["spans"]) for row in buggy_py["diff_rows"]] == [
        ("same", "x = [1, 2, 3]", []), ("removed", "pritn(x)", [[0, 5]]), ("added", "print(x)", [[0, 5]])]
    assert clean_py["diff_rows"] == []
    # 'pritn' is an undefined name (an error) or the model's verified edit (a warning)
    assert buggy_py["findings"][0]["replacement"] in (None, "print(x)")
    assert "print" in buggy_py["findings"][0]["message"] or buggy_py["findings"][0]["replacement"]
    assert 2 in [f["line"] for f in buggy_cell["findings"]]       # line 2 of the cell itself
    # the earlier code cell was the buggy cell's context
    assert buggy_cell["stats"]["context_tokens"] > magic_cell["stats"]["context_tokens"]


def test_magics_are_never_flagged(project_run):
    magic_cell = project_run["json"]["files"][0]
    assert magic_cell["cell"] == 1
    assert not {f["line"] for f in magic_cell["findings"]} & MAGIC_LINES, magic_cell["findings"]
    assert magic_cell["corrected"].split("\n")[1:3] == MAGIC_CELL.split("\n")[1:3]


# -- text ----------------------------------------------------------------------------------------------

def test_text_report_has_cell_locations_and_suggestions(project_run):
    lines = project_run["text"].splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("nb/analysis.ipynb:cell_4:2:"))
    label = lines[first].split(": ")[1]
    assert label in ("error[undefined-name]", "warning[replace]", "warning[change]"), lines[first]
    if label.startswith("warning"):
        assert re.search(r"\(gain \d+\.\d\)$", lines[first])
    else:
        assert "pritn" in lines[first] and "(score" not in lines[first] and "(gain" not in lines[first]
    if lines[first + 1].startswith("    - "):      # the finding's line as the model would write it
        assert lines[first + 1] == "    - pritn(numbers)"
        assert lines[first + 2] == "    + print(numbers)"
    assert any(ln.startswith("src/buggy.py:2:1: ") for ln in lines)
    assert not any(ln.startswith("src/clean.py") for ln in lines)
    assert "\033[" not in project_run["text"]
    assert re.match(r"\d+ findings \((\d+ errors?|\d+ warnings?|\d+ errors?, \d+ warnings?)\) in 2 of 3 files "
                    r"\(2 notebook cells\); "
                    r"\d+ tokens at [\d.]+ tokens/s, [\d.]+ s in all, model SmolLM2-135M-Instruct$",
                    lines[-1]), lines[-1]
    # the early exit's inner words stay out of the summary (-v says it in words)
    assert "depth" not in project_run["text"] and "exit policy" not in project_run["text"]


def test_verbose_summary_says_what_the_early_exit_saved_in_words(tmp_path, needs_model):
    (tmp_path / "add.py").write_text(CLEAN_PY)
    code, out, _ = run_cli("--color", "never", "-v", "--json-output", tmp_path / "report.json", tmp_path / "add.py")
    assert code == 0
    summary, early = out.splitlines()[-2:]
    assert summary.startswith("No findings in 1 file; ") and summary.endswith("model SmolLM2-135M-Instruct")
    assert re.fullmatch(r"early exit \(policy head\): every token ran all 30 layers; the cheap exit test "
                        r"settled \d+ of \d+ rows \(\d+%\) without the full 49,152-token output head "
                        r"\(a row: one token scored, the cell's own or one weighing an edit\)", early), early
    # the JSON report keeps its fields
    (entry,) = json.loads((tmp_path / "report.json").read_text())["files"]
    assert {"decision_depth", "exit_policy", "exit_policy_name", "exit_histogram"} <= set(entry["stats"])


def test_clean_code_from_stdin_exits_0(monkeypatch, needs_model):
    monkeypatch.setattr(sys, "stdin", io.StringIO(CLEAN_PY))
    code, out, err = run_cli("--format", "json", "--stdin-name", "add.py", "-")
    assert (code, err) == (0, "")
    (entry,) = json.loads(out)["files"]
    assert entry["path"] == "add.py" and entry["findings"] == []


def test_silenced_findings_pass_and_are_counted(tmp_path, needs_model):
    """A `# codecheck: ignore[kind]` comment in a .py file and in a notebook cell, and `--ignore`:
    the run exits 0, the correction leaves the line as written, the summary counts them."""
    (tmp_path / "quiet.py").write_text(BUGGY_PY.replace("pritn(x)", "pritn(x)  # codecheck: ignore[undefined-name]"))
    write_notebook(tmp_path / "quiet.ipynb", [nbformat.v4.new_code_cell(
        "!ls\n" + BUGGY_CELL.replace("pritn(numbers)", "pritn(numbers)  # codecheck: ignore"))])
    code, out, err = run_cli("--color", "never", "--json-output", tmp_path / "r.json",
                             tmp_path / "quiet.py", tmp_path / "quiet.ipynb")
    assert code == 0, out
    assert "No findings in 2 files (1 notebook cell) (2 silenced); " in out
    entries = json.loads((tmp_path / "r.json").read_text())["files"]
    assert [(e["findings"], e["stats"]["silenced"]) for e in entries] == [([], 1), ([], 1)]
    assert entries[0]["corrected"] == (tmp_path / "quiet.py").read_text()
    (tmp_path / "buggy.py").write_text(BUGGY_PY)
    assert run_cli("--ignore", "undefined-name,key", tmp_path / "buggy.py")[0] == 0
    assert run_cli("--ignore", "key", tmp_path / "buggy.py")[0] == 1
    code, out, err = run_cli("--ignore", "undefined_name", tmp_path / "buggy.py")
    assert code == 2 and "unknown finding kind 'undefined_name'; kinds: syntax, undefined-name" in err


def test_long_source_is_checked_in_pieces(monkeypatch, needs_model):
    """A file longer than the model's window is checked piece by piece (here: two pieces of two
    lines) and reported as one: lines, byte spans and the correction refer to the whole file."""
    monkeypatch.setattr(long_sources, "PIECE_CHARS", 40)
    source = CLEAN_PY + BUGGY_PY
    steps: list[str] = []
    result = long_sources.check_long(source, on_piece=lambda piece: steps.append(str(piece)))
    assert steps == ["lines 1-2 of 4", "lines 3-4 of 4"]        # the progress of a long file
    assert [p for _, p in long_sources.split_source(source, 40)] == [CLEAN_PY, BUGGY_PY]
    assert result.stats["pieces"] == 2
    assert [f.line for f in result.findings] == [4]
    assert result.corrected == source.replace("pritn", "print")
    data = source.encode()
    assert [t.index for t in result.tokens] == list(range(len(result.tokens)))
    assert "".join(t.text for t in result.tokens) == source
    for t in result.tokens:
        assert data[t.start:t.end].decode("utf-8", "replace") == t.text
        assert source.split("\n")[t.line - 1][t.column:].startswith(t.text.split("\n")[0])
    assert result.stats["tokens"] == len(result.tokens)


# -- SARIF ---------------------------------------------------------------------------------------------

# The SARIF 2.1.0 schema's required properties and enumerations for what this tool writes (the
# schema itself is not available offline): object -> required keys.
SARIF_REQUIRED = {
    "sarifLog": ["version", "runs"], "run": ["tool"], "tool": ["driver"], "toolComponent": ["name"],
    "reportingDescriptor": ["id"], "result": ["message"], "invocation": ["executionSuccessful"],
    "notification": ["message"], "fix": ["artifactChanges"],
    "artifactChange": ["artifactLocation", "replacements"], "replacement": ["deletedRegion"],
}
LEVELS = {"none", "note", "warning", "error"}


def _required(obj: dict, kind: str):
    missing = [k for k in SARIF_REQUIRED[kind] if k not in obj]
    assert not missing, f"{kind} lacks {missing}"


def _region(region: dict):
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        assert isinstance(region[key], int) and region[key] >= 1, region
    assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])


def test_sarif_is_valid_2_1_0(project_run):
    log = project_run["sarif"]
    _required(log, "sarifLog")
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    _required(run, "run")
    _required(run["tool"], "tool")
    driver = run["tool"]["driver"]
    _required(driver, "toolComponent")
    assert driver["name"] == "jupyter-codecheck" and driver["version"]
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids))
    for rule in driver["rules"]:
        _required(rule, "reportingDescriptor")
        # what GitHub code scanning needs to show a rule
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
        assert rule["defaultConfiguration"]["level"] in LEVELS
    assert run["columnKind"] in ("utf16CodeUnits", "unicodeCodePoints")
    for inv in run["invocations"]:
        _required(inv, "invocation")
        assert inv["executionSuccessful"] is True and inv["toolExecutionNotifications"] == []
    assert run["results"]
    for res in run["results"]:
        _required(res, "result")
        assert res["message"]["text"]
        assert res["level"] in LEVELS
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        assert not uri.startswith("/") and "\\" not in uri
        assert loc["artifactLocation"]["uriBaseId"] in run["originalUriBaseIds"]
        _region(loc["region"])
        for fix in res.get("fixes", []):
            _required(fix, "fix")
            for change in fix["artifactChanges"]:
                _required(change, "artifactChange")
                for rep in change["replacements"]:
                    _required(rep, "replacement")
                    _region(rep["deletedRegion"])
    json.dumps(log, allow_nan=False)        # strict JSON: no NaN/Infinity


def test_sarif_locations_point_into_the_files(project_run, project):
    run = project_run["sarif"]["runs"][0]
    by_uri: dict = {}
    for res in run["results"]:
        by_uri.setdefault(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], []).append(res)
    assert set(by_uri) == {"nb/analysis.ipynb", "src/buggy.py"}

    # a notebook result: region inside the .ipynb file's JSON text, on the cell's code
    nb_text = (project / "nb" / "analysis.ipynb").read_text().split("\n")
    (cell_res,) = [r for r in by_uri["nb/analysis.ipynb"] if r["properties"]["cellLine"] == 2]
    assert cell_res["properties"]["cell"] == 3          # the index into nb["cells"]
    region = cell_res["locations"][0]["physicalLocation"]["region"]
    raw_line = nb_text[region["startLine"] - 1]
    assert raw_line.strip().startswith('"pritn(numbers)')
    assert raw_line[region["startColumn"] - 1:].startswith("pritn(numbers)")
    logical = cell_res["locations"][0]["logicalLocations"][0]
    assert logical["name"] == "cell_4"                   # the fourth cell, as people count
    assert logical["fullyQualifiedName"] == "nb/analysis.ipynb:cell_4"

    # a Python file result: its own line, with the model's line as a fix when the finding has one
    (py_res,) = by_uri["src/buggy.py"]
    region = py_res["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (2, 1)
    assert py_res["level"] == ("error" if py_res["ruleId"] == "codecheck/undefined-name" else "warning")
    if "fixes" in py_res:
        rep = py_res["fixes"][0]["artifactChanges"][0]["replacements"][0]
        assert rep["insertedContent"]["text"] == "print(x)"
        assert rep["deletedRegion"] == {"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 9}


# -- end to end ------------------------------------------------------------------------------------------

def test_a_valid_attribute_is_not_renamed_to_a_variables_name(tmp_path, needs_model):
    """The load_diabetes notebook of issue 34: `df = data.frame` got the warning `'frame' looks
    wrong here: 'data'?`, whose fix drops the target column. The code never shows an attribute
    `.data`: the model's guess is not a fix to propose."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from sklearn.datasets import load_diabetes\n"),
                nbformat.v4.new_code_cell("data = load_diabetes(as_frame=True)\ndf = data.frame\n")]
    path = tmp_path / "diabetes.ipynb"
    nbformat.write(nb, path)
    code, out, err = run_cli("--format", "json", str(path))
    assert (code, err) == (0, ""), out
    assert all(f["findings"] == [] for f in json.loads(out)["files"])


def test_module_entry_point_exit_code_and_stdout(project, needs_model):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "jupyter_codecheck.views.cli", "--format", "json", "src/buggy.py"],
                          check=False, cwd=project, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert [f["line"] for f in report["files"][0]["findings"]] == [2]
    assert proc.stderr == ""


# -- severity: hand-built results, no model ---------------------------------------------------------------

SEV_SOURCE = "import os\nprint(undefined_thing)\nx = [1, 2, 3\nlen(x)\n"
SEV_WARN_SOURCE = "x = [1, 2, 3]\nfor v in x:\n    prnt(v)\n"


def _error(line, column, kind, message):
    return Finding(line, column, 100.0, kind, message, None, severity="error", gain=None)


def _warning(line, column, kind, message, replacement, gain):
    return Finding(line, column, gain, kind, message, replacement, severity="warning", gain=gain)


SEV_RESULTS = {
    # Python's own checks: an undefined name (no fix) and a syntax error
    "errors.py": CheckResult(
        source=SEV_SOURCE, corrected=SEV_SOURCE, stats={"tokens": 20, "time_s": 0.1},
        findings=[_error(2, 6, "undefined-name", "name 'undefined_thing' is not defined"),
                  _error(3, 4, "syntax", "'[' was never closed")]),
    # a verified edit only
    "warnings.py": CheckResult(
        source=SEV_WARN_SOURCE, corrected=SEV_WARN_SOURCE.replace("prnt", "print"),
        stats={"tokens": 15, "time_s": 0.1},
        findings=[_warning(3, 4, "replace", "'prnt' looks wrong here: the model expects 'print'",
                           "    print(v)", 6.25)]),
    "clean.py": CheckResult(source=CLEAN_PY, corrected=CLEAN_PY, stats={"tokens": 9, "time_s": 0.1}),
}


@pytest.fixture
def fake_checks(monkeypatch, tmp_path):
    """check_files() answering with SEV_RESULTS (by file name) instead of running the model; the
    files exist in tmp_path, which is the working directory."""
    for name, result in SEV_RESULTS.items():
        (tmp_path / name).write_text(result.source)

    def check_files(files, options, *, context, stdin_name, run, progress, **_):
        for path in files:
            for unit in read_units(path):
                done = report.Checked(unit, SEV_RESULTS[Path(path).name])
                run.checked.append(done)
                yield done

    monkeypatch.setattr(cli, "check_files", check_files)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_text_report_names_the_severity(fake_checks):
    code, out, err = run_cli("--color", "never", "errors.py", "warnings.py", "clean.py")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[:2] == ["errors.py:2:7: error[undefined-name]: name 'undefined_thing' is not defined",
                         "errors.py:3:5: error[syntax]: '[' was never closed"]
    # a warning: its evidence, and the line as it is and as the model would write it
    assert lines[2:5] == [("warnings.py:3:5: warning[replace]: 'prnt' looks wrong here: the model "
                           "expects 'print' (gain 6.2)"), "    -     prnt(v)", "    +     print(v)"]
    assert lines[5].startswith("3 findings (2 errors, 1 warning) in 2 of 3 files; 44 tokens")


def test_text_report_colours_errors_red_and_warnings_amber(fake_checks):
    _, out, _ = run_cli("--color", "always", "-q", "errors.py", "warnings.py")
    assert "\033[1;31merror\033[0m[syntax]" in out and "\033[33mwarning\033[0m[replace]" in out


@pytest.mark.parametrize("files, fail_on, expected", [
    (["errors.py"], None, 1), (["warnings.py"], None, 1), (["clean.py"], None, 0),
    (["errors.py"], "warning", 1), (["warnings.py"], "warning", 1),
    (["errors.py"], "error", 1), (["warnings.py"], "error", 0), (["clean.py"], "error", 0),
    (["warnings.py", "errors.py"], "error", 1),
])
def test_fail_on_sets_the_exit_code(fake_checks, files, fail_on, expected):
    args = (["--fail-on", fail_on] if fail_on else []) + ["--format", "json", *files]
    code, out, _ = run_cli(*args)
    assert code == expected
    # the report is the same whatever --fail-on says: warnings are still reported
    assert sum(len(e["findings"]) for e in json.loads(out)["files"]) == \
        sum(len(SEV_RESULTS[f].findings) for f in files)


def test_fail_on_rejects_other_values(fake_checks):
    code, out, err = run_cli("--fail-on", "flag", "clean.py")
    assert code == 2 and out == "" and "--fail-on" in err and "invalid choice" in err


def test_json_findings_carry_severity_and_gain(fake_checks):
    code, out, _ = run_cli("--format", "json", "errors.py", "warnings.py")
    assert code == 1
    errors, warnings = json.loads(out)["files"]
    assert [(f["kind"], f["severity"], f["gain"], f["replacement"]) for f in errors["findings"]] == [
        ("undefined-name", "error", None, None), ("syntax", "error", None, None)]
    (w,) = warnings["findings"]
    assert w == {"line": 3, "column": 4, "score": 6.25, "kind": "replace",
                 "message": "'prnt' looks wrong here: the model expects 'print'",
                 "replacement": "    print(v)", "severity": "warning", "gain": 6.25, "end_column": None}


def test_sarif_level_is_the_severity(fake_checks):
    code, out, _ = run_cli("--format", "sarif", "errors.py", "warnings.py")
    assert code == 1
    run = json.loads(out)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in rules}
    assert levels == {"codecheck/syntax": "error", "codecheck/undefined-name": "error",
                      "codecheck/attribute": "error", "codecheck/key": "error", "codecheck/call": "error",
                      "codecheck/value": "error",
                      "codecheck/replace": "warning", "codecheck/change": "warning",
                      "codecheck/insert": "warning", "codecheck/delete": "warning",
                      "codecheck/ignore": "warning",
                      "codecheck/failure": "error"}     # a notebook cell's stored error (its repair)
    assert len({r["id"] for r in rules}) == len(rules)
    got = [(r["ruleId"], r["level"], rules[r["ruleIndex"]]["id"], r["properties"].get("gain"))
           for r in run["results"]]
    assert got == [("codecheck/undefined-name", "error", "codecheck/undefined-name", None),
                   ("codecheck/syntax", "error", "codecheck/syntax", None),
                   ("codecheck/replace", "warning", "codecheck/replace", 6.25)]
    # an error has no fix to offer; the warning's line comes with the model's correction
    assert "fixes" not in run["results"][0] and "fixes" not in run["results"][1]
    assert run["results"][2]["fixes"][0]["artifactChanges"][0]["replacements"][0][
        "insertedContent"]["text"] == "    print(v)"


def test_sarif_keeps_a_finding_of_an_unknown_kind():
    """A kind this CLI has no rule for (a newer or older checker's) is reported without a rule
    index, at its severity; one without a known severity counts as a warning."""
    unit = read_units_from_text("odd.py", "x = 1\n")
    run = report.Run(checked=[report.Checked(unit, CheckResult(source="x = 1\n", findings=[
        Finding(1, 0, 3.0, "flag", "'x' is unlikely here", None),
        Finding(1, 0, 50.0, "shadowed-builtin", "'x' hides nothing", None, severity="error")]))])
    flag, other = report.sarif_report(run)["runs"][0]["results"]
    assert (flag["ruleId"], flag["level"]) == ("codecheck/flag", "warning") and "ruleIndex" not in flag
    assert (other["ruleId"], other["level"]) == ("codecheck/shadowed-builtin", "error")
    assert report.failing(run.checked[0].result, "error") == [run.checked[0].result.findings[1]]
    assert len(report.failing(run.checked[0].result)) == 2


def read_units_from_text(name: str, text: str):
    (unit,) = read_units(name, text=text)
    return unit


def test_pieces_shift_evidence_and_keep_severity():
    """A long file checked in pieces: findings keep their severity and gain, evidence moves to
    the whole file's lines and bytes like the findings."""
    first, second = "a = 1\n", "print(b)\n"
    ev = Evidence(line=1, column=6, start=6, end=7, original="b", replacement="a", gain=1.5,
                  source="name", tokens_scored=2)
    parts = [(0, CheckResult(source=first, corrected=first, stats={"tokens": 3})),
             (len(first), CheckResult(source=second, corrected=second, stats={"tokens": 4}, evidence=[ev],
                                      findings=[_error(1, 6, "undefined-name", "name 'b' is not defined")]))]
    merged = long_sources.merge(first + second, parts)
    (f,) = merged.findings
    assert (f.line, f.severity, f.gain) == (2, "error", None)
    (e,) = merged.evidence
    assert (e.line, e.start, e.end) == (2, 12, 13) and (first + second)[e.start:e.end] == "b"


# -- bad input: exit code 2 and one clear line on stderr, before any model work --------------------------

def _one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.startswith("jupyter-codecheck: error:")]
    assert len(lines) == 1, err
    return lines[0]


def test_missing_path(tmp_path):
    code, out, err = run_cli(tmp_path / "nope.py")
    assert code == 2 and out == ""
    assert "nope.py: no such file or directory" in _one_error_line(err)


def test_bad_notebook_json(tmp_path):
    bad = tmp_path / "broken.ipynb"
    bad.write_text('{"cells": [\n  {"cell_type": "code" "source": []}\n]}')
    code, out, err = run_cli("--format", "json", bad)
    assert code == 2
    assert "broken.ipynb: is not a valid notebook: bad JSON at line 2" in _one_error_line(err)
    report = json.loads(out)                      # the report is still written (nothing checked)
    assert report["files"] == [] and report["summary"]["files"] == 0
    (unreadable,) = report["summary"]["unreadable"]
    assert unreadable["path"].endswith("broken.ipynb") and "bad JSON at line 2" in unreadable["message"]


def test_not_a_notebook(tmp_path):
    bad = tmp_path / "list.ipynb"
    bad.write_text("[1, 2]")
    code, _, err = run_cli(bad)
    assert code == 2 and "the JSON is not an object" in _one_error_line(err)


def test_unreadable_python_file(tmp_path):
    bad = tmp_path / "latin.py"
    bad.write_bytes(b"name = '\xe9t\xe9'\n")
    code, _, err = run_cli(bad)
    assert code == 2 and "save it as UTF-8" in _one_error_line(err)


def test_unknown_exit_policy(project):
    code, out, err = run_cli("--exit-policy", "warp-speed", project / "src" / "clean.py")
    assert code == 2 and out == ""
    assert "unknown exit test 'warp-speed'" in _one_error_line(err)


def test_bad_gguf(project, tmp_path):
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"this is not a GGUF file at all")
    code, out, err = run_cli("--model", fake, project / "src" / "clean.py")
    assert code == 2 and out == ""
    line = _one_error_line(err)
    assert "the model file cannot be used" in line and "--model" in line


def test_missing_model_file(project, tmp_path):
    code, _, err = run_cli("--model", tmp_path / "absent.gguf", project / "src" / "clean.py")
    assert code == 2 and "absent.gguf" in _one_error_line(err)


@pytest.mark.parametrize("args", [[], ["--prob", "1.5", "x.py"], ["--format", "xml", "x.py"], ["--rank", "-1", "x.py"]])
def test_usage_errors(args):
    code, out, err = run_cli(*args)
    assert code == 2 and out == "" and "usage: jupyter-codecheck" in err


def test_output_folder_missing(project, tmp_path):
    code, _, err = run_cli("-o", tmp_path / "no" / "such" / "r.json", project / "src" / "clean.py")
    assert code == 2 and "does not exist" in _one_error_line(err)


def test_calibrate_dispatch(monkeypatch):
    code, out, err = run_cli("calibrate", "--help")
    try:
        import jupyter_codecheck.tools.calibrate  # noqa: F401
    except ModuleNotFoundError:
        assert code == 2 and "no 'calibrate' command" in _one_error_line(err)
    else:
        assert code == 0 and "jupyter-codecheck calibrate" in out
    # without the module: a clear error, not a traceback
    monkeypatch.setitem(sys.modules, "jupyter_codecheck.tools.calibrate", None)
    code, out, err = run_cli("calibrate", "x")
    assert code == 2 and "no 'calibrate' command" in _one_error_line(err)


# -- sources: notebooks read into cells, positions inside the file -------------------------------------

def test_cells_other_languages_and_empty_cells_are_skipped(tmp_path):
    path = tmp_path / "nb.ipynb"
    write_notebook(path, [nbformat.v4.new_code_cell(""), nbformat.v4.new_code_cell("%%html\n<b>x</b>"),
                          nbformat.v4.new_code_cell("%%time\nx = 1\n"), nbformat.v4.new_raw_cell("y = ("),
                          nbformat.v4.new_code_cell("%%writefile helper.py\ndef f():\n    pass\n")])
    assert [u.cell for u in read_units(path)] == [2, 4]
    r_nb = json.loads(path.read_text())
    r_nb["metadata"] = {"kernelspec": {"name": "ir", "language": "R"}}
    path.write_text(json.dumps(r_nb))
    assert read_units(path) == []


def test_cells_before_the_context_window_are_passed_as_earlier(tmp_path, monkeypatch):
    # the model reads the most recent cells (select_context); what the cells before them define
    # must still count for Python's checks, or a notebook's later cells get false errors
    calls = []

    def check_long(source, *, context=None, on_piece=None, **options):
        calls.append((source, context, options.get("earlier")))
        kinds.append((options.get("notebook"), options.get("later")))
        return CheckResult(source=source, corrected=source, stats={"tokens": 1, "time_s": 0.0})

    kinds = []
    monkeypatch.setattr(files, "check_long", check_long)
    big = "".join(f"value_{k} = {k}\n" for k in range(400))          # > twice the context budget
    path = tmp_path / "nb.ipynb"
    write_notebook(path, [nbformat.v4.new_code_cell("def helper():\n    return 1\n"),
                          nbformat.v4.new_code_cell(big), nbformat.v4.new_code_cell("print(helper())\n")])
    code, out, err = run_cli("--format", "json", str(path))
    assert code == 0, err
    source, context, earlier = calls[-1]
    assert source == "print(helper())\n"
    assert [*(earlier or []), *(context or [])] == ["def helper():\n    return 1\n", big]
    assert earlier and earlier[0].startswith("def helper")
    # a notebook's cells are checked as notebook cells (the notebook margin), with the cells
    # after them (run order); a plain file is neither
    assert kinds[0] == (True, [big, "print(helper())\n"]) and kinds[-1] == (True, None)
    (tmp_path / "plain.py").write_text("x = 1\n")
    run_cli("--format", "json", str(tmp_path / "plain.py"))
    assert kinds[-1] == (None, None)


@pytest.mark.parametrize("layout", ["jupyter", "minified", "one-string"])
def test_file_position_inside_notebook_json(tmp_path, layout):
    src = "import os\nx = 'é\\t'; pritn(x)\n"
    path = tmp_path / "nb.ipynb"
    write_notebook(path, [nbformat.v4.new_markdown_cell("hi"), nbformat.v4.new_code_cell(src)])
    nb = json.loads(path.read_text())
    if layout == "minified":
        path.write_text(json.dumps(nb))                 # one line, non-ASCII escaped
    elif layout == "one-string":
        nb["cells"][1]["source"] = src
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
    (unit,) = read_units(path)
    assert unit.source == src and unit.cell == 1
    assert unit.location(2, 11) == f"{path}:cell_2:2:12"
    line, col = unit.file_position(2, 11)               # the 'p' of pritn
    assert path.read_text().split("\n")[line - 1][col - 1:].startswith("pritn(x)")


def test_split_source_cuts_at_statements_outside_strings():
    source = ('def f(x):\n    """Doc.\n\n    more\n    """\n    return x\n\n\n'
              "class A:\n    pass\n\n\nx = (1,\n     2)\ny = 3\n")
    pieces = split_source(source, 30)
    assert "".join(p for _, p in pieces) == source
    assert all(source[off:].startswith(p) for off, p in pieces)
    starts = [p.split("\n")[0] for _, p in pieces]
    assert starts[0] == "def f(x):"
    assert not {"    more", '    """', "     2)"} & set(starts)     # not inside a string or bracket
    assert "class A:" in starts and "x = (1," in starts
    assert split_source("x = 1\n", 30) == [(0, "x = 1\n")]


def test_find_files_missing_and_order(tmp_path):
    (tmp_path / "b.py").write_text("")
    (tmp_path / "a.ipynb").write_text("{}")
    (tmp_path / "notes.txt").write_text("")
    assert find_files([tmp_path]) == [str(tmp_path / "a.ipynb"), str(tmp_path / "b.py")]
    with pytest.raises(SourceError, match="no such file"):
        find_files([tmp_path / "missing"])
    # a virtual environment under the project, whatever its name, is not the project's code
    (tmp_path / "env" / "lib").mkdir(parents=True)
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "env" / "lib" / "site.py").write_text("")
    assert find_files([tmp_path]) == [str(tmp_path / "a.ipynb"), str(tmp_path / "b.py")]


def test_the_status_line_is_drawn_on_a_terminal_only(monkeypatch):
    from jupyter_codecheck.views.progress import StatusLine

    class Stream(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    for tty, drawn in ((False, ""), (True, "\r\033[Kchecking\r\033[K")):
        stream = Stream(tty)
        monkeypatch.setattr(sys, "stderr", stream)
        line = StatusLine()
        line.show("checking")
        line.clear()
        assert stream.getvalue() == drawn


def test_nothing_to_check_says_so(tmp_path):
    (tmp_path / "empty.py").write_text("")
    code, out, err = run_cli(tmp_path / "empty.py")
    assert code == 0 and out.startswith("Nothing to check")
