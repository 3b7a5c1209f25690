"""`jupyter-codecheck PATH...`: check Python files and notebooks from the command line or in CI.

    jupyter-codecheck analysis.ipynb src/             # human text, coloured on a terminal
    jupyter-codecheck --format json notebooks/ > report.json
    jupyter-codecheck --format sarif -o codecheck.sarif .   # for code-scanning UIs
    jupyter-codecheck --jobs auto notebooks/          # worker processes (views/processes.py)
    jupyter-codecheck --dask tcp://host:8786 repo/    # a Dask distributed cluster (views/cluster.py)
    jupyter-codecheck calibrate ...                   # choose thresholds for a model (see calibrate.py)

PATHs are files or directories (searched recursively for `.py` and `.ipynb`; hidden folders,
`__pycache__`, `node_modules` and `.ipynb_checkpoints` are skipped); `-` reads Python from stdin
(`--stdin-name x.ipynb` reads a notebook). Notebooks are checked per code cell, each with the
earlier code cells as context (`--no-context`: each cell alone); IPython magics and shell lines
(`%timeit`, `!ls`) are never flagged, and cells in another language (`%%bash`, `%%html`, ...) are
skipped. Locations read `path:line:col`, or `nb.ipynb:cell_4:12:5` for line 12, column 5 of the
notebook's fourth cell (counted from 1, markdown cells included, as editors number them; the JSON
and SARIF `cell` field is the 0-based index into the notebook's `cells` list).

Findings have a severity. An **error** is Python's own verdict: a syntax error (kind `syntax`) or
a name that is never defined (kind `undefined-name`, with the notebook's reason where it has one:
a later cell defines it); beside a kernel also `attribute`, `key` and `call` (the live object
has no such attribute, column or parameter); it has no score from the model. A
**warning** is an edit the model proposes and has verified on the rest of the file or cell (kind
`change`, `replace`, `insert` or `delete`); its `gain` is the evidence for the edit in nats. Text
lines read `path:3:5: error[syntax]: ...` or `path:2:1: warning[replace]: ... (gain 6.2)`.

Silencing: `--ignore key,attribute` drops those kinds everywhere; a comment on a statement (on
any of its lines) drops its findings of the kinds it names, `# codecheck: ignore[key]` (several:
`ignore[key, call]`), or of every kind, `# codecheck: ignore`. A silenced finding's fix is not in
the corrected code; the summary and each result's `stats["silenced"]` count them. A comment
naming an unknown kind, or none (`ignore[]`, which silences nothing), is a warning of kind
`ignore`.

A notebook cell whose saved outputs hold an error (it raised when the notebook last ran) gets
the cause and a repair of that failure (jupyter_codecheck.failure: from the stored traceback and
the cells that ran before it, by their execution counts; no kernel here, so Python's own checks
re-check it). The text report says it after the cell's findings (`nb.ipynb:cell_3: raised
NameError: ...`, where the repair is, its diff); it does not change the exit code.

Exit code: 0 no findings, 1 findings, 2 a usage, input or model error (a file that could not be
checked makes the run end with 2 after the other files are checked and reported), 130
interrupted (the files checked so far are still reported). `--fail-on error` exits 1 only for
errors (warnings are still reported, and exit 0); the default, `--fail-on warning`, exits 1 for
any finding.

JSON format (`--format json`; stable, new keys may be added but none removed or renamed; a
finding holds every field of jupyter_codecheck.Finding):

    {"summary": {"files": 2, "notebook_cells": 1,   # what the text report's last line counts
                 "files_with_findings": 1, "findings": 1, "errors": 0, "warnings": 1,
                 "silenced": 0, "tokens": 61, "model": "SmolLM2-135M-Instruct",
                 "unreadable": [{"path": "bad.ipynb", "message": "..."}],   # named on stderr too
                 "interrupted": false},
     "files": [
      {"path": "src/util.py",                    # as given on the command line / found
       "findings": [{"line": 3,                  # 1-based line in the file (or cell)
                     "column": 4,                # 0-based character column, as jupyter_codecheck.Finding
                     "score": 9.2,               # ranks findings: higher = more certain, errors first
                     "kind": "replace",          # syntax | undefined-name | attribute | key | call | change | replace | insert | delete | ignore
                     "message": "'retrun' looks wrong here: the model expects 'return'",
                     "replacement": "    return x",  # the corrected line, or null
                     "severity": "warning",      # error | warning
                     "gain": 6.2,                # warnings: evidence for the edit in nats; errors: null
                     "end_column": null}],       # where the named word ends (kernel facts), else null
       "corrected": "...",                       # the whole corrected source of the file (or cell)
       "diff_rows": [{"kind": "removed",         # CheckResult.diff_rows(): same | removed | added | gap
                      "old_line": 3,             # 1-based line in the source, or null (added)
                      "new_line": null,          # 1-based line in the corrected source, or null (removed)
                      "text": "    retrun x",    # the line without its end ("" for a gap)
                      "spans": [[4, 10]],        # the characters removed (added: inserted), [start, end)
                      "lines": 1,                # a gap: how many unchanged lines it leaves out
                      "edit_kinds": []}, ...],   # the change's edit kinds, on its first added row
       "stats": {"tokens": 42, "time_s": 0.8, "model": "...", ...}},   # CheckResult.stats ("model_name": the GGUF file's general.name)
      {"path": "nb.ipynb", "cell": 3, "findings": [...], "corrected": "...", "diff_rows": [...], "stats": {...},
       "repair": {"failure": {"error": "NameError", "message": "...", "frames": [{"cell": 3, "line": 1, ...}]},
                  "cause": "NameError: name 'xz' is not defined (line 2 of the previous cell)",
                  "cause_place": {"cell": 1, "line": 2, "why": "..."},
                  "repair": {"cell": 1, "line": 2, "old_line": "...", "new_line": "...", "source": "...",
                             "verified": null, "origin": "model", "edit": {...}, ...},   # null: none found
                  "refused": 3, "stats": {...}}}      # only on a cell whose saved outputs hold an error
    ]}

One entry per Python file and per checked notebook cell (`"cell"` only on cell entries: the
0-based index into the notebook's `cells` list, where locations say `cell_4` for index 3), in the
order checked. Files that could not be read are not in "files"; they are named on stderr (and in
the SARIF invocation's notifications).

SARIF format (`--format sarif`): SARIF 2.1.0, one run; rules are the finding kinds
(`codecheck/syntax`, `codecheck/undefined-name`, `codecheck/replace`, ...); a result's `level` is
its severity (`error` or `warning`); results carry the region 1-based. For a notebook the region points
into the `.ipynb` file itself (the line and column of that character inside the JSON string that
holds the cell's source), so code-scanning UIs showing the raw file point at the right place; the
cell, its line and column are in a logical location `nb.ipynb:cell_4` and in the result's
properties (`cell`, the 0-based index; `cellLine`, `cellColumn`). Python files' results carry a `fixes` entry
replacing the line with the model's correction. A notebook cell's stored error is a result of rule
`codecheck/failure` at its cause (properties `failedCell`, `error`), with a `fixes` entry when a
repair was found: the repaired line's text, escaped as JSON, over that line's text in the
`.ipynb` file (in the failed cell or the earlier cell the repair is in).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from .._version import __version__
from ..core.options import OptionError, add_flags, from_flags
from ..pytext.sources import SourceError, find_files
from .files import FatalError, check_units
from .report import SEVERITY_ORDER, Run, TextReport, fails, formatted
from .progress import TerminalProgress

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130

# -- command line -------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="jupyter-codecheck",
        description="Check Python files and Jupyter notebooks with a small language model on your CPU.",
        epilog="Findings are errors (Python's own checks: syntax, undefined names) or warnings "
               "(an edit the model verified on the rest of the code). "
               "Exit code: 0 clean, 1 findings (with --fail-on error: errors only), "
               "2 usage/input/model error. "
               "'jupyter-codecheck calibrate --help': choose thresholds for a model.")
    ap.add_argument("paths", nargs="+", metavar="PATH",
                    help="files or directories (.py, .ipynb; directories recursively); '-' reads stdin")
    m = ap.add_argument_group("checking (as in %%codecheck)")
    add_flags(m.add_argument)
    m.add_argument("--context", dest="context", action="store_true", default=True,
                   help="notebooks: earlier code cells are context for each cell (default)")
    m.add_argument("--no-context", dest="context", action="store_false", help="notebooks: check each cell alone")
    w = ap.add_argument_group("workers")
    w.add_argument("-j", "--jobs", default="1", metavar="N",
                   help="check files in N worker processes ('auto': the physical cores other "
                        "processes leave free); the report is the same as with 1, in the same order")
    w.add_argument("--dask", metavar="ADDRESS",
                   help="check files on the Dask distributed cluster whose scheduler is at ADDRESS "
                        "(e.g. tcp://10.0.0.5:8786); needs the 'dask' extra")
    o = ap.add_argument_group("output")
    o.add_argument("--fail-on", choices=list(reversed(SEVERITY_ORDER)), default="warning",
                   help="exit 1 for findings of this severity or above: 'warning' (default) any "
                        "finding, 'error' only errors (warnings are reported but exit 0)")
    o.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    o.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    o.add_argument("--json-output", metavar="FILE", help="also write the JSON report to FILE (same run)")
    o.add_argument("--sarif-output", metavar="FILE",
                   help="also write the SARIF report to FILE (e.g. text in the CI log and SARIF for upload)")
    o.add_argument("--diff", action="store_true", help="text: also show a unified diff of each correction")
    o.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr; text: findings only, no summary")
    o.add_argument("-v", "--verbose", action="store_true",
                   help="text: the summary also says what the early exit saved (layers run, output heads skipped)")
    o.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                   help="colour the text report (auto: when writing to a terminal and NO_COLOR is unset)")
    o.add_argument("--stdin-name", default="stdin", metavar="NAME",
                   help="the name reports give to '-' (a name ending in .ipynb reads a notebook)")
    ap.add_argument("--version", action="version", version=f"jupyter-codecheck {__version__}")
    return ap


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "calibrate":
        return _calibrate(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:       # --help / --version (0) or a usage error (2, message printed)
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    try:
        return _run(args)
    except FatalError as e:
        _error(str(e))
        return EXIT_ERROR
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED


def _calibrate(rest: list[str]) -> int:
    # the `calibrate` subcommand is the tool's own command line: the one place a view uses tools/
    name = "jupyter_codecheck.tools.calibrate"
    try:
        import jupyter_codecheck.tools.calibrate as calibrate
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        _error("this installation has no 'calibrate' command (jupyter_codecheck.tools.calibrate is "
               "missing); upgrade jupyter-codecheck")
        return EXIT_ERROR
    try:
        code = calibrate.main(rest)
    except SystemExit as e:
        code = e.code
    return code if isinstance(code, int) else (0 if code is None else EXIT_ERROR)


def _error(message: str) -> None:
    print(f"jupyter-codecheck: error: {' '.join(str(message).split())}", file=sys.stderr)


def _options(args) -> dict:
    # only what the user set: check()'s own defaults apply to the rest
    try:
        return from_flags(vars(args))
    except OptionError as e:
        raise FatalError(str(e)) from None


def _run(args) -> int:
    try:
        files = find_files(args.paths)
    except SourceError as e:
        raise FatalError(f"{e}; check the path") from None
    if args.paths.count("-") > 1:
        raise FatalError("'-' (stdin) can be given only once")
    # every report this run writes: (format, file or None for stdout); checked before the slow part
    outputs = [(args.format, args.output)] + [(fmt, path) for fmt, path in
                                              (("json", args.json_output), ("sarif", args.sarif_output)) if path]
    for _, path in outputs:
        if path:
            _check_writable(path)
    to_terminal = args.output is None and _isatty(sys.stdout)
    color = args.color == "always" or (args.color == "auto" and to_terminal and _color_allowed())
    text = TextReport(color=color, diff=args.diff, quiet=args.quiet, verbose=args.verbose) if args.format == "text" else None
    stream = args.output is None and text is not None      # text to stdout: print as files finish
    progress = FileProgress(enabled=not args.quiet, total=len(files))

    run = Run()
    t0 = time.perf_counter()
    chunks: list[str] = []

    def emit(s: str):
        if not s:
            return
        if stream:
            progress.clear()
            _write(sys.stdout, s)
        else:
            chunks.append(s)

    for done in check_files(files, _options(args), context=args.context, stdin_name=args.stdin_name,
                            run=run, progress=progress, jobs=args.jobs, dask=args.dask):
        if text is not None:
            emit(text.unit(done))
    progress.clear()
    elapsed = time.perf_counter() - t0
    if run.interrupted:
        _error(f"interrupted after {len({c.unit.path for c in run.checked})} of {len(files)} files; "
               "the report covers the units checked so far")

    if text is not None:
        emit(text.summary(run, elapsed))
    for fmt, path in outputs:
        if fmt == "text":
            report = "".join(chunks)
        else:
            report = formatted(run, fmt)
        if path:
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(report)
            except OSError as e:
                raise FatalError(f"cannot write the report to {path} ({e.strerror or e})") from None
        elif not stream:
            _write(sys.stdout, report)

    if run.interrupted:
        return EXIT_INTERRUPTED
    if run.errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if any(fails(c.result, args.fail_on) for c in run.checked) else EXIT_CLEAN


def check_files(files, options: dict, *, context: bool, stdin_name: str, run: Run, progress,
                jobs: str | int = 1, dask: str | None = None):
    """Checks every unit of every file, yielding each `Checked` in the files' order: in this
    process, in worker processes (`jobs`) or on a Dask cluster (`dask`). Unreadable files are
    recorded in `run.errors`; a model or option error raises FatalError."""
    def said(message: str) -> None:
        progress.clear()
        _error(message)

    n_jobs = 1
    if dask is None and str(jobs) != "1":
        from .processes import jobs_for
        try:
            n_jobs = jobs_for(jobs, len(files))
        except ValueError as e:
            raise FatalError(str(e)) from None
    if dask is None and n_jobs == 1:          # this process: no worker to start
        options = {**options, "progress": progress.core}
        for n, path in enumerate(files, 1):
            name = stdin_name if path == "-" else path
            progress.update(n, name)
            yield from check_units(name, options, context=context, run=run,
                                   text=sys.stdin.read() if path == "-" else None,
                                   on_unit=lambda text, piece, n=n: progress.update(n, text, step=piece, live=not piece),
                                   on_error=said)
            if run.interrupted:
                return
        return

    named = [(stdin_name, sys.stdin.read()) if path == "-" else (path, None) for path in files]
    on_done = (lambda count, outcome: progress.update(count, outcome.name))
    try:
        if dask is not None:
            from .cluster import check_on_cluster
            outcomes = check_on_cluster(dask, named, options, context=context, on_done=on_done)
        else:
            from .processes import check_in_processes, threads_per_worker
            if "n_threads" not in options:
                options = {**options, "n_threads": threads_per_worker(n_jobs)}
            outcomes = check_in_processes(named, options, context=context, jobs=n_jobs, on_done=on_done)
        for outcome in outcomes:
            for path, message in outcome.errors:
                run.errors.append((path, message))
                said(message)
            if outcome.fatal:
                raise FatalError(outcome.fatal)
            for done in outcome.checked:
                run.checked.append(done)
                yield done
    except KeyboardInterrupt:         # the workers are stopped; report what came back
        run.interrupted = True


# -- terminal ---------------------------------------------------------------------------------------

class FileProgress:
    """`[3/40] path` on stderr when checking several files, and `path (lines 120-240 of 900)` while
    a long file is checked piece by piece: rewritten in place on a terminal, one line per file
    and per step otherwise (CI logs). Never on stdout, which may carry JSON or SARIF."""

    # a log's line for the cell a long notebook is at, at most this often (seconds)
    LOG_CELL_EVERY = 30.0

    def __init__(self, *, enabled: bool, total: int):
        self.total = total
        self.out = TerminalProgress(enabled=enabled)
        self._last_file = 0
        self._last_logged = time.monotonic()

    def update(self, n: int, name: str, *, step: bool = False, live: bool = False) -> None:
        """File `n` (or, with `step`, a step within it, shown even for a single file) begins.
        A `live` step (a notebook's cell) is shown on a terminal, even for a single file: a long
        notebook shows it is advancing; a log gets the cell only when LOG_CELL_EVERY has passed
        since its last line, so a notebook checked in minutes is not silent there either."""
        now = time.monotonic()
        if live and not self.out.tty:
            if now - self._last_logged >= self.LOG_CELL_EVERY:
                self._last_logged = now
                self.out.show(f"[{n}/{self.total}] {name}" if self.total > 1 else name, log=True)
            return
        if self.total < 2 and not step and not (live and self.out.tty):
            return
        self._last_logged = now
        text = f"[{n}/{self.total}] {name}" if self.total > 1 else name
        self.out.show(text, log=n != self._last_file or step)
        self._last_file = n

    def core(self, text: str, done: bool) -> None:
        self.out.core(text, done)

    def clear(self) -> None:
        self.out.clear()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _color_allowed() -> bool:
    return "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _write(stream, s: str) -> None:
    try:
        stream.write(s)
    except UnicodeEncodeError:     # a terminal that cannot show some character of the code
        stream.write(s.encode(stream.encoding or "ascii", "backslashreplace").decode(stream.encoding or "ascii"))
    stream.flush()


def _check_writable(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FatalError(f"cannot write the report to {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise FatalError(f"cannot write the report to {path}: permission denied")


if __name__ == "__main__":
    sys.exit(main())
