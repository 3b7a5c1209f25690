"""Parallel verification: does a proposed edit make the rest of the cell more likely?

A token the model finds unlikely is a guess; an edit becomes evidence when the text it leaves
(the edit and the cell's own following tokens, the *continuation*) is more likely than the text
as written over the same continuation:

    gain = log P(edit + continuation) - log P(as written + continuation)     (nats)

Both sides are scored in branch rows (tree attention) on the context the cell already holds:
all variants of one place share the tokens before it, and variants that share their first
tokens share those rows too (a trie), so a place costs roughly its edits plus one continuation
per candidate. Rows are thrown away after scoring. A row's head reads the probability of each
of its children, so the last token of a chain needs no row of its own.

A candidate that cannot reach its floor is not scored at all: every log-probability is <= 0, so

    gain <= log P(the edit's first token) + surprisal of the written tokens it competes with

and the walk already read both (the distribution where the edit starts and the written tokens'
probabilities). On code the model finds likely, that bound rules out most candidates for free.

The written side needs no rows of its own when the walk read every one of its tokens at the last
layer (`walk_logprob`): the context holds the cell as written, and the engine scores a row alike
in any batch (bench/verify_probe.py measures what it moves), so only the edits' chains are run.

Most of what remains is screened by a `Probe`: each candidate is first scored with only its first
written tokens after the edit, and goes on to its whole continuation only if that leaves it
within reach of its floor (a screen, not a bound; bench/verify_probe.py measures it).

With `exit_at_last`, the reference-token exit test at the last layer settles rows whose next
token the cheap shortlist head finds likely (an upper bound on its probability, tight where it is
likely); the rows where the text is unlikely, which make the gain, go through the full head.
With an `early` policy, where the engine computes a stopped row's skipped K,V from its exit state
("propagate"), the same reference-token test may stop a row before the last layer: the rows are
thrown away after scoring, so no later token of the cell ever reads those K,V.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Hashable, Sequence

import numpy as np

from .exit_policy import ExitPolicy
from .scorer import Scorer


@dataclass
class Variant:
    """The whole cell re-tokenised with one candidate edit applied."""
    ids: Sequence[int]
    key: Hashable                # the caller's handle for the candidate
    floor: float | None = None   # the gain it must reach to matter (None: always score it)
    # the floor applies to the continuation's part only (a deletion: any text is cheaper
    # without some of it, so its own tokens are no evidence)
    continuation_only: bool = False


# the walk's numbers come from other batch shapes (and a shortlist head): the bound keeps this slack
BOUND_SLACK = 1.0


@dataclass
class Probe:
    """Screen candidates on their first continuation tokens before scoring all of them.

    A candidate is scored in full only if its gain after the edit and `tokens` written tokens,
    plus `slack` nats, reaches its floor. Before that, a one-token edit whose own part of the gain
    (read from the walk's distributions, no rows) plus `edit_slack` falls short is dropped (None:
    no such step). Not bounds: the rest of the continuation could add more than the slack.
    bench/verify_probe.py measures how often they change a decision."""
    tokens: int = 2
    slack: float = 4.0
    edit_slack: float | None = None


@dataclass
class Verdict:
    key: Hashable
    gain: float                  # nats; > 0: the edit makes the cell more likely
    logprob_edit: float          # log P(edit + continuation)
    logprob_written: float       # log P(as written + continuation)
    start: int                   # first cell token that differs
    end: int                     # cell tokens [start, end) are compared (edit + continuation)
    # the part of `gain` the edited tokens themselves make (log P of the edit's tokens minus
    # log P of the written tokens they replace); the rest is what the continuation says
    edit_gain: float = 0.0
    # running log P along each side from the place (edit tokens, then the continuation)
    cum_edit: np.ndarray | None = None
    cum_written: np.ndarray | None = None
    n_edit: int = 0                        # edit tokens / written tokens they replace
    n_written: int = 0

    def continuation_gain(self) -> float:
        return self.gain - self.edit_gain


def aligned_span(base: Sequence[int], ids: Sequence[int]) -> tuple[int, int]:
    """(p, s): the longest common prefix and then the longest common suffix of two token lists
    (p + s <= the shorter length)."""
    n, m = len(base), len(ids)
    p = 0
    while p < n and p < m and base[p] == ids[p]:
        p += 1
    s = 0
    while s < n - p and s < m - p and base[n - 1 - s] == ids[m - 1 - s]:
        s += 1
    return p, s


@dataclass
class _Chain:
    key: Hashable
    middle: list[int]            # the edit's tokens
    resume: int                  # the written text resumes at base[resume]
    stop: int                    # ... and is compared up to base[stop] (exclusive)


class _Group:
    """The variants whose first differing token is at one cell position: one trie rooted at the
    cell token before it."""

    def __init__(self, p: int):
        self.p = p
        self.chains: list[_Chain] = []
        self.written: np.ndarray | None = None   # running log P of the written side, if known

    @property
    def end(self) -> int:
        return max(c.stop for c in self.chains)


def verify(scorer: Scorer, base: Sequence[int], variants: Sequence[Variant], *, offset: int,
           token_at: Callable[[int], int], continuation_end: Callable[[int], int],
           max_rows: int, written_logprob: Callable[[int], float | None] | None = None,
           first_logprob: Callable[[int, int], float | None] | None = None,
           pruned: list | None = None, exit_at_last: bool = False,
           probe: Probe | None = None, cache: dict | None = None,
           walk_logprob: Callable[[int], float | None] | None = None,
           early: ExitPolicy | None = None) -> list[Verdict]:
    """Gains of `variants` against the cell `base` (as written), scored as branch rows.

    `offset`: the context position of the cell's token 0 (the context holds the cell as written
    at least up to the last token a variant keeps); `token_at(i)` the token at cell position i,
    i = -1 being the one before the cell; `continuation_end(k)`: how far (exclusive cell index)
    the continuation reaches when the written text resumes at cell index k; `max_rows`: rows one
    batch may take. With `written_logprob(i)` (log p of written token i as the walk read it) and
    `first_logprob(i, token)` (log p, or an upper bound, of `token` at position i; None:
    unknown), a variant with a floor whose gain bound lies below it is not scored (its key is
    appended to `pruned`); so is one the `probe` screens out. Variants equal to `base`, or whose
    place needs more rows than one batch, get no verdict. `cache` keeps verdicts between calls
    on the same context: one whose scored tokens are unchanged is not scored again (a re-check
    after an edit further down). `walk_logprob(i)`: log p of written token i as the walk read it
    at the last layer (None: not so read); a place whose written tokens all have one takes its
    written side from them instead of scoring it in rows. `early`: an exit policy that may stop
    rows before the last layer where the model lets branch rows stop (see `Scorer.branch`)."""
    n = len(base)
    groups: dict[int, _Group] = {}
    split: dict[Hashable, tuple[int, int]] = {}
    by_key = {v.key: v for v in variants}
    for v in variants:
        ids = list(v.ids)
        p, s = aligned_span(base, ids)
        if p == n and p == len(ids):
            continue
        resume = n - s
        stop = min(n, max(continuation_end(resume), resume))
        groups.setdefault(p, _Group(p)).chains.append(_Chain(v.key, ids[p:len(ids) - s], resume, stop))
        split[v.key] = (len(ids) - s - p, resume - p)   # edit tokens, written tokens replaced
    for g in groups.values():
        g.chains = _bounded(g, n, by_key, written_logprob, first_logprob, pruned)
    if probe is not None and probe.edit_slack is not None:
        for g in groups.values():
            g.chains = _edit_screened(g, by_key, first_logprob, written_logprob, probe.edit_slack, pruned)
    groups = {p: g for p, g in groups.items() if g.chains}
    def score(gs):
        return _score_groups(scorer, gs, base, split, offset, token_at, max_rows, exit_at_last, cache,
                             walk_logprob, early)
    if probe is None:
        return score(groups.values())

    # the screen: each screened chain up to `probe.tokens` written tokens after its edit
    short: dict[int, _Group] = {}
    for g in groups.values():
        for c in g.chains:
            if by_key[c.key].floor is not None:
                short.setdefault(g.p, _Group(g.p)).chains.append(
                    _Chain(c.key, c.middle, c.resume, min(c.stop, c.resume + probe.tokens)))
    first = score(short.values())
    stops = {c.key: c.stop for g in groups.values() for c in g.chains}
    final = {v.key: v for v in first if v.end == stops[v.key]}
    ahead = {v.key for v in first if v.key not in final and
             _screened_gain(v, by_key[v.key].continuation_only) + probe.slack >= by_key[v.key].floor}
    for v in first:
        if v.key not in final and v.key not in ahead and pruned is not None:
            pruned.append(v.key)
    rest = {}
    for g in groups.values():
        keep = [c for c in g.chains if c.key not in final and
                (by_key[c.key].floor is None or c.key in ahead)]
        if keep:
            rest[g.p] = _Group(g.p)
            rest[g.p].chains = keep
    out = list(final.values()) + score(rest.values())
    order = {v.key: k for k, v in enumerate(variants)}
    return sorted(out, key=lambda v: order[v.key])


def _edit_screened(g: _Group, variants: dict, first_logprob, written_logprob, slack: float,
                   pruned) -> list[_Chain]:
    """The group's chains left after the free screen on the edit's own part (see `Probe`): only
    one-token edits with a floor are screened, on the walk's reading of the edit token (an upper
    bound when outside its top-K) against the written tokens it replaces."""
    if first_logprob is None or written_logprob is None:
        return g.chains
    keep = []
    for c in g.chains:
        v = variants[c.key]
        replaced = _running(written_logprob, g.p, c.resume)
        first = first_logprob(g.p, c.middle[0]) if len(c.middle) == 1 else None
        if v.floor is not None and not v.continuation_only and first is not None and \
                replaced is not None and first - replaced[-1] + slack < v.floor:
            if pruned is not None:
                pruned.append(c.key)
            continue
        keep.append(c)
    return keep


def _screened_gain(v: Verdict, continuation_only: bool) -> float:
    return v.continuation_gain() if continuation_only else v.gain


def _bounded(g: _Group, n: int, variants: dict, written_logprob, first_logprob, pruned) -> list[_Chain]:
    """The group's chains that can reach their floor, by the free bound (see the module doc)."""
    if written_logprob is None or first_logprob is None:
        return g.chains
    written_s = _surprisal(written_logprob, g.p, g.end)
    keep = []
    for c in g.chains:
        floor = variants[c.key].floor
        first = first_logprob(g.p, c.middle[0]) if c.middle and g.p < n else None
        if floor is not None and first is not None and written_s is not None and \
                first + written_s + BOUND_SLACK < floor:
            if pruned is not None:
                pruned.append(c.key)
            continue
        keep.append(c)
    return keep


def _score_groups(scorer: Scorer, groups, base, split, offset: int, token_at, max_rows: int,
                  exit_at_last: bool, cache: dict | None = None, walk_logprob=None,
                  early: ExitPolicy | None = None) -> list[Verdict]:
    """Every group's trie in as few branch batches of at most `max_rows` rows as fit; chains
    found in `cache` are taken from it."""
    verdicts: list[Verdict] = []
    todo = []
    for g in groups:
        written = _running(walk_logprob, g.p, g.end)
        keep = []
        for c in g.chains:
            key = _cache_key(base, g.p, c, (exit_at_last, early is not None), written is not None)
            hit = cache.get(key) if cache is not None else None
            if hit is not None:
                verdicts.append(replace(hit, key=c.key))
            else:
                keep.append(c)
        if keep:
            todo.append(_Group(g.p))
            todo[-1].chains = keep
            todo[-1].written = written
    fresh: list[Verdict] = []
    batch: list[tuple[_Group, _Trie]] = []
    rows = 0
    for g in sorted(todo, key=lambda g: g.p):
        trie = _Trie(token_at(g.p - 1))
        if g.written is None:
            trie.add(None, list(base[g.p:g.end]))
        for c in g.chains:
            # each edit continues with the written text up to its stop
            trie.add(c.key, c.middle + list(base[c.resume:c.stop]))
        need = trie.n_rows
        if need > max_rows:
            continue
        if rows + need > max_rows and batch:
            fresh += _score(scorer, batch, offset, exit_at_last, split, early)
            batch, rows = [], 0
        batch.append((g, trie))
        rows += need
    if batch:
        fresh += _score(scorer, batch, offset, exit_at_last, split, early)
    if cache is not None:
        chains = {c.key: (g, c) for g in todo for c in g.chains}
        for v in fresh:
            g, c = chains[v.key]
            cache[_cache_key(base, g.p, c, (exit_at_last, early is not None), g.written is not None)] = v
    return verdicts + fresh


def _cache_key(base, p: int, c: _Chain, exits, from_walk: bool) -> tuple:
    # a verdict depends on the written tokens up to its stop and on the edit's own tokens only
    return (tuple(base[:c.stop]), p, tuple(c.middle), c.resume, c.stop, exits, from_walk)


def _running(logprob, a: int, b: int) -> np.ndarray | None:
    """Running log P of written tokens [a, b), from 0, by `logprob(i)` (None when one is unknown)."""
    if logprob is None:
        return None
    lps = []
    for i in range(a, b):
        lp = logprob(i)
        if lp is None:
            return None
        lps.append(lp)
    return np.concatenate([[0.0], np.cumsum(lps)])


def _surprisal(written_logprob, a: int, b: int) -> float | None:
    """-sum log p of written tokens [a, b) (None when one is unknown)."""
    run = _running(written_logprob, a, b)
    return None if run is None else -float(run[-1])


class _Trie:
    """Token chains from one root; each node with children is a row whose head scores them."""

    def __init__(self, root: int):
        self.tokens = [root]
        self.parent = [-1]
        self.children: list[dict[int, int]] = [{}]
        self.leaves: list[tuple[Hashable, int]] = []          # (key, last node)

    def add(self, key, chain: Sequence[int]) -> None:
        node = 0
        for t in chain:
            nxt = self.children[node].get(t)
            if nxt is None:
                nxt = len(self.tokens)
                self.tokens.append(int(t))
                self.parent.append(node)
                self.children.append({})
                self.children[node][int(t)] = nxt
            node = nxt
        self.leaves.append((key, node))

    @property
    def n_rows(self) -> int:
        return sum(1 for c in self.children if c)


def _score(scorer: Scorer, batch, offset: int, exit_at_last: bool, split,
           early: ExitPolicy | None = None) -> list[Verdict]:
    """Runs the rows of several tries in one branch batch, reads each edge's log-probability and
    sums them along every chain; the branch rows are dropped afterwards."""
    tokens, parents, bases, refs, single = [], [], [], [], []
    row_of: list[dict[int, int]] = []
    first = scorer.next_branch_row
    for g, trie in batch:
        rows: dict[int, int] = {}
        for node, kids in enumerate(trie.children):
            if not kids:
                continue
            rows[node] = first + len(tokens)
            par = trie.parent[node]
            tokens.append(trie.tokens[node])
            parents.append(-1 if par < 0 else rows[par])
            bases.append(offset + g.p - 1)
            refs.append(next(iter(kids)))
            single.append(len(kids) == 1)
        row_of.append(rows)
    # a row that scores several children is re-read at the last layer: it may not exit early;
    # chains with no token to score (a deletion that resumes at its stop) need no batch
    dists = scorer.branch(tokens, parents, refs, base=bases, purpose="verify", exit_at_last=exit_at_last,
                          early=early, early_ok=single)[0] if tokens else []
    edge: dict[tuple[int, int], float] = {}
    extra_rows, extra_refs, extra_keys = [], [], []
    for k, ((g, trie), rows) in enumerate(zip(batch, row_of)):
        for node, row in rows.items():
            kids = list(trie.children[node])
            edge[(k, trie.children[node][kids[0]])] = dists[row - first].ref_logprob
            for t in kids[1:]:
                extra_rows.append(row - first)
                extra_refs.append(t)
                extra_keys.append((k, trie.children[node][t]))
    if extra_rows:
        for key, d in zip(extra_keys, scorer.reread(extra_rows, extra_refs)):
            edge[key] = d.ref_logprob
    scorer.truncate(scorer.n_context)          # forget the branch rows
    out = []
    for k, ((g, trie), rows) in enumerate(zip(batch, row_of)):
        cums = {}                       # each chain's running sums, from the root
        for key, node in trie.leaves:
            path, nd = [], node
            while trie.parent[nd] >= 0:
                path.append(edge[(k, nd)])
                nd = trie.parent[nd]
            cums.setdefault(key, np.concatenate([[0.0], np.cumsum(path[::-1])]))
        written = cums[None] if g.written is None else g.written
        stops = {c.key: c.stop for c in g.chains}
        for key, _ in trie.leaves:
            if key is not None:
                mine = cums[key]
                n_edit, n_written = split[key]
                w = written[:stops[key] - g.p + 1]
                out.append(Verdict(key, float(mine[-1] - w[-1]), float(mine[-1]), float(w[-1]),
                                   g.p, stops[key], float(mine[n_edit] - w[n_written]),
                                   mine, w, n_edit, n_written))
    return out


__all__ = ["Variant", "Verdict", "Probe", "verify", "aligned_span"]
