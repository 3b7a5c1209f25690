"""What the JupyterLab panel reads in a real kernel (ipykernel through nbclient) for a check:
the facts of the state a cell runs in. A cell that already ran is not judged by the objects as
they are after it (and after the cells run since); one that has not run is judged by the objects
it would meet now; a read just before a cell runs sees the state before its own effects."""
from __future__ import annotations

import json

from notebooks import execute_cells

SETUP = 'import pandas as pd\ndf = pd.DataFrame({"s1": [1.0, 2.0], "s6": [3, 4], "target": [0, 1]})'
USED = 'df["s1"].mean()'
RENAME = 'df.rename(columns={"s1": "age"}, inplace=True)'
# the panel's own call (labextension/src/client.ts): the entry point by name, its answer after a mark
ASK = '__import__("jupyter_codecheck.views.panel_kernel", fromlist=["answer"]).answer(%r)'
READ = "\n".join(ASK % json.dumps({"ask": "state", "source": source, "before_run": before})
                  for source, before in [(USED, False), (USED + "  # edited since it ran", False),
                                         ('df.drop(columns=["s6"], inplace=True)', True)])


def test_a_cell_that_ran_is_not_judged_by_the_state_after_it(tmp_path):
    nb = execute_cells([SETUP, USED, RENAME, READ], tmp_path, timeout=120)
    text = "".join(o.get("text", "") for o in nb.cells[3].outputs if o.output_type == "stream")
    answers = [json.loads(line.split("__codecheck_state__", 1)[1]) for line in text.splitlines()]
    states = dict(zip(("ran", "edited", "before_run"), answers))
    # `df["s1"]` ran fine; a later cell renamed s1: the objects now would flag it, so none are read
    ran = states["ran"]
    assert (ran["objects"], ran["facts"]) == ("ran", None)
    assert {"df", "pd"} <= set(ran["names"])
    # the same code edited has not run: the objects now are those it meets if it runs next
    edited = states["edited"]
    assert edited["objects"] == "now"
    assert [(f["kind"], f["message"]) for f in edited["facts"]] == [("key", "DataFrame has no column 's1'")]
    # read as a cell is about to run: s6 is there, the cell's own drop is not held against it
    assert states["before_run"] == {"names": ran["names"], "facts": [], "objects": "before-run"}


def test_a_state_with_the_facts_read_on_it_keeps_its_objects():
    """auto mode hands the exact check's facts to the model's check on the same objects."""
    from jupyter_codecheck.facts import KernelFact, kernel_state
    ns = {"x": 1}
    fact = KernelFact("key", 1, 0, 1, "m")
    state = kernel_state(ns, when="now").with_facts([fact], when="before-run")
    assert state.objects is ns and state.names == {"x"} and state.facts == (fact,) and state.when == "before-run"
    names_only = kernel_state(["x"]).with_facts([fact])
    assert names_only.objects is None and names_only.names == {"x"}
