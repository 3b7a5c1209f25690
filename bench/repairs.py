"""Repairs beside the model's own rewrite, on HumanEvalFix (its tests are in the data).

    python bench/repairs.py [--data DIR] [--model qwen2.5-coder-1.5b] [--limit N] [--threads 1]
        [--option repairs=lines ...] [--no-fixed] [--no-rewrite] [--out DIR]

For each buggy file, in one run on the same GGUF and threads:
  repairs  check() with the given options (default `repairs=lines`), the corrected code it
           proposes; timed from the call to the result (the model is loaded before)
  rewrite  llama.cpp asks the same GGUF to rewrite the function (its own chat template, greedy,
           at most --max-tokens), the first fenced code block of its answer (else all of it)
and each candidate runs the pair's tests in a fresh Python (`check(entry_point)`, --timeout s).
The rewrite sees what the checker sees: the buggy code and the function's name, no tests.
Figures: the share of buggy files whose fix passes the tests, each side's seconds; for the
repairs also top-3 (a changed line among the three highest-scored findings), the files with a
finding, the line repairs' seconds against the walk's, and (unless --no-fixed) the share of the
fixed files with a model warning. The last line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from check_options import parse_option  # noqa: E402
from requirements import require  # noqa: E402

INSTRUCTION = "Fix bugs in {name}. Answer with the whole corrected code in one Python code block.\n\n```python\n{code}```"
_FENCE = re.compile(r"```(?:python|py)?\n(.*?)```", re.S)


def passes(code: str, test: str, entry_point: str, timeout: float) -> bool:
    """Does `code` pass the pair's tests in a fresh Python?"""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "candidate.py"
        path.write_text(code + "\n\n" + test + "\n")
        try:
            run = subprocess.run([sys.executable, str(path)], cwd=d, capture_output=True, timeout=timeout,
                                 env={**os.environ, "PYTHONHASHSEED": "0"})
        except subprocess.TimeoutExpired:
            return False
    return run.returncode == 0


def code_of(answer: str) -> str:
    m = _FENCE.search(answer)
    return m.group(1) if m else answer


class Rewriter:
    """llama.cpp asking the GGUF to rewrite code: its chat template, greedy decoding."""

    def __init__(self, path: Path, threads: int, max_tokens: int):
        import llama_cpp as lc
        from jupyter_codecheck.engine import Model
        from jupyter_codecheck.engine.llamacpp import LlamaCppModel
        self.lc = lc
        self.model = Model(path)              # the tokenizer lives as long as its model
        self.tok = self.model.tokenizer
        self.ref = LlamaCppModel(path, n_threads=threads, n_ctx=4096, n_batch=512)
        self.max_tokens = max_tokens
        tmpl = lc.llama_model_chat_template(self.ref._model, None)
        if not tmpl:
            raise SystemExit(f"error: {path.name} has no chat template")
        self.template = tmpl

    def prompt(self, text: str) -> str:
        lc = self.lc
        msg = (lc.llama_chat_message * 1)()
        msg[0].role, msg[0].content = b"user", text.encode()
        size = 4 * len(text) + 1024
        buf = ctypes.create_string_buffer(size)
        n = lc.llama_chat_apply_template(self.template, msg, 1, True, buf, size)
        if n > size:
            buf = ctypes.create_string_buffer(n)
            n = lc.llama_chat_apply_template(self.template, msg, 1, True, buf, n)
        return buf.raw[:n].decode("utf-8")

    def rewrite(self, code: str, name: str) -> str:
        import numpy as np
        ids = self.tok.encode(self.prompt(INSTRUCTION.format(name=name, code=code)), parse_special=True).ids
        logits = self.ref.score(ids, all_logits=False)[0]
        pos, out = len(ids), []
        for _ in range(self.max_tokens):
            t = int(np.argmax(logits))
            if self.tok.is_eog(t):
                break
            out.append(t)
            if b"```" in b"".join(self.tok.piece(x) for x in out[-12:]) and \
                    b"".join(self.tok.piece(x) for x in out).count(b"```") >= 2:
                break                            # the code block is closed: the rest is prose
            logits = self.ref.decode_one(t, pos)
            pos += 1
        self.ref.clear()
        return b"".join(self.tok.piece(x) for x in out).decode("utf-8", "replace")

    def close(self) -> None:
        self.ref.close()


def calibrate(args) -> None:
    """The floor of a fill-in-the-middle repair's own gain that flags at most 5 % of correct
    files: DebugBench's calibration half (bench/quality.py's split), one fixed file per problem,
    read after the LeetCode prelude as bench/quality.py gives it. A file counts as flagged at a
    floor when a repair that passed the gates reaches it (an upper bound on the warnings)."""
    import math
    import quality
    from jupyter_codecheck import check
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.engine.paths import resolve_model_path
    data = Path(args.data) if args.data else ROOT.parent / "shared" / "benchmarks"
    require("bench/repairs.py --calibrate", paths=[data / "debugbench.jsonl"])
    rows = [json.loads(x) for x in open(data / "debugbench.jsonl", encoding="utf-8") if x.strip()]
    seen, files = set(), []
    for r in rows:
        slug = r["id"].split("/")[1] if "/" in r["id"] else r["id"]
        if quality.debugbench_split(r) == "calib" and slug not in seen:
            seen.add(slug)
            files.append((r["id"], r["fixed"]))
    files = files[:args.limit] if args.limit else files
    path = resolve_model_path(args.model)
    engine = load_model(path, args.threads)
    options = {"repairs": "lines", **dict(parse_option(o) for o in args.option)}
    best, t0 = [], time.perf_counter()
    out_dir = Path(args.out) if args.out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    dump = (out_dir / "rows.jsonl").open("w") if out_dir else None
    for fid, code in files:
        engine.forget()
        res = check(code, context=[quality.LEETCODE_PRELUDE], model=path, n_threads=args.threads, **options)
        gains = res.stats["verification"].get("repair_gains", [])
        best.append(gains[0][1] if gains else -math.inf)      # [line, gain, text], the best first
        print(json.dumps({"id": fid, "best_gain": best[-1]}), file=sys.stderr, flush=True)
        if dump:
            dump.write(json.dumps({"id": fid, "best_gain": best[-1], "gains": gains}) + "\n")
            dump.flush()
    if dump:
        dump.close()
    ranked = sorted(best, reverse=True)
    allowed = int(0.05 * len(ranked))
    floor = ranked[allowed] + 1e-3 if allowed < len(ranked) else -math.inf
    summary = {"model": path.name, "files": len(ranked), "threads": args.threads, "load": os.getloadavg()[0],
               "seconds": round(time.perf_counter() - t0, 1), "floor_at_5pct": round(floor, 3),
               "best_gains": [round(g, 3) if math.isfinite(g) else None for g in ranked]}
    line = f"the floor that flags at most 5% of {len(ranked)} correct files: {floor:.2f} nats"
    print(line)
    if out_dir:
        (out_dir / "output.txt").write_text(line + "\n" + json.dumps(summary) + "\n")
        (out_dir / "command.txt").write_text("python " + " ".join(shlex.quote(a) for a in ["bench/repairs.py", *sys.argv[1:]]) + "\n")
    print(json.dumps(summary))


def summarise(recs: list[dict], meta: dict) -> tuple[dict, list[str]]:
    """The figures of a run's rows (rows.jsonl), and the lines that say them."""
    n = len(recs) or 1

    def share(key):
        got = [x[key] for x in recs if key in x]
        return round(sum(got) / len(got), 4) if got else None

    def total(key):
        return round(sum(x.get(key, 0.0) for x in recs), 1)

    rewrite = any("rewrite_s" in x for x in recs)
    summary = {**meta, "pairs": len(recs),
               "repairs": {"passes": share("repair_passes"), "repaired": share("repaired"), "top3": share("top3"),
                           "with_finding": round(sum(bool(x["finding_lines"]) for x in recs) / n, 4),
                           "fixed_flagged": share("fixed_flagged"), "seconds": total("repair_s"),
                           "line_repair_s": total("line_repair_s"), "walk_s": total("walk_s")},
               "rewrite": {"passes": share("rewrite_passes"), "seconds": total("rewrite_s")} if rewrite else None}
    r = summary["repairs"]
    lines = [f"repairs ({' '.join(meta.get('options', []))}): {r['passes']:.1%} of {len(recs)} buggy files pass the "
             f"tests in {r['seconds']} s (line repairs {r['line_repair_s']} s, walk {r['walk_s']} s); top-3 "
             f"{r['top3']:.1%}; fixed files flagged {r['fixed_flagged']}"]
    if rewrite:
        lines.append(f"rewrite (llama.cpp, chat template, greedy): {summary['rewrite']['passes']:.1%} pass in "
                     f"{summary['rewrite']['seconds']} s")
    return summary, lines


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None, help="folder of humanevalfix.jsonl (default: ../shared/benchmarks)")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--limit", type=int, default=0, help="first N pairs (after --start)")
    ap.add_argument("--start", type=int, default=0, help="skip the first N pairs (a run in parts)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="a check() option, name=value "
                                                                  "(default: repairs=lines)")
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a test run may take")
    ap.add_argument("--no-fixed", action="store_true", help="skip checking the fixed files")
    ap.add_argument("--no-rewrite", action="store_true", help="skip the model's rewrite")
    ap.add_argument("--calibrate", action="store_true",
                    help="instead: the line repairs' own gains on the fixed files of DebugBench's "
                         "calibration half (one per problem) and the floor that flags at most 5%%")
    ap.add_argument("--rows", nargs="+", default=None,
                    help="instead: the figures of earlier runs' rows.jsonl files together (runs in "
                         "parts; a pair in several counts once, as its first file has it)")
    ap.add_argument("--out", default=None, help="folder for output.txt, rows.jsonl and command.txt")
    args = ap.parse_args(argv)
    if args.calibrate:
        return calibrate(args)
    if args.rows:
        recs = list({r["id"]: r for r in reversed([json.loads(x) for f in args.rows
                                                   for x in open(f, encoding="utf-8") if x.strip()])}.values())[::-1]
        summary, lines = summarise(recs, {"rows": args.rows})
        print("\n".join(lines))
        print(json.dumps(summary))
        return
    data = Path(args.data) if args.data else ROOT.parent / "shared" / "benchmarks"
    require("bench/repairs.py", packages=("llama_cpp", "numpy"), paths=[data / "humanevalfix.jsonl"])
    from check_options import parse_option
    from jupyter_codecheck import check
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.engine.paths import resolve_model_path
    from jupyter_codecheck.tools.calibrate import changed_lines

    options = dict(parse_option(o) for o in args.option or ["repairs=lines"])
    rows = [json.loads(x) for x in open(data / "humanevalfix.jsonl", encoding="utf-8") if x.strip()]
    rows = rows[args.start:]
    rows = rows[:args.limit] if args.limit else rows
    path = resolve_model_path(args.model)
    engine = load_model(path, args.threads)
    rewriter = None if args.no_rewrite else Rewriter(path, args.threads, args.max_tokens)
    out_dir = Path(args.out) if args.out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    dump = (out_dir / "rows.jsonl").open("w") if out_dir else None
    recs = []
    t_start = time.perf_counter()
    try:
        check("x = 1\n", model=path, n_threads=args.threads, **options)      # warm: loads, lens
        for r in rows:
            engine.forget()
            changed = set(changed_lines(r["buggy"], r["fixed"]))
            t0 = time.perf_counter()
            res = check(r["buggy"], model=path, n_threads=args.threads, **options)
            rec = {"id": r["id"], "repair_s": round(time.perf_counter() - t0, 3)}
            stats = res.stats
            lr = stats["verification"].get("line_repairs", {})
            rec["line_repair_s"] = round(lr.get("time_s", 0.0), 3)
            rec["walk_s"] = round(stats["time_s"] - stats["verification"].get("time_s", 0.0)
                                  - lr.get("time_s", 0.0) - stats.get("kernel_facts_s", 0.0), 3)
            ranked = sorted(res.findings, key=lambda f: -f.score)
            rec["finding_lines"] = [f.line for f in ranked]
            rec["top3"] = any(f.line in changed for f in ranked[:3])
            rec["repaired"] = res.corrected != r["buggy"]
            rec["repair_passes"] = rec["repaired"] and passes(res.corrected, r["test"], r["entry_point"], args.timeout)
            rec["repair"] = [(e.line, e.original, e.replacement) for e in res.edits]
            if not args.no_fixed:
                engine.forget()
                fixed = check(r["fixed"], model=path, n_threads=args.threads, **options)
                rec["fixed_flagged"] = any(f.severity == "warning" for f in fixed.findings)
            if rewriter is not None:
                t0 = time.perf_counter()
                answer = rewriter.rewrite(r["buggy"], r["entry_point"])
                rec["rewrite_s"] = round(time.perf_counter() - t0, 3)
                rec["rewrite_passes"] = passes(code_of(answer), r["test"], r["entry_point"], args.timeout)
            recs.append(rec)
            print(json.dumps({k: rec[k] for k in rec if k not in ("repair",)}), file=sys.stderr, flush=True)
            if dump:
                dump.write(json.dumps(rec) + "\n")
                dump.flush()
    finally:
        if rewriter is not None:
            rewriter.close()
        if dump:
            dump.close()
    summary, lines = summarise(recs, {"model": path.name, "threads": args.threads,
                                      "options": args.option or ["repairs=lines"], "load": os.getloadavg()[0],
                                      "seconds": round(time.perf_counter() - t_start, 1)})
    for ln in lines:
        print(ln)
    if out_dir:
        (out_dir / "output.txt").write_text("\n".join(lines + [json.dumps(summary)]) + "\n")
        (out_dir / "command.txt").write_text(
            "python " + " ".join(shlex.quote(a) for a in ["bench/repairs.py", *(argv or sys.argv[1:])]) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
