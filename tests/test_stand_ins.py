"""Lookups, shape methods and makers asked of pandas and numpy themselves (facts/stand_ins.py):
each claim held against the library running the same cell (the exception it names, on the line
it names, and a stop), the cell a user means instead runs with no claim, and no claim where the
class, a label or a method is the user's."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from cells import raised_at

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import kernel_facts


def namespace() -> dict:
    keys = [("Lyon", 2001), ("Lyon", 2011), ("Nice", 2001), ("Nice", 2011)]
    rows = pd.MultiIndex.from_tuples(keys, names=["city", "year"])
    sales = pd.Series([5.0, 6.0, 7.0, 8.0], index=rows)
    columns = pd.MultiIndex.from_product([["Ann", "Tom"], ["pulse", "temp"]], names=["who", "what"])
    return {"pd": pd, "np": np, "keys": keys, "flat": pd.Series([1, 2, 3, 4], index=keys), "sales": sales,
            "visits": pd.DataFrame(np.arange(16.0).reshape(4, 4), index=rows, columns=columns),
            "shuffled": pd.Series([1, 2, 3, 4], index=pd.MultiIndex.from_product([["b", "a"], [1, 2]])),
            "prices": pd.DataFrame({"item": ["tea", "jam"], "eur": [2.5, 4.0]}, index=["t", "j"]),
            "grid": np.arange(20).reshape(4, 5), "cube": np.zeros((2, 3, 4)),
            "odd": np.array([True, False, True, False]), "few": np.array([False, True, True, True, False]),
            "idx": pd.IndexSlice, "count": 7, "rate": 0.5, "label": "n", "items": [1, 2], "pair": (1, 2),
            "rng": np.random.default_rng(1), "legacy": np.random.RandomState(1), "edges": np.linspace(-5, 5, 20),
            "intercept": np.float64(2.5), "days365": np.arange(365.0),
            "names": pd.Series(["Graham Chapman", "John Cleese", None]), "words": pd.Index(["a b", "c"]),
            "euros": pd.Series([2.5, 4.0], index=["t", "j"]), "wanted": pd.Series(["item"]),
            "cheap": pd.Series([True, False], index=["t", "j"]),
            "people": np.zeros(4, dtype={"names": ("name", "age"), "formats": ("U10", "i4")}),
            "_dh": [os.getcwd()]}         # IPython's directory history: a kernel's own namespace


CLAIMED = [
    ("flat['Lyon':'Nice']\n", "TypeError"),              # text slicing an index of plain tuples
    ("sales[2011]\n", "KeyError"),                        # an inner level's label alone
    ("sales.loc['Nice', 2021]\n", "KeyError"),
    ("sales.iloc['Lyon':'Nice']\n", "TypeError"),         # labels to the positional indexer
    ("visits.loc[:2, :2]\n", "TypeError"),                # positions to the label indexer
    ("v = visits[idx[:, 2001], idx[:, 'temp']]\n", "InvalidIndexError"),   # .loc left out
    ("shuffled['a':'b']\n", "UnsortedIndexError"),
    ("prices.loc['t', 'eur', 'x']\n", "IndexingError"),
    ("w = sales.unstack(level=2)\n", "IndexError"),
    ("w = sales.unstack(level='years')\n", "KeyError"),
    ("w = sales.swaplevel('city', 'month')\n", "KeyError"),
    ("p = prices.sort_values(by='eur', ascending='no')\n", "ValueError"),
    ("prices.insert('kg', 1, [1, 2])\n", "TypeError"),
    ("m = pd.MultiIndex(keys)\n", "TypeError"),
    ("m = pd.MultiIndex.from_arrays(['a', 'b'], [1, 2])\n", "TypeError"),
    ("d = pd.to_datetime(['2024-13-45'])\n", "DateParseError"),
    ("g = grid[odd, few]\n", "IndexError"),               # masks selecting 2 and 3: no broadcast
    ("g = grid[4]\n", "IndexError"),
    ("c = cube.transpose(1, 2)\n", "ValueError"),
    ("c = cube.reshape(5, 5)\n", "ValueError"),
    ("c = np.swapaxes(grid, 0, 2)\n", "AxisError"),
    ("c = np.arange(12).reshape(3, 4)\nd = c[3, 0]\n", "IndexError"),     # an array the cell made
    ("X = np.ones((6, 4))\nc = X[:, [0, 9]].sum(axis=2)\n", "IndexError"),    # the index refused first
    ("r = grid.reshape[2, 10]\n", "TypeError"),           # a method subscripted
    ("r = count[0]\n", "TypeError"),                     # a number subscripted
    ("print('Total: ' + count)\n", "TypeError"),         # Python's operators on the operands' types
    ("r = rate ^ 2\n", "TypeError"),
    ("r = label * 2.0\n", "TypeError"),
    ("r = items + pair\n", "TypeError"),
    ("r = 1 - grid.sum\n", "TypeError"),                 # the method, not called
    ("r = grid.mean > 2\n", "TypeError"),
    ("r = -odd\n", "TypeError"),                         # numpy's boolean negative
    ("r = count > None\n", "TypeError"),
    ("import panda as pd\n", "ModuleNotFoundError"),     # no folder of sys.path holds it
    ("import numpy as np\nfrom sklern.svm import SVC\n", "ModuleNotFoundError"),
    ("r = rng.integers(0, 10, 3, 4)\n", "TypeError"),     # asked of a new generator
    ("r = legacy.randint(5, 2)\n", "ValueError"),
    ("r = rng.normal(0, -1, 5)\n", "ValueError"),
    ("x = pd.Series(range(2), dtype='integer')\n", "TypeError"),
    ("x = pd.Series([1, np.nan, None, pd.NA], dtype='int32')\n", "ValueError"),
    ("x = pd.Series([1, 2, 3], index=list('ab'))\n", "ValueError"),
    ("n = len(count)\n", "TypeError"),                    # a builtin asked on its argument's type
    ("r = range(rate)\n", "TypeError"),
    ("for c in count:\n    pass\n", "TypeError"),          # iterating a number
    ("k = [c for c in rate]\n", "TypeError"),
    ("r = np.sort(grid, axis='columns')\n", "TypeError"),   # numpy asked with the data as zeros
    ("r = np.sort(grid, axis=1, order='descending')\n", "ValueError"),
    ("r = np.partition(np.arange(7), 7)\n", "ValueError"),
    ("r = grid.max(axis='columns')\n", "TypeError"),
    ("r = np.concatenate(items, items)\n", "TypeError"),
    ("r = np.percentile(grid, 150)\n", "ValueError"),
    ("r = np.argsort(grid, kind='fastest')\n", "ValueError"),
    ("r = np.split(np.arange(7), 3)\n", "ValueError"),
    ("r = np.dot(grid, [1, 2, 3, 4])\n", "ValueError"),    # the product's shapes
    ("data = {'a': [1, 2], 'b': [3]}\nx = pd.DataFrame(data)\n", "ValueError"),   # a dict the cell wrote
    ("r = np.bincount(grid)\n", "ValueError"),             # 2-D counted
    ("r = np.bincount(edges)\n", "TypeError"),             # floats counted
    ("grid[1:3] -= 0.5\n", "UFuncTypeError"),            # an in-place operator numpy will not cast back
    ("count += 'a'\n", "TypeError"),
    ("r = np.zeros(edges)\n", "TypeError"),                # an array of floats for a shape
    ("r = flat[{'a', 'e'}]\n", "TypeError"),              # a set as a key
    ("r = str(count, 3, 1)\n", "TypeError"),
    ("r = 'density' > 120\n", "TypeError"),              # the cell's literals alone: a stop too
    ("for i in range(1, 4):\n    r = str(2, 3, i)\n", "TypeError"),     # ...in a loop's first pass
    ("a = np.arange(3)\ns = a[:, np.newaxis].shape()\n", "TypeError"),  # an array the cell made: no function
    ("r = np.random.RandomState(1)\nX = 10 * r.rand((100, 3))\n", "TypeError"),   # a generator the cell made
    ("g = np.random.default_rng(1701)\nX = g.integers(0, 10, 3, 4)\n", "TypeError"),
    ("print(intercept[0])\n", "IndexError"),            # numpy's number indexed (print: Python's own)
    ("days = np.arange(366)\nsummer = (days > 172) & (days < 262)\nr = days365[summer]\n", "IndexError"),
    ("a = np.array([1, 0, 1], dtype=bool)\nb = np.array([1, 1], dtype=bool)\nc = a | b\n", "ValueError"),
    ("r = np.all(grid < 8, axis='rows')\n", "TypeError"),
    ("r = names.str.startswith(['T', 'G'])\n", "TypeError"),   # pandas' string methods on an empty stand-in
    ("r = names.str.extract('[A-Za-z]+', expand=False)\n", "ValueError"),
    ("r = words.str.startswith('a', 'b')\n", "ValueError"),
    ("r = prices[euros]\n", "KeyError"),                   # a Series for a column's name: its values as labels
    # displays the cell wrote into names before, as they still are, and Python's own types as dtypes
    ("x = [1, 2, 3]\ny = [4, 5, 6]\nr = np.concatenate(x, y, y)\n", "TypeError"),
    ("x = [[1, 2], [3, 4]]\nr = np.concatenate([x, x], axis=2)\n", "AxisError"),
    ("mean = [0, 0, 0]\ncov = [[1, 2], [2, 5]]\nX = rng.multivariate_normal(mean, cov, 100)\n", "ValueError"),
    ("X = rng.random((10, 3), dtype=int)\n", "TypeError"),
    ("vals = [1, None, 2, 3]\nv = np.array(vals, dtype=int)\n", "TypeError"),
    ("r = np.zeros[10]\n", "TypeError"),                  # a module's function subscripted
    ("x = pd.Series([0, 1, 2], index=pd.DatetimeIndex(['2020-07-04', '2020-08-04', '2021-07-04', '2021-08-04']))\n",
     "ValueError"),                                       # an index pandas' maker makes of literals, asked
    ("x = pd.Series([0, 1, 2], index=pd.date_range('2020-01-01', periods=4))\n", "ValueError"),
    ("a = np.zeros(10)\na[3.0:] += 5\n", "TypeError"),       # an augmented store reads the item first
    ("a = np.zeros(10)\nn = 0.3 * 10\na[n:] += 5\n", "TypeError"),   # a number the cell computed
    ("def make_data(N, f=0.3):\n    x = np.zeros(N)\n    x[f * N:] += 5\n    return x\n\nx = make_data(100)\n",
     "TypeError"),                                         # ...in a function of the cell's, in its call's view
    ("r = np.datetime64('2021-07-04 12:59', 'nanoseconds')\n", "TypeError"),   # numpy's maker of literals
    ("i = np.random.choice(grid.shape[1], 20, replace=False)\n", "ValueError"),  # ...and the kernel's numbers
    ("r = euros * np.arange(3)\n", "ValueError"),           # pandas' arithmetic with an array: shapes match
    ("r = np.arange(3) + euros\n", "ValueError"),
    ("r = visits - np.zeros((2, 2))\n", "ValueError"),
    ("r = visits - grid[0, :2]\n", "ValueError"),            # a row of the wrong width
    ("r = pd.eval('-euros * 2 - eruos')\n", "UndefinedVariableError"),   # pandas' eval reads the notebook's names
    ("i = (2, 3, 3, 4)\nedges[i] += 1\n", "IndexError"),     # a tuple the cell wrote: one index per axis
    ("counts, edges2 = np.histogram2d(edges, edges, bins=3)\n", "ValueError"),   # three values, always
    ("x = [1, None]\nn = x[0] + 1\nprint(*x)\nv = np.array(x, dtype=int)\n", "TypeError"),   # items read: kept
    ("r = np.arange(5) / np.arange(6)\n", "ValueError"),     # numpy's functions of literals alone: a stop
    ("g = np.arange(10).reshape(3, 3)\n", "ValueError"),
    ("d = np.dtype(['S10', 'i4', 'f8'])\n", "TypeError"),   # numpy's dtype of literals
    ("t = type(items[5])\n", "IndexError"),                 # Python's list of the kernel's, read past its end
    ("x = [1, 2, 3, 99]\nx1, x2 = np.split(x, [1, 2])\n", "ValueError"),   # three parts for two names
    ("upper, lower = np.vsplit(grid, 4)\n", "ValueError"),
    ("r = people['nmae']\n", "ValueError"),                 # a structured array's field names
    ("r = people[['name', 'aeg']]\n", "KeyError"),
    ("people['nmae'] = 'x'\n", "ValueError"),
    ("r = rate ^ 2 / 2\n", "TypeError"),                   # Python's arithmetic of its numbers: a float
    ("r = int(4 * np.log(count) / (rate ^ 2 / 2))\n", "TypeError"),  # after numpy's function in the statement
    ("r = prices.dropna(axis='columns', how=all)\n", "ValueError"),   # Python's own function for a word
    ("r = min(edges, max(edges))\n", "ValueError"),         # Python's min compares an array: its truth
    ("a = np.arange(10)\nr = max(a, 3)\n", "ValueError"),
]


def python_finders(monkeypatch):
    """sys.meta_path as a fresh Python's: the test runner's own finders (pytest's, a library's copy of
    six's) are left out, and a kernel's as its libraries make them."""
    import sys
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if getattr(f, "__name__", type(f).__name__) in
                                           ("BuiltinImporter", "FrozenImporter", "PathFinder")])


@pytest.mark.parametrize("cell, exception", CLAIMED)
def test_a_claim_is_the_librarys_own_error_and_a_stop(cell, exception, monkeypatch):
    python_finders(monkeypatch)
    ns = namespace()
    facts = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
    raised = raised_at(cell, namespace())
    assert raised is not None and raised[0] == exception, (cell, raised)
    assert [f.line for f in facts] == [raised[1]] and f": {exception}" in facts[0].message, (cell, facts)
    certain = [f.line for f in exact_check(cell, ns).certain]
    # `idx` is the kernel's pandas.IndexSlice: its subscript's result is pandas' own
    assert certain == [raised[1]], (cell, certain)


MEANT = [
    "flat[('Lyon', 2001)]\n", "sales['Lyon']\n", "sales.loc['Nice', 2011]\n", "sales.loc[:, 2011]\n",
    "sales.iloc[0:2]\n", "visits.iloc[:2, :2]\n", "v = visits.loc[idx[:, 2001], idx[:, 'temp']]\n",
    "shuffled.sort_index()['a':'b']\n", "prices.loc['t', 'eur']\n", "prices.at['j', 'item']\n",
    "prices[['item']]\n", "prices[[True, False]]\n", "w = sales.unstack(level=1)\n",
    "w = sales.unstack(level='year')\n", "w = sales.swaplevel('city', 'year')\n", "p = prices.set_index('item')\n",
    "prices.insert(1, 'kg', [1, 2])\n", "m = pd.MultiIndex.from_tuples(keys)\n",
    "m = pd.MultiIndex.from_arrays([['a', 'b'], [1, 2]])\n", "d = pd.to_datetime(['2024-12-05'])\n",
    "g = grid[odd, 1:]\n", "g = grid[odd][:, few]\n", "g = grid[-1]\n", "c = cube.transpose(1, 2, 0)\n",
    "c = cube.reshape(4, -1)\n", "c = np.swapaxes(grid, 0, 1)\n", "c = np.arange(12).reshape(3, 4)\nd = c[2, 0]\n",
    "r = grid.reshape(2, 10)\n", "r = grid[..., None]\n", "r = count + rate\n", "r = label * 3 + f'{count}'\n",
    "r = items * 2 + items\n", "r = pair + (3,)\n", "r = rate < count <= 9\n", "r = -grid, ~odd\n",
    "r = grid.sum() - 1\n", "r = count == None\n", "r = 3 - True\n", "r = '%s' % count\n",
    "import pandas as pd\n", "import os.path\n", "r = rng.integers(0, 10, (3, 4))\n", "r = legacy.randint(2, 5)\n",
    "x = pd.Series(range(2), dtype='int64')\n", "x = pd.Series([1, np.nan, None, pd.NA], dtype='Int32')\n",
    "x = pd.Series([1, 2], index=list('ab'))\n", "n = len(items) + len(label) + len(grid)\n", "r = range(count)\n",
    "t = sum(items) + max(count, 3) + round(rate)\n", "for c in label:\n    pass\n", "k = [c for c in pair]\n",
    "e = list(enumerate(odd))\n", "r = np.sort(grid, axis=1)\n", "r = np.partition(np.arange(7), 3)\n",
    "r = grid.max(axis=0)\n", "r = np.concatenate([items, items])\n", "r = np.percentile(grid, 50)\n",
    "r = np.split(np.arange(9), 3)\n", "r = np.histogram(grid, bins=4, density=True)\n",
    "data = {'a': [1, 2], 'b': [3, 4]}\nx = pd.DataFrame(data)\n",
    "data = {'a': [1, 2], 'b': [3]}\ndata['b'].append(4)\nx = pd.DataFrame(data)\n",
    "r = np.dot(grid, [1, 2, 3, 4, 5])\n", "r = np.bincount(grid[0])\n", "r = np.matmul(grid, np.ones(5))\n",
    "grid[1, 2] -= 0.5\n", "grid[1:3] += 1\n", "count += 1\n", "d = {'k': 1}\nd['k'] += 1\n", "r = str(2)\n",
    "r = np.zeros_like(edges)\n", "r = np.diff(np.arange(5), n=20_000)\n",
    "a = np.arange(3)\ns = a[:, np.newaxis].shape\nt = a.T.copy()\n", "r = np.random.RandomState(1)\nX = 10 * r.rand(100, 3)\n",
    "g = np.random.default_rng(1701)\nX = g.integers(0, 10, (3, 4))\n",
    "print(intercept[()], intercept[...])\n", "days = np.arange(365)\nr = days365[(days > 172) & (days < 262)]\n",
    "a = np.array([1, 0, 1], dtype=bool)\nb = np.array([1], dtype=bool)\nc = a | b\n",
    "r = np.all(grid < 8, axis=0) & np.any(grid > 3)\n",
    "r = names.str.startswith(('T', 'G'))\n", "r = names.str.extract('([A-Za-z]+)', expand=False)\n",
    "r = words.str.split().str[0]\n", "r = prices[wanted]\n", "r = prices[cheap]\n",
    "r = names.str.cat(['Smith', 'Jones', 'Doe'], sep=' ')\n",    # lengths compared with its own values
    "a = np.arange(6).reshape(2, 3)\nb = a.base\n", "x = np.arange(4) & np.arange(4, dtype=np.uint8)\n",
    "x = [1, 2, 3]\ny = [4, 5, 6]\nr = np.concatenate([x, y, y])\n", "x = [[1, 2], [3, 4]]\nr = np.concatenate([x, x], axis=1)\n",
    "mean = [0, 0]\ncov = [[1, 2], [2, 5]]\nX = rng.multivariate_normal(mean, cov, 100)\n",
    "X = rng.random((10, 3), dtype=float)\n", "vals = [1, 0, 2, 3]\nv = np.array(vals, dtype=int)\n",
    "x = pd.Series([0, 1, 2, 3], index=pd.DatetimeIndex(['2020-07-04', '2020-08-04', '2021-07-04', '2021-08-04']))\n",
    "x = pd.Series([0, 1, 2], index=pd.date_range('2020-01-01', periods=3))\n",
    "r = prices.dropna(axis='columns', how='all')\n", "r = min(np.min(edges), max(edges))\n",
    "r = np.datetime64('2021-07-04 12:59', 'ns')\n", "i = np.random.choice(grid.shape[1], 3, replace=False)\n",
    "r = int(4 * np.log(count) / (rate ** 2 / 2))\n", "r = 3 ^ 2 // 2\n",
    "r = pd.eval('-euros * 2 + sin(rate) + inf')\n", "eruos = euros\nr = pd.eval('-euros * 2 - eruos')\n",
    "i = [2, 3, 3, 4]\nedges[i] += 1\n", "counts, xe, ye = np.histogram2d(edges, edges, bins=3)\n",
    "r = np.arange(6) / np.arange(6)\n", "g = np.arange(9).reshape(3, 3)\n", "d = np.dtype([('a', 'S10'), ('b', 'i4')])\n",
    "t = type(items[1]) or items[-2]\n", "x1, x2, x3 = np.split([1, 2, 3, 99], [1, 2])\n", "a, b = np.vsplit(grid, 2)\n",
    "r = people['name']\n", "r = people[['name', 'age']]\n", "people['age'] = 3\n",
    "r = euros * np.arange(2)\n", "r = visits - np.zeros((4, 4))\n", "r = visits - grid[0, :4]\n",
    "a = np.zeros(10)\nn = 10 // 3\na[n:] += 5\n", "a = np.zeros((3, 3))\na[:, 2] -= 1\n",
    "def make_data(N, f=0.3):\n    x = np.zeros(N)\n    x[int(f * N):] += 5\n    return x\n\nx = make_data(100)\n", "r = max(count, 3, rate)\n", "r = min(np.ones(1), 3)\n",
]


@pytest.mark.parametrize("cell", MEANT)
def test_no_claim_where_the_library_takes_it(cell):
    assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == [], cell
    assert raised_at(cell, namespace()) is None, cell


def test_the_fix_of_a_subscripted_method_is_its_call_and_of_a_misspelt_module_the_installed_one(monkeypatch):
    python_finders(monkeypatch)
    facts = kernel_facts("r = grid.reshape[2, 10]\n", namespace())
    assert facts[0].candidates == ["grid.reshape(2, 10)"]
    assert kernel_facts("import panda as pd\n", namespace())[0].candidates == ["pandas as pd"]
    assert kernel_facts("import matplotlb.pyplot as plt\n", {"_dh": []})[0].candidates == ["matplotlib.pyplot as plt"]
    assert kernel_facts("import matplotlb.pyplot as plt\n", {}) == []     # not a kernel's: its path is elsewhere


def test_no_missing_module_claim_where_the_path_or_the_finders_may_have_changed(monkeypatch):
    python_finders(monkeypatch)
    for cell in ["import sys\nsys.path.insert(0, '/tmp/x')\nimport panda\n",
                 "import a_module_nobody_has_loaded\nimport panda\n", "try:\n    import panda\nexcept ImportError:\n    pass\n"]:
        assert [f for f in exact_check(cell, namespace()).certain if "panda'" in f.message] == [], cell

    class Finder:                       # a finder of the user's may serve any name
        def find_spec(self, name, path=None, target=None):
            return None
    monkeypatch.setattr("sys.meta_path", [*__import__("sys").meta_path, Finder()])
    assert kernel_facts("import panda\n", namespace()) == []


def test_a_draw_asked_of_a_new_generator_leaves_the_users_state():
    ns = namespace()
    before, legacy = ns["rng"].bit_generator.state, ns["legacy"].get_state()[1].copy()
    kernel_facts("r = rng.normal(0, -1, 5)\nq = legacy.randint(5, 2)\n", ns)
    assert ns["rng"].bit_generator.state == before and (ns["legacy"].get_state()[1] == legacy).all()


def test_no_claim_where_the_class_a_label_or_a_method_is_the_users(monkeypatch):
    class Frame(pd.DataFrame):
        pass

    class Key:
        def __hash__(self):
            return 1

        def __eq__(self, other):
            return True                 # the user's equality: any label may be "found"

    ns = dict(namespace(), sub=Frame({"a": [1, 2]}, index=["x", "y"]),
              odd_labels=pd.Series([1, 2], index=[Key(), "y"]))
    assert [f for f in kernel_facts("sub.loc['z']\n", ns) if f.kind == "value"] == []
    assert [f for f in kernel_facts("odd_labels['z':'q']\n", ns) if f.kind == "value"] == []
    monkeypatch.setattr(pd.Series, "unstack", lambda self, level=-1: self)   # pandas' method replaced
    assert [f for f in kernel_facts("w = sales.unstack(level=2)\n", namespace()) if f.kind == "value"] == []


def test_a_series_of_the_users_objects_is_no_text_and_no_key_and_none_of_their_code_runs():
    """pandas' string methods and a Series as a key (string_method_claim, _labels_key): values or
    labels of the user's are never read by pandas here."""
    ran = []

    class Word:
        def __eq__(self, other):
            ran.append("eq")
            return False

        def __hash__(self):
            ran.append("hash")
            return 1

        def __str__(self):
            ran.append("str")
            return "w"

    ns = dict(namespace(), odd_words=pd.Series([Word(), "a"], dtype=object),
              odd_key=pd.Series(["item"], index=[Word()]))
    assert [f for f in kernel_facts("r = odd_words.str.startswith(['T'])\nq = prices[odd_key]\n", ns)
            if f.kind == "value"] == []
    assert ran == []


def test_no_claim_where_the_cell_changed_the_labels_first():
    for cell in ["sales.index = sales.index.set_names(['city', 'years'])\nw = sales.unstack(level='years')\n",
                 "flat.index = ['a', 'b', 'c', 'd']\nf = flat['a':'c']\n",
                 "grid = grid.reshape(2, 10)\ng = grid[1, 9]\n"]:
        assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == [], cell
        assert raised_at(cell, namespace()) is None, cell


def test_no_claim_where_the_cell_may_have_changed_what_is_read_first():
    """(a review's) what a live list inside a dict holds, or a statement's own earlier change, is
    not seen by the flow: no claim on a cell that runs."""
    ns = dict(namespace(), data={"name": ["Ann", "Bob"], "age": [30, 40, 50]}, dates=["2024-01-01", "x"])
    for cell in ["data['age'].pop()\nd = pd.DataFrame(data)\n", "r = (dates.pop(), pd.to_datetime(dates))\n",
                 "r = (sales.index.set_names(['x', 'y'], inplace=True), sales.swaplevel('x', 'y'))\n",
                 "r = (prices.reset_index(drop=True, inplace=True), prices.loc[:1, 'eur'])\n",
                 "r = (cube.resize(6, 4, refcheck=False), cube.transpose(1, 0))\n"]:
        assert [f for f in kernel_facts(cell, dict(ns, data={"name": ["Ann", "Bob"], "age": [30, 40, 50]},
                                                   dates=["2024-01-01", "x"], cube=np.zeros((2, 3, 4))))
                if f.kind == "value"] == [], cell
        assert raised_at(cell, dict(namespace(), data={"name": ["Ann", "Bob"], "age": [30, 40, 50]},
                                    dates=["2024-01-01", "x"], cube=np.zeros((2, 3, 4)))) is None, cell


def test_no_probe_of_values_whose_reading_runs_the_users_code():
    """(a review's) pandas deep-copies what attrs hold, compares a category's objects and a time
    zone's offsets, and asks every registered dtype a name: none of them the user's."""
    import datetime
    ran = []

    class Thing:
        def __eq__(self, other):
            ran.append("eq")
            return False

        def __hash__(self):
            ran.append("hash")
            return 1

        def __deepcopy__(self, memo):
            ran.append("deepcopy")
            return self

    class Zone(datetime.tzinfo):
        def utcoffset(self, dt):
            ran.append("utcoffset")
            return datetime.timedelta(0)

        def dst(self, dt):
            return datetime.timedelta(0)

    tagged = pd.Series([1, 2])
    tagged.attrs["who"] = Thing()
    ns = dict(namespace(), tagged=tagged, things=pd.Series(pd.Categorical([Thing(), Thing()])),
              zoned=pd.Series([1, 2], index=pd.date_range("2024-01-01", periods=2, tz=Zone())))
    ran.clear()
    for cell in ["r = pd.Series(tagged, index=[5])\n", "r = pd.qcut(things, 2)\n", "r = zoned['2024-01-09']\n",
                 "r = zoned.drop('2024-01-09')\n"]:
        kernel_facts(cell, ns)
    assert ran == []


def test_a_list_changed_before_is_not_read_by_its_values():
    ns = dict(namespace(), ks=[1, 2, 3])
    # (the call's other arguments as the kernel holds them only where nothing before may change them)
    cell = "ks.append(7)\nr = np.partition(np.arange(7), ks)\n"
    assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == []
    assert raised_at(cell, dict(ns, ks=[1, 2, 3])) == ("ValueError", 2)


def fix(v):
    v.pop()


@pytest.mark.parametrize("cell", [
    "mean = [0, 0, 0]\nmean.pop()\nX = rng.multivariate_normal(mean, [[1, 2], [2, 5]], 10)\n",
    "mean = [0, 0, 0]\nm = mean\nm.pop()\nX = rng.multivariate_normal(mean, [[1, 2], [2, 5]], 10)\n",
    "mean = [0, 0, 0]\nfix(mean)\nX = rng.multivariate_normal(mean, [[1, 2], [2, 5]], 10)\n",
    "vals = [1, None, 2]\nvals[1] = 0\nv = np.array(vals, dtype=int)\n",
    "x = [1, None]\nfor i in range(1):\n    x[1] = 2\nv = np.array(x, dtype=int)\n",
    "x = [1, 2]\nx += [[3]]\nx.pop()\nr = np.concatenate([x, x])\n",
    "int = float\nX = rng.random((10, 3), dtype=int)\n",            # the name bound again
    "all = 'all'\nr = prices.dropna(axis='columns', how=all)\n",
    # (a review's) changed through what a display or an operation made of it
    "x = [1, None]\n[x][0].pop()\nv = np.array(x, dtype=int)\n",
    "x = [1, None]\ny = [x] * 2\ny[1].pop()\nv = np.array(x, dtype=int)\n",
    "mean = [0, 0, 0]\nparams = (mean,) + ()\nparams[0].pop()\nX = rng.multivariate_normal(mean, [[1, 0], [0, 1]], 5)\n",
    "b = [3, 1, 2]\nfs = [b.sort]\nfs[0]()\nr = np.histogram([1.5], b)\n",
    "x = [[1, None]]\ny = x * 1\ny[0][1] = 1\nv = np.array(x, dtype=int)\n",
    "a = np.zeros(10)\ni = 10\n[a][0].resize(11, refcheck=False)\na[i] += 1\n",
])
def test_a_display_changed_after_it_was_written_is_not_read_by_its_values(cell):
    """Only what the flow finds as the cell wrote it is read: a change through the name, another
    name, a call of the user's, an item stored or a loop's pass ends it (each cell runs)."""
    ns = dict(namespace(), fix=fix)
    assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == [], cell
    assert raised_at(cell, dict(namespace(), fix=fix)) is None, cell


def test_no_frame_arithmetic_claim_on_the_users_class_or_operator(monkeypatch):
    class Mine(pd.Series):
        pass

    ns = dict(namespace(), mine=Mine([1.0, 2.0]))
    assert [f for f in kernel_facts("r = mine * np.arange(3)\n", ns) if f.kind == "value"] == []
    monkeypatch.setattr(pd.Series, "__mul__", lambda self, other: 0)
    assert [f for f in kernel_facts("r = euros * np.arange(3)\n", namespace()) if f.kind == "value"] == []
    assert raised_at("r = euros * np.arange(3)\n", namespace()) is None


def test_no_probe_calls_a_builtin_that_prints_reads_or_runs_text(capsys):
    """(a review's) a builtin given as a word is Python's of plain values only: `print`, `input`,
    `exec` given to `rename` would be called by the stand-in's probe."""
    for word in ("print", "exec", "__import__"):
        assert [f for f in kernel_facts(f"r = prices.rename(columns={word})\n", namespace()) if f.kind == "value"] == []
    assert capsys.readouterr().out == ""


def test_numpy_writing_into_an_argument_by_place_is_a_change(monkeypatch):
    """(a review's) `np.clip(a, 0, 4, a)`: the fourth argument is `out`; a ufunc's after its inputs too."""
    ns = dict(namespace(), idx=np.array([0, 10]), x=np.arange(5))
    for cell in ["y = (np.clip(idx[:], 0, 4, idx[:]), x[idx])\n", "y = (np.floor_divide(idx[:], 5, idx[:]), x[idx])\n"]:
        assert exact_check(cell, ns).certain == [], cell
        assert raised_at(cell, dict(namespace(), idx=np.array([0, 10]), x=np.arange(5))) is None


def test_python_arithmetic_that_raises_first_is_no_type_and_a_patched_max_is_not_pythons(monkeypatch):
    import builtins
    ns = dict(namespace(), zero=0)
    assert [f for f in kernel_facts("r = count ^ 2 / zero\n", ns) if f.kind == "value"] == []   # ZeroDivisionError
    monkeypatch.setattr(builtins, "max", lambda *a, **k: 1)
    assert [f for f in kernel_facts("r = max(edges, 3)\n", namespace()) if f.kind == "value"] == []


def grow(*args):
    global_array.resize(20, refcheck=False)
    return 1


global_array = np.zeros(3)


def test_pandas_eval_of_a_call_a_parameter_or_its_own_grammar_is_not_read_as_names():
    """(a second review's) `pd.eval` calls what it names (`grow()`) before a later name is refused;
    a function's parameter is bound where its body runs; `len(...)` is pandas' own refusal."""
    ns = dict(namespace(), grow=grow, a=global_array)
    assert exact_check("pd.eval('grow()')\nb = a[10]\n", ns).certain == []
    for cell in ["def scale(frame, k):\n    return pd.eval('frame * k')\nr = scale(euros, 2)\n",
                 "r = pd.eval('len(euros)')\n", "r = pd.eval('euros if eruos else 1')\n"]:
        assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == [], cell


def test_no_field_claim_where_the_cell_renames_a_dtypes_fields():
    """(a second review's) a dtype is shared by the arrays made of it; its names can be set."""
    cell = "d = people.dtype\nd.names = ('nmae', 'age')\nr = people['nmae']\n"
    assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == []
    assert raised_at(cell, namespace()) is None
