"""What this machine can give to checks: its physical cores, and how many others leave free.

Views size their worker pools from here (`--jobs auto`); the engine's thread governor reads the
same /proc/stat measure of other processes' load per layer step.
"""
from __future__ import annotations

import time

from ..engine.threads import CpuLoad, physical_cores

__all__ = ["free_cores", "physical_cores"]


def free_cores(window: float = 0.25) -> int:
    """Physical cores that other processes leave free, measured over `window` seconds (at
    least 1; all of them where the kernel does not say)."""
    cores = physical_cores()
    load = CpuLoad(cores)
    load.crowding()                   # starts the window
    time.sleep(window)
    crowding = load.crowding()
    if crowding is None:
        return cores
    return max(1, min(cores, round(cores - crowding)))
