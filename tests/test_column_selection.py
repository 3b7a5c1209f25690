"""A ColumnTransformer the cell makes, fitted on a frame that lacks a column it names
(facts/column_selection.py), held against scikit-learn by running each cell: a claim where the
fit raises ValueError on that line, none where the cell runs; `list(df)` gives the frame's labels."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from jupyter_codecheck.facts import kernel_facts
from test_value_propagation import run, value_facts

HOUSING = pd.DataFrame({"rooms": np.arange(12.0), "income": np.linspace(1, 5, 12),
                        "ocean_proximity": ["INLAND", "NEAR BAY", "<1H OCEAN"] * 4})


def ns() -> dict:
    return {"pd": pd, "np": np, "housing": HOUSING.copy(), "housing_num": HOUSING.drop(columns="ocean_proximity"),
            "labels": pd.Series(np.arange(12.0)), "ColumnTransformer": ColumnTransformer,
            "OneHotEncoder": OneHotEncoder, "StandardScaler": StandardScaler, "Pipeline": Pipeline,
            "LinearRegression": LinearRegression, "make_column_selector": make_column_selector,
            "num_pipeline": Pipeline([("imputer", SimpleImputer(strategy="median")), ("std", StandardScaler())])}


CELL = """num_attribs = list(housing_num)
cat_attribs = {cat}
full = ColumnTransformer([
    ("num", num_pipeline, num_attribs),
    ("cat", OneHotEncoder(), cat_attribs),
]{options})
prepared = full.fit_transform(housing)
"""


@pytest.mark.parametrize("cell, missing", [
    (CELL.format(cat='["ocean_proximty"]', options=""), "'ocean_proximty'; did you mean 'ocean_proximity'?"),
    # one name written in the tuple; a dropped transformer's columns are looked up too
    (CELL.format(cat="None", options=", remainder='drop'").replace("OneHotEncoder(), cat_attribs", "'drop', 'ocean'"),
     "'ocean'"),
    (CELL.format(cat="None", options="").replace("cat_attribs),", "'ocean_proximty'),"),
     "'ocean_proximty'; did you mean 'ocean_proximity'?"),
    (CELL.format(cat='["ocean_proximity"]', options="").replace("list(housing_num)", '["rooms", "incme"]'),
     "'incme'; did you mean 'income'?"),
    # a Pipeline's first step, fitted with y
    (CELL.format(cat='["ocean"]', options="").replace("prepared = full.fit_transform(housing)",
                                                       "model = Pipeline([('prep', full), ('lr', LinearRegression())])\n"
                                                       "model.fit(housing, labels)"), "'ocean'"),
])
def test_a_column_the_frame_lacks_is_claimed_and_scikit_learn_raises(cell, missing):
    (fact,) = value_facts(cell, ns())
    assert f"has no column {missing}: ValueError (Some column names are not columns of the dataframe" in fact.message
    assert run(cell, ns()) == ("ValueError", fact.line)


@pytest.mark.parametrize("cell", [
    CELL.format(cat='["ocean_proximity"]', options=""),
    CELL.format(cat="None", options=", remainder='passthrough'").replace("OneHotEncoder(), cat_attribs",
                                                                           "'drop', 'ocean_proximity'"),
    # positions and selectors are not names
    CELL.format(cat="[2]", options=""),
    CELL.format(cat="make_column_selector(dtype_include=object)", options=""),
    # the frame gains the column before the fit
    CELL.format(cat='["ocean"]', options="").replace("prepared =", "housing['ocean'] = 'x'\nprepared ="),
])
def test_no_claim_where_the_fit_runs(cell):
    assert value_facts(cell, ns()) == []
    assert run(cell, ns()) is None


def test_no_claim_where_scikit_learn_refuses_something_else_first():
    cell = CELL.format(cat='["ocean"]', options=", remainder='drops'")     # InvalidParameterError first
    assert value_facts(cell, ns()) == []
    assert run(cell, ns())[0] == "InvalidParameterError"


FITTED = """ct = ColumnTransformer([("num", StandardScaler(), ["rooms", "income"]),
                        ("cat", OneHotEncoder(), ["ocean_proximity"])])
model = Pipeline([("prep", {first}), ("lr", LinearRegression())])
model.fit(housing, labels)
p = model.predict({x})
"""


@pytest.mark.parametrize("cell, message", [
    # a Pipeline fitted in the cell on a frame, given an array: its first step checks the width
    (FITTED.format(first="ct", x="np.ones((3, 16))"),
     "np.ones((3, 16)) has 16 features, but ColumnTransformer is expecting 3 features as input"),
    (FITTED.format(first="StandardScaler()", x="np.ones((3, 5))").replace("housing", "housing_num"),
     "np.ones((3, 5)) has 5 features, but StandardScaler is expecting 2 features as input"),
    ("ct = ColumnTransformer([('num', StandardScaler(), [0, 1])])\nct.fit(np.ones((4, 3)))\nt = ct.transform(np.ones((4, 5)))\n",
     "np.ones((4, 5)) has 5 features, but ColumnTransformer is expecting 3 features as input"),
])
def test_a_pipeline_or_column_transformer_fitted_in_the_cell_checks_the_width_of_an_array(cell, message):
    (fact,) = kernel_facts(cell, ns())
    assert message in fact.message and fact.message.endswith("ValueError")
    assert run(cell, ns()) == ("ValueError", fact.line)


@pytest.mark.parametrize("cell", [
    FITTED.format(first="ct", x="housing"),
    FITTED.format(first="ct", x="housing.assign(extra=1.0)"),       # a frame's extra column is left out
    FITTED.format(first="'passthrough'", x="np.ones((3, 2))").replace("housing", "housing_num"),
])
def test_no_width_claim_where_the_pipeline_runs_or_passes_x_on(cell):
    assert kernel_facts(cell, ns()) == []
    assert run(cell, ns()) is None


CALLS: list[str] = []


class Adder(BaseEstimator, TransformerMixin):
    """A transformer of the user's, as handson-ml2's CombinedAttributesAdder: each of its hooks
    the facts could reach records that it ran."""

    def __init__(self, extra=True):
        self.extra = extra

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return X

    def get_params(self, deep=True):
        CALLS.append("get_params")
        return super().get_params(deep)

    def __sklearn_tags__(self):
        CALLS.append("tags")
        return super().__sklearn_tags__()

    def __eq__(self, other):
        CALLS.append("eq")
        return NotImplemented

    __hash__ = object.__hash__


def test_a_pipeline_of_the_users_transformer_in_the_column_transformer_is_read_and_never_run():
    """The live num_pipeline holds a transformer of the user's: the ColumnTransformer the cell
    makes around it is never made here, its columns are read, and the Pipeline fitted on it checks
    an array's width; none of the user's code runs."""
    objects = ns() | {"num_pipeline": Pipeline([("add", Adder()), ("std", StandardScaler())]),
                      "prepared_rows": np.ones((5, 16))}
    CALLS.clear()
    typo = CELL.format(cat='["ocean_proximty"]', options="")
    (fact,) = value_facts(typo, objects)
    assert "has no column 'ocean_proximty'" in fact.message and CALLS == []
    assert run(typo, objects) == ("ValueError", fact.line)
    # (fitting the user's transformer may write into what it is given: the cell fits it once)
    wide = CELL.format(cat='["ocean_proximity"]', options="").replace("prepared = full.fit_transform(housing)\n", "") + \
        "model = Pipeline([('prep', full), ('lr', LinearRegression())])\nmodel.fit(housing, labels)\n" \
        "p = model.predict(prepared_rows)\n"
    CALLS.clear()
    (fact,) = kernel_facts(wide, objects)
    assert "prepared_rows has 16 features, but ColumnTransformer is expecting 3 features" in fact.message
    assert CALLS == []
    assert run(wide, objects) == ("ValueError", fact.line)
