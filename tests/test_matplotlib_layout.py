"""A figure's layout calls asked of a new Figure (facts/matplotlib_values.layout_claim): each claim held against
matplotlib running the same cell (the exception it names, on the line it names, and a stop), the
cell a user means instead runs with no claim, and no probe where a projection is the user's or the
grid is large. Also the facts of a cell that begins with `%matplotlib inline`."""
from __future__ import annotations

import os

import matplotlib
import numpy as np
import pytest
from cells import raised_at

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import kernel_facts


@pytest.fixture
def ns():
    yield {"plt": plt, "np": np, "fig": plt.figure(), "rows": 2, "_dh": [os.getcwd()]}
    plt.close("all")


CLAIMED = [
    ("f, axes = plt.subplots(2, 3, sharex='column')\n", "ValueError"),
    ("f, axes = plt.subplots(2, 2, figsze=(4, 3))\n", "AttributeError"),     # the Figure's own keyword
    ("f, axes = plt.subplots(rows, 2, width_ratios=[1, 2, 3])\n", "ValueError"),
    ("ax = fig.add_subplot((2, 3, 1))\n", "TypeError"),                      # the grid as one tuple
    ("ax = fig.add_subplot(2, 3, 0)\n", "ValueError"),                       # numbered from 0
    ("ax = plt.subplot(2, 3, 7)\n", "ValueError"),
    ("ax = fig.add_subplot(111, projection='3D')\n", "ValueError"),
    ("ax = fig.add_subplot(1, 2, 1, sharey=True)\n", "TypeError"),           # the Axes to share, not True
    ("g = plt.GridSpec(2, 3, height_ratios=[1])\n", "ValueError"),
    ("f = plt.figure()\ng = f.add_gridspec(2, 2, width_ratios=[1, 2, 3])\n", "ValueError"),   # a Figure the cell made
    ("f = plt.figure()\nfor i in range(1, 4):\n    ax = f.add_subplot((1, 3, i))\n", "TypeError"),  # a loop's first pass
    ("ax = plt.axes('equal')\n", "TypeError"),                                # a rectangle's place
    ("f = plt.figure(figsize=(4, 3))\nx = np.linspace(0, 1, 5)\nax = plt.axes(projection='3D')\n",
     "ValueError"),                                       # after a new Figure and numbers alone
]


@pytest.mark.parametrize("cell, exception", CLAIMED)
def test_a_claim_is_matplotlibs_own_error_and_a_stop(cell, exception, ns):
    facts = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
    raised = raised_at(cell, dict(ns))
    assert raised is not None and raised[0] == exception, (cell, raised)
    assert [f.line for f in facts] == [raised[1]] and f": {exception}" in facts[0].message, (cell, facts)
    assert [f.line for f in exact_check(cell, ns).certain] == [raised[1]], cell


MEANT = [
    "f, axes = plt.subplots(2, 3, sharex='col', sharey='row')\n",
    "f, axes = plt.subplots(2, 2, figsize=(4, 3), gridspec_kw={'wspace': 0.1})\n",
    "f, axes = plt.subplots(rows, 3, width_ratios=[1, 2, 3])\n",
    "ax = fig.add_subplot(2, 3, 1)\n", "ax = fig.add_subplot(*(2, 3, 1))\n", "ax = fig.add_subplot(231)\n",
    "ax = plt.subplot(2, 3, 6)\n", "ax = fig.add_subplot(111, projection='polar')\n",
    "ax = plt.subplot(111, polar=True)\n", "g = plt.GridSpec(2, 3, wspace=0.4, hspace=0.3)\nax = plt.subplot(g[0, 0])\n",
    "f = plt.figure()\ng = f.add_gridspec(2, 3, width_ratios=[1, 2, 3])\n",
    "f = plt.figure()\nfor i in range(1, 4):\n    ax = f.add_subplot(1, 3, i)\n",
    "a = fig.add_axes([0.1, 0.1, 0.8, 0.8])\n", "ax = plt.axes([0.1, 0.1, 0.8, 0.8])\n", "ax = plt.axes()\n",
]


@pytest.mark.parametrize("cell", MEANT)
def test_no_claim_where_matplotlib_takes_it(cell, ns):
    assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == [], cell
    assert raised_at(cell, dict(ns)) is None, cell


def test_no_probe_of_a_users_projection_nor_of_a_large_grid(ns):
    from matplotlib.axes import Axes
    from matplotlib.projections import register_projection

    made = []

    class Recorded(Axes):
        name = "recorded_codecheck_test"

        def __init__(self, *args, **kwargs):
            made.append(1)              # the user's class: never run by the facts
            super().__init__(*args, **kwargs)

    register_projection(Recorded)
    kernel_facts("ax = fig.add_subplot(1, 2, 3, projection='recorded_codecheck_test')\n", ns)
    kernel_facts("f, axes = plt.subplots(1, 2, subplot_kw={'projection': 'recorded_codecheck_test'}, "
                 "sharex='column')\n", ns)
    assert made == []
    # 400 Axes would take seconds to make: no probe, no claim
    assert kernel_facts("f, axes = plt.subplots(20, 20, sharex='column')\n", ns) == []


def test_a_backend_line_first_is_read_as_pass():
    ns = {"np": np, "matplotlib": matplotlib, "_dh": [os.getcwd()]}
    for cell, line in [("%matplotlib inline\nimport matplotlib.pylot as plt\n", 2),
                       ("%matplotlib inline\nx = 'density' > 120\n", 2),
                       ("%matplotlib inline\nimport numpy as np\nr = str(2, 3, 1)\n", 3)]:
        check = exact_check(cell, ns, libraries="leading")
        assert [f.line for f in check.findings] == [line] and [f.line for f in check.certain] == [line], cell
    # any other magic may define anything: shown, not a stop
    check = exact_check("%load_ext autoreload\nx = 'density' > 120\n", ns)
    assert check.certain == []


def test_no_stop_where_the_cell_or_the_figure_sets_what_the_new_figure_reads(ns):
    """Found in review: a style set first in the cell, a figure's own subplot parameters, pyplot's
    current Figure of the user's class, a scale of the user's (its class would run)."""
    from matplotlib import scale
    from matplotlib.figure import Figure

    made = []

    class Mine(scale.LinearScale):
        name = "mine_codecheck_test"

        def __init__(self, axis, **kwargs):
            made.append(1)
            super().__init__(axis)

    class MyFig(Figure):
        def add_subplot(self, *args, foo=None, **kwargs):
            return super().add_subplot(*args, **kwargs)

    cells = ["plt.style.use('fivethirtyeight')\nfig, ax = plt.subplots(gridspec_kw={'left': 0.92})\n",
             "fig.subplots_adjust(right=0.99)\naxs = fig.subplots(1, 2, gridspec_kw={'left': 0.95})\n",
             "ax = plt.subplot(2, 2, 1, foo=1)\n",
             "f, axs = plt.subplots(2, 2, subplot_kw={'xscale': 'mine_codecheck_test'}, sharex='column')\n"]
    scale.register_scale(Mine)
    try:
        for cell in cells:
            plt.close("all")
            here = dict(ns, fig=plt.figure(7, FigureClass=MyFig) if "foo" in cell else plt.figure())
            assert exact_check(cell, here).certain == [], cell
        assert made == []
    finally:
        scale._scale_mapping.pop(Mine.name, None)
        plt.style.use("default")
