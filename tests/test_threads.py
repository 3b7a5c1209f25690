"""The thread governor: one thread when the cores are contended, all of them when they are not."""
from __future__ import annotations

import os

import numpy as np

from jupyter_codecheck.engine.threads import ThreadGovernor


def drive(gov, rows, cost_of, steps):
    """Runs `steps` steps of `rows` rows; cost_of(threads) is the seconds a step takes."""
    used = []
    for _ in range(steps):
        n = gov.choose(rows)
        used.append(n)
        gov.record(rows, n, cost_of(n), rows)
    return used


def test_busy_cores_run_on_one_thread_and_idle_ones_on_all():
    busy = ThreadGovernor(2)
    used = drive(busy, 76, lambda n: 0.25 if n == 2 else 0.005, 400)
    assert used[:2] == [1, 2]                      # each count measured once, one thread first
    assert used[2:].count(2) <= 2                  # exploring costs at most a few slow steps
    idle = ThreadGovernor(2)
    used = drive(idle, 76, lambda n: 0.003 if n == 2 else 0.005, 400)
    assert used[2:].count(1) / len(used[2:]) < 0.1


def test_exploring_spends_a_small_share_and_follows_a_change():
    gov = ThreadGovernor(2, explore_share=0.05)
    load = {"busy": True}
    cost = lambda n: (0.25 if n == 2 else 0.005) if load["busy"] else (0.003 if n == 2 else 0.005)  # noqa: E731
    used = drive(gov, 76, cost, 2000)
    slow = sum(cost(n) - 0.005 for n in used[2:])
    assert slow <= 0.06 * sum(cost(n) for n in used[2:])
    load["busy"] = False                            # the other process ended
    used = drive(gov, 76, cost, 3000)
    assert used[-200:].count(2) > 180


def test_size_classes_are_measured_apart():
    gov = ThreadGovernor(2)
    # one row: memory-bound, one thread is as fast; a big batch: all cores win
    drive(gov, 1, lambda n: 0.001, 50)
    used = drive(gov, 128, lambda n: 0.01 if n == 2 else 0.02, 50)
    assert used[-10:] == [2] * 10


def test_a_small_class_that_gains_little_from_the_pool_leaves_the_others_alone():
    gov = ThreadGovernor(2)
    drive(gov, 128, lambda n: 0.006 if n == 2 else 0.01, 50)        # big batches: the pool wins
    drive(gov, 2, lambda n: 0.0009 if n == 2 else 0.001, 400)       # tiny ones: about even
    assert drive(gov, 128, lambda n: 0.006 if n == 2 else 0.01, 10) == [2] * 10


def test_one_core_never_switches():
    gov = ThreadGovernor(1)
    assert set(drive(gov, 64, lambda n: 0.01, 20)) == {1}


def test_the_thread_count_changes_no_number():
    from jupyter_codecheck.engine.model import Model
    from jupyter_codecheck.engine.session import FAST
    model = Model()
    ids = list(range(100, 160))
    out = []
    for threads in (1, 2, None):
        s = model.session(n_threads=threads, n_ctx=256, **FAST)
        s.begin(ids)
        k = 0
        while s.step() >= 0:
            if threads is None:                    # switch between layers, as the governor does
                s._use_threads(1 + k % 2)
            k += 1
        s.end()
        out.append(s.hidden(list(range(len(ids)))))
        s.close()
    assert np.array_equal(out[0], out[1]) and np.array_equal(out[0], out[2])


def test_each_size_class_leaves_the_pool_after_one_slow_step():
    gov = ThreadGovernor(2)
    idle = lambda n: 0.003 if n == 2 else 0.005          # noqa: E731
    busy = lambda n: 0.25 if n == 2 else 0.005            # noqa: E731
    drive(gov, 8, idle, 50)
    drive(gov, 128, idle, 50)
    assert gov.choose(8) == 2 and gov.choose(128) == 2
    gov.credit = -1.0                     # no exploration of one thread in the way
    for rows in (128, 8):
        assert drive(gov, rows, busy, 2) == [2, 1]


def test_an_expensive_exploration_does_not_pay_for_the_next_one():
    gov = ThreadGovernor(2)
    used = drive(gov, 76, lambda n: 2.0 if n == 2 else 0.005, 3000)
    # 4 exploring steps cost 1,600 one-thread steps: at a 5 % budget, at most one exploration
    assert used[2:].count(2) <= 4


def test_a_pool_that_is_only_sometimes_fast_costs_little():
    # a busy machine: a step on all cores is often quick and sometimes fifty times slower; the
    # lucky steps must not draw the governor into exploring the pool again and again
    rng = np.random.default_rng(0)
    gov = ThreadGovernor(2, explore_share=0.05)
    cost = lambda n: (0.004 if rng.random() < 0.7 else 0.25) if n == 2 else 0.005     # noqa: E731
    spent = []
    for _ in range(3000):
        n = gov.choose(8)
        t = cost(n)
        gov.record(8, n, t, 8)
        spent.append(t)
    assert sum(spent) <= 1.06 * 0.005 * 3000     # at most a little over the 5 % budget


class Reading:
    """A CpuLoad stand-in: the crowding a test sets, one new window per reading."""

    def __init__(self, value):
        self.value, self.windows = value, 0

    def crowding(self):
        self.windows += 1
        return self.value


def test_a_quiet_machine_gets_the_pool_back_at_once():
    busy = lambda n: 0.25 if n == 2 else 0.005            # noqa: E731
    idle = lambda n: 0.003 if n == 2 else 0.005           # noqa: E731
    plain, read = ThreadGovernor(2), ThreadGovernor(2, load=Reading(1.0))
    for gov in (plain, read):
        drive(gov, 76, busy, 400)
    read.load.value = 0.0                                 # the other process ended
    assert drive(plain, 76, idle, 20).count(2) == 0       # the budget must save up for 0.25 s
    assert drive(read, 76, idle, 20)[1:] == [2] * 19


def test_a_crowded_machine_does_not_try_the_pool():
    busy = lambda n: 0.25 if n == 2 else 0.005            # noqa: E731
    assert drive(ThreadGovernor(2), 76, busy, 2)[1] == 2
    assert 2 in drive(ThreadGovernor(2), 76, busy, 3000)[2:]       # the budget tries it now and then
    assert drive(ThreadGovernor(2, load=Reading(1.0)), 76, busy, 3000) == [1] * 3000


def test_a_quiet_reading_the_pool_contradicts_is_asked_ever_less_often():
    # a container whose /proc/stat shows no neighbours while the pool still stalls
    gov = ThreadGovernor(2, load=Reading(0.0))
    used = drive(gov, 76, lambda n: 0.25 if n == 2 else 0.005, 2000)
    # the gaps double up to the cap: about one try per QUIET_GAP_MAX windows, not one each
    assert used[2:].count(2) <= 2000 // ThreadGovernor.QUIET_GAP_MAX + 8
    assert gov.quiet_gap == ThreadGovernor.QUIET_GAP_MAX


def test_the_kernel_counts_another_process_as_crowding():
    import subprocess
    import sys
    import time

    import pytest

    from jupyter_codecheck.engine.threads import CpuLoad
    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc/stat")
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        load = CpuLoad(os.cpu_count() or 1)
        load.crowding()
        time.sleep(0.5)
        assert load.crowding() > 0.6             # one busy process on the pool's CPUs
    finally:
        hog.kill()
        hog.wait()


def test_without_a_kernel_count_the_governor_goes_by_step_times():
    from jupyter_codecheck.engine.threads import CpuLoad
    load = CpuLoad(2, path="/nonexistent/stat")                  # not Linux: nothing to read
    assert load.crowding() is None
    busy = lambda n: 0.25 if n == 2 else 0.005            # noqa: E731
    assert drive(ThreadGovernor(2, load=load), 76, busy, 400) == drive(ThreadGovernor(2), 76, busy, 400)


def test_a_quiet_machine_spends_no_budget_on_one_thread():
    idle = lambda n: 0.003 if n == 2 else 0.005           # noqa: E731
    assert 1 in drive(ThreadGovernor(2), 76, idle, 3000)[10:]     # the budget re-measures it
    assert drive(ThreadGovernor(2, load=Reading(0.0)), 76, idle, 3000)[10:] == [2] * 2990


class WindowedReading(Reading):
    """A reading whose window ends every `steps` steps, as /proc/stat's every 0.1 s does."""

    def __init__(self, value, steps):
        super().__init__(value)
        self.steps, self.calls = steps, 0

    def crowding(self):
        self.calls += 1
        self.windows = self.calls // self.steps
        return self.value


def test_while_the_reading_is_quiet_the_cheaper_count_runs():
    """A pool only 10 % cheaper (small batches on two cores) runs while the reading says the
    cores are free; without a reading, or while it says they are taken, the pool must be clearly
    cheaper (WIN), since a stalled pool costs far more than an idle core."""
    slightly = lambda n: 0.0045 if n == 2 else 0.005     # noqa: E731
    quiet = drive(ThreadGovernor(2, load=WindowedReading(0.0, steps=50)), 76, slightly, 400)
    assert quiet[-100:].count(2) >= 95
    for gov in (ThreadGovernor(2), ThreadGovernor(2, load=Reading(1.0))):
        assert drive(gov, 76, slightly, 400)[-100:].count(2) <= 10
