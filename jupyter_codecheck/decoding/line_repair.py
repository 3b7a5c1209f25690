"""Whole-line repairs: the model writes a suspicious line again, its own way.

A single-token edit cannot fix `distance = elem - elem2` (the fix is `abs(...)` around it). Here
the model proposes the whole line given what comes before it (and, with fill-in-the-middle, what
comes after it). Each `LineTask` is a prompt of branch rows (the line's own context) and the line
as written; decoding is greedy along the written line while the model's first choice is the
written token, forks at the first token where it is not into the model's top choices (at least
1/`candidate_ratio` as likely as its first one, the written token excluded), and writes each fork
on greedily to the end of the line. Which proposal wins is decided elsewhere, by the evidence on
the rest of the cell (decoding/verify.py).

Two shortcuts, which change which batch a row is in and nothing it depends on (its token,
position and ancestors); a row's numbers move only by the engine's batch-size rounding
(docs/measurements.md, "batch invariance"), so a proposal changes only where the model's two
choices are that close:
  draft   the written line is the draft (prompt lookup): it is scored with the prompt in one
          batch, so the walk along it costs no batch of its own; after the fork, each new row is
          followed by the written tokens that follow its token in the line, taken without a
          batch when the model goes on to choose them
  shared  a task whose prompt is one token at `base` follows the context's first `base`
          positions: the walk's own K,V of the cell before the line (left-to-right decoding)
A caller that wants neither gives the whole context as the prompt with base 0 and `draft=False`.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from .dist import Dist
from .scorer import Scorer


@dataclass
class LineTask:
    key: Hashable                 # the caller's handle (a line)
    prompt: Sequence[int]         # rows before the line; the last one's row predicts its first token
    base: int                     # context position of the prompt's first token (it sees [0, base))
    written: Sequence[int]        # the line's tokens as written, up to the one ending the line
    # other lines to be weighed after the same prompt (each up to the token ending it), scored
    # in the prompt's batch: their log P lands in `LineProposer.extra_logprobs[(key, k)]`
    extra: Sequence[Sequence[int]] = ()


@dataclass
class Proposal:
    key: Hashable
    tokens: list[int]             # the line as the model writes it, up to the token ending it
    logprob: float                # of those tokens after the prompt
    # of the written line's tokens after the same prompt: the proposal's gain over the line as
    # written (with a prompt that reads both sides, the whole text's: see the module doc)
    written_logprob: float = float("nan")


@dataclass
class _Hyp:
    task: int
    tokens: list[int]
    logprob: float
    row: int                      # the branch row of its last token
    dist: Dist                    # the model's view after it
    # chains of draft rows scored after its row, each a list of (token, Dist, row)
    ahead: list = field(default_factory=list)
    # drafts its next row is to be followed by (None: looked up in the written line)
    drafts: list | None = None


class LineProposer:
    """Proposes lines for `LineTask`s in batches of branch rows on `scorer` (the rows are dropped
    afterwards: the context is as before). `ends_line(token)`: does the token end a line (holds a
    newline)? `stops(token)`: does it end generation or stand for no text (end of text, a
    control token: a proposal reaching one is dropped)?"""

    def __init__(self, scorer: Scorer, *, ends_line: Callable[[int], bool],
                 stops: Callable[[int], bool] = lambda t: False,
                 n_candidates: int = 3, candidate_ratio: float = 20.0, max_extra: int = 8,
                 draft: bool = True, draft_max: int = 8, forks: int = 1, force: bool = False):
        self.scorer = scorer
        self.ends_line = ends_line
        self.stops = stops
        self.n_candidates = n_candidates
        self.log_ratio = math.log(candidate_ratio)
        self.max_extra = max_extra
        self.draft = draft
        self.draft_max = draft_max     # draft tokens after a row of a proposal's own
        # places along the written line where proposals fork (the first `forks` tokens the model
        # writes otherwise); `force`: a line the model writes as it is forks at its least sure
        # token all the same (a line known to be wrong: a failure's cause)
        self.forks = forks
        self.force = force
        self.written_logprobs: dict = {}   # task key -> log P of the written line after its prompt
        self.extra_logprobs: dict = {}     # (task key, k) -> log P of the task's extra line k
        self.written_worst: dict = {}      # task key -> log P of the written line's least likely token
        self.batches = 0
        self.rows = 0
        self.prompt_rows = 0           # of `rows`: the prompts' (shared beginnings once)
        self.draft_rows = 0            # of `rows`: the written lines after their prompts

    def propose(self, tasks: Sequence[LineTask],
                write: Callable[[dict], Sequence[Hashable]] | None = None) -> list[Proposal]:
        """Proposals for `tasks`. With `write`, every task's written line is read first and
        `write(written_worst)` names the tasks whose lines are then written again (the others
        are only read): the reading's rows are the writing's prompts and drafts."""
        if write is not None and not self.draft:
            raise ValueError("write= reads the written lines in the prompts' batch: it needs draft=True")
        if not tasks:
            return []
        try:
            return self._propose(list(tasks), write)
        finally:
            self.scorer.truncate(self.scorer.n_context)    # forget the branch rows

    # -- batches -------------------------------------------------------------------------------

    def _branch(self, tokens, parents, refs, bases, read=None) -> tuple[list[Dist], list[int]]:
        """Branch rows in batches of at most max_batch (a row's parent may be in an earlier one);
        a row whose `read` flag is False gets no Dist (None)."""
        step = self.scorer.model.max_batch
        dists, rows = [], []
        for a in range(0, len(tokens), step):
            d, r = self.scorer.branch(tokens[a:a + step], parents[a:a + step], refs[a:a + step],
                                      base=bases[a:a + step], purpose="line-repair",
                                      read=None if read is None else read[a:a + step])
            dists += d
            rows += r
            self.batches += 1
        self.rows += len(tokens)
        return dists, rows

    def _propose(self, tasks: list[LineTask], write=None) -> list[Proposal]:
        # the prompts (and, drafting, each written line after its prompt) in one batch
        # prompts that begin alike share those rows (a trie: fill-in-the-middle prompts of one
        # cell share the code before the first line)
        tokens, parents, refs, bases, spans = [], [], [], [], []
        first = self.scorer.next_branch_row
        node: dict[tuple, int] = {}
        n_drafts = 0
        extras = []
        prompt_rows: set[int] = set()
        for t in tasks:
            at, key = -1, ("base", t.base)
            for tok in t.prompt:
                key = (key, int(tok))
                if key not in node:
                    node[key] = len(tokens)
                    prompt_rows.add(len(tokens))
                    tokens.append(int(tok))
                    parents.append(-1 if at < 0 else first + at)
                    refs.append(None)
                    bases.append(t.base)
                at = node[key]
            refs[at] = int(t.written[0]) if len(t.written) else None
            last, drafted = at, len(tokens)
            if self.draft:
                for j, tok in enumerate(t.written):
                    tokens.append(int(tok))
                    parents.append(first + at)
                    refs.append(int(t.written[j + 1]) if j + 1 < len(t.written) else None)
                    bases.append(t.base)
                    at = len(tokens) - 1
            spans.append((last, drafted))
            n_drafts += len(tokens) - drafted
            for k, line in enumerate(t.extra):
                chain = []
                for j, tok in enumerate(line[:-1]):
                    tokens.append(int(tok))
                    parents.append(first + (last if j == 0 else len(tokens) - 2))
                    refs.append(int(line[j + 1]))
                    bases.append(t.base)
                    chain.append(len(tokens) - 1)
                extras.append((t.key, k, last, chain, line))
                n_drafts += len(chain)
        self.draft_rows += n_drafts
        self.prompt_rows += len(tokens) - n_drafts
        # a prompt's rows before its last are there for their K,V: no head reads them
        lasts = {last for last, _ in spans}
        read = [k in lasts or k not in prompt_rows for k in range(len(tokens))]
        dists, rows = self._branch(tokens, parents, refs, bases, read)
        hyps: list[_Hyp] = []
        written_lp = [self._written_logprob(t, dists[last], dists[drafted:drafted + len(t.written)])
                      if self.draft else None for t, (last, drafted) in zip(tasks, spans)]
        for key, k, last, chain, line in extras:
            # the prompt's last row judges the first token (exactly when it is the written line's
            # first token, else from its top-K: a bound outside them), chain row j the one after j
            judges = [dists[last]] + [dists[r] for r in chain]
            self.extra_logprobs[(key, k)] = sum(d.logprob_of(int(tok)) for d, tok in zip(judges, line))
        chosen = set(write(self.written_worst)) if write is not None else {t.key for t in tasks}
        for ti, (t, (last, drafted)) in enumerate(zip(tasks, spans)):
            if t.key not in chosen:
                continue
            # the prompt's last row judges the line's first token; draft row j the one after j
            ahead = [[(int(t.written[j]), dists[drafted + j], rows[drafted + j])
                      for j in range(len(t.written))]] if self.draft else []
            hyps += self._along_written(ti, t, _Hyp(ti, [], 0.0, rows[last], dists[last], ahead))
        done: list[_Hyp] = []
        while hyps:
            live = []
            for h in hyps:
                if h.tokens and self.ends_line(h.tokens[-1]):
                    done.append(h)
                elif len(h.tokens) < len(tasks[h.task].written) + self.max_extra:
                    live.append(h)
            hyps = self._grow(tasks, live) if live else []
        if not self.draft:
            # the written lines after their prompts' last rows, in a batch of their own: the
            # rows drafting scores with the prompts (same tokens, positions and ancestors)
            tokens, parents, refs = [], [], []
            first = self.scorer.next_branch_row
            for t, (last, _) in zip(tasks, spans):
                for j, tok in enumerate(t.written):
                    tokens.append(int(tok))
                    parents.append(rows[last] if j == 0 else first + len(tokens) - 2)
                    refs.append(int(t.written[j + 1]) if j + 1 < len(t.written) else None)
            wd, _ = self._branch(tokens, parents, refs, [0] * len(tokens)) if tokens else ([], [])
            at = 0
            for ti, (t, (last, _)) in enumerate(zip(tasks, spans)):
                written_lp[ti] = self._written_logprob(t, dists[last], wd[at:at + len(t.written)])
                at += len(t.written)
        self.written_logprobs.update((t.key, lp) for t, lp in zip(tasks, written_lp))
        out, seen = [], set()
        for h in done:
            key = (h.task, tuple(h.tokens))
            if key not in seen:
                seen.add(key)
                out.append(Proposal(tasks[h.task].key, h.tokens, h.logprob, written_lp[h.task]))
        return out

    def _written_logprob(self, t: LineTask, first: Dist, rows: list[Dist]) -> float:
        """log P of the written line up to the token ending it: `first` judges its first token
        (its reference), row j the token after j (each its reference). The least likely of its
        tokens' log P goes to `written_worst` (a line's worst token read from both sides: where
        a known failure's cause most likely is)."""
        total, worst, judge = 0.0, 0.0, first
        for j, tok in enumerate(t.written):
            lp = judge.ref_logprob if judge.ref == tok else judge.logprob_of(int(tok))
            total += lp
            worst = min(worst, lp)
            if self.ends_line(int(tok)) or j + 1 >= len(rows) + 1:
                break
            judge = rows[j]
        self.written_worst[t.key] = worst
        return total

    def _along_written(self, ti: int, t: LineTask, h: _Hyp) -> list[_Hyp]:
        """Follows the written line while the model's first choice is its token (taking drafted
        rows; without drafts, one batch per token), and forks at the first one it is not (at
        the first `forks` such tokens; with `force`, at its least sure token when there is
        none)."""
        written = list(t.written)
        out: list[_Hyp] = []
        places, weakest = 0, None        # weakest: (margin, j, hypothesis) of the least sure token
        for j, token in enumerate(written):
            if h.dist.top1 != token:
                out += self._forks(ti, h, written, j)
                places += 1
                if places >= self.forks:
                    return out
            elif self.force and (weakest is None or h.dist.margin < weakest[0]):
                weakest = (h.dist.margin, j, h)
            if self.ends_line(token) or j + 1 == len(written):
                break
            h = self._take(h, token)
        if not out and weakest is not None:
            out = self._forks(ti, weakest[2], written, weakest[1], forced=True)
        return out

    def _forks(self, ti: int, h: _Hyp, written: list[int], j: int, forced: bool = False) -> list[_Hyp]:
        """The model's top choices at written token j other than it (those at least
        1/candidate_ratio as likely as its first choice; forced: its best ones whatever their
        odds), each a hypothesis to be written on."""
        d = h.dist
        best = float(d.top_logprobs[0])
        forks = [int(c) for c, lp in zip(d.top_ids, d.top_logprobs)
                 if int(c) != written[j] and not self.stops(int(c)) and (forced or best - float(lp) <= self.log_ratio)]
        # a fork changes the written token (the line goes on as written after it) or comes
        # before it: both are its drafts
        drafts = [written[j + 1:], written[j:]]
        return [_Hyp(ti, h.tokens + [c], h.logprob + d.logprob_of(c), h.row, d, [], drafts)
                for c in forks[:self.n_candidates]]

    def _take(self, h: _Hyp, token: int) -> _Hyp:
        """`h` followed by `token`, from a drafted row when one holds it, else scored alone."""
        hit = _drafted(h.ahead, token)
        if hit is not None:
            d, row, ahead = hit
            return _Hyp(h.task, h.tokens + [token], h.logprob + h.dist.logprob_of(token), row, d, ahead)
        (d,), (row,) = self._branch([token], [h.row], [None], [0])
        return _Hyp(h.task, h.tokens + [token], h.logprob + h.dist.logprob_of(token), row, d, [])

    def _grow(self, tasks: list[LineTask], hyps: list[_Hyp]) -> list[_Hyp]:
        """One step: each hypothesis's last token (chosen, not yet scored) gets its row, followed
        by its draft; a hypothesis whose last token a draft row already holds takes it, and then
        the model's first choice becomes its new last token."""
        tokens, parents, refs, spans = [], [], [], []
        first = self.scorer.next_branch_row
        out: list[_Hyp | None] = [None] * len(hyps)
        for k, h in enumerate(hyps):
            tok = h.tokens[-1]
            hit = _drafted(h.ahead, tok)
            if hit is not None:
                d, row, ahead = hit
                out[k] = _Hyp(h.task, h.tokens, h.logprob, row, d, ahead)
                continue
            chains = [] if not self.draft else \
                [c[:self.draft_max] for c in (h.drafts if h.drafts is not None else
                                              [self._lookup(tasks[h.task].written, h.tokens)])
                 if c[:self.draft_max]]
            at = len(tokens)
            tokens.append(tok)
            parents.append(h.row)
            refs.append(int(chains[0][0]) if chains else None)
            placed = []
            for chain in chains:
                parent = first + at
                for i, dt in enumerate(chain):
                    tokens.append(int(dt))
                    parents.append(parent)
                    refs.append(int(chain[i + 1]) if i + 1 < len(chain) else None)
                    parent = first + len(tokens) - 1
                placed.append((len(tokens) - len(chain), chain))
            spans.append((k, at, placed))
        if tokens:
            dists, rows = self._branch(tokens, parents, refs, [0] * len(tokens))
            for k, at, placed in spans:
                h = hyps[k]
                ahead = [[(int(dt), dists[p + i], rows[p + i]) for i, dt in enumerate(chain)]
                         for p, chain in placed]
                out[k] = _Hyp(h.task, h.tokens, h.logprob, rows[at], dists[at], ahead)
        grown = []
        for h in out:
            nxt = h.dist.top1
            if self.stops(nxt):
                continue
            grown.append(_Hyp(h.task, h.tokens + [nxt], h.logprob + h.dist.logprob_of(nxt), h.row, h.dist, h.ahead))
        return grown

    @staticmethod
    def _lookup(written: Sequence[int], tokens: list[int]) -> list[int]:
        """Prompt lookup in the written line: the tokens that follow the latest place where it
        holds the proposal's last two tokens (else its last one)."""
        written = list(written)
        for n in (2, 1):
            if len(tokens) < n:
                continue
            key = tokens[-n:]
            for p in range(len(written) - n, -1, -1):
                if written[p:p + n] == key:
                    return written[p + n:]
        return []


def _drafted(ahead: list, token: int):
    """(Dist, row, the chains after it) of the draft row holding `token` next, or None."""
    for chain in ahead:
        if chain and chain[0][0] == token:
            _, d, row = chain[0]
            return d, row, [chain[1:]] if len(chain) > 1 else []
    return None


__all__ = ["LineProposer", "LineTask", "Proposal"]
