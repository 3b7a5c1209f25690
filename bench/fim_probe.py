"""Does a GGUF honour fill-in-the-middle? The measurement that decides how line repairs decode.

    python bench/fim_probe.py [--data DIR] [--model qwen2.5-coder-1.5b] [--limit 20]
        [--threads 2] [--max-tokens 40] [--out DIR]

On HumanEvalFix pairs whose fix changes exactly one line (the buggy and the fixed file have the
same line count and differ on one line), llama.cpp decodes that line greedily three ways, until
the first newline:
  fim    `<|fim_prefix|>` the lines before `<|fim_suffix|>` the lines after `<|fim_middle|>`
         (the model's own FIM tokens, read from the GGUF's vocabulary)
  left   the lines before only, after the document start, as a walk reads the cell
  fim-shared  the document start and the lines before (as the walk reads them: the walk's K,V
         could serve), then `<|fim_suffix|>` the lines after `<|fim_middle|>`: no `<|fim_prefix|>`
and counts how often the decoded line (stripped of surrounding whitespace) is the fixed line,
the buggy line, or something else; `prefers fix` is the share where the fixed line's
log-probability (teacher-forced, same prompt) beats the buggy line's. The last line is one JSON
object with the figures.
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


def one_line_pairs(rows: list[dict]) -> list[tuple[dict, int]]:
    """(pair, 0-based index of the changed line) for pairs whose fix changes exactly one line."""
    out = []
    for r in rows:
        b, f = r["buggy"].split("\n"), r["fixed"].split("\n")
        if len(b) != len(f):
            continue
        diff = [k for k, (x, y) in enumerate(zip(b, f)) if x != y]
        if len(diff) == 1 and b[diff[0]].strip() and f[diff[0]].strip():
            out.append((r, diff[0]))
    return out


def _logsoftmax(logits: np.ndarray) -> np.ndarray:
    x = logits.astype(np.float64)
    top = x.max(-1, keepdims=True)
    return x - top - np.log(np.exp(x - top).sum(-1, keepdims=True))


def greedy_line(ref, prompt: list[int], detok, stop_ids: set[int], max_tokens: int) -> str:
    """Greedy decoding after `prompt` until the text holds a newline (or a stop token)."""
    logits = ref.score(prompt, all_logits=False)[0]
    pos, text = len(prompt), b""
    for _ in range(max_tokens):
        t = int(np.argmax(logits))
        if t in stop_ids:
            break
        text += detok(t)
        if b"\n" in text.lstrip(b"\n"):
            break
        logits = ref.decode_one(t, pos)
        pos += 1
    ref.clear()
    return text.decode("utf-8", "replace").lstrip("\n").split("\n")[0]


def line_logprob(ref, prompt: list[int], line_ids: list[int]) -> float:
    """log P(line_ids | prompt), teacher-forced."""
    ids = prompt + line_ids
    lp = _logsoftmax(ref.score(ids, all_logits=True))
    ref.clear()
    return float(sum(lp[len(prompt) - 1 + k, t] for k, t in enumerate(line_ids)))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None, help="folder of humanevalfix.jsonl (default: ../shared/benchmarks)")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b", help="known name or GGUF path")
    ap.add_argument("--limit", type=int, default=20, help="first N one-line pairs")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=40)
    ap.add_argument("--mode", action="append", choices=("fim", "left", "fim-shared"),
                    help="prompts to decode with (default: fim and left)")
    ap.add_argument("--out", default=None, help="folder for output.txt, rows.jsonl and command.txt")
    args = ap.parse_args(argv)
    data = Path(args.data) if args.data else ROOT.parent / "shared" / "benchmarks"
    require("bench/fim_probe.py", packages=("llama_cpp", "numpy"), paths=[data / "humanevalfix.jsonl"])
    from jupyter_codecheck.core.vocab import document_start
    from jupyter_codecheck.engine import Model
    from jupyter_codecheck.engine.llamacpp import LlamaCppModel
    from jupyter_codecheck.engine.paths import resolve_model_path
    import llama_cpp as lc

    rows = [json.loads(x) for x in open(data / "humanevalfix.jsonl", encoding="utf-8") if x.strip()]
    pairs = one_line_pairs(rows)[:args.limit]
    path = resolve_model_path(args.model)
    model = Model(path)
    tok = model.tokenizer
    ref = LlamaCppModel(path, n_threads=args.threads, n_ctx=4096, n_batch=512)
    vocab = ref._vocab
    fim = [lc.llama_vocab_fim_pre(vocab), lc.llama_vocab_fim_suf(vocab), lc.llama_vocab_fim_mid(vocab)]
    if min(fim) < 0:
        sys.exit(f"error: {path.name} has no fill-in-the-middle tokens")
    stop_ids = {i for i in range(ref.n_vocab) if lc.llama_vocab_is_eog(vocab, i)}
    detok = tok.piece
    start = document_start(tok)
    out_dir = Path(args.out) if args.out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    dump = (out_dir / "rows.jsonl").open("w") if out_dir else None
    modes = args.mode or ["fim", "left"]
    counts = {m: {"fixed": 0, "buggy": 0, "other": 0, "prefers_fix": 0} for m in modes}
    seconds = {m: 0.0 for m in counts}
    t0 = time.perf_counter()
    try:
        for r, k in pairs:
            lines_b, lines_f = r["buggy"].split("\n"), r["fixed"].split("\n")
            before = "".join(x + "\n" for x in lines_b[:k])
            after = "".join(x + "\n" for x in lines_b[k + 1:])
            indent = lines_b[k][:len(lines_b[k]) - len(lines_b[k].lstrip())]
            # the line's indentation is given: what is judged is the code on it
            prompts = {"fim": [fim[0]] + tok.encode(before + indent).ids + [fim[1]] + tok.encode(after).ids + [fim[2]],
                       "left": start + tok.encode(before + indent).ids,
                       "fim-shared": start + tok.encode(before + indent).ids + [fim[1]] + tok.encode(after).ids + [fim[2]]}
            prompts = {m: prompts[m] for m in modes}
            rec = {"id": r["id"], "line": k + 1, "buggy": lines_b[k].strip(), "fixed": lines_f[k].strip()}
            for mode, prompt in prompts.items():
                ts = time.perf_counter()
                got = greedy_line(ref, prompt, detok, stop_ids, args.max_tokens).strip()
                lp_f = line_logprob(ref, prompt, tok.encode(lines_f[k].lstrip() + "\n").ids)
                lp_b = line_logprob(ref, prompt, tok.encode(lines_b[k].lstrip() + "\n").ids)
                seconds[mode] += time.perf_counter() - ts
                verdict = "fixed" if got == rec["fixed"] else "buggy" if got == rec["buggy"] else "other"
                counts[mode][verdict] += 1
                counts[mode]["prefers_fix"] += lp_f > lp_b
                rec[mode] = {"decoded": got, "verdict": verdict, "logprob_fixed": round(lp_f, 3),
                             "logprob_buggy": round(lp_b, 3)}
            print(f"{r['id']}: " + ", ".join(f"{m} {rec[m]['verdict']}" for m in modes), file=sys.stderr, flush=True)
            if dump:
                dump.write(json.dumps(rec) + "\n")
                dump.flush()
    finally:
        ref.close()
        if dump:
            dump.close()
    n = len(pairs) or 1
    summary = {"model": path.name, "pairs": len(pairs), "threads": args.threads,
               "seconds": round(time.perf_counter() - t0, 1),
               **{mode: {**{k: round(v / n, 4) for k, v in c.items()}, "seconds": round(seconds[mode], 1)}
                  for mode, c in counts.items()}}
    lines = [f"{mode}: decodes the fixed line {c['fixed']}/{len(pairs)}, the buggy line {c['buggy']}, "
             f"something else {c['other']}; prefers the fixed line {c['prefers_fix']}/{len(pairs)}"
             for mode, c in counts.items()]
    for ln in lines:
        print(ln)
    if out_dir:
        (out_dir / "output.txt").write_text("\n".join(lines + [json.dumps(summary)]) + "\n")
        (out_dir / "command.txt").write_text(
            "python " + " ".join(shlex.quote(a) for a in ["bench/fim_probe.py", *(argv or sys.argv[1:])]) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
