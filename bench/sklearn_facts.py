"""The estimator facts against scikit-learn itself: every estimator the installed scikit-learn
lists that builds with its defaults is fitted on a small DataFrame and on an array, then each of
its methods that needs a fit (`estimators.NEEDS_FIT`) is called: unfitted, and fitted with X as
fitted, with a column fewer or an extra one, reordered, renamed, and as an array a column short;
and `fit` with y a sample short, and a fitted `score` so (no claim expected there). Meta-estimators are
built with steps too (a pipeline, a column transformer, a search, ...). A claim is true when the
call fails as it says (unfitted: any error; other columns or samples: a ValueError that is not
NotFittedError; a signature: TypeError); else it is false. An
error with no claim is a miss.

    python bench/sklearn_facts.py [DATA]     # DATA is not read: the estimators are the data

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from jupyter_codecheck.facts import kernel_facts  # noqa: E402
from jupyter_codecheck.facts.estimators import NEEDS_FIT  # noqa: E402
from requirements import require  # noqa: E402


def _calls(np, pd):
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(rng.rand(40, 3), columns=["a", "b", "c"])
    variants = {"as fitted": frame, "a column fewer": frame[["a", "b"]],
                "an extra column": frame.assign(d=frame["a"]),
                "reordered": frame[["b", "a", "c"]], "renamed": frame.rename(columns={"a": "z"}),
                "array a column short": frame.to_numpy()[:, :2]}
    return frame, (np.array([0, 1] * 20)), variants


def _makers(listed):
    """Every listed estimator built with its defaults, and meta-estimators built with steps."""
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import BaggingClassifier, StackingClassifier, VotingClassifier
    from sklearn.feature_selection import SelectFromModel
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    import numpy as np
    fitted = LogisticRegression().fit(np.random.RandomState(1).rand(40, 3), np.array([0, 1] * 20))
    yield from listed
    yield from [
        ("Pipeline(scaler, logistic)", lambda: make_pipeline(StandardScaler(), LogisticRegression())),
        ("ColumnTransformer(scaler on a, b)", lambda: ColumnTransformer([("s", StandardScaler(), [0, 1])])),
        ("SelectFromModel(logistic)", lambda: SelectFromModel(LogisticRegression())),
        ("SelectFromModel(fitted, prefit=True)", lambda: SelectFromModel(fitted, prefit=True)),
        ("GridSearchCV(logistic)", lambda: GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=2)),
        ("VotingClassifier", lambda: VotingClassifier([("a", LogisticRegression())])),
        ("BaggingClassifier(logistic)", lambda: BaggingClassifier(LogisticRegression(), n_estimators=2)),
        ("StackingClassifier", lambda: StackingClassifier([("a", LogisticRegression())], cv=2)),
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", help="not read (the estimators are the data)")
    ap.parse_args(argv)
    require("bench/sklearn_facts.py", packages=("numpy", "pandas", "sklearn"))
    warnings.simplefilter("ignore")
    import numpy as np
    import pandas as pd
    import sklearn
    from sklearn.utils import all_estimators
    frame, y, variants = _calls(np, pd)
    t0 = time.perf_counter()
    counts = {"calls": 0, "raised": 0, "claimed": 0, "true": 0, "false": 0, "missed": 0}
    false, missed, estimators = [], {}, 0
    from sklearn.exceptions import NotFittedError
    for name, make in _makers(all_estimators()):
        try:
            make()
        except Exception:  # noqa: BLE001 - needs arguments: not in this sweep
            continue
        methods = sorted(m for m in NEEDS_FIT if hasattr(make(), m))
        if not methods:
            continue
        estimators += 1
        cases = [("unfitted", make(), frame)]
        for fit_on in ("frame", "array"):
            data = frame if fit_on == "frame" else frame.to_numpy()
            est = make()
            try:
                est.fit(data, y)
            except Exception:  # noqa: BLE001
                try:
                    est.fit(data)
                except Exception:  # noqa: BLE001 - cannot fit this data: skipped
                    continue
            cases += [(f"fitted on {fit_on}, X {v}", est, x) for v, x in variants.items()]
        calls = [(what, est, m, (x, y)) for what, est, x in cases for m in methods]
        # X and y of different lengths, at a fit and (fitted) at a score; and of the same length
        calls += [("fit, y a sample short", make(), "fit", (frame, y[:-1])),
                  ("fit, y as long as X", make(), "fit", (frame, y))]
        calls += [(f"score, y a sample short ({what})", est, "score", (x, y[:-1]))
                  for what, est, x in cases[1:2] if "score" in methods]
        for what, est, m, (x, yy) in calls:
            with_y = m in ("score", "fit")
            src = f"model.{m}(X, y)" if with_y else f"model.{m}(X)"
            claims = [f for f in kernel_facts(src, {"model": est, "X": x, "y": yy}) if f.kind == "call"]
            try:
                getattr(est, m)(*((x, yy) if with_y else (x,)))
                raised = None
            except Exception as e:  # noqa: BLE001 - what the call raises is what this counts
                raised = e
            counts["calls"] += 1
            counts["raised"] += raised is not None
            counts["claimed"] += bool(claims)
            # a claim is true when the call fails as it says: unfitted, with any error; on other
            # columns or another number of samples, with a ValueError that is not NotFittedError;
            # a signature's, with TypeError
            said = claims[0].message if claims else ""
            expected = (Exception if "not fitted yet" in said else
                        ValueError if "ValueError" in said else TypeError)
            right = isinstance(raised, expected) and not (
                expected is ValueError and isinstance(raised, NotFittedError))
            if claims and right:
                counts["true"] += 1
            elif claims:
                counts["false"] += 1
                false.append(f"{name}.{m} {what}: {claims[0].message}")
            elif raised:
                counts["missed"] += 1
                missed.setdefault(what.split(" (")[0], []).append(f"{name}.{m}")
    for line in false:
        print("FALSE", line)
    for what, where in sorted(missed.items()):
        print(f"missed ({what}): {len(where)}: {', '.join(where[:8])}{' ...' if len(where) > 8 else ''}")
    figures = {"sklearn": sklearn.__version__, "estimators": estimators, **counts,
               "recall": round(counts["true"] / counts["raised"], 4) if counts["raised"] else None,
               "seconds": round(time.perf_counter() - t0, 1)}
    print(json.dumps(figures))
    return 1 if counts["false"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
