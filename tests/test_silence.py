"""Silencing findings (core/silence.py) on the real default model: a `# codecheck: ignore[kind]`
comment on the line and the `ignore` option drop a finding and its fix, and say how many went;
an unknown kind is named. The CLI's and the magics' own tests are in test_cli.py and
test_magics.py; how a long source's pieces keep it, in test_long_sources.py."""
from __future__ import annotations

import pytest

from jupyter_codecheck import check
from jupyter_codecheck.core.options import OptionError

FAST = dict(lens=False)
TYPO = "x = [1, 2, 3]\npritn(x){comment}\n"


@pytest.fixture(scope="module", autouse=True)
def _needs_model(model_path):
    return model_path


def test_the_typo_is_found_and_fixed_without_a_comment():
    r = check(TYPO.format(comment=""), **FAST)
    assert [(f.line, f.kind) for f in r.findings] == [(2, "undefined-name")]
    assert "print(x)" in r.corrected and r.stats["silenced"] == 0


@pytest.mark.parametrize("comment", ["  # codecheck: ignore[undefined-name]",
                                     "  # codecheck: ignore[key, undefined-name]",
                                     "  # codecheck: ignore",
                                     "  # TODO later  # codecheck:ignore[undefined-name] (a helper)"])
def test_a_comment_silences_the_finding_and_its_fix(comment):
    source = TYPO.format(comment=comment)
    r = check(source, **FAST)
    assert r.findings == [] and r.edits == [] and r.corrected == source
    assert r.stats["silenced"] == 1


@pytest.mark.parametrize("source", ["x = [1, 2, 3]  # codecheck: ignore\npritn(x)  # codecheck: ignore[key]\n",
                                    'x = [1, 2, 3]\npritn(x, "# codecheck: ignore")\n'])
def test_a_comment_of_another_kind_or_line_or_in_a_string_silences_nothing(source):
    r = check(source, **FAST)
    assert [(f.line, f.kind) for f in r.findings] == [(2, "undefined-name")]
    assert r.stats["silenced"] == 0


def test_the_ignore_option_silences_a_kind_everywhere():
    source = TYPO.format(comment="")
    r = check(source, ignore=["undefined-name"], **FAST)
    assert r.findings == [] and r.corrected == source and r.stats["silenced"] == 1
    assert check(source, ignore="key,call", **FAST).findings != []
    with pytest.raises(OptionError, match="ignore: unknown finding kind 'undefined_name'; kinds: syntax, "):
        check(source, ignore="undefined_name", **FAST)


def test_a_kernel_fact_is_silenced_by_its_kind():
    ns = {"sizes": {"width": 3, "height": 4}}
    assert [f.kind for f in check('total = sizes["widht"]\n', namespace=ns, **FAST).findings] == ["key"]
    source = 'total = sizes["widht"]  # codecheck: ignore[key]\n'
    r = check(source, namespace=ns, **FAST)
    assert r.findings == [] and r.corrected == source and r.stats["silenced"] == 1


def test_a_notebook_cell_with_magics_reads_its_comments():
    # IPython's `!` and `%` lines are no Python: the comments are read line by line
    source = "!ls\n%time y = 1\nx = [1, 2, 3]\npritn(x)  # codecheck: ignore[undefined-name]\n"
    r = check(source, notebook=True, **FAST)
    assert r.findings == [] and r.corrected == source and r.stats["silenced"] == 1


def test_an_unknown_kind_in_a_comment_is_named_and_silences_nothing():
    r = check("x = [1, 2, 3]  # codecheck: ignore[kye]\npritn(x)  # codecheck: ignore[undefined_name]\n",
              **FAST)
    # one finding a line: where the line has one, its message says why it was not silenced
    assert [(f.line, f.kind, f.severity) for f in r.findings] == [(1, "ignore", "warning"),
                                                                  (2, "undefined-name", "error")]
    assert "unknown kind 'kye'" in r.findings[0].message
    assert "unknown kind 'undefined_name'" in r.findings[1].message and "print(x)" in r.corrected
