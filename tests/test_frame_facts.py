"""Value and key facts on pandas' and matplotlib's live objects (facts/column_values.py,
columns.py, labels.py, positions.py). Each claim is held against the library: the fact is made,
then the cell runs and raises the exception the fact names (as bench/kernel_precision.py reads
it from the message); a near miss runs and gets no claim. No user code runs."""
from __future__ import annotations

import itertools
import random
import traceback
import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after the backend is chosen


def namespace(**objects) -> dict:
    return {"np": np, "pd": pd, "plt": plt, **objects}


def facts_of(cell: str, ns: dict, kind: str) -> list:
    return [f for f in kernel_facts(cell, ns) if f.kind == kind]


def named(fact) -> str:
    """The exception a fact names, read as bench/kernel_precision.py reads it."""
    if fact.kind == "key":
        return "KeyError"
    if fact.kind == "attribute":
        return "AttributeError"
    message = fact.message
    if message.endswith(": ValueError") or ": ValueError;" in message:
        return "ValueError"
    return message.rpartition(": ")[2].split(" ")[0]


def holds(cell: str, ns: dict, exception: type[BaseException], kind: str = "value"):
    """The cell gets one fact of `kind` naming `exception`, and running it raises exactly that."""
    facts = facts_of(cell, ns, kind)
    assert len(facts) == 1, (cell, kernel_facts(cell, ns))
    with pytest.raises(exception) as raised:
        exec(cell, dict(ns))
    assert named(facts[0]) == type(raised.value).__name__, (facts[0].message, raised.value)
    return facts[0]


def runs_unclaimed(cell: str, ns: dict) -> None:
    assert [f for f in kernel_facts(cell, ns) if f.kind in ("value", "key")] == [], cell
    exec(cell, dict(ns))


def frame() -> pd.DataFrame:
    return pd.DataFrame({"id": ["1", "2", "3", "4"], "price": ["1.5", "2", "n/a", "4"], "qty": [1, 2, 3, 4],
                         "weight": [1.0, np.nan, 3.0, 4.0], "when": ["2024-01-05", "2024-02-01", "soon", "2024-03-01"],
                         "city": ["Oslo", "Lima", "Oslo", "Rome"], "note": pd.Series(["a", "b", "c", "d"], dtype=object)})


# -- conversions ------------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, value, good", [
    ("p = df['price'].astype(float)\n", "'n/a'", "p = df['id'].astype(float)\n"),
    ("p = df['price'].astype(int)\n", "'1.5'", "p = df['id'].astype(int)\n"),
    ("p = df['price'].astype('int64')\n", "'1.5'", "p = df['id'].astype('int64')\n"),
    ("p = df['price'].astype(np.float32)\n", "'n/a'", "p = df['id'].astype(np.float32)\n"),
    ("p = pd.to_numeric(df['price'])\n", "'n/a'", "p = pd.to_numeric(df['id'])\n"),
    ("p = pd.to_numeric(df['price'], errors='raise')\n", "'n/a'", "p = pd.to_numeric(df['price'], errors='coerce')\n"),
    ("t = pd.to_datetime(df['when'])\n", "'soon'", "t = pd.to_datetime(df['id'], format='%d')\n"),
    ("t = pd.to_datetime(df['when'], format='%Y-%m-%d')\n", "'soon'", "t = pd.to_datetime(df['when'], errors='coerce')\n"),
])
def test_a_conversion_names_the_first_value_pandas_refuses(cell, value, good):
    f = holds(cell, namespace(df=frame()), ValueError)
    assert f"on the value {value}" in f.message, f.message
    runs_unclaimed(good, namespace(df=frame()))


def test_a_mapping_of_columns_to_dtypes_fails_at_the_first_column_in_the_frames_order():
    ns = namespace(df=frame())
    f = holds("d = df.astype({'weight': int, 'price': float})\n", ns, ValueError)
    assert "column 'price'" in f.message and "'n/a'" in f.message     # price comes before weight
    holds("d = df.astype({'weight': int, 'qty': float})\n", ns, ValueError)
    holds("d = df.astype({'pirce': float})\n", ns, KeyError, kind="key")
    runs_unclaimed("d = df.astype({'id': int, 'qty': float, 'city': 'category'})\n", ns)
    assert facts_of("d = df.astype({'id': 'datetime64[ns]', 'price': float})\n", ns, "value") == []  # id: not judged


def test_nan_into_integers_is_pandas_intcastingnanerror_a_valueerror():
    from pandas.errors import IntCastingNaNError
    ns = namespace(df=frame())
    f = holds("w = df['weight'].astype(int)\n", ns, IntCastingNaNError)
    assert "row 1" in f.message and "IntCastingNaNError (a ValueError)" in f.message
    assert issubclass(IntCastingNaNError, ValueError)
    runs_unclaimed("w = df['weight'].astype('Int64')\nq = df['qty'].astype(float)\nw = df['weight'].astype(float)\n", ns)


def test_no_claim_where_errors_are_coerced_or_the_failure_lies_past_the_sampled_rows():
    ns = namespace(df=frame(), long=pd.DataFrame({"n": ["1"] * 1500 + ["x"]}))
    runs_unclaimed("p = pd.to_numeric(df['price'], errors='coerce')\nt = pd.to_datetime(df['when'], errors='coerce')\n"
                   "q = df['price'].astype(str)\n", ns)
    assert facts_of("n = long['n'].astype(int)\n", ns, "value") == []     # row 1500: past the sample
    with pytest.raises(ValueError):
        exec("n = long['n'].astype(int)\n", dict(ns))
    short = namespace(long=pd.DataFrame({"n": ["1"] * 900 + ["x"]}))
    assert "row 900" in holds("n = long['n'].astype(int)\n", short, ValueError).message


def test_a_conversion_reads_no_row_label_so_any_index_will_do():
    """pandas carries the index through a conversion unread: a frame indexed by text in pandas 2's
    object dtype, or a Series indexed by tuples or frozensets, is judged as one with a RangeIndex; a
    label that is not plain is named by its position (a tuple of plain values is plain)."""
    text_rows = frame().set_axis(pd.Index(list("abcd"), dtype=object))
    f = holds("p = pd.to_numeric(df['price'])\n", namespace(df=text_rows), ValueError)
    assert "row 'c' on the value 'n/a'" in f.message, f.message
    runs_unclaimed("p = pd.to_numeric(df['id'])\n", namespace(df=text_rows))
    # arithmetic aligns on the labels: text labels in an object index are plain, and read
    assert "row 'a'" in holds("d = df['city'] - df['qty']\n", namespace(df=text_rows), TypeError).message
    pairs = pd.Index([(1, "x"), (2, "y"), (3, "z"), (4, "w")], tupleize_cols=False)
    ns = namespace(price=frame()["price"].set_axis(pairs), ids=frame()["id"].set_axis(pairs))
    f = holds("q = price.astype(float)\n", ns, ValueError)
    assert "row (3, 'z') on the value 'n/a'" in f.message, f.message
    runs_unclaimed("q = ids.astype(float)\nr = pd.to_numeric(ids)\n", ns)
    sets = pd.Index([frozenset({k}) for k in range(4)])
    f = holds("q = price.astype(float)\n", namespace(price=frame()["price"].set_axis(sets)), ValueError)
    assert "the row at position 2 on the value 'n/a'" in f.message, f.message


@pytest.mark.parametrize("reduction", ["corr()", "cov()", "mean()", "median()", "std()", "var()", "sem()",
                                       "skew()", "kurt()", "quantile(0.5)", "corr(method='spearman')"])
def test_a_reduction_over_text_that_pandas_2_reads_unless_told_numeric_only(reduction):
    """pandas 2 made `numeric_only=False` the default: a reduction over a frame with a text column
    raises (TypeError or ValueError, as pandas names it); numeric_only=True, or the numbers
    picked, run unclaimed."""
    ns = namespace(df=frame())
    exception = (ValueError if reduction.startswith(("corr", "cov")) else TypeError)
    f = holds(f"r = df.{reduction}\n", ns, exception)
    assert "numeric_only=True" in f.message
    given = reduction.replace("()", "(numeric_only=True)").replace("(0.5)", "(0.5, numeric_only=True)")
    given = given.replace("method='spearman')", "method='spearman', numeric_only=True)")
    runs_unclaimed(f"r = df.{given}\nq = df[['qty', 'weight']].{reduction}\n", ns)


def test_a_series_reduction_and_text_past_the_rows_read():
    from jupyter_codecheck.facts.column_values import SAMPLE_ROWS
    ns = namespace(df=frame(), late=pd.DataFrame({"n": [1.0] * SAMPLE_ROWS + ["x"]}, dtype=object),
                   boxed=pd.Series([1, 2, 3], dtype=object))
    holds("m = df['city'].mean()\n", ns, TypeError)
    runs_unclaimed("m = df['qty'].mean()\nb = boxed.mean()\n", ns)      # numbers held as objects
    assert facts_of("m = late.mean()\n", ns, "value") == []
    with pytest.raises(TypeError):
        exec("m = late.mean()\n", dict(ns))


@pytest.mark.parametrize("cell, good, exception", [
    ("g = df.groupby('city').mean()\n", "g = df.groupby('city').mean(numeric_only=True)\n", TypeError),
    ("g = df.groupby(['city', 'qty']).median()\n", "g = df.groupby(['city', 'qty'])[['weight']].median()\n", TypeError),
    ("g = df.groupby('qty')['note'].mean()\n", "g = df.groupby('qty')['weight'].mean()\n", TypeError),
    ("g = df.groupby('city', as_index=False)[['note', 'qty']].std()\n",
     "g = df.groupby('city', as_index=False)[['qty']].std()\n", ValueError),      # objects: numpy's float()
])
def test_a_grouped_reduction_over_text(cell, good, exception):
    f = holds(cell, namespace(df=frame()), exception)
    assert "grouped" in f.message
    runs_unclaimed(good, namespace(df=frame()))


REDUCED = ["mean()", "median()", "std()", "corr()", "cov()", "quantile(0.5)", "var()", "prod()", "sum()", "max()"]


def facts_and_raised(cell: str, ns: dict) -> tuple[list, str | None]:
    """The cell's value facts, and the name of what running it raises (None: it ran)."""
    import warnings
    facts = facts_of(cell, ns, "value")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(cell, dict(ns))
    except Exception as e:  # noqa: BLE001 - the caller compares it with the claim
        return facts, type(e).__name__
    return facts, None


def claimed_exactly_when_pandas_raises(cell: str, ns: dict) -> bool:
    """The cell gets a value fact exactly when running it raises, naming that exception; whether
    it got one."""
    facts, raised = facts_and_raised(cell, ns)
    assert bool(facts) == (raised is not None), (cell, raised, facts)
    assert not facts or named(facts[0]) == raised, (cell, facts[0].message)
    return bool(facts)


def test_random_frames_reduced_against_pandas_claimed_exactly_when_it_raises():
    """Short frames (all rows read): a claim exactly where pandas' reduction raises, naming it."""
    rnd = random.Random(3)
    columns = {"n": [1, 2, 3], "f": [0.5, np.nan, 2.0], "t": ["a", "b", "c"], "o": pd.Series([1, "x", 2.5], dtype=object),
               "b": [True, False, True], "d": pd.to_datetime(["2020-01-01", "2021-01-01", "2022-01-01"]),
               "on": pd.Series([1, 2, 3], dtype=object)}
    claimed = 0
    for _ in range(200):
        picked = rnd.sample(sorted(columns), rnd.randint(1, 3))
        ns = namespace(df=pd.DataFrame({c: columns[c] for c in picked}))
        claimed += claimed_exactly_when_pandas_raises(f"r = df.{rnd.choice(REDUCED)}\n", ns)
    assert claimed > 40


def test_random_frames_reduced_by_group_against_pandas_claimed_exactly_when_it_raises():
    rnd = random.Random(4)
    columns = {"n": [1, 2, 3], "f": [0.5, np.nan, 2.0], "t": ["a", "b", "c"], "o": pd.Series([1, "x", 2.5], dtype=object),
               "b": [True, False, True], "on": pd.Series([1, 2, 3], dtype=object)}
    claimed = 0
    for _ in range(150):
        picked = rnd.sample(sorted(columns), rnd.randint(1, 3))
        ns = namespace(df=pd.DataFrame({"k": ["x", "y", "x"], **{c: columns[c] for c in picked}}))
        chosen = rnd.choice(["", f"[{picked[0]!r}]", f"[{picked!r}]"])
        reduction = rnd.choice(['mean()', 'median()', 'std()', 'sum()', 'max()', 'var()'])
        claimed += claimed_exactly_when_pandas_raises(f"r = df.groupby('k'){chosen}.{reduction}\n", ns)
    assert claimed > 30


CONVERSIONS = ["c = s.astype(int)", "c = s.astype(float)", "c = s.astype('float32')",
               "c = pd.to_numeric(s)", "c = pd.to_datetime(s)", "c = s.astype('uint8')"]
VALUES = ["1", "2.5", "-3", " 4 ", "x", "", "1e3", "2024-01-02", "02/03/2024", None, np.nan, 7, 8.5, True, 300, "300"]


def test_random_columns_against_pandas_claimed_exactly_when_it_raises():
    """Short columns (all rows sampled): a claim exactly when pandas raises, naming its exception."""
    rnd = random.Random(11)
    claimed = 0
    for _ in range(400):
        values = [rnd.choice(VALUES) for _ in range(rnd.randint(1, 6))]
        dtype = rnd.choice([object, None, "str"])
        try:
            s = pd.Series(values, dtype=dtype)
        except (TypeError, ValueError):
            continue
        cell = rnd.choice(CONVERSIONS) + "\n"
        facts, raised = facts_and_raised(cell, namespace(s=s))
        if raised in ("ValueError", "TypeError", "OverflowError", "IntCastingNaNError", "DateParseError",
                      "OutOfBoundsDatetime"):
            assert facts and named(facts[0]) == raised, (cell, values, dtype, raised, facts)
            claimed += 1
        else:
            assert not facts, (cell, values, dtype, raised, facts)
    assert claimed > 80
    # pandas' nullable integers infer a type over all the values first: never claimed
    mixed = pd.Series([8.5, True, "-3"], dtype=object)
    assert facts_of("c = s.astype('Int64')\n", namespace(s=mixed), "value") == []


# -- arithmetic -------------------------------------------------------------------------------------

ARITH = pd.DataFrame({"t": ["a", "b"], "o": pd.Series(["u", "v"], dtype=object), "i": [1, 2], "f": [0.5, 1.5],
                      "b": [True, False]})


def test_arithmetic_of_text_and_numbers_claimed_exactly_where_pandas_raises_typeerror():
    ns = namespace(df=ARITH)
    claimed = ran = 0
    operands = [f"df[{c!r}]" for c in ARITH.columns] + ["2", "1.5"]
    for a, b in itertools.product(operands, repeat=2):
        for op in ("+", "-", "*", "/", "//", "%", "**"):
            if not a.startswith("df") and not b.startswith("df"):
                continue
            cell = f"r = {a} {op} {b}\n"
            facts = facts_of(cell, ns, "value")
            try:
                exec(cell, dict(ns))
                raised = None
            except Exception as e:  # noqa: BLE001 - bool / bool: NotImplementedError
                raised = type(e).__name__
            if facts:
                claimed += 1
                assert raised == named(facts[0]), (cell, facts[0].message)
            elif raised is None:
                ran += 1
            else:
                assert raised != "TypeError" or not {a, b} & {"df['i']", "df['f']", "2", "1.5"} or \
                    not {a, b} & {"df['t']", "df['o']"}, cell           # text and a number: claimed
    assert claimed > 40 and ran > 40
    f = holds("r = df['t'] - df['i']\n", ns, TypeError)
    assert "('a' - 1)" in f.message
    runs_unclaimed("r = df['t'] * df['i']\nr = df['t'] + df['t']\nr = df['o'] * 2\nr = df['i'] * df['f']\n", ns)

    # text repeated by big integers, Python integers raised to a power: not tried (they run)
    import tracemalloc
    costly = namespace(words=pd.Series(["ab", "cd"]), reps=pd.Series([10**8, 2]),
                       ints=pd.Series([10**6, 3], dtype=object))
    tracemalloc.start()
    assert facts_of("r = words * reps\nr = words * 100000000\nr = ints ** 1000000\n", costly, "value") == []
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20_000_000, peak
    # two Series are aligned on their labels first: the text at label 0 meets no number, and it runs
    a, b = pd.Series(["x", 1.5], index=[0, 1], dtype=object), pd.Series([1, 2], index=[1, 2])
    runs_unclaimed("r = a - b\n", namespace(a=a, b=b))


# -- keys -------------------------------------------------------------------------------------------

SALES = pd.DataFrame({"region": ["n", "s", "n"], "product": ["a", "b", "b"], "revenue": [1.0, 2.0, 3.0]})
REGIONS = pd.DataFrame({"region": ["n", "s"], "manager": ["Ann", "Bo"]})


@pytest.mark.parametrize("cell, good", [
    ("t = sales.groupby('region').agg({'revenu': 'sum'})\n", "t = sales.groupby('region').agg({'revenue': 'sum'})\n"),
    ("t = sales.groupby('region').agg(total=('revenu', 'sum'))\n", "t = sales.groupby('region').agg(total=('revenue', 'sum'))\n"),
    ("t = sales.agg({'revenu': 'sum'})\n", "t = sales.agg({'revenue': 'sum'})\n"),
    ("t = sales.groupby('region')['revenu'].sum()\n", "t = sales.groupby('region')['revenue'].sum()\n"),
    ("t = sales.groupby('region')[['revenu']].sum()\n", "t = sales.groupby('region')[['region', 'revenue']].max()\n"),
    ("m = pd.merge(sales, regions, on='regoin')\n", "m = pd.merge(sales, regions, on='region')\n"),
    ("m = sales.merge(regions, left_on='region', right_on='regoin')\n", "m = sales.merge(regions, on='region')\n"),
    ("m = pd.merge(sales, regions, on='manager')\n", "m = pd.merge(sales, regions, left_on='region', right_on='region')\n"),
    ("p = sales.pivot(index='region', columns='product', values='revenu')\n",
     "p = sales.groupby(['region', 'product']).sum().reset_index().pivot(index='region', columns='product', values='revenue')\n"),
    ("p = sales.pivot_table(index='regoin', values='revenue')\n", "p = sales.pivot_table(index='region', values='revenue')\n"),
    ("p = pd.pivot_table(sales, 'revenue', 'regoin')\n", "p = pd.pivot_table(sales, 'revenue', 'region')\n"),
    ("p = sales.pivot_table('revenue', 'regoin')\n", "p = sales.pivot_table('revenue', 'region')\n"),
])
def test_a_column_key_the_frame_lacks_in_agg_merge_and_pivot(cell, good):
    ns = namespace(sales=SALES, regions=REGIONS)
    f = holds(cell, ns, KeyError, kind="key")
    if "manager" not in cell:
        assert f.candidates and f.candidates[0].strip("'\"") in ("revenue", "region"), f
    runs_unclaimed(good, ns)


@pytest.mark.parametrize("cell, good", [
    ("m = pd.merge(sales, managers, left_on='regoin', right_index=True)\n",
     "m = pd.merge(sales, managers, left_on='region', right_index=True)\n"),
    ("m = managers.merge(sales, left_index=True, right_on='regoin')\n",
     "m = managers.merge(sales, left_index=True, right_on='region')\n"),
    ("j = sales.join(managers, on='regoin')\n", "j = sales.join(managers, on='region')\n"),
    ("t = pd.melt(sales, id_vars='regoin')\n", "t = pd.melt(sales, id_vars='region')\n"),
    ("t = pd.melt(sales, ['region'], ['revenu'])\n", "t = pd.melt(sales, ['region'], ['revenue'])\n"),
    ("t = sales.melt(['region'], value_vars=['revenu'])\n", "t = sales.melt(['region'], value_vars=['revenue'])\n"),
    ("t = sales.groupby(['regoin', 'product']).size()\n", "t = sales.groupby(['region', 'product']).size()\n"),
    ("t = sales.groupby(by=['region', 'prodct', 'revenue'][:2]).size()\nu = sales.groupby(['prodcut'])\n",
     "t = sales.groupby(['product']).size()\n"),
])
def test_a_column_key_the_frame_lacks_in_join_melt_and_grouping_by_a_list(cell, good):
    ns = namespace(sales=SALES, managers=REGIONS.set_index("region"))
    holds(cell, ns, KeyError, kind="key")
    runs_unclaimed(good, ns)


def test_a_list_as_long_as_the_frame_groups_by_its_values():
    ns = namespace(sales=SALES)
    runs_unclaimed("t = sales.groupby(['x', 'y', 'x']).size()\n", ns)      # three keys, three rows: one key
    holds("t = sales.groupby(['x', 'region']).size()\n", ns, KeyError, kind="key")
    # pivot_table groups by its index and columns as one list: three keys on three rows too
    runs_unclaimed("t = sales.pivot_table(index=['x', 'y'], columns='z', values='revenue')\n", ns)
    holds("t = sales.pivot_table(index=['x', 'region'], values='revenue')\n", ns, KeyError, kind="key")
    runs_unclaimed("t = sales.head(1).pivot_table(index='d', values='revenue')\n", ns)


def test_index_level_names_count_where_pandas_takes_them():
    indexed = REGIONS.set_index("region")
    ns = namespace(sales=SALES, regions=indexed, by_region=SALES.set_index("region"))
    runs_unclaimed("m = sales.merge(regions, on='region')\np = by_region.pivot_table(index='region', values='revenue')\n", ns)
    holds("p = by_region.pivot(index='region', columns='product', values='revenue')\n", ns, KeyError, kind="key")
    holds("t = by_region.groupby('region').agg({'region': 'count'})\n", ns, KeyError, kind="key")


@pytest.mark.parametrize("cell, good", [
    ("t = sales.groupby('region').get_group('n').sort_values(by='revenu')\n",
     "t = sales.groupby('region').get_group('n').sort_values(by='revenue')\n"),
    ("t = sales.dropna().head(2).drop_duplicates(subset=['prodcut'])\n",
     "t = sales.dropna().head(2).drop_duplicates(subset=['product'])\n"),
    ("t = sales.query('revenue > 1').set_index('regoin')\n", "t = sales.query('revenue > 1').set_index('region')\n"),
    ("t = sales.sort_values('revenue').nlargest(2, columns='revnue')\n",
     "t = sales.sort_values('revenue').nlargest(2, columns='revenue')\n"),
    ("t = sales.fillna(0).astype({'revenue': int}).dropna(subset=['x'])\n",
     "t = sales.fillna(0).astype({'revenue': int}).dropna(subset=['region'])\n"),
])
def test_a_column_argument_through_a_chain_that_keeps_some_of_the_frames_columns(cell, good):
    ns = namespace(sales=SALES)
    holds(cell, ns, KeyError, kind="key")
    runs_unclaimed(good, ns)


def test_no_column_claim_through_a_method_that_may_add_columns():
    ns = namespace(sales=SALES)
    for cell in ("t = sales.reset_index().sort_values('index')\n", "t = sales.assign(z=1).sort_values('z')\n",
                 "t = sales.groupby('region').sum().sort_values('revenue')\n",
                 "t = sales.head(3).groupby(['n', 's', 'n']).size()\n"):
        exec(cell, dict(ns))
        runs_unclaimed(cell, ns)


def test_get_group_of_a_value_the_column_does_not_hold():
    ns = namespace(sales=SALES, nums=pd.DataFrame({"k": [1, 2, 2], "v": [1.0, 2.0, 3.0]}))
    f = holds("g = sales.groupby('region').get_group('N')\n", ns, KeyError, kind="key")
    assert "'n'" in f.message
    holds("g = nums.groupby('k').get_group(5)\n", ns, KeyError, kind="key")
    runs_unclaimed("g = sales.groupby('region').get_group('n')\ng = nums.groupby('k').get_group(2.0)\n"
                   "g = nums.groupby('k', sort=False).get_group(True)\n", ns)
    # a groupby object an earlier cell made: the values it grouped by then, not the column now
    grouped, by_number = SALES.groupby("region"), ns["nums"].groupby("k")
    later = SALES.copy()
    regrouped = later.groupby("region")
    later["region"] = ["x", "x", "x"]
    ns.update(grouped=grouped, by_number=by_number, regrouped=regrouped)
    holds("g = grouped.get_group('N')\n", ns, KeyError, kind="key")
    holds("g = by_number.get_group(3)\n", ns, KeyError, kind="key")
    holds("g = regrouped.get_group('x')\n", ns, KeyError, kind="key")
    runs_unclaimed("g = grouped.get_group('s')\ng = by_number.get_group(1)\ng = regrouped.get_group('n')\n"
                   "g = grouped['revenue'].get_group('n')\n", ns)
    big = pd.DataFrame({"k": np.arange(200_000) % 7})
    assert facts_of("g = big.groupby('k').get_group(9)\n", namespace(big=big), "key") == []   # past the budget


# -- positions and labels ---------------------------------------------------------------------------

def test_iloc_takes_positions():
    ns = namespace(df=frame(), s=frame()["qty"])
    f = holds("r = df.iloc['Oslo']\n", ns, TypeError)
    assert f.candidates == []           # df.loc['Oslo'] would fail too: 'Oslo' is no row label
    by_city = namespace(df=frame().drop_duplicates("city").set_index("city"))
    assert holds("r = df.iloc['Lima']\n", by_city, TypeError).candidates == ["df.loc"]
    assert holds("c = df.iloc[:, 'city']\n", ns, ValueError).candidates == ["df.loc"]
    holds("v = s.iloc['a']\n", ns, TypeError)
    for cell in ("r = df.iloc[4]\n", "r = df.iloc[-5]\n", "r = df.iloc[0, 7]\n", "r = df.iloc[:, 9]\n",
                 "v = s.iloc[10]\n", "r = df.iloc[[0, 4]]\n"):
        holds(cell, ns, IndexError)
    runs_unclaimed("r = df.iloc[3]\nr = df.iloc[-4]\nr = df.iloc[0, 6]\nr = df.iloc[2:10]\nv = s.iloc[-1]\n"
                   "r = df.loc[0]\n", ns)


def test_an_integer_label_an_index_of_integers_lacks():
    ns = namespace(s=pd.Series([10, 20, 30]), df=frame(), odd=pd.Series([1, 2], index=[3, 5]),
                   named=pd.Series([1, 2], index=["a", "b"]), floats=pd.Series([1, 2], index=[1.0, 5.0]))
    for cell in ("v = s.loc[5]\n", "v = s[-1]\n", "v = df.loc[4]\n", "v = df.loc[9, 'qty']\n", "v = odd[0]\n",
                 "v = df.at[7, 'qty']\n"):
        holds(cell, ns, KeyError, kind="key")
    runs_unclaimed("v = s.loc[2]\nv = odd.loc[5]\nv = df.loc[3, 'qty']\nv = floats.loc[5]\nv = s.iloc[-1]\n", ns)
    assert facts_of("v = named[0]\n", ns, "key") == []      # a position in pandas before 3.0


def test_a_text_label_an_index_lacks_through_loc():
    cities = pd.DataFrame({"v": [1, 2]}, index=["Oslo", "Lima"])
    ns = namespace(cities=cities, objects=cities.set_axis(pd.Index(["Oslo", "Lima"], dtype=object)),
                   s=pd.Series([10, 20, 30]), dates=pd.Series([1, 2], index=pd.to_datetime(["2020-01-05", "2020-02-01"])))
    f = holds("v = cities.loc['Olso']\n", ns, KeyError, kind="key")
    assert f.candidates == ["'Oslo'"]
    for cell in ("v = objects.loc['Rome', 'v']\n", "v = cities['v'].loc['Rome']\n", "v = s.loc['a']\n",
                 "v = cities.at['Rome', 'v']\n"):
        holds(cell, ns, KeyError, kind="key")
    runs_unclaimed("v = cities.loc['Oslo']\nv = objects.loc['Lima', 'v']\nv = cities.loc['A':'Z']\n"
                   "v = dates.loc['2020-01']\n", ns)


def test_an_index_beyond_the_grid_of_axes_subplots_returned():
    _, axes = plt.subplots(2, 2)
    _, ax = plt.subplots()
    _, row = plt.subplots(1, 3)
    ns = namespace(axes=axes, ax=ax, row=row)
    try:
        for cell in ("axes[2, 0].plot([1, 2])\n", "axes[4].set_title('x')\n", "axes[0][3].plot([1])\n",
                     "axes[-3, 0].plot([1])\n", "row[3].plot([1])\n", "axes[0, 0, 1].plot([1])\n"):
            f = holds(cell, ns, IndexError)
            assert "grid of Axes" in f.message
        f = holds("ax[0].plot([1, 2])\n", ns, TypeError)
        assert "not subscriptable" in f.message
        runs_unclaimed("axes[1, 1].plot([1])\naxes[0][1].plot([1])\nrow[-1].plot([1])\nax.plot([1])\n", ns)
    finally:
        plt.close("all")


# -- the shapes a frame is made of ------------------------------------------------------------------

@pytest.mark.parametrize("cell, good", [
    ("df['pred'] = preds\n", "df['pred'] = preds[:4]\n"),
    ("df['pred'] = [1, 2, 3]\n", "df['pred'] = [1, 2, 3, 4]\n"),
    ("df['pred'] = listed\n", "df['pred'] = listed[:4]\n"),
    ("df['pred'] = model.predict(X)\n", "df['pred'] = model.predict(X[:4])\n"),
    ("df['pred'] = np.zeros(3)\n", "df['pred'] = np.zeros(4)\n"),
    ("out = pd.DataFrame(X, columns=['a', 'b'])\n", "out = pd.DataFrame(X, columns=['a', 'b', 'c'])\n"),
    ("out = pd.DataFrame(X[:4], columns=df.columns)\n", "out = pd.DataFrame(X[:4, :2], columns=df.columns)\n"),
    ("out = pd.DataFrame(X, index=df.index)\n", "out = pd.DataFrame(X[:4], index=df.index)\n"),
    ("out = pd.DataFrame(data=X[:, 0], columns=['a', 'b'])\n", "out = pd.DataFrame(data=X[:, 0], columns=['a'])\n"),
    ("s = StandardScaler().fit_transform(X)\nout = pd.DataFrame(s, columns=['a'])\n",
     "s = StandardScaler().fit_transform(X)\nout = pd.DataFrame(s, columns=['a', 'b', 'c'])\n"),
])
def test_a_column_or_a_frame_of_another_shape_than_its_labels(cell, good):
    from sklearn.linear_model import LinearRegression
    from sklearn.preprocessing import StandardScaler
    X = np.arange(18.0).reshape(6, 3)
    ns = namespace(df=pd.DataFrame({"a": [1, 2, 3, 4], "b": [5, 6, 7, 8]}), X=X, preds=np.arange(6.0),
                   listed=list(range(6)), model=LinearRegression().fit(X, np.arange(6.0)), StandardScaler=StandardScaler)
    f = holds(cell, ns, ValueError)
    assert "Length of values" in f.message or "Shape of passed values" in f.message
    runs_unclaimed(good, ns)


def test_no_shape_claim_where_pandas_aligns_the_labels_or_the_frame_has_no_rows():
    ns = namespace(df=pd.DataFrame({"a": [1, 2, 3, 4]}), empty=pd.DataFrame(), s=pd.Series([1.0, 2.0]),
                   other=pd.DataFrame({"x": [1, 2]}))
    runs_unclaimed("df['s'] = s\nempty['x'] = [1, 2, 3]\nout = pd.DataFrame(other, columns=['x', 'y'])\n"
                   "t = pd.DataFrame(np.zeros((2, 2)), columns=['p', 'q'], dtype=float)\n", ns)
    # lists of lists are a MultiIndex's levels (pydata-book ch08): two lists, four labels each
    runs_unclaimed("f = pd.DataFrame(np.arange(12).reshape((4, 3)), index=[['a', 'a', 'b', 'b'], [1, 2, 1, 2]],\n"
                   "                 columns=[['Ohio', 'Ohio', 'Colorado'], ['Green', 'Red', 'Green']])\n"
                   "g = pd.DataFrame(np.zeros((3, 2)), columns=levels)\n", dict(ns, levels=[["a", "b"], ["x", "y"]]))


# -- what a plot is given -------------------------------------------------------------------------

@pytest.mark.parametrize("cell, good", [
    ("plt.plot(x, y)\n", "plt.plot(x, y[:10])\n"),
    ("plt.plot(x, y, 'o-', label='a')\n", "plt.plot(x, x ** 2, 'o-', label='a')\n"),
    ("ax.plot(s, y)\n", "ax.plot(s, y[:10])\n"),
    ("ax.plot(x, [1, 2, 3])\n", "ax.plot([1, 2, 3], [3, 2, 1])\n"),
    ("plt.scatter(x, y)\n", "plt.scatter(x, s)\n"),
    ("ax.scatter(s, y, c='red', s=5)\n", "ax.scatter(s, x, c='red', s=5)\n"),
    ("t = np.linspace(0, 1, 10)\nplt.plot(t, np.arange(11))\n", "t = np.linspace(0, 1, 10)\nplt.plot(t, np.arange(10))\n"),
    ("fig, axes = plt.subplots(1, 2)\naxes[0].plot(x, y)\n", "fig, axes = plt.subplots(1, 2)\naxes[1].plot(x, s)\n"),
    ("fig, one = plt.subplots()\none.scatter(x, y)\n", "fig, one = plt.subplots()\none.scatter(y, y)\n"),
    # a projection's Axes whose plot and scatter are the Axes' own, also one a loop runs over
    ("fig, p = plt.subplots(subplot_kw={'projection': 'polar'})\np.plot(x, y, 'o')\n",
     "fig, p = plt.subplots(subplot_kw={'projection': 'polar'})\np.plot(x, x, 'o')\n"),
    ("fig, ps = plt.subplots(2, 2, subplot_kw={'projection': 'polar'})\nfor p in ps.flat:\n    p.scatter(x, y)\n",
     "fig, ps = plt.subplots(2, 2, subplot_kw={'projection': 'polar'})\nfor p in ps.flat:\n    p.scatter(x, x)\n"),
    # a whole array's reduction is one number: it broadcasts
    ("plt.plot(x, y - y.mean())\n", "plt.plot(x, y[1:] - y.mean())\n"),
])
def test_a_plot_of_x_and_y_of_different_lengths(cell, good):
    _, ax = plt.subplots()
    ns = namespace(x=np.arange(10.0), y=np.arange(11.0), s=pd.Series(np.arange(10)), ax=ax)
    try:
        f = holds(cell, ns, ValueError)
        assert "x and y must" in f.message
        runs_unclaimed(good, ns)
    finally:
        plt.close("all")


@pytest.mark.parametrize("cell, good", [
    ("ax.semilogx(x, y)\n", "ax.semilogx(x, y[1:])\n"),
    ("ax.loglog(x, y, 'o')\n", "ax.loglog(x, x, 'o')\n"),
    ("fig, (a1, a2) = plt.subplots(2)\na2.semilogy(x, y, lw=2)\n", "fig, (a1, a2) = plt.subplots(2)\na2.semilogy(x, x, lw=2)\n"),
])
def test_a_log_plot_is_a_plot_of_x_and_y(cell, good):
    _, ax = plt.subplots()
    ns = namespace(x=np.arange(1.0, 11.0), y=np.arange(1.0, 12.0), s=pd.Series(np.arange(10)), ax=ax)
    try:
        assert "x and y must" in holds(cell, ns, ValueError).message
        runs_unclaimed(good, ns)
        # the scale's own keywords: no claim (they are read first)
        *before, last = cell.splitlines()
        assert facts_of("\n".join([*before, last[:-1] + ", base=2)"]) + "\n", ns, "value") == []
    finally:
        plt.close("all")


@pytest.mark.parametrize("cell, good", [
    ("ax.fill_between(x, y)\n", "ax.fill_between(x, x)\n"),
    ("ax.fill_between(x, 0, y)\n", "ax.fill_between(x, 0, x ** 2)\n"),
    ("ax.fill_between(x, x, y2=y, where=x > 3, alpha=0.3)\n", "ax.fill_between(x, x, y2=1.5, where=x > 3, alpha=0.3)\n"),
    ("ax.fill_betweenx(y, x)\n", "ax.fill_betweenx(y, y[0])\n"),
    ("t = np.linspace(0, 1, 10)\nfig, one = plt.subplots()\none.fill_between(t, np.sin(2 * np.pi * t[1:]))\n",
     "t = np.linspace(0, 1, 10)\nfig, one = plt.subplots()\none.fill_between(t, np.sin(2 * np.pi * t))\n"),
])
def test_a_fill_between_curves_of_another_size_than_x(cell, good):
    _, ax = plt.subplots()
    ns = namespace(x=np.arange(10.0), y=np.arange(11.0), ax=ax)
    try:
        assert "has an unequal size" in holds(cell, ns, ValueError).message
        runs_unclaimed(good, ns)
    finally:
        plt.close("all")


def test_no_log_or_fill_claim_on_another_axes_class_or_pyplots_current_axes():
    """A polar Axes refuses a log scale first; pyplot's current Axes may be a 3-D one, whose
    fill_between takes other arguments."""
    polar = plt.figure().add_subplot(projection="polar")
    ns = namespace(x=np.arange(1.0, 11.0), y=np.arange(1.0, 12.0), polar=polar)
    try:
        for cell, raised in [("polar.semilogx(x, y)\n", NotImplementedError),
                             ("fig, p = plt.subplots(subplot_kw={'projection': 'polar'})\np.semilogx(x, y)\n",
                              NotImplementedError),
                             ("fig, p = plt.subplots(subplot_kw={'projection': '3d'})\np.scatter(x, y)\n", Exception),
                             ("plt.figure().add_subplot(projection='3d')\nplt.fill_between(x, y)\n", TypeError),
                             ("plt.figure().add_subplot(projection='3d')\nplt.semilogx(x, y)\n", Exception)]:
            assert facts_of(cell, ns, "value") == [], cell
            with pytest.raises(raised):
                exec(cell, dict(ns))
    finally:
        plt.close("all")


def test_no_fill_claim_for_a_single_value_two_dimensions_or_an_alias_twice():
    _, ax = plt.subplots()
    ns = namespace(x=np.arange(10.0), y=np.arange(11.0), one=np.ones(1), grid=np.ones((10, 2)), ax=ax)
    try:
        runs_unclaimed("ax.fill_between(x, one, 0)\n", ns)             # one value: broadcast
        for cell, raised in [("ax.fill_between(x, grid)\n", ValueError),     # not 1-D: another message
                             ("ax.fill_between(x, y, fc='r', facecolor='b')\n", TypeError)]:
            assert facts_of(cell, ns, "value") == [], cell
            with pytest.raises(raised):
                exec(cell, dict(ns))
    finally:
        plt.close("all")


def test_no_plot_claim_where_the_keywords_or_data_come_first():
    ns = namespace(x=np.arange(10.0), y=np.arange(11.0), df=pd.DataFrame({"a": [1, 2], "b": [3, 4]}))
    try:
        # two names of one property: matplotlib's TypeError first; data=: x and y are its keys
        assert facts_of("plt.plot(x, y, lw=2, linewidth=3)\n", ns, "value") == []
        with pytest.raises(TypeError):
            exec("plt.plot(x, y, lw=2, linewidth=3)\n", dict(ns))
        runs_unclaimed("plt.plot('a', 'b', data=df)\n", ns)
    finally:
        plt.close("all")


# -- no user code runs ------------------------------------------------------------------------------

RAN: list[str] = []


class Recorded:
    """A value of the user's whose every conversion and comparison records itself."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        RAN.append("__str__")
        return self.text

    def __repr__(self):
        RAN.append("__repr__")
        return self.text

    def __float__(self):
        RAN.append("__float__")
        return 1.0

    def __int__(self):
        RAN.append("__int__")
        return 1

    def __eq__(self, other):
        RAN.append("__eq__")
        return False

    def __hash__(self):
        RAN.append("__hash__")
        return 1

    def __add__(self, other):
        RAN.append("__add__")
        return self

    __sub__ = __mul__ = __truediv__ = __radd__ = __rsub__ = __add__


class UserFrame(pd.DataFrame):
    @property
    def _constructor(self):
        RAN.append("UserFrame._constructor")
        return UserFrame

    @property
    def iloc(self):
        RAN.append("UserFrame.iloc")
        return pd.DataFrame.iloc.__get__(self)


class UserAxes(matplotlib.axes.Axes):
    def __getitem__(self, k):
        RAN.append("UserAxes.__getitem__")
        return self


def test_no_user_code_runs_and_no_claim_on_the_users_objects():
    objects = pd.Series([Recorded("x"), Recorded("1")], dtype=object)
    labelled = pd.Series(["x", "y"], index=pd.Index([Recorded("a"), Recorded("b")], dtype=object))
    named = pd.Series(["x", "y"], name=Recorded("n"))
    user = UserFrame({"a": ["x", "y"], "k": ["p", "q"], "n": [1, 2]})
    fig = plt.figure()
    grid = np.array([UserAxes(fig, (0, 0, 1, 1)), UserAxes(fig, (0, 0, 1, 1))], dtype=object)
    ns = namespace(o=objects, lab=labelled, named=named, user=user, grid=grid, one=grid[0], num=pd.Series([1, 2]),
                   keyed=pd.DataFrame({Recorded("k"): [1, 2], "v": [1, 2]}),
                   by_objects=pd.DataFrame({"o": [Recorded("a"), Recorded("b")], "v": [1, 2]}).groupby("o"))
    cells = ["c = o.astype(int)", "c = o.astype(float)", "c = pd.to_numeric(o)", "c = pd.to_datetime(o)",
             "c = named.astype(float)", "c = pd.to_numeric(named)", "c = o + num",
             "c = o - 1", "c = lab - num", "c = named - num", "c = user['a'].astype(int)", "c = user.iloc['a']",
             "c = user.iloc[9]", "c = user.loc[9]", "c = user.groupby('k').agg({'z': 'sum'})",
             "c = user.merge(user, on='z')", "c = user.pivot_table(index='z', values='n')",
             "c = user.groupby('k').get_group('zz')", "c = grid[5]", "c = one[0]", "c = keyed.groupby('v').get_group(9)",
             "c = user['a'] - user['n']", "c = by_objects.get_group('zz')", "c = user.groupby('k')['zz']",
             "lab.loc['zz']", "lab.loc[7]", "one.plot([1, 2], [1, 2, 3])", "one.scatter([1, 2], [1, 2, 3])",
             "c = o.mean()", "c = user.mean()", "c = user.groupby('k').mean()", "c = keyed.corr()"]
    # bare: `c = lab.loc['zz']` is resolved by flow.py; `one` is an Axes of the user's class
    RAN.clear()                     # making the objects hashed the user's keys
    for cell in cells:
        # pandas' own objects in the same cell, first: claimed
        claims = [f.line for f in kernel_facts(f"c = num.iloc[7]\n{cell}\n", ns) if f.kind in ("value", "key")]
        assert claims == [1], (cell, kernel_facts(f"c = num.iloc[7]\n{cell}\n", ns))
    # a conversion carries the user's row labels along unread: claimed, and none of their code runs
    assert [f.line for f in kernel_facts("c = lab.astype(int)\n", ns) if f.kind == "value"] == [1]
    assert RAN == []
    plt.close("all")


WIDE_FRAME = pd.DataFrame({f"c{k}": [1.0, 2.0] for k in range(5)})


@pytest.mark.parametrize("cell, good", [
    ("fig, ax = plt.subplots(3, 1)\nfor i, col in enumerate(list(wide.columns.values)):\n    ax[i].set_title(col)\n",
     "fig, ax = plt.subplots(5, 1)\nfor i, col in enumerate(list(wide.columns.values)):\n    ax[i].set_title(col)\n"),
    ("fig, axes = plt.subplots(1, 4)\nfor i, col in enumerate(wide):\n    a = axes[i]\n    a.plot(wide[col])\n",
     "fig, axes = plt.subplots(1, 5)\nfor i, col in enumerate(wide):\n    a = axes[i]\n    a.plot(wide[col])\n"),
    ("out = np.zeros(4)\nfor k in range(len(wide.columns)):\n    out[k] = wide.iloc[0, k]\n",
     "out = np.zeros(5)\nfor k in range(len(wide.columns)):\n    out[k] = wide.iloc[0, k]\n"),
    ("for k in range(1, 6):\n    v = arr[k]\n", "for k in range(1, 5):\n    v = arr[k]\n"),
])
def test_a_loop_that_counts_past_an_arrays_length_indexes_beyond_it(cell, good):
    ns = namespace(wide=WIDE_FRAME, arr=np.arange(5))
    holds(cell, ns, IndexError)
    runs_unclaimed(good, ns)
    plt.close("all")


def test_no_loop_claim_where_an_iteration_may_skip_the_index_or_the_count_may_change():
    ns = namespace(wide=WIDE_FRAME, arr=np.arange(5), names=["a", "b", "c", "d", "e", "f"])
    for cell in ("fig, ax = plt.subplots(3, 1)\nfor i, col in enumerate(wide.columns):\n    if i >= len(ax):\n"
                 "        break\n    ax[i].set_title(col)\n",
                 "fig, ax = plt.subplots(3, 1)\nfor i, col in enumerate(wide.columns):\n    if i < 3:\n        ax[i].set_title(col)\n",
                 "for i, n in enumerate(names):\n    names.pop()\n    v = arr[i]\n",
                 "for i in range(6):\n    i = i % 5\n    v = arr[i]\n",
                 "for i in range(6):\n    try:\n        v = arr[i]\n    except IndexError:\n        pass\n"):
        exec(cell, dict(ns))
        runs_unclaimed(cell, ns)
    plt.close("all")


NUMBERED = pd.DataFrame(np.arange(8.0).reshape((2, 4)))      # each test runs on a copy: cells set columns


@pytest.mark.parametrize("cell, frame", [
    ("col = data[5]\ncol[col.abs() > 3]", NUMBERED),            # a RangeIndex: `[]` reads labels, not positions
    ("data[[1, 7]]", NUMBERED),
    ("data.loc[:, 9]", NUMBERED),
    ("data[0]", pd.DataFrame({"a": [1], "b": [2]})),             # text labels alone: no number is one
    ("data[3]", pd.DataFrame([[1, 2]], columns=[10, 20])),        # an integer Index
])
def test_a_column_number_no_column_is_labelled(cell, frame):
    holds(cell, namespace(data=frame.copy()), KeyError, kind="key")


@pytest.mark.parametrize("cell, frame", [
    ("data[3]", NUMBERED),
    ("data[5] = 1.0\ncol = data[5]", NUMBERED),                 # the cell sets it first
    ("data = data.T\ndata[1]", NUMBERED),                       # rebound
    ("data[5]", pd.DataFrame([[1.0, 2.0]], columns=[1.0, 5.0])),   # 5 == 5.0
    ("data[1]", pd.DataFrame([[1, 2]], columns=["a", True])),      # 1 == True
])
def test_a_column_number_that_is_a_label(cell, frame):
    runs_unclaimed(cell, namespace(data=frame.copy()))


def test_an_axis_name_a_frame_lacks_after_the_cell_set_a_column():
    """Setting a column keeps the object a DataFrame: its axes are its class's."""
    holds('data[4] = np.nan\ndata.dropna(axis="colums", how="all")', namespace(data=NUMBERED.copy()), ValueError)


class LoggedFrame(pd.DataFrame):
    """A user's frame whose item lookup has a side effect: no fact may run it."""
    reads: list = []

    def __getitem__(self, key):
        LoggedFrame.reads.append(key)
        return super().__getitem__(key)


def test_a_users_frame_class_is_not_judged_by_column_number_nor_run():
    frame = LoggedFrame(np.arange(8.0).reshape((2, 4)))
    LoggedFrame.reads.clear()
    assert facts_of("col = data[5]", namespace(data=frame), "key") == []
    assert facts_of("g = data.groupby(0)\ng['x']", namespace(data=frame), "key") == []
    assert LoggedFrame.reads == []


# -- pd.cut and pd.qcut: as many labels as bins ------------------------------------------------------

@pytest.mark.parametrize("wrong,right", [
    ('s["cat"] = pd.cut(s["income"], bins=[0., 1.5, 3.0, 4.5, 6., np.inf], labels=[1, 2, 3, 4])',
     's["cat"] = pd.cut(s["income"], bins=[0., 1.5, 3.0, 4.5, 6., np.inf], labels=[1, 2, 3, 4, 5])'),
    ('c = pd.cut(s["income"], 3, labels=["low", "high"])', 'c = pd.cut(s["income"], 3, labels=["low", "mid", "high"])'),
    ('c = pd.qcut(s["income"], 4, labels=["q1", "q2", "q3"])', 'c = pd.qcut(s["income"], 4, labels=["q1", "q2", "q3", "q4"])'),
    ('c = pd.qcut(s["income"], [0, 0.5, 1], ["low", "mid", "high"])', 'c = pd.qcut(s["income"], [0, 0.5, 1], ["low", "high"])'),
    ("c = pd.cut(incomes, [0, 5, 10], False, ['a'])", "c = pd.cut(incomes, [0, 5, 10], False, ['a', 'b'])"),
])
def test_cut_labels_one_fewer_than_the_edges(wrong, right):
    """pandas' own cut on the first rows finds the labels' count wrong: claimed, and the cell raises
    ValueError; the count pandas takes runs unclaimed."""
    income = pd.Series(np.random.default_rng(0).uniform(0, 10, 200))
    ns = namespace(s=pd.DataFrame({"income": income}), incomes=income.to_numpy())
    f = holds(wrong + "\n", ns, ValueError)
    assert "Bin labels must be one fewer" in f.message
    runs_unclaimed(right + "\n", ns)


def test_no_cut_claim_where_the_edges_depend_on_the_data_or_the_labels_are_not_read():
    """duplicates="drop" makes the edges' count the data's; labels=False or a name are not a
    written count; text values are not cut by this rule's reading. (pandas' own cut and qcut asked on the
    values themselves, few and plain, is stand_ins.maker_claim's: held to what pandas raises.)"""
    ns = namespace(s=pd.Series([1.0, 1.0, 1.0, 2.0, 3.0]), names=["a", "b"], t=pd.Series(["a", "b"]))
    for cell in ['c = pd.qcut(s, 4, labels=["a", "b", "c", "d"], duplicates="drop")\n', "c = pd.cut(s, 3, labels=names)\n"]:
        assert holds(cell, ns, ValueError).message.startswith("pd.")     # pandas' own call, asked
    for cell in ["c = pd.cut(s, 3, labels=False)\n",
                 'c = pd.cut(t, 3, labels=["a", "b"])\n']:
        assert facts_of(cell, ns, "value") == [], cell


def test_cut_claims_exactly_when_pandas_raises_over_random_bins():
    """Random Series (numbers, NaNs, repeated values, past the rows read), bins as edges or a count,
    cut and qcut, labels of every count near the right one: each claim's call raises ValueError,
    and every call refused for its labels' count is claimed."""
    rng = random.Random(7)
    claimed = 0
    for _ in range(120):
        n = rng.choice([5, 50, 1500])
        values = np.round(np.random.default_rng(rng.randrange(10**6)).normal(5, 3, n), rng.choice([0, 2]))
        if rng.random() < 0.3:
            values[rng.randrange(n)] = np.nan
        s = pd.Series(values)
        how = rng.choice(["cut", "qcut"])
        count = rng.randint(2, 6)
        if how == "cut" and rng.random() < 0.5:
            edges = sorted(rng.sample(range(-5, 16), count + 1))
            bins = "[" + ", ".join(map(str, edges)) + "]"
        else:
            bins = str(count)
        labels = "[" + ", ".join(repr(f"l{k}") for k in range(max(1, count + rng.choice([-1, 0, 0, 1])))) + "]"
        cell = f"c = pd.{how}(s, {bins}, labels={labels})\n"
        ns = namespace(s=s)
        facts = facts_of(cell, ns, "value")
        try:
            exec(cell, dict(ns))
            said = None
        except ValueError as e:
            said = str(e)
        refused = said is not None and said.startswith("Bin labels must be one fewer")
        assert (said is not None) if facts else not refused, (cell, said, facts)
        claimed += bool(facts)
    assert claimed > 20


# -- frames the cell makes --------------------------------------------------------------------------

COLUMN_VALUES = ['[1, 2, 3]', '["a", "b", "c"]', '[1.5, 2, None]', '[1, 2]', '7', '"x"', 'range(3)', 'range(1, 3)',
                 'pd.Series([4, 5, 6], dtype="Int64")', 'pd.Series(range(2))', 'np.arange(3)', '[[1, 2], [3, 4], [5, 6]]']
KEYS = ["a", "b", "c", "d", "ab"]
USES = ['f[{k!r}]', 'f.{k}', 'f.sort_values({k!r})', 'f.groupby({k!r}).size()', 'f.drop(columns=[{k!r}])',
        'pd.merge(f, g, on={k!r})', 'f.merge(g, left_on={k!r}, right_on="a")', 'f.dropna(subset=[{k!r}])',
        'f.set_index({k!r})', 'f.pivot_table(index={k!r}, values="a")', 'f[[{k!r}, "a"]]', 'f[{k!r}].cumsun()',
        'f.{k}.cumsum()', 'f.groupby("a")[{k!r}].sum()']


# methods whose result's columns follow from the frame's (abstract_pandas.FRAME_METHODS)
FRAME_METHODS = ["", "", "", ".head(2)", ".tail(-1)", ".copy()", '.rename(columns={"a": "ab", "c": "a"})',
                 '.set_index("b")', ".reset_index(drop=True)", ".assign(d=1, a=0)", ".dropna()", ".fillna(0)", ".isna()",
                 ".sort_index()", ".sample(n=1, random_state=0)", '.drop_duplicates(subset=["a"])', ".head().notna()"]


def _made_frame(rnd: random.Random) -> str:
    return _constructed(rnd) + rnd.choice(FRAME_METHODS)


def _constructed(rnd: random.Random) -> str:
    if rnd.random() < 0.25:
        cols = rnd.sample(KEYS[:4], rnd.choice([2, 3]))
        rows = rnd.choice([2, 3])
        width = len(cols) if rnd.random() < 0.8 else len(cols) + 1
        index = f", index={[f'r{i}' for i in range(rnd.choice([rows, rows, rows + 1]))]}" if rnd.random() < 0.3 else ""
        data = f"np.zeros(({rows}, {width}))" if rnd.random() < 0.5 else repr([[1.5] * width] * rows)
        return f"pd.DataFrame({data}, columns={cols}{index})"
    items = ", ".join(f"{k!r}: {rnd.choice(COLUMN_VALUES)}" for k in rnd.sample(KEYS[:4], rnd.randint(1, 3)))
    return "pd.DataFrame({" + items + "})"


def claimed_where_it_raises(cell: str) -> tuple[list, str | None, int | None]:
    """The cell's key, attribute and value facts, what running it raised and on which line; the
    first claim must be on that line, naming that exception (a claim past it is not read)."""
    facts = [f for f in kernel_facts(cell, namespace()) if f.kind in ("key", "attribute", "value")]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # pandas' merge of ints and floats, and the like
            exec(cell, namespace())
        raised, line = None, None
    except Exception as e:  # noqa: BLE001 - compared with the claim
        raised = type(e).__name__
        line = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<string>"][-1]
    if facts:
        first = min(facts, key=lambda f: f.line)
        assert raised is not None and (first.line > line or named(first) == raised and first.line == line), \
            (cell, facts, raised, line)
    return facts, raised, line


def test_frames_the_cell_makes_claimed_exactly_where_pandas_refuses_the_column():
    """A frame the cell builds from a dict of columns or a 2-D array with column labels (pandas'
    constructor, as documented), then through a method that keeps, renames, moves or adds
    columns: a column the frame lacks, read as a key, an attribute or a method's column
    argument, is claimed, and running the cell raises there; a call pandas accepts, or a frame
    it refuses to build, gets no claim."""
    rnd = random.Random(5)
    claimed = ran = 0
    for _ in range(800):
        use = rnd.choice(USES).format(k=rnd.choice(KEYS))
        cell = f"f = {_made_frame(rnd)}\ng = pd.DataFrame({{'a': [1, 2, 3], 'z': [0, 0, 1]}})\nr = {use}\n"
        facts, raised, line = claimed_where_it_raises(cell)
        if facts:
            claimed += 1
        else:
            ran += raised is None
            assert raised not in ("KeyError", "AttributeError") or line != 3 or not _surely_built(cell), (cell, raised)
    assert claimed > 100 and ran > 100, (claimed, ran)


def _surely_built(cell: str) -> bool:
    """Frames whose columns the rule reads (every dict value a list, range or scalar of one
    length, no nested list, no array): a miss there would be a gap, not caution; but for
    pivot_table's keys on rows not known (a list of keys as long as the rows groups by them)."""
    first, _, use = cell.splitlines()[:3]
    rows_unknown = "dropna" in first or "drop_duplicates" in first
    return "np." not in first and "[[" not in first and "pd.Series" not in first and "None" not in first and \
        not (rows_unknown and "pivot_table" in use)


PLOTS = ['df.plot(x={a!r}, y={b!r})', 'df.plot.pie(x={a!r}, y={a!r})', 'df.plot({a!r}, {b!r})', 'df.plot(y=[{a!r}, {b!r}])', 'df.plot(kind="bar", x={a!r})',
         'df.plot.scatter(x={a!r}, y={b!r})', 'df.plot.scatter({a!r}, {b!r})', 'df.plot.line({a!r})',
         'df.plot.hexbin(x={a!r}, y={b!r}, gridsize=2)', 'df.plot.pie(y={a!r})', 'df.plot.box(y={a!r})',
         'df.plot.hist(y={a!r})', 'df.hist(column={a!r})', 'df.boxplot(column=[{a!r}, {b!r}])', 'df.hist({a!r})',
         'df.plot.bar(x={a!r}, y={b!r}, rot=0)', 'df.plot.area(y={b!r})']


def test_a_label_a_plot_reads_claimed_exactly_where_pandas_raises_keyerror():
    """pandas reads a plot's x and y (a pie's y; hist's and boxplot's column) as `data[label]`
    before it draws: a label the frame lacks is a KeyError there, claimed; drawn ones are not."""
    rnd = random.Random(3)
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [3.0, 1.0, 2.0], "c": [1.0, 1.0, 2.0]})
    claimed = drawn = 0
    for _ in range(120):
        cell = "r = " + rnd.choice(PLOTS).format(a=rnd.choice("abz"), b=rnd.choice("bcw")) + "\n"
        facts = [f for f in kernel_facts(cell, namespace(df=frame)) if f.kind in ("key", "value")]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(cell, namespace(df=frame))
            raised = None
        except Exception as e:  # noqa: BLE001 - compared with the claim
            raised = type(e).__name__
        finally:
            plt.close("all")
        if facts:
            claimed += 1
            assert raised == "KeyError", (cell, facts, raised)
        else:
            drawn += raised is None
            assert raised != "KeyError", cell
    assert claimed > 30 and drawn > 30, (claimed, drawn)


SERIES = ['pd.Series([4, 7, -5])', 'pd.Series([4, 7, -5], index=["d", "b", "a"])', 'pd.Series({"d": 1, "b": 2.5})',
          'pd.Series([1.5, 2], index=["a", "x"], name="n")', 'pd.Series(["u", "v"], index=[3, 5])',
          'pd.Series([4, 7], index=["d", "d"])', 'pd.Series([4, 7], index=["d"])', 'pd.Series({"a": 1}, index=["a", "q"])']
SERIES_USES = ['r = s[{k!r}]', 'r = s.{k}', 'r = s.{k}.mean()', 's[{k!r}] = 0\nr = s[{k!r}]', 'r = s[[{k!r}]]',
               'r = s.mena()', 'r = s.sum()']


def test_a_series_the_cell_writes_lacks_the_labels_it_was_not_given():
    """A Series built from what the cell wrote (a list with or without its labels, a dict): a
    string label it lacks, read as a key or an attribute, is claimed, and pandas raises there."""
    rnd = random.Random(9)
    claimed = ran = 0
    for _ in range(300):
        use = rnd.choice(SERIES_USES).format(k=rnd.choice(["a", "b", "d", "e", "x"]))
        cell = f"s = {rnd.choice(SERIES)}\n{use}\n"
        facts, raised, line = claimed_where_it_raises(cell)
        if facts:
            claimed += 1
        else:
            ran += raised is None
            built = '"d"]' not in cell.splitlines()[0] and '"q"' not in cell
            assert not built or raised not in ("KeyError", "AttributeError") or "[[" in use, (cell, raised)
    assert claimed > 60 and ran > 60, (claimed, ran)


def test_a_conversion_of_a_column_where_the_cell_set_other_columns_first():
    """The cell sets other columns of the frame before (a loop over its columns, pass by pass):
    this column's values are the kernel's still; one the cell set itself is not read."""
    holds("df['id'] = df['id'].astype(int)\np = df['price'].astype(int)\n", namespace(df=frame()), ValueError)
    holds("for c in cols:\n    df[c] = df[c].astype(int)\n", namespace(df=frame(), cols=["id", "price"]), ValueError)
    runs_unclaimed("df['price'] = 1\np = df['price'].astype(int)\n", namespace(df=frame()))
    runs_unclaimed("for c in cols:\n    df[c] = df[c].astype(int)\n", namespace(df=frame(), cols=["id", "qty"]))
