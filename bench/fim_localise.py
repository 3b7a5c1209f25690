"""A localiser that reads both sides of a line, beside the raw signal that reads the left only.

    python bench/fim_localise.py [--data DIR] [--model qwen2.5-coder-1.5b] [--dataset humanevalfix
        --dataset debugbench] [--limit N] [--threads 1] [--fixed] [--out DIR]

For each buggy file (bench/quality.py's pairs: HumanEvalFix, DebugBench's report half, logic
bugs, a DebugBench file after the LeetCode prelude), llama.cpp scores every non-blank line two
ways:
  left   one pass over the file after the document start (bench/raw_signal.py): each token's
         surprisal given the code before it
  fim    `<|fim_prefix|>` the code before the line `<|fim_suffix|>` the code after it
         `<|fim_middle|>` then the line itself, teacher-forced: each of its tokens' surprisal given
         both sides (the KV of the prompt's common beginning is kept from line to line)
and ranks the lines by
  raw        the left pass's worst token on the line (the raw signal)
  fim        the fill-in-the-middle worst token on the line
  fim-mean   the fill-in-the-middle surprisal per token of the line
  both       raw + fim (a line surprising from the left and from both sides)
Figures per ranking: top-1 and top-3 (a changed line ranked first / among the first three; the
changed lines as bench/quality.py finds them). With --fixed each pair's fixed file is scored too,
and a file is flagged when its worst line passes a threshold fitted on the pairs themselves (an
oracle's bound, no calibration): the most buggy files flagged with a changed line among their
three worst, at most 5 % (DebugBench 10 %) of the fixed files flagged. The last line is one JSON object with them.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from requirements import require  # noqa: E402

RANKINGS = ("raw", "fim", "fim-mean", "both")


def _nll(logits: np.ndarray, targets) -> np.ndarray:
    x = logits.astype(np.float64)
    top = x.max(1, keepdims=True)
    lse = (top + np.log(np.exp(x - top).sum(1, keepdims=True)))[:, 0]
    return lse - x[np.arange(len(targets)), np.asarray(targets)]


class KeptPrefix:
    """llama.cpp scoring token lists that share beginnings: the KV of the common beginning with
    the last list is kept, the rest decoded."""

    def __init__(self, ref):
        import llama_cpp as lc
        self.lc, self.ref, self.ids = lc, ref, []

    def logits(self, ids: list[int]) -> np.ndarray:
        """Logits of every position of `ids` from position `keep` on (keep: the common beginning,
        at least one token short of the list), as rows keep..len-1."""
        keep = 0
        while keep < min(len(ids), len(self.ids)) - 1 and ids[keep] == self.ids[keep]:
            keep += 1
        ref, lc = self.ref, self.lc
        lc.llama_memory_seq_rm(lc.llama_get_memory(ref._ctx), 0, keep, -1)
        out = []
        for a in range(keep, len(ids), ref.n_batch):
            chunk = ids[a:a + ref.n_batch]
            ref._batch.fill(chunk, a, 1)
            ref._decode(ref._ctx, ref._batch)
            ptr = lc.llama_get_logits(ref._ctx)
            out.append(np.ctypeslib.as_array(ptr, shape=(len(chunk), ref.n_vocab)).copy())
        self.ids = list(ids)
        return keep, np.concatenate(out)


def line_scores(scorer: KeptPrefix, tok, fim, start, prefix: str, text: str, lines_of_tokens) -> dict:
    """{line: {"raw", "fim", "fim-mean"}} for the file's non-blank lines."""
    enc = tok.encode(text)
    pre = tok.encode(prefix).ids if prefix else []
    ids = start + pre + list(enc.ids)
    keep, lg = scorer.logits(ids)
    # row r predicts ids[keep + r + 1]
    s = _nll(lg[:-1], ids[keep + 1:])
    left = np.zeros(len(ids))
    left[keep + 1:] = s
    cell = left[len(start) + len(pre):]
    raw: dict[int, float] = {}
    for k, line in enumerate(lines_of_tokens(text, enc.starts, enc.ends)):
        if line is not None and k > 0:
            raw[line] = max(raw.get(line, 0.0), float(cell[k]))
    out = {}
    lines = text.split("\n")
    for ln in sorted(raw):
        before = prefix + "".join(x + "\n" for x in lines[:ln - 1])
        body = lines[ln - 1]
        indent = body[:len(body) - len(body.lstrip())]
        after = "".join(x + "\n" for x in lines[ln:]).rstrip("\n") + "\n"
        line_ids = tok.encode(body.lstrip() + "\n").ids
        prompt = [fim[0]] + tok.encode(before + indent).ids + [fim[1]] + tok.encode(after).ids + [fim[2]]
        keep, lg = scorer.logits(prompt + line_ids)
        nll = _nll(lg[len(prompt) - 1 - keep:len(prompt) - 1 - keep + len(line_ids)], line_ids)
        out[ln] = {"raw": raw[ln], "fim": float(nll.max()), "fim-mean": float(nll.mean())}
    return out


def _score(s: dict, how: str) -> float:
    return s["raw"] + s["fim"] if how == "both" else s[how]


def rank(scores: dict, how: str) -> list[int]:
    return sorted(scores, key=lambda ln: (-_score(scores[ln], how), ln))


def file_level(rows: list[dict], how: str, target: float) -> dict:
    """A file flagged when its worst line passes a threshold, fitted on these pairs (an oracle:
    no calibration can choose it): the most buggy files with a changed line in the top three
    and flagged, with at most `target` of the fixed files flagged."""
    best = {"top3": 0.0, "fixed_flagged": 0.0, "threshold": None}
    for t in sorted({r[how]["worst"] for r in rows} | {r["fixed_worst"][how] for r in rows}):
        flagged = sum(r["fixed_worst"][how] >= t for r in rows) / len(rows)
        found = sum(r[how]["worst"] >= t and r[how]["top3"] for r in rows) / len(rows)
        if flagged <= target and found > best["top3"]:
            best = {"top3": round(found, 4), "fixed_flagged": round(flagged, 4), "threshold": round(t, 3)}
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None, help="folder of the datasets (default: ../shared/benchmarks)")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--dataset", action="append", help="humanevalfix | debugbench (default both)")
    ap.add_argument("--categories", default="logic", help="as bench/quality.py (default: logic)")
    ap.add_argument("--limit", type=int, default=0, help="first N pairs of each dataset")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--fixed", action="store_true",
                    help="score each pair's fixed file too: a file flagged when its worst line passes a threshold")
    ap.add_argument("--out", default=None, help="folder for output.txt, rows.jsonl and command.txt")
    args = ap.parse_args(argv)
    import quality
    from raw_signal import line_of_tokens
    data = Path(args.data) if args.data else quality.BENCH
    datasets = args.dataset or ["humanevalfix", "debugbench"]
    require("bench/fim_localise.py", packages=("llama_cpp", "numpy"), paths=[data / f"{ds}.jsonl" for ds in datasets])
    quality.DATASETS.update({ds: data / f"{ds}.jsonl" for ds in datasets})
    pairs = quality.load_pairs(argparse.Namespace(
        dataset=datasets, categories=args.categories, debugbench_split="report",
        limit={"": args.limit} if args.limit else {}, no_prelude=False))
    from jupyter_codecheck.core.repairs import fim_ids
    from jupyter_codecheck.core.vocab import document_start
    from jupyter_codecheck.engine import Model
    from jupyter_codecheck.engine.llamacpp import LlamaCppModel
    from jupyter_codecheck.engine.paths import resolve_model_path
    path = resolve_model_path(args.model)
    model = Model(path)
    tok = model.tokenizer
    fim = fim_ids(tok)
    if fim is None:
        sys.exit(f"error: {path.name} has no fill-in-the-middle tokens")
    ref = LlamaCppModel(path, n_threads=args.threads, n_ctx=8192, n_batch=512)
    scorer = KeptPrefix(ref)
    start = document_start(tok)
    out_dir = Path(args.out) if args.out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    dump = (out_dir / "rows.jsonl").open("w") if out_dir else None
    rows, t0 = [], time.perf_counter()
    try:
        for p in pairs:
            prefix = "".join(c + "\n\n" for c in (p.get("context") or []))
            changed = set(quality.changed_lines(p["buggy"], p["fixed"]))
            scores = line_scores(scorer, tok, fim, start, prefix, p["buggy"], line_of_tokens)
            changed &= set(scores)
            if not changed:
                continue
            rec = {"id": p["id"], "dataset": p["dataset"], "lines": len(scores), "changed": sorted(changed)}
            for how in RANKINGS:
                order = rank(scores, how)
                rec[how] = {"top1": order[0] in changed, "top3": any(ln in changed for ln in order[:3]),
                            "worst": _score(scores[order[0]], how)}
            if args.fixed:
                fixed = line_scores(scorer, tok, fim, start, prefix, p["fixed"], line_of_tokens)
                rec["fixed_worst"] = {how: max((_score(v, how) for v in fixed.values()), default=0.0)
                                      for how in RANKINGS}
            rows.append(rec)
            print(json.dumps(rec), file=sys.stderr, flush=True)
            if dump:
                dump.write(json.dumps({**rec, "scores": scores}) + "\n")
                dump.flush()
    finally:
        ref.close()
        if dump:
            dump.close()
    summary = {"model": path.name, "threads": args.threads, "seconds": round(time.perf_counter() - t0, 1), "datasets": {}}
    lines = []
    for ds in sorted({r["dataset"] for r in rows}):
        rs = [r for r in rows if r["dataset"] == ds]
        f = {how: {k: round(float(np.mean([r[how][k] for r in rs])), 4) for k in ("top1", "top3")} for how in RANKINGS}
        summary["datasets"][ds] = {"pairs": len(rs), **f}
        lines.append(f"{ds} ({len(rs)} pairs): " + "; ".join(
            f"{how} top-1 {f[how]['top1']:.1%}, top-3 {f[how]['top3']:.1%}" for how in RANKINGS))
        if all("fixed_worst" in r for r in rs):
            target = 0.05 if ds == "humanevalfix" else 0.10
            levels = {how: file_level(rs, how, target) for how in RANKINGS}
            summary["datasets"][ds]["file_level"] = {"target": target, **levels}
            lines.append(f"{ds}, files flagged by their worst line (threshold fitted on these pairs, at most "
                         f"{target:.0%} of the fixed files): " + "; ".join(
                             f"{how} top-3 {v['top3']:.1%} at {v['fixed_flagged']:.1%}" for how, v in levels.items()))
    for ln in lines:
        print(ln)
    if out_dir:
        (out_dir / "output.txt").write_text("\n".join(lines + [json.dumps(summary)]) + "\n")
        (out_dir / "command.txt").write_text(
            "python " + " ".join(shlex.quote(a) for a in ["bench/fim_localise.py", *(argv or sys.argv[1:])]) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
