"""Kernel facts never run the user's code: item reads through a chain (`lab.loc["zz"]`,
`uf[["a"]]`) or through what the cell binds (`c = lab.loc["zz"]` then `c.foo`), and a library's
getter on a subclass of the user's (`uf.T`, `a.T`), with real pandas and numpy objects whose
user hooks record every call."""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts

RAN: list[str] = []          # every user hook that runs appends its name: it must stay empty


class Label:
    """A row label of the user's: pandas hashes and compares it when a key is looked up."""

    def __init__(self, name):
        self.name = name

    @property
    def __class__(self):        # read by an isinstance test (pandas' infer_dtype makes some)
        RAN.append("Label.__class__")
        return Label

    def __hash__(self):
        RAN.append("Label.__hash__")
        return hash(self.name)

    def __eq__(self, other):
        RAN.append("Label.__eq__")
        return self.name == other or (type(other) is Label and self.name == other.name)


class Frame(pd.DataFrame):
    """A DataFrame subclass of the user's that keeps pandas' `__getitem__`: pandas builds what an
    item read returns through its `_constructor` and `__finalize__`."""

    @property
    def _constructor(self):
        RAN.append("Frame._constructor")
        return Frame

    def __finalize__(self, other, method=None, **kwargs):
        RAN.append("Frame.__finalize__")
        return super().__finalize__(other, method, **kwargs)


class LookupFrame(Frame):
    def __getitem__(self, key):
        RAN.append("LookupFrame.__getitem__")
        return super().__getitem__(key)


class Table(dict):
    """A dict subclass that keeps dict's own lookup."""

    def __missing__(self, key):
        RAN.append("Table.__missing__")
        return 0


class Grid(np.ndarray):
    def __array_finalize__(self, obj):
        RAN.append("Grid.__array_finalize__")


class Box:
    def __getitem__(self, key):
        RAN.append("Box.__getitem__")
        return 1


class Copied:
    """Held in a frame's `attrs`: pandas deep-copies those into what an item read returns."""

    def __deepcopy__(self, memo):
        RAN.append("Copied.__deepcopy__")
        return self


@pytest.fixture
def ns():
    lab = pd.Series([1.0, 2.0], index=pd.Index([Label("a"), Label("zz")], dtype=object))
    keyed = pd.DataFrame({"x": [1, 2]}, index=pd.Index(["a", Label("zz")], dtype=object))
    tagged = pd.DataFrame({"a": [1, 2]})
    tagged.attrs["source"] = Copied()
    yield {"lab": lab, "keyed": keyed, "uf": Frame({"a": [1, 2], "b": [3, 4]}),
           "lf": LookupFrame({"a": [1, 2]}), "table": Table(a=[1]), "users": {Label("zz"): 1, "a": [1]},
           "grid": np.arange(6).reshape(2, 3).view(Grid), "box": Box(), "tagged": tagged}


def _silent(cells: list[str], ns) -> None:
    """Each cell gives no fact, and none of the user's hooks ran while it was read."""
    for cell in cells:
        RAN.clear()
        got = kernel_facts(cell, ns)
        assert (cell, RAN, got) == (cell, [], [])


def test_a_lookup_among_a_users_labels_runs_none_of_their_code(ns):
    _silent(['lab.loc["zz"].foo\n', 'c = lab.loc["zz"]\nc.foo\n', 'lab["zz"].foo\n',
             'keyed.loc["zz", "x"].foo\n', 'c = keyed.loc["zz"]\nc.foo\n'], ns)


def test_a_dataframe_subclass_of_the_users_is_not_read_through(ns):
    _silent(['uf[["a"]].foo\n', 'c = uf[["a"]]\nc.foo\n', 'uf["a"].foo\n', 'uf.loc[0].foo\n',
             'c = uf.iloc[0:1]\nc.foo\n', 'uf.T.foo\n', 'lf[["a"]].foo\n', 'c = lf["a"]\nc.foo\n'], ns)


def test_a_numpy_subclass_of_the_users_is_not_read_through(ns):
    _silent(['grid[0:1].foo\n', 'c = grid[1]\nc.foo\n', 'grid.T.foo\n'], ns)


def test_a_mapping_with_a_users_lookup_or_keys_is_not_read_through(ns):
    # a dict subclass's `__missing__`; a user's key compared with the literal (equal hashes)
    _silent(['table["zz"].foo\n', 'c = table["a"]\nc.foo\n', 'users["zz"].foo\n',
             'c = users["zz"]\nc.foo\n', 'box[0].foo\n', 'c = box["a"]\nc.foo\n'], ns)


def test_a_frame_whose_attrs_hold_a_users_object_is_not_read_through(ns):
    # pandas deep-copies `attrs` into what an item read returns
    _silent(['tagged[["a"]].foo\n', 'c = tagged.loc[0:1]\nc.foo\n'], ns)


def test_the_librarys_own_containers_of_plain_labels_are_still_read():
    frame = pd.DataFrame({"a": [1, 2]}, index=pd.Index(["r", "zz"], dtype=object))
    ns = {"frame": frame, "d": {"k": frame, 3: [1]}, "arr": np.zeros((2, 3)),
          "lab": pd.Series([1.0], index=pd.Index(["zz"], dtype=object))}
    cell = ('frame[["a"]].foo\nc = frame.loc["zz"]\nc.bar\nd["k"].baz\narr[0].qux\nlab.loc[["zz"]].x\n'
            'frame.T.quux\n')
    got = [(f.line, f.message) for f in kernel_facts(cell, ns)]
    assert got == [(1, "'DataFrame' object has no attribute 'foo'"), (3, "'Series' object has no attribute 'bar'"),
                   (4, "'DataFrame' object has no attribute 'baz'"), (5, "'ndarray' object has no attribute 'qux'"),
                   (6, "'Series' object has no attribute 'x'"), (7, "'DataFrame' object has no attribute 'quux'")]


def test_a_column_among_a_users_labels_is_no_fact_and_hashes_none_of_them():
    # the user's label might equal "pirce": only its own `__eq__` could tell
    frame = pd.DataFrame([[1, 2]], columns=pd.Index(["price", Label("zz")], dtype=object))
    RAN.clear()
    got = kernel_facts('frame["pirce"]\nframe.sort_values("pirce")\n', {"frame": frame})
    assert RAN == []
    assert got == []


def test_a_conversion_of_a_series_among_a_users_row_labels_is_claimed_and_runs_none_of_their_code():
    rows = pd.Index([Label("p"), Label("q")], dtype=object)
    ns = {"price": pd.Series(["1.5", "n/a"], index=rows), "ids": pd.Series(["1", "2"], index=rows), "pd": pd}
    RAN.clear()
    (fact,) = kernel_facts("p = pd.to_numeric(price)\n", ns)
    assert "the row at position 1 on the value 'n/a'" in fact.message
    assert kernel_facts("i = ids.astype(int)\nj = price - price\n", ns) == []   # arithmetic aligns the labels
    assert RAN == []
    with pytest.raises(ValueError):
        pd.to_numeric(ns["price"])


def test_a_column_of_a_frame_among_a_users_row_labels_is_read_and_hashes_none_of_them():
    # pandas looks `frame["price"]` up among the columns alone; the rows' labels are carried along
    frame = pd.DataFrame({"price": ["1.5", "n/a"], "id": ["1", "2"]}, index=pd.Index([Label("p"), Label("q")], dtype=object))
    RAN.clear()
    (fact,) = kernel_facts('p = pd.to_numeric(frame["price"])\n', {"frame": frame, "pd": pd})
    assert "the row at position 1 on the value 'n/a'" in fact.message
    assert kernel_facts('i = frame[["id"]].astype(int)\nr = frame.loc["p", "id"]\nq = frame[0:1]["id"]\n',
                        {"frame": frame, "pd": pd}) == []       # rows by label or slice: not read
    assert RAN == []


def test_a_sort_by_a_missing_column_reads_the_index_names_without_running_a_users_label():
    # sort_values(by=) also finds an index level of that name: the levels' names are the user's
    frame = pd.DataFrame({"price": [2, 1]}, index=pd.Index(["p", "q"], name=Label("when")))
    RAN.clear()
    (fact,) = kernel_facts('frame.sort_values(by="pirce")\n', {"frame": frame})
    assert "'pirce'" in fact.message and RAN == []
    with pytest.raises(KeyError):
        frame.sort_values(by="pirce")


def test_an_attribute_a_users_column_label_may_answer_is_no_fact():
    frame = pd.DataFrame([[1, 2]], columns=pd.Index(["price", Label("zz")], dtype=object))
    assert frame.zz.tolist() == [2]           # pandas finds it through the label's own `__eq__`
    RAN.clear()
    assert kernel_facts("frame.zz\nframe.pirce\n", {"frame": frame}) == []
    assert RAN == []


def test_a_group_of_a_frame_with_a_users_row_labels_hashes_none_of_them():
    frame = pd.DataFrame({"k": ["x", "y"]}, index=pd.Index([Label("p"), Label("q")], dtype=object))
    RAN.clear()
    kernel_facts('frame.groupby("k").get_group("w")\n', {"frame": frame})
    assert RAN == []


class Signed:
    """A callable object of the user's whose signature is a property."""

    def __call__(self, a):
        return a

    @property
    def __signature__(self):
        RAN.append("Signed.__signature__")
        return None


class Built:
    def __get__(self, obj, owner):
        RAN.append("Built.__get__")
        return lambda *args: None


class Odd:
    __init__ = Built()          # inspect reads a class's `__init__` through the class


def test_a_signature_of_the_users_is_not_read_through_a_partial_or_a_descriptor():
    _silent(["part(2, 3)\n", "Odd(1, 2, 3)\n"], {"part": functools.partial(Signed(), 1), "Odd": Odd})


class Maker:
    """A class of the user's named as a library's constructor is: its call is the user's code."""

    def __init__(self, *args):
        RAN.append("Maker.__init__")


def test_a_chain_from_the_users_frame_a_constructor_of_the_users_and_a_loop_over_their_array_run_nothing(ns):
    ns = {**ns, "Categorical": Maker, "Counter": Maker}
    _silent(['t = uf.dropna().head(2).sort_values(by="zz")\n', 't = lf.groupby("a").get_group(1).set_index("zz")\n',
             'c = Categorical([1])\nc.cat\n', 'c = Counter("ab")\nc.most_comon\n',
             'for i in range(9):\n    v = grid[i]\n', 'for i, c in enumerate(uf):\n    v = grid[i]\n'], ns)


# -- the policy: one object says what may be read of a live object --------------------------------

class Gadget:
    """A class of the user's whose every hook records that it ran: a property, `__getattr__`,
    `__len__`, `__getitem__`, a `__signature__` property and a `__call__`."""

    def __init__(self):
        self.own = 1

    @property
    def size(self):
        RAN.append("Gadget.size")
        return 3

    def __getattr__(self, name):
        RAN.append("Gadget.__getattr__")
        return 0

    def __len__(self):
        RAN.append("Gadget.__len__")
        return 3

    def __getitem__(self, key):
        RAN.append("Gadget.__getitem__")
        return 0

    @property
    def __signature__(self):
        RAN.append("Gadget.__signature__")
        raise AttributeError

    def __call__(self, *args):
        RAN.append("Gadget.__call__")


def test_the_policy_reads_a_users_object_without_running_its_property_getattr_or_len():
    import ast

    from jupyter_codecheck.facts.read_policy import POLICY
    g = Gadget()
    RAN.clear()
    assert POLICY.has_attribute(g, "nothing") is None          # its `__getattr__` may answer: no claim
    assert POLICY.attribute(g, "size") is POLICY.UNKNOWN        # a property of the user's: not read
    assert POLICY.attribute(g, "own") == 1                      # an instance's own value is
    assert type(POLICY.static(g, "size")) is property           # the member, not its value
    assert POLICY.item(g, ast.parse("g[0]").body[0].value.slice) is POLICY.UNREADABLE
    assert POLICY.own_attributes(g) == [1]
    assert POLICY.signature(g) is None and not POLICY.is_library(g)
    assert RAN == []
    _silent(["g.size.bit_lenght()\n", "len(g)\ng.nothing\n", "g[0].foo\n", "g(1, 2, x=3)\n"], {"g": g})


# the modules that read live objects themselves: the policy and the readers it asks
POLICY_READERS = {"read_policy", "libraries", "attributes", "items", "signatures", "held", "namespace"}
# what reads an object, a class's or a module's slots itself: the readers and these raw reads
READERS = {"getattr_static", "read_attribute", "read_item", "has_attribute", "own_attributes", "own_dict",
           "is_library_object", "_signature", "_module_of", "vars", "getmro"}


def _raw_reads(tree) -> list[int]:
    """The lines of a module that read an object themselves: a reader called, an object's
    `__dict__` or `__mro__` read (`mod.__dict__`, `type.__dict__["__mro__"]`), a slot's
    `__get__` or `object.__getattribute__` called."""
    import ast
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "attr", getattr(func, "id", None))
            asked = isinstance(func, ast.Attribute) and getattr(func.value, "id", None) == "POLICY"
            if (name in READERS and not asked) or name in ("__get__", "__getattribute__"):
                lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in ("__dict__", "__mro__"):
            lines.append(node.lineno)
    return sorted(set(lines))


def test_every_other_module_of_the_facts_asks_the_policy():
    """No module of the facts but the policy's readers calls `inspect.getattr_static`, a reader
    (`read_attribute`, `read_item`, `has_attribute`, `own_attributes`, `own_dict`,
    `is_library_object`, `_module_of`, `vars`) or reads a class's, a module's or an instance's
    slots itself (`type.__dict__["__mro__"].__get__(cls, type)`, `object.__getattribute__(obj,
    "__dict__")`, `mod.__dict__`): each is a method of POLICY."""
    import ast
    from pathlib import Path

    import jupyter_codecheck.facts as facts
    direct = {}
    for path in Path(facts.__file__).parent.glob("*.py"):
        if path.stem in POLICY_READERS:
            continue
        found = _raw_reads(ast.parse(path.read_text()))
        if found:
            direct[path.stem] = found
    assert direct == {}


def test_the_raw_reads_find_what_a_users_metaclass_module_or_dict_property_would_hide():
    """The policy's slot reads give a class's module, mro and members, a module's globals and an
    instance's own dict without running a metaclass's `__getattribute__` or a module subclass's
    `__dict__` property, and refuse (AttributeError, no claim) an instance whose class hides its
    dict behind a property of its own; the plain reads run each."""
    import types

    from jupyter_codecheck.facts.read_policy import POLICY

    class Meta(type):
        def __getattribute__(cls, name):
            RAN.append(f"Meta.{name}")
            return type.__getattribute__(cls, name)

    class Odd(metaclass=Meta):
        x = 1

    class Lazy(types.ModuleType):
        @property
        def __dict__(self):
            RAN.append("Lazy.__dict__")
            return {}

    class Hidden:
        @property
        def __dict__(self):
            RAN.append("Hidden.__dict__")
            return {}

    mod, hidden = Lazy("lazy"), Hidden()
    mod.a = 1
    hidden.b = 2
    RAN.clear()
    assert POLICY.class_module(Odd) == __name__ and POLICY.mro(Odd) == (Odd, object)
    assert POLICY.class_members(Odd)["x"] == 1
    assert POLICY.module_members(mod)["a"] == 1 and POLICY.own_dict(Odd()) == {}
    with pytest.raises(AttributeError):
        POLICY.own_dict(hidden)
    assert RAN == []
    # what the facts read before: a metaclass's and a `__dict__` property's code ran
    assert (Odd.__module__, vars(mod), object.__getattribute__(hidden, "__dict__")) == (__name__, {}, {})
    assert RAN == ["Meta.__module__", "Lazy.__dict__", "Hidden.__dict__"]
    with pytest.raises(AttributeError):
        POLICY.own_dict(3)                  # no instance dict: as object.__getattribute__ raises


class Rows:
    """An X of the user's: numpy and scikit-learn would call its hooks to read it."""

    @property
    def shape(self):
        RAN.append("Rows.shape")
        return (3, 2)

    def __array__(self, dtype=None, copy=None):
        RAN.append("Rows.__array__")
        return np.zeros((3, 2))

    def __len__(self):
        RAN.append("Rows.__len__")
        return 3

    def __getitem__(self, key):
        RAN.append("Rows.__getitem__")
        return np.zeros(2)


def test_scikit_learns_input_checks_read_no_users_x_or_y():
    """Issue 50's input checks (width, 2-D, lengths, text) on a fitted estimator, one made and
    fitted in the cell, a split and a literal beside the user's object: none of its hooks runs."""
    from sklearn.linear_model import LinearRegression
    RAN.clear()
    fitted = LinearRegression().fit(np.zeros((4, 3)), np.zeros(4))
    ns = {"model": fitted, "LinearRegression": LinearRegression, "X": Rows(), "y": Rows(), "np": np}
    cells = ["model.predict(X)\n", "model.fit(X, [1, 2])\n", "m = LinearRegression().fit(X, y)\nm.predict([[1, 2, 3]])\n",
             "from sklearn.model_selection import train_test_split\na, b, c, d = train_test_split(X, y)\n",
             "model.score(X, np.array([1, 2, 3, 4, 5]))\n"]
    for cell in cells:
        kernel_facts(cell, ns)
    assert RAN == []
    # the same cell with a library's array of the wrong width in X's place is a fact: the check ran
    assert kernel_facts("model.predict(X)\n", {**ns, "X": np.zeros((3, 2))})


def test_an_estimator_whose_class_hides_its_dict_behind_a_property_runs_none_of_it_and_is_no_fact():
    """A subclass of the user's of scikit-learn's estimators with a `__dict__` property: Python
    still finds `coef_` in the instance's own dict, which only the property would show, so no
    read of the facts runs it and none claims an attribute or a width of it."""
    from sklearn.linear_model import LinearRegression

    class Hiding(LinearRegression):
        @property
        def __dict__(self):
            RAN.append("Hiding.__dict__")
            return {}

    model = Hiding().fit(np.zeros((4, 3)), np.zeros(4))
    assert model.coef_.shape == (3,)         # Python reads the instance's own dict, not the property
    RAN.clear()
    _silent(["model.coef_.shape\n", "model.predict(X)\n", "model.fit(X, y)\n", "model.score(X, y)\n"],
            {"model": model, "X": np.zeros((3, 2)), "y": np.zeros(5)})
    # the same cells on the library's own class are facts: the reads ran
    plain = LinearRegression().fit(np.zeros((4, 3)), np.zeros(4))
    ns = {"plain": plain, "X": np.zeros((3, 2))}
    assert [[f.kind for f in kernel_facts(cell, ns)] for cell in ("plain.coef_.shap\n", "plain.predict(X)\n")] == \
        [["attribute"], ["call"]]


def test_pandas_cut_on_a_series_among_a_users_row_labels_is_claimed_and_runs_none_of_their_code():
    # the labels rule runs pandas' own cut on the first rows; the rows' labels are carried along
    s = pd.Series([1.0, 2.5, 4.0], index=pd.Index([Label("p"), Label("q"), Label("r")], dtype=object))
    RAN.clear()
    (fact,) = kernel_facts('b = pd.cut(s, bins=[0, 2, 5], labels=["low", "mid", "high"])\n', {"s": s, "pd": pd})
    assert "labels" in fact.message and RAN == []
    with pytest.raises(ValueError, match="one fewer"):
        pd.cut(s, bins=[0, 2, 5], labels=["low", "mid", "high"])
