"""Kernel facts in a real kernel (ipykernel through nbclient) with the real model: `%%codecheck`
predicts the crash from the live objects and the model picks the fix among their exact names."""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from notebooks import execute_cells

REPO = Path(__file__).resolve().parent.parent

SETUP = '''import pandas as pd
ran = []
class Sensor:
    def __init__(self):
        self.reading = 1.5
    @property
    def status(self):
        ran.append("property")
        return "ok"
    def __getattr__(self, name):
        ran.append("__getattr__")
        raise AttributeError(name)
class Probe:
    def __init__(self):
        self.reading = 2.0
    @property
    def status(self):
        ran.append("property")
        return "ok"
def scale(values, *, factor=1.0):
    return [v * factor for v in values]
df = pd.DataFrame({"price": [1.0, 2.5], "city": ["Oslo", "Lima"]})
probe = Probe()
sensor = Sensor()
'''

CELLS = [
    "%load_ext jupyter_codecheck",                                                         # 0
    SETUP,                                                                                 # 1
    '%%codecheck -o r_key --view text\nmean_price = df["pirce"].mean()\nprint(mean_price)',  # 2
    "%%codecheck -o r_attr --view text\nvalue = probe.readnig * 2\nprint(value, probe.status)",  # 3
    "%%codecheck -o r_call --view text\nscaled = scale([1, 2], factr=2.0)\nprint(scaled)",     # 4
    '%%codecheck -o r_rebound --view text\ndf = df.rename(columns={"price": "cost"})\nprint(df["cost"].sum())',  # 5
    "%%codecheck -o r_lazy --view text\nprint(sensor.anything)",                          # 6
    "broken = 1 / 0",                                                                      # 7
    "%%codecheck -o r_failed --view text\nprint(broken + 1)",                              # 8
    "import json\nprint(json.dumps({n: [[f.kind, f.line, f.message] for f in r.findings] + [r.corrected]\n"
    "    for n, r in [('key', r_key), ('attr', r_attr), ('call', r_call), ('rebound', r_rebound),\n"
    "                 ('lazy', r_lazy), ('failed', r_failed)]}))\nprint(json.dumps(ran))",   # 9
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, model_path):
    nb = execute_cells(CELLS, tmp_path_factory.mktemp("nb"))
    text = "".join(o.get("text", "") for o in nb.cells[9].outputs if o.output_type == "stream")
    lines = text.strip().splitlines()
    assert len(lines) == 2, nb.cells[9].outputs
    return json.loads(lines[0]), json.loads(lines[1])


def _errors(found):
    return [(kind, line) for kind, line, _ in found[:-1]]


def test_a_column_typo_is_found_with_the_columns_fix(outputs):
    found = outputs[0]["key"]
    assert _errors(found) == [("key", 1)]
    assert "'pirce'" in found[0][2] and 'mean_price = df["price"].mean()' in found[-1]


def test_an_attribute_typo_on_a_live_object_is_found_with_its_fix(outputs):
    found = outputs[0]["attr"]
    assert _errors(found) == [("attribute", 1)]
    assert "value = probe.reading * 2" in found[-1]


def test_an_unexpected_keyword_is_found_with_the_parameters_name(outputs):
    found = outputs[0]["call"]
    assert _errors(found) == [("call", 1)]
    assert "factr" in found[0][2] and "scale([1, 2], factor=2.0)" in found[-1]


def test_a_name_the_cell_rebinds_is_not_checked_against_the_old_object(outputs):
    assert _errors(outputs[0]["rebound"]) == []


def test_side_effects_never_run_and_getattr_objects_are_not_judged(outputs):
    assert _errors(outputs[0]["lazy"]) == []
    assert outputs[1] == [], f"user code ran while the checks read the objects: {outputs[1]}"


def test_a_name_only_a_failed_cell_defines_says_so(outputs):
    found = outputs[0]["failed"]
    assert _errors(found) == [("undefined-name", 1)]
    assert "failed" in found[0][2]


def test_the_command_line_names_the_later_cell_a_name_comes_from(tmp_path, model_path):
    """Without a kernel, run order: a name only a later cell defines fails top to bottom."""
    import contextlib
    import io

    from jupyter_codecheck.views import cli
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("rate = 0.2\n"),
                nbformat.v4.new_code_cell("total = price * (1 + rate)\nprint(total)\n"),
                nbformat.v4.new_code_cell("price = 10\n")]
    path = tmp_path / "order.ipynb"
    nbformat.write(nb, path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["--format", "json", str(path)])
    assert code == 1
    findings = [f for r in json.loads(out.getvalue())["files"] for f in r["findings"]]
    assert [(f["kind"], f["line"]) for f in findings] == [("undefined-name", 1)]
    assert "only the next code cell defines it" in findings[0]["message"]


def test_a_renamed_keyword_is_fixed_with_the_releases_own_replacement(model_path):
    """`OneHotEncoder(sparse=False)` fails on scikit-learn >= 1.4: the fix is `sparse_output`, the
    name the release gives, though a model trained on older code finds `sparse` likelier."""
    pytest.importorskip("sklearn")
    import pandas as pd
    from sklearn.preprocessing import OneHotEncoder

    from jupyter_codecheck import check
    ns = {"pd": pd, "OneHotEncoder": OneHotEncoder, "df": pd.DataFrame({"city": ["Oslo", "Lima"]})}
    for cell, fixed in (("enc = OneHotEncoder(sparse=False)\nX = enc.fit_transform(df)\n",
                         "enc = OneHotEncoder(sparse_output=False)"),
                        ('t = pd.read_csv("f.csv", error_bad_lines=False)\n', 't = pd.read_csv("f.csv", on_bad_lines="skip")')):
        r = check(cell, namespace=ns)
        assert [(f.kind, f.line) for f in r.findings] == [("call", 1)], r.findings
        assert r.corrected.splitlines()[0] == fixed


def test_no_claim_from_a_signature_stated_over_code_that_takes_anything():
    """Found in review: scikit-learn's `est.set_fit_request` is a function made for the instance
    that states `(self, *, sample_weight=...)` over `def f(*args, **kw)`: "missing 'self'" was
    claimed on a call that runs with metadata routing on."""
    import sklearn
    from sklearn.linear_model import LogisticRegression

    from jupyter_codecheck.facts import kernel_facts

    est = LogisticRegression()
    cell = "est.set_fit_request(sample_weight=True)\n"
    with sklearn.config_context(enable_metadata_routing=True):
        assert kernel_facts(cell, {"est": est}) == []
        exec(cell, {"est": est})
