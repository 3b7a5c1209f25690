"""bench/notebook_set.py: notebooks nobody here read, as rows the notebook benchmarks run."""
from __future__ import annotations

import json
import subprocess
import sys

from bench_modules import BENCH, bench_module

GALLERY = '''"""
An example
==========

Text of the example.
"""
# Author: someone

# %%
# Make the data
# -------------
import numpy as np

X = np.ones((3, 2))

# %%
# Only words here.

# %%
print(X.shape)
'''


def test_a_folder_becomes_one_row_a_notebook_with_its_code_cells_in_order(tmp_path):
    tree = tmp_path / "pkg-1.0"
    (tree / "examples").mkdir(parents=True)
    (tree / "examples" / "plot_a.py").write_text(GALLERY)
    (tree / "examples" / "helper.py").write_text("def f():\n    return 1\n")      # no cells: not a notebook
    nb = {"cells": [{"cell_type": "markdown", "source": ["# title"]},
                    {"cell_type": "code", "source": ["import pandas as pd\n", "df = pd.DataFrame()"]},
                    {"cell_type": "code", "source": "!pip install x"},
                    {"cell_type": "code", "source": "df.head()"}]}
    (tree / "examples" / "b.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "set.jsonl"
    p = subprocess.run([sys.executable, str(BENCH / "notebook_set.py"), str(out), "--tree", str(tree),
                        "--under", "examples/"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.splitlines()[-1])["notebooks"] == 2
    shell = bench_module("notebook_shell")
    books = dict(shell.notebooks(out, 0))
    assert books["pkg-1.0/examples/plot_a.py"] == ["import numpy as np\n\nX = np.ones((3, 2))", "print(X.shape)"]
    assert books["pkg-1.0/examples/b.ipynb"] == ["import pandas as pd\ndf = pd.DataFrame()", "df.head()"]


def test_a_missing_folder_is_named_before_anything_is_written(tmp_path):
    out = tmp_path / "set.jsonl"
    p = subprocess.run([sys.executable, str(BENCH / "notebook_set.py"), str(out), "--tree", str(tmp_path / "absent")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "absent" in p.stderr
    assert not out.exists()


def test_skip_draws_a_second_set_sharing_no_notebook_with_the_first(tmp_path):
    tree = tmp_path / "pkg-1.0"
    (tree / "examples").mkdir(parents=True)
    for i in range(6):
        (tree / "examples" / f"plot_{i}.py").write_text(GALLERY)

    def drawn(*extra):
        out = tmp_path / "set.jsonl"
        p = subprocess.run([sys.executable, str(BENCH / "notebook_set.py"), str(out), "--tree", str(tree), *extra],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return [json.loads(line)["id"] for line in out.read_text().splitlines()]

    first, second, all_six = drawn("--sample", "3"), drawn("--skip", "3", "--sample", "3"), drawn("--sample", "6")
    assert len(first) == len(second) == 3 and not set(first) & set(second)
    assert first + second == all_six


EXPORTED = """---
title: "A note"
---
## Preliminaries


```python
import numpy as np
```

Some words.


```python
# make it
X = np.ones((3, 2))
X.shape
```




    (3, 2)



```bash
ls
```
"""


def test_a_notebook_exported_to_markdown_is_read_only_when_asked(tmp_path):
    tree = tmp_path / "notes"
    (tree / "ml").mkdir(parents=True)
    (tree / "ml" / "a.md").write_text(EXPORTED)
    (tree / "ml" / "readme.md").write_text("# words only\n")
    out = tmp_path / "set.jsonl"

    def run(*extra):
        p = subprocess.run([sys.executable, str(BENCH / "notebook_set.py"), str(out), "--tree", str(tree), *extra],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout.splitlines()[-1])["notebooks"]

    assert run() == 0
    assert run("--markdown") == 1
    books = dict(bench_module("notebook_shell").notebooks(out, 0))
    assert books["notes/ml/a.md"] == ["import numpy as np", "# make it\nX = np.ones((3, 2))\nX.shape"]
