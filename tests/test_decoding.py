"""Every decision path of edit decoding, the exit policies and the scorer, on the fake model."""
from __future__ import annotations

import numpy as np
import pytest

from fake_model import STOP, FakeLayerModel
from jupyter_codecheck.decoding.acceptance import AcceptanceRule
from jupyter_codecheck.decoding.dist import Dist
from jupyter_codecheck.decoding.editor import (EditDecoder, EditEvent, EditorConfig, TokenEvent,
                                              healable_tokens)
from jupyter_codecheck.decoding.exit_policy import (AllOf, AnyOf, Banded, FixedLayer, IfPrevAccepted,
                                                    LayerStats, Margin, MaxProb, MinLayer, PerLayer,
                                                    RefArgmax, RefProb, RefRank, RefTop1,
                                                    StableArgmax, make_policy)
from jupyter_codecheck.decoding.sampler import SamplerChain
from jupyter_codecheck.decoding.scorer import Cancelled, Scorer

TARGET = [11, 12, 13, 14, 15, 16, 17, 18]


def make_decoder(target=TARGET, *, mode="batched", policy=None, sampler=None, n_ctx=None, **cfg):
    model = FakeLayerModel(target, n_ctx=n_ctx)
    scorer = Scorer(model, policy, top_k=12)
    cfg.setdefault("stop_ids", frozenset({STOP}))
    cfg.setdefault("tail_ids", frozenset())
    dec = EditDecoder(scorer, AcceptanceRule(lenient_tokens=0), sampler or SamplerChain(),
                      EditorConfig(mode=mode, **{"window": 4, **cfg}))
    return model, scorer, dec


def decode(inp, target=TARGET, *, mode="batched", policy=None, masked=None, free=None,
           sampler=None, **cfg):
    model, _, dec = make_decoder(target, mode=mode, policy=policy, sampler=sampler, **cfg)
    events = list(dec.run(inp, masked=masked, free=free))
    tokens = {e.index: e.decision for e in events if isinstance(e, TokenEvent)}
    edits = [(e.kind, e.start, e.end, e.tokens) for e in events if isinstance(e, EditEvent)]
    return tokens, edits, dec.output, model


def apply(inp, edits):
    out, pos = [], 0
    for kind, s, e, toks in sorted(edits, key=lambda x: (x[1], x[2])):
        out += inp[pos:s] + toks
        pos = e
    return out + inp[pos:]


@pytest.mark.parametrize("mode", ["batched", "sequential"])
def test_clean_input_is_all_accepted(mode):
    tokens, edits, out, _ = decode(TARGET, mode=mode)
    assert edits == [] and out == TARGET
    assert set(tokens.values()) == {"accept"} and sorted(tokens) == list(range(len(TARGET)))


@pytest.mark.parametrize("mode", ["batched", "sequential"])
@pytest.mark.parametrize("inp,kind,expect_edit", [
    ([11, 12, 40, 14, 15, 16], "change", ("change", 2, 3, [13])),
    ([11, 12, 14, 15, 16], "insert 1", ("insert", 2, 2, [13])),
    ([11, 12, 15, 16, 17], "insert 2", ("insert", 2, 2, [13, 14])),
    ([11, 12, 40, 13, 14, 15], "delete 1", ("delete", 2, 3, [])),
    ([11, 12, 40, 41, 13, 14, 15], "delete 2", ("delete", 2, 4, [])),
    ([11, 12, 40, 41, 42, 15, 16, 17], "replace (unsynchronised, recovers)", ("replace", 2, 5, [13, 14])),
])
def test_edit_kinds(mode, inp, kind, expect_edit):
    tokens, edits, out, _ = decode(inp, mode=mode)
    assert edits[0] == expect_edit, kind
    assert out[:len(apply(inp, edits))] == apply(inp, edits)
    assert apply(inp, edits) == TARGET[:len(apply(inp, edits))]
    assert sorted(tokens) == list(range(len(inp)))  # every input token got exactly one decision


def test_corrections_are_scored_side_by_side_and_the_chosen_one_joins_the_context():
    # a change: the three candidates of the rejected position are one batch of branch rows
    _, edits, out, model = decode([11, 12, 40, 14, 15, 16], mode="sequential", n_candidates=3,
                                candidate_ratio=1e9)
    assert edits == [("change", 2, 3, [13])]
    trees = [(n, p) for n, p in model.batch_log if p is not None]
    assert trees == [(3, [-1, -1, -1])]
    assert model.context == out == TARGET[:len(out)]
    # unsynchronised: the candidates' rows are its first step (not scored again); each step
    # grows every candidate's text by one row in one batch
    _, edits, out, model = decode([11, 12, 40, 41, 42, 15, 16, 17], mode="sequential", n_candidates=3,
                                candidate_ratio=1e9)
    assert edits[0] == ("replace", 2, 5, [13, 14])
    trees = [(n, p) for n, p in model.batch_log if p is not None]
    assert trees[:3] == [(3, [-1, -1, -1]), (3, [0, 1, 2]), (3, [3, 4, 5])]
    assert model.context == out
    # the filler texts never rejoin: once they are longer than the rejoin found (size 5: three
    # input tokens become two), they are no longer grown (max_unsync would allow 3 more batches)
    assert trees[-1] == (2, [7, 8]) and len(trees) == 4


def test_branch_batches_are_counted_by_purpose():
    # the unsynchronised replace above: one batch of candidates (correction), then the search
    # grows the texts (unsync); check() reports these as stats["branch"]
    model, scorer, dec = make_decoder(mode="sequential", n_candidates=3, candidate_ratio=1e9)
    list(dec.run([11, 12, 40, 41, 42, 15, 16, 17]))
    trees = [(n, p) for n, p in model.batch_log if p is not None]
    stats = scorer.branch_stats
    assert set(stats) == {"correction", "unsync"}
    assert stats["correction"][:2] == [1, 3]
    assert stats["unsync"][:2] == [len(trees) - 1, sum(n for n, _ in trees[1:])]
    assert all(s[2] >= 0.0 for s in stats.values())


def test_far_fetched_candidates_are_not_tried():
    # the fake model's favourite has p=0.9; fillers 1 and 2 have ~0.05 and ~0.025: only the first
    # is at least 1/20 as likely
    _, edits, _, model = decode([11, 12, 40, 14, 15, 16], mode="sequential", n_candidates=3)
    assert edits == [("change", 2, 3, [13])]
    assert [n for n, p in model.batch_log if p is not None] == [2]


def test_unsynchronised_mode_gives_up_and_flags():
    inp = [11, 12] + [40 + k for k in range(12)]
    tokens, edits, out, _ = decode(inp, max_unsync=3)
    assert tokens[2] == "flag"
    assert out[:3] == [11, 12, 40]   # the context was rolled back to the input


@pytest.mark.parametrize("mode", ["batched", "sequential"])
def test_a_dense_stretch_of_rejections_is_flagged_without_a_search(mode):
    # a stretch the model cannot read: every token rejected, every search in vain
    inp = [11, 12] + [40 + k % 20 for k in range(40)]
    searched = decode(inp, mode=mode, anchored=True, max_unsync=3, dense_rejections=10**6)
    dense = decode(inp, mode=mode, anchored=True, max_unsync=3, dense_span=8, dense_rejections=3)
    # the same flags (the last token aside: at the end of the input a change always rejoins)
    assert [dense[0][k] for k in range(2, 41)] == [searched[0][k] for k in range(2, 41)] == ["flag"] * 39

    def branch_batches(run):
        return sum(1 for _, parents in run[3].batch_log if parents is not None)
    # the first three rejections are searched (a correction and two steps each); then no branch row
    _, _, dec = make_decoder(mode=mode, anchored=True, max_unsync=3, dense_span=8, dense_rejections=3)
    list(dec.run(inp))
    assert dec.unsearched == 40 - 3
    assert branch_batches(dense) == 3 * 3 and branch_batches(searched) > 39 * 3
    # a stretch ends where enough tokens are kept again: two changes, then a third one far on
    target = list(range(11, 39))
    two = target[:2] + [40, 41] + target[4:20] + [50] + target[21:]
    tokens, edits, _, _ = decode(two, target=target, mode=mode, anchored=True, dense_span=17, dense_rejections=2)
    assert "accept" not in (tokens[2], tokens[3]) and tokens[20] == "change" and edits[-1][:2] == ("change", 20)
    tokens, edits, _, _ = decode(two, target=target, mode=mode, anchored=True, dense_span=18, dense_rejections=2)
    assert tokens[20] == "flag" and edits[-1][1] < 20


def test_stop_token_deletes_a_short_tail():
    inp = [11, 12, 13, 40, 41]
    tokens, edits, out, _ = decode(inp, target=[11, 12, 13])
    assert edits == [("delete", 3, 5, [])]
    assert tokens[3] == tokens[4] == "delete"


def test_stop_token_never_deletes_a_long_tail():
    inp = [11, 12, 13] + [40 + k for k in range(10)]
    _, edits, _, _ = decode(inp, target=[11, 12, 13], tail_delete_max=4, max_unsync=2)
    assert all(e[0] != "delete" or e[2] - e[1] <= 2 for e in edits)


def test_end_of_input_appends_confident_closers_only():
    _, edits, _, _ = decode([11, 12, 13], target=[11, 12, 13, 50], tail_ids=frozenset({50}))
    assert edits == [("insert", 3, 3, [50])]
    _, edits, _, _ = decode([11, 12, 13], target=[11, 12, 13, 50], tail_ids=frozenset({51}))
    assert edits == []


def test_masked_and_free_tokens_are_kept():
    inp = [11, 12, 40, 14, 15]
    tokens, edits, _, _ = decode(inp, masked=[False, False, True, False, False])
    assert tokens[2] == "masked" and not any(e[1] <= 2 < e[2] for e in edits)
    tokens, edits, _, _ = decode(inp, free=[False, False, True, False, False])
    assert tokens[2] == "accept"


def test_first_token_always_accepted_and_lenient_start():
    rule = AcceptanceRule(lenient_tokens=2, lenient_floor=0.01)
    d = Dist(ref=5, ref_logprob=np.log(0.02), ref_rank=30, top_ids=np.array([1, 2]),
             top_logprobs=np.log([0.5, 0.3]), exit_layer=7, full_depth=True)
    assert rule.accepts(d, 5, 0) and rule.accepts(d, 5, 1) and not rule.accepts(d, 5, 2)
    d2 = Dist(ref=5, ref_logprob=np.log(0.001), ref_rank=300, top_ids=np.array([1]),
              top_logprobs=np.log([0.9]), exit_layer=7, full_depth=True)
    assert rule.accepts(d2, 5, 0) and not rule.accepts(d2, 5, 1)


def test_acceptance_combinations():
    d = Dist(ref=5, ref_logprob=np.log(0.1), ref_rank=3, top_ids=np.array([1, 2, 3, 4, 5]),
             top_logprobs=np.log([0.3, 0.2, 0.15, 0.12, 0.1]), exit_layer=7, full_depth=True)
    assert AcceptanceRule(prob=0.2, rank=9, lenient_tokens=0).accepts(d, 5, 9)
    assert not AcceptanceRule(prob=0.2, rank=9, combine="all", lenient_tokens=0).accepts(d, 5, 9)
    assert not AcceptanceRule(prob=None, rank=None, argmax=True, lenient_tokens=0).accepts(d, 5, 9)
    assert AcceptanceRule(prob=None, rank=None, argmax=True, lenient_tokens=0).accepts(d, 1, 9)
    with pytest.raises(ValueError):
        AcceptanceRule(prob=None, rank=None)


def _stats(layer, ref_p, ref_rank, top_p, n_layer=10):
    n = len(ref_p)
    top = np.array(top_p, dtype=np.float64)
    return LayerStats(layer, n_layer, np.arange(n), np.log(np.asarray(ref_p, float)),
                      np.asarray(ref_rank), np.tile(np.arange(top.shape[1]), (n, 1)), np.log(top),
                      np.ones(n, bool))


def test_exit_policy_atoms():
    s = _stats(5, [0.6, 0.3, 0.6], [0, 0, 2], [[0.6, 0.1], [0.3, 0.25], [0.7, 0.1]])
    assert RefProb(0.5).decide(s).tolist() == [True, False, True]
    assert RefRank(0).decide(s).tolist() == [True, True, False]
    assert RefArgmax().decide(s).tolist() == [True, True, False]
    assert RefTop1(0.5).decide(s).tolist() == [True, False, False]
    assert MaxProb(0.65).decide(s).tolist() == [False, False, True]
    assert Margin(1.0).decide(s).tolist() == [True, False, True]
    assert (RefTop1(0.5) | MaxProb(0.65)).decide(s).tolist() == [True, False, True]
    assert (RefArgmax() & Margin(1.0)).decide(s).tolist() == [True, False, False]


def test_exit_policy_schedule_and_bands():
    pol = MinLayer(RefArgmax(), 4, every=2)
    assert pol.test_layers(10) == {4, 6, 8, 9}     # and the last layer, whatever the step
    s3 = _stats(3, [0.9], [0], [[0.9, 0.01]])
    assert not pol.decide(s3).any()
    assert FixedLayer(6).test_layers(10) == {6}
    band = Banded(None, RefTop1(0.9), RefArgmax(), bounds=(3, 6))
    s = [_stats(l, [0.5], [0], [[0.5, 0.1]]) for l in (1, 4, 7)]
    assert [bool(band.decide(x)[0]) for x in s] == [False, False, True]
    per = PerLayer({2: RefArgmax()})
    assert per.test_layers(10) == {2} and per.decide(_stats(2, [0.5], [0], [[0.5, 0.1]]))[0]
    st = StableArgmax(2)
    st.start(1)
    assert not st.decide(s[0])[0] and st.decide(s[1])[0]
    gate = IfPrevAccepted(RefArgmax())
    x = _stats(5, [0.9, 0.9], [0, 0], [[0.9, 0.01], [0.9, 0.01]])
    x.prev_accepted = np.array([True, False])
    assert gate.decide(x).tolist() == [True, False]


def test_policy_names_round_trip_and_errors():
    p = make_policy("ref-top1:0.5+margin:1,min:8,every:2,after-accept")
    assert isinstance(p, IfPrevAccepted) and p.test_layers(30) == set(range(8, 29, 2)) | {29}
    assert make_policy(None) is None and make_policy("none") is None
    assert isinstance(make_policy("default"), IfPrevAccepted)
    assert isinstance(make_policy("ref-argmax|max-prob:0.9"), AnyOf)
    assert isinstance(make_policy("ref-argmax+stable:2"), AllOf)
    for bad in ("nope", "ref-prob:x", "ref-argmax,min:x", "ref-argmax,every:0"):
        with pytest.raises(ValueError):
            make_policy(bad)


@pytest.mark.parametrize("policy", [RefTop1(0.7), MinLayer(RefArgmax(), 3, every=2), FixedLayer(4),
                                    make_policy("default")])
def test_early_exit_gives_the_full_depth_decisions(policy):
    inp = [11, 12, 40, 14, 15, 16, 17, 18]
    full = decode(inp)
    early = decode(inp, policy=policy)
    assert early[0] == full[0] and early[1] == full[1]
    # and it saved layers: rows left before the last layer
    hist = early[3]
    assert hist.layer_calls <= full[3].layer_calls


def test_rows_that_may_not_exit_run_to_full_depth():
    model = FakeLayerModel(TARGET, n_layer=8)
    scorer = Scorer(model, RefTop1(0.7), top_k=4)
    dists = scorer.extend(TARGET[:5], TARGET[1:6], exit_ok=[True, False, True, False, True])
    assert [d.exit_layer for d in dists] == [5, 7, 5, 7, 5]
    assert [d.full_depth for d in dists] == [False, True, False, True, False]


def test_healable_rows_are_decided_at_full_depth():
    # the editor keeps rows judging a token healing may reject away from early exits: healing
    # reads the full-depth top-1, which an exit layer does not know
    model = FakeLayerModel(TARGET, n_layer=8)
    dec = EditDecoder(Scorer(model, RefTop1(0.7), top_k=12), AcceptanceRule(lenient_tokens=0),
                      SamplerChain(), EditorConfig(window=8, pieces=lambda t: b"t%d" % t,
                                                   healable=frozenset({13, 16})))
    depth = {e.index: e.dist.exit_layer for e in dec.run(TARGET)
             if isinstance(e, TokenEvent) and e.dist is not None}
    assert depth[2] == depth[5] == 7 and depth[3] == depth[4] == 5   # TARGET[2] = 13


def test_healable_rows_whose_longer_tokens_are_shortlisted_are_settled_at_the_last_layer():
    # heal_in_shortlist: the last layer's cheap head scores every token healing could want, so
    # those rows skip the full head (a Dist not read through it: full_depth False)
    model = FakeLayerModel(TARGET, n_layer=8)
    scorer = Scorer(model, RefTop1(0.7), top_k=12)
    dec = EditDecoder(scorer, AcceptanceRule(lenient_tokens=0), SamplerChain(),
                      EditorConfig(window=8, pieces=lambda t: b"t%d" % t,
                                   healable=frozenset({13, 16}), heal_in_shortlist=frozenset({13})))
    dists = {e.index: e.dist for e in dec.run(TARGET) if isinstance(e, TokenEvent) and e.dist is not None}
    assert (dists[2].exit_layer, dists[2].full_depth) == (7, False)     # TARGET[2] = 13
    assert (dists[5].exit_layer, dists[5].full_depth) == (7, True)      # 16: the full head
    assert dists[3].exit_layer == dists[4].exit_layer == 5


def test_a_test_at_the_last_layer_spares_the_full_head():
    assert MinLayer(RefTop1(0.7), -1).test_layers(8) == {7}
    assert make_policy("head").test_layers(30) == {29}
    # every third layer from layer 2 misses the last of 28 (Qwen2.5-Coder-1.5B) but not of 30
    assert 27 in make_policy("lens").test_layers(28) and 29 in make_policy("lens").test_layers(30)
    model = FakeLayerModel(TARGET, n_layer=8)
    scorer = Scorer(model, make_policy("ref-top1:0.7,min:-1"), top_k=4)
    dists = scorer.extend(TARGET[:5], TARGET[1:6], last_ok=[True, False, True, True, True])
    assert [d.exit_layer for d in dists] == [7] * 5
    assert [d.full_depth for d in dists] == [False, True, False, False, False]
    assert scorer.full_heads == 1 and scorer.exit_histogram[7] == 5
    assert model.layer_calls == 8        # nothing tested (or stopped) before the last layer


def test_exit_layers_follow_the_policy():
    model = FakeLayerModel(TARGET, n_layer=8)      # confidence(l) = 0.3 + 0.6 (l+1)/8
    scorer = Scorer(model, RefTop1(0.7), top_k=4)
    dists = scorer.extend(TARGET[:5], TARGET[1:6])
    # p >= 0.7 first at layer 5 (0.3 + 0.6*6/8 = 0.75)
    assert [d.exit_layer for d in dists] == [5] * 5 and not any(d.full_depth for d in dists)
    assert scorer.exit_histogram[5] == 5


def test_cancellation_stops_within_a_layer_and_keeps_the_context():
    model = FakeLayerModel(TARGET)
    calls, armed = [], []
    scorer = Scorer(model, None, cancel=lambda: bool(armed) and len(calls) >= 3)
    model.on_layer = lambda layer: calls.append(layer)
    scorer.extend([11, 12], [12, 13])
    calls.clear()
    armed.append(True)
    with pytest.raises(Cancelled):
        scorer.extend([13, 14], [14, 15])
    assert len(calls) == 3 and model.context == [11, 12]


def test_sampled_corrections_are_reproducible_with_a_seed():
    def run(seed):
        model = FakeLayerModel(TARGET)
        dec = EditDecoder(Scorer(model, None, top_k=12), AcceptanceRule(lenient_tokens=0),
                          SamplerChain(temperature=1.5, seed=seed),
                          EditorConfig(stop_ids=frozenset({STOP}), tail_ids=frozenset()))
        return [(e.kind, e.start, e.tokens) for e in dec.run([11, 12, 40, 41, 42, 43, 44, 45, 46])
                if isinstance(e, EditEvent)]
    assert run(7) == run(7)


def test_token_healing_flags_a_broken_token_but_not_missing_whitespace():
    # 30 ")"  31 "):"  32 " print"  33 "\n"  34 "\n\n"
    pieces = {30: b")", 31: b"):", 32: b" print", 33: b"\n", 34: b"\n\n"}.get
    dec = EditDecoder(None, AcceptanceRule(lenient_tokens=0), SamplerChain(),
                      EditorConfig(pieces=pieces, heal_prob=0.3))
    dec.masked = dec.free = [False] * 3

    def dist(top, ref):          # the model: `top` at 0.6, the cell's token second at 0.1
        return Dist(ref=ref, ref_logprob=np.log(0.1), ref_rank=1, top_ids=np.array([top, ref]),
                    top_logprobs=np.log([0.6, 0.1]), exit_layer=7, full_depth=True)

    dec.inp = [30, 32, 33]       # `)` then ` print`: the model's `):` is not what follows
    assert not dec._ok(dist(31, 30), 0)
    dec.inp = [11, 12, 33]       # the cell ends with `\n` where the model prefers `\n\n`: kept
    assert dec._ok(dist(34, 33), 2)
    dec.inp = [11, 33, 32]       # `\n` then ` print`: also only layout
    assert dec._ok(dist(34, 33), 1)


def test_token_healing_needs_a_split_token_and_a_clear_preference():
    # 40 " l"  41 " len"  42 " =="  30 ")"  31 "):"  32 " print"  33 "\n"
    pieces = {40: b" l", 41: b" len", 42: b" ==", 30: b")", 31: b"):", 32: b" print", 33: b"\n"}.get
    dec = EditDecoder(None, AcceptanceRule(lenient_tokens=0), SamplerChain(),
                      EditorConfig(pieces=pieces, heal_prob=0.3, heal_ratio=4.0))
    dec.masked = dec.free = [False] * 3

    def dist(top, p_top, ref, p_ref):
        return Dist(ref=ref, ref_logprob=np.log(p_ref), ref_rank=1, top_ids=np.array([top, ref]),
                    top_logprobs=np.log([p_top, p_ref]), exit_layer=7, full_depth=True)

    dec.inp = [40, 42, 11]       # ` l ==` where the model wants ` len`: another name, not a split
    assert dec._ok(dist(41, 0.7, 40, 0.1), 0)
    dec.inp = [30, 32, 33]       # `)` then ` print`, the model wants `):`...
    assert not dec._ok(dist(31, 0.7, 30, 0.1), 0)      # ...7x more than `)`: healed
    assert dec._ok(dist(31, 0.35, 30, 0.3), 0)         # ...about as much: kept
    dec.cfg = EditorConfig(pieces=pieces, heal_prob=None)   # healing off (check(token_healing=False))
    assert dec._ok(dist(31, 0.7, 30, 0.1), 0)


def test_healable_tokens_are_starts_of_longer_tokens():
    pieces = [b")", b"):", b" l", b" len", b"\n", b"\n\n", b" (", b" ", b"x"]
    # `)` (`):`) and ` ` (` (`); not ` l` (` len` goes on with the word), `\n` (only whitespace
    # follows) or tokens nothing extends
    assert healable_tokens(pieces) == {0, 7}


ANCHORED_CASES = [
    [11, 12, 40, 14, 15, 16],                       # change
    [11, 12, 14, 15, 16],                           # insert 1
    [11, 12, 15, 16, 17],                           # insert 2
    [11, 12, 40, 13, 14, 15],                       # delete 1
    [11, 12, 40, 41, 13, 14, 15],                   # delete 2
    [11, 12, 40, 41, 42, 15, 16, 17],               # replace (unsynchronised, recovers)
    [11, 12] + [40 + k for k in range(12)],         # unsynchronised, gives up: flag
    [11, 12, 40, 14, 15, 41, 17, 18],               # two changes
]


@pytest.mark.parametrize("inp", ANCHORED_CASES)
def test_anchored_batched_walk_decides_as_the_sequential_one(inp):
    """Anchored (later tokens judged in the cell as written): the batched walk scores the input
    once, never throwing rows away, and takes the decisions of the one-token-at-a-time walk."""
    seq = decode(inp, mode="sequential", anchored=True, max_unsync=3)
    bat = decode(inp, mode="batched", anchored=True, max_unsync=3)
    assert bat[0] == seq[0] and bat[1] == seq[1]
    assert sorted(bat[0]) == list(range(len(inp)))
    # the same edits as when the rest is judged after the correction (one edit: same context)
    if inp in ANCHORED_CASES[:6]:
        assert bat[1] == decode(inp, mode="batched", max_unsync=3)[1]
    model = bat[3]
    plain = [n for n, parents in model.batch_log if parents is None]
    # every input row scored at most once (a stop token may end the cell before the last ones)
    assert sum(plain) <= len(inp) and model.context == inp[:len(model.context)]
    if not any(e[0] == "delete" and e[2] == len(inp) for e in bat[1]):
        assert sum(plain) == len(inp) and model.context == inp


def test_a_windows_unsynchronised_searches_run_side_by_side():
    """Two damaged stretches in one window: both searches for a rejoin run ahead of the walk,
    one batch per step for the two, and find what each finds alone (the sequential walk's)."""
    target = list(range(11, 27))
    inp = [11, 12, 40, 41, 42, 15, 16, 17, 18, 19, 43, 44, 45, 22, 23, 24]
    seq = decode(inp, target, mode="sequential", anchored=True, max_unsync=3)
    _, scorer, dec = make_decoder(target, anchored=True, max_unsync=3, window=32)
    events = list(dec.run(inp))
    edits = [(e.kind, e.start, e.end, e.tokens) for e in events if isinstance(e, EditEvent)]
    assert edits == seq[1] == [("replace", 2, 5, [13, 14]), ("replace", 10, 13, [20, 21])]
    assert {e.index: e.decision for e in events if isinstance(e, TokenEvent)} == seq[0]
    # one correction batch for the window's two rejections, then each search grows its text by
    # two tokens: two batches for both (one search after the other took four and a fresh first step)
    assert scorer.branch_stats["correction"][0] == 1
    assert scorer.branch_stats["unsync"][0] == 2


def test_anchored_branch_rows_follow_the_input_before_the_rejected_token():
    inp = [11, 12, 40, 14, 15, 41, 17, 18]
    _, edits, _, model = decode(inp, mode="batched", anchored=True, n_candidates=1)
    assert edits == [("change", 2, 3, [13]), ("change", 5, 6, [16])]
    # each rejection's candidate sees the input up to the rejected token, although the context
    # already holds the input beyond it; the window's two rejections share one branch batch
    assert model.base_log == [([13, 16], [2, 5])]
    # sampled corrections are drawn when the walk gets there: one batch per rejection
    _, edits, _, model = decode(inp, mode="batched", anchored=True, n_candidates=1,
                                sampler=SamplerChain(temperature=1e-6, seed=1))
    assert edits == [("change", 2, 3, [13]), ("change", 5, 6, [16])]
    assert model.base_log == [([13], [2]), ([16], [5])]


def test_anchored_stop_token_truncates_the_deleted_tail():
    inp = [11, 12, 13, 40, 41]
    tokens, edits, _, model = decode(inp, target=[11, 12, 13], mode="batched", anchored=True)
    assert edits == [("delete", 3, 5, [])]
    assert model.context == [11, 12, 13]


# A cell that repeats a pattern: the model rewrites the second copy's damaged middle after the
# first copy (22 23 24 where the input has 45 46 47 48), so prompt lookup drafts what it writes.
REPEAT_TARGET = [21, 22, 23, 24, 25, 30, 31, 26, 22, 23, 24, 25, 32]
REPEAT_INPUT = [21, 22, 23, 24, 25, 30, 31, 26, 45, 46, 47, 48, 25, 32]


@pytest.mark.parametrize("mode", ["batched", "sequential"])
def test_drafts_from_the_cell_save_unsynchronised_batches_and_change_nothing(mode):
    def run(draft):
        _, scorer, dec = make_decoder(REPEAT_TARGET, mode=mode, draft=draft, n_candidates=1)
        events = list(dec.run(REPEAT_INPUT))
        edits = [(e.kind, e.start, e.end, e.tokens) for e in events if isinstance(e, EditEvent)]
        decisions = [(e.index, e.decision) for e in events if isinstance(e, TokenEvent)]
        return edits, decisions, dec, scorer.branch_stats["unsync"][0]

    edits, decisions, plain, batches = run(0)
    assert edits == [("replace", 8, 12, [22, 23, 24])]
    assert batches == 3 and plain.drafted == 0                # 23, 24, 25: one batch each
    edits_d, decisions_d, drafted, batches_d = run(3)
    assert (edits_d, decisions_d) == (edits, decisions)
    if mode == "batched":
        # 23 is scored with the drafts 24 25 30 (after `22 23` in the cell's first copy): the
        # model takes 24 and 25 from them, and rejoins the input at 25
        assert batches_d == 1 and drafted.drafted == 3 and drafted.drafts_taken == 2
    else:
        # one draft token at a time: 23 with 24, then 25 with 30
        assert batches_d == 2 and drafted.drafted == 2 and drafted.drafts_taken == 1


def test_drafting_needs_a_nonnegative_length():
    with pytest.raises(ValueError, match="draft"):
        EditorConfig(draft=-1)


def test_branch_rows_of_settled_rejections_make_room_near_the_context_limit():
    # anchored and batched, the branch rows of each rejection stay until the next window: with
    # six rejections in one window and a context just larger than the cell, they must be dropped
    # between rejections (the engine refuses a full context); the edits are the same
    target = list(range(11, 27))
    inp = [40 + k if k % 2 else t for k, t in enumerate(target)]
    opts = dict(anchored=True, window=32, n_candidates=2, max_unsync=1)
    limit = len(inp) + EditorConfig(**opts).branch_reserve + 1
    _, _, free = make_decoder(target, **opts)
    expected = [(e.kind, e.start, e.end, e.tokens) for e in free.run(inp) if isinstance(e, EditEvent)]
    assert len(expected) >= 6
    # without a limit the rows of all the rejections pile up past it
    assert len(inp) + sum(s[1] for s in free.scorer.branch_stats.values()) > limit
    _, _, tight = make_decoder(target, n_ctx=limit, context_limit=limit, **opts)
    edits = [(e.kind, e.start, e.end, e.tokens) for e in tight.run(inp) if isinstance(e, EditEvent)]
    assert edits == expected
