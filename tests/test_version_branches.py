"""Code under a version test is read as Python reads it when the cell runs (core/versions.py): a
branch that cannot run on this Python has no finding, in the kernel, on the command line and in
auto mode; the branch that runs keeps its findings."""
from __future__ import annotations

import pandas as pd
import pytest

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.pytext.pycheck import analyse

DEAD = [
    "import sys\nif (sys.version_info < (3, 0)):\n    text = unicode('x')\n",
    "import sys\nif sys.version_info[0] == 2:\n    text = unicode('x')\nelse:\n    text = str('x')\n",
    "import sys\nif sys.version_info >= (3,):\n    text = str('x')\nelse:\n    text = unicode('x')\n",
    "import sys\nif sys.version_info.major < 3 and True:\n    for i in xrange(3):\n        pass\n",
    "import sys\nPY2 = sys.version_info[0] == 2\nif PY2:\n    text = unicode('x')\n",
    "import sys\nPY3 = sys.version_info[0] >= 3\nif not PY3:\n    name = raw_input()\n",
    "import six\nif six.PY2:\n    text = unicode('x')\n",
    "try:\n    unicode\nexcept NameError:\n    unicode = str\n",
    "import sys\ntext = unicode('x') if sys.version_info < (3,) else 'x'\n",
]


@pytest.mark.parametrize("cell", DEAD)
def test_a_branch_this_python_never_runs_has_no_undefined_name(cell):
    assert analyse(cell, None, {}).undefined == []              # a kernel's namespace
    assert analyse(cell, [], None).undefined == []              # the command line: the notebook's text
    assert exact_check(cell, {}).findings == []


def test_the_branch_that_runs_keeps_its_findings_and_unknown_tests_stay_open():
    live = "import sys\nif sys.version_info >= (3, 0):\n    print(undefined_here)\n"
    assert [u.name for u in analyse(live, None, {}).undefined] == ["undefined_here"]
    unknown = "if DEBUG_MODE:\n    print(undefined_there)\n"
    assert [u.name for u in analyse(unknown, None, {"DEBUG_MODE": False}).undefined] == ["undefined_there"]


def test_a_kernel_fact_in_a_shut_branch_is_no_finding():
    ns = {"pd": pd, "df": pd.DataFrame({"a": [1]}), "PY2": False}
    assert exact_check("if PY2:\n    for k, v in df.iteritems():\n        pass\n", ns).findings == []
    (found,) = exact_check("if not PY2:\n    for k, v in df.iteritems():\n        pass\n", ns).findings
    assert "iteritems" in found.message


def test_the_command_line_check_has_no_finding_in_dead_python2_code(model_path):
    from jupyter_codecheck import check
    result = check("import sys\nif (sys.version_info < (3, 0)):\n    s = unicode('x')\nelse:\n    s = 'x'\n")
    assert not [f for f in result.findings if f.line == 3]
