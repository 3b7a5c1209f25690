"""The kernel under interrupts, short (issue 27; the full run is bench/kernel_interrupts.py): a
real IPython kernel, `%%codecheck` checks of the examples' cells interrupted at seeded random
moments, once or twice in a row. The moment an interrupt lands varies from run to run; what is
asserted does not depend on it: the kernel answers after each, and the next check is a fresh
check's result."""
from __future__ import annotations

from pathlib import Path

from bench_modules import bench_module

REPO = Path(__file__).resolve().parents[1]


def test_after_each_interrupt_the_kernel_answers_and_checks_as_fresh(model_path):
    report = bench_module("kernel_interrupts").run(REPO / "examples", interrupts=5, seed=27, double=0.4,
                                                   max_cells=4, log=lambda m: None)
    # how many checks the interrupts caught running depends on the machine's speed: not asserted
    rounds = report["rounds"]
    assert rounds >= 5 and report["interrupted_checks"] + report["missed"] == rounds
    assert report["usable_after"] == rounds and report["hung"] == 0, report["mismatch_examples"]
    assert report["context_recorded_after"] == rounds
    assert report["next_check_same"] == rounds and report["mismatches"] == 0, report["mismatch_examples"]
    assert report["other_errors"] == []
