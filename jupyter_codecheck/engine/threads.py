"""How many threads to give llama.cpp.

Matrix-vector work is memory-bound and SMT siblings share one core's FPU and caches, so running
one thread per *physical* core is faster than one per logical CPU.
"""
from __future__ import annotations

import os


def _allowed_cpus() -> set[int] | None:
    try:
        return os.sched_getaffinity(0)
    except (AttributeError, OSError):  # not Linux
        return None


def physical_cores() -> int:
    """Number of distinct physical cores this process may run on (at least 1)."""
    allowed = _allowed_cpus()
    fallback = len(allowed) if allowed else (os.cpu_count() or 1)
    cores: set[tuple[str, str]] = set()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            text = f.read()
    except OSError:
        return max(1, fallback)
    # /proc/cpuinfo is a list of blank-line separated blocks, one per logical CPU.
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields[key.strip()] = value.strip()
        if "processor" not in fields or "core id" not in fields:
            continue
        try:
            cpu = int(fields["processor"])
        except ValueError:
            continue
        if allowed is not None and cpu not in allowed:
            continue
        cores.add((fields.get("physical id", "0"), fields["core id"]))
    # Some VMs and ARM kernels omit "core id"; then the logical count is the best we know.
    return max(1, len(cores) if cores else fallback)
