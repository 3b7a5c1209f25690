"""The raw signal: what a model's own surprisal says about a bug, before any of the checker's
machinery. The ceiling the checker's evidence should approach (issue 33).

    python bench/raw_signal.py [--data DIR] [--model NAME|PATH ...] [--dataset humanevalfix
        --dataset debugbench] [--limit N] [--threads 2] [--out DIR]

For each model, llama.cpp alone (no project code but the tokenizer) scores every token of each
pair's `buggy` and `fixed` file, read after the document start as check() reads a cell (a
DebugBench file after the LeetCode prelude, as bench/quality.py gives it). The lines of the buggy
file are ranked by their most surprising token (-log p of a token whose first visible character
is on that line); figures:
  top-1 / top-3   a line the fix changed (bench/quality.py's `changed_lines`) ranked first / in
                  the first three
  random          the same for a random order of the ranked lines, exactly (hypergeometric)
  prefers fix     share of pairs whose fixed file is less surprising in total than the buggy one
  at FA <= x      the bound a checker that flags a file when its worst line passes a threshold can
                  reach: the threshold is the lowest that flags at most x of the fixed files, and a
                  buggy file counts when it is flagged and a changed line is among its first three
                  lines above the threshold (`worst`: the line's worst token; `relative`: that
                  minus the file's median line, which discounts a file that is surprising all over)
The pairs are bench/quality.py's (`--dataset`, `--categories`, `--debugbench-split`, `--limit`),
by default HumanEvalFix and DebugBench's report half, logic bugs, as its reports use them. The
last line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from requirements import require  # noqa: E402

DEFAULT_MODELS = ("smollm2-135m", "qwen2.5-coder-1.5b")


def line_of_tokens(text: str, starts, ends) -> list[int | None]:
    """Each token's line (1-based) by its first visible character; None for whitespace only."""
    data = text.encode("utf-8")
    line_starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
    out = []
    for s, e in zip(starts, ends):
        visible = next((k for k in range(s, e) if data[k:k + 1] not in (b" ", b"\t", b"\n", b"\r")), None)
        out.append(None if visible is None else int(np.searchsorted(line_starts, visible, "right")))
    return out


def surprisal(ref, ids: list[int]) -> np.ndarray:
    """-log p of each token after the first, from llama.cpp's full softmax."""
    logits = ref.score(ids, all_logits=True).astype(np.float64)
    ref.clear()
    top = logits.max(1, keepdims=True)
    lse = (top + np.log(np.exp(logits - top).sum(1, keepdims=True)))[:, 0]
    idx = np.arange(len(ids) - 1)
    return lse[idx] - logits[idx, np.asarray(ids[1:])]


def score_file(ref, tok, start: list[int], prefix: str, text: str):
    """(total surprisal of the file's tokens, the worst surprisal of each line)."""
    pre = tok.encode(prefix).ids if prefix else []
    enc = tok.encode(text)
    s = surprisal(ref, start + pre + list(enc.ids))[len(start) + len(pre) - 1:]
    worst: dict[int, float] = {}
    for k, line in enumerate(line_of_tokens(text, enc.starts, enc.ends)):
        if line is not None and k > 0:      # the file's first token has no context of its own
            worst[line] = max(worst.get(line, 0.0), float(s[k]))
    return float(s.sum()), worst


def random_hit(n_lines: int, n_changed: int, k: int) -> float:
    """P(a random order of n_lines puts one of n_changed in its first k)."""
    if n_changed <= 0 or n_lines <= 0:
        return 0.0
    k = min(k, n_lines)
    return 1.0 - math.comb(n_lines - n_changed, k) / math.comb(n_lines, k)


FLAG_RATES = (0.02, 0.10, 0.15)


def _file_score(worst: dict[int, float], relative: bool) -> dict[int, float]:
    if not relative or not worst:
        return worst
    base = float(np.median(list(worst.values())))
    return {ln: v - base for ln, v in worst.items()}


def flagged_bound(rows: list[dict], rate: float, relative: bool) -> dict:
    """Top-3 of buggy files at the threshold that flags at most `rate` of the fixed files."""
    fixed = sorted((max(_file_score(r["worst_fixed"], relative).values(), default=0.0) for r in rows),
                   reverse=True)
    allowed = int(math.floor(rate * len(fixed)))
    # the lowest threshold above the (allowed+1)-th highest fixed score
    t = fixed[allowed] + 1e-9 if allowed < len(fixed) else -math.inf
    hits = flagged = 0
    for r in rows:
        sc = _file_score(r["worst_buggy"], relative)
        above = sorted((ln for ln, v in sc.items() if v >= t), key=lambda ln: (-sc[ln], ln))
        flagged += bool(above)
        hits += any(ln in r["changed_lines"] for ln in above[:3])
    n = len(rows) or 1
    return {"threshold": round(t, 3), "fixed_flagged": round(sum(v >= t for v in fixed) / n, 4),
            "buggy_flagged": round(flagged / n, 4), "top3": round(hits / n, 4)}


def measure(model: str, pairs: list[dict], threads: int, changed_lines, dump=None) -> dict:
    from jupyter_codecheck.core.vocab import document_start
    from jupyter_codecheck.engine import Model
    from jupyter_codecheck.engine.llamacpp import LlamaCppModel
    from jupyter_codecheck.engine.paths import model_display_name, resolve_model_path
    path = resolve_model_path(model)
    model_file = Model(path)             # the tokenizer lives as long as its model
    tok = model_file.tokenizer
    start = document_start(tok)
    n_ctx = 4096
    ref = LlamaCppModel(path, n_threads=threads, n_ctx=n_ctx, n_batch=512)
    rows, t0, n_tokens = [], time.perf_counter(), 0
    try:
        for p in pairs:
            prefix = "".join(c + "\n\n" for c in (p.get("context") or []))
            if len(tok.encode(prefix + p["buggy"]).ids) + len(start) + 8 > n_ctx:
                continue
            changed = set(changed_lines(p["buggy"], p["fixed"]))
            total_b, worst = score_file(ref, tok, start, prefix, p["buggy"])
            total_f, worst_f = score_file(ref, tok, start, prefix, p["fixed"])
            n_tokens += len(tok.encode(p["buggy"]).ids) + len(tok.encode(p["fixed"]).ids)
            ranked = sorted(worst, key=lambda ln: (-worst[ln], ln))
            ranked_changed = changed & set(ranked)
            rows.append({"id": p["id"], "dataset": p["dataset"], "lines": len(ranked),
                         "changed": len(ranked_changed),
                         "top1": bool(ranked[:1] and ranked[0] in changed),
                         "top3": any(ln in changed for ln in ranked[:3]),
                         "random_top1": random_hit(len(ranked), len(ranked_changed), 1),
                         "random_top3": random_hit(len(ranked), len(ranked_changed), 3),
                         "prefers_fix": total_f < total_b,
                         "worst_buggy": worst, "worst_fixed": worst_f,
                         "changed_lines": sorted(ranked_changed)})
            if dump is not None:
                dump.write(json.dumps({"model": model, **rows[-1]}) + "\n")
                dump.flush()
            if len(rows) % 20 == 0:
                print(f"  {model}: {len(rows)}/{len(pairs)} pairs", file=sys.stderr, flush=True)
    finally:
        ref.close()
    out = {"model": model, "name": model_display_name(path), "seconds": round(time.perf_counter() - t0, 1),
           "tokens": n_tokens, "datasets": {}}
    for ds in sorted({r["dataset"] for r in rows}):
        rs = [r for r in rows if r["dataset"] == ds and r["changed"]]
        out["datasets"][ds] = {"pairs": len(rs),
                               **{k: round(float(np.mean([r[k] for r in rs])), 4) if rs else None
                                  for k in ("top1", "top3", "random_top1", "random_top3", "prefers_fix")},
                               "flagged": {f"{rate:.0%}": {"worst": flagged_bound(rs, rate, False),
                                                           "relative": flagged_bound(rs, rate, True)}
                                           for rate in FLAG_RATES}}
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None, help="folder of humanevalfix.jsonl and debugbench.jsonl "
                                                 "(default: ../shared/benchmarks)")
    ap.add_argument("--model", action="append", help=f"known name or GGUF path (default: {', '.join(DEFAULT_MODELS)})")
    ap.add_argument("--dataset", action="append", help="humanevalfix | debugbench (default both)")
    ap.add_argument("--categories", default="logic", help="as bench/quality.py (default: logic)")
    ap.add_argument("--debugbench-split", default="report", choices=("all", "calib", "report"))
    ap.add_argument("--limit", type=int, default=0, help="first N pairs of each dataset")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=None, help="folder for output.txt and command.txt")
    args = ap.parse_args(argv)
    import quality
    data = Path(args.data) if args.data else quality.BENCH
    datasets = args.dataset or ["humanevalfix", "debugbench"]
    require("bench/raw_signal.py", packages=("llama_cpp", "numpy"),
            paths=[data / f"{ds}.jsonl" for ds in datasets])
    quality.DATASETS.update({ds: data / f"{ds}.jsonl" for ds in datasets})
    pairs = quality.load_pairs(argparse.Namespace(
        dataset=datasets, categories=args.categories, debugbench_split=args.debugbench_split,
        limit={"": args.limit} if args.limit else {}, no_prelude=False))
    lines, figures = [], []
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    dump = (out / "rows.jsonl").open("w") if out else None
    for model in args.model or DEFAULT_MODELS:
        r = measure(model, pairs, args.threads, quality.changed_lines, dump)
        figures.append(r)
        for ds, f in r["datasets"].items():
            lines.append(f"{r['name']} on {ds} ({f['pairs']} pairs): top-1 {f['top1']:.1%} (random "
                         f"{f['random_top1']:.1%}), top-3 {f['top3']:.1%} (random {f['random_top3']:.1%}), "
                         f"prefers the fix {f['prefers_fix']:.1%}; {r['tokens']} tokens in {r['seconds']} s")
            for rate, b in f["flagged"].items():
                lines.append(f"  flagging at most {rate} of fixed files: top-3 {b['worst']['top3']:.1%} "
                             f"(worst line), {b['relative']['top3']:.1%} (relative to the file's median line)")
            for ln in lines[-1 - len(f["flagged"]):]:
                print(ln, flush=True)
    summary = {"threads": args.threads, "models": figures}
    if dump is not None:
        dump.close()
    if out:
        (out / "output.txt").write_text("\n".join(lines + [json.dumps(summary)]) + "\n")
        (out / "command.txt").write_text("python " + " ".join(shlex.quote(a) for a in ["bench/raw_signal.py", *(argv or sys.argv[1:])]) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
