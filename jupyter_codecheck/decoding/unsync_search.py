"""The edit decoder's unsynchronised search (`EditDecoder` inherits it): when no one-step
hypothesis holds, each candidate's text grows by the sampler's token, with drafts from the cell
itself (prompt lookup), until it rejoins the input; every search's step is one batch of branch
rows, and a text that can no longer beat the best rejoin stops growing.
"""
from __future__ import annotations

from .sampler import NoCandidateError


class UnsyncSearch:
    """`EditDecoder`'s search methods: they read its input, config and scorer through `self`."""

    def _search(self, specs) -> list[list]:
        """The unsynchronised searches of rejections (i, pending, candidates, first): each
        candidate's text grows by the sampler's token until it rejoins the input, one step of
        every search in ONE batch of branch rows (each text follows the input before its own
        rejected token: none for a step that takes drafts already scored, see `_grow`). A search
        finds what it would alone. Returns, per search, its rejoins: (bracket change, size,
        -score, emitted, (start, end, tokens, resume), branch rows, Dist after)."""
        fresh = [(i, cands) for i, _, cands, first in specs if first is None]
        scored = iter(self._grow([(i, [([c], 0.0, [], c, []) for c in cands]) for i, cands in fresh])
                      if fresh else [])
        live, found = [], []
        for i, pending, cands, first in specs:
            if first is None:
                rows = [(d, path[-1]) for _, _, path, d, _ in next(scored)]
            else:
                rows = list(zip(*first))
            # per text: tokens emitted, their log-probability, branch rows, the model's view after,
            # and draft rows already scored after the last one (token, Dist, row)
            live.append([([c], pending.logprob_of(c), [node], d, []) for c, (d, node) in zip(cands, rows)])
            found.append([])
        for step in range(self.cfg.max_unsync):
            groups = []
            for s, (i, _, _, _) in enumerate(specs):
                waiting = []
                for emitted, score, path, cur, ahead in live[s]:
                    hit = self._rejoin(i, emitted, cur)
                    if hit is not None:
                        start, end, tokens, _ = hit
                        # prefer edits that keep the brackets balanced, then small edits, then likely ones
                        found[s].append((self._bracket_change(start, end, tokens), (end - start) + len(tokens),
                                         -score, emitted, hit, path, cur))
                    else:
                        waiting.append((emitted, score, path, cur, ahead))
                live[s] = []
                if step == self.cfg.max_unsync - 1:   # the last check: nothing more to score
                    continue
                best = min(f[:3] for f in found[s]) if found[s] else None
                grown = []
                for emitted, score, path, cur, ahead in waiting:
                    if best is not None and self._cannot_win(len(emitted), score, best):
                        continue
                    try:
                        nxt = self.sampler.sample(cur.top_ids, cur.top_logprobs, exclude=set(self.cfg.stop_ids))
                    except NoCandidateError:
                        continue
                    grown.append((emitted + [nxt], score + cur.logprob_of(nxt), path, nxt, ahead))
                if grown:
                    groups.append((s, i, grown))
            if not groups:
                break
            for (s, _, _), out in zip(groups, self._grow([(i, grown) for _, i, grown in groups])):
                live[s] = out
        return found

    def _grow(self, groups):
        """One step of unsynchronised searches, `groups` of (rejected index i, texts): every text
        takes the token the sampler chose. A text whose draft row (scored in an earlier batch)
        holds that very token takes the row as it is; the others are scored in one batch of
        branch rows, each followed by a chain of draft tokens (`_draft`) that later steps may
        take the same way. The texts, tokens and Dists are those of the search without drafts: a
        draft only saves a batch when the sampler goes on to choose it. A text without branch
        rows yet starts at the context before its x_i."""
        outs = [[None] * len(grown) for _, grown in groups]
        rows, parents, spans, bases, refs = [], [], [], [], []
        first = self.scorer.next_branch_row
        room = self.scorer.model.max_batch - sum(len(grown) for _, grown in groups)
        for o, (i, grown) in enumerate(groups):
            for g, (emitted, score, path, nxt, ahead) in enumerate(grown):
                if ahead and ahead[0][0] == nxt:
                    _, d, node = ahead[0]
                    outs[o][g] = (emitted, score, path + [node], d, ahead[1:])
                    self.drafts_taken += 1
                    continue
                drafts = self._draft(i, emitted)[:max(room, 0)] if path else []
                room -= len(drafts)
                at = len(rows)
                rows += [nxt] + drafts
                parents += [path[-1] if path else -1] + [first + at + k for k in range(len(drafts))]
                bases += [self._base0 + i if self._in_context else None] * (1 + len(drafts))
                refs += [self._ref(i)] * (1 + len(drafts))
                spans.append((o, g, at, len(drafts)))
        if rows:
            dists, nodes = self.scorer.branch(rows, parents, refs,
                                              base=bases if self._in_context else None, purpose="unsync")
            self.drafted += sum(n for _, _, _, n in spans)
            for o, g, at, n in spans:
                emitted, score, path, nxt, _ = groups[o][1][g]
                ahead = [(rows[at + 1 + k], dists[at + 1 + k], nodes[at + 1 + k]) for k in range(n)]
                outs[o][g] = (emitted, score, path + [nodes[at]], dists[at], ahead)
        return outs

    def _draft(self, i, emitted) -> list[int]:
        """Prompt lookup: the input tokens that follow the latest earlier place where the cell
        holds the text's last tokens (3, else 2), at most `draft` of them (1 when sequential:
        one draft token at a time). The text is the input before the rejected token i and what
        the model wrote since."""
        k = self.cfg.draft if self.cfg.mode == "batched" else min(self.cfg.draft, 1)
        if k <= 0:
            return []
        seq = self.inp[max(0, i - 2):i] + list(emitted)
        for n in (3, 2):
            if len(seq) < n:
                continue
            key = seq[-n:]
            # nearest earlier occurrence first, then later ones (a pattern repeated further on)
            for p in list(range(min(i, len(self.inp)) - 1, n - 2, -1)) + list(range(i, len(self.inp))):
                if p - n + 1 >= 0 and p + 1 < len(self.inp) and self.inp[p - n + 1:p + 1] == key:
                    return list(self.inp[p + 1:p + 1 + k])
        return []

    @staticmethod
    def _cannot_win(n_emitted: int, score: float, best: tuple) -> bool:
        """Can a text of `n_emitted` tokens (log-probability `score`) that has not rejoined yet
        still beat the best rejoin found, (bracket change, size, -score)? Any later rejoin of it
        has size >= n_emitted + 1 and a lower score, and no edit changes fewer than 0 brackets:
        so not when the best keeps the brackets and is smaller, or as small and likelier. The
        search stops growing such texts (the result is the same, with fewer rows)."""
        brackets, size, neg_score = best
        if brackets > 0:
            return False
        return n_emitted + 1 > size or (n_emitted + 1 == size and score <= -neg_score)

    def _bracket_change(self, start, end, tokens) -> int:
        """How much replacing input [start, end) by `tokens` changes the bracket counts (0 when
        the token texts are unknown)."""
        pieces = self.cfg.pieces
        if pieces is None:
            return 0
        old = b"".join(pieces(t) for t in self.inp[start:end])
        new = b"".join(pieces(t) for t in tokens)
        return sum(abs(old.count(ch) - new.count(ch)) for ch in (b"(", b")", b"[", b"]", b"{", b"}"))

    def _rejoin(self, i, emitted, cur):
        """Where the input can continue after `emitted`: (start, end, tokens, resume) meaning
        input [start, end) becomes `tokens` and decoding resumes at input `resume`."""
        n = len(self.inp)
        if self._ok(cur, i) and i < n:                                   # insertion
            return i, i, list(emitted), i
        if self._ok(cur, i + 1) and not self.masked[i]:                  # change
            return i, i + 1, list(emitted), i + 1
        last = emitted[-1]
        for j in range(i + 2, min(n, i + 1 + self.cfg.resync_window) + 1):
            # the last output token is input j-1: input [i, j-1) became emitted[:-1]. A lone
            # whitespace token matches too easily: then the token before must match as well.
            if self.inp[j - 1] != last or any(self.masked[i:j - 1]) or not self._ok(cur, j):
                continue
            if last in self.cfg.boundary_ids and not (
                    len(emitted) >= 2 and j - 2 > i and self.inp[j - 2] == emitted[-2]):
                continue
            return i, j - 1, list(emitted[:-1]), j
        return None
