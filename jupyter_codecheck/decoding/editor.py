"""Edit decoding: walk the cell's own tokens, keep the plausible ones, edit the rest minimally.

At input position i the model's distribution (a `Dist`) judges the cell's token x_i with the
`AcceptanceRule`. When it rejects x_i, the sampler chain picks the model's token c (never x_i;
with greedy sampling also the next `n_candidates - 1` likeliest), and ONE more model step after c
tells the edit apart:

    deletion   c equals x_{i+1} (or x_{i+2}) and the model then accepts x_{i+2} (x_{i+3})
    change     the model then accepts x_{i+1}: c replaced x_i
    insertion  the model then accepts x_i again: c was missing before x_i

Otherwise the decoder is *unsynchronised*: it keeps emitting the model's tokens and, after each,
looks for a place to rejoin the input (the model accepts x_j, and for j >= i+2 the last output
token equals x_{j-1}); after `max_unsync` tokens without rejoining it gives up, rolls the
context back and keeps x_i as a flagged token (a finding with no replacement). A stop token
before the end deletes the tail only when the tail is short; past the end of the input, a few
confident tokens may be appended (an unclosed bracket). The output is a minimal edit of the
input: no prompt text, no rewrite.

What the tokens after an edit are judged in: the cell as written (`anchored`, check()'s default)
or the cell as corrected so far. Either way an edit is chosen after its correction (the candidates
and their next step are scored in the corrected text); anchored, the walk then goes on in the
input's own context, so one edit does not make the rest of the cell look wrong.

Batched and anchored, the input goes into the context in windows that no decision invalidates
(aggressive decoding: every row judges the cell's own next token and leaves at its exit layer);
a rejection's candidates, and their texts while unsynchronised, are branch rows that follow the
input just before the rejected token (`Scorer.branch(..., base=)`). Batched and not anchored, the
decoder verifies a window after each accepted token, keeps the accepted run, drops the rows after
the first rejection, scores the candidates as branch rows that follow the context and appends the
chosen one. Sequential, one input token is scored at a time.

`run()` is a generator of events, so results stream as they are decided.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from .acceptance import AcceptanceRule
from .dist import Dist
from .sampler import NoCandidateError, SamplerChain
from .scorer import Scorer
from .unsync_search import UnsyncSearch

ACCEPT, MASKED, CHANGE, DELETE, FLAG = "accept", "masked", "change", "delete", "flag"
NOT_KEPT = (CHANGE, DELETE, FLAG)        # the decisions that do not keep the token as written
INSERT, REPLACE = "insert", "replace"


@dataclass
class TokenEvent:
    """The decision about input token `index`."""
    index: int
    decision: str          # accept | masked | change | delete | flag
    dist: Dist | None      # the model's view of that position (None: nothing predicted it)
    searched: bool = True  # False: flagged in a dense stretch, with no search for an edit


@dataclass
class EditEvent:
    """Input tokens [start, end) become `tokens` (insert: start == end)."""
    kind: str              # change | insert | delete | replace
    start: int
    end: int
    tokens: list[int]
    dist: Dist | None = None   # the model's view where the edit starts


@dataclass
class EditorConfig:
    mode: str = "batched"          # "batched" | "sequential"
    window: int = 64               # most input tokens verified per batch
    min_window: int = 8            # the window after a rejection; it doubles after each clean batch
    max_unsync: int = 6            # model tokens emitted without rejoining before giving up
    resync_window: int = 4         # how far ahead in the input a rejoin may land
    tail_delete_max: int = 6       # a stop token may delete at most this many trailing tokens
    max_tail: int = 3              # tokens that may be appended past the end of the input
    max_inserts: int = 3           # one-token insertions before one input token
    tail_prob: float = 0.5         # ...each with at least this probability
    stop_ids: frozenset = field(default_factory=frozenset)      # end-of-generation tokens
    boundary_ids: frozenset = field(default_factory=frozenset)  # whitespace-only tokens
    tail_ids: frozenset | None = None   # tokens the tail may append (None: any non-boundary token)
    n_candidates: int = 3               # corrections tried one step ahead at a rejection...
    # ...when at least 1/candidate_ratio as likely as the likeliest: a far-fetched one must not
    # win with a one-step hypothesis (`' total'` at p=0.007 deleting `retrun`) before the
    # favourite (`' return'`, 0.95) has been followed to where it rejoins the input
    candidate_ratio: float = 20.0
    # Token healing: a kept token x is still suspicious when the model strongly prefers a longer
    # token that starts with x's text and the input does not go on with the rest of it: `)`
    # where the model wants `):` and the input continues ` print`. Needs the token texts.
    pieces: object = None               # token id -> bytes, or None (no healing)
    heal_prob: float | None = 0.3       # the longer token's probability is at least this (None: no healing)...
    heal_ratio: float = 4.0             # ...and this many times the kept token's
    # Tokens healing may reject (`healable_tokens`). Healing reads the full-depth top-1, which an
    # early exit never sees: rows judging these tokens are decided at full depth...
    healable: frozenset = field(default_factory=frozenset)
    # ...through the full output head, unless the cheap head of the last layer scores all their
    # longer tokens (the caller puts them in its shortlist): then it sees every token healing
    # could want, with exact logit differences (see Scorer), and settles these rows too
    heal_in_shortlist: frozenset = field(default_factory=frozenset)
    # After an edit, judge the following tokens in the context of the cell as written (True) or
    # as corrected (False). The edit itself is chosen the same way either way (its candidates and
    # their next step are scored after the correction); anchoring only changes what the tokens
    # after it see, so one edit does not make the rest of the cell look wrong.
    anchored: bool = False
    # Drafting in the unsynchronised search (the region the model rewrites): each text's new row
    # is followed by up to this many tokens looked up in the cell (prompt lookup), scored in the
    # same batch; a later step that chooses them takes their rows without a batch (0: off)
    draft: int = 0
    # positions the model's context holds (None: no limit). Anchored and batched, the branch rows
    # of settled rejections stay in the context until the next window; near the limit they are
    # dropped before the next rejection (see EditDecoder._make_room)
    context_limit: int | None = None
    # A stretch the model cannot read (hundreds of nested brackets) rejects token after token,
    # and each rejection's search costs batches: where at least `dense_rejections` of the last
    # `dense_span` input tokens were not kept, a rejection is flagged without a search, so per
    # token the walk costs what scoring costs. Real cells stay far below it, even alone
    # (bench/dense_stretches.py; bench/reports/constants.md).
    dense_span: int = 128
    dense_rejections: int = 40

    @property
    def branch_reserve(self) -> int:
        """Branch rows one rejection may need: its confirmation, and every candidate's text
        grown to max_unsync tokens, each new row with its drafts."""
        return 1 + self.n_candidates * (self.max_unsync + 2) * (1 + self.draft)

    @property
    def healing(self) -> bool:
        return self.pieces is not None and self.heal_prob is not None

    def __post_init__(self):
        if self.mode not in ("batched", "sequential"):
            raise ValueError(f"mode must be 'batched' or 'sequential', got {self.mode!r}")
        if self.window < 1 or self.max_unsync < 1 or self.resync_window < 1:
            raise ValueError("window, max_unsync and resync_window must be >= 1")
        if self.draft < 0:
            raise ValueError(f"draft must be >= 0, got {self.draft}")
        if self.dense_span < 1 or self.dense_rejections < 1:
            raise ValueError("dense_span and dense_rejections must be >= 1")


def _word_byte(b: bytes) -> bool:
    return bool(b) and (b.isalnum() or b == b"_")


def _heals(have: bytes, want: bytes) -> bool:
    """Is `want` a longer token that `have` was split from? (its rest is not only whitespace and
    does not merely go on with the same word)"""
    if not (have and len(want) > len(have) and want.startswith(have)):
        return False
    rest = want[len(have):]
    return bool(rest.strip()) and not (_word_byte(have[-1:]) and _word_byte(rest[:1]))


def longer_tokens(pieces: Sequence[bytes]) -> dict[int, list[int]]:
    """For every token id (index into `pieces`) that is the start of a longer token in the sense
    of `_heals`, those longer tokens: `)` (`):`, `),`), `(` (`()`), ` =` (` ==`). A few hundred
    tokens of a vocabulary have some, most of them few; ` ` starts most of the vocabulary."""
    ids = {p: i for i, p in enumerate(pieces) if p}
    out: dict[int, list[int]] = {}
    for j, want in enumerate(pieces):
        for cut in range(1, len(want)):
            h = ids.get(want[:cut])
            if h is not None and _heals(want[:cut], want):
                out.setdefault(h, []).append(j)
    return out


def healable_tokens(pieces: Sequence[bytes]) -> set[int]:
    """Token ids that token healing may reject: those with `longer_tokens`."""
    return set(longer_tokens(pieces))


class EditDecoder(UnsyncSearch):
    def __init__(self, scorer: Scorer, rule: AcceptanceRule, sampler: SamplerChain,
                 config: EditorConfig | None = None):
        self.scorer = scorer
        self.rule = rule
        self.sampler = sampler
        self.cfg = config or EditorConfig()
        self.output: list[int] = []
        self._in_context = False   # anchored and batched: the whole input is in the context
        self._pre: dict[int, tuple] = {}
        self._searched: dict[int, list] = {}
        self._inserted: dict[int, int] = {}     # input index -> insertions made before it
        self.drafted = 0           # draft rows scored by the unsynchronised search...
        self.drafts_taken = 0      # ...and the ones it went on to take (a batch saved each)
        self.unsearched = 0        # rejections flagged without a search (a dense stretch)
        self._not_kept: list[int] = []   # input indices changed, deleted or flagged, in order

    # -- helpers ----------------------------------------------------------------------------------

    def _ok(self, dist: Dist, k: int) -> bool:
        """Does the model accept input token k after `dist`'s context? (the end of the input
        counts as accepted; masked and free tokens are never questioned)"""
        if k >= len(self.inp):
            return True
        if self.masked[k] or self.free[k]:
            return True
        return self.rule.accepts(dist, self.inp[k], k) and not self._needs_healing(dist, k)

    def _needs_healing(self, dist: Dist, k: int) -> bool:
        pieces = self.cfg.pieces
        top = dist.top1
        if (not self.cfg.healing or top == self.inp[k]
                or dist.top_logprobs[0] < math.log(self.cfg.heal_prob)):
            return False
        # a close call (`return 2` vs `return (`) is the model's taste, not a split token: a split
        # token's longer form is far likelier than the token written (bench/reports/constants.md)
        if dist.top_logprobs[0] - dist.logprob_of(self.inp[k]) < math.log(self.cfg.heal_ratio):
            return False
        want, have = pieces(top), pieces(self.inp[k])
        # not when only whitespace is missing (`\n` where the model prefers `\n\n`, at the end of
        # a cell too: layout), nor when the longer token goes on with the same word (` l` ->
        # ` len`: the model would name something else, and the next tokens are judged on that)
        if not _heals(have, want):
            return False
        rest = want[len(have):]
        follow = b"".join(pieces(t) for t in self.inp[k + 1:k + 4])
        return not follow.startswith(rest) and not rest.startswith(follow or b"\0")

    def _lp(self, dist: Dist, k: int) -> float:
        """Evidence for input token k after `dist` (none at the end of the input: a neutral 0.5)."""
        if k >= len(self.inp):
            return math.log(0.5)
        if self.masked[k] or self.free[k]:
            return 0.0
        return dist.logprob_of(self.inp[k])

    def _ref(self, k: int) -> int | None:
        return self.inp[k] if k < len(self.inp) else None

    def _extend(self, tokens, first_ref_index, prev_accepted=True) -> list[Dist]:
        refs = [self._ref(first_ref_index + j) for j in range(len(tokens))]
        self.output.extend(tokens)
        exit_ok = last_ok = None
        if self.cfg.healing and self.cfg.healable:
            healable, settled = self.cfg.healable, self.cfg.heal_in_shortlist
            exit_ok = [r not in healable for r in refs]
            last_ok = [r not in healable or r in settled for r in refs]
        return self.scorer.extend(tokens, refs, prev_accepted=prev_accepted, exit_ok=exit_ok,
                                  last_ok=last_ok)

    def _take_edit(self, nodes, start: int, resume: int) -> None:
        """The context after an edit of input [start, resume) whose text is the branch rows
        `nodes`: anchored, it goes on with the input as written (the Dists of these rows are not
        needed; batched, the whole input is in the context already); else the edit's rows join it."""
        if not self.cfg.anchored:
            self._commit(nodes)
        elif resume > start and not self._in_context:
            self.scorer.extend(self.inp[start:resume], [None] * (resume - start), allow_exit=False)

    def _truncate_output(self, n_drop: int) -> None:
        if n_drop:
            self.scorer.truncate(self.scorer.n_context - n_drop)
            del self.output[-n_drop:]

    # -- the walk -----------------------------------------------------------------------------------

    def run(self, inp: Sequence[int], masked: Sequence[bool] | None = None,
            pending: Dist | None = None, free: Sequence[bool] | None = None, start: int = 0,
            lead_token: int | None = None, not_kept: Sequence[int] = ()) -> Iterator[TokenEvent | EditEvent]:
        """Decode `inp`. `pending` is the model's distribution for inp[start] given the context
        already in the scorer (None: nothing predicts the first token); or `lead_token` is the
        token before inp[start], not in the context yet, whose row gives that distribution (scored
        with the first window when anchored and batched: no batch of one row). `masked` tokens
        (magics) and `free` tokens (names being defined: any name is fine there) are always kept.
        `start` > 0 resumes after a prefix of the input already decided (and kept) earlier;
        `not_kept` names that prefix's tokens that were changed, deleted or flagged (the walk
        after it then decides as a walk from the start would)."""
        self._not_kept = sorted(k for k in not_kept if k < start)
        for ev in self._run(inp, masked, pending, free, start, lead_token):
            if isinstance(ev, TokenEvent) and ev.decision in NOT_KEPT:
                self._not_kept.append(ev.index)
            yield ev

    def _dense(self, i: int) -> bool:
        """Were at least `dense_rejections` of the `dense_span` input tokens before i not kept?"""
        marks, need = self._not_kept, self.cfg.dense_rejections
        return len(marks) >= need and marks[-need] >= i - self.cfg.dense_span

    def _reject(self, i: int, pending: Dist):
        """A rejection of input token i: searched for an edit, or flagged in a dense stretch."""
        if self._dense(i):
            self.unsearched += 1
            return (yield from self._flag(i, pending, searched=False))
        return (yield from self._correct(i, pending))

    def _run(self, inp, masked, pending, free, start, lead_token) -> Iterator[TokenEvent | EditEvent]:
        self.inp = list(inp)
        self.masked = list(masked) if masked is not None else [False] * len(self.inp)
        self.free = list(free) if free is not None else [False] * len(self.inp)
        self._in_context = False
        self._inserted = {}
        n = len(self.inp)
        if n == 0:
            return
        i = start
        # rows after a rejection are thrown away: verify small windows where edits were just made,
        # larger ones while the input keeps being accepted
        self._window = min(self.cfg.min_window, self.cfg.window)
        in_input = self.cfg.anchored and self.cfg.mode == "batched"
        if lead_token is not None:
            if pending is not None:
                raise ValueError("give the pending distribution or the lead token, not both")
            if in_input:
                yield from self._walk_in_input(i, None, lead_token)
                return
            pending = self.scorer.extend([lead_token], [self._ref(i)], allow_exit=False)[0]
        if start > 0 and pending is None:
            raise ValueError("resuming at start > 0 needs the pending distribution")
        if pending is None:
            yield TokenEvent(0, MASKED if self.masked[0] else ACCEPT, None)
            pending = self._extend([self.inp[0]], 1)[0]
            i = 1
        if in_input:
            yield from self._walk_in_input(i, pending)
            return
        while i < n:
            x = self.inp[i]
            if self._ok(pending, i):
                yield TokenEvent(i, MASKED if self.masked[i] else ACCEPT, pending)
                width = self._window if self.cfg.mode == "batched" else 1
                toks = self.inp[i:i + width]
                dists = self._extend(toks, i + 1)
                r = 0
                while r < len(toks) - 1 and self._ok(dists[r], i + r + 1):
                    k = i + r + 1
                    yield TokenEvent(k, MASKED if self.masked[k] else ACCEPT, dists[r])
                    r += 1
                self._truncate_output(len(toks) - 1 - r)   # rows after the first rejection
                if r == len(toks) - 1:
                    self._window = min(2 * self._window, self.cfg.window)
                else:
                    self._window = min(self.cfg.min_window, self.cfg.window)
                pending, i = dists[r], i + r + 1
                continue
            if not pending.full_depth:
                # a rejection read at an early exit is confirmed at full depth first
                pending = self.scorer.confirm(x)
                if self._ok(pending, i):
                    continue
            pending, i = yield from self._reject(i, pending)
        yield from self._tail(pending)

    # -- anchored and batched: the input is scored as written, rows are never thrown away --------

    def _walk_in_input(self, i: int, pending: Dist | None, lead_token: int | None = None):
        """The walk when every token is judged in the context of the cell as written: the input
        goes into the context in windows that no rejection invalidates (aggressive decoding with
        nothing to redo), and a rejection's candidates are branch rows that follow the input
        just before the rejected token. Decisions are those of the sequential anchored walk.
        Without `pending`, `lead_token` (input index i - 1, not in the context yet) starts the
        first window."""
        n = len(self.inp)
        self._in_context = True
        self._rows: dict[int, Dist] = {}        # input index k -> the Dist judging inp[k]
        self._pre: dict[int, tuple] = {}         # input index k -> its corrections, pre-scored
        self._searched: dict[int, list] = {}     # ...and its unsynchronised search, run ahead
        self._lead = (i - 1, lead_token) if pending is None else (None, None)
        self._scored = i if pending is not None else i - 1   # input [.., scored) is in the context
        self._base0 = self.scorer.n_context - self._scored    # context position of input token 0
        # no rejection throws rows away here: windows may be as large as allowed from the start
        self._window = self.cfg.window
        if pending is None:
            pending = self._row_dist(i)
        while i < n:
            if self._ok(pending, i):
                yield TokenEvent(i, MASKED if self.masked[i] else ACCEPT, pending)
                i += 1
                pending = self._row_dist(i)
                continue
            self._make_room()
            if not pending.full_depth:
                # a rejection read at an early exit is confirmed at full depth first
                pending = self._branch([self._token_at(i - 1)], [-1], i, i - 1, "confirm")[0][0]
                if self._ok(pending, i):
                    continue
            pending, i = yield from self._reject(i, pending)
        if self._scored < n:
            self._row_dist(n)   # an edit of the last token: the input's end joins the context
        yield from self._tail(pending)

    def _row_dist(self, k: int) -> Dist:
        """The Dist judging input token k (k == n: the end) in the context of the input as
        written, scoring the next window of the input when it is not in the context yet."""
        while k - 1 >= self._scored:
            a = self._scored
            toks = [self._token_at(a)] + self.inp[a + 1:a + self._window]
            for j, d in enumerate(self._extend(toks, a + 1)):
                self._rows[a + j + 1] = d
            self._scored += len(toks)
            self._window = min(2 * self._window, self.cfg.window)
            self._prescore(a + 1, self._scored)
        return self._rows.pop(k)

    def _room(self) -> float:
        """Positions left in the model's context beside the sequence and the branch rows."""
        if self.cfg.context_limit is None:
            return math.inf
        return self.cfg.context_limit - self.scorer.n_context - self.scorer.next_branch_row

    def _make_room(self) -> None:
        """Before a rejection is handled: when the branch rows of the ones settled since the last
        window leave less room than it may need, they are dropped, with the corrections scored
        ahead for later rejections (those are scored again when the walk gets there)."""
        if self._room() < self.cfg.branch_reserve and self.scorer.next_branch_row:
            self.scorer.truncate(self.scorer.n_context)     # forgets the branch rows only
            self._pre.clear()
            self._searched.clear()

    def _token_at(self, k: int) -> int:
        """Input token k; the lead token when k is its index (-1: the token before the cell)."""
        lead_at, lead = self._lead
        return lead if k == lead_at else self.inp[k]

    def _prescore(self, lo: int, hi: int) -> None:
        """The corrections of every input token in [lo, hi] the window's rows reject, scored
        now in ONE batch of branch rows (each following the input before its token) rather than
        in one small batch per rejection when the walk gets there. Greedy only (the candidates
        must not depend on when they are drawn). A rejection the walk does not reach (inside an
        earlier edit) or reaches from an edit (another context) costs its rows for nothing."""
        if not self.sampler.config.greedy:
            return
        toks, bases, refs, found = [], [], [], []
        # within one batch, and leaving the walk room for a rejection of its own
        limit = min(self.scorer.model.max_batch, self._room() - self.cfg.branch_reserve)
        after_rejection = False
        for k in range(lo, min(hi, len(self.inp) - 1) + 1):
            d = self._rows.get(k)
            rejected = d is not None and not self._ok(d, k)
            # right after a rejection the walk comes from the edit (its own view of k), so this
            # row is not the one read; nor is a rejection read at an early exit (confirmed first)
            skip = not rejected or after_rejection or not d.full_depth
            after_rejection = rejected
            if skip:
                continue
            try:
                tried = [c for c in self._correction_candidates(k, d) if c not in self.cfg.stop_ids]
            except NoCandidateError:
                continue
            if not tried or len(toks) + len(tried) > limit:
                continue
            found.append((k, d, tried, len(toks)))
            toks += tried
            bases += [self._base0 + k] * len(tried)
            refs += [self._ref(k + 1)] * len(tried)
        if len(found) < 2:
            return            # one rejection: scored when the walk gets there, as before
        dists, nodes = self.scorer.branch(toks, [-1] * len(toks), refs, base=bases,
                                          purpose="correction")
        batch = self.scorer.batches
        for k, d, tried, at in found:
            span = slice(at, at + len(tried))
            self._pre[k] = (d, tried, dists[span], nodes[span], (batch, range(at, at + len(tried))))
        self._search_ahead(found, dists, nodes, limit - len(toks))

    def _search_ahead(self, found, dists, nodes, room: int) -> None:
        """The unsynchronised searches of the rejections just pre-scored where no one-step
        hypothesis holds, run side by side now (one batch per step for all of them, instead of
        one per step for each when the walk gets there), while `room` allows their rows. Their
        first step is the correction batch read again, judging x_k (it is the last batch)."""
        specs, need = [], 0
        for k, d, tried, at in found:
            row = {c: (dists[at + j], nodes[at + j]) for j, c in enumerate(tried)}
            cands = self._correction_candidates(k, d)
            if self._hypothesis(k, d, cands, row) is not None:
                continue
            # every text grown to max_unsync tokens, each new row with its drafts
            rows = len(tried) * (self.cfg.max_unsync - 1) * (1 + self.cfg.draft)
            if need + rows > room:
                break
            need += rows
            reread = self.scorer.reread(range(at, at + len(tried)), [self._ref(k)] * len(tried))
            specs.append((k, d, tried, (reread, nodes[at:at + len(tried)])))
        if not specs:
            return
        for (k, *_), hits in zip(specs, self._search(specs)):
            self._searched[k] = hits

    def _candidates(self, pending: Dist, exclude: set) -> list[int]:
        """The sampler's pick first, then the next most likely tokens (for greedy: the top-M)
        that are at least 1/candidate_ratio as likely as the likeliest of them."""
        first = self.sampler.sample(pending.top_ids, pending.top_logprobs, exclude=exclude)
        rest = [int(t) for t in pending.top_ids if int(t) != first and int(t) not in exclude]
        cands = [first] + rest[:self.cfg.n_candidates - 1]
        floor = max(pending.logprob_of(c) for c in cands) - math.log(self.cfg.candidate_ratio)
        return [first] + [c for c in cands[1:] if pending.logprob_of(c) >= floor]

    def _branch(self, tokens, parents, ref_index, at, purpose) -> tuple[list[Dist], list[int]]:
        """Alternatives to input token `at` scored side by side (they see the context before it,
        not each other)."""
        base = self._base0 + at if self._in_context else None
        return self.scorer.branch(tokens, parents, [self._ref(ref_index)] * len(tokens), base=base,
                                  purpose=purpose)

    def _commit(self, nodes) -> None:
        self.output.extend(self.scorer.commit(nodes))

    def _correction_candidates(self, i: int, pending: Dist) -> list[int]:
        """The corrections to try for rejected input token i (NoCandidateError: none)."""
        n, x = len(self.inp), self.inp[i]
        allow_stop = n - i <= self.cfg.tail_delete_max and not any(self.masked[i:])
        exclude = {x} | (set() if allow_stop else set(self.cfg.stop_ids))
        return self._candidates(pending, exclude)

    def _hypothesis(self, i: int, pending: Dist, cands: list[int], row: dict):
        """The best one-step hypothesis for rejected input token i, (score, kind, c, skip), or
        None: a hypothesis counts only if the model accepts the input token it predicts next
        (`row[c]`: candidate c's Dist, judging x_{i+1}), and hypotheses compete on
        log p(c) + log p(next). Ties go to the likelier candidate."""
        n = len(self.inp)
        best = None
        for c in reversed(cands):
            lp_c = pending.logprob_of(c)
            if c in self.cfg.stop_ids:
                hyp = (lp_c, "stop", c, 0)
                best = hyp if best is None or hyp[0] >= best[0] else best
                continue
            d = row[c][0]
            hyps = []
            for skip in (1, 2):   # deletion: c is the token after x (or after x and x+1)
                j = i + skip
                if j < n and c == self.inp[j] and not any(self.masked[i:j]) and self._ok(d, j + 1):
                    hyps.append((lp_c + self._lp(d, j + 1), DELETE, c, skip))
            if not self.masked[i] and self._ok(d, i + 1):
                hyps.append((lp_c + self._lp(d, i + 1), CHANGE, c, 0))
            # the walk's own test (token healing included): an insertion after which the walk
            # would reject x_i again would be inserted again, forever
            if self._ok(d, i) and self._inserted.get(i, 0) < self.cfg.max_inserts:
                hyps.append((lp_c + self._lp(d, i), INSERT, c, 0))
            for h in hyps:
                if best is None or h[0] > best[0] or (h[0] == best[0] and h[2] != best[2]):
                    best = h
        return best

    def _correct(self, i: int, pending: Dist):
        n = len(self.inp)
        try:
            cands = self._correction_candidates(i, pending)
        except NoCandidateError:
            return (yield from self._flag(i, pending))
        # each candidate is tried one step ahead, all in one batch (see `_hypothesis`)
        tried = [c for c in cands if c not in self.cfg.stop_ids]
        pre = self._pre.pop(i, None) if self._in_context else None
        searched = self._searched.pop(i, None) if self._in_context else None
        if pre is not None and pre[0] is pending and pre[1] == tried:
            _, _, dists, nodes, branch_rows = pre      # scored with the window's other rejections
        else:
            searched = None
            dists, nodes = (self._branch(tried, [-1] * len(tried), i + 1, i, "correction")
                            if tried else ([], []))
            branch_rows = (self.scorer.batches, range(len(tried)))
        row = {c: (d, node) for c, d, node in zip(tried, dists, nodes)}
        best = self._hypothesis(i, pending, cands, row)
        if best is None:
            if searched is not None:                   # searched with the window's other rejections
                return (yield from self._unsync(i, pending, tried, found=searched))
            # the candidates' rows are the first step of the unsynchronised search: read again,
            # judging x_i (an insertion) rather than x_{i+1} (while their batch is the last one)
            first = None
            batch, batch_rows = branch_rows
            if batch == self.scorer.batches:
                first = (self.scorer.reread(batch_rows, [self._ref(i)] * len(tried)), nodes)
            return (yield from self._unsync(i, pending, tried, first))
        score, kind, c, skip = best
        if kind == "stop":
            # the model ends the cell here: the (short) tail goes
            if self._in_context:
                self.scorer.truncate(self._base0 + i)
                self._scored = n     # the deleted tail stays out of the context
            for k in range(i, n):
                yield TokenEvent(k, DELETE, pending if k == i else None)
            yield EditEvent(DELETE, i, n, [], pending)
            return pending, n
        d, node = row[c]
        self._take_edit([node], i, i + skip + 1 if kind != INSERT else i)
        if kind == DELETE:
            j = i + skip
            for k in range(i, j):
                yield TokenEvent(k, DELETE, pending if k == i else None)
            yield EditEvent(DELETE, i, j, [], pending)
            yield TokenEvent(j, ACCEPT, pending)
            return d, j + 1
        if kind == CHANGE:
            yield TokenEvent(i, CHANGE, pending)
            yield EditEvent(CHANGE, i, i + 1, [c], pending)
            return d, i + 1
        self._inserted[i] = self._inserted.get(i, 0) + 1
        yield EditEvent(INSERT, i, i, [c], pending)
        return d, i

    def _unsync(self, i, pending, cands, first=None, found=None):
        """No one-step hypothesis held: from each candidate, let the model write on until it can
        rejoin the input; keep the shortest rejoin (then the likeliest). `first`: the
        candidates' rows already scored (Dists judging x_i, branch row numbers); `found`: the
        search already run (`_search`) beside the window's other rejections."""
        if not cands:
            return (yield from self._flag(i, pending))
        if found is None:
            found = self._search([(i, pending, cands, first)])[0]
        if not found:
            # no way back into the input: keep x_i as a finding without a fix
            return (yield from self._flag(i, pending))
        _, _, _, emitted, (start, end, tokens, resume), path, cur = min(found, key=lambda f: f[:3])
        self._take_edit(path, start, resume)
        kind = INSERT if start == end else REPLACE
        for k in range(start, end):
            yield TokenEvent(k, CHANGE if k == start and tokens else DELETE, pending if k == start else None)
        yield EditEvent(kind, start, end, tokens, pending)
        if resume > end:               # the shared token that rejoined the input
            yield TokenEvent(end, ACCEPT, None)
        return cur, resume

    def _flag(self, i, pending, searched: bool = True):
        yield TokenEvent(i, FLAG, pending, searched)
        if self._in_context:
            return self._row_dist(i + 1), i + 1
        d = self._extend([self.inp[i]], i + 1)[0]
        return d, i + 1

    def _tail(self, pending: Dist):
        """Past the end: append a few confident tokens (an unclosed bracket), never whitespace,
        a stop token, a token outside `tail_ids` or a token below `tail_prob`."""
        added: list[int] = []
        for _ in range(self.cfg.max_tail):
            top = pending.top1
            if (top in self.cfg.stop_ids or top in self.cfg.boundary_ids
                    or (self.cfg.tail_ids is not None and top not in self.cfg.tail_ids)
                    or pending.top_logprobs[0] < math.log(self.cfg.tail_prob)):
                break
            added.append(top)
            pending = self._extend([top], len(self.inp))[0]
        if added:
            yield EditEvent(INSERT, len(self.inp), len(self.inp), added, None)
