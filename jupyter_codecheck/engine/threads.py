"""How many threads to give llama.cpp.

Matrix-vector work is memory-bound and SMT siblings share one core's FPU and caches, so running
one thread per *physical* core is faster than one per logical CPU.
"""
from __future__ import annotations

import os
import time


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


def _cpu_sample(cpus: set[int] | None, path: str = "/proc/stat") -> tuple[float, float, float] | None:
    """(wall seconds, busy CPU seconds on `cpus` (all when None), this process's CPU seconds),
    or None where the kernel does not say (not Linux)."""
    wall, own = time.perf_counter(), time.process_time()
    try:
        with open(path, encoding="ascii") as f:
            text = f.read()
    except OSError:
        return None
    ticks = 0
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu"):
            break
        if name == "cpu" or (cpus is not None and int(name[3:]) not in cpus):
            continue
        f = [int(x) for x in rest.split()]
        # user nice system idle iowait irq softirq steal: all but idle and iowait is busy (steal:
        # another virtual machine had the core)
        ticks += sum(f[:8]) - f[3] - f[4]
    return wall, ticks / os.sysconf("SC_CLK_TCK"), own


# taken when the engine is imported, so a new process knows the load before its first step
_START = _cpu_sample(_allowed_cpus())


class CpuLoad:
    """How crowded the cores are for a pool of `n_pool` threads: the CPUs per second other
    processes (and other virtual machines) took on the CPUs this process may use, beyond those
    the pool leaves free. From /proc/stat over windows of at least `WINDOW` seconds; `None`
    where the kernel does not say. A pool's workers wait for each other at every layer, so one
    descheduled worker stalls all: crowding near 0 means the pool has its cores."""

    WINDOW = 0.1
    FIRST_WINDOW = 0.03
    # the import's sample starts the first window only while it says something of now
    START_AGE = 2.0

    def __init__(self, n_pool: int, path: str = "/proc/stat"):
        self.cpus = _allowed_cpus()
        self.path = path
        n_logical = len(self.cpus) if self.cpus else (os.cpu_count() or n_pool)
        self.spare = max(0, n_logical - n_pool)
        self.value: float | None = None
        self.windows = 0                     # windows measured so far
        fresh = _START is not None and path == "/proc/stat" and time.perf_counter() - _START[0] < self.START_AGE
        self._last = _START if fresh else _cpu_sample(self.cpus, path)

    def crowding(self) -> float | None:
        if self._last is None:
            return None
        if time.perf_counter() - self._last[0] >= (self.WINDOW if self.windows else self.FIRST_WINDOW):
            now = _cpu_sample(self.cpus, self.path)
            if now is None:
                self._last = None
                return None
            wall, busy, own = (a - b for a, b in zip(now, self._last))
            self.value = max(0.0, busy - own) / wall - self.spare
            self.windows += 1
            self._last = now
        return self.value


class ThreadGovernor:
    """Chooses per layer step between all physical cores and one thread, from measured times.

    On an idle machine all cores are faster; as soon as another process wants a core, ggml's
    workers spin-wait for a descheduled sibling at every barrier and one thread is much faster.
    Each batch size class keeps the average cost (seconds per row-layer) of both counts and runs
    the cheaper one. The other is re-measured now and then from a budget of real seconds: every
    step pays `explore_share` of its time in, every exploring step's time is taken out, so
    exploring costs about that share however expensive the pool turns out to be.

    With `load` (a `CpuLoad`), the kernel's own count of other processes' CPU time says what
    step times say too late or at a price: while the pool's cores are taken, the pool is not
    tried (a new process on a crowded machine starts on one thread, and the budget buys no
    stalled pool steps); once the machine is quiet again the pool is tried at once, not after
    the budget has saved up for a step as slow as its last one under load. A quiet reading that
    the pool's steps contradict (slower than one thread) is asked again only after twice as
    many windows each time. While the reading is quiet the cheaper count runs; otherwise the
    pool must be clearly cheaper (`WIN`). Only news of load (a ratio moved by `NEWS` or more)
    goes from one size class to the others."""

    def __init__(self, n_max: int, explore_share: float = 0.05, alpha: float = 0.3,
                 load: "CpuLoad | None" = None):
        self.n_max = n_max
        self.explore_share = explore_share
        self.alpha = alpha
        self.load = load
        self.quiet_gap = 1                                 # windows between quiet-reading tries
        self.quiet_next = 0                                # the window count that allows the next
        self.quiet_try = False                             # the exploration under way is one
        self.cost: dict[tuple[int, int], float] = {}       # (size class, threads) -> s per row-layer
        self.last: dict[tuple[int, int], float] = {}       # seconds of its latest step
        self.measured: set[tuple[int, int]] = set()        # costs measured, not taken from the ratio
        self.credit = 0.0                                  # seconds exploring may still spend
        self.ratio: float | None = None                    # the pool's cost over one thread's, latest
        self.exploring: tuple[int, int] | None = None     # (class, threads) being measured
        self.sample: list[float] = []

    # steps one exploration measures (a single step's time is noisy: a descheduled worker)
    EXPLORE_STEPS = 4
    # a ratio moved this much either way is news of load, not a noisy exploration
    NEWS = 2.0
    # an exploring step this many times the best count's cost ends the exploration at once
    CLEARLY_WORSE = 3.0
    # the most credit a quiet stretch saves up (a burst of explorations when load arrives)
    CREDIT_CAP = 0.25
    # all cores must be this much cheaper: their failure (a spinning pool on a busy machine) costs
    # far more than one thread's (an idle core)
    WIN = 0.8
    # crowding (other processes' CPUs beyond those the pool leaves free) below which the pool
    # has its cores, and above which a new process does not try it before it has the budget
    QUIET = 0.3
    BUSY = 0.7
    # the pool's cost over one thread's that a crowded start assumes: what a step on a pool
    # with a descheduled worker costs here (a new process tries the pool only once its budget
    # has saved up for that, and a quiet reading tries it at once)
    CROWDED_RATIO = 30.0
    # the most windows between quiet-reading tries (a reading the pool keeps contradicting)
    QUIET_GAP_MAX = 64

    @staticmethod
    def size_class(rows: int) -> int:
        # matrix-vector (1 row), small batches and the tiled kernels' sizes scale differently
        return 0 if rows <= 1 else 1 if rows < 4 else 2 if rows < 16 else 3 if rows < 64 else 4

    def _best(self, c: int, crowding: float | None = None) -> tuple[int, int]:
        ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
        # the margin guards against a pool that stalls on a busy machine; while the reading says
        # the cores are free, the cheaper count runs
        win = 1.0 if crowding is not None and crowding < self.QUIET else self.WIN
        return (self.n_max, 1) if ratio < win else (1, self.n_max)

    def choose(self, rows: int) -> int:
        if self.n_max <= 1:
            return 1
        c = self.size_class(rows)
        if self.exploring is not None and self.exploring[0] == c:
            return self.exploring[1]
        crowding = self.load.crowding() if self.load is not None else None
        # one thread first: on a busy machine a step on all cores can cost fifty times more, so
        # a new size class takes the pool's cost from the others' latest ratio when there is one
        if (c, 1) not in self.cost:
            return 1
        if (c, self.n_max) not in self.cost:
            if self.ratio is None and crowding is not None and crowding > self.BUSY:
                self.ratio = self.CROWDED_RATIO
            if self.ratio is None:
                return self.n_max
            self.cost[(c, self.n_max)] = self.cost[(c, 1)] * self.ratio
            self.last[(c, self.n_max)] = self.last[(c, 1)] * self.ratio
        self.ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
        best, other = self._best(c, crowding)
        # what the exploration is expected to cost: one step if that is clearly worse (it ends
        # there), else all of them
        step = self.last[(c, other)]
        clearly_worse = self.cost[(c, other)] > self.CLEARLY_WORSE * self.cost[(c, best)]
        # a cost only inferred from another class is measured at once unless it looks clearly worse
        free = (c, other) not in self.measured and not clearly_worse
        quiet = other == self.n_max and crowding is not None and crowding < self.QUIET and \
            self.load.windows >= self.quiet_next
        # the budget tries neither the pool while the reading says its cores are taken, nor one
        # thread while it says they are free (the pool's own steps tell at once when that changes)
        read = crowding is not None and (crowding > self.BUSY if other == self.n_max else crowding < self.QUIET)
        paid = not read and self.credit >= step * (1 if clearly_worse else self.EXPLORE_STEPS)
        if self.exploring is None and (free or quiet or paid):
            self.exploring = (c, other)
            self.sample = []
            self.quiet_try = quiet and not free
            if self.quiet_try:
                self.quiet_next = self.load.windows + self.quiet_gap
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
            # the count not in use, measured afresh: its mean replaces the old estimate
            self.exploring = None
            self.measured.add((c, threads))
            before = self.cost[(c, self.n_max)] / self.cost[(c, 1)] if (c, threads) in self.cost else None
            self.cost[(c, threads)] = sum(self.sample) / len(self.sample)
            ratio = self.cost[(c, self.n_max)] / self.cost[(c, 1)]
            if self.quiet_try:
                # borrowed from the budget; a reading the pool contradicts is asked less often
                # (a machine whose /proc/stat does not show its neighbours)
                if ratio < self.WIN:
                    self.quiet_gap = 1
                    self.credit = min(self.credit, 0.0)    # what it saved up was for this try
                elif ratio > 1 / self.WIN:
                    self.quiet_gap = min(2 * self.quiet_gap, self.QUIET_GAP_MAX)
                self.quiet_try = False
            # news of load goes to every class (a busy machine is busy for all batch sizes), as
            # the change it shows: each class has its own ratio (small batches gain less from the
            # pool), and a small batch's few steps are noisy
            change = ratio / before if before else None
            if change is not None and 1 / self.NEWS < change < self.NEWS:
                return
            for k, n in list(self.cost):
                if k != c and n == self.n_max and (k, 1) in self.cost:
                    self.cost[(k, n)] = self.cost[(k, n)] * change if change is not None else \
                        self.cost[(k, 1)] * ratio
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
