"""A benchmark checks what it needs before it starts: a missing package, command or data path
ends it at once with exit code 2 and the install command, not minutes later."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# seaborn made unimportable in this process only (an entry of None in sys.modules); then the
# benchmark runs as `python bench/<name>.py ARGS`
HIDING = """import runpy, sys
sys.modules[sys.argv[1]] = None
script = sys.argv[2]
sys.argv = [script, *sys.argv[3:]]
runpy.run_path(script, run_name="__main__")
"""


def run_bench(hidden: str, script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDING, hidden, str(ROOT / "bench" / script), *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_notebook_crashes_names_a_missing_package_and_data_path_before_it_starts(tmp_path):
    missing_data = tmp_path / "notebook_crashes.jsonl"
    p = run_bench("seaborn", "notebook_crashes.py", "--mode", "kernel", "--crashes", str(missing_data),
                  "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "out"))
    assert p.returncode == 2, p.stderr
    assert "bench/notebook_crashes.py cannot start" in p.stderr
    assert "'seaborn'" in p.stderr
    assert str(missing_data) in p.stderr
    assert "pip install '.[bench]' (or: make bench)" in p.stderr
    # nothing ran: no model loaded, no stand-ins, no report
    assert "stand-ins built" not in p.stderr
    assert not (tmp_path / "out").exists()


def test_crash_facts_names_a_missing_data_path(tmp_path):
    p = run_bench("_no_such_module_", "crash_facts.py", str(tmp_path / "absent.jsonl"))
    assert p.returncode == 2, p.stderr
    assert str(tmp_path / "absent.jsonl") in p.stderr


def test_notebook_mutations_names_a_missing_package_and_data_path(tmp_path):
    p = run_bench("sklearn", "notebook_mutations.py", str(tmp_path / "absent.jsonl"), "--out", str(tmp_path / "out"))
    assert p.returncode == 2, p.stderr
    assert "bench/notebook_mutations.py cannot start" in p.stderr
    assert "'scikit-learn' (import sklearn)" in p.stderr
    assert str(tmp_path / "absent.jsonl") in p.stderr
    assert not (tmp_path / "out").exists()


def test_the_repair_benchmarks_name_a_missing_package_and_data_path(tmp_path):
    # llama.cpp's binding is what each of them asks the same GGUF through
    for script, args in (("repairs.py", ["--data", str(tmp_path)]),
                         ("fim_probe.py", ["--data", str(tmp_path)]),
                         ("fim_localise.py", ["--data", str(tmp_path), "--dataset", "humanevalfix"]),
                         ("failure_humanevalfix.py", ["--data", str(tmp_path / "humanevalfix.jsonl")])):
        p = run_bench("llama_cpp", script, *args, "--out", str(tmp_path / "out"))
        assert p.returncode == 2, (script, p.stderr)
        assert f"bench/{script} cannot start" in p.stderr
        assert "'llama-cpp-python' (import llama_cpp)" in p.stderr
        assert str(tmp_path / "humanevalfix.jsonl") in p.stderr
        assert not (tmp_path / "out").exists()


def test_the_junobench_repair_benchmark_names_a_missing_package_and_data_path(tmp_path):
    missing = tmp_path / "notebook_crashes.jsonl"
    p = run_bench("seaborn", "failure_junobench.py", "--crashes", str(missing), "--out", str(tmp_path / "out"))
    assert p.returncode == 2, p.stderr
    assert "bench/failure_junobench.py cannot start" in p.stderr
    assert "'seaborn'" in p.stderr and str(missing) in p.stderr
    assert not (tmp_path / "out").exists()


def test_the_junobench_repair_benchmark_reads_the_fixs_places_from_both_sides():
    sys.path.insert(0, str(ROOT / "bench"))
    from failure_junobench import changed_lines, fix_places
    # a replaced line pairs with its fixed line; an insertion's place is the lines around it
    assert changed_lines("a\nb\nc", "a\nB\nc") == {2: "B"}
    assert changed_lines("a\nc", "a\nb\nc") == {1: None, 2: None}
    case = {"buggy": {"earlier": ["x = 1", "df = df.drop('a')"], "target": "df['a']"},
            "fixed": {"earlier": ["x = 1", "df = df"], "target": "df['a']"}}
    assert fix_places(case) == {(1, 1): "df = df"}
    # a fix that only adds a cell changes no line of the cells that ran
    case["fixed"]["earlier"] = ["x = 1", "df = load()", "df = df.drop('a')"]
    assert fix_places(case) == {}
