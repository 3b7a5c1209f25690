"""Every exact fix is read by the same facts before it is offered (facts/facts.py:
checked_fixes): a fix after which the cell still fails on its line is not offered, or the finding
says what it still lacks. Real pandas and scikit-learn; the offered fix is run."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import kernel_facts
from jupyter_codecheck.facts.facts import KernelFact, checked_fixes
from jupyter_codecheck.facts.modules import module_resolver


def _frame_ns() -> dict:
    return {"pd": pd, "df": pd.DataFrame({"color": ["red"], "size": ["S"], "price": [1.0]})}


def _patched(cell: str, fact) -> str:
    lines = cell.split("\n")
    text = lines[fact.line - 1]
    lines[fact.line - 1] = text[:fact.column] + fact.candidates[0] + text[fact.end_column:]
    return "\n".join(lines)


def test_a_dict_row_appended_gets_a_fix_that_runs():
    ns = _frame_ns()
    cell = 'df = df.append({"color": "yellow", "size": "M", "price": 9.9}, ignore_index=True)'
    (fact,) = kernel_facts(cell, ns)
    assert fact.candidates[0] == ('pd.concat([df, pd.DataFrame([{"color": "yellow", "size": "M", "price": 9.9}])], '
                                  'ignore_index=True)')
    exec(_patched(cell, fact), ns)          # the fix runs
    assert list(ns["df"]["color"]) == ["red", "yellow"]


def test_concat_given_a_dict_is_a_crash_with_a_fix():
    ns = _frame_ns()
    cell = 'out = pd.concat([df, {"color": "blue"}], ignore_index=True)'
    (fact,) = kernel_facts(cell, ns)
    assert fact.kind == "call" and "cannot concatenate object of type" in fact.message
    with pytest.raises(TypeError, match="cannot concatenate"):
        exec(cell, dict(ns))
    exec(_patched(cell, fact), ns)
    assert len(ns["out"]) == 2


def test_a_fix_the_facts_reject_is_not_offered_and_the_finding_says_what_it_lacks():
    ns = _frame_ns()
    cell = 'df = df.append({"color": "yellow"}, ignore_index=True)'
    bad = 'pd.concat([df, {"color": "yellow"}], ignore_index=True)'
    good = 'pd.concat([df, pd.DataFrame([{"color": "yellow"}])], ignore_index=True)'
    unparsable = 'pd.concat([df, '
    fact = KernelFact("attribute", 1, 5, len(cell), "'DataFrame' object has no attribute 'append'",
                      [bad, unparsable, good], recorded=True)
    (checked,) = checked_fixes(cell, ns, module_resolver("loaded"), [fact])
    assert checked.candidates == [good] and not checked.recorded
    assert f"({bad} would still fail: pd.concat() cannot concatenate" in checked.message
    # a fix a column's name would still miss is not offered either
    typo = KernelFact("key", 1, 3, 10, "DataFrame has no column 'prcie'", ['"prise"', '"price"'])
    (checked,) = checked_fixes('df["prcie"].mean()', ns, module_resolver("loaded"), [typo])
    assert checked.candidates == ['"price"']


def test_dropping_multi_class_beside_liblinear_says_liblinear_then_fails_on_three_classes():
    from sklearn.linear_model import LogisticRegression
    ns = {"LogisticRegression": LogisticRegression}
    (finding,) = exact_check('clf = LogisticRegression(multi_class="ovr", solver="liblinear")', ns).findings
    assert re.search(r"liblinear fits two classes only", finding.message)
    assert "OneVsRestClassifier" in finding.message
    (plain,) = exact_check('clf = LogisticRegression(multi_class="multinomial")', ns).findings
    assert "liblinear" not in plain.message
