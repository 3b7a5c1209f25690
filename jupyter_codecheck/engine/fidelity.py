"""How far a Session arithmetic's log-probabilities are from the model file's exact function in f32
(issue 49's item 5): one implementation for bench/f32_fidelity.py and tests/test_f32_fidelity.py.

The reference is the engine's own f32 arithmetic (`F32_REFERENCE`): the layer matrices dequantized
exactly to f32 copies for every batch, f32 activations and K,V (what bench/engine.py (d) calls the
exact function). A source is read as check() reads a cell, after <|endoftext|>, in one batch.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

F32_REFERENCE = {"kv_f32": True, "batch_weights": "f32", "batch_min_rows": 1}


def cell_tokens(model, source: str) -> list[int]:
    """<|endoftext|> then the source's tokens."""
    tok = model.tokenizer
    eot = next(i for i in range(min(tok.n_vocab, 512)) if tok.piece(i) == b"<|endoftext|>")
    return [eot] + tok.encode(source).ids


def next_token_logprobs(model, sequences: Sequence[Sequence[int]], settings: dict) -> np.ndarray:
    """The log-probability of every next token of each sequence (each read alone, in one batch)
    under the Session `settings`, concatenated; 1 thread."""
    s = model.session(n_threads=1, n_ctx=2048, **settings)
    out = []
    try:
        for ids in sequences:
            s.truncate(0)
            s.forward(ids)
            out.append(s.head(np.arange(len(ids) - 1), ref=ids[1:]).ref_logprob)
    finally:
        s.close()
    return np.concatenate(out)


def distance(logprobs: np.ndarray, reference: np.ndarray) -> dict:
    """|logprobs - reference| per token: the mean in nats, the shares within 0.05 and 0.25, the
    largest."""
    d = np.abs(np.asarray(logprobs, dtype=np.float64) - reference)
    return {"tokens": int(d.size), "mean_nats": round(float(d.mean()), 4),
            "within_0.05": round(float(np.mean(d <= 0.05)), 4),
            "within_0.25": round(float(np.mean(d <= 0.25)), 4), "max_nats": round(float(d.max()), 3)}
