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
    # a new Axes: the class the projection keywords choose takes the others
    'fig.add_subplot(111, prrojection="3d")\n',
    'fig.add_subplot(111, projection="3d", elve=7, azim=-80)\n',
    'fig.add_subplot(1, 2, 1, projection="3d", elev=7, azim=-80, computed_zorder=False)\n',
    'fig.add_subplot(polar=True, theta_ofset=1)\n',
    'fig.add_subplot(polar=True, theta_offset=1, rlabel_position=10, label="p")\n',
    'plt.subplot(2, 2, 1, facecolr="w")\n',
    'plt.subplot(221, facecolor="w", xlim=(0, 1), label="a", sharex=ax)\n',
    'fig.add_axes([0, 0, 1, 1], xscle="log")\n',
    'fig.add_axes((0.1, 0.1, 0.5, 0.5), frameon=False, projection="polar", rorigin=0)\n',
    'plt.axes(projection="3d", elve=3)\n',
    'plt.axes([0, 0, 1, 1], projection="polar", theta_direction=-1)\n',
    'plt.axes(position=[0, 0, 1, 1], aspect="equal", fc="w")\n',
]


@pytest.fixture
def ns():
    fig, ax = plt.subplots()
    yield {"plt": plt, "np": np, "z": np.zeros((3, 3)), "ax": ax, "fig": fig}
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


@pytest.mark.parametrize("data", ["[]", "np.array([])", "empty", "made"])
def test_a_bar_chart_of_no_bars_makes_no_artist(data, ns):
    """Found held out: a bar a data item, so no data, no Rectangle, and no keyword is read."""
    ns = dict(ns, empty=[], values=[2.0, 3.0])
    head = "made = np.arange(len(empty))\n"
    cell = head + f"ax.barh({data}, {data}, aling='center')\n"
    assert kernel_facts(cell, ns) == [] and _run(cell, ns) is None, cell
    full = head + "ax.barh(values, values, aling='center')\n"
    (fact,) = kernel_facts(full, ns)
    assert "aling" in fact.message and _run(full, ns) is not None


def test_a_typo_in_a_plot_stops_the_cell(ns):
    from jupyter_codecheck.core.exact_findings import exact_check

    cell = 'plt.plot([1, 2], colr="r")\n'
    assert [f.line for f in exact_check(cell, {"plt": plt}).certain] == [1]
    assert [f.line for f in exact_check("import matplotlib.pyplot as plt\n" + cell, {}).certain] == [2]


LEGEND_CELLS = [
    ('plt.plot([1, 2], label="a")\nplt.legend(loc="lower right", title="t", ncols=2, fontsize=8, handlelength=1)\n',
     False),
    ('ax.plot([1, 2])\nax.legend(["a"], ttile="Classes")\n', True),
    ('sc = ax.scatter([1, 2], [1, 2], c=[0, 1])\nax.legend(*sc.legend_elements(), loc="upper right", ttile="C")\n',
     True),
    ('sc = ax.scatter([1, 2], [1, 2], c=[0, 1])\nax.legend(*sc.legend_elements(), loc="upper right", title="C")\n',
     False),
    ('fig.legend(["a"], framealpa=0.5)\n', True),
    ('fig.legend(["a"], framealpha=0.5, handler_map={})\n', False),
    ('f, (a0, a1) = plt.subplots(1, 2)\na1.plot([1])\na1.legend(["x"], lco="best")\n', True),      # made here
    ('f, (a0, a1) = plt.subplots(1, 2)\na1.plot([1])\na1.legend(["x"], loc="best")\n', False),
    ('f2 = plt.figure()\nf2.legend(["x"], bbox_to_anchr=(1, 1))\n', True),
    ('f2 = plt.figure()\nf2.legend(["x"], bbox_to_anchor=(1, 1))\n', False),
]


def _raised(cell: str, ns: dict):
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - whatever matplotlib raises is compared
        return e
    return None


@pytest.mark.parametrize("cell, refused", LEGEND_CELLS)
def test_a_legend_keyword_is_a_claim_exactly_where_legend_refuses_it(cell, refused, ns):
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert bool(got) == refused == (type(raised) is TypeError and "Legend.__init__()" in str(raised)), (got, raised)
    if not refused:
        assert raised is None
        return
    (fact,) = got
    line = cell.splitlines()[fact.line - 1]
    assert fact.message.endswith(": TypeError") and line[fact.column:fact.end_column].split("=")[0] in str(raised)
    fixed = cell.replace(line, line[:fact.column] + fact.candidates[0] + line[fact.end_column:])
    assert _raised(fixed, ns) is None, fixed
    assert kernel_facts(fixed, ns) == []


def test_no_claim_where_the_users_class_takes_the_keywords(ns):
    from matplotlib.axes import Axes
    from matplotlib.projections import register_projection

    class WithOptions(Axes):
        name = "with_options_of_the_user"

        def __init__(self, *args, myopt=1, **kwargs):
            kwargs.pop("myextra", None)
            super().__init__(*args, **kwargs)

        def legend(self, *args, **kwargs):
            return None

    register_projection(WithOptions)
    mine = ns["fig"].add_subplot(2, 2, 4, projection="with_options_of_the_user")
    ns = dict(ns, mine=mine, WithOptions=WithOptions, pad=lambda **kw: ns["fig"].add_subplot(111, **kw))
    for cell in ['fig.add_subplot(111, projection="with_options_of_the_user", myopt=2, myextra=3)\n',
                 'fig.add_subplot(111, axes_class=WithOptions, myextra=3)\n',
                 'mine.legend(lzc="best")\n',
                 'fig.legend(handles=[], labels=[], framealpa=0.5)\n',  # read first: a ValueError
                 'pad(prrojection="3d")\n',                     # through a function of the user's: it raises
                 'fig.add_subplot(mine, colr="r")\n',           # an Axes given: its keywords are not read
                 'plt.subplot(111, fc="w")\n']:            # an alias of facecolor
        assert kernel_facts(cell, ns) == [], cell
        assert _raised(cell, ns) is None or "pad" in cell or "handles" in cell, cell


@pytest.mark.parametrize("cell", ["ax.bar([1], [2], width=[], colr='r')\n", "ax.bar([1], [2], [], colr='r')\n",
                                  "ax.barh([1], [2], left=[], colr='r')\n", "ax.bar([[]], [[]], colr='r')\n",
                                  "ax.bar([1], [2], align='centre', colr='r')\n", "ax.bar([1, 2], [1, 2, 3], colr='r')\n"])
def test_no_bar_claim_where_the_bars_may_be_none_or_another_check_comes_first(cell, ns):
    """Found in review: other arguments that broadcast to no bar, 2-D data, an align matplotlib
    refuses, x and height that do not broadcast."""
    assert kernel_facts(cell, ns) == [], cell
    try:
        exec(cell, dict(ns))
    except (TypeError, ValueError):
        pass
