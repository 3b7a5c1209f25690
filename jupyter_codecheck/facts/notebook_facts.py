"""The facts a notebook cell gets, in one place: the kernel's facts on the cell (given, read from
the live objects, or without a kernel from the modules the notebook imports), the re-run's facts
(a cell run again right after it ran) over them, and the notebook's reason for each undefined
name (run order, a failed cell, a `del`). The model's check (core/check.py), the exact check
before a cell runs (core/exact_findings.py) and a re-check of a repaired cell all call
`facts_for`, so they read a cell alike.

    got = facts_for(cell, kernel_state(shell.user_ns), history=cells_run, failed=failed_cells)
    got.facts      # [KernelFact, ...], the re-run's among them
    got.reasons    # {"X_test": "a later cell defines it ...", ...}
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..pytext.pycheck import CellFacts, analyse
from .facts import KernelFact, kernel_facts
from .modules import module_namespace
from .reruns import with_rerun_facts
from .run_order import undefined_reasons
from .state import KernelState


@dataclass
class NotebookFacts:
    facts: list[KernelFact]                 # on the cell, the re-run's among them
    reasons: dict[str, str]                 # undefined name -> the notebook's reason
    read: tuple[KernelFact, ...] | None     # the facts read here from live objects (before the
                                            # re-run's); None when given or read without a kernel


def facts_for(source: str, state: KernelState | Mapping | None, *, analysed: CellFacts | None = None,
              given: Iterable[KernelFact] | None = None, history: Iterable[str] | None = None,
              earlier: Iterable[str] = (), failed: Iterable[str] | None = None,
              later: Iterable[str] | None = None, libraries: str = "loaded") -> NotebookFacts:
    """The facts of `source`, a cell's Python code, in the kernel `state` (a KernelState, the live
    objects by name, or None: no kernel). `analysed`: Python's own view of the cell (pycheck's
    `analyse`; made here when not given); `given`: facts read elsewhere, where the objects are
    (else the state's own facts, else read here); `history`: the cells the kernel ran, in order
    (else `earlier`, the notebook's cells before this one); `failed`: those that raised; `later`:
    the cells after it; `libraries`: as check()'s option. A cell that does not parse gets no
    kernel facts; reading that fails is no fact."""
    if isinstance(state, KernelState):
        objects, defined = state.objects, state.defined
        if given is None:
            given = state.facts
    else:
        objects = defined = state
    earlier = list(earlier)
    if analysed is None:
        analysed = analyse(source, earlier or None, defined)
    facts: list[KernelFact] = []
    read = None
    if analysed.parses:
        if given is not None:
            last = source.count("\n") + 1
            facts = [f for f in given if 0 < f.line <= last]
        else:
            namespace = objects if objects is not None else module_namespace(earlier, libraries)
            try:
                facts = kernel_facts(source, namespace, libraries=libraries)
            except Exception:  # noqa: BLE001 - no facts is no claim
                facts = []
            if objects is not None:
                read = tuple(facts)
        ran = list(history) if history is not None else earlier
        facts = with_rerun_facts(facts, source, ran, defined, failed)
    reasons = undefined_reasons(analysed, earlier, failed, later, history)
    return NotebookFacts(facts, reasons, read)


__all__ = ["NotebookFacts", "facts_for"]
