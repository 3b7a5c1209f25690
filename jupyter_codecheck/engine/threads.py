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


class ThreadGovernor:
    """Chooses per layer step between all physical cores and one thread, from measured times.

    On an idle machine all cores are faster; as soon as another process wants a core, ggml's
    workers spin-wait for a descheduled sibling at every barrier and one thread is much faster.
    Each batch size class keeps the average cost (seconds per row-layer) of both counts, runs the
    cheaper one and re-measures the other now and then, spending at most about `explore_share`
    of the class's time on that."""

    def __init__(self, n_max: int, explore_share: float = 0.05, alpha: float = 0.3):
        self.n_max = n_max
        self.explore_share = explore_share
        self.alpha = alpha
        self.cost: dict[tuple[int, int], float] = {}       # (size class, threads) -> s per row-layer
        self.last: dict[tuple[int, int], float] = {}       # seconds of its latest step
        self.spent: dict[int, float] = {}                  # class seconds since it last explored
        self.ratio: float | None = None                    # the pool's cost over one thread's, latest
        self.exploring: tuple[int, int] | None = None     # (class, threads) being measured
        self.sample: list[float] = []

    @staticmethod
    def size_class(rows: int) -> int:
        # matrix-vector (1 row), small batches and the tiled kernels' sizes scale differently
        return 0 if rows <= 1 else 1 if rows < 4 else 2 if rows < 16 else 3 if rows < 64 else 4

    def choose(self, rows: int) -> int:
        if self.n_max <= 1:
            return 1
        c = self.size_class(rows)
        if self.exploring is not None and self.exploring[0] == c:
            return self.exploring[1]
        # one thread first: on a busy machine a step on all cores can cost fifty times more, so
        # a new size class takes the pool's cost from the others' latest ratio when there is one
        if (c, 1) not in self.cost:
            return 1
        if (c, self.n_max) not in self.cost:
            if self.ratio is None:
                return self.n_max
            self.cost[(c, self.n_max)] = self.cost[(c, 1)] * self.ratio
            self.last[(c, self.n_max)] = self.last[(c, 1)] * self.ratio
        ratio = self.ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
        best, other = (self.n_max, 1) if ratio < self.WIN else (1, self.n_max)
        # exploring costs about the gap to the best per step: wait until that is a small share
        gap = max(ratio, 1.0 / ratio) - 1.0
        if self.spent.get(c, 0.0) * self.explore_share >= gap * self.EXPLORE_STEPS * self.last[(c, best)]:
            self.spent[c] = 0.0
            self.exploring = (c, other)
            self.sample = []
            return other
        return best

    # steps one exploration measures (a single step's time is noisy: a descheduled worker)
    EXPLORE_STEPS = 4
    # all cores must be this much cheaper: their failure (a spinning pool on a busy machine) costs
    # far more than one thread's (an idle core)
    WIN = 0.8

    def record(self, rows: int, threads: int, seconds: float, row_layers: int) -> None:
        if row_layers <= 0 or threads not in (1, self.n_max):
            return
        c = self.size_class(rows)
        per = seconds / row_layers
        self.last[(c, threads)] = seconds
        if self.exploring == (c, threads):
            self.sample.append(per)
            if len(self.sample) < self.EXPLORE_STEPS:
                return
            # the count not in use, measured afresh: its mean replaces the old estimate, and the
            # ratio it shows goes to every class (a busy machine is busy for all batch sizes)
            self.exploring = None
            self.cost[(c, threads)] = sum(self.sample) / len(self.sample)
            ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
            for k, n in list(self.cost):
                if k != c and n == self.n_max and (k, 1) in self.cost:
                    self.cost[(k, n)] = self.cost[(k, 1)] * ratio
            return
        self.spent[c] = self.spent.get(c, 0.0) + seconds     # what the budget is a share of
        old = self.cost.get((c, threads))
        if old is None:
            self.cost[(c, threads)] = per
            return
        # believe bad news about the pool and good news about one thread at once, the opposite
        # slowly: timings on a busy machine are noisy, and the pool's bad steps are the costly ones
        worse = per > old
        fast = worse if threads == self.n_max else not worse
        a = max(self.alpha, 0.7) if fast else self.alpha / 3
        self.cost[(c, threads)] = old + a * (per - old)
