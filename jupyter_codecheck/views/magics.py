"""IPython magics: `%%codecheck` checks a cell, `%codecheck` sets defaults, shows model info and
turns automatic checking on (`%codecheck auto on`), on with a guard that stops a cell that surely
crashes (`%codecheck auto guard`), and off.

    %load_ext jupyter_codecheck
    %%codecheck --prob 0.1 --run clean -o result
    df = load()
    df.groupby("a").mean()

The magics only call `check_iter()` (through `long_sources.check_long_iter`, which checks a long cell
piece by piece) and render its `CheckResult` (views come from `jupyter_codecheck.views.widgets` when
present, else a plain-text report). The model loads once per kernel, on the first check.
"""
from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass, field

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from ..core.check import check
from ..core.exact_findings import ExactCheck, exact_check
from ..facts import kernel_state
from ..core.options import CONTEXT_CHARS, OPTIONS, OptionError, flag_arguments, from_flags, parse_text, validate
from ..core.long_sources import Piece, select_context
from ..core.result import CheckResult
from ..core.result import severity_counts
from ..pytext.sources import is_code_cell
from .auto_mode import AUTO_MODES, AutoChecker, CellStopped, is_panel_code
from .failed_cells import RepairJob, raised, repair_view, repairable
from .progress import KernelProgress
from .widgets import mimebundle
from .worker import CheckJob

VIEWS = ("widget", "html", "text")


def _option_flags(func):
    """The check options' flags (--model, --prob, ...), from the options contract."""
    for args, kwargs in reversed(flag_arguments()):
        func = argument(*args, **kwargs)(func)
    return func


# -- what the magics remember per kernel --------------------------------------------------------

@dataclass
class Defaults:
    options: dict = field(default_factory=dict)        # check() options the user set
    context: bool = True
    view: str | None = None

    def show(self, every: bool = False) -> str:
        """The settings a user changes (those with a flag) and any they set; `every`: all of them.
        A default that means "chosen for you" says so (the default model, threads: auto)."""
        lines, hidden = [], 0
        for o in OPTIONS:
            if o.scope == "api":
                continue
            if not (every or o.flag or o.name in self.options):
                hidden += 1
                continue
            value = self.options.get(o.name, o.default)
            mark = "  (set)" if o.name in self.options else ""
            shown = _CHOSEN.get(o.name, repr(value)) if value is None and o.name not in self.options else repr(value)
            lines.append(f"  {o.name:<15} {shown}{mark}")
        lines.append(f"  {'context':<15} {self.context!r}")
        lines.append(f"  {'view':<15} {self.view or 'auto'!r}")
        if hidden:
            lines.append(f"  ... and {hidden} more settings of the model's walk: %codecheck show all")
        return "\n".join(lines)


# what an unset option's None means where it is shown
_CHOSEN = {"model": "the default model (%codecheck info names it)",
           "n_threads": "auto (the cores others leave free)",
           "repair_margin": "the floor shipped for the model"}


class ExecutedCells:
    """The cells this shell has run, raw, without cell magics and magic-only cells: the context
    `%%codecheck` gives the model.

    Cells run before the extension was loaded come from the history; later ones are recorded as
    they run (`post_run_cell`), because a front end may execute without storing history (nbval
    does) and the context must not depend on that.
    """

    def __init__(self, shell):
        hist = getattr(shell.history_manager, "input_hist_raw", None) or []
        self.cells = [c for c in hist[1:] if is_code_cell(c)]
        self.ran = [c for c in hist[1:] if c.strip()]   # every cell run, magics too: the history
        self.failed: list[str] = []     # cells that raised (a name only they define: that is why)
        self.start = 0                  # where the context window begins (select_context)
        self._depth = 0                 # cells run from inside a cell (%%capture, --run) are nested

    def enter(self, info):
        self._depth += 1

    def record(self, result):
        top = self._depth <= 1          # <= : the cell that loaded the extension was not entered
        self._depth = max(0, self._depth - 1)
        source = result.info.raw_cell or ""
        if isinstance(result.error_before_exec, CellStopped):
            return                      # the guard stopped it: nothing of it ran
        if top and source.strip() and not is_panel_code(source):
            self.ran.append(source)
            if not getattr(result, "success", True):
                self.failed.append(source)
            if is_code_cell(source):
                self.cells.append(source)

    def window(self, budget: int = CONTEXT_CHARS) -> list[str]:
        """The earlier cells the model reads (long_sources.select_context: the same rule as every view)."""
        self.start, cells = select_context(self.cells, self.start, budget)
        return cells



# -- views -----------------------------------------------------------------------------------------

@dataclass
class CellRequest:
    options: dict           # check() options
    context: bool           # earlier cells as prefix
    view: str
    run: str | None         # None, "always" or "clean"
    output: str | None      # variable for the CheckResult


# -- the magics ------------------------------------------------------------------------------------

@magics_class
class CodecheckMagics(Magics):
    def __init__(self, shell):
        super().__init__(shell)
        self.defaults = Defaults()
        self.model_stats: dict[tuple, dict] = {}     # (model, threads) -> stats of the load check
        self.auto = AutoChecker(self)
        self.executed = ExecutedCells(shell)
        self._in_body = False                        # `--run` executing the body: auto skips it
        self.warm_up: threading.Thread | None = None  # loading the model at %load_ext

    @property
    def in_kernel(self) -> bool:
        return getattr(self.shell, "kernel", None) is not None

    # -- %%codecheck --------------------------------------------------------------------------

    @magic_arguments()
    @argument("--context", dest="context", action="store_true", default=None,
              help="give earlier executed cells to the model as a prefix (default)")
    @argument("--no-context", dest="context", action="store_false",
              help="check the cell on its own")
    @argument("--run", nargs="?", const="always", choices=["always", "clean"],
              help="execute the cell after checking: always, or only when it has no findings")
    @argument("-o", "--output", metavar="VAR", help="store the CheckResult in variable VAR")
    @argument("--view", choices=VIEWS,
              help="widget (live, in a notebook), html (static) or text; default: widget in a "
                   "notebook, text in a terminal")
    @_option_flags
    @cell_magic
    def codecheck(self, line, cell):
        """Check the cell's code with a small language model; show findings and the correction.

        Magics and shell lines in the cell are masked (never flagged). Defaults can be changed
        for the session with `%codecheck set key=value`.
        """
        req = self.parse_cell_line(line)
        result = self.run_check(cell, {**req.options, **self.kernel_options()},
                                context=self.context() if req.context else None, view=req.view)
        if req.output:
            self.shell.user_ns[req.output] = result
        if req.run and result is not None:
            cancelled = result.stats.get("cancelled")
            if req.run == "always" or (result.clean and not cancelled):
                self.repair_body(cell, self.run_body(cell), req)
            else:
                why = "the check was cancelled" if cancelled else severity_counts(result.findings)
                print(f"codecheck: cell not run ({why}); use --run always to run it anyway")

    def parse_cell_line(self, line) -> CellRequest:
        """The `%%codecheck` line as check() options (defaults applied) and what to do after."""
        args = parse_argstring(self.codecheck, line)
        if args.output is not None and not args.output.isidentifier():
            raise UsageError(f"-o needs a variable name, got {args.output!r}")
        try:
            # options not given are absent (argparse.SUPPRESS): the defaults apply to them
            options = validate({**self.defaults.options, **from_flags(vars(args))}, scope="view")
        except OptionError as e:
            raise UsageError(str(e)) from None
        return CellRequest(options=options,
                           context=self.defaults.context if args.context is None else args.context,
                           view=args.view or self.defaults.view or self.default_view(),
                           run=args.run, output=args.output)

    def run_body(self, cell):
        """Runs the checked cell's body; returns IPython's ExecutionResult."""
        self._in_body = True
        try:
            return self.shell.run_cell(cell, store_history=False)
        finally:
            self._in_body = False

    def repair_body(self, cell, outcome, req: CellRequest) -> None:
        """`--run`'s body raised: its repair, shown under the traceback (the cell waits for it; an
        interrupt cancels it)."""
        exc = raised(outcome)
        if not repairable(exc):
            return
        progress = KernelProgress(self.in_kernel)
        progress.show("codecheck: the cell raised; looking for a repair …")
        job = RepairJob(cell, exc, context=list(self.executed.cells), namespace=self.shell.user_ns,
                        options=req.options)
        with interrupt_cancels(job.cancel):
            fix = job.run()
        if job.error is not None:
            progress.show(f"codecheck: the repair failed: {job.error}")
        elif fix is None:
            progress.show("codecheck: the repair was cancelled")
        else:
            shown, raw = repair_view(fix, req.view if self.in_kernel else "text")
            progress.replace(shown, raw=raw)
        progress.clear()

    def default_view(self) -> str:
        return "widget" if self.in_kernel else "text"

    def context(self) -> list[str]:
        return self.executed.window()

    def defined_names(self) -> dict:
        """What the kernel has defined, by name: Python's checks never call these undefined,
        whatever part of the earlier cells the model reads as context, and a fix may not name an
        attribute the object has not got (read without running its code: see facts/)."""
        return dict(self.shell.user_ns) if self.shell is not None else {}

    def kernel_options(self) -> dict:
        """check()'s options from the kernel: its namespace, the cells it ran (why a name is
        undefined: a `del`, a failed cell, none of them)."""
        return {"namespace": kernel_state(self.defined_names(), when="now"), "failed": list(self.executed.failed),
                "history": list(self.executed.ran), "notebook": True}

    def exact(self, code: str, options: dict | None = None) -> ExactCheck:
        """The exact findings on `code` (a cell's Python, about to run) with the kernel as it is
        now (or as `options`, kernel_options(), read it): the libraries the cell begins by
        importing are imported a moment early ("leading", facts/modules.py)."""
        options = options or self.kernel_options()
        libraries = self.defaults.options.get("libraries", "loaded")
        return exact_check(code, options["namespace"].objects, history=options["history"],
                           failed=options["failed"],
                           libraries="leading" if libraries == "loaded" else libraries,
                           ignore=self.defaults.options.get("ignore") or ())

    # -- running one check with progress, cancellation and a view -----------------------------

    def run_check(self, source, options, *, context=None, view="text") -> CheckResult | None:
        """Checks `source` (a long one piece by piece) and shows it; returns the (maybe partial)
        result. The cell waits for the check, so that the output it keeps is the final result
        in every front end (nbconvert, papermill and nbclient stop listening when it ends); the
        live view streams meanwhile, and its Cancel button or a kernel interrupt cancels."""
        progress = KernelProgress(self.in_kernel)
        self.ensure_model(options, progress)
        if not self.in_kernel:
            view = "text"               # a terminal shows neither widgets nor HTML
        if view == "widget":
            try:
                from .widgets import CheckView
                live = CheckView(source=source)
            except ImportError:         # anywidget missing: the static views still work
                view = "html"
            else:
                handle = progress.replace(live)
                live.run(context=context, block=True, **options)
                handle.update(live)     # the static fallback of the final state
                return live.result
        decided = 0
        piece = ""

        def shown(item):
            nonlocal decided, piece
            if isinstance(item, Piece):
                piece = f" ({item})"
            elif hasattr(item, "decision"):
                decided += 1
                progress.show(f"codecheck: checking{piece} … {decided} tokens decided", log=False)

        job = CheckJob(source, context=context, options=options, on_item=shown)
        # an interrupt cancels: the walk stops within one layer and still yields the partial
        # result, wherever the interrupt finds this thread
        with interrupt_cancels(job.cancel):
            result = job.run()
        if job.error is not None:
            progress.clear()
            raise job.error
        if result is None:              # no result (the check failed or was interrupted twice)
            progress.clear()
            return None
        bundle = mimebundle(result)
        if view == "text":
            bundle = {"text/plain": bundle["text/plain"]}
        progress.replace(bundle, raw=True)
        return result

    def ensure_model(self, options, progress: KernelProgress):
        """Loads the model on its first use in this kernel, with a status line meanwhile."""
        key = (str(options.get("model")), options.get("n_threads"))
        # what loading covers depends on these (e.g. fitting the exit lens): take the user's
        load_options = {k: options[k] for k in ("model", "n_threads", "lens", "exit_policy")
                        if k in options}
        if key in self.model_stats:
            return self.model_stats[key]
        # in a kernel, an output of its own, which says at the end whether the model loaded (what
        # the cell shows next takes its place); nbval 0.11 compares an updated output's first
        # version, so a notebook under nbval loads the model before its first compared check
        loading = "codecheck: loading the model (once per kernel) …"
        progress.show(loading)
        t0 = time.perf_counter()
        try:
            self.join_warm_up()         # the load begun at %load_ext: waited for, not run beside
            # an empty check loads the model and primes its per-model tables
            loaded = check("", progress=progress.core, **load_options)
        except (OSError, ValueError) as e:   # ModelNotFoundError, GGUFError and a bad path
            progress.show(f"{loading} failed")
            progress.clear()
            raise UsageError(f"cannot load the model: {e}") from None
        except BaseException:
            progress.show(f"{loading} stopped")
            progress.clear()
            raise
        stats = dict(loaded.stats, load_time_s=time.perf_counter() - t0)
        self.model_stats[key] = stats
        progress.show(f"codecheck: model {stats.get('model')} loaded")
        return stats

    def join_warm_up(self) -> None:
        """Waits for the load started at %load_ext: no check of ours runs beside it (both would
        use the one model and its session, each undoing the other's context)."""
        if self.warm_up is not None:
            self.warm_up.join()
            self.warm_up = None

    # -- %codecheck ---------------------------------------------------------------------------

    @magic_arguments()
    @argument("command", nargs="?", default="show",
              choices=["show", "set", "reset", "info", "auto"],
              help="show: the defaults; set key=value ...: change them (keys: prob, rank, "
                   "exit_policy, mode, model, threads, context, view or any check() option); "
                   "reset: back to the built-in defaults; info: the model; auto on|guard|off "
                   "[model]: check every cell before it runs (guard: and stop a cell that surely "
                   "crashes; model: the model checks it after it ran, in the background)")
    @argument("values", nargs="*", help="key=value pairs for set; on, guard or off for auto, "
                                        "then model for the model's check too")
    @line_magic("codecheck")
    def codecheck_line(self, line):
        """Show or change the `%%codecheck` defaults, show the model, or set auto mode (on, guard,
        off)."""
        args = parse_argstring(self.codecheck_line, line)
        if args.command == "show":
            if args.values not in ([], ["all"]):
                raise UsageError(f"%codecheck show takes nothing or all, got {' '.join(args.values)!r}")
            print(f"codecheck auto {self.auto.mode}" + (" (with the model)" if self.auto.model else "")
                  + "; defaults:\n" + self.defaults.show(every=args.values == ["all"]))
        elif args.command == "set":
            self.set_defaults(args.values)
        elif args.command == "reset":
            self.defaults = Defaults()
            print("codecheck defaults reset")
        elif args.command == "info":
            progress = KernelProgress(self.in_kernel)
            progress.replace({"text/plain": self.info(progress)}, raw=True)
        elif args.command == "auto":
            if not args.values:
                print(f"codecheck auto is {self.auto.mode}")
            elif args.values[0] in AUTO_MODES and args.values[1:] in ([], ["model"]) and \
                    not (args.values[0] == "off" and len(args.values) > 1):
                progress = KernelProgress(self.in_kernel)
                model = args.values[1:] == ["model"]
                self.auto.set(args.values[0], model=model, progress=progress)
                progress.replace({"text/plain": f"codecheck auto {args.values[0]}" + (
                    ": a cell that surely crashes is stopped before it runs (run it again "
                    "unchanged to run it anyway)" if args.values[0] == "guard" else "") + (
                    "; the model checks each cell after it ran, while the kernel is idle (the "
                    "next cell cancels it)" if model else "")}, raw=True)
            else:
                raise UsageError("%codecheck auto takes on, guard or off (on and guard may add "
                                 f"model), got {' '.join(args.values)!r}")

    def set_defaults(self, pairs):
        if not pairs:
            raise UsageError("%codecheck set needs key=value pairs, e.g. %codecheck set prob=0.1 "
                             "exit_policy=none")
        new = Defaults(dict(self.defaults.options), self.defaults.context, self.defaults.view)
        for pair in pairs:
            key, sep, text = pair.partition("=")
            if not sep:
                raise UsageError(f"{pair!r} is not key=value")
            if key == "context":
                if text.lower() not in ("true", "false", "yes", "no", "on", "off"):
                    raise UsageError(f"context must be true or false, got {text!r}")
                new.context = text.lower() in ("true", "yes", "on")
            elif key == "view":
                if text not in VIEWS + ("auto",):
                    raise UsageError(f"view must be one of {', '.join(VIEWS)} or auto, got {text!r}")
                new.view = None if text == "auto" else text
            else:
                try:
                    new.options.update(parse_text({key: text}))
                except OptionError as e:
                    raise UsageError(str(e)) from None
        try:
            validate(new.options, scope="view")
        except OptionError as e:
            raise UsageError(str(e)) from None
        self.defaults = new
        print("codecheck defaults:\n" + self.defaults.show())

    def info(self, progress: KernelProgress | None = None) -> str:
        options = self.defaults.options
        stats = self.ensure_model(options, progress or KernelProgress(self.in_kernel))
        rows = [("model", stats.get("model")), ("path", stats.get("model_path")),
                ("arch", stats.get("arch")), ("layers", stats.get("n_layer")),
                ("vocab", stats.get("n_vocab")), ("threads", stats.get("n_threads") or options.get("n_threads")),
                ("loaded in", f"{stats['load_time_s']:.1f} s")]
        return "\n".join(f"{k:<10} {v}" for k, v in rows if v is not None)


@contextlib.contextmanager
def interrupt_cancels(cancel: threading.Event):
    """While a check runs in the main thread, an interrupt (Ctrl-C, the kernel's Interrupt) sets
    `cancel` instead of raising KeyboardInterrupt wherever the thread happens to be: raised
    between the check's own steps, it lost the partial result or left the check suspended with
    the model's lock held. A second interrupt raises as before (the previous handler runs)."""
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)

    def on_interrupt(signum, frame):
        if cancel.is_set():
            previous(signum, frame)
        cancel.set()

    # only over a Python handler (IPython's and ipykernel's: default_int_handler); an ignored or
    # default SIGINT is left as the process set it
    installed = callable(previous)
    if installed:
        signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGINT, previous)


# -- extension hooks --------------------------------------------------------------------------------

_LOADED: dict[int, CodecheckMagics] = {}


def load_ipython_extension(ipython, *, warm_up: bool = True):
    """`warm_up=False`: the model is not loaded now (a program that uses only the exact part)."""
    if id(ipython) in _LOADED:
        return
    magics = CodecheckMagics(ipython)
    ipython.register_magics(magics)
    ipython.events.register("pre_run_cell", magics.executed.enter)
    ipython.events.register("post_run_cell", magics.executed.record)
    _LOADED[id(ipython)] = magics
    if warm_up:
        magics.warm_up = threading.Thread(target=_warm_up, name="codecheck-warm-up", daemon=True)
        magics.warm_up.start()


def _warm_up() -> None:
    """Loads the default model while the user writes the first cell (the first %%codecheck
    then waits only for what is left)."""
    try:
        check("")
    except Exception:   # noqa: BLE001 - the first %%codecheck reports what went wrong
        pass


def unload_ipython_extension(ipython):
    magics = _LOADED.pop(id(ipython), None)
    if magics is None:
        return
    magics.auto.close()
    magics.join_warm_up()           # no thread of ours outlives the extension
    ipython.events.unregister("pre_run_cell", magics.executed.enter)
    ipython.events.unregister("post_run_cell", magics.executed.record)
    for kind in ("cell", "line"):
        ipython.magics_manager.magics[kind].pop("codecheck", None)
