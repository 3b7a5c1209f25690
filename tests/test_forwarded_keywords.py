"""A keyword a library function takes only into `**kwargs` and passes on, in one call its body
always reaches, to a callable whose signature refuses it (pandas' `date_range` to
`DatetimeArray._generate_range`): a call fact, held against the library by running the call."""
from __future__ import annotations

import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts


def raised(cell: str, ns: dict) -> str | None:
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - what the library raises is compared
        return type(e).__name__
    return None


@pytest.mark.parametrize("cell, keyword, near", [
    ('i = pd.date_range("2000-01-01", peirods=10)\n', "peirods", "periods"),
    ('i = pd.date_range("2012-05-02", periods=5, normlaize=True)\n', "normlaize", "normalize"),
    ('i = pd.date_range("2012-01-01", "2012-09-01", fred="W-WED")\n', "fred", "freq"),
])
def test_a_keyword_passed_on_to_a_callable_that_refuses_it(cell, keyword, near):
    ns = {"pd": pd}
    facts = kernel_facts(cell, ns)
    assert [(f.kind, f.message.split("argument ")[1].split(" ")[0]) for f in facts] == [("call", repr(keyword))]
    assert near in facts[0].candidates
    assert raised(cell, ns) == "TypeError"


def test_no_claim_where_the_keyword_is_taken_or_the_function_is_the_users():
    def mine(start, **kwargs):
        return pd.date_range(start, **{k: v for k, v in kwargs.items() if k != "peirods"})

    ns = {"pd": pd, "mine": mine}
    for cell in ('i = pd.date_range("2000-01-01", periods=10, unit="s")\n',      # the inner signature's own
                 'i = mine("2000-01-01", peirods=10, periods=2)\n',               # a function of the user's
                 'i = pd.bdate_range("2000-01-01", periods=3, peirods=1)\n'):     # passed on to **kwargs again
        assert [f for f in kernel_facts(cell, ns) if f.kind == "call"] == [], cell
    assert raised('i = mine("2000-01-01", peirods=10, periods=2)\n', ns) is None


# -- a class's keywords passed up its __init__s by super().__init__(..., **kwargs) -----------------

def _animations():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import animation
    fig, ax = plt.subplots()
    return plt, {"animation": animation, "fig": fig, "step": lambda i: [], "frames": [[ax.plot([1], [i])[0]] for i in range(3)]}


@pytest.mark.parametrize("cell, refused", [
    ("a = animation.FuncAnimation(fig, step, 5, repeat=False, bli=True)\n", "bli"),
    ("a = animation.FuncAnimation(fig, step, frames=5, intervall=20)\n", "intervall"),
    ("a = animation.ArtistAnimation(fig, frames, interval=50, repat_delay=10)\n", "repat_delay"),
    ("a = animation.FuncAnimation(fig, step, 5, repeat=False, blit=True, interval=10, repeat_delay=5)\n", None),
    ("a = animation.ArtistAnimation(fig, frames, interval=50, blit=True, event_source=None)\n", None),
])
def test_a_keyword_passed_up_a_library_classs_inits_is_refused_where_the_last_refuses_it(cell, refused):
    plt, ns = _animations()
    try:
        facts = kernel_facts(cell, ns)
        assert [f.kind for f in facts] == (["call"] if refused else []), facts
        assert raised(cell, ns) == ("TypeError" if refused else None)
        if refused:
            assert repr(refused) in facts[0].message and "Animation.__init__" in facts[0].message
    finally:
        plt.close("all")


def test_no_claim_where_a_subclass_of_the_users_takes_the_keyword():
    plt, ns = _animations()
    animation = ns["animation"]

    class Mine(animation.FuncAnimation):
        def __init__(self, *args, bli=False, **kwargs):
            super().__init__(*args, **kwargs)

    cell = "a = Mine(fig, step, 5, bli=True)\n"
    try:
        assert kernel_facts(cell, {**ns, "Mine": Mine}) == []
        assert raised(cell, {**ns, "Mine": Mine}) is None
    finally:
        plt.close("all")
