"""Our tokenizer's ids against llama.cpp's on the whole corpus, for every model we name that is
installed: every string of every benchmark set under DATA, the example notebooks' cells, the
standard library's Python sources and the Unicode, whitespace and special-token cases, each
tokenized with special tokens parsed and not; and every id's bytes and flags.

    python bench/tokenizer_agreement.py [DATA] [--stdlib-mb 8]

Ends with one JSON line: per model, texts, tokens, differing texts and ids, and both load times.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from harness import BENCH
from requirements import require

require("tokenizer_agreement", packages=("llama_cpp", "tokenizers"), paths=())

from tokenizer_corpus import benchmark_texts, edge_cases, example_cells, stdlib_sources  # noqa: E402

from jupyter_codecheck.engine import llamacpp  # noqa: E402
from jupyter_codecheck.engine.paths import KNOWN_MODELS, ModelNotFoundError, resolve_model_path  # noqa: E402
from jupyter_codecheck.engine.tokenizer import Tokenizer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", default=str(BENCH), help="folder of the benchmark JSONL sets")
    ap.add_argument("--stdlib-mb", type=float, default=8.0, help="MB of the standard library's sources")
    args = ap.parse_args()
    require("tokenizer_agreement", paths=(args.data,))
    texts = {"benchmarks": benchmark_texts(args.data), "examples": example_cells(),
             "stdlib": stdlib_sources(int(args.stdlib_mb * 1e6)), "edge_cases": edge_cases()}
    print("texts: " + ", ".join(f"{k} {len(v)} ({sum(map(len, v)) / 1e6:.2f} M chars)" for k, v in texts.items()),
          file=sys.stderr)
    out = {"corpus": {k: len(v) for k, v in texts.items()}, "models": {}}
    for name in KNOWN_MODELS:
        try:
            path = resolve_model_path(name)
        except ModelNotFoundError:
            out["models"][name] = "not installed"
            continue
        t0 = time.perf_counter()
        ours = Tokenizer(path)
        t1 = time.perf_counter()
        ref = llamacpp.LlamaCppVocab(path)
        t2 = time.perf_counter()
        row = {"load_s": round(t1 - t0, 2), "llama_cpp_load_s": round(t2 - t1, 2),
               "vocab_differences": {k: len(v) for k, v in llamacpp.vocab_differences(ours, ref).items()}}
        for part, part_texts in texts.items():
            t = time.perf_counter()
            got = llamacpp.token_agreement(ours, ref, part_texts)
            row[part] = {k: got[k] for k in ("texts", "tokens", "differing_texts")} | {
                "seconds_both": round(time.perf_counter() - t, 1)}
            if got["first"]:
                row[part]["first"] = got["first"][:3]
        out["models"][name] = row
        print(name, json.dumps(row), file=sys.stderr, flush=True)
        ours.close()
        ref.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
