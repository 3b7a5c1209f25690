"""When a test fails: our repair of the failure beside the same model asked to rewrite the code,
on HumanEvalFix, with the pair's tests as the truth.

    python bench/failure_humanevalfix.py [--data FILE] [--model smollm2-135m] [--limit N]
        [--start N] [--threads 2] [--timeout 10] [--max-tokens 512] [--out DIR]

Per pair, in one run on the same GGUF and thread count:
  failure  the buggy code (compiled as the cell, its text in `linecache` as IPython keeps a
           cell's) and its test (`check(entry_point)`) run in a fresh Python with a timeout; the
           traceback's text is the failure. A pair whose buggy code passes, times out or takes the
           interpreter down is counted apart and not repaired.
  ours     `repair_failure(buggy, traceback_text, model=..., threads=...)`, timed from the call
           (the model loaded and warmed before) to its result; its top repair is plausible when
           the repaired code passes every test; also whether one of its first three candidates
           does, and at which rank the first passing candidate is.
  rewrite  what `/fix` does with a hosted model: llama-cpp-python's `create_chat_completion` on
           the same GGUF file and threads, greedy (temperature 0), asked to fix the code given
           the same traceback; the first fenced code block of its answer (else the whole answer),
           stopped when that block closes, with the buggy file's import lines it left out put
           back; timed from the request to the block's end.
Each candidate runs the tests in a fresh Python (--timeout s). Where ours lost a pair is read
from its stages: no line written again, the lines written again (the traceback's or, with no
frame in the cell, the least likely read from both sides) miss the changed lines, no candidate written
passes (generation or re-check), a passing candidate ranked below the top (ranking).
Writes report.md, rows.jsonl, command.txt and output.txt (the figures' JSON line) into --out;
the last line printed is the same JSON object.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from harness import BENCH, load_jsonl  # noqa: E402
from requirements import require  # noqa: E402

# the names the cell and the test are compiled under: a traceback's frame in CELL_FILE is a line
# of the cell (failure.py places it by the text linecache holds under that name)
CELL_FILE = "<cell>"
TEST_FILE = "<test>"
# run in a fresh Python: the job (code, test) on stdin; the outcome as JSON on stdout, the code's
# own prints sent to stderr so they cannot mix with it
RUNNER = r"""
import json, linecache, sys, traceback
job = json.load(sys.stdin)
out, sys.stdout = sys.stdout, sys.stderr
for name, text in ((job["cell_file"], job["code"]), (job["test_file"], job["test"])):
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
ns = {"__name__": "__main__"}
try:
    exec(compile(job["code"], job["cell_file"], "exec"), ns)
    exec(compile(job["test"], job["test_file"], "exec"), ns)
except BaseException as e:
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__.tb_next))    # not this runner's frame
    out.write(json.dumps({"outcome": "fails", "error": type(e).__name__, "traceback": text}))
    out.flush()
    sys.exit(1)
out.write(json.dumps({"outcome": "passes"}))
"""
INSTRUCTION = ("Fix the bugs in `{name}`. Running its tests fails with this traceback:\n\n```\n{traceback}```\n\n"
               "Answer with the whole corrected code in one Python code block.\n\n```python\n{code}```")
_FENCE = re.compile(r"```[ \t]*(?:python3?|py)?[ \t]*\n(.*?)```", re.S)
_IMPORT = re.compile(r"^(?:import|from)\s+\S+")
LINES_WRITTEN = 3            # places the model writes again (repair_failure's default `lines`)
TRACEBACK_CHARS = 4000       # of a traceback, what the rewrite's prompt quotes (the end: the error)


def run_tests(code: str, test: str, timeout: float) -> dict:
    """The outcome of `code` followed by its test in a fresh Python: {"outcome": "passes" |
    "fails" | "timeout" | "crash", "error", "traceback"}."""
    job = json.dumps({"code": code, "test": test, "cell_file": CELL_FILE, "test_file": TEST_FILE})
    try:
        run = subprocess.run([sys.executable, "-c", RUNNER], input=job, capture_output=True, text=True,
                             timeout=timeout, env={**os.environ, "PYTHONHASHSEED": "0"})
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout"}
    try:
        got = json.loads(run.stdout)
    except json.JSONDecodeError:
        return {"outcome": "crash", "returncode": run.returncode, "stderr": run.stderr[-500:]}
    if got["outcome"] == "passes" and run.returncode != 0:
        return {"outcome": "crash", "returncode": run.returncode, "stderr": run.stderr[-500:]}
    return got


def passes(code: str, test: str, timeout: float) -> bool:
    return run_tests(code, test, timeout)["outcome"] == "passes"


def changed_lines(buggy: str, fixed: str) -> list[int]:
    """1-based lines of `buggy` the fix replaces or deletes (an insertion: the line after it)."""
    out: set[int] = set()
    a, b = buggy.split("\n"), fixed.split("\n")
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            out.update(range(i1 + 1, i2 + 1))
        elif tag == "insert":
            out.add(min(i1 + 1, len(a)))
    return sorted(out)


def code_of(answer: str, buggy: str) -> str:
    """The answer's first fenced code block (else all of it), with the buggy file's import lines
    it lacks put back (a rewrite of the function alone is not a failure of the rewrite)."""
    m = _FENCE.search(answer)
    code = m.group(1) if m else answer
    have = {ln.strip() for ln in code.split("\n")}
    imports = [ln for ln in buggy.split("\n") if _IMPORT.match(ln) and ln.strip() not in have]
    return "\n".join(imports + [code]) if imports else code


def register_cell(code: str) -> None:
    """Keep the cell's text in `linecache` under CELL_FILE, as IPython keeps a cell's: the
    traceback's frames in CELL_FILE are then lines of the cell."""
    import linecache
    linecache.cache[CELL_FILE] = (len(code), None, code.splitlines(True), CELL_FILE)


class Rewriter:
    """The GGUF asked through its chat template to rewrite the code (llama-cpp-python's
    create_chat_completion, greedy), streamed until the code block closes."""

    def __init__(self, path: Path, threads: int, max_tokens: int):
        import llama_cpp.llama as high
        from llama_cpp import Llama

        from jupyter_codecheck.engine.llamacpp import model_params
        # Llama() takes no use_extra_bufts: it starts from the engine's parameters (the AMX
        # buffer type segfaults on these Xeons, llama.cpp #20824)
        defaults = high.llama_cpp.llama_model_default_params
        high.llama_cpp.llama_model_default_params = model_params
        try:
            self.llm = Llama(model_path=str(path), n_threads=threads, n_threads_batch=threads, n_ctx=4096,
                             n_batch=512, verbose=False)
        finally:
            high.llama_cpp.llama_model_default_params = defaults
        self.max_tokens = max_tokens

    def prompt(self, code: str, name: str, traceback: str) -> str:
        return INSTRUCTION.format(name=name, traceback=traceback[-TRACEBACK_CHARS:], code=code)

    def rewrite(self, code: str, name: str, traceback: str) -> tuple[str, int]:
        """(the answer, its tokens)."""
        text, n = "", 0
        stream = self.llm.create_chat_completion(
            messages=[{"role": "user", "content": self.prompt(code, name, traceback)}],
            temperature=0.0, top_k=1, repeat_penalty=1.0, max_tokens=self.max_tokens, stream=True)
        for chunk in stream:
            piece = chunk["choices"][0]["delta"].get("content") or ""
            text += piece
            n += bool(piece)
            if text.count("```") >= 2 and _FENCE.search(text):
                break                                   # the code block is closed: the rest is prose
        stream.close()
        self.llm.reset()
        return text, n

    def close(self) -> None:
        self.llm.close()


def stage_lost(rec: dict) -> str | None:
    """Where our repair lost a pair (None: its top repair passes)."""
    if rec["ours_passes"]:
        return None
    written = [line for _, line in rec["stats"].get("written", [])] if "stats" in rec else \
        rec["place_lines"][:rec["lines_written"]]
    if not written:
        return "cause line: no line written again"
    if not set(written) & set(rec["changed_lines"]):
        return "cause line: the lines written again miss the changed lines"
    if rec["first_passing"] is not None:
        return "ranking"
    if not rec["candidates"]:
        return "candidates: none kept" + (f" ({rec['refused']} refused)" if rec["refused"] else "")
    return "candidates: none passes"


def ours(buggy: str, failure, test: str, changed: list[int], path: Path, args) -> dict:
    """`repair_failure` on the failure, timed; its candidates run against the tests."""
    from jupyter_codecheck.failure import cause_lines, repair_failure
    t0 = time.perf_counter()
    fix = repair_failure(buggy, failure, model=path, threads=args.threads, lines=LINES_WRITTEN)
    rec = {"ours_s": round(time.perf_counter() - t0, 3)}
    places = cause_lines([buggy], fix.failure)
    rec["places"] = len(places)
    rec["place_lines"] = [p.line for p in places]
    rec["lines_written"] = LINES_WRITTEN
    rec["changed_lines"] = changed
    rec["cause"] = fix.cause_text
    rec["refused"] = fix.refused
    rec["stats"] = fix.stats
    rec["repaired"] = fix.repair is not None
    rec["repair"] = fix.repair.to_dict() if fix.repair else None
    if rec["repair"]:
        rec["repair"].pop("source", None)
    ranks = [passes(c.source, test, args.timeout) for c in fix.candidates]
    rec["candidates"] = [{"line": c.line, "origin": c.origin, "new_line": c.new_line,
                          "gain": None if c.gain != c.gain else round(c.gain, 3),
                          "verified": c.verified, "passes": ok} for c, ok in zip(fix.candidates, ranks)]
    rec["ours_passes"] = bool(ranks[:1] and ranks[0])
    rec["ours_top3_passes"] = any(ranks[:3])
    rec["first_passing"] = ranks.index(True) if any(ranks) else None
    rec["lost"] = stage_lost(rec)
    return rec


def median(xs):
    return round(statistics.median(xs), 3) if xs else None


def summarise(recs: list[dict], apart: dict, meta: dict) -> dict:
    done = [r for r in recs if r["status"] == "fails"]
    n = len(done)

    def share(key):
        had = [r for r in done if key in r]          # --no-rewrite: no rewrite_passes
        return round(sum(bool(r[key]) for r in had) / len(had), 4) if had else None

    ours, ours3, rew = share("ours_passes"), share("ours_top3_passes"), share("rewrite_passes")
    ours_t = [r["ours_s"] for r in done]
    rew_t = [r["rewrite_s"] for r in done if "rewrite_s" in r]
    lost: dict[str, int] = {}
    for r in done:
        if r["lost"]:
            lost[r["lost"]] = lost.get(r["lost"], 0) + 1
    told = [r["oracle"] for r in done if "oracle" in r]
    oracle = None
    if told:
        oracle_lost: dict[str, int] = {}
        for o in told:
            if o["lost"]:
                oracle_lost[o["lost"]] = oracle_lost.get(o["lost"], 0) + 1
        oracle = {"pairs": len(told),
                  "plausible": round(sum(o["ours_passes"] for o in told) / len(told), 4),
                  "top3_plausible": round(sum(o["ours_top3_passes"] for o in told) / len(told), 4),
                  "with_repair": round(sum(o["repaired"] for o in told) / len(told), 4),
                  "median_s": median([o["ours_s"] for o in told]),
                  "lost": dict(sorted(oracle_lost.items(), key=lambda kv: -kv[1]))}
        rew_share = share("rewrite_passes")
        oracle["ratio_plausible"] = round(oracle["plausible"] / rew_share, 3) if rew_share else None
        oracle["ratio_time_median"] = round(oracle["median_s"] / median(rew_t), 3) if rew_t and median(rew_t) else None
    return {**meta, "pairs": n, "apart": apart,
            "ours": {"plausible": ours, "top3_plausible": ours3, "median_s": median(ours_t),
                     "total_s": round(sum(ours_t), 1),
                     "with_cause_line": share("places"), "with_repair": share("repaired")},
            "rewrite": {"plausible": rew, "median_s": median(rew_t), "total_s": round(sum(rew_t), 1)},
            "ratio_plausible": round(ours / rew, 3) if ours is not None and rew else None,
            "ratio_time_median": round(median(ours_t) / median(rew_t), 3) if ours_t and rew_t and median(rew_t) else None,
            "ratio_time_total": round(sum(ours_t) / sum(rew_t), 3) if ours_t and rew_t and sum(rew_t) else None,
            "targets": {"ratio_plausible": 1.3, "ratio_time": round(1 / 3, 3)},
            "ours_lost": dict(sorted(lost.items(), key=lambda kv: -kv[1])),
            "ours_given_changed_line": oracle,
            "load": {"start": meta.get("load_start"), "end": round(os.getloadavg()[0], 2),
                     "median": median([r["load"] for r in done])}}


def yes(x) -> str:
    return "–" if x is None else "yes" if x else "no"


def shown_repair(rec: dict) -> str:
    rep = rec.get("repair")
    if not rep:
        return "–"
    return f"{rep['line']}: `{rep['new_line'].strip()[:60]}`".replace("|", "\\|")


def report_md(summary: dict, recs: list[dict], command: str) -> str:
    o, w = summary["ours"], summary["rewrite"]

    def pc(x):
        return "–" if x is None else f"{100 * x:.1f} %"

    lines = [f"# HumanEvalFix: repairing the failing test's traceback ({summary['model']})", "",
             f"Command: `{command}`", "",
             f"{summary['pairs']} pairs whose buggy code fails its tests (apart: "
             + ", ".join(f"{v} {k}" for k, v in summary["apart"].items()) + f"); {summary['threads']} threads; "
             f"load (1-min average) {summary['load']['start'] or '–'} at the start, {summary['load']['end'] or '–'} at the end, "
             f"median {summary['load']['median']} over the pairs. Ours and the rewrite run one after the other on each "
             "pair, under the same load.", "",
             "| | plausible (all tests pass) | median time | total time |", "|---|---|---|---|",
             f"| ours: `repair_failure`, top repair | {pc(o['plausible'])} | {o['median_s']} s | {o['total_s']} s |",
             f"| ours: one of the first three candidates | {pc(o['top3_plausible'])} | | |",
             f"| rewrite: `create_chat_completion`, greedy | {pc(w['plausible'])} | {w['median_s']} s | {w['total_s']} s |",
             "",
             f"Ratio of plausible shares ours/rewrite: {summary['ratio_plausible']} (target ≥ 1.3); time, medians: "
             f"{summary['ratio_time_median']}, totals: {summary['ratio_time_total']} (target ≤ {summary['targets']['ratio_time']}).",
             f"Ours found a cause line in the cell for {pc(o['with_cause_line'])} of the pairs and offered a repair for "
             f"{pc(o['with_repair'])}.", "",
             "## Where ours lost", "", "| stage | pairs |", "|---|---|",
             *[f"| {k} | {v} |" for k, v in summary["ours_lost"].items()], ""]
    g = summary["ours_given_changed_line"]
    if g:
        lines += ["## Ours given the changed line (the cause stage taken as solved: a bound, not a result)", "",
                  f"The failure given with one more frame, at the first line the fix changes, as if it had been raised "
                  f"there: the top repair passes for {pc(g['plausible'])} of {g['pairs']} pairs, one of the first three "
                  f"candidates for {pc(g['top3_plausible'])}; a repair offered for {pc(g['with_repair'])}; median "
                  f"{g['median_s']} s. Against the rewrite: plausible shares {g['ratio_plausible']}, median times "
                  f"{g['ratio_time_median']}.", "", "| stage | pairs |", "|---|---|",
                  *[f"| {k} | {v} |" for k, v in g["lost"].items()], ""]
    lines += [
             "## Pairs", "",
             "Cause line: ours's first place (the lines the fix changes); given: ours with the changed line as the "
             "raising frame, its top repair.", "",
             "| id | error | cause line (changed) | ours: repair | ours | top-3 | given: repair | given | rewrite | "
             "ours s | given s | rewrite s | lost |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in recs:
        if r["status"] != "fails":
            lines.append(f"| {r['id']} | {r['status']} | | | | | | | | | | | |")
            continue
        o = r.get("oracle") or {}
        cause = f"{r['place_lines'][0] if r['place_lines'] else '–'} ({','.join(map(str, r['changed_lines']))})"
        lines.append(f"| {r['id']} | {r['error']} | {cause} | {shown_repair(r)} | {yes(r['ours_passes'])} | "
                     f"{yes(r['ours_top3_passes'])} | {shown_repair(o)} | {yes(o.get('ours_passes'))} | "
                     f"{yes(r.get('rewrite_passes'))} | {r['ours_s']} | {o.get('ours_s', '–')} | "
                     f"{r.get('rewrite_s', '–')} | {r['lost'] or ''} |")
    return "\n".join(lines) + "\n"


def summarise_rows(rows_path: Path, args, argv) -> None:
    """The report of the rows a run wrote (a run stopped before its end: the pairs it did)."""
    from jupyter_codecheck.engine.paths import resolve_model_path
    recs = load_jsonl(rows_path, 0)
    out_dir = Path(args.out) if args.out else rows_path.parent
    ran = (rows_path.parent / "command.txt").read_text().strip() if (rows_path.parent / "command.txt").is_file() else "?"
    summarised = "python " + " ".join(shlex.quote(a) for a in ["bench/failure_humanevalfix.py",
                                                                *(sys.argv[1:] if argv is None else argv)])
    apart = {"passes": 0, "timeout": 0, "crash": 0}
    for r in recs:
        if r["status"] != "fails":
            apart[r["status"]] += 1
    # the run's own figures where it ended and wrote them: its load and seconds (else unknown)
    told = out_dir / "output.txt"
    run = json.loads(told.read_text().strip().splitlines()[-1]) if told.is_file() else {}
    summary = summarise(recs, apart, {"model": resolve_model_path(args.model).name, "threads": args.threads,
                                      "load_start": run.get("load_start"), "seconds": run.get("seconds"),
                                      "rows": len(recs)})
    summary["load"]["end"] = run.get("load", {}).get("end")
    (out_dir / "report.md").write_text(report_md(summary, recs, f"{ran}` (its first {len(recs)} pairs; figures by `{summarised}"))
    (out_dir / "output.txt").write_text(json.dumps(summary) + "\n")
    print(json.dumps(summary))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(BENCH / "humanevalfix.jsonl"), help="humanevalfix.jsonl")
    ap.add_argument("--model", default="smollm2-135m", help="known name or GGUF path")
    ap.add_argument("--limit", type=int, default=0, help="first N pairs (after --start)")
    ap.add_argument("--start", type=int, default=0, help="skip the first N pairs")
    ap.add_argument("--ids", default=None, help="only these pairs, comma-separated (Python/25,Python/47)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds a test run may take")
    ap.add_argument("--max-tokens", type=int, default=512, help="of the rewrite's answer")
    ap.add_argument("--no-rewrite", action="store_true", help="ours alone")
    ap.add_argument("--no-oracle", action="store_true",
                    help="skip ours given the first changed line as the raising frame (the repair stage's bound)")
    ap.add_argument("--out", default=None, help="folder for report.md, rows.jsonl and command.txt "
                                                "(default bench/reports/failure-humanevalfix-<model>/)")
    ap.add_argument("--rows", default=None,
                    help="instead: the figures of a run's rows.jsonl (one stopped before its end too), "
                         "written beside it (report.md, output.txt); --model and --threads name the run's")
    args = ap.parse_args(argv)
    if args.rows:
        return summarise_rows(Path(args.rows), args, argv)
    require("bench/failure_humanevalfix.py", packages=("llama_cpp", "numpy"), paths=[args.data])
    from jupyter_codecheck.engine.paths import resolve_model_path
    from jupyter_codecheck.failure import Failure, Frame, repair_failure

    rows = load_jsonl(Path(args.data), 0)
    if args.ids:
        wanted = set(args.ids.split(","))
        rows = [r for r in rows if r["id"] in wanted]
    rows = rows[args.start:]
    rows = rows[:args.limit] if args.limit else rows
    path = resolve_model_path(args.model)
    name = Path(args.model).name.lower()
    slug = re.sub(r"[^a-z0-9.]+", "-", name[:-len(".gguf")] if name.endswith(".gguf") else name).strip("-")
    out_dir = Path(args.out) if args.out else ROOT / "bench" / "reports" / f"failure-humanevalfix-{slug}"
    out_dir.mkdir(parents=True, exist_ok=True)
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/failure_humanevalfix.py",
                                                             *(sys.argv[1:] if argv is None else argv)])
    (out_dir / "command.txt").write_text(command + "\n")
    meta = {"model": path.name, "threads": args.threads, "load_start": round(os.getloadavg()[0], 2)}
    t_start = time.perf_counter()
    # warm both sides before timing: the model's load and first pass are no part of a repair
    register_cell("def f(x):\n    return x + y\n")
    repair_failure("def f(x):\n    return x + y\n", "Traceback (most recent call last):\n  File \"<cell>\", line 2, "
                   "in f\nNameError: name 'y' is not defined\n", model=path, threads=args.threads)
    rewriter = None if args.no_rewrite else Rewriter(path, args.threads, args.max_tokens)
    if rewriter is not None:
        rewriter.rewrite("def f(x):\n    return x + y\n", "f", "NameError: name 'y' is not defined\n")
    recs, apart = [], {"passes": 0, "timeout": 0, "crash": 0}
    with open(out_dir / "rows.jsonl", "w") as dump:
        try:
            for r in rows:
                buggy, test = r["buggy"], r["test"]
                rec = {"id": r["id"], "bug_type": r.get("bug_type"), "changed_lines": changed_lines(buggy, r["fixed"])}
                run = run_tests(buggy, test, args.timeout)
                rec["status"] = run["outcome"]
                if run["outcome"] != "fails":
                    apart[run["outcome"]] += 1
                    recs.append(rec)
                    dump.write(json.dumps(rec) + "\n")
                    print(f"{r['id']}: buggy code {run['outcome']}: apart", file=sys.stderr, flush=True)
                    continue
                text = run["traceback"]
                rec["error"], rec["traceback"] = run["error"], text
                rec["fixed_passes"] = passes(r["fixed"], test, args.timeout)
                rec["load"] = round(os.getloadavg()[0], 2)
                register_cell(buggy)
                failure = Failure.from_text(text, [buggy])
                rec.update(ours(buggy, failure, test, rec["changed_lines"], path, args))
                if not args.no_oracle:
                    # the cause stage taken as solved: a frame at the first changed line, as if the
                    # failure had been raised there (an upper bound of the repair stage, not a result)
                    told = Failure(failure.error, failure.message,
                                   [*failure.frames, Frame(0, rec["changed_lines"][0], r["entry_point"])], failure.text)
                    rec["oracle"] = ours(buggy, told, test, rec["changed_lines"], path, args)
                if rewriter is not None:
                    t0 = time.perf_counter()
                    answer, n_tokens = rewriter.rewrite(buggy, r["entry_point"], text)
                    rec["rewrite_s"] = round(time.perf_counter() - t0, 3)
                    rec["rewrite_tokens"] = n_tokens
                    rec["rewrite"] = answer
                    rec["rewrite_passes"] = passes(code_of(answer, buggy), test, args.timeout)
                recs.append(rec)
                dump.write(json.dumps(rec) + "\n")
                dump.flush()
                print(f"{r['id']}: {rec['error']}, ours {'passes' if rec['ours_passes'] else 'fails'} "
                      f"({rec['ours_s']} s; top-3 {'passes' if rec['ours_top3_passes'] else 'fails'}; "
                      f"{rec['lost'] or 'repaired'}), given the changed line "
                      f"{yes(rec['oracle']['ours_passes']) if 'oracle' in rec else '–'}, rewrite "
                      f"{'passes' if rec.get('rewrite_passes') else 'fails'} ({rec.get('rewrite_s', '–')} s); "
                      f"load {rec['load']}", file=sys.stderr, flush=True)
        finally:
            if rewriter is not None:
                rewriter.close()
    summary = summarise(recs, apart, {**meta, "seconds": round(time.perf_counter() - t_start, 1)})
    (out_dir / "report.md").write_text(report_md(summary, recs, command))
    (out_dir / "output.txt").write_text(json.dumps(summary) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
