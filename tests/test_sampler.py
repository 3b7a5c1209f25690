"""Sampler chain: pure numpy, no model needed, so every test here is fast."""
from __future__ import annotations

import math
import os
import pathlib
import sys

import numpy as np
import pytest

from jupyter_codecheck.decoding.sampler import NoCandidateError, SamplerChain, SamplerConfig


def lp(*probs):
    return np.log(np.array(probs, dtype=np.float64))


def draws(chain, ids, logprobs, n, **kw):
    return [chain.sample(ids, logprobs, **kw) for _ in range(n)]


def test_greedy_is_argmax_in_any_order():
    ids, p = np.array([5, 9, 2, 7]), lp(0.1, 0.6, 0.2, 0.05)
    rng = np.random.default_rng(1)
    for _ in range(5):
        perm = rng.permutation(4)
        assert SamplerChain().sample(ids[perm], p[perm]) == 9


def test_greedy_tie_takes_smaller_id():
    assert SamplerChain().sample([11, 4, 8], lp(0.4, 0.4, 0.2)) == 4
    assert SamplerChain().sample([4, 11, 8], lp(0.4, 0.4, 0.2)) == 4


def test_exclusion_skips_best():
    ids, p = [3, 1, 2], lp(0.7, 0.2, 0.1)
    assert SamplerChain().sample(ids, p) == 3
    assert SamplerChain().sample(ids, p, exclude=[3]) == 1
    assert SamplerChain().sample(ids, p, exclude={3, 1}) == 2


def test_no_candidate_errors():
    with pytest.raises(NoCandidateError):
        SamplerChain().sample([3, 1], lp(0.7, 0.3), exclude=(1, 3))
    with pytest.raises(NoCandidateError):
        SamplerChain(temperature=1.0).sample([], [])
    assert issubclass(NoCandidateError, ValueError)


def test_bad_inputs_and_no_mutation():
    with pytest.raises(ValueError, match="1-D"):
        SamplerChain().sample([1, 2, 3], lp(0.5, 0.5))
    with pytest.raises(ValueError, match="1-D"):
        SamplerChain().sample([[1, 2]], [[0.0, 0.0]])
    ids, p = np.array([4, 2, 9]), lp(0.2, 0.5, 0.3)
    ids0, p0 = ids.copy(), p.copy()
    SamplerChain(temperature=1.0, top_k=2, top_p=0.9, min_p=0.1).sample(ids, p, exclude=[2])
    np.testing.assert_array_equal(ids, ids0)
    np.testing.assert_array_equal(p, p0)


def test_top_k_1_with_temperature_equals_greedy():
    rng = np.random.default_rng(7)
    for _ in range(20):
        ids = rng.permutation(100)[:8]
        p = np.log(rng.dirichlet(np.ones(8)))
        greedy = SamplerChain().sample(ids, p)
        chain = SamplerChain(temperature=1.5, top_k=1, seed=5)
        assert set(draws(chain, ids, p, 10)) == {greedy}


def test_small_top_p_keeps_only_top():
    chain = SamplerChain(temperature=1.0, top_p=0.05, seed=2)
    assert set(draws(chain, [1, 2, 3], lp(0.3, 0.4, 0.3), 200)) == {2}
    # top_p just above the top token's mass must admit the runner-up too (and only it).
    chain = SamplerChain(temperature=1.0, top_p=0.45, seed=2)
    assert set(draws(chain, [1, 2, 3], lp(0.25, 0.4, 0.35), 500)) == {2, 3}


def test_top_p_renormalises_over_candidates():
    # Candidates hold only 0.5 of the vocabulary mass; renormalised the top token has 0.8,
    # so top_p=0.75 keeps it alone (without renormalising, 0.4 < 0.75 would admit more).
    chain = SamplerChain(temperature=1.0, top_p=0.75, seed=0)
    assert set(draws(chain, [1, 2], lp(0.4, 0.1), 300)) == {1}


def test_min_p_filters_low_tokens():
    ids, p = [10, 20, 30, 40], lp(0.5, 0.3, 0.15, 0.05)
    chain = SamplerChain(temperature=1.0, min_p=0.2, seed=3)  # threshold 0.2 * 0.5 = 0.1
    seen = draws(chain, ids, p, 2000)
    assert 40 not in seen                     # 0.05 < 0.1: never drawn
    assert set(seen) == {10, 20, 30}          # 0.15 >= 0.1: still drawn
    unfiltered = draws(SamplerChain(temperature=1.0, seed=3), ids, p, 2000)
    assert 40 in unfiltered                   # proves the filter, not luck, removed it


def test_seeded_determinism_and_reset():
    ids, p = list(range(6)), lp(0.3, 0.25, 0.2, 0.1, 0.1, 0.05)
    a, b = SamplerChain(temperature=1.0, seed=42), SamplerChain(temperature=1.0, seed=42)
    first = draws(a, ids, p, 50)
    assert first == draws(b, ids, p, 50)
    assert first != draws(SamplerChain(temperature=1.0, seed=43), ids, p, 50)
    a.reset()
    assert draws(a, ids, p, 50) == first
    # seed=None is a fixed default, not entropy: two default chains agree.
    c, d = SamplerChain(temperature=1.0), SamplerChain(temperature=1.0)
    assert draws(c, ids, p, 50) == draws(d, ids, p, 50)
    # the input order does not change the draw sequence.
    a.reset()
    assert draws(a, ids[::-1], p[::-1], 50) == first


def test_temperature_flattens_distribution():
    ids, p = [0, 1], lp(0.8, 0.2)

    def freq(t):
        return np.mean(np.array(draws(SamplerChain(temperature=t, seed=11), ids, p, 2000)) == 1)

    low, one, high = freq(0.5), freq(1.0), freq(5.0)
    assert abs(high - 0.5) < abs(one - 0.5) < abs(low - 0.5)
    # Expected: T=0.5 -> 0.2^2/(0.8^2+0.2^2) ~ 0.059;  T=1 -> 0.2;  T=5 -> ~0.43.
    assert abs(low - 0.0588) < 0.02 and abs(one - 0.2) < 0.03 and abs(high - 0.431) < 0.04


@pytest.mark.parametrize("kw, field", [
    (dict(temperature=-0.1), "temperature"), (dict(temperature=math.nan), "temperature"),
    (dict(temperature=math.inf), "temperature"),
    (dict(top_k=-1), "top_k"), (dict(top_k=2.5), "top_k"),
    (dict(top_p=0.0), "top_p"), (dict(top_p=1.1), "top_p"), (dict(top_p=math.nan), "top_p"),
    (dict(min_p=-0.1), "min_p"), (dict(min_p=1.0), "min_p"),
    (dict(seed=-1), "seed"),
])
def test_config_validation(kw, field):
    with pytest.raises(ValueError, match=field):
        SamplerConfig(**kw)
    with pytest.raises(ValueError, match=field):
        SamplerChain(**kw)


def test_overrides_build_config():
    base = SamplerConfig(temperature=0.7, top_k=40)
    chain = SamplerChain(base, seed=3)
    assert chain.config == SamplerConfig(temperature=0.7, top_k=40, seed=3)
    assert SamplerChain().config == SamplerConfig()
    with pytest.raises(ValueError, match="top_p"):
        SamplerChain(base, top_p=0)


def test_describe():
    assert SamplerChain().describe() == "greedy"
    assert SamplerChain(top_k=40, top_p=0.9).describe() == "greedy"
    assert (SamplerChain(temperature=0.7, top_k=40, top_p=0.95, min_p=0.05, seed=3).describe()
            == "top-k 40 | top-p 0.95 | min-p 0.05 | temp 0.7 | seed 3")
    assert SamplerChain(temperature=1.0).describe() == "temp 1"


def test_pure_module_imports_no_engine():
    import subprocess
    code = ("import sys, jupyter_codecheck.decoding.sampler; "
            "bad = [m for m in sys.modules if m.startswith(('jupyter_codecheck.engine', 'llama_cpp', 'ggml'))]; "
            "assert not bad, bad")
    root = str(pathlib.Path(__file__).resolve().parents[1])  # import the package from this checkout
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root,
                   env={**os.environ, "PYTHONPATH": root})
