"""The gain rule (decoding/verify.py) on the fake model: an edit is weighed on the rest of the cell."""
from __future__ import annotations

import math

import numpy as np
import pytest

from fake_model import FakeLayerModel
from jupyter_codecheck.decoding.scorer import Scorer
from jupyter_codecheck.decoding.verify import Probe, Variant, aligned_span, verify

TARGET = [11, 12, 13, 14, 15, 16, 17, 18]
LEAD = 5          # the token before the cell (a document start)


def setup(cell, **kw):
    """The fake model knows LEAD + TARGET; the context holds LEAD + the cell as written."""
    model = FakeLayerModel([LEAD] + TARGET, max_batch=kw.pop("max_batch", 64))
    scorer = Scorer(model, None, top_k=12)
    scorer.extend([LEAD] + list(cell), [None] * (len(cell) + 1))
    return model, scorer


def run(cell, variants, *, cont=3, **kw):
    model, scorer = setup(cell, max_batch=kw.pop("max_batch", 64))
    out = verify(scorer, cell, variants, offset=1,
                 token_at=lambda i: LEAD if i < 0 else cell[i],
                 continuation_end=lambda k: min(len(cell), k + cont), max_rows=kw.pop("max_rows", 64), **kw)
    return {v.key: v for v in out}, model, scorer


def by_hand(model, context, tokens):
    """log P(tokens | context) from the fake model's full-depth distribution, token by token."""
    total = 0.0
    for t in tokens:
        total += float(model.logprobs(context, model.n_layer - 1)[t])
        context = context + [t]
    return total


def test_aligned_span():
    assert aligned_span([1, 2, 3, 4], [1, 9, 3, 4]) == (1, 2)
    assert aligned_span([1, 2, 3], [1, 2, 3]) == (3, 0)
    assert aligned_span([1, 2, 2], [1, 2]) == (2, 0)        # p + s never exceeds the shorter
    assert aligned_span([1, 3], [1, 2, 3]) == (1, 1)


def test_the_real_fix_gains_and_a_wrong_one_loses():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]                  # 13 was written as 40
    fix = [11, 12, 13, 14, 15, 16, 17, 18]
    wrong = [11, 12, 41, 14, 15, 16, 17, 18]
    verdicts, model, _ = run(cell, [Variant(fix, "fix"), Variant(wrong, "wrong")])
    assert verdicts["fix"].gain > 2.0
    assert verdicts["wrong"].gain < verdicts["fix"].gain
    # the numbers are the model's own: edit + continuation against written + continuation
    v = verdicts["fix"]
    assert (v.start, v.end) == (2, 6)
    ctx = [LEAD, 11, 12]
    assert v.logprob_edit == pytest.approx(by_hand(model, ctx, [13, 14, 15, 16]), abs=1e-4)
    assert v.logprob_written == pytest.approx(by_hand(model, ctx, [40, 14, 15, 16]), abs=1e-4)


def test_insertion_and_deletion_are_weighed_on_the_same_written_span():
    cell = [11, 12, 14, 15, 16, 17]                          # 13 missing
    verdicts, model, _ = run(cell, [Variant([11, 12, 13, 14, 15, 16, 17], "insert"),
                                    Variant([11, 14, 15, 16, 17], "delete")])
    assert verdicts["insert"].gain > 2.0
    assert verdicts["delete"].gain < verdicts["insert"].gain - 2.0
    ins = verdicts["insert"]
    assert ins.logprob_edit == pytest.approx(by_hand(model, [LEAD, 11, 12], [13, 14, 15, 16]), abs=1e-4)
    assert ins.logprob_written == pytest.approx(by_hand(model, [LEAD, 11, 12], [14, 15, 16]), abs=1e-4)


def test_a_clean_cell_gains_nothing_from_edits():
    verdicts, _, _ = run(TARGET, [Variant([11, 12, 40, 14, 15, 16, 17, 18], "a"),
                                  Variant([11, 13, 14, 15, 16, 17, 18], "b"),
                                  Variant(TARGET, "same")])
    assert "same" not in verdicts                            # no edit, no verdict
    assert all(v.gain < 0 for v in verdicts.values())


def test_variants_share_rows_and_the_branch_rows_are_dropped():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]
    variants = [Variant([11, 12, t, 14, 15, 16, 17, 18], t) for t in (13, 41, 42)]
    verdicts, model, scorer = run(cell, variants)
    assert len(verdicts) == 3
    # one batch: the root (12) is shared; each chain is its edit + continuation, last token free
    (rows, parents), = [b for b in model.batch_log if b[1] is not None]
    assert rows == 1 + 4 * 3                                 # written and three edits: 4 rows each
    assert parents[0] == -1 and all(p >= 0 for p in parents[1:])
    assert model.tree == [] and model.context == [LEAD] + cell
    assert scorer.branch_stats["verify"][0] == 1


def test_places_are_packed_into_batches_within_the_room():
    cell = [11, 40, 13, 14, 41, 16, 17, 18]
    variants = [Variant([11, 12, 13, 14, 41, 16, 17, 18], "first"),
                Variant([11, 40, 13, 14, 15, 16, 17, 18], "second")]
    verdicts, model, _ = run(cell, variants, max_rows=7)
    assert set(verdicts) == {"first", "second"}
    assert len([b for b in model.batch_log if b[1] is not None]) == 2
    assert all(rows <= 7 for rows, par in model.batch_log if par is not None)


def test_the_bound_skips_a_candidate_that_cannot_reach_its_floor():
    cell = [11, 12, 13, 14, 15, 16, 17, 18]
    model, scorer = setup(cell)

    def written_logprob(i):
        return float(model.logprobs([LEAD] + cell[:i], model.n_layer - 1)[cell[i]])

    def first_logprob(i, token):
        return float(model.logprobs([LEAD] + cell[:i], model.n_layer - 1)[token])

    pruned = []
    args = dict(offset=1, token_at=lambda i: LEAD if i < 0 else cell[i],
                continuation_end=lambda k: min(len(cell), k + 3), max_rows=64,
                written_logprob=written_logprob, first_logprob=first_logprob, pruned=pruned)
    before = scorer.rows_scored
    out = verify(scorer, cell, [Variant([11, 12, 40, 14, 15, 16, 17, 18], "hopeless", floor=2.0)], **args)
    assert out == [] and pruned == ["hopeless"] and scorer.rows_scored == before
    # without a floor the same variant is scored, and its gain is indeed below the bound
    out = verify(scorer, cell, [Variant([11, 12, 40, 14, 15, 16, 17, 18], "scored")], **args)
    bound = first_logprob(2, 40) - sum(written_logprob(i) for i in range(2, 6))
    assert len(out) == 1 and out[0].gain <= bound + 1e-4


def test_a_place_larger_than_a_batch_gets_no_verdict():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]
    verdicts, _, _ = run(cell, [Variant([11, 12, 13, 14, 15, 16, 17, 18], "fix")], max_rows=3)
    assert verdicts == {}


def test_gains_are_finite_numbers():
    cell = [11, 12, 40, 14]
    verdicts, _, _ = run(cell, [Variant([11, 12, 13, 14], "x"), Variant([11, 12, 14], "y")], cont=8)
    assert all(math.isfinite(v.gain) for v in verdicts.values())
    assert np.isfinite([v.logprob_written for v in verdicts.values()]).all()


def test_the_gain_splits_into_the_edit_and_the_continuation():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]
    verdicts, model, _ = run(cell, [Variant([11, 12, 13, 14, 15, 16, 17, 18], "fix"),
                                    Variant([11, 12, 14, 15, 16, 17, 18], "delete")])
    fix, delete = verdicts["fix"], verdicts["delete"]
    ctx = [LEAD, 11, 12]
    lp = lambda c, t: float(model.logprobs(c, model.n_layer - 1)[t])   # noqa: E731
    assert fix.edit_gain == pytest.approx(lp(ctx, 13) - lp(ctx, 40), abs=1e-4)
    # a deletion's edit part is the deleted token's cost saved: never negative
    assert delete.edit_gain == pytest.approx(-lp(ctx, 40), abs=1e-4) and delete.edit_gain > 0


def test_the_probe_scores_in_full_only_what_its_first_tokens_keep_in_reach():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]                  # 13 was written as 40
    fix = Variant([11, 12, 13, 14, 15, 16, 17, 18], "fix", floor=2.0)
    wrong = Variant([11, 12, 41, 14, 15, 16, 17, 18], "wrong", floor=2.0)
    free = Variant([11, 12, 42, 14, 15, 16, 17, 18], "free")            # no floor: always in full
    full, _, _ = run(cell, [fix, wrong, free], cont=5)
    pruned = []
    probed, _, scorer = run(cell, [fix, wrong, free], cont=5, probe=Probe(tokens=1, slack=0.5),
                            pruned=pruned)
    # the fix keeps its full verdict, the number it has unscreened
    assert probed["fix"].gain == pytest.approx(full["fix"].gain, abs=1e-5)
    assert probed["fix"].end == full["fix"].end
    assert probed["free"].gain == pytest.approx(full["free"].gain, abs=1e-5)
    # the wrong edit is out after its first written token, and says so
    assert "wrong" not in probed and pruned == ["wrong"]
    assert full["wrong"].gain < 2.0
    assert scorer.branch_stats["verify"][0] == 2               # the screen, then the rest


def test_the_probe_screens_a_deletion_on_its_continuation_only():
    cell = [11, 12, 13, 40, 15, 16, 17, 18]                  # 14 was written as 40
    ids = [11, 12, 13, 15, 16, 17, 18]                        # deleting 40 saves its cost only
    full, _, _ = run(cell, [Variant(ids, "delete")], cont=5)
    assert full["delete"].edit_gain > 2.0 and full["delete"].continuation_gain() < 2.0
    for continuation_only, kept in ((False, True), (True, False)):
        pruned = []
        probed, _, _ = run(cell, [Variant(ids, "delete", floor=2.0, continuation_only=continuation_only)],
                           cont=5, probe=Probe(tokens=1, slack=0.0), pruned=pruned)
        assert ("delete" in probed) == kept and (pruned == ["delete"]) == (not kept)


def test_a_recheck_scores_only_what_the_edit_reaches():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]
    fix = Variant([11, 12, 13, 14, 15, 16, 17, 18], "fix")
    cache: dict = {}
    first, _, scorer = run(cell, [fix], cont=2, cache=cache)
    assert scorer.rows_scored > 0 and cache
    # the same cell again: nothing is scored, the verdict is the same
    again, _, scorer = run(cell, [fix], cont=2, cache=cache)
    assert scorer.branch_stats.get("verify", (0,))[0] == 0
    assert again["fix"].gain == first["fix"].gain
    # an edit after the place's compared tokens (2..5) keeps it; one inside them does not
    later = cell[:7] + [41]
    kept, _, scorer = run(later, [Variant(fix.ids[:7] + [41], "fix")], cont=2, cache=cache)
    assert scorer.branch_stats.get("verify", (0,))[0] == 0 and kept["fix"].gain == first["fix"].gain
    inside = cell[:4] + [42] + cell[5:]
    moved, _, scorer = run(inside, [Variant(fix.ids[:4] + [42] + fix.ids[5:], "fix")], cont=2, cache=cache)
    assert scorer.branch_stats["verify"][0] == 1 and moved["fix"].logprob_edit != first["fix"].logprob_edit


def _exact(model, cell):
    """log p of the cell's token i (or of `token` there) at full depth, given what precedes it."""
    def written(i):
        return float(model.logprobs([LEAD] + cell[:i], model.n_layer - 1)[cell[i]])

    def first(i, token):
        return float(model.logprobs([LEAD] + cell[:i], model.n_layer - 1)[token])
    return written, first


def test_the_written_side_read_from_the_walk_needs_no_rows_and_gives_the_same_gain():
    cell = [11, 12, 40, 14, 15, 16, 17, 18]
    variants = [Variant([11, 12, 13, 14, 15, 16, 17, 18], "fix"), Variant([11, 12, 41, 14, 15, 16, 17, 18], "wrong")]
    scored, _, scored_scorer = run(cell, variants, cont=4)
    model, _ = setup(cell)
    written, _ = _exact(model, cell)
    read, _, scorer = run(cell, variants, cont=4, walk_logprob=written)
    for key in ("fix", "wrong"):
        assert read[key].gain == pytest.approx(scored[key].gain, abs=1e-5)
        assert read[key].edit_gain == pytest.approx(scored[key].edit_gain, abs=1e-5)
    # the written chain (4 rows after the shared root) is not scored again
    assert scorer.rows_scored == scored_scorer.rows_scored - 4
    # a place with one written token the walk did not read is scored in rows, as before
    partial, _, scorer = run(cell, variants, cont=4, walk_logprob=lambda i: None if i == 4 else written(i))
    assert scorer.rows_scored == scored_scorer.rows_scored
    assert partial["fix"].gain == pytest.approx(scored["fix"].gain, abs=1e-5)


def test_the_free_screen_drops_a_one_token_edit_its_own_part_leaves_out_of_reach():
    # 13 is what the model expects, the tokens after it are not: the free bound cannot rule the
    # edits out (the written continuation could lose a lot), their own tokens can
    cell = [11, 12, 13, 40, 41, 42, 43, 18]
    wrong = Variant([11, 12, 44, 40, 41, 42, 43, 18], "wrong", floor=2.0)
    insert = Variant([11, 12, 45, 13, 40, 41, 42, 43, 18], "insert", floor=2.0)
    model, _ = setup(cell)
    written, first = _exact(model, cell)
    kw = dict(cont=4, written_logprob=written, first_logprob=first)
    pruned = []
    _, fake, _ = run(cell, [wrong, insert], probe=Probe(tokens=1, slack=0.0, edit_slack=3.0),
                     pruned=pruned, **kw)
    # the edits' own tokens are far less likely than what is written: out without a row
    assert set(pruned) >= {"insert", "wrong"}
    assert not any(t in (44, 45) for tokens, _ in fake.base_log for t in tokens)
    # with a slack wide enough, the same edits are screened on their first written token instead
    pruned = []
    _, fake, _ = run(cell, [wrong, insert], probe=Probe(tokens=1, slack=0.0, edit_slack=50.0), pruned=pruned, **kw)
    assert sorted(pruned) == ["insert", "wrong"]
    assert {44, 45} <= {t for tokens, _ in fake.base_log for t in tokens}


def test_verification_rows_exit_early_only_where_the_model_lets_branch_rows_stop():
    from jupyter_codecheck.decoding.exit_policy import make_policy
    cell = [11, 12, 40, 14, 15, 16, 17, 18]
    fix = Variant([11, 12, 13, 14, 15, 16, 17, 18], "fix")
    early = make_policy("ref-prob:0.5,min:2")
    exact, _, _ = run(cell, [fix], cont=5)
    for stops in (False, True):
        model, scorer = setup(cell)
        model.branch_stops = stops
        out = verify(scorer, cell, [fix], offset=1, token_at=lambda i: LEAD if i < 0 else cell[i],
                     continuation_end=lambda k: min(len(cell), k + 5), max_rows=64, early=early)
        early_rows = int(scorer.exit_histogram[:model.n_layer - 1].sum())
        # the fake model is sure of the cell's own continuation from layer 2 on: those rows stop
        assert (early_rows > 0) == stops
        # a row that stops early is read at its exit layer: the gain is an estimate, not exact
        assert (out[0].gain == pytest.approx(exact["fix"].gain, abs=1e-5)) == (not stops)
        assert out[0].gain > 2.0


def test_a_deletion_with_nothing_after_it_to_score_needs_no_batch():
    """Deleting the cell's last token leaves no row to score when the walk's own reading gives
    the written side: its verdict is the written tokens' cost, and no empty batch runs."""
    cell = TARGET + [40]
    verdicts, _, scorer = run(cell, [Variant(TARGET, "drop")], walk_logprob=lambda i: -3.0)
    assert verdicts["drop"].gain == pytest.approx(3.0)
    assert scorer.batches == 1                     # the cell itself, no branch batch
