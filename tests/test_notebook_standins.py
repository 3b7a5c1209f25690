"""The benchmark's stand-ins for a kernel (bench/notebook_standins.py) use what the published
summary holds: a fitted estimator's published fitted attributes, the attributes published of
an object that is otherwise opaque. Each stand-in must be faithful: the facts it gives are the
ones the real kernel object gives, and nothing the summary does not hold is invented."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from notebook_standins import Opaque, build_namespace  # noqa: E402

from jupyter_codecheck.facts import kernel_facts  # noqa: E402

EARLIER = ["import numpy as np\nimport pandas as pd\nfrom sklearn.ensemble import RandomForestRegressor\n",
           "model = RandomForestRegressor().fit(X, y)\ngen = make_generator()\nhistory = train()\n"]
FITTED = {"class_name": "RandomForestRegressor", "fitted_attributes": {"n_features_in_": 3, "n_outputs_": 1},
          "is_fitted": True, "type": "<class 'sklearn.ensemble._forest.RandomForestRegressor'>"}


def frame(width: int) -> dict:
    return {"type": "pandas.core.frame.DataFrame", "shape": [10, width],
            "per_column": {f"c{k}": {"type": "continuous", "value_range": [0.0, 1.0]} for k in range(width)}}


def test_a_fitted_estimator_holds_its_published_fitted_attributes_and_takes_x_as_the_real_one():
    target = "p = model.predict(X_test)\n"
    for width, claimed in ((2, True), (3, False)):
        st = build_namespace(EARLIER + ["X_test = load()\n"], target, {"model": FITTED, "X_test": frame(width)})
        model = st.namespace["model"]
        assert type(model).__name__ == "RandomForestRegressor" and model.n_features_in_ == 3
        found = [f for f in kernel_facts(target, st.namespace) if f.kind == "call"]
        assert bool(found) == claimed, found
        if claimed:
            assert "2 features" in found[0].message


def test_a_fitted_estimator_is_opaque_where_the_target_reads_what_the_summary_does_not_publish():
    st = build_namespace(EARLIER, "t = model.estimators_[0]\n", {"model": FITTED})
    assert type(st.namespace["model"]) is Opaque
    assert kernel_facts("t = model.estimators_[0]\n", st.namespace) == []


def test_an_opaque_objects_published_attributes_are_its_own_and_the_rest_stays_unknown():
    runtime = {"np": {"type": "<class 'module'>"},
               "gen": {"type": "<class 'keras.src.legacy.preprocessing.image.DirectoryIterator'>"},
               "__method__gen_classes": {"dtype": "int32", "shape": [6], "type": "numpy.ndarray"},
               "history": {"type": "<class 'keras.src.callbacks.history.History'>"},
               "__method__history_history": {"detected": "training_history_dict", "length": 2,
                                             "metrics": ["accuracy", "loss"], "type": "<class 'dict'>"}}
    target = "c = np.argmax(gen.classes, axis=1)\na = history.history['acc']\nb = gen.filenames[0]\n"
    st = build_namespace(EARLIER, target, runtime)
    classes = st.namespace["gen"].classes
    assert type(classes) is np.ndarray and classes.shape == (6,)
    assert sorted(st.namespace["history"].history) == ["accuracy", "loss"]
    found = sorted((f.line, f.kind) for f in kernel_facts(target, st.namespace))
    assert found == [(1, "value"), (2, "key")], kernel_facts(target, st.namespace)


def test_a_published_attribute_the_target_does_not_read_leaves_the_object_opaque():
    runtime = {"gen": {"type": "<class 'keras.DirectoryIterator'>"},
               "__method__gen_classes": {"dtype": "int32", "shape": [6], "type": "numpy.ndarray"}}
    st = build_namespace(EARLIER, "n = gen.samples\n", runtime)
    assert type(st.namespace["gen"]) is Opaque


def test_a_frame_published_without_column_names_has_its_shape_and_no_name_can_be_told():
    earlier = ["import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\n", "train = a()\ntest = b()\n"]
    runtime = {"StandardScaler": {"type": "<class 'type'>"},
               "train": {"type": "pandas.core.frame.DataFrame", "shape": [624, 300], "dtypes": ["bool"]},
               "test": {"type": "pandas.core.frame.DataFrame", "shape": [5, 56], "dtypes": ["bool"]}}
    target = "s = StandardScaler()\ntrain = s.fit_transform(train)\ntest = s.transform(test)\nv = test['a']\nw = test.a\n"
    st = build_namespace(earlier, target, runtime)
    assert st.namespace["train"].shape == (624, 300) and st.namespace["test"].shape == (5, 56)
    found = [(f.line, f.kind) for f in kernel_facts(target, st.namespace)]
    assert found == [(3, "call")], kernel_facts(target, st.namespace)
    mixed = dict(runtime, test={"type": "pandas.core.frame.DataFrame", "shape": [5, 56], "dtypes": ["bool", "int64"]})
    assert type(build_namespace(earlier, target, mixed).namespace["test"]) is Opaque


def test_an_array_whose_distinct_values_are_published_holds_them_not_an_invented_zero():
    summary = {"y_pred": {"dtype": "object", "shape": [7], "type": "numpy.ndarray",
                          "value_info": {"num_unique": 3, "unique_values": ["versicolor", "setosa", "virginica"]}},
               "big": {"dtype": "float64", "shape": [2000, 2000], "type": "numpy.ndarray", "value_range": [0.5, 2.0],
                       "value_info": {"unique_values": [0.5, 2.0]}}}
    st = build_namespace(["y_pred = clf.predict(x)\nbig = load()\n"], "print(y_pred, big)\n", summary)
    y_pred = st.namespace["y_pred"]
    assert y_pred.shape == (7,) and set(y_pred.tolist()) == {"versicolor", "setosa", "virginica"}
    big = st.namespace["big"]             # past a million elements: one element, the least published
    assert big.shape == (2000, 2000) and big.strides == (0, 0) and big[0, 0] == 0.5


def test_a_frame_published_with_columns_holds_them_and_no_row_label_can_be_told():
    # the summary gives a frame's columns and shape, never its row labels: dropping row 10472 of
    # a 10,841-row frame is no claim, while a column it lacks still is
    earlier = ["import pandas as pd\n", "df = pd.read_csv('data.csv')\n"]
    runtime = {"df": frame(3)}
    for target, kinds in (("df.drop([10472], inplace=True)\n", []),
                          ("x = df.loc[10472]\n", []),
                          ("x = df['c7']\n", ["key"])):
        st = build_namespace(earlier, target, runtime)
        assert [f.kind for f in kernel_facts(target, st.namespace)] == kinds, target
