"""How far the engine's log-probabilities are from the model file's exact function in f32, beside
llama.cpp's on the same tokens (issue 49's item 5). No timing: the figures do not depend on the
machine's load.

    python bench/f32_fidelity.py [DATA] [--models smollm2-135m,...] [--files 100:108]

The reference is the engine's own f32 arithmetic (`F32_REFERENCE` in
jupyter_codecheck/engine/fidelity.py, which tests/test_f32_fidelity.py shares: the layer matrices
dequantized exactly to f32 copies for every batch, f32 activations and K,V), what bench/engine.py
(d) calls the exact function. The tokens: HumanEvalFix's fixed solutions (the same files as
bench/engine.py (d)), each read after <|endoftext|> in one batch as check() reads a cell. For
each installed model: the log-probability of every next token under the checker's arithmetic
(`checker_settings` for the file's layer type), under each of the session's other arithmetics
and under llama.cpp, each against the reference: the mean |difference| in nats and the shares
within 0.05 and 0.25. The last line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import sys

from harness import BENCH
from requirements import require

require("f32_fidelity", packages=("llama_cpp",), paths=())

import numpy as np  # noqa: E402

from jupyter_codecheck.engine import Model  # noqa: E402
from jupyter_codecheck.engine.fidelity import (  # noqa: E402
    F32_REFERENCE, cell_tokens, distance, next_token_logprobs)
from jupyter_codecheck.engine.llamacpp import LlamaCppModel  # noqa: E402
from jupyter_codecheck.engine.paths import KNOWN_MODELS, ModelNotFoundError, resolve_model_path  # noqa: E402
from jupyter_codecheck.engine.session import FAST, checker_settings  # noqa: E402

OTHERS = {"session defaults (llama.cpp's arithmetic)": {}, "f32 KV": {"kv_f32": True},
          "f32 KV + f16 copies (FAST)": dict(FAST), "f32 KV + packed product": {"kv_f32": True, "packed": True}}


def llama_logprobs(path, files) -> np.ndarray:
    ref = LlamaCppModel(path, n_threads=1, n_ctx=2048, n_batch=2048)
    out = []
    for ids in files:
        lg = ref.score(ids, all_logits=True).astype(np.float64)
        ref.clear()
        lse = lg.max(1) + np.log(np.exp(lg - lg.max(1, keepdims=True)).sum(1))
        out.append(lg[np.arange(len(ids) - 1), ids[1:]] - lse[:-1])
    ref.close()
    return np.concatenate(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", default=str(BENCH), help="folder holding humanevalfix.jsonl")
    ap.add_argument("--models", default=",".join(KNOWN_MODELS), help="short names, comma-separated")
    ap.add_argument("--files", default="100:108", help="HumanEvalFix rows, start:stop")
    args = ap.parse_args()
    data = f"{args.data}/humanevalfix.jsonl"
    require("f32_fidelity", paths=(data,))
    start, stop = map(int, args.files.split(":"))
    with open(data, encoding="utf-8") as f:
        sources = [json.loads(line)["fixed"] for line in f][start:stop]
    out = {"files": args.files, "models": {}}
    for name in args.models.split(","):
        try:
            path = resolve_model_path(name)
        except ModelNotFoundError:
            out["models"][name] = "not installed"
            continue
        model = Model(path)
        files = [cell_tokens(model, s) for s in sources]
        reference = next_token_logprobs(model, files, F32_REFERENCE)
        checker = checker_settings(model.info.layer_type)
        row = {"layer_type": model.info.layer_type, "checker_settings": checker,
               "checker": distance(next_token_logprobs(model, files, checker), reference),
               "llama.cpp": distance(llama_logprobs(path, files), reference)}
        for label, settings in OTHERS.items():
            row[label] = distance(next_token_logprobs(model, files, settings), reference)
        for label in ("checker", "llama.cpp", *OTHERS):
            r = row[label]
            print(f"{name} {label}: mean {r['mean_nats']:.3f} nats from the f32 reference, "
                  f"{r['within_0.25']:.1%} within 0.25, {r['within_0.05']:.1%} within 0.05, "
                  f"max {r['max_nats']:.2f} ({r['tokens']} tokens)", file=sys.stderr, flush=True)
        out["models"][name] = row
        model.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
