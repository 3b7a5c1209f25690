"""The estimator facts against scikit-learn itself: every estimator the installed scikit-learn
lists that builds with its defaults is fitted on a small DataFrame and on an array, then each of
its methods that needs a fit (`estimators.NEEDS_FIT`) is called: unfitted, and fitted with X as
fitted, with a column fewer, reordered, renamed, and as an array a column short. A claim whose
call then runs is false; an error with no claim is a miss.

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

from jupyter_codecheck.core.kernel import kernel_facts  # noqa: E402
from jupyter_codecheck.core.kernel.estimators import NEEDS_FIT  # noqa: E402


def _calls(np, pd):
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(rng.rand(40, 3), columns=["a", "b", "c"])
    variants = {"as fitted": frame, "a column fewer": frame[["a", "b"]],
                "reordered": frame[["b", "a", "c"]], "renamed": frame.rename(columns={"a": "z"}),
                "array a column short": frame.to_numpy()[:, :2]}
    return frame, (np.array([0, 1] * 20)), variants


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", help="not read (the estimators are the data)")
    ap.parse_args(argv)
    warnings.simplefilter("ignore")
    import numpy as np
    import pandas as pd
    import sklearn
    from sklearn.utils import all_estimators
    frame, y, variants = _calls(np, pd)
    t0 = time.perf_counter()
    counts = {"calls": 0, "raised": 0, "claimed": 0, "true": 0, "false": 0, "missed": 0}
    false, missed, estimators = [], {}, 0
    for name, cls in all_estimators():
        try:
            cls()
        except Exception:  # noqa: BLE001 - needs arguments: not in this sweep
            continue
        methods = sorted(m for m in NEEDS_FIT if hasattr(cls, m))
        if not methods:
            continue
        estimators += 1
        cases = [("unfitted", cls(), frame)]
        for fit_on in ("frame", "array"):
            data = frame if fit_on == "frame" else frame.to_numpy()
            est = cls()
            try:
                est.fit(data, y)
            except Exception:  # noqa: BLE001
                try:
                    est.fit(data)
                except Exception:  # noqa: BLE001 - cannot fit this data: skipped
                    continue
            cases += [(f"fitted on {fit_on}, X {v}", est, x) for v, x in variants.items()]
        for what, est, x in cases:
            for m in methods:
                src = f"model.{m}(X, y)" if m == "score" else f"model.{m}(X)"
                claims = [f for f in kernel_facts(src, {"model": est, "X": x, "y": y})
                          if f.kind == "call"]
                try:
                    getattr(est, m)(*((x, y) if m == "score" else (x,)))
                    raised = False
                except Exception:  # noqa: BLE001 - what the call raises is what this counts
                    raised = True
                counts["calls"] += 1
                counts["raised"] += raised
                counts["claimed"] += bool(claims)
                if claims and raised:
                    counts["true"] += 1
                elif claims:
                    counts["false"] += 1
                    false.append(f"{name}.{m} {what}: {claims[0].message}")
                elif raised:
                    counts["missed"] += 1
                    missed.setdefault(what, []).append(f"{name}.{m}")
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
