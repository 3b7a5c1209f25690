"""A library's submodule its module loads lazily (`np.random` in a kernel that imported numpy
and matplotlib only: numpy's `__getattr__` imports numpy.random on first use) is read as that
submodule, imported as the library would import it; a submodule no loader would import
(`email.mime` before `import email.mime`) stays unread and unimported. Each in a fresh
interpreter, where nothing else has imported them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r'''
import json, sys, matplotlib
matplotlib.use("Agg")
import email, numpy as np, matplotlib.pyplot as plt
from jupyter_codecheck.facts import kernel_facts
before = {m: m in sys.modules for m in ("numpy.random", "email.mime", "numpy.matlib")}
cell = sys.argv[1]
facts = [f.message for f in kernel_facts(cell, {"np": np, "plt": plt, "email": email})]
after = {m: m in sys.modules for m in ("numpy.random", "email.mime", "numpy.matlib")}
try:
    exec(cell, {"np": np, "plt": plt, "email": email})
    raised = None
except Exception as e:
    raised = type(e).__name__
print(json.dumps({"before": before, "facts": facts, "after": after, "raised": raised}))
'''


def probe(cell: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", PROBE, cell], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.splitlines()[-1])


def test_a_lazily_loaded_library_submodule_is_read_as_the_library_loads_it():
    got = probe("np.random.seed(0)\nfig, axs = plt.subplots(2, 2, lgyout='constrained')\n")
    assert got["before"]["numpy.random"] is False
    assert len(got["facts"]) == 1 and "lgyout" in got["facts"][0], got
    assert got["raised"] == "AttributeError"
    assert got["after"]["numpy.random"] is True


def test_only_a_quiet_numpy_submodule_is_imported_for_a_read():
    """numpy.matlib warns as it is imported: reading `np.matlib` leaves its import to the cell."""
    got = probe("import sys\nm = np.matlib\nok = 'numpy.matlib' in sys.modules\n")
    assert got["facts"] == [] and got["raised"] is None and got["after"]["numpy.matlib"] is False, got


def test_a_submodule_no_loader_imports_stays_unread_and_unimported():
    got = probe("m = email.mime\n")
    assert got["facts"] == [] and got["after"]["email.mime"] is False, got
    assert got["raised"] == "AttributeError"          # what the cell meets: not imported for it
