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
    # `_process_unit_info` pops the names it builds, `f"{axis_name}units"`
    'ax.plot([1, 2], [3, 4], xunits=None)\n', 'plt.plot([1, 2], [3, 4], yunits=None)\n',
    'ax.scatter([1, 2], [3, 4], xunits=None)\n',
    # pyplot's subplot2grid hands its other keywords to the new Axes
    'plt.subplot2grid((3, 3), (1, 0), coslpan=2)\n',
    'plt.subplot2grid((3, 3), (1, 0), colspan=2, rowspan=2, facecolor="w", label="a")\n',
    # a contour set and a pcolor mesh: their classes' constructors name keywords of their own
    'ax.contour(np.arange(9.0).reshape(3, 3), cnap="RdBu", vmin=0)\n',
    'plt.contourf(np.arange(9.0).reshape(3, 3), levels=3, corner_mask=True, algorithm="mpl2014", extend="both",'
    ' hatches=["/"], alpha=0.5, antialiased=True, colors="k")\n',
    'ax.pcolor(np.arange(9.0).reshape(3, 3), cmab="RdBu")\n',
    'ax.pcolor(np.arange(9.0).reshape(3, 3), edgecolors="k", linewidths=2, shading="auto", snap=True)\n',
    # subplot_mosaic makes its Figure of the keywords it does not name before it lays the mosaic out
    'plt.subplot_mosaic([["a", "b"]], layot="constrained")\n',
    'plt.subplot_mosaic(mosaic="AB", figsiz=(3, 2))\n',
    'plt.subplot_mosaic([["a", "b"]], layout="constrained", sharex=True, figsize=(3, 2), dpi=50, width_ratios=[1, 2])\n',
    # a required parameter given by name makes the artist too
    'plt.annotate("max", xy=(0, 0), xyext=(1, 1))\n',
    'ax.annotate(text="max", xy=(0, 0), xytext=(1, 1), arrowprops={"arrowstyle": "->"}, fontsize=3)\n',
    'ax.text(x=0, y=0, s="a", fontsze=3)\n',
    'ax.fill_betweenx([1, 2], [1, 2], whre=[True, False])\n',
    'plt.fill_betweenx([1, 2], [1, 2], [0, 0], where=[True, False], step="pre", interpolate=True, alpha=0.2)\n',
    # hist2d hands its keywords to pcolormesh, which names some itself (vmin), then to the QuadMesh
    'ax.hist2d([1, 2, 3], [1, 2, 2], bins=3, nopm=None)\n',
    'plt.hist2d([1, 2, 3], [1, 2, 2], bins=3, cmap="Blues", vmin=0, vmax=3, shading="auto", cmin=0, alpha=0.5)\n',
    # a secondary axis is an Axes made of the keywords its functions do not name
    'ax.secondary_xaxis(0, trnasform=ax.transData)\n',
    'ax.secondary_yaxis(location="right", functinos=(np.exp, np.log))\n',
    'ax.secondary_xaxis("top", functions=(np.exp, np.log), transform=ax.transData, xlabel="x", color="r")\n',
    # bar_label hands its other keywords to each bar's annotation, of a container of a bar at least
    'names = ["a", "b"]\nbars = ax.bar(names, [3, 4])\nax.bar_label(bars, fotsize=14)\n',
    'bars = ax.bar([1, 2], [3, 4])\nax.bar_label(bars, labels=["x", "y"], padding=8, color="b", fotsize=14)\n',
    'bars = ax.bar([1, 2], [3, 4])\nax.bar_label(bars, labels=["x", "y"], padding=8, color="b", fontsize=14)\n',
    'f, a = plt.subplots()\nb = a.barh([1, 2], [3, 4], align="edge")\na.bar_label(b, labelstype="center")\n',
    'f, a = plt.subplots()\nb = a.barh([1, 2], [3, 4], align="edge")\na.bar_label(b, label_type="center")\n',
    # keywords that do not set how many bars there are: any value (where bar returns, they are made)
    'colors = ["r", "g"]\nbars = ax.bar([1, 2], [3, 4], color=colors, xerr=np.ones(2))\nax.bar_label(bars, fotsize=14)\n',
    'colors = ["r", "g"]\nbars = ax.bar([1, 2], [3, 4], color=colors, xerr=np.ones(2))\nax.bar_label(bars, fontsize=14)\n',
    # more of the Axes' functions that make one artist of the keywords they do not name
    'ax.axline((0, 0), slope=0.5, cloor="k", transform=ax.transAxes)\n',
    'ax.axline((0, 0), (1, 1), color="k", linestyle="--", label="a")\n',
    'plt.axline((0, 0), slope=2, lw=2, zorder=0)\n', 'plt.axline((0, 0), slope=2, lww=2)\n',
    'ax.stairs([1, 2, 3], fil=True)\n', 'ax.stairs([1, 2, 3], [0, 1, 2, 3], fill=True, color="r", hatch="//")\n',
    'ax.arrow(0, 0, 1, 1, head_width=0.1, fc="k", ec="k")\n', 'ax.arrow(0, 0, 1, 1, head_widht=0.1)\n',
    'ax.broken_barh([(1, 2), (4, 1)], (0, 1), facecolors="tab:blue", edgecolor="k")\n',
    'ax.broken_barh([(1, 2)], (0, 1), facecolour="tab:blue")\n',
    'ax.hexbin([1, 2, 3], [1, 2, 3], gridsize=5, cmap="Blues", mincnt=1, edgecolors="none")\n',
    'ax.hexbin([1, 2, 3], [1, 2, 3], gridsze=5)\n',
    'ax.matshow(z, cmap="Blues", vmin=0, origin="lower", interpolation="none")\n', 'ax.matshow(z, cmam="Blues")\n',
    'plt.matshow(z, cmap="Blues", fignum=None, alpha=0.5)\n', 'plt.matshow(z, cxap="Blues")\n',
    'ax.ecdf([1, 2, 2, 3], complementary=True, color="r", label="a")\n', 'ax.ecdf([1, 2, 3], lable="a")\n',
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


def test_no_claim_where_the_figure_exists_its_class_is_the_users_or_python_refuses_first(ns):
    """pyplot's figure of an existing number ignores the keywords (a warning); a FigureClass of
    the user's may take any; arguments Python binds to no parameter raise its TypeError first."""
    from matplotlib.figure import Figure

    class WithOption(Figure):
        def __init__(self, *args, myopt=1, **kwargs):
            super().__init__(*args, **kwargs)

    plt.figure(7)
    ns = dict(ns, WithOption=WithOption)
    for cell, raises in [("plt.figure(7, figsiz=(3, 3))\n", False), ("plt.figure(num=7, figsiz=(3, 3))\n", False),
                         ("plt.subplots(num=7, clear=True, layot='constrained')\n", False),
                         ("plt.figure(FigureClass=WithOption, myopt=2)\n", False),
                         ("plt.subplots(FigureClass=WithOption, myopt=2)\n", False),
                         ("plt.subplot_mosaic('AB', FigureClass=WithOption, myopt=2)\n", False),
                         ("ax.annotate('a', (0, 0), text='b', fontsze=3)\n", True),
                         ("ax.text(0, 0, fontsze=3)\n", True),
                         ("ax.secondary_yaxis('top', functinos=(np.exp, np.log))\n", True)]:   # the place first
        assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == [], cell
        raised = _raised(cell, ns)
        assert (raised is not None) == raises and (raised is None or type(raised) in (TypeError, ValueError)), \
            (cell, raised)


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
    ('plt.plot([1, 2], label="a")\nplt.legend(lco="best")\n', True),     # pyplot's, on the current Axes
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
                                  "ax.bar([1, 2], [1, 2, 3], colr='r')\n"])
def test_no_bar_claim_where_the_bars_may_be_none_or_another_check_comes_first(cell, ns):
    """Found in review: other arguments that broadcast to no bar, 2-D data, x and height that
    do not broadcast. (An align matplotlib refuses comes first: test_matplotlib_values.)"""
    assert kernel_facts(cell, ns) == [], cell
    try:
        exec(cell, dict(ns))
    except (TypeError, ValueError):
        pass



@pytest.mark.parametrize("cell", [
    # bar_label of no bar, a container bound again or changed, a check of its own first
    "b = ax.bar([], [])\nax.bar_label(b, fotsize=3)\n",
    "b = ax.bar([1], [2], width=[])\nax.bar_label(b, fotsize=3)\n",
    "b = ax.bar([1], [2])\nfor b in [ax.bar([], [])]:\n    pass\nax.bar_label(b, fotsize=3)\n",
    "b = ax.bar([1], [2])\nb.patches = []\nax.bar_label(b, fotsize=3)\n",
    "b = ax.bar([1], [2])\nax.bar_label(b, ha='left', fotsize=3)\n",
    "b = ax.bar([1], [2])\nax.bar_label(b, label_type='middle', fotsize=3)\n",
    "b = ax.bar([1], [2])\nax.bar_label(b, padding=[1, 2], fotsize=3)\n",
    "b = ax.bar([1], [2])\nax.bar_label(b, fmt='{y}', fotsize=3)\n",
    # keywords that set how many bars there are, or names looked up in `data`
    "w = []\nb = ax.bar([1], [2], width=w)\nax.bar_label(b, fotsize=3)\n",
    "b = ax.bar([1], [2], linewidth=np.ones(0))\nax.bar_label(b, fotsize=3)\n",
    "b = ax.bar('a', 'b', data={'a': [], 'b': []})\nax.bar_label(b, fotsize=3)\n",
])
def test_no_bar_label_claim_where_no_bar_is_labelled_or_bar_label_refuses_first(cell, ns):
    assert kernel_facts(cell, ns) == [], cell
    try:
        exec(cell, dict(ns))
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        assert "fotsize" not in str(e), cell


def _claimed_exactly_where_refused(cell: str, ns: dict, refused_when, exception: str):
    """The facts claim `exception` on the cell exactly where running it raises so
    (`refused_when(raised)`), on the word the error names; the fix offered runs, with no claim."""
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert bool(got) == refused_when(raised), (got, raised)
    if got:
        (fact,) = got
        line = cell.splitlines()[fact.line - 1]
        assert fact.message.endswith(f": {exception}") and line[fact.column:fact.end_column].split("=")[0] in str(raised)
        if fact.candidates:
            fixed = cell.replace(line, line[:fact.column] + fact.candidates[0] + line[fact.end_column:])
            assert _raised(fixed, ns) is None and kernel_facts(fixed, ns) == [], fixed
    return got, raised

SET_CELLS = [
    'ax.set(xlabl="x", ylim=(0, 1))\n',
    'ax.set(xlim=(0, 1), ylabl="y")\n',
    'ax.set(xlim=(0, 1), ylabel="y", title="t", fc="w", aspect="equal")\n',    # `fc`: an alias
    'fig.set(figwidht=3)\n',
    'fig.set(figwidth=3, dpi=50, layout_engine="constrained")\n',
    'line.set(colr="r")\n',
    'line.set(color="r", lw=2, ls="--", marker="o")\n',
    'line.set(lw=2, linewidth=3)\n',                  # aliases of one: TypeError first
    'plt.setp(labels, rotaton=45)\n',
    'plt.setp(labels, rotation=45, ha="right")\n',
    'plt.setp(label, fontsize=3, colr="r")\n',        # one artist
    'plt.setp([], rotaton=45)\n',                     # nothing to set: returns
    'plt.setp(line, file=None, colr="r")\n',           # setp's own keyword, then the artist's
    'plt.setp(labels, "rotation", 45)\n',
    'f, a = plt.subplots()\na.set(xlabl="x")\n',
    'f, a = plt.subplots(1, 2)\na[1].set(xlim=(0, 1), ylabl="y")\n',
    'f, a = plt.subplots(1, 2)\na[1].set(xlim=(0, 1), ylabel="y")\n',
    'f = plt.figure()\nf.set(dpii=3)\n',
    'f, a = plt.subplots()\na.set(zlabel="z")\n',    # a 3-D Axes' property, not a plain one's
    'f, a = plt.subplots(subplot_kw={"projection": "3d"})\na.set(zlabel="z")\n',
]


@pytest.fixture
def artists(ns):
    line, = ns["ax"].plot([1, 2])
    labels = ns["ax"].get_xticklabels()
    return dict(ns, line=line, labels=labels, label=labels[0])


@pytest.mark.parametrize("cell", SET_CELLS)
def test_an_artists_set_keyword_is_a_claim_exactly_where_set_refuses_it(cell, artists):
    """`Artist.set` and `setp` call `set_<name>` for each keyword (aliases made canonical); a
    claim exactly where one has none, and its fix runs. Found held out: `ax.set(xli=...)`,
    `plt.setp(labels, horizontalaligment=...)`; and a false claim of the signature matplotlib
    writes on `set` (the canonical names, not `fc=`)."""
    _claimed_exactly_where_refused(
        cell, artists, lambda e: type(e) is AttributeError and ".set() got an unexpected keyword argument" in str(e),
        "AttributeError")


def test_no_set_claim_where_something_else_answers_first(artists):
    """An instance's own `set_<name>`, a class of the user's with its setter, user code run
    before in the cell: no claim."""
    from matplotlib.lines import Line2D

    class Mine(Line2D):
        def set_myprop(self, v):
            pass

    mine = Mine([0], [0])
    line = artists["line"]
    line.set_colr = lambda v: None
    ns = dict(artists, mine=mine, touch=lambda: None)
    for cell in ['mine.set(myprop=1)\n', 'line.set(colr="r")\n', 'touch()\nax.set(xlabl="x")\n']:
        assert kernel_facts(cell, ns) == [], cell
        assert _raised(cell, ns) is None or "touch" in cell, cell


FIGURE_TEXT_CELLS = [
    'fig.suptitle("t", fontsiez=14)\n',              # a suptitle there: `set` on it
    'fig2.suptitle("t", fontsiez=14)\n',             # none: a new Text
    'fig2.suptitle("t", fontsize=14, x=0.3, ha="left", color="r", weight="bold")\n',
    'plt.suptitle("t", fonsize=3)\n',
    'plt.figtext(0, 0, "t", colr="r")\n',
    'fig.text(0, 0, "t", fontdict={}, colr="r")\n',
    'fig.text(0, 0, "t", fontdict={"size": 3}, color="r")\n',
    'f, a = plt.subplots()\nf.suptitle("t", fontsihe=14)\n',
    'f, a = plt.subplots()\nf.supylabel("t", fontsize=14, va="top")\n',
    'f, axs = plt.subplots(1, 2, width_ratios=[3, 1])\naxs[0].imshow(z, vmin=-1, vmxa=1)\n',
    'f, axs = plt.subplots(1, 2, height_ratios=[1], gridspec_kw={"wspace": 0})\naxs[0].imshow(z, vmin=-1, vmax=1)\n',
    'fig.suptitle("t", fontsize=3, size=4, colr="r")\n',       # aliases of one: TypeError first
]


@pytest.mark.parametrize("cell", FIGURE_TEXT_CELLS)
def test_a_figure_text_keyword_is_a_claim_exactly_where_text_refuses_it(cell, ns):
    """Found held out: `fig.suptitle(..., fontsiez=14)`, and Axes of a grid with ratios not followed."""
    fig = ns["fig"]
    fig.suptitle("there")
    ns = dict(ns, fig2=plt.figure())
    _claimed_exactly_where_refused(cell, ns, lambda e: type(e) is AttributeError, "AttributeError")


COLORBAR_CELLS = [
    'fig.colorbar(im, ax=ax, shrinkk=0.8)\n',
    'fig.colorbar(im, ax=ax, shrink=0.8, extend="both", label="l", pad=0.1, location="left", aspect=30)\n',
    'fig.colorbar(im, ax=[ax], labbel="x")\n',
    'fig.colorbar(im, ax=ax, ticks=[0, 1], format="%.1f", drawedges=True, use_gridspec=False, labl="x")\n',
    'plt.colorbar(im, cax=cax, exted="both")\n',
    'plt.colorbar(im, cax=cax, extend="both", orientation="vertical")\n',
    'grid_fig.colorbar(im2, ax=axs, extendd="both", orientation="vertical")\n',
    'f, a = plt.subplots(1, 2)\npcm = a[0].pcolormesh(z)\nf.colorbar(pcm, ax=a, extend="max", anchor=(0, 0), panchor=False, fraction=0.1)\n',
    'f, a = plt.subplots(1, 2)\npcm = a[0].pcolormesh(z)\nf.colorbar(pcm, ax=a[1], exted="max")\n',   # made: QuadMesh
    # neither ax nor cax: the mappable's own Axes, live or the one whose method made it
    'fig.colorbar(im, shrinkk=0.8)\n',
    'plt.colorbar(im, shrinp=0.6)\n',
    'f, a = plt.subplots(2, 1)\nc = a[0].pcolor(z, cmap="PuBu_r")\nf.colorbar(c, a=a[0])\n',
    'f, a = plt.subplots(2, 1)\nc = a[0].pcolor(z, cmap="PuBu_r")\nf.colorbar(c, shrink=0.5, extend="both")\n',
    'f, a = plt.subplots()\nim3 = a.imshow(z)\nf.colorbar(im3, orientation="horizontal", shrink=0.8, exted="both")\n',
    'f, a = plt.subplots(2, 1)\nc = a[0].pcolor(z)\nf.colorbar(c, a=a[0])\nc = a[1].pcolor(z)\nf.colorbar(c, ax=a[1])\n',
]
# no claim: another error first, or the Axes to steal from not known
COLORBAR_SILENT = [
    'fig.colorbar(loose, shrinkk=0.8)\n',                                       # a mappable of no Axes: ValueError
    'f, a = plt.subplots()\nc = a.pcolor(z)\nc.remove()\nf.colorbar(c, shrinp=0.5)\n',   # removed: no Axes
    'f, a = plt.subplots()\nc = a.pcolor(z)\nc = loose\nf.colorbar(c, shrinp=0.5)\n',       # bound again: no Axes
    'f, a = plt.subplots()\nc = a.pcolor(z)\nif a:\n    c = loose\nf.colorbar(c, shrinp=0.5)\n',
    'grid_fig.colorbar(im2, ax=axs, extendd="both", orientation="sideways")\n',     # ValueError first
    'grid_fig.colorbar(im2, ax=axs, extendd="both", location="top", orientation="vertical")\n',  # TypeError of its own
    'fig.colorbar(im, ax=[ax, other], labbel="x")\n',                           # Axes of two Figures: ValueError
    'fig.colorbar(im, ax=mixed, labbel="x")\n',
    'plt.colorbar(None, ax=ax, labbel="x")\n',
]


@pytest.fixture
def colorbars(ns):
    from matplotlib.collections import QuadMesh

    im = ns["ax"].imshow(ns["z"])
    grid_fig, axs = plt.subplots(1, 2, layout="constrained")
    other_fig, other = plt.subplots()
    return dict(ns, im=im, cax=ns["fig"].add_axes([0.9, 0.1, 0.05, 0.8]), grid_fig=grid_fig, axs=axs,
                im2=axs[0].imshow(ns["z"]), other=other, mixed=np.array([ns["ax"], other], dtype=object),
                loose=QuadMesh(np.zeros((3, 3, 2))))


@pytest.mark.parametrize("cell", COLORBAR_CELLS + COLORBAR_SILENT)
def test_a_colorbar_keyword_is_a_claim_exactly_where_colorbar_refuses_it(cell, colorbars):
    """Found held out: `fig.colorbar(pcm, ax=ax[1], exted='max')`. Colorbar.__init__ names every
    keyword it takes; the Axes to steal from must be known, and make_axes' checks pass first."""
    if cell in COLORBAR_SILENT:
        assert kernel_facts(cell, colorbars) == [] and _raised(cell, colorbars) is not None, cell
        return
    _claimed_exactly_where_refused(
        cell, colorbars, lambda e: type(e) is TypeError and "Colorbar.__init__()" in str(e), "TypeError")


TICK_CELLS = [
    'ax.tick_params(whcih="major", length=7)\n',
    'ax.tick_params(which="major", length=7, labelsize=3, rotation=4, colors="r", grid_alpha=0.3, grid_lw=2)\n',
    'ax.xaxis.set_tick_params(rotaton=40)\n',
    'ax.xaxis.set_tick_params(rotation=40, labelrotation_mode="xtick")\n',
    'plt.tick_params(labelsiz=3)\n',                          # on the current Axes
    'ax.tick_params(axis="y", labeldottom=False)\n',
    'ax.tick_params(axis="x", labelleft=False)\n',            # the x-axis' call drops the y-axis' names
    'f, a = plt.subplots()\na.tick_params(labelleft=False, labeldottom=False)\n',
    'ax.tick_params(grid_colr="r")\n',
    'ax.tick_params(labelfontfamily="serif", pad=3, direction="in", reset=True)\n',
    # the Axis of an Axes the cell made
    'f, a = plt.subplots(layout="constrained")\na.plot([1, 2])\na.xaxis.set_tick_params(rotaton=40)\n',
    'f, a = plt.subplots(1, 2)\na[1].yaxis.set_tick_params(rotation=40, labelsize=3, which="both")\n',
]


@pytest.mark.parametrize("cell", TICK_CELLS)
def test_a_tick_keyword_is_a_claim_exactly_where_matplotlib_does_not_recognise_it(cell, ns):
    """Found held out: `axi.tick_params(labelleft=False, labeldottom=False)`,
    `ax.xaxis.set_tick_params(rotaton=40)`."""
    got, raised = _claimed_exactly_where_refused(
        cell, ns, lambda e: type(e) is ValueError and "is not recognized" in str(e), "ValueError")
    assert got or raised is None, raised


SET_TICKS_CELLS = [
    'ax.set_yticks([0.5], laebls=["a long label"])\n',
    'ax.set_xticks([0, 1], ["a", "b"], rotation=45, minor=False)\n',
    'ax.set_xticks([0, 1], labels=names, fontsize=8)\n',
    'ax.set_xticks([0, 1], fontsize=8)\n',                  # Text properties need labels
    'ax.set_xticks([0, 1], minor=True)\n',
    'ax.set_xticks([0, 1], labels=None, rotation=3)\n',
    'ax.xaxis.set_ticks([0, 1], lables=["a", "b"])\n',
    'pax.set_xticks([0, 1], lables=["a", "b"])\n',           # a polar Axes' theta axis: Axis' own set_ticks
    'ax.set_xticks(ticks=[0, 1], label=["a", "b"])\n',
    'f, a = plt.subplots(1, 2)\na[0].set_xticks(range(2), lables=["a", "b"])\n',
    'f, a = plt.subplots(1, 2)\na[0].set_xticks(range(2), labels=["a", "b"], rotation=90)\n',
    'plt.xticks([0, 1], rotation=45)\n',                      # pyplot's sets them on the labels it has
    'f, a = plt.subplots(1, 2)\na[1].yaxis.set_ticks([1, 2], fontsize=3)\n',
    'a = plt.axes()\na.xaxis.set_ticks([1, 2], ["a", "b"], fontsize=3)\n',
]


@pytest.mark.parametrize("cell", SET_TICKS_CELLS)
def test_a_set_ticks_keyword_is_a_claim_exactly_where_no_labels_are_given(cell, ns):
    """Found in the dev set: `ax.set_yticks([0.5], laebls=[...])`; Axis.set_ticks refuses
    every keyword but `minor` without labels."""
    ns = dict(ns, names=["a", "b"], nothing=None, pax=ns["fig"].add_subplot(2, 2, 4, projection="polar"))
    got, raised = _claimed_exactly_where_refused(
        cell, ns, lambda e: type(e) is ValueError and "Incorrect use of keyword argument" in str(e), "ValueError")
    assert got or raised is None, raised


@pytest.mark.parametrize("cell", ['ax.set_xticks([0, 1], labels=nothing, rotation=3)\n',
                                  'f, a = plt.subplots(subplot_kw={"projection": "3d"})\na.set_xticks([0], lables=["a"])\n'])
def test_no_set_ticks_claim_where_the_labels_or_the_axes_class_are_not_known(cell, ns):
    """A name for labels (it may hold labels), a 3-D Axes the cell made: not read, a miss."""
    assert kernel_facts(cell, dict(ns, nothing=None)) == []
    assert type(_raised(cell, dict(ns, nothing=None))) is ValueError


class _Logged:
    """An object whose attribute lookups are the user's code: reading it must not run them."""
    ran = []

    def __getattribute__(self, name):
        _Logged.ran.append(name)
        return object.__getattribute__(self, name)

    def run(self, x):
        return x


REVIEWED_SILENT = [
    # setp's own keyword
    'plt.setp(line, file=None, color="r")\n',
    'plt.setp(line, file=None, lw=2)\n',
    # keywords a Figure's text passes on itself, or binds twice
    'fig.suptitle("t", fontdict={"color": "r"})\n',
    'fig.supxlabel("t", fontdict=None)\n',
    'fig.suptitle("t", s="u")\n',
    'fig.suptitle("t", text="u", bad=1)\n',
    # the user's code runs first, or the cell sets the setter itself
    'touch()\nsetp(line, colr=1)\n',
    'line.set_colr = lambda v: None\nline.set(colr=1)\n',
    'line.__dict__.update(set_colr=print)\nline.set(colr=1)\n',
    'line.__setattr__("set_colr", print)\nline.set(colr=1)\n',
    # a colorbar whose Axes are not known, or whose layout keywords make_axes refuses
    'fig.colorbar(sm, cax=nothing, bad=1)\n',
    'fig.colorbar(im, ax=ax, aspect=frac, bad=1)\n',
    'fig.colorbar(im, ax=ax, use_gridspec=False, anchor="zz", bad=1)\n',
    'fig.colorbar(im, ax=ax, shrink="x", bad=1)\n',
]


@pytest.mark.parametrize("cell", REVIEWED_SILENT)
def test_no_claim_where_a_review_found_another_error_first_or_the_users_code(cell, colorbars):
    """Found in review: each of these was claimed and ran, or raised another error first."""
    from matplotlib import cm, colors
    from matplotlib.artist import setp

    line, = colorbars["ax"].plot([1, 2])
    ns = dict(colorbars, line=line, setp=setp, nothing=None, frac="x",
              touch=lambda: setattr(type(line), "set_colr", lambda self, v: None),
              sm=cm.ScalarMappable(colors.Normalize(0, 1), "viridis"))
    try:
        assert kernel_facts(cell, ns) == [], cell
    finally:
        if "set_colr" in vars(type(line)):
            delattr(type(line), "set_colr")


GRID_REFUSED_FIRST = [
    'f, a = plt.subplots(1, 2, width_ratios=[1, 2, 3])\na[0].set(xlabl="x")\n',
    'f, a = plt.subplots(2, 1, height_ratios=[1])\na[0].set(xlabl="x")\n',
    'f, a = plt.subplots(1, 2, gridspec_kw={"bad": 1})\na[0].set(xlabl="x")\n',
    'f, a = plt.subplots(gridspec_kw={"nrows": 2})\na.set(xlabl="x")\n',
    'f, a = plt.subplots(1, 2, gridspec_kw={"width_ratios": [1, 2]}, width_ratios=[1, 2])\na[0].set(xlabl="x")\n',
]


@pytest.mark.parametrize("cell", GRID_REFUSED_FIRST)
def test_a_grid_subplots_refuses_is_its_error_first_not_the_property_after_it(cell, ns):
    """Found in review: the property's claim stood after a line that raises first; that line's own
    error is the claim (facts/matplotlib_values.layout_claim)."""
    facts = kernel_facts(cell, dict(ns))
    raised = _raised(cell, ns)
    plt.close("all")
    assert [f.line for f in facts] == [1] and facts[0].message.endswith(f": {type(raised).__name__}"), (cell, facts)


def test_the_users_class_lookup_does_not_run_while_the_facts_read(ns):
    """Found in review: `isinstance` asks an object its `__class__`, the user's code."""
    o = _Logged()
    _Logged.ran.clear()
    for cell in ["o.run(3)\n", "o.suptitle('t', bad=1)\n", "plt.setp(o, bad=1)\n", "fig.colorbar(im, ax=o, bad=1)\n",
                 "fig.colorbar(im, ax=[o], bad=1)\n"]:
        kernel_facts(cell, dict(ns, o=o, im=ns["ax"].imshow(ns["z"])))
    assert _Logged.ran == []


def test_no_claim_through_pyplot_on_a_figure_of_the_users_class():
    """Found in review: pyplot's functions call the current Figure's methods, of its class."""
    from matplotlib.figure import Figure

    class MyFig(Figure):
        def suptitle(self, t, **kw):
            return None

        def text(self, x, y, s, **kw):
            return None

        def colorbar(self, mappable, **kw):
            return None

    fig = plt.figure(FigureClass=MyFig)
    ax = fig.add_subplot()
    ns = {"plt": plt, "ax": ax, "im": ax.imshow(np.zeros((2, 2)))}
    try:
        for cell in ['plt.suptitle("t", bad=1)\n', 'plt.figtext(0.5, 0.5, "t", bad=1)\n',
                     'plt.colorbar(im, cax=ax, bad=1)\n', 'plt.tick_params(bad=1)\n']:
            assert kernel_facts(cell, ns) == [], cell
            assert _raised(cell, ns) is None or "tick_params" in cell, cell
        # the cell makes an Axes of another class current: not read
        assert kernel_facts('plt.subplot(projection="polar")\nplt.legend(["x"], lco="best")\n', ns) == []
    finally:
        plt.close("all")



def test_pyplot_is_read_only_where_the_cell_keeps_its_current_figure_and_axes():
    """Found in a second review: a cell that makes another figure current (by number, by closing
    the current one, `**kw`), a Figure with methods of its own, pyplot's `gca` replaced, figure
    hooks (the user's code on every new Figure), a figure's internals not matplotlib's."""
    import matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    class MyAxes(Axes):
        def legend(self, *a, **k):
            return None

    class MyFig(Figure):
        def suptitle(self, t, **k):
            return None

    plt.close("all")
    try:
        f2 = plt.figure(2, FigureClass=MyFig)
        f2.add_axes(MyAxes(f2, [0, 0, 1, 1]))
        f1 = plt.figure(1)
        f1.add_subplot().plot([1, 2], label="a")
        ns = {"plt": plt, "f1": f1, "f2": f2, "kw": {"FigureClass": MyFig}}
        assert kernel_facts('plt.legend(lco="best")\n', ns) != []            # figure 1, plain: read
        # all closed, then a new one; a position of the current figure's: read (found held out)
        assert kernel_facts('plt.close("all")\nplt.figure()\nplt.plot([1], colr="r")\n', ns) != []
        assert kernel_facts('k = 1\nplt.subplot(1, 2, k)\nplt.plot([1], colr="r")\n', ns) != []
        for cell in ['plt.figure(2)\nplt.legend(lco="best")\n', 'plt.figure(f2)\nplt.suptitle("t", bad=1)\n',
                     'plt.close()\nplt.legend(lco="best")\n', 'plt.figure(**kw)\nplt.suptitle("t", bad=1)\n']:
            assert kernel_facts(cell, ns) == [] and _raised(cell, ns) is None, cell
            plt.figure(1)
        current = plt.gcf()
        current.suptitle = lambda *a, **k: None
        assert kernel_facts('plt.suptitle("t", bad=1)\n', ns) == [] and _raised('plt.suptitle("t", bad=1)\n', ns) is None
        del current.suptitle
        current.add_subplot().plot([1, 2], label="a")
        real = plt.gca
        plt.gca = lambda: None
        try:
            assert kernel_facts('plt.legend(lco="best")\n', ns) == []
        finally:
            plt.gca = real
        with matplotlib.rc_context({"figure.hooks": ["math:sqrt"]}):
            assert kernel_facts('plt.legend(lco="best")\n', ns) == []
        assert kernel_facts('plt.legend(lco="best")\n', ns) != []
        stack = current._axstack
        current._axstack = 5
        try:
            assert kernel_facts('plt.legend(lco="best")\n', ns) == []     # not known, and no crash
        finally:
            current._axstack = stack
    finally:
        plt.close("all")


def test_positional_arguments_to_set_are_the_signatures_type_error(artists):
    """Found in review: `line.set(1)` raises TypeError; the rule of `set`'s keywords left it unread."""
    got = kernel_facts("line.set(1)\n", artists)
    assert [f.message.endswith("positional arguments") or "positional" in f.message for f in got] == [True]
    assert type(_raised("line.set(1)\n", artists)) is TypeError


# -- savefig: the keywords the format's print method takes ---------------------------------------

SAVEFIG_CELLS = [
    'fig.savefig(path".png", di=200)\n',
    'fig.savefig(path".png", dpi=200, transparant=True)\n',
    'plt.savefig(path".png", bbox_inch="tight")\n',
    'fig.savefig(path".png", dpi=100, bbox_inches="tight", pad_inches=0.1, transparent=True, facecolor="w",'
    ' edgecolor="k", orientation="portrait", metadata={"Software": "x"}, pil_kwargs={})\n',
    'fig.savefig(path".jpg", dpi=100, pil_kwargs={"quality": 90}, format="jpg")\n',
    'fig.savefig(path".eps", papertype="a4")\n',            # print_ps takes any keyword
    'fig.savefig(path, format="png", dip=3)\n',
]


@pytest.mark.parametrize("cell", SAVEFIG_CELLS)
def test_a_savefig_keyword_is_a_claim_exactly_where_the_print_method_refuses_it(cell, ns, tmp_path):
    cell = cell.replace("path", repr(str(tmp_path / "f")))      # a literal name, as a cell writes it
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert type(raised) in (TypeError, type(None)), raised
    assert bool(got) == (raised is not None), (cell, got, raised)
    if got:
        (fact,) = got
        assert fact.message.endswith(": TypeError") and str(raised) in fact.message
        assert fact.candidates, fact


def test_no_savefig_claim_on_a_figure_of_the_users_class_or_a_format_not_known(ns, tmp_path):
    from matplotlib.figure import Figure

    class Mine(Figure):
        def savefig(self, fname, **kwargs):
            return fname

    mine = plt.figure(FigureClass=Mine)
    assert kernel_facts(f"mine.savefig({str(tmp_path / 'a.png')!r}, di=3)\n", {**ns, "mine": mine}) == []
    assert kernel_facts("fig.savefig(name, di=3)\n", {**ns, "name": str(tmp_path / "a.png")}) == []   # not a literal
    assert kernel_facts(f"fig.savefig({str(tmp_path / 'a.xyz')!r}, di=3)\n", ns) == []    # no such format
    assert kernel_facts(f"fig.savefig({str(tmp_path / 'a.png')!r}, backend='pdf', di=3)\n", ns) == []


# -- an artist class called: its __init__s pass the keywords up to its properties ----------------

ARTIST_CALLS = [
    ("patches.Ellipse", "(0, 0), 4, 2, angle=3"), ("patches.Polygon", "[(0, 0), (1, 1), (1, 0)]"),
    ("patches.PathPatch", "Path([(0, 0), (1, 1)])"), ("patches.Rectangle", "(0, 0), 1, 1"),
    ("patches.Circle", "(0, 0), radius=2"), ("patches.Wedge", "(0, 0), 1, 0, 90"),
    ("patches.FancyArrowPatch", "(0, 0), (1, 1)"), ("lines.Line2D", "[0, 1], [0, 1]"),
    ("text.Text", "0, 0, 'a'"), ("text.Annotation", "'a', (0, 0)"),
    ("collections.PathCollection", "[Path([(0, 0), (1, 1)])]"), ("collections.LineCollection", "[[(0, 0), (1, 1)]]"),
    ("collections.PolyCollection", "[[(0, 0), (1, 1), (1, 0)]]"), ("collections.RegularPolyCollection", "5"),
]


@pytest.mark.parametrize("cls, args", ARTIST_CALLS)
def test_an_artist_class_called_is_claimed_exactly_where_its_properties_refuse_a_keyword(cls, args):
    from matplotlib import collections, lines, patches, text  # noqa: F401 - named in the cells
    from matplotlib.path import Path
    ns = {"patches": patches, "lines": lines, "text": text, "collections": collections, "Path": Path}
    for keywords in ("alpha=0.5, label='a', zorder=2", "alpha=0.5, alpah=0.5", "labl='a'"):
        cell = f"a = {cls}({args}, {keywords})\n"
        got = kernel_facts(cell, ns)
        raised = _raised(cell, ns)
        assert type(raised) in (AttributeError, type(None)), raised
        assert not got or raised is not None, (cell, got)       # never a claim on a call that runs
        if got:
            assert got[0].message.endswith(": AttributeError") and str(raised) in got[0].message, (got, raised)
        elif raised is not None:        # a route through `__init__` not read (FancyArrowPatch's): a miss
            assert cls in ("patches.FancyArrowPatch", "text.Annotation", "collections.LineCollection"), (cell, raised)


@pytest.mark.parametrize("cell, refused", [
    ("f, a = plt.subplots()\ncs = a.contour(np.arange(16.0).reshape(4, 4))\na.clabel(cs, fontsiz=10)\n", True),
    ("cs = ax.contour(np.arange(16.0).reshape(4, 4))\nax.clabel(cs, inline=1, fontsizee=9)\n", True),
    ("f, a = plt.subplots()\ncs = a.contour(np.arange(16.0).reshape(4, 4))\n"
     "a.clabel(cs, cs.levels, fontsize=10, inline=True, fmt='%1.1f', colors='k', inline_spacing=3)\n", False),
])
def test_a_clabel_keyword_is_claimed_exactly_where_the_contour_sets_clabel_refuses_it(cell, refused, ns):
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert type(raised) in (TypeError, type(None)), raised
    assert bool(got) == refused == (raised is not None), (cell, got, raised)
    if got:
        assert str(raised) in got[0].message and got[0].candidates, got


@pytest.mark.parametrize("cell, refused", [
    ("f, a = plt.subplots()\na.set_yscale('symlog', linthrsh=0.015)\n", True),
    ("ax.set_xscale('log', bse=2)\n", True),
    ("f, a = plt.subplots()\na.set_xscale('linear', base=2)\n", True),
    ("f, a = plt.subplots()\na.set_xscale('symlog', linthresh=1, linscale=0.1, base=2)\n"
     "a.set_yscale('log', nonpositive='mask', base=2, subs=[2, 5])\na.set_xscale('logit', one_half='1/2')\n", False),
])
def test_a_scale_keyword_is_claimed_exactly_where_the_scale_class_refuses_it(cell, refused, ns):
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert bool(got) == refused == (type(raised) is TypeError), (cell, got, raised)
    if got:
        assert str(raised) in got[0].message and (got[0].candidates or "linear" in cell), got


class _Absolute:
    """The user's object: its `__abs__` and `max` are the user's code (here: a property set on Line2D)."""

    def __abs__(self):
        return self

    def max(self):
        from matplotlib.lines import Line2D
        Line2D.set_lable = lambda self, value: None
        return 1


def test_a_claim_after_numpys_abs_of_an_array_stands_and_after_the_users_does_not(ns):
    """`abs(z).max()`: Python's abs of numpy's array of numbers is numpy's array, whose `max` is
    numpy's; of the user's object, anything may run (here it gives Line2D the property)."""
    from matplotlib.lines import Line2D
    ns = dict(ns, a=np.arange(-3.0, 3.0), mine=_Absolute())
    cell = 'm = abs(a).max()\nax.plot([1], lable="a")\n'
    (fact,) = kernel_facts(cell, ns)
    assert fact.line == 2 and type(_raised(cell, ns)) is AttributeError
    users = 'm = abs(mine).max()\nax.plot([1], lable="a")\n'
    assert kernel_facts(users, ns) == []
    try:
        assert _raised(users, ns) is None
    finally:
        del Line2D.set_lable


def test_a_comparison_of_numpys_arrays_is_numpys_code_and_a_users_object_compared_is_not(ns):
    """`(labels == k).nonzero()` of a numpy array of numbers and a number runs numpy's code alone:
    pyplot stays read after it; an object of the user's class compared runs its `__eq__`, which
    may change the current figure, so no claim on pyplot after it."""
    class Mine:
        def __eq__(self, other):
            plt.figure()
            return np.array([True, False])

    objects = dict(ns, X=np.ones((4, 2)), labels=np.array([0, 1, 0, 1]), k=1, mine=Mine())
    cell = "idx = (labels == k).nonzero()[0]\nplt.scatter(X[idx, 0], X[idx, 1], lable='a')\n"
    facts = kernel_facts(cell, objects)
    assert [f.line for f in facts] == [2] and _run(cell, objects) is not None
    assert kernel_facts(cell.replace("labels == k", "mine == k"), objects) == []
    assert kernel_facts("idx = (labels in k).nonzero()[0]\nplt.scatter(X[:, 0], X[:, 1], lable='a')\n", objects) == []


def test_a_loop_over_a_dict_displays_items_runs_no_code_of_the_users(ns):
    """`for name, est in {"a": m}.items()`: the view runs nothing of its keys or values, so pyplot
    is still read in the body; a function of the user's over them is not such a view."""
    def pick(d):
        plt.figure()
        return list(d)

    objects = dict(ns, m=object(), k="b", pick=pick)
    cell = "plt.figure()\nfor name, est in {'a': m, 'b': m}.items():\n    plt.plot([1, 2], [3, 4], labbel=name)\n"
    assert [f.line for f in kernel_facts(cell, objects)] == [3] and _run(cell, objects) is not None
    other = cell.replace("{'a': m, 'b': m}.items()", "pick({'a': m, 'b': m})")
    assert kernel_facts(other, objects) == []
    keyed = cell.replace("{'a': m, 'b': m}", "{key: m}")     # a key of the user's class hashes: its code
    assert kernel_facts(keyed, dict(objects, key=object())) == []



MAPPABLE_CELLS = [
    ("plt.colorbar(z)\n", "ValueError"),                         # an array has no Axes to take space from
    ("I = np.sin(z)\nplt.imshow(I)\nplt.colorbar(I)\n", "ValueError"),   # ...one the cell made, after its image
    ("f, a = plt.subplots()\na.imshow(z)\nf.colorbar(z, shrink=0.5)\n", "ValueError"),
    ("fig.colorbar([1, 2])\n", "ValueError"),
    ("im = plt.imshow(z)\nplt.colorbar(im)\n", None),             # the image, as meant
    ("f, a = plt.subplots()\nim = a.imshow(z)\nf.colorbar(im, shrink=0.5)\n", None),
    ("plt.imshow(z)\nplt.colorbar()\n", None),                   # the current image
]


@pytest.mark.parametrize("cell, exception", MAPPABLE_CELLS)
def test_a_colorbar_of_an_array_is_claimed_and_stopped_exactly_where_matplotlib_refuses_it(cell, exception, ns):
    from cells import raised_at

    from jupyter_codecheck.core.exact_findings import exact_check

    facts = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
    raised = raised_at(cell, dict(ns))
    if exception is None:
        assert facts == [] and raised is None, (facts, raised)
        return
    assert raised is not None and raised[0] == exception, raised
    assert [f.line for f in facts] == [raised[1]] and facts[0].message.endswith(f": {exception}"), facts
    assert [f.line for f in exact_check(cell, ns).certain] == [raised[1]]


def test_a_colorbar_of_no_mappable_is_claimed_only_first_in_a_cell_where_pyplot_holds_no_figure():
    """`plt.colorbar()` before the plot: with no Figure yet (an inline backend closes them after
    each cell) the one `gcf()` makes holds no image: pyplot's RuntimeError, a stop. With a Figure
    already, or after another call in the cell, it is not read."""
    from cells import raised_at

    from jupyter_codecheck.core.exact_findings import exact_check

    ns = {"plt": plt, "z": np.zeros((3, 3))}
    cell = "plt.colorbar()\nplt.contourf(z)\n"
    try:
        plt.close("all")
        (fact,) = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
        assert fact.line == 1 and fact.message.endswith(": RuntimeError")
        assert [f.line for f in exact_check(cell, ns).certain] == [1]
        assert raised_at(cell, dict(ns)) == ("RuntimeError", 1)
        plt.close("all")
        plt.imshow(ns["z"])                 # a Figure kept with its image (another backend)
        assert kernel_facts(cell, ns) == [] and raised_at(cell, dict(ns)) is None
        plt.close("all")
        drawn = "rng = np.random.default_rng(0)\nc = rng.random(len(z))\nplt.colorbar()\nplt.scatter(c, c, c=c)\n"
        ns = dict(ns, np=np)
        assert [f.line for f in exact_check(drawn, ns).certain] == [3]     # numbers alone made before it
        assert raised_at(drawn, dict(ns)) == ("RuntimeError", 3)
        plt.close("all")
        later = "plt.plot([1, 2])\nplt.colorbar()\n"
        assert kernel_facts(later, ns) == []
        for unsure in ["plt.figure(1)\nplt.colorbar()\n", "z[0, 0] = 1\nplt.colorbar()\n"]:   # a number: maybe an old one
            assert exact_check(unsure, ns).certain == [], unsure
    finally:
        plt.close("all")


def test_no_colorbar_claim_on_a_figure_whose_colorbar_is_the_users():
    from matplotlib.figure import Figure

    class Tolerant(Figure):
        def colorbar(self, mappable, **kwargs):
            return None

    ns = {"plt": plt, "z": np.zeros((3, 3))}
    try:
        plt.close("all")
        plt.figure(FigureClass=Tolerant)
        assert kernel_facts("plt.colorbar(z)\n", ns) == [] and _raised("plt.colorbar(z)\n", ns) is None
        fig = Tolerant()
        assert kernel_facts("fig.colorbar(z)\n", dict(ns, fig=fig)) == [] and \
            _raised("fig.colorbar(z)\n", dict(ns, fig=fig)) is None
    finally:
        plt.close("all")


def test_a_parameter_another_method_makes_keyword_only_is_no_word_read_on_the_way(ns):
    """`plt.hist(x, normed=True)` (removed in matplotlib 3.1): `normed` is quoted in
    matplotlib.axes._axes only where `xcorr`'s own parameter is made keyword-only, which reads no
    keyword; the Rectangle hist makes has no such property. `xcorr` names it itself."""
    cell = "plt.hist([1, 2, 2], bins=3, normed=True)\n"
    (fact,) = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert fact.message.endswith(": AttributeError") and type(raised) is AttributeError and "normed" in str(raised)
    taken = "plt.xcorr([1.0, 2.0, 3.0], [1.0, 3.0, 2.0], normed=True, maxlags=1)\n"
    assert kernel_facts(taken, ns) == [] and _raised(taken, ns) is None


def test_a_numbered_figure_is_a_new_one_where_pyplot_holds_none():
    """`plt.figure(1)` with no Figure yet (an inline backend closes them after each cell) makes a
    new one of matplotlib's class: what pyplot draws next is read, and stops; with a Figure 1 of
    the user's class already, it is that one: not read."""
    from matplotlib.figure import Figure

    from jupyter_codecheck.core.exact_findings import exact_check

    class Theirs(Figure):
        pass

    cell = "plt.figure(1)\nplt.plot([1, 2], colr='r')\n"
    ns = {"plt": plt}
    try:
        plt.close("all")
        assert [f.line for f in exact_check(cell, ns).certain] == [2] and type(_raised(cell, ns)) is AttributeError
        plt.close("all")
        plt.figure(1, FigureClass=Theirs)
        assert exact_check(cell, ns).certain == []
    finally:
        plt.close("all")


def test_pyplots_hist_returns_three_values(ns):
    from cells import raised_at

    from jupyter_codecheck.core.exact_findings import exact_check

    cell = "counts, edges = plt.hist([1, 2, 2], bins=2)\n"
    assert [f.line for f in exact_check(cell, ns).certain] == [1] and raised_at(cell, dict(ns)) == ("ValueError", 1)
    meant = "counts, edges, bars = plt.hist([1, 2, 2], bins=2)\n"
    assert kernel_facts(meant, ns) == [] and raised_at(meant, dict(ns)) is None


def test_no_colorbar_stop_where_something_drew_first_in_run_order():
    """(a review's) a function of the cell's called after the image, and a kernel generator that
    draws, iterated first: the text's order is not the run's."""
    from jupyter_codecheck.core.exact_findings import exact_check

    def frames():
        while True:
            yield plt.imshow(np.zeros((3, 3)))

    ns = {"plt": plt, "np": np, "z": np.zeros((3, 3)), "gen": frames()}
    try:
        for cell in ["def add_cbar(label):\n    plt.colorbar(label=label)\n\nplt.imshow(z)\nadd_cbar('depth')\n",
                     "for im in gen:\n    break\nplt.colorbar()\n"]:
            plt.close("all")
            assert exact_check(cell, ns).certain == [], cell
            plt.close("all")
            assert _raised(cell, ns) is None, cell
    finally:
        plt.close("all")
