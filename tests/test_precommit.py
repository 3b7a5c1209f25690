"""The pre-commit hooks (`.pre-commit-hooks.yaml`), tried as a new user would: `pre-commit
try-repo` on a fresh repository, with a fresh pre-commit home, so pre-commit builds the hooks'
environment from this checkout (the package, its native engine, the default model's wheel)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_hooks_fail_a_commit_on_errors_and_pass_clean_files(tmp_path):
    pytest.importorskip("pre_commit")
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("total = sum(valuez)\n")]),
                   project / "bad.ipynb")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = [1, 2]\n"),
                                                   nbformat.v4.new_code_cell("print(len(x))\n")]),
                   project / "good.ipynb")
    (project / "util.py").write_text("def double(x):\n    return 2 * x\n")
    _git(project, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    env.pop("PYTHONPATH", None)            # the hooks run from their own environment
    p = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "--all-files"],
                       cwd=project, env=env, capture_output=True, text=True, timeout=1800)
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    assert "bad.ipynb:cell_1:1:13: error[undefined-name]: name 'valuez' is not defined" in out
    assert "1 finding (1 error) in 1 of 2 files" in out        # the clean notebook has none
    notebooks, python = (line for line in out.splitlines() if line.startswith("jupyter-codecheck ("))
    assert notebooks.endswith("Failed") and python.endswith("Passed"), out
