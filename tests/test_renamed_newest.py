"""Renamed and removed API on the newest releases pip resolves (pandas 3.x, numpy 2.x,
scikit-learn 1.6-1.9): the fact gets the release's replacement on a frame the cell builds as on a
live one, in the kernel and from the notebook's text alone (`--libraries import`), and the fixed
cell runs. tests/test_kernel_facts.py holds every table entry to the installed releases."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts, module_namespace

BUILT = 'import pandas as pd\ndf = pd.DataFrame({"a": [1, 2], "b": [3.0, 4.0]})\n'
CELLS = [
    (BUILT + "m = df.applymap(str)\n", "map"),
    (BUILT + "pairs = [k for k, v in df.iteritems()]\n", "items"),
    (BUILT + "df = df.append(df, ignore_index=True)\n", "pd.concat([df, df], ignore_index=True)"),
    (BUILT + 'df = df.append({"a": 5, "b": 6.0}, ignore_index=True)\n',
     'pd.concat([df, pd.DataFrame([{"a": 5, "b": 6.0}])], ignore_index=True)'),
    ("import pandas as pd\ns = pd.Series([1, 2])\npairs = list(s.iteritems())\n", "items"),
]


@pytest.mark.parametrize("cell,fix", CELLS)
@pytest.mark.parametrize("where", ["kernel", "text"])
def test_a_removed_name_on_a_frame_the_cell_builds_gets_its_replacement(cell, fix, where):
    ns = {"pd": pd} if where == "kernel" else module_namespace([cell], "import")
    (fact,) = kernel_facts(cell, ns, libraries="import")
    assert fact.candidates[:1] == [fix], fact
    lines = cell.split("\n")
    text = lines[fact.line - 1]
    lines[fact.line - 1] = text[:fact.column] + fix + text[fact.end_column:]
    exec("\n".join(lines), {})                 # the fixed cell runs on the installed pandas


def test_newer_removals_are_named_with_their_replacement():
    from sklearn.linear_model import LassoCV
    from sklearn.model_selection import cross_val_score
    ns = {"pd": pd, "np": np, "LassoCV": LassoCV, "cross_val_score": cross_val_score,
          "s": pd.Series([1.0, 2.0], index=pd.date_range("2024-01-01", periods=2)),
          "g": pd.DataFrame({"k": [1, 1], "v": [1.0, None]}).groupby("k"), "a": np.arange(3)}
    expected = {
        "m = LassoCV(n_alphas=50)\n": ("removed in scikit-learn 1.9", "alphas"),
        "sc = cross_val_score(m, X, y, fit_params={})\n": ("removed in scikit-learn 1.6", "params"),
        "f = g.fillna(method='ffill')\n": ("removed in pandas 3.0", None),
        "h = s.first('1D')\n": ("removed in pandas 3.0", None),
        "b = a.tostring()\n": ("removed in NumPy 2.3", "tobytes"),
        "t = np.int0\n": ("removed in NumPy 2.0", "intp"),
    }
    for cell, (change, fix) in expected.items():
        facts = kernel_facts(cell, ns)
        assert facts and change in facts[0].message, (cell, facts)
        if fix:
            assert facts[0].candidates[:1] == [fix], (cell, facts)
