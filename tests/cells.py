"""Running a test's cell the way a kernel would, to hold a claim against what the library raises."""
from __future__ import annotations

import traceback
import warnings


def raised_at(cell: str, ns: dict) -> tuple[str, int] | None:
    """The exception the cell raises in `ns` and the cell's line it raises on; None if it runs."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), ns)
    except Exception as e:  # noqa: BLE001 - whatever the library raises is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None
