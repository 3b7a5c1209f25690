"""`%%codecheck` / `%codecheck` in a real InteractiveShell with the real model.

Parsing tests and the severity tests (hand-built results) run no model; the others share one
shell (the model loads once) and check cells of one or two lines.
"""
from __future__ import annotations

import builtins
import re
import signal
import threading

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from jupyter_codecheck import CheckResult, Edit, Finding
from jupyter_codecheck.pytext.sources import is_code_cell
from jupyter_codecheck.views.auto_mode import compact_report
from jupyter_codecheck.views.magics import CodecheckMagics

BUGGY = "z = 5\npritn(z)\n"


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "jupyter_codecheck")
    yield ip
    ip.run_line_magic("unload_ext", "jupyter_codecheck")


@pytest.fixture
def magics(shell) -> CodecheckMagics:
    # looked up for each test: test_no_thread_of_the_extension_outlives_it loads it anew
    return next(m for m in shell.magics_manager.registry.values() if isinstance(m, CodecheckMagics))


@pytest.fixture(scope="module")
def loaded(shell, model_path):
    """The model, loaded once through the magics (what the first %%codecheck does)."""
    shell.run_line_magic("codecheck", "info")
    return shell


# -- parsing (no model) ----------------------------------------------------------------------------

def test_flags_map_onto_check_options(magics):
    req = magics.parse_cell_line("--prob 0.05 --rank 3 --mode sequential --exit-policy fast "
                                 "--threads 1 --no-context --run clean -o res --view html")
    assert req.options == {"accept_prob": 0.05, "accept_rank": 3, "mode": "sequential",
                           "exit_policy": "fast", "n_threads": 1}
    assert (req.context, req.run, req.output, req.view) == (False, "clean", "res", "html")
    assert magics.parse_cell_line("--no-exit --prob none").options == {"exit_policy": None,
                                                                       "accept_prob": None}
    bare = magics.parse_cell_line("")
    assert bare.options == {} and bare.context is True and bare.run is None
    assert bare.view == "text"          # a plain shell has no notebook front end
    assert magics.parse_cell_line("--run").run == "always"


@pytest.mark.parametrize("line, message", [
    ("--prob 2", "not a probability"),
    ("--rank -1", "not a rank"),
    ("--mode fast", "invalid choice"),
    ("--exit-policy bogus", "unknown exit test 'bogus'"),
    ("--no-exit --exit-policy fast", "contradict"),
    ("-o 1abc", "variable name"),
    ("--view pdf", "invalid choice"),
    ("--frobnicate", "unrecognized arguments"),
])
def test_bad_cell_options_are_usage_errors(shell, line, message):
    with pytest.raises(UsageError, match=message):
        shell.run_cell_magic("codecheck", line, "x = 1\n")


@pytest.mark.parametrize("line, message", [
    ("set", "key=value"),
    ("set prob", "not key=value"),
    ("set frob=1", "unknown option 'frob'"),
    ("set prob=7", "probability"),
    ("set mode=fast", "mode: 'fast' is not one of"),
    ("set exit_policy=nope", "unknown exit test"),
    ("set context=maybe", "true or false"),
    ("auto maybe", "on, guard or off"),
    ("launch", "invalid choice"),
])
def test_bad_line_magic_use_is_a_usage_error_and_keeps_the_defaults(magics, shell, line, message):
    before = (dict(magics.defaults.options), magics.defaults.context)
    with pytest.raises(UsageError, match=message):
        shell.run_line_magic("codecheck", line)
    assert (magics.defaults.options, magics.defaults.context) == before


def test_set_changes_the_defaults_the_cell_magic_uses(magics, shell, capsys):
    try:
        shell.run_line_magic("codecheck", "set prob=0.1 exit_policy=none context=false view=text")
        req = magics.parse_cell_line("--rank 2")
        assert req.options == {"accept_prob": 0.1, "exit_policy": None, "accept_rank": 2}
        assert req.context is False
        shell.run_line_magic("codecheck", "")
        shown = capsys.readouterr().out
        assert "accept_prob     0.1  (set)" in shown and "codecheck auto off; defaults:" in shown
        # what a user changes, not every setting of the walk; no bare `None` for a chosen default
        shell.run_line_magic("codecheck", "reset")
        capsys.readouterr()
        shell.run_line_magic("codecheck", "")
        shown = capsys.readouterr().out
        lines = [ln for ln in shown.splitlines() if ln.startswith("  ") and not ln.startswith("  ...")]
        assert len(lines) <= 14 and "None" not in shown, shown
        assert "model           the default model" in shown and "%codecheck show all" in shown
        shell.run_line_magic("codecheck", "show all")
        assert "kv_mode" in capsys.readouterr().out
    finally:
        shell.run_line_magic("codecheck", "reset")
    assert magics.parse_cell_line("").options == {}


def test_context_is_earlier_code_cells_without_magic_only_cells(shell, magics):
    for cell in ["a = 1\n", "%pwd\n", "%%capture\nb = 2\n", "!true\n# a comment\n",
                 "%time c = 3\nd = 4\n"]:
        shell.run_cell(cell, store_history=False)      # as nbval runs cells: no history
    assert magics.executed.cells[-2:] == ["a = 1\n", "%time c = 3\nd = 4\n"]
    assert not is_code_cell("%%time\nx = 1\n") and is_code_cell("%time x\ny = 2\n")


def test_context_window_keeps_its_start_until_it_outgrows_the_budget(magics):
    executed = magics.executed
    saved = (list(executed.cells), executed.start)
    try:
        executed.cells[:] = ["w0 = 0"]
        executed.start = 0
        assert executed.window(budget=20) == ["w0 = 0"]
        executed.cells.extend(f"w{i} = {i}" for i in range(1, 6))   # 6 x 6 chars: <= 2 x 20
        assert executed.window(budget=20)[0] == "w0 = 0"
        executed.cells.append("w6 = 6")                               # 42 chars: the window moves
        assert executed.window(budget=20) == ["w4 = 4", "w5 = 5", "w6 = 6"]
        executed.cells.append("w7 = 7")
        assert executed.window(budget=20)[0] == "w4 = 4"               # ...and then stays
    finally:
        executed.cells[:], executed.start = saved


# -- with the model ---------------------------------------------------------------------------------

def test_info_names_the_model(loaded, capsys):
    loaded.run_line_magic("codecheck", "info")
    out = capsys.readouterr().out
    assert "SmolLM2-135M" in out and "layers     30" in out


def test_o_stores_the_result_and_run_clean_skips_a_buggy_cell(loaded, capsys):
    loaded.user_ns.pop("z", None)
    loaded.run_cell_magic("codecheck", "-o res --run clean --no-context", BUGGY)
    res = loaded.user_ns["res"]
    assert isinstance(res, CheckResult) and res.source == BUGGY
    assert [f.line for f in res.findings] == [2] and "print(z)" in res.corrected
    assert res.stats["context_tokens"] == 1          # only the document-start token
    out = capsys.readouterr().out
    assert "codecheck: 1 finding" in out and "+print(z)" in out
    assert re.search(r"cell not run \(1 (error|warning)\)", out), out
    assert "z" not in loaded.user_ns


def test_silenced_findings_are_not_shown_and_the_cell_runs(loaded, capsys):
    """`%codecheck set ignore=...` and a `# codecheck: ignore[kind]` comment: no finding, no fix,
    `--run clean` runs the cell; the headline says how many were silenced."""
    quiet = BUGGY.replace("pritn(z)", "pritn(z)  # codecheck: ignore[undefined-name]")
    loaded.user_ns.pop("z", None)
    loaded.run_cell_magic("codecheck", "-o res --run clean --no-context", quiet)
    res = loaded.user_ns["res"]
    assert res.findings == [] and res.corrected == quiet and loaded.user_ns["z"] == 5
    assert re.search(r"codecheck: no findings \(\d+ tokens\), 1 silenced", capsys.readouterr().out)
    try:
        loaded.run_line_magic("codecheck", "set ignore=undefined-name,key")
        loaded.run_cell_magic("codecheck", "-o res --no-context", BUGGY)
        assert loaded.user_ns["res"].findings == [] and loaded.user_ns["res"].stats["silenced"] == 1
        loaded.run_cell_magic("codecheck", "-o res --no-context --ignore key", BUGGY)
        assert [f.kind for f in loaded.user_ns["res"].findings] == ["undefined-name"]
    finally:
        loaded.run_line_magic("codecheck", "reset")
    with pytest.raises(UsageError, match="ignore: unknown finding kind 'undefined'; kinds: syntax"):
        loaded.run_cell_magic("codecheck", "--ignore undefined", BUGGY)


def test_run_executes_the_body_with_the_given_options(loaded):
    loaded.run_cell("base = 40\n", store_history=True)
    loaded.run_cell_magic("codecheck", "--run --no-exit --mode sequential -o res2", "y = base + 2\n")
    assert loaded.user_ns["y"] == 42
    stats = loaded.user_ns["res2"].stats
    assert stats["mode"] == "sequential" and stats["exit_policy"] is None
    assert stats["context_tokens"] > 3                # earlier cells came along as context


def test_an_undefined_name_says_what_the_kernels_history_knows(loaded):
    # the kernel knows the cells it ran, not the notebook's later ones: it says what it knows
    loaded.run_cell("gone = 1\n", store_history=True)
    loaded.run_cell("del gone\n", store_history=True)
    loaded.run_cell_magic("codecheck", "--no-context -o hres --view text", "print(gone)\nprint(never_run)\n")
    messages = [f.message for f in loaded.user_ns["hres"].findings]
    assert messages[0].startswith("name 'gone' is not defined: the cell run just before deletes it")
    assert messages[1].startswith("name 'never_run' is not defined: no cell run in this kernel defines it")


def test_auto_mode_checks_each_cell_and_still_runs_it(loaded, magics, capsys):
    # the shell's history is the other tests' odd cells: check these cells on their own
    loaded.run_line_magic("codecheck", "set context=false")
    loaded.run_line_magic("codecheck", "auto on model")
    try:
        capsys.readouterr()
        loaded.user_ns.pop("z", None)
        loaded.run_cell(BUGGY, store_history=True)
        assert loaded.user_ns["z"] == 5                  # the cell ran (and then hit its bug)
        magics.auto.last.wait()                          # the model checks it after it ran
        out = capsys.readouterr()
        assert "NameError" in out.out + out.err
        assert re.search(r"codecheck: line 2:\d+: (error|warning)\[[a-z-]+\]: .*'pritn'", out.out), out.out
        assert magics.auto.last.source == BUGGY

        loaded.run_cell("%%codecheck --no-context\nq = 1\n", store_history=True)
        assert magics.auto.last.source == BUGGY          # a %%codecheck cell is not checked twice
        capsys.readouterr()
        loaded.run_cell("total = 1 + 2\n", store_history=True)
        assert loaded.user_ns["total"] == 3
        magics.auto.last.wait()
        assert magics.auto.last.source == "total = 1 + 2\n" and magics.auto.last.result.clean
        assert "codecheck" not in capsys.readouterr().out   # a clean cell shows nothing
    finally:
        loaded.run_line_magic("codecheck", "auto off")
        loaded.run_line_magic("codecheck", "reset")
    loaded.run_cell("after = 1\n", store_history=True)
    assert magics.auto.last.source == "total = 1 + 2\n"


def test_auto_mode_never_holds_a_cell_for_the_model(loaded, magics, capsys):
    """By default auto mode shows the exact findings only; with `model` the check runs after the
    cell ended, and the next cell cancels it rather than wait for it."""
    loaded.run_line_magic("codecheck", "set context=false")
    try:
        loaded.run_line_magic("codecheck", "auto on")
        assert magics.auto.model is False
        before = magics.auto.last
        loaded.run_cell("print(undefined_auto_default)\n", store_history=True)
        assert "undefined_auto_default" in capsys.readouterr().out     # the exact finding, before
        assert magics.auto.last is before                               # no model check at all
        loaded.run_line_magic("codecheck", "auto on model")
        loaded.run_cell(LONG_CELL.replace("compute", "abs").replace("value_0", "1"), store_history=True)
        first = magics.auto.last
        loaded.run_cell("after_long = 1\n", store_history=True)        # it cancels the check
        assert first.cancel.is_set()
        first.wait()
        magics.auto.last.wait()
        assert magics.auto.last.source == "after_long = 1\n" and not magics.auto.last.cancel.is_set()
    finally:
        loaded.run_line_magic("codecheck", "auto off")
        loaded.run_line_magic("codecheck", "reset")


def test_the_guard_without_the_model_judges_only_what_ran(shell, magics):
    """A stopped cell did not run: not in the cells run, the context or the panel's "already
    ran"; a name a cell added to builtins is defined; no cell is stopped while a thread of the
    user's runs."""
    from jupyter_codecheck.views.panel_kernel import already_ran, read_state
    from jupyter_codecheck.views.auto_mode import CellStopped
    magics.auto.set("guard", model=False)
    try:
        stopped = "newvar_g = 5\nprint(undefined_g)"
        assert isinstance(shell.run_cell(stopped, store_history=True).error_before_exec, CellStopped)
        assert stopped not in magics.executed.ran + magics.executed.cells + magics.executed.failed
        assert not already_ran(stopped, shell)
        again = shell.run_cell("print(newvar_g)", store_history=True).error_before_exec
        assert "no cell run in this kernel defines it" in str(again)
        assert shell.run_cell("import builtins\nbuiltins.myfn_g = len", store_history=True).success
        assert shell.run_cell("print(myfn_g([1]))", store_history=True).success
        assert "myfn_g" in read_state("print(myfn_g([1]))", shell).names    # the panel's names too
        assert shell.run_cell("import threading\nready_g = threading.Event()\ndef work_g():\n"
                              "    global result_g\n    ready_g.wait()\n    result_g = 1\n"
                              "thread_g = threading.Thread(target=work_g)\nthread_g.start()").success
        assert shell.run_cell("ready_g.set()\nthread_g.join()\nprint(result_g)", store_history=True).success
    finally:
        magics.auto.set("off")
        vars(builtins).pop("myfn_g", None)
        if "ready_g" in shell.user_ns:
            shell.user_ns["ready_g"].set()


def test_the_guard_reads_a_cell_of_timeit_lines_as_their_python(shell, magics):
    """`%timeit min(big_arr)` alone in a cell is Python the guard reads (timeit runs it in the
    namespace first); a `%timeit` with options, or a magic of another kind, is not read."""
    from jupyter_codecheck.pytext.sources import runs_here
    from jupyter_codecheck.views.auto_mode import CellStopped
    assert runs_here("%time big_t.extend([4])\n%timeit big_t[3]") is None     # another magic may change what it reads
    magics.auto.set("guard", model=False)
    try:
        shell.run_cell("big_t = [3, 1, 2]", store_history=True)
        stopped = shell.run_cell("%timeit min(big_tt)\n%timeit min(big_t)", store_history=True)
        assert isinstance(stopped.error_before_exec, CellStopped)
        assert shell.run_cell("%timeit -n 1 -r 1 min(big_t)", store_history=True).success
        ran = shell.run_cell("%timeit -n 1 -r 1 min(big_tt)", store_history=True)
        assert ran.error_before_exec is None and isinstance(ran.error_in_exec, NameError)
    finally:
        magics.auto.set("off")


LONG_CELL = "".join(f"value_{i} = compute(value_{i - 1}, step={i})\n" for i in range(1, 120))


def _engines_free() -> bool:
    from jupyter_codecheck.core.adapter import _LOADED
    return not any(engine.lock.locked() for engine in _LOADED.values())


@pytest.fixture
def interrupt_at(monkeypatch):
    """`interrupt_at(n, times)`: SIGINT arrives (as Ctrl-C or the kernel's Interrupt sends it)
    `times` times as the n-th token is shown decided: a known moment of the walk, not a
    wall-clock delay (a timer may find the walk done on a fast machine, or interrupt the view's
    own code between two steps of the check)."""
    from jupyter_codecheck.views.progress import KernelProgress
    real_show = KernelProgress.show
    plan = {}

    def show(self, text, *, log=True):
        plan["seen"] = plan.get("seen", 0) + 1
        if plan["seen"] == plan["at"]:
            for _ in range(plan["times"]):
                signal.raise_signal(signal.SIGINT)     # its Python handler runs before this returns
        real_show(self, text, log=log)
    monkeypatch.setattr(KernelProgress, "show", show)

    def arm(at: int, times: int = 1):
        plan.update(at=at, times=times, seen=0)
    return arm


def test_keyboard_interrupt_shows_the_partial_result_and_the_shell_stays_usable(loaded, capsys,
                                                                                 interrupt_at):
    handler = signal.getsignal(signal.SIGINT)
    interrupt_at(20)
    loaded.run_cell_magic("codecheck", "--no-context -o partial", LONG_CELL)
    partial = loaded.user_ns["partial"]
    assert partial.stats["cancelled"] is True
    assert 20 <= len(partial.tokens) < partial.stats["tokens"]
    assert "cancelled after" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGINT) is handler and _engines_free()
    loaded.run_cell_magic("codecheck", "--no-context -o after", "k = 1\n")
    assert loaded.user_ns["after"].stats["cancelled"] is False


def test_a_second_interrupt_stops_at_once_and_lets_go_of_the_model(loaded, interrupt_at):
    # the second one raises where the thread is, here the view's own code between two steps:
    # the suspended check is closed, so the model's lock is free for the next check
    loaded.user_ns.pop("twice", None)
    interrupt_at(5, times=2)
    with pytest.raises(KeyboardInterrupt) as raised:
        loaded.run_cell_magic("codecheck", "--no-context -o twice", LONG_CELL)
    assert _engines_free() and "twice" not in loaded.user_ns
    del raised                      # (the traceback held the view's frame: it no longer matters)
    loaded.run_cell_magic("codecheck", "--no-context -o after", "k = 1\n")
    assert loaded.user_ns["after"].stats["cancelled"] is False


def test_no_thread_of_the_extension_outlives_it():
    # load_ext starts loading the model in the background (the warm-up): the first check waits
    # for it instead of running beside it on the one session, and unload_ext ends it and auto
    # mode's worker, so that nothing of one test module runs on into the next
    ip = InteractiveShell.instance()
    ip.run_line_magic("unload_ext", "jupyter_codecheck")     # the module's shell, loaded again
    before = {t.ident for t in threading.enumerate()}
    ip.run_line_magic("load_ext", "jupyter_codecheck")
    magics = next(m for m in ip.magics_manager.registry.values() if isinstance(m, CodecheckMagics))
    assert magics.warm_up is not None
    ip.run_line_magic("unload_ext", "jupyter_codecheck")
    assert magics.warm_up is None
    assert [t.name for t in threading.enumerate() if t.ident not in before] == []
    ip.run_line_magic("load_ext", "jupyter_codecheck")


# -- severity: hand-built results, no model ----------------------------------------------------------

SEV_CELL = "print(totl)\nfor v in [1]:\n    prnt(v)\n"
SEV_ERROR = Finding(1, 6, 100.0, "undefined-name", "name 'totl' is not defined", None,
                    severity="error", gain=None)
SEV_WARNING = Finding(3, 4, 4.2, "replace", "'prnt' looks wrong here: the model expects 'print'",
                      "    print(v)", severity="warning", gain=4.2)


def _sev_result(findings, with_edit):
    p = SEV_CELL.encode().index(b"prnt")
    return CheckResult(source=SEV_CELL, findings=findings, stats={"tokens": 18},
                       edits=[Edit("replace", p, p + 4, 3, 4, "prnt", "print")] if with_edit else [],
                       corrected=SEV_CELL.replace("prnt", "print") if with_edit else SEV_CELL)


@pytest.fixture
def fake_check(monkeypatch, magics):
    """%%codecheck answers with the result in `answer[0]` instead of running the model."""
    import jupyter_codecheck.core.long_sources as pieces_module
    answer: list[CheckResult] = []

    def check_long_iter(source, **_):
        yield answer[0]
    monkeypatch.setattr(pieces_module, "check_long_iter", check_long_iter)   # what CheckJob runs
    monkeypatch.setattr(magics, "ensure_model", lambda *a, **k: {})
    return answer


def test_compact_report_names_the_severity():
    assert compact_report(_sev_result([SEV_ERROR, SEV_WARNING], True)) == (
        "codecheck: line 1:7: error[undefined-name]: name 'totl' is not defined\n"
        "codecheck: line 3:5: warning[replace]: 'prnt' looks wrong here: the model expects 'print'")
    assert compact_report(CheckResult(source="x = 1\n")) == ""


def test_cell_magic_shows_errors_and_warnings(shell, fake_check, capsys):
    fake_check.append(_sev_result([SEV_ERROR, SEV_WARNING], True))
    shell.user_ns.pop("v", None)
    shell.run_cell_magic("codecheck", "--view text --no-context --run clean -o sev", SEV_CELL)
    out = capsys.readouterr().out
    assert "codecheck: 2 findings: 1 error, 1 warning (18 tokens)" in out
    assert "line 1:7: error[undefined-name]: name 'totl' is not defined" in out
    assert "line 3:5: warning[replace]: 'prnt' looks wrong here" in out and "+    print(v)" in out
    assert "cell not run (1 error, 1 warning)" in out
    assert shell.user_ns["sev"].errors == [SEV_ERROR] and "v" not in shell.user_ns


def test_cell_magic_lists_a_finding_without_a_fix(shell, fake_check, capsys):
    """An error with no replacement is shown although nothing is changed."""
    fake_check.append(_sev_result([SEV_ERROR], False))
    shell.run_cell_magic("codecheck", "--view text --no-context", SEV_CELL)
    out = capsys.readouterr().out
    assert "codecheck: 1 finding: 1 error (18 tokens)\nline 1:7: error[undefined-name]: name 'totl' " \
           "is not defined" in out
