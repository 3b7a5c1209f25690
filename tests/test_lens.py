"""The exit lens: fitting, persistence, the disk cache, and that it beats the plain head.

Kept fast (a few hundred tokens of forward passes in all): the fit quality at realistic sizes is
measured in bench/lens.py.

Margins (observed on SmolLM2-135M, stated once):
- MSE_RATIO: held-out mean squared error of the lens map at layer 12, divided by that of the
  identity map (the plain head's input), for a lens fitted on TRAIN_TOKENS tokens. Observed ~0.20;
  asserted < 0.5.
- TOP1_GAIN: held-out top-1 agreement at layer 12, lens minus plain head, same small fit.
  Observed +0.10 (plain 0.02); asserted >= 0.05.
"""
from __future__ import annotations

import inspect
import json.decoder

import numpy as np
import pytest

from jupyter_codecheck.engine import lens as L

TRAIN_TOKENS = 1024
MIDDLE = 12
MSE_RATIO = 0.5
TOP1_GAIN = 0.05


@pytest.fixture(scope="module")
def session(model):
    s = model.session(n_threads=2, n_ctx=512)
    yield s
    s.close()


@pytest.fixture(scope="module")
def tiny_lens(model):
    """Fitted through the public API on ~300 tokens."""
    return L.ExitLens.fit(model, [inspect.getsource(json.decoder)], max_tokens=300,
                          chunk_tokens=150, n_threads=2)


@pytest.fixture(scope="module")
def split(model, session):
    """Every layer's states for TRAIN_TOKENS training tokens and 256 held-out tokens."""
    train = []
    for chunk in L.source_chunks(model.tokenizer, L.module_sources(L.TRAINING_MODULES[:12])):
        train.append(L.layer_states(session, chunk))
        if sum(t.shape[1] for t in train) >= TRAIN_TOKENS:
            break
    held = L.middle_chunks(model.tokenizer, L.HELDOUT_MODULES[:1], chunk_tokens=256)[0]
    return train, held, L.layer_states(session, held)


def test_fit_is_identity_at_last_layer(model, tiny_lens):
    lens = tiny_lens
    assert lens.A.shape == (model.n_layer, model.n_embd, model.n_embd)
    assert lens.b.shape == (model.n_layer, model.n_embd)
    assert lens.A.dtype == np.float32 and lens.b.dtype == np.float32
    assert lens.meta["n_tokens"] == 300
    assert lens.meta["n_chunks"] >= 2                     # chunks of <= 150 tokens
    assert lens.meta["n_rows"] == 300 - lens.meta["n_chunks"] * L.SKIP_FIRST  # position 0 skipped
    np.testing.assert_array_equal(lens.A[-1], np.eye(model.n_embd, dtype=np.float32))
    np.testing.assert_array_equal(lens.b[-1], 0)
    x = np.random.default_rng(0).normal(size=(5, model.n_embd)).astype(np.float32)
    np.testing.assert_array_equal(lens.apply(model.n_layer - 1, x), x)
    assert np.isfinite(lens.A).all() and np.isfinite(lens.b).all()
    # an earlier layer's map is not the identity
    assert np.abs(lens.A[0] - np.eye(model.n_embd)).max() > 1e-2


def test_normal_equations_match_direct_least_squares(model):
    """The accumulated float64 sums give the same map as lstsq on the stacked rows (ridge 0)."""
    rng = np.random.default_rng(1)
    L_, d, n = 3, 4, 50
    chunks = [rng.normal(size=(L_, n, d)).astype(np.float32) for _ in range(3)]
    eq = L.NormalEquations(L_, d)
    for c in chunks:
        eq.add(c)
    lens = eq.solve(ridge=0.0)
    X = np.concatenate([c[0] for c in chunks]).astype(np.float64)
    Y = np.concatenate([c[-1] for c in chunks]).astype(np.float64)
    W, *_ = np.linalg.lstsq(np.hstack([X, np.ones((len(X), 1))]), Y, rcond=None)
    np.testing.assert_allclose(lens.A[0], W[:d], atol=1e-5)
    np.testing.assert_allclose(lens.b[0], W[d], atol=1e-5)


def test_save_load_round_trip(model, tiny_lens, tmp_path):
    path = tmp_path / "lens.npz"
    tiny_lens.save(path)
    back = L.ExitLens.load(path, model)
    np.testing.assert_array_equal(back.A, tiny_lens.A)
    np.testing.assert_array_equal(back.b, tiny_lens.b)
    assert back.meta == tiny_lens.meta
    x = np.random.default_rng(0).normal(size=(3, model.n_embd)).astype(np.float32)
    np.testing.assert_array_equal(back.apply(7, x), tiny_lens.apply(7, x))


def test_load_rejects_other_shape_and_version(model, tmp_path):
    other = L.ExitLens(np.stack([np.eye(64, dtype=np.float32)] * 24), np.zeros((24, 64)))
    path = tmp_path / "other.npz"
    other.save(path)
    assert L.ExitLens.load(path).n_embd == 64          # no model given: loads as it is
    with pytest.raises(ValueError, match=r"n_layer=24, n_embd=64; this model has n_layer=30, "
                                         r"n_embd=576"):
        L.ExitLens.load(path, model)
    with np.load(path) as z:
        fields = dict(z)
    fields["format_version"] = np.int64(L.FORMAT_VERSION + 1)
    np.savez(tmp_path / "future.npz", **fields)
    with pytest.raises(ValueError, match="format version"):
        L.ExitLens.load(tmp_path / "future.npz", model)
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="not a readable lens file"):
        L.ExitLens.load(tmp_path / "junk.npz", model)


def test_apply_checks_arguments(tiny_lens):
    with pytest.raises(ValueError, match="layer must be"):
        tiny_lens.apply(30, np.zeros((1, 576), np.float32))
    with pytest.raises(ValueError, match="states must have shape"):
        tiny_lens.apply(3, np.zeros((1, 100), np.float32))


def test_default_lens_uses_disk_cache(model, tmp_path, monkeypatch):
    calls = []
    real_fit = L.ExitLens.fit.__func__

    def counting_fit(cls, *a, **kw):
        calls.append(kw.get("max_tokens"))
        return real_fit(cls, *a, **kw)

    monkeypatch.setattr(L.ExitLens, "fit", classmethod(counting_fit))
    first = L.default_lens(model, cache_dir=tmp_path, max_tokens=32)
    files = list(tmp_path.glob("lens-*.npz"))
    assert len(files) == 1 and calls == [32]
    second = L.default_lens(model, cache_dir=tmp_path, max_tokens=32)
    assert calls == [32]                                  # loaded, not refitted
    np.testing.assert_array_equal(first.A, second.A)
    # other settings, other key
    assert L.cache_key(model, max_tokens=32, ridge=L.DEFAULT_RIDGE) != \
        L.cache_key(model, max_tokens=64, ridge=L.DEFAULT_RIDGE)
    # a corrupt cache file is refitted and replaced
    files[0].write_bytes(b"garbage")
    L.default_lens(model, cache_dir=tmp_path, max_tokens=32)
    assert calls == [32, 32]
    L.ExitLens.load(files[0], model)


def test_lens_beats_plain_head_on_held_out_rows(model, session, split):
    train, held, held_states = split
    eq = L.NormalEquations(model.n_layer, model.n_embd)
    for states in train:
        eq.add(states[:, L.SKIP_FIRST:])
    lens = eq.solve(L.DEFAULT_RIDGE)
    rows = np.arange(1, len(held) - 1)
    refs = np.asarray(held)[rows + 1]
    x, y = held_states[MIDDLE][rows], held_states[-1][rows]
    mse_lens = ((lens.apply(MIDDLE, x) - y) ** 2).mean()
    mse_identity = ((x - y) ** 2).mean()
    assert mse_lens < MSE_RATIO * mse_identity, (mse_lens, mse_identity)
    plain = (session.head_states(x, refs, top_k=1).ref_rank == 0).mean()
    mapped = (session.head_states(lens.apply(MIDDLE, x), refs, top_k=1).ref_rank == 0).mean()
    assert mapped >= plain + TOP1_GAIN, (plain, mapped)
