"""The exit lens on held-out standard-library code: how well layers predict, plain head vs lens,
and what a reference-token exit test built on the lens would do.

    python bench/lens.py [--threads 2] [--refit] [--cache-dir DIR]

Held-out text: one 512-token chunk from the middle of each of lens.HELDOUT_MODULES (never
trained on, never used to choose the ridge or anything else). Rows 1..n-2 of each chunk are
scored (row i predicts token i+1; row 0 is the attention sink, kept at full depth by any exit
policy and left out).

Per layer (every 3rd and the last), through the plain head and through the lens:
    top1    share of rows whose next token is the argmax
    accept  share of rows the acceptance rule passes (p >= 0.2 or rank < 10)

Exit test "reference token is top-1 AND p >= 0.5 at layer k (via the lens)", applied cumulatively
from layer MIN_EXIT on (a row leaves at the first layer that passes; in "exact" KV mode a row's
own states do not depend on other rows' exits, so this is simulated from full-depth states):
    layer_fraction   mean of (exit_layer + 1) / n_layer, rows never passing count as 1
    exited           share of rows that leave before the last layer
    wrong_exit       share of exited rows the full model would NOT accept
The same with the shortlist head (code_shortlist(1024) + the chunk's own tokens) for the test.

The last line is one JSON object with all figures.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time

import numpy as np

from jupyter_codecheck.engine import Model
from jupyter_codecheck.engine import lens as L
from jupyter_codecheck.engine.shortlist import code_shortlist

MIN_EXIT = 6
EXIT_P = 0.5
ACCEPT_P, ACCEPT_RANK = 0.2, 10


def accept(res):
    return (res.ref_logprob >= np.log(ACCEPT_P)) | (res.ref_rank < ACCEPT_RANK)


def exit_test(res):
    return (res.ref_rank == 0) & (res.ref_logprob >= np.log(EXIT_P))


def simulate(passes: np.ndarray, final_accept: np.ndarray, n_layer: int) -> dict:
    """passes: (n_layer, n) exit-test results (rows < MIN_EXIT and the last layer ignored)."""
    n = passes.shape[1]
    exit_layer = np.full(n, n_layer - 1)
    left = np.ones(n, dtype=bool)
    per_layer = {}
    for k in range(MIN_EXIT, n_layer - 1):
        go = left & passes[k]
        exit_layer[go] = k
        left &= ~go
        per_layer[k] = int(go.sum())
    exited = exit_layer < n_layer - 1
    wrong = exited & ~final_accept
    return {
        "layer_fraction": round(float(((exit_layer + 1) / n_layer).mean()), 4),
        "exited": round(float(exited.mean()), 4),
        "wrong_exit": round(float(wrong.sum() / max(1, exited.sum())), 4),
        "wrong_exit_rows": int(wrong.sum()),
        "exited_rows": int(exited.sum()),
        "exits_per_layer": per_layer,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=None)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--refit", action="store_true",
                    help="fit a fresh lens (timed) in a temporary cache instead of using the cache")
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--max-tokens", type=int, default=L.DEFAULT_MAX_TOKENS)
    args = ap.parse_args(argv)

    model = Model(args.model)
    tok = model.tokenizer
    n_layer = model.n_layer
    s = model.session(n_threads=args.threads, n_ctx=512)

    # forward speed now (the machine may be shared): one 512-token chunk, no hook
    chunks = L.middle_chunks(tok, L.HELDOUT_MODULES)
    s.truncate(0)
    t0 = time.perf_counter()
    s.forward(chunks[0])
    fwd_tps = len(chunks[0]) / (time.perf_counter() - t0)

    t0 = time.perf_counter()
    if args.refit:
        with tempfile.TemporaryDirectory() as d:
            lens = L.default_lens(model, cache_dir=d, max_tokens=args.max_tokens)
    else:
        lens = L.default_lens(model, cache_dir=args.cache_dir, max_tokens=args.max_tokens)
    lens_seconds = time.perf_counter() - t0
    print(f"lens: {lens.meta} (obtained in {lens_seconds:.1f}s; forward now {fwd_tps:.0f} tok/s)",
          flush=True)

    table_layers = sorted(set(range(0, n_layer, 3)) | {n_layer - 1})
    base = code_shortlist(tok, 1024)
    plain = {k: {"top1": [], "accept": []} for k in table_layers}
    lensd = {k: {"top1": [], "accept": []} for k in table_layers}
    pass_full, pass_short, final_acc = [], [], []
    t_head = 0.0
    n_rows = 0
    for chunk in chunks:
        states = L.layer_states(s, chunk)
        rows = np.arange(1, len(chunk) - 1)
        refs = np.asarray(chunk)[rows + 1]
        n_rows += rows.size
        s.set_shortlist(np.union1d(base, np.asarray(chunk)).astype(np.int32))
        pf = np.zeros((n_layer, rows.size), dtype=bool)
        ps = np.zeros((n_layer, rows.size), dtype=bool)
        t0 = time.perf_counter()
        for k in range(n_layer):
            x = states[k][rows]
            need_lens = k in table_layers or MIN_EXIT <= k < n_layer - 1
            if need_lens:
                mapped = lens.apply(k, x)
                r = s.head_states(mapped, refs, top_k=1)
                if k in table_layers:
                    lensd[k]["top1"].append(r.ref_rank == 0)
                    lensd[k]["accept"].append(accept(r))
                pf[k] = exit_test(r)
                if k == n_layer - 1:
                    final_acc.append(accept(r))
                if MIN_EXIT <= k < n_layer - 1:
                    ps[k] = exit_test(s.head_states(mapped, refs, top_k=1, shortlist=True))
            if k in table_layers:
                r = r if k == n_layer - 1 else s.head_states(x, refs, top_k=1)
                plain[k]["top1"].append(r.ref_rank == 0)
                plain[k]["accept"].append(accept(r))
        t_head += time.perf_counter() - t0
        pass_full.append(pf)
        pass_short.append(ps)

    def share(d):
        return {k: {m: round(float(np.concatenate(v).mean()), 4) for m, v in d[k].items()}
                for k in d}

    plain_t, lens_t = share(plain), share(lensd)
    final_acc = np.concatenate(final_acc)
    ex_full = simulate(np.concatenate(pass_full, axis=1), final_acc, n_layer)
    ex_short = simulate(np.concatenate(pass_short, axis=1), final_acc, n_layer)
    decision_agree = float((np.concatenate(pass_full, axis=1)[MIN_EXIT:n_layer - 1] ==
                            np.concatenate(pass_short, axis=1)[MIN_EXIT:n_layer - 1]).mean())

    print(f"held-out rows: {n_rows} ({', '.join(L.HELDOUT_MODULES)}); heads took {t_head:.0f}s")
    print(f"{'layer':>5} | {'plain top1':>10} {'lens top1':>9} | {'plain acc':>9} {'lens acc':>8}")
    for k in table_layers:
        print(f"{k:>5} | {plain_t[k]['top1']:>10.3f} {lens_t[k]['top1']:>9.3f} | "
              f"{plain_t[k]['accept']:>9.3f} {lens_t[k]['accept']:>8.3f}")
    print(f"exit test: ref top-1 and p >= {EXIT_P} via lens, layers {MIN_EXIT}..{n_layer - 2}; "
          f"full model accepts {final_acc.mean():.3f} of rows")
    for name, e in (("full head", ex_full), ("shortlist head", ex_short)):
        print(f"  {name:>14}: layer fraction {e['layer_fraction']:.3f}, exited {e['exited']:.3f}, "
              f"wrong exits {e['wrong_exit']:.4f} ({e['wrong_exit_rows']}/{e['exited_rows']})")
    print(f"  per-row-layer exit decision agreement, shortlist vs full head: {decision_agree:.4f}")
    print(json.dumps({
        "lens": lens.meta, "lens_seconds": round(lens_seconds, 1),
        "forward_tokens_per_s": round(fwd_tps, 1), "heldout_rows": n_rows,
        "heldout_modules": list(L.HELDOUT_MODULES),
        "plain": plain_t, "lens_table": lens_t, "final_accept": round(float(final_acc.mean()), 4),
        "exit_rule": {"min_layer": MIN_EXIT, "p": EXIT_P, "top1": True},
        "exit_full_head": ex_full, "exit_shortlist_head": ex_short,
        "shortlist_decision_agree": round(decision_agree, 4),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
