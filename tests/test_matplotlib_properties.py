"""matplotlib's artist properties as keywords (facts/matplotlib_properties.py): a claim exactly
where the artist a plotting call makes refuses a keyword, none where matplotlib reads it itself,
and the replacement offered runs."""
from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from jupyter_codecheck.facts import kernel_facts  # noqa: E402

CELLS = [
    'plt.plot([1, 2], colr="r")\n',
    'plt.plot([1, 2], color="r", lw=2, label="a", scalex=False)\n',
    'plt.scatter([1], [2], colour="k")\n',
    'plt.scatter([1], [2], color="k", facecolors="none", s=4)\n',
    'plt.imshow(z, cmpp="gray")\n',
    'plt.imshow(z, cmap="gray", interpolation="nearest", alpha=0.5)\n',
    "plt.figure(figsiz=(3, 3))\n",
    'plt.figure(figsize=(3, 3), layout="tight", facecolor="w")\n',
    'plt.bar([1], [2], colr="r")\n',
    'plt.bar([1], [2], yerr=[0.1], capsize=3, tick_label=["a"], error_kw={"lw": 1})\n',   # read out by bar itself
    'plt.xlabel("x", fontsze=3)\n',
    'plt.xlabel("x", fontsize=3, color="gray")\n',
    'ax.plot([1], linestyl="--")\n',
    'ax.set_title("t", fontweight="bold", pad=4)\n',
    'plt.axhline(0, colr="k")\n',
    'plt.text(0, 0, "s", fontsze=3)\n',
    'ax.barh([1], [2], heigth=0.3)\n',
    'plt.hist([1, 2, 2], colr="r")\n',                                      # bars: Rectangle
    'plt.hist([1, 2, 2], bins=3, color="r", edgecolor="k", alpha=0.5, density=True, rwidth=0.8)\n',
    'plt.hist([1, 2, 2], histtype="step", fill=False, lw=2)\n',
    'plt.hist([1, 2, 2], histtype="stepfilled", hatch="/", facecolr="r")\n',   # a Polygon
    'ax.hist([[1, 2], [2, 3]], stacked=True, linewidht=1)\n',
    'plt.errorbar([1, 2], [1, 2], [0.1, 0.1], lable="a")\n',                # the data line: Line2D
    'plt.errorbar([1, 2], [1, 2], yerr=[0.1, 0.1], fmt="o", ecolor="k", capsize=2, label="a")\n',
    'ax.step([1, 2], [1, 2], colr="r")\n',
    'ax.step([1, 2], [1, 2], where="mid", color="r")\n',
    'plt.fill_between([1, 2], [1, 2], alpah=0.2)\n',
    'plt.fill_between([1, 2], [1, 2], [0, 0], alpha=0.2, interpolate=True, step="pre")\n',
    'ax.annotate("a", (0, 0), fontsze=3)\n',
    'ax.annotate("a", xy=(0, 0), xytext=(1, 1), arrowprops={"arrowstyle": "->"}, fontsize=3)\n',
    'plt.vlines([1], 0, 1, colr="r")\n',
    'ax.hlines([1], 0, 1, colors="r", linestyles="--")\n',
    'ax.axvspan(0, 1, alpah=0.1)\n',
    'plt.axhspan(0, 1, color="r", alpha=0.1)\n',
    'ax.fill([0, 1, 1], [0, 0, 1], facecolr="r")\n',
    'plt.pcolormesh(z, cmpa="gray")\n',
    'plt.pcolormesh(z, cmap="gray", shading="auto", edgecolors="k")\n',
]


@pytest.fixture
def ns():
    fig, ax = plt.subplots()
    yield {"plt": plt, "np": np, "z": np.zeros((3, 3)), "ax": ax}
    plt.close("all")


def _run(cell: str, ns: dict):
    try:
        exec(cell, dict(ns))
    except AttributeError as e:
        return e
    return None


@pytest.mark.parametrize("cell", CELLS)
def test_a_keyword_is_a_claim_exactly_when_the_artist_refuses_it_and_its_fix_runs(cell, ns):
    got = kernel_facts(cell, ns)
    raised = _run(cell, ns)
    assert bool(got) == (raised is not None), (got, raised)
    if not got:
        return
    (fact,) = got
    line = cell.splitlines()[fact.line - 1]
    word = line[fact.column:fact.end_column].split("=")[0]
    assert fact.kind == "value" and fact.message.endswith(": AttributeError") and word in str(raised)
    assert len(fact.candidates) == 1
    fixed = cell.replace(line, line[:fact.column] + fact.candidates[0] + line[fact.end_column:])
    assert _run(fixed, ns) is None, fixed
    assert kernel_facts(fixed, ns) == []


def test_a_call_that_makes_no_artist_is_not_read(ns):
    assert kernel_facts('plt.plot(colr="r")\n', ns) == [] and _run('plt.plot(colr="r")\n', ns) is None
    assert kernel_facts('plt.plot(*[[1, 2]], colr="r")\n', ns) == []


def test_a_typo_in_a_plot_stops_the_cell(ns):
    from jupyter_codecheck.core.exact_findings import exact_check

    cell = 'plt.plot([1, 2], colr="r")\n'
    assert [f.line for f in exact_check(cell, {"plt": plt}).certain] == [1]
    assert [f.line for f in exact_check("import matplotlib.pyplot as plt\n" + cell, {}).certain] == [2]
