"""Auto-calibration: acceptance thresholds that meet a target false-alarm rate on clean code.

    jupyter-codecheck calibrate --model X.gguf CLEAN_FILES_OR_DIRS... --target-false-alarm 0.15 \
        [--pairs bugs.jsonl] [--out X.calibration.json]

Why this is cheap and exact: on a clean file the checker reports something iff one of the cell's
judged tokens fails the acceptance rule (or an edit no threshold prevents happens: token healing,
an appended tail). Until the first rejection the walk sees exactly the file's own prefix, so ONE
full-depth run per file that accepts every token (lenient over the whole file, floor 0) yields
each judged token's probability and rank as the real check would see them; then, offline, any
rule (accept_prob tau, accept_rank N, lenient_floor f) can be applied to those numbers to tell
which files it would flag. The grid search picks, among the rules whose false-alarm rate on the
calibration files is <= the target:
  - with `--pairs` (JSONL of {buggy, fixed} pairs, e.g. a bug benchmark split not used for
    reporting): the rule that rejects a token on a changed line of the most buggy files;
  - without: the strictest rule (most judged tokens rejected over the calibration files).
Early exit reads some acceptances at an earlier layer (every rejection is confirmed at full
depth), so the thresholds are exact for full-depth checks and close for early-exit ones;
bench/quality.py measures the real checks with them.

Calibration file (JSON, schema "jupyter-codecheck/calibration/1"):
    schema              "jupyter-codecheck/calibration/1"
    model               {"name", "file", "size", "sha256"} of the GGUF calibrated
    options             check() options: {"accept_prob", "accept_rank", "lenient_floor",
                        "lenient_tokens", "accept_combine"}  (accept_prob / accept_rank may be null)
    target_false_alarm  the target (share of clean files with any finding)
    achieved_false_alarm  that share on the calibration files with `options` (full depth, offline)
    buggy_line_hit      share of buggy files with a rejected token on a changed line (null without pairs)
    objective           how the rule was chosen among those meeting the target
    calibration_set     {"files", "tokens", "pairs", "sources"}
    created             ISO 8601 date-time (UTC)
    tool                producer and version
    margin, margin_note the evidence margin (nats) a model warning needs (optional; see below)
`load(path)` reads and validates one; `default_for(model_path)` finds a shipped one
(jupyter_codecheck/calibration/*.json) for a model by file size and SHA-256.

The evidence margin (`--margin`): a warning needs an edit that makes the rest of the cell at
least `margin` nats more likely (evidence.py). Each clean file is checked once with margin 0; its
errors flag it at any margin, otherwise its best weighed gain decides from which margin down it
is flagged. The smallest margin that leaves at most the target share flagged is exact for those
files (`choose_margin`).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import difflib
import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

# the runtime half (reading shipped calibrations) is core; re-exported for this tool's users
from ..core.calibration import (SCHEMA, SHIPPED_DIR, Calibration, CalibrationError, default_for,  # noqa: F401
                                default_options, file_sha256, load, model_identity, shipped_margin)
from ..pytext.sources import SourceError, find_files, read_units

LENIENT_TOKENS = 3            # what check() uses; calibration keeps it and tunes the floor
ALL_TOKENS = 1 << 30          # lenient over the whole file: with floor 0 every token is kept

# the grid: probabilities >= 0.005 keep the top-K a Dist carries small (1/tau + 1 candidates)
PROB_GRID: tuple = (None, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
RANK_GRID: tuple = (None, 0, 1, 2, 3, 4, 5, 7, 9, 14, 19, 29, 49, 99)
FLOOR_GRID: tuple = (0.0, 1e-4, 5e-4, 1e-3, 5e-3, 1e-2, 5e-2)


# -- what the model says about each judged token of a file ----------------------------------------

@dataclass
class FileTokens:
    """Full-depth statistics of one file's judged tokens, read with every token accepted."""
    name: str
    index: np.ndarray          # token index in the file (the first tokens are judged leniently)
    prob: np.ndarray
    rank: np.ndarray
    line: np.ndarray
    forced: bool = False       # an edit happened that no threshold prevents (healing, tail)
    forced_lines: tuple = ()
    n_tokens: int = 0
    time_s: float = 0.0

    @classmethod
    def from_arrays(cls, name, prob, rank, index=None, line=None, forced=False, forced_lines=()):
        prob = np.asarray(prob, float)
        n = prob.size
        return cls(name=name, prob=prob, rank=np.asarray(rank, np.int64),
                   index=np.arange(LENIENT_TOKENS, LENIENT_TOKENS + n) if index is None else np.asarray(index, np.int64),
                   line=np.ones(n, np.int64) if line is None else np.asarray(line, np.int64),
                   forced=forced, forced_lines=tuple(forced_lines), n_tokens=n)


def token_stats(source: str, *, name: str = "<cell>", model=None, n_threads=None) -> FileTokens:
    """One accept-everything, full-depth check of `source` (see module docstring)."""
    from ..core.check import check
    from .line_scores import judged_tokens
    r = check(source, model=model, n_threads=n_threads, exit_policy=None,
              lenient_tokens=ALL_TOKENS, lenient_floor=0.0)
    toks = judged_tokens(r)
    forced_lines = sorted({e.line for e in r.edits})
    return FileTokens(name=name, index=np.array([t.index for t in toks], np.int64),
                      prob=np.array([t.prob for t in toks], float),
                      rank=np.array([t.rank for t in toks], np.int64),
                      line=np.array([t.line for t in toks], np.int64),
                      forced=bool(r.edits) or any(t.decision not in ("accept", "masked") for t in r.tokens),
                      forced_lines=tuple(forced_lines), n_tokens=r.stats["tokens"], time_s=r.stats["time_s"])


# -- the acceptance rule, offline --------------------------------------------------------------------

@dataclass(frozen=True)
class Rule:
    accept_prob: float | None
    accept_rank: int | None
    lenient_floor: float
    lenient_tokens: int = LENIENT_TOKENS

    def options(self) -> dict:
        return {"accept_prob": self.accept_prob, "accept_rank": self.accept_rank,
                "lenient_floor": self.lenient_floor, "lenient_tokens": self.lenient_tokens,
                "accept_combine": "any"}


def rejected(ft: FileTokens, rule: Rule) -> np.ndarray:
    """Per judged token: would `rule` reject it? (decoding.acceptance.AcceptanceRule, "any")"""
    early = ft.index < rule.lenient_tokens
    rej_early = early & (ft.prob < rule.lenient_floor)
    ok = np.zeros(ft.prob.shape, bool)
    if rule.accept_prob is not None:
        ok |= ft.prob >= rule.accept_prob
    if rule.accept_rank is not None:
        ok |= ft.rank <= rule.accept_rank
    return rej_early | (~early & ~ok)


def flagged(ft: FileTokens, rule: Rule) -> bool:
    return ft.forced or bool(rejected(ft, rule).any())


def line_hit(ft: FileTokens, rule: Rule, lines: set[int]) -> bool:
    """Does `rule` reject a token (or an unavoidable edit happen) on one of `lines`?"""
    if any(ln in lines for ln in ft.forced_lines):
        return True
    rej = rejected(ft, rule)
    return bool(np.isin(ft.line[rej], list(lines)).any()) if lines else False


def grid(probs=PROB_GRID, ranks=RANK_GRID, floors=FLOOR_GRID) -> list[Rule]:
    return [Rule(p, r, f) for p, r, f in product(probs, ranks, floors) if not (p is None and r is None)]


@dataclass
class Choice:
    rule: Rule
    false_alarm: float
    buggy_line_hit: float | None
    token_rejection: float
    objective: str
    table: list = field(default_factory=list)     # (rule, false_alarm, hit, token_rejection) per rule


def select(clean: Sequence[FileTokens], target: float, *, buggy: Sequence[tuple[FileTokens, set]] = (),
           rules: Iterable[Rule] | None = None) -> Choice:
    """The rule meeting `target` (share of clean files flagged) that finds the most buggy lines
    (or, without buggy files, that is strictest). Ties: lower false-alarm rate, then grid order."""
    if not clean:
        raise ValueError("calibration needs at least one clean file")
    if not 0.0 <= target <= 1.0:
        raise ValueError(f"target false-alarm rate must be in [0, 1], got {target}")
    rules = list(rules) if rules is not None else grid()
    n_tok = sum(ft.prob.size for ft in clean) or 1
    table = []
    for rule in rules:
        fa = sum(flagged(ft, rule) for ft in clean) / len(clean)
        rej = sum(int(rejected(ft, rule).sum()) for ft in clean) / n_tok
        hit = (sum(line_hit(ft, rule, lines) for ft, lines in buggy) / len(buggy)) if buggy else None
        table.append((rule, fa, hit, rej))
    feasible = [(k, row) for k, row in enumerate(table) if row[1] <= target + 1e-12]
    if not feasible:
        floor = min(row[1] for row in table)
        raise ValueError(f"no rule reaches a false-alarm rate of {target:.1%} on these files (the most "
                         f"lenient rule flags {floor:.1%}: edits no threshold prevents); raise the target")
    if buggy:
        objective = "most buggy files with a rejected token on a changed line, false-alarm rate <= target"
        k, best = min(feasible, key=lambda kr: (-kr[1][2], kr[1][1], kr[0]))
    else:
        objective = "strictest rule (most judged tokens rejected), false-alarm rate <= target"
        k, best = min(feasible, key=lambda kr: (-kr[1][3], kr[1][1], kr[0]))
    rule, fa, hit, rej = best
    return Choice(rule, fa, hit, rej, objective, table)


# -- inputs -----------------------------------------------------------------------------------------

def collect_sources(paths: Sequence[str]) -> list[tuple[str, str]]:
    """(name, source) of every .py file and every Python code cell under `paths`, found and read
    as the views read them (pytext/sources.py: cells named `path:cell_N`, N their index in the
    notebook). A file that cannot be read is passed over."""
    out = []
    for path in find_files(paths):
        try:
            units = read_units(path)
        except SourceError:
            continue
        out.extend((unit.name, unit.source) for unit in units)
    return out


def changed_lines(buggy: str, fixed: str) -> set[int]:
    """1-based lines of `buggy` that differ from `fixed` (an insertion marks the lines around it)."""
    a = [ln.rstrip() for ln in buggy.split("\n")]
    b = [ln.rstrip() for ln in fixed.split("\n")]
    out: set[int] = set()
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            out.update(range(i1 + 1, i2 + 1))
        elif tag == "insert":
            out.update(ln for ln in (i1, i1 + 1) if 1 <= ln <= len(a))
    return out


# -- the command ----------------------------------------------------------------------------------

# bump when what a full-depth, accept-everything check reports changes (acceptance, healing,
# masking, the engine's numbers): cached statistics of older versions are then not used
STATS_VERSION = "1"


def stats_key(src: str, model_sha: str) -> str:
    return hashlib.sha256("\0".join([SCHEMA, STATS_VERSION, model_sha, src]).encode()).hexdigest()


def cached_token_stats(cache_dir, model_sha: str, *, model=None, n_threads=None):
    """token_stats with results kept on disk, keyed by source, model hash and STATS_VERSION: a
    second calibration (another target, more files) only runs the new files."""
    cache = Path(cache_dir)

    def stats(src: str, name: str) -> FileTokens:
        key = stats_key(src, model_sha)
        f = cache / key[:2] / f"{key}.json"
        if f.is_file():
            return _stats_from_dict(json.loads(f.read_text()), name)
        ft = token_stats(src, name=name, model=model, n_threads=n_threads)
        f.parent.mkdir(parents=True, exist_ok=True)
        tmp = f.with_suffix(".tmp")
        tmp.write_text(json.dumps(_stats_to_dict(ft)))
        tmp.replace(f)
        return ft
    return stats


def _stats_to_dict(ft: FileTokens) -> dict:
    return {"index": ft.index.tolist(), "prob": ft.prob.tolist(), "rank": ft.rank.tolist(),
            "line": ft.line.tolist(), "forced": ft.forced, "forced_lines": list(ft.forced_lines),
            "n_tokens": ft.n_tokens}


def _stats_from_dict(d: dict, name: str) -> FileTokens:
    return FileTokens(name=name, index=np.array(d["index"], np.int64), prob=np.array(d["prob"], float),
                      rank=np.array(d["rank"], np.int64), line=np.array(d["line"], np.int64),
                      forced=d["forced"], forced_lines=tuple(d["forced_lines"]), n_tokens=d["n_tokens"],
                      time_s=0.0)


def checker_fingerprint() -> str:
    """Hash of the code that decides token probabilities and decisions (recorded with results)."""
    pkg = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    # every module below core/ (facts/ too) and the shipped margins decide findings
    for f in sorted([*(pkg / "core").rglob("*.py"), *(pkg / "core").rglob("*.json"),
                     *(pkg / "decoding").rglob("*.py"), *(pkg / "engine").rglob("*.py")]):
        if f.is_file():
            h.update(str(f.relative_to(pkg)).encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def calibrate(sources: Sequence[tuple[str, str]], *, target: float, model=None, pairs=(), n_threads=None,
              progress=None, cache_dir=None, note: str = "") -> tuple[Calibration, Choice]:
    """Runs the accept-all checks and the grid search; returns the calibration and the choice."""
    from ..engine.paths import resolve_model_path
    ident = model_identity(resolve_model_path(model))
    if cache_dir:
        stats_fn = cached_token_stats(cache_dir, ident["sha256"], model=model, n_threads=n_threads)
    else:
        def stats_fn(src, name):
            return token_stats(src, name=name, model=model, n_threads=n_threads)
    clean, tokens, t0 = [], 0, time.perf_counter()
    total = len(sources) + len(pairs)
    for k, (name, src) in enumerate(sources):
        ft = stats_fn(src, name)
        clean.append(ft)
        tokens += ft.n_tokens if ft.time_s else 0      # the rate counts what was computed now
        if progress:
            progress(k + 1, total, name, tokens, time.perf_counter() - t0)
    buggy = []
    for k, pair in enumerate(pairs):
        lines = changed_lines(pair["buggy"], pair["fixed"])
        if not lines:
            continue
        name = str(pair.get("id", f"pair {k}"))
        buggy.append((stats_fn(pair["buggy"], name + ":buggy"), lines))
        if progress:
            progress(len(sources) + k + 1, total, name, tokens, time.perf_counter() - t0)
    choice = select(clean, target, buggy=buggy)
    cal = Calibration(model=ident, options=choice.rule.options(), target_false_alarm=target,
                      achieved_false_alarm=round(choice.false_alarm, 6),
                      buggy_line_hit=None if choice.buggy_line_hit is None else round(choice.buggy_line_hit, 6),
                      objective=choice.objective,
                      calibration_set={"files": len(clean), "tokens": int(sum(ft.prob.size for ft in clean)),
                                       "pairs": len(buggy), "sources": sorted({_root(n) for n, _ in sources})[:20],
                                       "note": note},
                      created=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat())
    return cal, choice


def _root(name: str) -> str:
    return str(Path(name.split(":cell_")[0]).parent)


def _progress(k, total, name, tokens, elapsed):
    rate = tokens / elapsed if elapsed > 0 else 0.0
    line = f"[{k}/{total}] {rate:.0f} tok/s  {Path(name).name[:50]}"
    if sys.stderr.isatty():
        print(f"\r{line:<80}", end="", file=sys.stderr, flush=True)
    elif k % 10 == 0 or k == total:
        print(line, file=sys.stderr, flush=True)


# -- the evidence margin ---------------------------------------------------------------------------

@dataclass
class MarginChoice:
    margin: float
    achieved_false_alarm: float        # share of the clean files flagged at `margin`
    files: int
    files_with_errors: int             # flagged whatever the margin (syntax errors, undefined names)


def file_gain(result) -> float:
    """A clean file's flag point: +inf with an error, else its best weighed gain (-inf: none)."""
    if any(f.severity == "error" for f in result.findings):
        return float("inf")
    return max((e.gain for e in result.evidence if e.supported), default=float("-inf"))


def choose_margin(results, target: float, step: float = 0.05) -> MarginChoice:
    """The smallest margin (a multiple of `step` nats, >= 0) at which at most `target` of the
    clean files' checks (run with margin 0) would have a finding."""
    gains = sorted((file_gain(r) for r in results), reverse=True)
    n = len(gains)
    if not n:
        raise ValueError("no clean files to choose a margin on")
    errors = sum(g == float("inf") for g in gains)
    allowed = int(target * n + 1e-9)
    if errors > allowed:
        raise ValueError(f"{errors} of {n} clean files have errors (syntax, undefined names): no margin "
                         f"meets {target:.1%}; check the files, or give their earlier cells as context")
    above = gains[allowed] if allowed < n else float("-inf")     # the first file that must stay quiet
    margin = max(0.0, (int(above / step) + 1) * step) if above > float("-inf") else 0.0
    flagged = sum(g >= margin for g in gains)
    return MarginChoice(round(margin, 4), flagged / n, n, errors)


def calibrate_margin(sources, target: float, model=None, n_threads=None, progress=None) -> MarginChoice:
    from ..core.check import check
    results, tokens, t0 = [], 0, time.perf_counter()
    for k, (name, src) in enumerate(sources):
        results.append(check(src, model=model, margin=0.0, n_threads=n_threads))
        tokens += results[-1].stats.get("tokens", 0)
        if progress:
            progress(k + 1, len(sources), name, tokens, time.perf_counter() - t0)
    return choose_margin(results, target)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="jupyter-codecheck calibrate",
        description="Choose acceptance thresholds for a model so that at most a target share of "
                    "clean files get a finding; writes a calibration JSON the checker can load.")
    ap.add_argument("paths", nargs="+", help="clean .py / .ipynb files or directories (code you trust)")
    ap.add_argument("--model", default=None, help="GGUF file (default: the default model)")
    ap.add_argument("--target-false-alarm", type=float, default=0.15,
                    help="largest share of clean files allowed a finding (default 0.15)")
    ap.add_argument("--pairs", default=None,
                    help="optional JSONL of {buggy, fixed} pairs: among rules meeting the target, "
                         "prefer the one that finds the most changed lines")
    ap.add_argument("--limit", type=int, default=0, help="use at most N clean sources (0: all)")
    ap.add_argument("--out", default=None, help="output JSON (default: <model stem>.calibration.json)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--note", default="", help="what the calibration files are (stored in the JSON)")
    ap.add_argument("--margin", action="store_true",
                    help="also choose the evidence margin a model warning needs (checks each clean file once)")
    ap.add_argument("--cache", default=None,
                    help="directory keeping each file's model statistics, so a re-run with another "
                         "target or more files only checks what is new")
    args = ap.parse_args(argv)
    try:
        if not 0.0 <= args.target_false_alarm <= 1.0:
            ap.error("--target-false-alarm must be between 0 and 1")
        sources = collect_sources(args.paths)
        if args.limit:
            sources = sources[:args.limit]
        if not sources:
            print("error: no .py files or notebook code cells found in the given paths", file=sys.stderr)
            return 2
        pairs = []
        if args.pairs:
            with open(args.pairs, encoding="utf-8") as f:
                pairs = [json.loads(line) for line in f if line.strip()]
        from ..engine.paths import resolve_model_path
        model_path = resolve_model_path(args.model)
        out = Path(args.out) if args.out else Path(model_path.stem + ".calibration.json")
        cal, _ = calibrate(sources, target=args.target_false_alarm, model=args.model, pairs=pairs,
                                n_threads=args.threads, progress=_progress,
                                cache_dir=args.cache, note=args.note)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        if args.margin:
            m = calibrate_margin(sources, args.target_false_alarm, model=args.model,
                                 n_threads=args.threads, progress=_progress)
            cal.margin = m.margin
            cal.margin_note = (f"{m.achieved_false_alarm:.1%} of {m.files} clean files flagged at this margin "
                               f"({m.files_with_errors} with errors)")
            if sys.stderr.isatty():
                print(file=sys.stderr)
        cal.save(out)
    except (FileNotFoundError, ValueError, OSError) as e:
        print(f"\nerror: {e}", file=sys.stderr)
        return 2
    o = cal.options
    print(f"{cal.model['file']}: accept_prob={o['accept_prob']} accept_rank={o['accept_rank']} "
          f"lenient_floor={o['lenient_floor']}: {cal.achieved_false_alarm:.1%} of "
          f"{cal.calibration_set['files']} clean files flagged (target {cal.target_false_alarm:.0%})"
          + (f", changed line hit in {cal.buggy_line_hit:.1%} of {cal.calibration_set['pairs']} buggy files"
             if cal.buggy_line_hit is not None else ""))
    if cal.margin is not None:
        print(f"evidence margin {cal.margin} nats: {cal.margin_note}")
    print(f"wrote {out}")
    return 0


__all__ = ["SCHEMA", "FileTokens", "Rule", "Choice", "Calibration", "CalibrationError", "token_stats",
           "rejected", "flagged", "select", "grid", "load", "default_for", "default_options", "model_identity",
           "collect_sources", "changed_lines", "calibrate", "cached_token_stats", "checker_fingerprint",
           "MarginChoice", "choose_margin", "calibrate_margin", "file_gain", "shipped_margin", "main"]


if __name__ == "__main__":
    sys.exit(main())
