"""Axes the cell makes (plt.subplots, plt.axes, a loop over an array of them): of matplotlib's
own Axes class unless a projection chose another, so an attribute its class and a stand-in
instance lack, and a keyword the artist a method makes has no property for, raise
AttributeError; `plt.axes`, `plt.subplots` and `plt.figure` pass their unknown keywords to the
Axes or Figure they make. Every cell is run: a claim is matplotlib's exception on that line."""
from __future__ import annotations

import itertools
import traceback
import types

import pytest

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from jupyter_codecheck.facts import kernel_facts  # noqa: E402

MAKERS = {
    "subplots": "fig, ax = plt.subplots()\n{use}\n",
    "subplot_kw": "fig, ax = plt.subplots(subplot_kw=dict(xticks=[], yticks=[]))\n{use}\n",
    "axes": "ax = plt.axes()\n{use}\n",
    "rect": "ax = plt.axes([0.1, 0.1, 0.8, 0.8], xscale='log')\n{use}\n",
    "grid": "fig, axes = plt.subplots(2, 3)\naxes[1, 2].set_xticks([])\nax = axes[0, 1]\n{use}\n",
    "flat": "fig, axes = plt.subplots(2, 2)\nfor ax in axes.flat:\n    {use}\n",
    "enumerate": "fig, axes = plt.subplots(2, 2)\nfor i, ax in enumerate(axes.ravel()):\n    ax.set_title(str(i))\n    {use}\n",
    "zip": "fig, axes = plt.subplots(1, 3)\nfor ax, w in zip(axes, [1, 2, 3]):\n    {use}\n",
    "rows": "fig, axes = plt.subplots(2, 3)\nfor row in axes:\n    ax = row[1]\n    {use}\n",
    "zip_live": "fig, axes = plt.subplots(1, 3)\nfor ax, w in zip(axes, widths):\n    {use}\n",
    "ratios": "fig, axes = plt.subplots(1, 2, width_ratios=[300 / 200, 1])\nax = axes[0]\n{use}\n",
    "given": "fig, axes = plt.subplots(1, 2)\nfig.colorbar(axes[0].imshow([[1, 2]]), ax=axes)\nax = axes[1]\n{use}\n",
    # added by a Figure the cell made, or twinned
    "add_subplot": "fig = plt.figure()\nax = fig.add_subplot(2, 2, 3)\n{use}\n",
    "add_axes": "fig = plt.figure()\nax = fig.add_axes([0.1, 0.1, 0.8, 0.8])\n{use}\n",
    "twinx": "fig, first = plt.subplots()\nax = first.twinx()\n{use}\n",
    # unpacked: the array's items, or its rows
    "unpacked": "fig, (ax0, ax) = plt.subplots(1, 2)\n{use}\n",
    "unpacked_rows": "fig, ((a, b), (c, ax)) = plt.subplots(2, 2)\n{use}\n",
    "unpacked_name": "fig, axes = plt.subplots(ncols=2, sharey=True)\nax0, ax = axes\n{use}\n",
    # another class: a projection's Axes has more (no claim on its names)
    "polar": "fig, ax = plt.subplots(subplot_kw={{'projection': 'polar'}})\n{use}\n",
    "polar_axes": "ax = plt.axes(projection='polar')\n{use}\n",
}
USES = [
    "ax.plot([1, 2], lw=2)", "ax.plott([1, 2])", "ax.plot([1, 2], labeel='a')", "ax.imshow([[1, 2]], cma='gray')",
    "ax.imshow([[1, 2]], cmap='gray')", "ax.text(0.1, 0.1, 's', coolor='g')", "ax.set_rmax(2)",
    "ax.xaxis.set_visible(False)", "ax.legend_", "ax.spines['top'].set_visible(False)", "ax.set_titl('t')",
    "ax.scatter([1], [2], colr='r')", "ax.bar([1], [2], widht=1)", "ax.set_xlabel('x', fontsze=3)",
    "ax.set(xlim=(0, 1))", "ax.st(xlim=(0, 1))", "ax.transData", "ax.transdata",
]


def _run(cell: str):
    try:
        exec(compile(cell, "<cell>", "exec"), {"plt": plt, "widths": [1, 2]})
    except Exception as e:  # noqa: BLE001 - whatever matplotlib raises is compared
        return type(e), [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    finally:
        plt.close("all")
    return None


def test_each_claim_on_an_axes_the_cell_makes_is_what_matplotlib_raises():
    claimed, ran_unclaimed = set(), 0
    for (maker, form), use in itertools.product(MAKERS.items(), USES):
        cell = form.format(use=use)
        facts = kernel_facts(cell, {"plt": plt, "widths": [1, 2]})
        raised = _run(cell)
        if not facts:
            ran_unclaimed += raised is None
            continue
        assert raised is not None, (cell, facts[0].message)
        assert raised == (AttributeError, facts[0].line), (cell, facts[0].message, raised)
        assert facts[0].message.endswith("AttributeError") or facts[0].kind == "attribute", facts[0].message
        claimed.add((maker, use))
    # (an Axes bound inside a loop's body is not followed: "rows" is only held to the truth)
    plain = [m for m in MAKERS if not m.startswith("polar") and m != "rows"]
    for maker, use in itertools.product(plain, ["ax.plott([1, 2])", "ax.plot([1, 2], labeel='a')",
                                                "ax.imshow([[1, 2]], cma='gray')", "ax.set_rmax(2)"]):
        assert (maker, use) in claimed, (maker, use)
    assert not {(m, u) for m, u in claimed if m.startswith("polar") and u == "ax.set_rmax(2)"}
    assert ran_unclaimed >= len(MAKERS) * 6


def test_the_keywords_plt_axes_subplots_and_figure_hand_on():
    for cell, bad, good in [("ax = plt.axes(xscale='log', yscle='log')\n", "yscle", "yscale"),
                            ("fig, ax = plt.subplots(2, 2, shrex=True)\n", "shrex", "sharex"),
                            ("fig = plt.figure(figsze=(3, 3))\n", "figsze", "figsize"),
                            # a Figure the cell made hands them to the Axes its projection chooses
                            ("fig = plt.figure()\nax = fig.add_subplot(111, prrojection='3d')\n", "prrojection",
                             "projection"),
                            ("fig = plt.figure(figsize=(3, 3))\nax = fig.add_subplot(1, 2, 1, projection='3d', "
                             "elve=7)\n", "elve", "elev"),
                            ("fig = plt.figure()\nax = fig.add_axes([0, 0, 1, 1], polar=True, theta_ofset=1)\n",
                             "theta_ofset", "theta_offset")]:
        facts = kernel_facts(cell, {"plt": plt})
        line = cell.count("\n")
        assert [(f.line, bad in f.message) for f in facts] == [(line, True)], cell
        assert _run(cell) == (AttributeError, line)
        fixed = cell.replace(bad, good)
        assert kernel_facts(fixed, {"plt": plt}) == [] and _run(fixed) is None


@pytest.mark.parametrize("cell", [
    # another class's Axes; plt.figure's own keywords through subplots
    "ax = plt.axes(projection='3d', elev=30, azim=45)\n",
    "ax = plt.axes(projection='polar', theta_offset=1.0)\n",
    "fig, axes = plt.subplots(1, 2, FigureClass=plt.Figure)\n",
    # a loop that may not run, or is cut short, before the name is read
    "fig, axes = plt.subplots(1, 3)\nax = None\nfor ax, im in zip(axes, imgs):\n    pass\nprint(ax)\n",
    "fig, axes = plt.subplots(1, 3)\nfor i, ax in enumerate(axes):\n    if i < 10:\n        break\n    ax.nonexistent()\n",
    # names something else sets on an Axes: the cell, pandas, another handle
    "fig, axes = plt.subplots(1, 3)\nfor a in axes:\n    a.x = lambda: 1\nfor ax in axes:\n    ax.x()\n",
    "fig, ax = plt.subplots()\ndf.plot(ax=ax, secondary_y=['b'])\nax.right_ax.set_ylabel('b')\n",
    "ax = plt.axes()\nplt.gca().f = print\nax.f()\n",
    # the array's items replaced before they are read (numpy writing into it too)
    "import numpy as np\nfig, axes = plt.subplots(1, 2)\nnp.copyto(axes, np.array(['a', 'b'], dtype=object))\n"
    "axes[1].upper()\n",
    "fig, axes = plt.subplots(1, 3)\naxes[0] = 'x'\naxes[0].upper()\n",
    "fig, axes = plt.subplots(1, 3)\naxes[0] = 'x'\nax = axes[0]\nax.upper()\n",
    "fig, axes = plt.subplots(1, 3)\naxes.fill('x')\nfor ax in axes:\n    ax.upper()\n",
    "fig, axes = plt.subplots(1, 3)\naxes2 = axes\naxes2[:] = 'x'\nfor ax in axes:\n    ax.upper()\n",
    "fig, axes = plt.subplots(1, 2)\naxes[1] = 'x'\nax0, ax = axes\nax.upper()\n",
    # an Axes given to add_subplot is returned as it is, its keywords unread; a projection's class
    "fig = plt.figure()\nax0 = fig.add_subplot(111)\nax = fig.add_subplot(ax0, colr='r')\n",
    "fig = plt.figure()\nax = fig.add_subplot(111, projection='3d', elev=7, azim=-80, proj_type='ortho')\n",
])
def test_no_claim_where_the_axes_may_be_another_or_hold_more(cell):
    import pandas as pd
    ns = {"plt": plt, "imgs": [], "df": pd.DataFrame({"a": [1, 2], "b": [3, 4]})}
    assert kernel_facts(cell, ns) == [], cell
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    finally:
        plt.close("all")


_USERS = "class MyAx(Axes):\n    def legend(self, *a, foo=None, **k):\n        return super().legend(*a, **k)\n"


@pytest.mark.parametrize("setup, cell", [
    # a loop's variable is one of the Axes written: what is done through it is done to them (A)
    ("def tag(x):\n    x.foo = lambda: 1\n", "fig, (a, b) = plt.subplots(1, 2)\nfor ax in (a, b):\n    tag(ax)\nb.foo()\n"),
    ("def tag(x):\n    x.foo = lambda: 1\n", "fig, ax = plt.subplots()\nfor x in [ax]:\n    tag(x)\nax.foo()\n"),
    ("class Obj:\n    def foo(self):\n        return 1\ndef g():\n    global ax\n    ax = Obj()\n",
     "fig, (a, b) = plt.subplots(1, 2)\nfor ax in (a, b):\n    g()\n    ax.foo()\n"),
    # the user's code reaches every part of a figure from one, or from pyplot (B, C)
    ("def tag(x):\n    x.figure.axes[1].foo = lambda: 1\n", "fig, (a, b) = plt.subplots(1, 2)\ntag(a)\nb.foo()\n"),
    ("def tag(f):\n    f.axes[1].foo = lambda: 1\n", "fig, (a, b) = plt.subplots(1, 2)\ntag(fig)\nb.foo()\n"),
    ("def tag(a):\n    a.figure.foo = lambda: 1\n", "fig, ax = plt.subplots()\ntag(ax)\nfig.foo()\n"),
    ("def tag():\n    plt.gcf().foo = lambda: 1\n", "fig, ax = plt.subplots()\ntag()\nfig.foo()\n"),
    ("", "fig = plt.figure()\nfig.__dict__.update(foo=lambda: 1)\nfig.foo()\n"),
    # an instance's own method, set by the cell or the user's code, is called first (D)
    ("", "fig = plt.figure()\nfig.add_subplot = lambda *a, **k: None\nfig.add_subplot(111, foo=1)\n"),
    ("def patch(f):\n    o = f.add_axes\n    f.add_axes = lambda *a, foo=None, **k: o(*a, **k)\n",
     "fig, ax = plt.subplots()\npatch(fig)\nfig.add_axes([0, 0, 1, 1], foo=1)\n"),
    ("", "fig = plt.figure()\nfig.legend = lambda *a, **k: None\nfig.legend(foo=1)\n"),
    ("def patch(f):\n    for x in f.axes:\n        x.legend = lambda *a, **k: None\n",
     "fig, ax = plt.subplots()\npatch(fig)\nax.legend(foo=1)\n"),
    ("", "fig, (a, b) = plt.subplots(1, 2)\nfor x in (a, b):\n    x.legend = lambda *a, **k: None\nb.legend(foo=1)\n"),
    # pyplot's legend calls the current Axes', which may be the user's (E)
    (_USERS + "plt.figure().add_subplot(111, axes_class=MyAx)\n", "plt.legend(foo=1)\n"),
    ("", "fig, ax = plt.subplots()\nax.legend = lambda *a, **k: None\nplt.legend(foo=1)\n"),
    # a live Axes' or Figure's own method, set by the cell or the user's code
    ("fig, ax = plt.subplots()\n", "ax.plot = lambda *a, **k: None\nax.plot([1], foo=1)\n"),
    ("fig, ax = plt.subplots()\ndef patch(a):\n    a.plot = lambda *x, **k: None\n", "patch(ax)\nax.plot([1], foo=1)\n"),
    ("fig, ax = plt.subplots()\ndef t():\n    plt.gca().plot = lambda *a, **k: None\n", "t()\nax.plot([1], foo=1)\n"),
    ("fig = plt.figure()\n", "fig.add_subplot = lambda *a, **k: None\nfig.add_subplot(111, foo=1)\n"),
    ("fig, ax = plt.subplots()\n", "ax.plot = lambda *a, **k: None\nplt.plot([1], foo=1)\n"),
    # a method set on a class is a property of its artists (G)
    ("", "from matplotlib.axes import Axes\nAxes.set_foo = lambda self, v: None\nax = plt.subplot(111, foo=1)\n"),
    ("", "from matplotlib.lines import Line2D\nLine2D.set_foo = lambda self, v: None\nplt.plot([1, 2], foo=1)\n"),
])
def test_no_claim_where_the_users_code_or_the_cell_may_have_changed_the_figure(setup, cell):
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D
    try:
        _no_claim_and_it_runs(setup, cell, {"plt": plt, "Axes": Axes})
    finally:
        for cls in (Axes, Line2D):
            for name in ("set_foo",):
                if name in vars(cls):
                    delattr(cls, name)


def test_a_figure_class_of_the_users_is_never_made_nor_read():
    import matplotlib.figure as mf
    ran = []

    class MyFigure(mf.Figure):
        def __init__(self, *args, **kwargs):
            ran.append("MyFigure.__init__")
            super().__init__(*args, **kwargs)

    own, mine = mf.Figure, {"plt": plt}
    mf.Figure = MyFigure
    try:
        facts = kernel_facts("fig = plt.figure()\nfig.hello()\n", mine)
        assert ran == [] and all("MyFigure" not in f.message for f in facts)
    finally:
        mf.Figure = own
    # the user's function set as pyplot's figure is not matplotlib's: what it makes is not read
    own_plot = plt.plot
    plt.plot = lambda *a, foo=None, **k: None
    try:
        assert kernel_facts("plt.plot([1], foo=1)\n", {"plt": plt}) == []
    finally:
        plt.plot = own_plot
    own_figure = plt.figure
    plt.figure = lambda *a, **k: type("Mine", (), {"add_subplot": lambda self, *a, **k: None})()
    try:
        cell = "fig = plt.figure()\nfig.add_subplot(111, foo=1)\nfig.hello\n"
        assert kernel_facts(cell, {"plt": plt}) == []
    finally:
        plt.figure = own_figure


def _quiet_colorbars(axes):
    """The user's function given the Axes: it may change their Figure (here: a colorbar that
    takes any keyword)."""
    axes.flat[0].get_figure().colorbar = lambda *args, **kwargs: None
    return axes.flatten()


@pytest.mark.parametrize("cell, raises", [
    ("fig, ax = plt.subplots(2, 2)\nax = ax.flatten()\npcm = ax[0].pcolormesh([[1, 2], [3, 4]])\n"
     "fig.colorbar(pcm, ax=ax[0], extendd='both')\n", True),
    ("fig, ax = plt.subplots(2, 2)\nax = ax.flatten()\npcm = ax[0].pcolormesh([[1, 2], [3, 4]])\n"
     "fig.colorbar(pcm, ax=ax[0], extend='both')\n", False),
    ("fig, ax = plt.subplots(2, 2)\nax = quiet(ax)\npcm = ax[0].pcolormesh([[1, 2], [3, 4]])\n"
     "fig.colorbar(pcm, ax=ax[0], extendd='both')\n", False),
])
def test_a_name_bound_again_to_its_own_arrays_method_is_read_before_it_is_bound(cell, raises):
    """`ax = ax.flatten()`: the value is computed before the name is bound, so the method called
    is numpy's, of the array the cell made; the user's function in its place may change anything."""
    ns = {"plt": plt, "quiet": _quiet_colorbars}
    facts = kernel_facts(cell, ns)
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
        outcome = None
    except TypeError as e:
        outcome = e
    finally:
        plt.close("all")
    assert (outcome is not None) == raises == bool(facts), (cell, facts, outcome)
    if facts:
        assert facts[0].line == 4 and facts[0].message.endswith("TypeError") and "extendd" in str(outcome)


# an Axes whose literal projection keyword chose another class of matplotlib's registry
PROJECTED = {
    "subplot_kw_3d": "fig, ax = plt.subplots(subplot_kw=dict(projection='3d'))\n{use}\n",
    "subplot_kw_polar": "fig, ax = plt.subplots(subplot_kw={{'projection': 'polar'}})\n{use}\n",
    "subplot_kw_grid": "fig, (ax0, ax) = plt.subplots(1, 2, subplot_kw=dict(projection='polar'))\n{use}\n",
    "subplot_kw_item": "fig, axs = plt.subplots(2, 2, subplot_kw=dict(polar=True))\nax = axs[1, 0]\n{use}\n",
    "add_subplot_3d": "fig = plt.figure(figsize=(3, 3))\nax = fig.add_subplot(111, projection='3d')\n{use}\n",
    "add_subplot_polar": "fig = plt.figure()\nax = fig.add_subplot(polar=True)\n{use}\n",
    "axes_3d": "ax = plt.axes(projection='3d')\n{use}\n",
    "axes_rect_polar": "fig = plt.figure()\nax = plt.axes([0.1, 0.1, 0.8, 0.8], polar=True)\n{use}\n",
}
PROJECTED_USES = {
    # (use, the classes whose instance runs it)
    "ax.set_zlim(0, 1)": ("Axes3D",), "ax.view_init(30, 40)": ("Axes3D",), "ax.set_rmax(2)": ("PolarAxes",),
    "ax.set_theta_zero_location('N')": ("PolarAxes",), "ax.plot([1, 2], [1, 2])": ("Axes3D", "PolarAxes"),
    "ax.set(xlabel='x')": ("Axes3D", "PolarAxes"), "ax.set(zlabel='z')": ("Axes3D",),
    "ax.stem([1], [2], [3], bottom=1)": ("Axes3D",), "ax.stem([1], [2], [3], markefrmt='D')": (),
    "ax.stme([1], [2], [3])": (), "ax.set(xlaebl='x')": (), "ax.set_titel('t')": (), "ax.plo([1, 2])": (),
    "ax.set_zlabl('z')": (),
}


def test_an_axes_of_the_projection_the_cell_chose_is_read_as_that_class():
    claimed = set()
    for (maker, form), (use, runs_on) in itertools.product(PROJECTED.items(), PROJECTED_USES.items()):
        cell = form.format(use=use)
        facts = kernel_facts(cell, {"plt": plt})
        raised = _run(cell)
        cls = "Axes3D" if "3d" in maker else "PolarAxes"
        assert (raised is None) == (cls in runs_on), (cell, raised)
        if facts:
            assert raised is not None and raised[1] == facts[0].line, (cell, facts[0].message)
            assert cls in facts[0].message or "ax.stem()" in facts[0].message, facts[0].message
            claimed.add((maker, use))
    for maker in PROJECTED:
        for use in ("ax.set(xlaebl='x')", "ax.set_titel('t')", "ax.plo([1, 2])"):
            assert (maker, use) in claimed, (maker, use)
        if "3d" in maker:
            assert {(maker, "ax.stme([1], [2], [3])"), (maker, "ax.set_zlabl('z')"),
                    (maker, "ax.stem([1], [2], [3], markefrmt='D')")} <= claimed


@pytest.mark.parametrize("setup, cell", [
    # a keyword beside the projection goes to the class's constructor; a name of the user's
    ("", "fig, ax = plt.subplots(subplot_kw=dict(projection='polar', theta_offset=1))\nax.set_rmax(2)\n"),
    ("name = 'polar'\n", "fig, ax = plt.subplots(subplot_kw=dict(projection=name))\nax.set_rmax(2)\n"),
    # a method set on the projection's class, or a projection the user registered under its name
    ("from matplotlib.projections.polar import PolarAxes\nPolarAxes.plo = lambda self, *a: None\n",
     "fig, ax = plt.subplots(subplot_kw=dict(projection='polar'))\nax.plo([1, 2])\n"),
    ("from matplotlib.projections import register_projection\nfrom matplotlib.axes import Axes\n"
     "class Mine(Axes):\n    name = 'mine'\n    def plo(self, *a):\n        pass\nregister_projection(Mine)\n",
     "fig, ax = plt.subplots(subplot_kw=dict(projection='mine'))\nax.plo([1, 2])\n"),
    # pyplot's current Figure (or one the cell may make current) of the user's class
    ("from matplotlib.figure import Figure\nclass Fig(Figure):\n    def add_subplot(self, *a, **k):\n"
     "        return types.SimpleNamespace(plo=print)\nplt.figure(FigureClass=Fig)\n",
     "ax = plt.axes(projection='polar')\nax.plo([1, 2])\n"),
    ("from matplotlib.figure import Figure\nclass Fig(Figure):\n    def add_subplot(self, *a, **k):\n"
     "        return types.SimpleNamespace(plo=print)\nplt.figure(FigureClass=Fig, num=5)\nplt.figure()\n",
     "plt.figure(5)\nax = plt.axes(projection='polar')\nax.plo([1, 2])\n"),
    # the items of the array replaced
    ("", "fig, axs = plt.subplots(1, 2, subplot_kw=dict(projection='3d'))\naxs[0] = 'x'\naxs[0].upper()\n"),
    ("", "fig, axs = plt.subplots(1, 2, subplot_kw=dict(projection='3d'))\naxs[0] = 'x'\nax = axs[0]\nax.upper()\n"),
])
def test_no_claim_where_the_projection_or_its_class_is_not_matplotlibs_as_written(setup, cell):
    from matplotlib.projections.polar import PolarAxes
    try:
        _no_claim_and_it_runs(setup, cell, {"plt": plt, "types": types})
    finally:
        if "plo" in vars(PolarAxes):
            delattr(PolarAxes, "plo")
        from matplotlib.projections import projection_registry
        projection_registry._all_projection_types.pop("mine", None)


@pytest.mark.parametrize("setup, cell, line", [
    # no Figure yet, or a new one made current before: `subplot` adds a new Axes of matplotlib's class
    ("", "import numpy as np\nt = np.arange(0.0, 3.0, 0.01)\nax1 = plt.subplot(212)\nax1.margins(0.05)\n"
         "ax1.plto(t, np.exp(-t))\n", 5),
    ("plt.plot([1, 2])\n", "arr = np.arange(100).reshape((10, 10))\nplt.close('all')\nfig = plt.figure(figsize=(5, 4))\n"
                           "ax = plt.subplot()\nim = ax.imshow(arr, interpolaation='none')\n", 5),
    ("plt.figure()\n", "ax = plt.subplot(2, 2, 1)\nax.plot([1], lw=2)\nax.set_titl('x')\n", 3),
    ("", "plt.figure()\nax = plt.subplot(1, 2, 1, projection='polar')\nax.set_rmax(1)\nax.set_rmx(1)\n", 4),
])
def test_plt_subplot_on_a_figure_of_no_axes_makes_a_new_one(setup, cell, line):
    import numpy as np
    ns = {"plt": plt, "np": np}
    try:
        plt.close("all")
        exec(compile(setup, "<setup>", "exec"), ns)
        facts = kernel_facts(cell, ns)
        assert [f.line for f in facts] == [line], (cell, facts)
        with pytest.raises(AttributeError):
            exec(compile(cell, "<cell>", "exec"), ns)
    finally:
        plt.close("all")


@pytest.mark.parametrize("setup, cell", [
    # the current Figure holds an Axes at that place: `subplot` returns it, with what was set on it
    ("ax = plt.subplot(111)\nax.plto = lambda *a: None\n", "ax2 = plt.subplot(111)\nax2.plto([1])\n"),
    ("", "ax = plt.subplot(111)\nax.plto = lambda *a: None\nax2 = plt.subplot(111)\nax2.plto([1])\n"),
    ("fig = plt.figure()\nax = fig.add_subplot(111)\nax.plto = lambda *a: None\n", "ax2 = plt.subplot()\nax2.plto([1])\n"),
    # something before in the cell may have added it: pyplot, the user's function, another figure made current
    ("def g():\n    a = plt.subplot(111)\n    a.plto = lambda *x: None\n", "g()\nax = plt.subplot(111)\nax.plto([1])\n"),
    ("f0 = plt.figure()\nf0.add_subplot(111).plto = lambda *a: None\nf1 = plt.figure()\n",
     "plt.figure(f0.number)\nax = plt.subplot(111)\nax.plto([1])\n"),
    ("f0 = plt.figure()\nf0.add_subplot(111).plto = lambda *a: None\nplt.figure()\n",
     "plt.close()\nax = plt.subplot(111)\nax.plto([1])\n"),
])
def test_no_claim_where_plt_subplot_may_return_an_axes_the_figure_holds(setup, cell):
    import numpy as np
    plt.close("all")
    _no_claim_and_it_runs(setup, cell, {"plt": plt, "np": np})


def _no_claim_and_it_runs(setup: str, cell: str, ns: dict) -> None:
    """After `setup` runs in `ns`, the facts claim nothing on `cell`, which runs."""
    try:
        exec(compile(setup, "<setup>", "exec"), ns)
        assert kernel_facts(cell, ns) == [], cell
        exec(compile(cell, "<cell>", "exec"), ns)
    finally:
        plt.close("all")


@pytest.mark.parametrize("cell, line", [
    # a live Figure of matplotlib's class adds a new Axes each call
    ("ax = fig.add_subplot(111, projection='3d')\nax.set_zlabel('z')\nax.set_zlabl('z')\n", 3),
    ("ax = fig.add_subplot(2, 2, 1)\nax.plot([1, 2])\nax.plto([1])\n", 3),
    ("ax = fig.add_axes([0, 0, 1, 1], polar=True)\nax.set_rmax(1)\nax.set_rmx(1)\n", 3),
    ("ax = fig.add_subplot(2, 2, 1)\nax.plot([1, 2])\n", None),
    # its own method, set before the cell or in it; another class's
    ("ax = own.add_subplot(111)\nax.plto([1])\n", None),
    ("fig.add_subplot = lambda *a, **k: types.SimpleNamespace(plto=print)\nax = fig.add_subplot(111)\nax.plto([1])\n",
     None),
])
def test_an_axes_a_live_figure_adds(cell, line):
    import types
    fig, own = plt.figure(), plt.figure()
    own.add_subplot = lambda *a, **k: types.SimpleNamespace(plto=print)
    ns = {"plt": plt, "fig": fig, "own": own, "types": types}
    try:
        facts = kernel_facts(cell, ns)
        assert [f.line for f in facts] == ([line] if line else []), (cell, facts)
        raised = None
        try:
            exec(compile(cell, "<cell>", "exec"), ns)
        except AttributeError as e:
            raised = traceback.extract_tb(e.__traceback__)[-1].lineno
        assert raised == line, cell
    finally:
        plt.close("all")
