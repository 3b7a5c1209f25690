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
    Each batch size class keeps the average cost (seconds per row-layer) of both counts and runs
    the cheaper one. The other is re-measured now and then from a budget of real seconds: every
    step pays `explore_share` of its time in, every exploring step's time is taken out, so
    exploring costs about that share however expensive the pool turns out to be."""

    def __init__(self, n_max: int, explore_share: float = 0.05, alpha: float = 0.3):
        self.n_max = n_max
        self.explore_share = explore_share
        self.alpha = alpha
        self.cost: dict[tuple[int, int], float] = {}       # (size class, threads) -> s per row-layer
        self.last: dict[tuple[int, int], float] = {}       # seconds of its latest step
        self.measured: set[tuple[int, int]] = set()        # costs measured, not taken from the ratio
        self.credit = 0.0                                  # seconds exploring may still spend
        self.ratio: float | None = None                    # the pool's cost over one thread's, latest
        self.exploring: tuple[int, int] | None = None     # (class, threads) being measured
        self.sample: list[float] = []

    # steps one exploration measures (a single step's time is noisy: a descheduled worker)
    EXPLORE_STEPS = 4
    # an exploring step this many times the best count's cost ends the exploration at once
    CLEARLY_WORSE = 3.0
    # the most credit a quiet stretch saves up (a burst of explorations when load arrives)
    CREDIT_CAP = 0.25
    # all cores must be this much cheaper: their failure (a spinning pool on a busy machine) costs
    # far more than one thread's (an idle core)
    WIN = 0.8

    @staticmethod
    def size_class(rows: int) -> int:
        # matrix-vector (1 row), small batches and the tiled kernels' sizes scale differently
        return 0 if rows <= 1 else 1 if rows < 4 else 2 if rows < 16 else 3 if rows < 64 else 4

    def _best(self, c: int) -> tuple[int, int]:
        ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
        return (self.n_max, 1) if ratio < self.WIN else (1, self.n_max)

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
        self.ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
        best, other = self._best(c)
        # what the exploration is expected to cost: one step if that is clearly worse (it ends
        # there), else all of them
        step = self.last[(c, other)]
        clearly_worse = self.cost[(c, other)] > self.CLEARLY_WORSE * self.cost[(c, best)]
        # a cost only inferred from another class is measured at once unless it looks clearly worse
        free = (c, other) not in self.measured and not clearly_worse
        if self.exploring is None and (free or self.credit >= step * (1 if clearly_worse else self.EXPLORE_STEPS)):
            self.exploring = (c, other)
            self.sample = []
            return other
        return best

    def record(self, rows: int, threads: int, seconds: float, row_layers: int) -> None:
        if row_layers <= 0 or threads not in (1, self.n_max):
            return
        c = self.size_class(rows)
        per = seconds / row_layers
        self.last[(c, threads)] = seconds
        if self.exploring == (c, threads):
            self.credit -= seconds
            self.sample.append(per)
            best = self.n_max if threads == 1 else 1
            clearly_worse = (c, best) in self.cost and per > self.CLEARLY_WORSE * self.cost[(c, best)]
            if len(self.sample) < self.EXPLORE_STEPS and not clearly_worse:
                return
            # the count not in use, measured afresh: its mean replaces the old estimate, and the
            # ratio it shows goes to every class (a busy machine is busy for all batch sizes)
            self.exploring = None
            self.measured.add((c, threads))
            self.cost[(c, threads)] = sum(self.sample) / len(self.sample)
            ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
            for k, n in list(self.cost):
                if k != c and n == self.n_max and (k, 1) in self.cost:
                    self.cost[(k, n)] = self.cost[(k, 1)] * ratio
            return
        self.credit = min(self.credit + self.explore_share * seconds, self.CREDIT_CAP)
        old = self.cost.get((c, threads))
        self.measured.add((c, threads))
        if old is None:
            self.cost[(c, threads)] = per
            return
        # believe bad news about the pool and good news about one thread at once, the opposite
        # slowly: timings on a busy machine are noisy, and the pool's bad steps are the costly ones
        worse = per > old
        fast = worse if threads == self.n_max else not worse
        a = max(self.alpha, 0.7) if fast else self.alpha / 3
        self.cost[(c, threads)] = old + a * (per - old)
