"""Engine speed against llama.cpp, measured in the same run on the same GGUF.

    python bench/engine.py [--model PATH] [--threads 2] [--repeats 5] [--cpu-time] [--no-arithmetic]
    python bench/engine.py --products [--model PATH] [--repeats 5] [--cpu-time]

(a) batched scoring of a ~300-token cell with logits for every token,
(b) one-token sequential decoding (logits of each token),
each for our engine as the checker runs it (`engine.session.checker_settings`: f32 KV cache, and
for layer types without fast kernels of their own the layer matrices converted to f16) and with the session's defaults (llama.cpp's arithmetic), next to
llama.cpp on the same file and, for reference, llama.cpp on a q8_0 copy of it (what a user who
converted the file would get from llama.cpp's own tiled kernels),
plus the cost of the exit hook (a Python call after every layer) and of the exit tests (the full
49k-vocabulary head and the shortlist head) as fractions of a decode step and in layers.

(c) What "exact" K,V allows at best. An exited token's skipped layers are recomputed before a later
token attends to them, so every token still runs every layer: an exit saves its head and nothing
else. The layers alone therefore bound the checker's speed, whatever the exit policy:
    bound_sequential_exact  llama.cpp's decode step / our 30 layers for one row (no head, one row
                            per token, no rejection)
    bound_batched_exact     llama.cpp's batched scoring / our layers for the same batch (no head)
and the layers' time per row by batch size shows whether rows riding along are nearly free
(memory-bound) or cost their share (compute-bound): the edit walk scores 8-16-row windows and
2-3-row branch batches.

(d) The arithmetic: the log-probability of each next token of whole held-out files (HumanEvalFix
solutions 100-107, read after <|endoftext|> as check() reads a cell, each file in one batch) for
the checker's settings and the alternatives, against llama.cpp's full softmax: the share within
0.05 and 0.25 nats and the mean difference; the same against the model file's exact function in
f32 (weights dequantized exactly, f32 activations and K,V), for llama.cpp too; each one's batched
scoring speed on those files; and what the arithmetic changes in check()'s decisions and findings
on the first `--decision-pairs` HumanEvalFix pairs. `--arithmetic` runs only this part.

(e) `--products` (only this part): the layer matrices' products alone, ggml's and the one the
checker runs (the packed product), by batch size, one thread (see `products`).

Runs alternate ours / llama.cpp and report medians: the machine is shared and noisy. The last
line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import inspect
import json
import json.decoder
import statistics
import sys
import time

import numpy as np

from jupyter_codecheck.engine import Model
from jupyter_codecheck.engine.llamacpp import LlamaCppModel
from jupyter_codecheck.engine.session import FAST, checker_settings
from jupyter_codecheck.engine.shortlist import code_shortlist
from instruction_sets import describe, instruction_sets


# --cpu-time: this process's CPU seconds instead of the wall clock. With one thread they barely
# move with what else the machine runs, so settings can be compared on a busy machine.
CLOCK = time.perf_counter


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def shortlist_error(session, cell, layers):
    """Shortlist head vs full head on the same hidden states (rows of the cell, given layers)."""
    rows = np.arange(len(cell) - 1)
    refs = np.asarray(cell[1:])
    states = {}

    def hook(step):
        if step.layer in layers:
            states[step.layer] = (session.head(rows, refs, top_k=1),
                                  session.head(rows, refs, top_k=1, shortlist=True))

    session.truncate(0)
    session.forward(cell, hook=hook)
    out = {}
    for layer, (full, short) in states.items():
        excess = short.ref_logprob - full.ref_logprob      # >= 0: the shortlist normaliser is smaller
        out[layer] = {
            "top1_agree": round(float((short.topk_ids[:, 0] == full.topk_ids[:, 0]).mean()), 4),
            "ref_logprob_excess_median": round(float(np.median(excess)), 4),
            "ref_logprob_excess_p90": round(float(np.percentile(excess, 90)), 4),
            "p20_decision_agree": round(float(((short.ref_logprob >= np.log(0.2)) ==
                                               (full.ref_logprob >= np.log(0.2))).mean()), 4),
        }
    return out


def q8_0_copy(path) -> str:
    """The model converted to q8_0 by llama.cpp (cached next to the other temporary files)."""
    import ctypes
    import os
    import tempfile

    import llama_cpp
    out = os.path.join(tempfile.gettempdir(), f"codecheck-bench-{path.stem}.q8_0.gguf")
    if not os.path.exists(out):
        p = llama_cpp.llama_model_quantize_default_params()
        p.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0
        p.allow_requantize = True
        if llama_cpp.llama_model_quantize(os.fsencode(path), os.fsencode(out + ".part"), ctypes.byref(p)) != 0:
            raise RuntimeError(f"llama.cpp could not convert {path} to q8_0")
        os.replace(out + ".part", out)
    return out


ARITHMETIC = {   # name -> Session settings
    "llama.cpp's (Session defaults)": {},
    "f32 KV": {"kv_f32": True},
    "f32 KV + q8_0 copies": {"kv_f32": True, "batch_weights": "q8_0", "batch_min_rows": 4},
    "f32 KV + f16 copies (FAST)": dict(FAST),
    "f32 KV + f16 copies from 4 rows": {**FAST, "batch_min_rows": 4},
    "f32 KV + f32 copies": {"kv_f32": True, "batch_weights": "f32", "batch_min_rows": 4},
    "f32 KV + packed product": {"kv_f32": True, "packed": True},
}
# The file's own function in f32: weights dequantized exactly, f32 activations and K,V. What
# each arithmetic (llama.cpp's included) rounds away from.
EXACT = {"kv_f32": True, "batch_weights": "f32", "batch_min_rows": 1}


def _logprobs(session, ids) -> np.ndarray:
    session.forward(ids)
    return session.head(np.arange(len(ids) - 1), ref=ids[1:]).ref_logprob


def _share(d: np.ndarray) -> dict:
    return {"tokens": int(d.size), "within_0.05": round(float(np.mean(d <= 0.05)), 4),
            "within_0.25": round(float(np.mean(d <= 0.25)), 4), "mean_nats": round(float(d.mean()), 4)}


def arithmetic(model, threads: int, repeats: int = 3) -> dict:
    """Each arithmetic against llama.cpp's full softmax and against EXACT, with its batched
    scoring speed on the same files (forward and head, medians of `repeats`)."""
    from pathlib import Path
    data = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks" / "humanevalfix.jsonl"
    with open(data, encoding="utf-8") as f:
        sources = [json.loads(line)["fixed"] for line in f][100:108]
    tok = model.tokenizer
    eot = next(i for i in range(min(tok.n_vocab, 512)) if tok.piece(i) == b"<|endoftext|>")
    files = [[eot] + tok.encode(s).ids for s in sources]
    n_tokens = sum(len(ids) for ids in files)
    ref = LlamaCppModel(model.path, n_threads=threads, n_ctx=1024, n_batch=512)

    def llama_logprobs(ids):
        lg = ref.score(ids, all_logits=True).astype(np.float64)
        ref.clear()
        lse = lg.max(1) + np.log(np.exp(lg - lg.max(1, keepdims=True)).sum(1))
        return lg[np.arange(len(ids) - 1), ids[1:]] - lse[:-1]

    want = [llama_logprobs(ids) for ids in files]
    t_llama = statistics.median(timed(lambda: [llama_logprobs(ids) for ids in files], 1)
                                for _ in range(repeats))
    ref.close()
    exact_session = model.session(n_threads=threads, n_ctx=1024, **EXACT)
    exact = []
    for ids in files:
        exact_session.truncate(0)
        exact.append(_logprobs(exact_session, ids))
    exact_session.close()
    out = {"llama.cpp": {"vs_exact": _share(np.abs(np.concatenate(want) - np.concatenate(exact))),
                         "tokens_per_s": round(n_tokens / t_llama, 1)}}
    print(f"(d) llama.cpp itself: {out['llama.cpp']['vs_exact']['within_0.05']:.1%} of {n_tokens - len(files)} "
          f"tokens within 0.05 nat of the exact f32 function, mean {out['llama.cpp']['vs_exact']['mean_nats']:.3f}; "
          f"{out['llama.cpp']['tokens_per_s']:.0f} tok/s", flush=True)
    for name, settings in ARITHMETIC.items():
        s = model.session(n_threads=threads, n_ctx=1024, **settings)
        got = []
        for ids in files:
            s.truncate(0)
            got.append(_logprobs(s, ids))

        def score_all():
            for ids in files:
                s.truncate(0)
                _logprobs(s, ids)
        t = statistics.median(timed(score_all, 1) for _ in range(repeats))
        s.close()
        g = np.concatenate(got)
        r = out[name] = {**_share(np.abs(g - np.concatenate(want))),
                         "vs_exact": _share(np.abs(g - np.concatenate(exact))),
                         "tokens_per_s": round(n_tokens / t, 1)}
        print(f"(d) {name}: {r['within_0.05']:.1%} within 0.05 nat of llama.cpp, {r['within_0.25']:.1%} "
              f"within 0.25, mean {r['mean_nats']:.3f}; against the exact f32 function "
              f"{r['vs_exact']['within_0.05']:.1%} within 0.05, mean {r['vs_exact']['mean_nats']:.3f}; "
              f"{r['tokens_per_s']:.0f} tok/s", flush=True)
    out["batch_invariance"] = batch_invariance(model, threads, files)
    return out


def batch_invariance(model, threads: int, files) -> dict:
    """The same tokens scored in one batch and then in chunks of 1, 2, 3 and 8 rows: how far a
    row's log-probability moves with the batch it is in (the verification compares rows scored
    in different batches). For the checker's settings and with the f16 copies only for batches of
    4 rows or more (smaller ones on the file's Q4_1 weights with 8-bit activations)."""
    out = {}
    for name, settings in (("FAST", dict(FAST)), ("f16 copies from 4 rows", {**FAST, "batch_min_rows": 4}),
                           ("file weights", {"kv_f32": True}), ("packed product", {"kv_f32": True, "packed": True})):
        s = model.session(n_threads=threads, n_ctx=1024, **settings)
        whole = []
        for ids in files:
            s.truncate(0)
            whole.append(_logprobs(s, ids))
        r = out[name] = {}
        for chunk in (1, 2, 3, 8):
            diffs, t0 = [], time.perf_counter()
            for ids, w in zip(files, whole):
                s.truncate(0)
                got = []
                for k in range(0, len(ids) - 1, chunk):
                    part = ids[k:min(k + chunk, len(ids) - 1)]
                    s.forward(part)
                    got.append(s.head(np.arange(len(part)), ref=ids[k + 1:k + 1 + len(part)]).ref_logprob)
                diffs.append(np.abs(np.concatenate(got) - w))
            d = np.concatenate(diffs)
            r[f"rows_{chunk}"] = {**_share(d), "max_nats": round(float(d.max()), 4),
                                  "tokens_per_s": round(d.size / (time.perf_counter() - t0), 1)}
        s.close()
        print(f"(d) batch invariance, {name}: against one batch, mean/max difference by chunk: " +
              ", ".join(f"{k.split('_')[1]} rows {v['mean_nats']:.3f}/{v['max_nats']:.3f} ({v['tokens_per_s']:.0f} tok/s)"
                        for k, v in r.items()), flush=True)
    return out


def decisions(model_path, threads: int, pairs: int) -> dict:
    """What the arithmetic changes in check(): the first `pairs` HumanEvalFix pairs (buggy and
    fixed files) checked with the checker's settings, with llama.cpp's, and with the f16 copies
    only for batches of 4 rows or more; decisions, findings and time compared with the checker's."""
    from pathlib import Path
    from jupyter_codecheck.core import adapter
    from jupyter_codecheck.core.check import check
    data = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks" / "humanevalfix.jsonl"
    with open(data, encoding="utf-8") as f:
        rows = [json.loads(line) for _, line in zip(range(pairs), f)]
    files = [r[side] for r in rows for side in ("buggy", "fixed")]
    shipped = adapter.checker_settings
    configs = {"checker": shipped, "llama.cpp's": lambda _: {}, "f16 copies": lambda _: dict(FAST),
               "f16 copies from 4 rows": lambda _: {**FAST, "batch_min_rows": 4}}
    runs, seconds = {}, {}
    try:
        for name, settings in configs.items():
            adapter.checker_settings = settings  # the settings load_model() gives its session
            adapter._LOADED.clear()
            check("x = 1\n", model=model_path, n_threads=threads)        # load outside the clock
            runs[name], seconds[name] = [], 0.0
            for src in files:
                adapter.load_model(model_path, threads).forget()
                r = check(src, model=model_path, n_threads=threads)
                seconds[name] += r.stats["time_s"]
                runs[name].append(([t.decision for t in r.tokens],
                                   sorted((f.line, f.kind, f.replacement) for f in r.findings)))
    finally:
        adapter.checker_settings = shipped
        adapter._LOADED.clear()
    base = runs["checker"]
    tokens = sum(len(x[0]) for x in base)
    out = {"files": len(files), "tokens": tokens}
    for name, run in runs.items():
        out[name] = {"seconds": round(seconds[name], 2),
                     "speed_vs_checker": round(seconds["checker"] / seconds[name], 3),
                     "decisions_differ": sum(p != q for x, y in zip(base, run) for p, q in zip(x[0], y[0])),
                     "files_findings_differ": sum(x[1] != y[1] for x, y in zip(base, run)),
                     "fixed_flagged": sum(bool(r[1]) for r in run[1::2])}
        print(f"(d) check() on {len(files)} HumanEvalFix files ({pairs} pairs) with {name} arithmetic: "
              f"{out[name]['seconds']:.1f} s ({out[name]['speed_vs_checker']:.2f}x the checker's speed); "
              f"{out[name]['decisions_differ']} of {tokens} token decisions and the findings of "
              f"{out[name]['files_findings_differ']} files differ from the checker's; "
              f"{out[name]['fixed_flagged']} fixed files flagged", flush=True)
    return out


def products(model, repeats: int, sizes=(1, 2, 4, 8, 16, 32, 64, 128)) -> dict:
    """(e) The matrix products alone: every layer matrix of the model multiplied by batches of
    `sizes` rows, through ggml's product (what llama.cpp's graph runs for it, its tiled kernel
    above ~10 rows) and through the one the checker runs (`packed` where the layer type has it),
    on the calling thread. The layers are taken in turn, as a forward pass reads them, so a small
    batch pays for the weights' memory as it does in the model. Runs alternate; medians."""
    settings = checker_settings(model.info.layer_type)
    if not settings.get("packed"):
        return {}
    n_in = {"ffn_down": model.info.n_ff}
    rng = np.random.default_rng(0)
    for layer in range(model.info.n_layer):     # warm-up: the packed copies are made on first use
        for m in model.MATRICES:
            for packed in (False, True):
                model.matrix_product(layer, m, np.zeros((1, n_in.get(m, model.info.n_embd)), np.float32), packed)
    per_row = {}
    for n in sizes:
        xs = {m: rng.standard_normal((n, n_in.get(m, model.info.n_embd))).astype(np.float32)
              for m in model.MATRICES}

        def stack(packed, xs=xs):
            for layer in range(model.info.n_layer):
                for m in model.MATRICES:
                    model.matrix_product(layer, m, xs[m], packed=packed)
        t = {"ggml": [], "ours": []}
        for _ in range(repeats):
            for name, packed in (("ggml", False), ("ours", True)):
                t[name].append(timed(lambda packed=packed: stack(packed), 1))
        per_row[n] = {k: round(statistics.median(v) / n / model.info.n_layer * 1e3, 4) for k, v in t.items()}
        per_row[n]["ratio"] = round(per_row[n]["ggml"] / per_row[n]["ours"], 2)
    return per_row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=None)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cell-tokens", type=int, default=300)
    ap.add_argument("--decode-tokens", type=int, default=64)
    ap.add_argument("--arithmetic", action="store_true", help="only (d): log-probabilities against llama.cpp")
    ap.add_argument("--products", action="store_true",
                    help="only (e): the layer matrices' products, ggml's and ours, by batch size")
    ap.add_argument("--no-arithmetic", action="store_true", help="skip (d)")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time in this process's CPU seconds (with --threads 1: a busy machine's figures)")
    ap.add_argument("--decision-pairs", type=int, default=40,
                    help="(d): HumanEvalFix pairs checked with both arithmetics (0: skip)")
    args = ap.parse_args()
    if args.cpu_time:
        global CLOCK
        CLOCK = time.process_time

    model = Model(args.model)
    if args.arithmetic:
        figures = {"arithmetic": arithmetic(model, args.threads)}
        if args.decision_pairs:
            figures["decisions"] = decisions(args.model, args.threads, args.decision_pairs)
        print(json.dumps(figures))
        return
    if args.products:
        figures = {"model": model.path.name, "products_ms_per_row_layer": products(model, args.repeats),
                   "clock": "cpu" if args.cpu_time else "wall", "instruction_sets": instruction_sets()}
        print(f"model {model.path.name}, one thread, medians of {args.repeats} runs; "
              f"ran on: {describe(figures['instruction_sets'])}")
        print("(e) a layer's matrix products, ms per row (every layer in turn): ggml's / ours")
        for n, r in figures["products_ms_per_row_layer"].items():
            print(f"    {n:4d} rows: ggml {r['ggml']:.3f}, ours {r['ours']:.3f} -> {r['ratio']:.2f}x")
        print(json.dumps(figures))
        return
    n_layer = model.n_layer
    cell = model.tokenizer.encode(inspect.getsource(json.decoder)).ids[:args.cell_tokens]
    ref = LlamaCppModel(model.path, n_threads=args.threads, n_ctx=1024, n_batch=512)
    ref_q8 = LlamaCppModel(q8_0_copy(model.path), n_threads=args.threads, n_ctx=1024, n_batch=512)
    ours = model.session(n_threads=args.threads, n_ctx=1024, **checker_settings(model.info.layer_type))
    plain = model.session(n_threads=args.threads, n_ctx=1024)
    f16 = model.session(n_threads=args.threads, n_ctx=1024, **FAST)     # every layer type converted
    rows = np.arange(len(cell))

    # (a) batched scoring, all logits
    def batched(session):
        def run():
            session.truncate(0)
            session.forward(cell)
            session.head(rows, top_k=1, logits=True)
        return run

    ours_batched, plain_batched, f16_batched = batched(ours), batched(plain), batched(f16)

    def ours_batched_layers():   # (c): the layers alone, no head
        ours.truncate(0)
        ours.forward(cell)

    def ref_batched():
        ref.score(cell, all_logits=True)

    def ref_q8_batched():
        ref_q8.score(cell, all_logits=True)

    # (b) sequential decoding, logits of every token
    seq = cell[:args.decode_tokens]

    def decode(session):
        def run():
            session.truncate(0)
            for t in seq:
                session.forward([t])
                session.head([0], top_k=1, logits=True)
        return run

    ours_decode, plain_decode, f16_decode = decode(ours), decode(plain), decode(f16)

    def ref_decode():
        ref.clear()
        for i, t in enumerate(seq):
            ref.decode_one(t, i)

    runs = {"ours_batched": ours_batched, "ours_batched_layers": ours_batched_layers,
            "plain_batched": plain_batched, "ref_batched": ref_batched,
            "ref_q8_batched": ref_q8_batched, "ours_decode": ours_decode,
            "plain_decode": plain_decode, "ref_decode": ref_decode,
            "f16_batched": f16_batched, "f16_decode": f16_decode}
    for fn in runs.values():
        fn()  # warm-up: page in the weights, size the buffers
    t = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, fn in runs.items():
            t[name].append(timed(fn, 1))
    med = {k: statistics.median(v) for k, v in t.items()}
    tps = {
        "ours_batched_tps": len(cell) / med["ours_batched"],
        "llamacpp_batched_tps": len(cell) / med["ref_batched"],
        "ours_decode_tps": len(seq) / med["ours_decode"],
        "llamacpp_decode_tps": len(seq) / med["ref_decode"],
        "ours_plain_batched_tps": len(cell) / med["plain_batched"],
        "ours_plain_decode_tps": len(seq) / med["plain_decode"],
        "llamacpp_q8_0_batched_tps": len(cell) / med["ref_q8_batched"],
        "ours_f16_batched_tps": len(cell) / med["f16_batched"],
        "ours_f16_decode_tps": len(seq) / med["f16_decode"],
    }

    # per-step costs on a one-token decode at position ~100 (the context of a typical cell)
    ours.truncate(0)
    ours.forward(cell[:100])
    ours.set_shortlist(code_shortlist(model.tokenizer, 1024))
    probe = cell[100]
    reps = 30

    def step(hook=None):
        ours.forward([probe], hook=hook)
        ours.truncate(100)

    noop = lambda s: None  # noqa: E731
    # paired, interleaved runs: the hook's cost (~0.1 ms) is far below the machine's drift
    plain, hooked = [], []
    for _ in range(reps * 4):
        plain.append(timed(lambda: step(), 1))
        hooked.append(timed(lambda: step(noop), 1))
    t_fwd = statistics.median(plain)                         # 30 layers, no hook (one C call)
    t_hook = statistics.median(np.subtract(hooked, plain))   # + a Python hook call per layer
    ours.forward([probe])
    t_full_head = timed(lambda: ours.head([0], [probe], top_k=5), reps)
    t_short_head = timed(lambda: ours.head([0], [probe], top_k=5, shortlist=True), reps)
    ours.truncate(100)
    t_layer = t_fwd / n_layer
    t_decode_step = t_fwd + t_full_head
    costs = {
        "decode_step_ms": t_decode_step * 1e3,
        "layer_ms": t_layer * 1e3,
        "hook_overhead": t_hook / t_decode_step,
        "full_head_cost_layers": t_full_head / t_layer,
        "exit_test_cost_layers": t_short_head / t_layer,
        "exit_test_cost_fraction": t_short_head / t_decode_step,
    }
    # (c) the layers per row by batch size, after 100 positions of context
    layers_ms_by_rows = {}
    for n_rows in (1, 2, 4, 8, 16, 32, 64):
        def batch(n_rows=n_rows):
            ours.forward(cell[100:100 + n_rows])
            ours.truncate(100)
        batch()
        layers_ms_by_rows[n_rows] = round(timed(batch, max(3, reps // 3)) / n_rows * 1e3, 3)
    bounds = {
        "bound_sequential_exact": round((1 / tps["llamacpp_decode_tps"]) / t_fwd, 3),
        "bound_batched_exact": round(med["ref_batched"] / med["ours_batched_layers"], 3),
    }

    # how far the shortlist exit test is from the full head, on the cell, at a few layers
    short_err = shortlist_error(ours, cell, (9, 19, n_layer - 1))

    figures = {
        "model": model.path.name, "threads": args.threads, "cell_tokens": len(cell),
        "decode_tokens": len(seq), **{k: round(v, 2) for k, v in tps.items()},
        "ratio_batched": round(tps["ours_batched_tps"] / tps["llamacpp_batched_tps"], 3),
        "ratio_decode": round(tps["ours_decode_tps"] / tps["llamacpp_decode_tps"], 3),
        "ratio_batched_vs_llamacpp_q8_0": round(tps["ours_batched_tps"] / tps["llamacpp_q8_0_batched_tps"], 3),
        **{k: round(v, 4) for k, v in costs.items()},
        **bounds, "layers_ms_per_row_by_batch": layers_ms_by_rows,
        "shortlist_error": short_err,
        "layer_type": model.info.layer_type, "settings": checker_settings(model.info.layer_type),
        "clock": "cpu" if args.cpu_time else "wall", "instruction_sets": instruction_sets(),
        "arithmetic": None if args.no_arithmetic else arithmetic(model, args.threads),
    }
    print(f"model {model.path.name}, {args.threads} threads, medians of {args.repeats} runs; "
          f"ran on: {describe(figures['instruction_sets'])}")
    print(f"(a) batched scoring, {len(cell)} tokens, all logits: ours {tps['ours_batched_tps']:.0f} tok/s, "
          f"llama.cpp {tps['llamacpp_batched_tps']:.0f} tok/s -> ratio {figures['ratio_batched']:.2f}; "
          f"ours with llama.cpp's arithmetic {tps['ours_plain_batched_tps']:.0f} tok/s; "
          f"llama.cpp on a q8_0 copy {tps['llamacpp_q8_0_batched_tps']:.0f} tok/s")
    print(f"(b) sequential decoding, {len(seq)} tokens: ours {tps['ours_decode_tps']:.1f} tok/s, "
          f"llama.cpp {tps['llamacpp_decode_tps']:.1f} tok/s -> ratio {figures['ratio_decode']:.2f}; "
          f"ours with llama.cpp's arithmetic {tps['ours_plain_decode_tps']:.1f} tok/s")
    print(f"layer matrices {model.info.layer_type}: the checker runs {checker_settings(model.info.layer_type)}; "
          f"with every layer converted to f16 (FAST): batched {tps['ours_f16_batched_tps']:.0f} tok/s, "
          f"decoding {tps['ours_f16_decode_tps']:.1f} tok/s ({figures['clock']} time)")
    print(f"decode step {costs['decode_step_ms']:.2f} ms, one layer {costs['layer_ms']:.3f} ms")
    print(f"exit hook (Python call after each of {n_layer} layers): "
          f"{costs['hook_overhead']:.1%} of a decode step")
    print(f"full-vocabulary head: {costs['full_head_cost_layers']:.1f} layers; "
          f"shortlist exit test (1024 tokens + reference): {costs['exit_test_cost_layers']:.2f} layers "
          f"({costs['exit_test_cost_fraction']:.1%} of a decode step)")
    print("(c) layers only, ms per row by batch size: "
          + ", ".join(f"{n}: {ms:.2f}" for n, ms in layers_ms_by_rows.items()))
    print(f"    with exact K,V every token runs every layer, so at best (no head, no rejection): "
          f"sequential {bounds['bound_sequential_exact']:.2f}x llama.cpp decoding, batched "
          f"{bounds['bound_batched_exact']:.2f}x llama.cpp batched scoring of {len(cell)} tokens")
    for layer, e in short_err.items():
        print(f"shortlist vs full head after layer {layer}: same top-1 {e['top1_agree']:.1%}, "
              f"reference log-prob over-estimated by {e['ref_logprob_excess_median']:.3f} nat (median), "
              f"{e['ref_logprob_excess_p90']:.3f} (90th pct); same 'p>=0.2' decision {e['p20_decision_agree']:.1%}")
    print(json.dumps(figures))
    ref.close()
    ref_q8.close()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
