"""matplotlib's rules on the values a plotting call is given (facts/matplotlib_values.py, and the
scatter sizes of facts/plots.py): a claim exactly where running the cell raises that error, on
the value refused, none where matplotlib takes the value or may not read it; the fix offered
runs. Each rule against matplotlib running, both ways."""
from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from jupyter_codecheck.core.exact_findings import exact_check  # noqa: E402
from jupyter_codecheck.facts import kernel_facts  # noqa: E402
from jupyter_codecheck.facts import matplotlib_properties, matplotlib_values  # noqa: E402


@pytest.fixture
def ns():
    fig, ax = plt.subplots()
    x = np.linspace(0, 1, 10)
    yield {"plt": plt, "np": np, "ax": ax, "fig": fig, "x": x, "y": x ** 2, "labels": np.arange(7),
           "rgb": np.array([0.1, 0.2, 0.3]), "n": 4, "names": ["a", "b"]}
    plt.close("all")


def _raised(cell: str, ns: dict):
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - whatever matplotlib raises is compared
        return e
    finally:
        plt.close("all")
        ns["fig"], ns["ax"] = plt.subplots()
    return None


REFUSED = [
    # a property the artist's setter refuses, and the method with it
    'plt.plot(x, y, marker="z")\n',
    'ax.plot(x, y, linestyle="dotted-")\n',
    'plt.plot(x, y, color="bleu")\n',
    'plt.plot(x, y, alpha=1.5)\n',
    'plt.plot(x, y, drawstyle="step")\n',
    'plt.fill_between(x, y, alpha=2)\n',
    'plt.text(0.5, 0.5, "hi", ha="centre")\n',
    'plt.xlabel("x", fontsize="hugee")\n',
    'plt.scatter(x, y, facecolor="bleu")\n',
    # what the method checks itself, whatever the data
    'plt.hist(y, bins=5, histtype="bars")\n',
    'ax.bar([1], [2], align="centre", colr="r")\n',           # the align first: its ValueError
    'plt.title("t", loc="centre")\n',
    'plt.scatter(x, y, c=y, cmap="viridiss")\n',
    'plt.hist(y, bins="autoo")\n',
    'plt.step(x, y, where="middle")\n',
    'plt.errorbar(x, y, yerr=0.1, fmt="zz")\n',
    'plt.vlines(x, 0, 1, colors="bleu")\n',
    'plt.scatter(x, y, alpha=1.5)\n',
    'plt.imshow(np.zeros((3, 3)), cmap="gray_rr")\n',
    # a format string
    'plt.plot(x, y, "gz")\n',
    'plt.plot(x, y, "r", x, y * 2, "gz")\n',
    'ax.plot(y, "bleu")\n',
    # a legend's
    'plt.plot(x, y, label="a")\nplt.legend(loc="upper centre")\n',
    'fig.legend(loc="best")\n',                                 # a Figure places no legend itself
    'ax.legend(loc=11)\n',
    # an Axes method's own `_api` checks, with literal arguments only
    'plt.grid(which="mayor")\n',
    'plt.xscale("logarithmic")\n',
    'ax.set_xscale("nosuchscale", bse=2)\n',                   # the scale's name refused first
    'ax.tick_params(axis="z", labelsiz=3)\n',                  # the axis is checked first
    'plt.plot(x, y)\nplt.axis("tigth")\n',                      # axis' own reading of its arguments
    'ax.axis([0, 1, 2])\n',
    # a grid position, written or a loop's
    'plt.subplot(2, 2, 5)\n',
    'for i in range(5):\n    plt.subplot(2, 2, i + 1)\n    plt.plot(x, y)\n',
    'for i in range(n + 1):\n    plt.subplot(2, 2, i + 1)\n',
    'for i in range(0, 4):\n    plt.subplot(2, 2, i)\n',
    'for i in range(5):\n    plt.subplot(221 + i)\n',
    'f = plt.figure()\nfor i in range(10):\n    a = f.add_subplot(3, 3, i + 1)\n',
    'for i in range(4):\n    a = fig.add_subplot(2, 2, i, xticks=[], yticks=[])\n',   # the Axes' keywords after
    # scatter's sizes and colours of another count than the points
    'plt.scatter(x, y, c=y[:5])\n',
    'plt.scatter(x, y, c=labels, cmap="jet", s=50)\n',
    'plt.scatter(x, y, s=labels)\n',
    # an argument by place, bound to the parameter it names (scatter's sizes, errorbar's errors)
    'plt.scatter(x, y, "o")\n',
    'ax.scatter(x, y, "o", c="r")\n',
    'plt.errorbar(x, y, -0.1)\n',
    'plt.errorbar(x, y, xerr=-1, fmt="o")\n',
    'plt.imshow(np.zeros((3, 3)), "gray_rr")\n',
]

TAKEN = [
    'plt.plot(x, y, marker="o", color="C1", lw=2, ls=":", alpha=0.5, drawstyle="steps-mid")\n',
    'plt.plot(x, y, "r--", label="a")\n',
    'plt.plot(x, y, "C1o")\n',
    'plt.text(0.5, 0.5, "hi", multialignment="centre")\n',     # stored, read only when drawn
    'ax.step(x, y, drawstyle="zzz")\n',                         # step sets it itself
    'plt.scatter(x, y, c="r", facecolor="bleu")\n',             # c's colours first
    'plt.scatter(x, y, c=["r", "g"] * 5, cmap="viridiss")\n',   # colours: no colormap read
    'plt.scatter(x, y, c=rgb)\n',                               # three numbers: one colour
    'plt.scatter(x, y, s=x * 100, c=y, cmap="viridis")\n',
    'plt.bar([1, 2], [3, 4], color=["r", "g"], align="edge")\n',
    'plt.hist(y, histtype="step", orientation="horizontal")\n',
    'plt.legend(loc="best")\n',
    'fig.legend(loc="outside upper right")\n',
    'plt.grid(True, which="both")\n',
    'plt.yscale("log")\n',
    'plt.margins(0.1)\n',
    'plt.plot(x, y)\nplt.axis("tight")\n',
    'ax.axis([0, 1, 2, 3])\n',
    'plt.axis("off")\n',
    'plt.subplot(2, 2, 4)\n',
    'for i in range(4):\n    plt.subplot(2, 2, i + 1)\n',
    'for i in range(4):\n    plt.subplot(221 + i)\n',
    'for i in range(4):\n    a = fig.add_subplot(2, 2, i + 1, xticks=[], yticks=[])\n',
    'for i in range(6):\n    if i > 3:\n        break\n    plt.subplot(2, 2, i + 1)\n',
    'for i in range(6):\n    if i > 3:\n        continue\n    plt.subplot(2, 2, i + 1)\n',
    'plt.scatter(x, y, 20, "r")\n',
    'plt.scatter(x, y, 0)\n',
    'plt.errorbar(x, y, 0.1, 0.2, "o")\n',
    'plt.errorbar(x, y, yerr=0)\n',
    'plt.imshow(np.zeros((3, 3)), "gray")\n',
    'plt.bar([1, 2], [3, 4], 0.5)\n',
]


@pytest.mark.parametrize("cell", REFUSED)
def test_a_refused_value_is_claimed_with_the_error_matplotlib_raises(cell, ns):
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert raised is not None and got, (got, raised)
    fact = got[0]
    assert f": {type(raised).__name__}" in fact.message, (fact.message, raised)
    if fact.candidates:                 # the value meant, written in its place, runs
        line = cell.splitlines()[fact.line - 1]
        fixed = cell.replace(line, line[:fact.column] + fact.candidates[0] + line[fact.end_column:])
        assert kernel_facts(fixed, ns) == [] or "colr" in cell or "bse" in cell or "labelsiz" in cell, fixed


@pytest.mark.parametrize("cell", TAKEN)
def test_no_claim_where_matplotlib_takes_the_value_or_never_reads_it(cell, ns):
    assert kernel_facts(cell, ns) == [], cell
    assert _raised(cell, ns) is None, cell


def test_no_claim_where_the_users_code_runs_first_or_the_value_is_not_written(ns):
    ns = dict(ns, style="zz", hook=lambda: None)
    for cell in ['plt.plot(x, y, marker=style)\n',                       # not a literal
                 'hook()\nplt.plot(x, y, marker="z")\n',                 # the user's code first
                 'plt.plot(x, y, "gz", data={"x": 1})\n',                # a key with data=
                 'for i in range(len(names) + 3):\n    plt.subplot(2, 2, i + 1)\n']:  # not read
        assert kernel_facts(cell, ns) == [], cell


# a property's bad values, asked of every method of the table: where the module's rule refuses
# one, the method with other data of its kinds (longer, 2-D, categories) refuses it the same way
OTHER_DATA = {
    "plot": (np.random.rand(20, 3),), "semilogx": (np.arange(1, 30), np.arange(1, 30)),
    "semilogy": (np.arange(1, 9), np.arange(1, 9)), "loglog": (np.arange(1, 5), np.arange(1, 5)),
    "scatter": (np.random.rand(50), np.random.rand(50)), "bar": (["a", "b", "c"], [3, 1, 2]),
    "barh": (["a"], [3]), "hist": (np.random.randn(100, 2),), "axhline": (), "axvline": (),
    "set_xlabel": ("longer label",), "set_ylabel": ("",), "set_title": ("",), "text": (0.5, 0.2, "other"),
    "annotate": ("b", (1, 2)), "fill": (np.random.rand(5), np.random.rand(5)), "errorbar": (np.arange(5), np.arange(5)),
    "step": (np.arange(9), np.arange(9)), "imshow": (np.random.rand(5, 5, 3),), "vlines": (np.arange(4), -1, 2),
    "hlines": (3, 0, 1), "axvspan": (2, 5), "axhspan": (-1, 1), "pcolormesh": (np.random.rand(4, 6),),
    "hexbin": (np.random.rand(40), np.random.rand(40)), "fill_between": (np.arange(6), np.arange(6) ** 2),
    "fill_betweenx": (np.arange(6), np.arange(6)), "matshow": (np.random.rand(3, 7),), "stairs": (np.arange(5),),
}
BAD = ["zzq", 1.5, -2, "", "center"]
PROPERTIES = ["color", "marker", "ls", "alpha", "drawstyle", "ha", "fontsize", "hatch", "cmap", "facecolor",
              "interpolation", "histtype", "align", "shading", "loc", "data", "bins", "where", "fmt", "ecolor",
              "colors", "linestyles", "step"]


def test_every_refusal_the_rule_finds_holds_for_other_data():
    assert set(OTHER_DATA) == set(matplotlib_values.PROBE_DATA)
    axes = Figure().add_subplot()
    claimed = 0
    for method in matplotlib_values.PROBE_DATA:
        _, cls, functions, _, _ = matplotlib_properties._made(getattr(axes, method))
        own = matplotlib_values._parameters(functions[0])
        for name in PROPERTIES:
            for bad in BAD:
                for numbers in (False, True) if method == "scatter" else (False,):
                    given = frozenset({"c"}) if numbers and method == "scatter" else frozenset()
                    refused = matplotlib_values.refused_value(method, cls, own, name, bad, given, numbers)
                    if refused is None:
                        continue
                    claimed += 1
                    extra = {"c": np.random.rand(len(OTHER_DATA[method][0]))} if given else {}
                    with pytest.raises(Exception) as e:         # the type is compared below
                        getattr(Figure().add_subplot(), method)(*OTHER_DATA[method], **extra, **{name: bad})
                    assert type(e.value).__name__ == refused[0], (method, name, bad)
    assert claimed > 150


HEATMAP = [
    ("sns.heatmap(mat.T, square=True, annot=True, fmt='d', cbar=False, cmap='blues')\n", "'Blues'"),
    ("sns.heatmap(mat, anot=True)\n", "annot=True"),
    ('sns.heatmap(mat, linecolor="bleu", linewidths=1)\n', None),
    ("sns.heatmap(mat, center='mid')\n", None),
]


@pytest.mark.parametrize("cell, meant", HEATMAP)
def test_seaborns_heatmap_keywords_are_asked_of_heatmap(cell, meant, ns):
    import seaborn as sns
    ns = dict(ns, sns=sns, mat=np.arange(9).reshape(3, 3))
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert raised is not None and len(got) == 1 and f": {type(raised).__name__}" in got[0].message or \
        isinstance(raised, TypeError) and got[0].message.endswith(": TypeError"), (got, raised)
    assert got[0].candidates[:1] == ([meant] if meant else [])
    if meant:
        line = cell.splitlines()[0]
        fixed = line[:got[0].column] + meant + line[got[0].end_column:] + "\n"
        assert _raised(fixed, ns) is None and kernel_facts(fixed, ns) == [], fixed


def test_no_heatmap_claim_where_the_data_decides_or_the_value_is_taken(ns):
    import seaborn as sns
    ns = dict(ns, sns=sns, mat=np.arange(9).reshape(3, 3), f=np.ones((3, 3)) / 3)
    for cell in ["sns.heatmap(mat, annot=True, fmt='d', cmap='Blues', square=True, cbar=False)\n",
                 "sns.heatmap(f, annot=True, fmt='d')\n",           # floats with 'd': the data's, not read
                 "sns.heatmap(mat, xticklabels=['a', 'b', 'c', 'd'])\n",
                 "sns.heatmap(mat, center=0, vmin=-1, vmax=1, linewidths=0.5)\n"]:
        assert kernel_facts(cell, ns) == [], cell


def test_no_stop_where_a_review_found_matplotlib_takes_the_value(ns):
    """Found in review: c not mapped through cmap (colours, or not as many numbers as points),
    `data=` keys, bar's facecolor over color, a format string grouped otherwise, a 3-D Axes'
    own axes, a call under a condition in the loop, a huge or stepless range."""
    import pandas as pd
    from mpl_toolkits.mplot3d import Axes3D  # noqa: F401 - registers the projection
    ax3 = Figure().add_subplot(projection="3d")
    ns = dict(ns, df=pd.DataFrame({"gdp": [1, 2], "life": [3, 4], "colour": ["r", "g"]}), ax3=ax3,
              rgba=[0.1, 0.2, 0.3, 1.0], big=10 ** 20)
    for cell in ['plt.scatter(x, y, c=[0.1, 0.2, 0.3], cmap="viridiss")\n',
                 'plt.scatter(x, y, c=np.random.rand(10, 3), cmap="viridiss")\n',
                 'plt.scatter(x, y, c=[], cmap="viridiss")\n',
                 'plt.scatter("gdp", "life", color="colour", data=df)\n',
                 'plt.bar([1, 2], [3, 4], color="bleu", facecolor="r")\n',
                 'plt.plot([1], "gz", "r")\n',
                 'ax3.locator_params(axis="z", nbins=4)\n',
                 'for i in range(5):\n    if i < 4:\n        plt.subplot(2, 2, i + 1)\n']:
        got = exact_check(cell, ns)
        assert got.certain == [] and kernel_facts(cell, ns) == [], cell
        assert _raised(cell, ns) is None, cell
    for cell in ['x.foo\nfor i in range(big):\n    i.bit_length()\n',
                 'x.foo\nfor i in range(0, 4, 0):\n    pass\n']:
        assert [f.line for f in exact_check(cell, ns).certain] == [1], cell   # the loop read no further


def test_a_refusal_is_asked_again_and_nothing_of_the_users_runs(ns, monkeypatch):
    """A colormap registered after a refusal is taken; a cell that registers one is asked
    nothing; a method of the user's set on a class a probe runs through stops every probe."""
    from matplotlib.colors import ListedColormap
    cell = 'plt.imshow(np.eye(3), cmap="brand39")\n'
    assert kernel_facts(cell, ns)
    matplotlib.colormaps.register(ListedColormap(["r", "g"], name="brand39"))
    try:
        assert kernel_facts(cell, ns) == [] and _raised(cell, ns) is None
    finally:
        matplotlib.colormaps.unregister("brand39")
    assert kernel_facts('matplotlib.colormaps.register(ListedColormap(["r"], name="b2"))\n' + cell.replace("39", "2"),
                        dict(ns, matplotlib=matplotlib, ListedColormap=ListedColormap)) == []
    ran = []
    from matplotlib.markers import MarkerStyle
    original = MarkerStyle._set_marker
    monkeypatch.setattr(MarkerStyle, "_set_marker", lambda self, m: (ran.append(m), original(self, m))[1])
    assert kernel_facts('plt.plot(x, y, marker="zz")\n', ns) == [] and ran == []


@pytest.mark.parametrize("cell, refused", [
    ('fig, ax = plt.subplots(2, 2, subplot_kw={"projection": "polar", "theta_ofset": 1})\n', True),
    ('fig, ax = plt.subplots(subplot_kw={"aspect": "equal", "facecolr": "w"})\n', True),
    ('fig, ax = plt.subplots(subplot_kw=dict(aspect="equal", facecolr="w"))\n', True),
    ('fig, ax = plt.subplots(2, 2, subplot_kw={"projection": "polar", "theta_offset": 1})\n', False),
    ('fig, ax = plt.subplots(1, 2, subplot_kw=dict(xticks=[], yticks=[]))\n', False),
])
def test_subplot_kw_keys_are_the_new_axes_properties(cell, refused, ns):
    got = kernel_facts(cell, ns)
    raised = _raised(cell, ns)
    assert bool(got) == refused == (type(raised) is AttributeError), (got, raised)
    if got:
        line = cell.splitlines()[0]
        fixed = line[:got[0].column] + got[0].candidates[0] + line[got[0].end_column:] + "\n"
        assert _raised(fixed, ns) is None and kernel_facts(fixed, ns) == [], fixed


def test_the_current_axes_gca_gives_is_read_where_it_is_matplotlibs_own(ns):
    assert [f.line for f in exact_check('ax = plt.gca()\nax.plot(x, y, marker="zz")\n', ns).certain] == [2]
    for cell in ['plt.subplot(projection="polar")\nax = plt.gca()\nax.set_xscale("log")\n',   # a polar Axes' own
                 'ax = plt.gca()\nax.plot(x, y, marker="o")\n']:
        assert kernel_facts(cell, ns) == [], cell
    polar = plt.figure().add_subplot(projection="polar")
    assert kernel_facts('ax = plt.gca()\nax.grid(which="mayor")\n', dict(ns, polar=polar)) == []   # gca: the polar one


def test_numpys_own_functions_choose_no_figure_whatever_their_keywords(ns):
    cell = '{}\nax = plt.gca()\nax.plot(x, y, marker="zz")\n'
    for call in ["t = np.linspace(0, 1, num=200)", "t = np.random.rand(3)", "t = np.sqrt(x)"]:
        assert [f.line for f in exact_check(cell.format(call), ns).certain] == [3], call
    # a figure's number or class, or numpy's name bound to another object: gca may be another Axes
    plt.figure(num=7).add_subplot(projection="polar")
    fake = type(np)("numpy")
    fake.linspace = plt.figure
    for call in ["plt.figure(num=7)", "f = plt.figure\nf(num=7)", "np = fake\nnp.linspace(num=7)",
                 "fake.linspace(num=7)", "make(num=7)"]:
        assert kernel_facts(cell.format(call), dict(ns, fake=fake, make=plt.figure)) == [], call


def test_no_heatmap_claim_on_another_axes_class_or_after_the_users_patch(ns, monkeypatch):
    """Found in review: heatmap draws on the Axes it is given (a projection's own pcolormesh),
    a data-shaped `norm`, and a function of seaborn's the user replaced (it would run)."""
    import seaborn as sns
    import seaborn.matrix
    polar = Figure().add_subplot(projection="polar")
    ns = dict(ns, sns=sns, mat=np.arange(9).reshape(3, 3) / 10 + 0.05, polar=polar)
    assert kernel_facts("sns.heatmap(mat, cmap='blues', ax=polar)\n", ns) == []
    assert kernel_facts("sns.heatmap(mat, norm='logit')\n", ns) == []
    assert kernel_facts("sns.heatmap(mat, cmap='blues', ax=ax)\n", ns)           # matplotlib's Axes: asked
    ran = []
    original = seaborn.matrix._matrix_mask
    monkeypatch.setattr(seaborn.matrix, "_matrix_mask", lambda *a, **k: (ran.append(1), original(*a, **k))[1])
    assert kernel_facts("sns.heatmap(mat, cmap='blues')\n", ns) == [] and ran == []
