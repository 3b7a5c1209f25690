"""Evidence before alarm: what becomes a finding.

    errors    Python's own checks: a syntax error, an undefined name (exact; the model only
              proposes their fix)
    warnings  a candidate edit that passes the gates and makes the rest of the cell at least
              `margin` nats more likely to the model than the text as written

Everything else the model finds odd (a rejected or flagged token without a winning edit) is a
guess: it stays in the token records and the heat map, never a finding.
"""
from __future__ import annotations

import bisect
import keyword
import math
import re
import time
import tokenize
from dataclasses import dataclass

from .gates import adds_kernel_fact, adds_undefined_name, gate, gate_exact
from .candidates import (Candidate, from_alternatives, from_walk, names,
                         patterns, python_tokens, typos, word_at)
from ..decoding.editor import NOT_KEPT
from ..decoding.exit_policy import make_policy
from ..decoding.scorer import Cancelled
from ..decoding.verify import Probe, Variant, Verdict, verify
from ..pytext.pycheck import CellFacts, near_typo
from .repairs import FIM_SOURCE
from .result import Edit, Evidence, Finding

ERROR_SCORE = 100.0                       # errors rank above every warning
KERNEL_KINDS = ("attribute", "key", "call", "value")     # facts/'s facts
_KEYWORDS = frozenset(keyword.kwlist)
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_SOURCE_ORDER = {"kernel": 0, "walk": 0, "python": 1, "typo": 1, "line": 1, "alternative": 2, "name": 3,
                 "pattern": 4}
# Python's own word for what a broken line lacks (3.10+: "expected ':'")
_EXPECTED = re.compile(r"^expected '([^'\s]{1,3})'$")


def _order(c: Candidate) -> int:
    return _SOURCE_ORDER[c.source.split(":")[0]]


@dataclass
class EvidenceConfig:
    margin: float = 2.0            # nats a warning's edit must gain on the rest of the cell
    warnings: bool = True          # False: the places are weighed (the heat map's guesses, the
    #                                errors' fixes) but no warning is reported (`model_warnings`)
    # what the margin holds a warning's gain to: "nats", the gain itself; "lead", the gain less the
    # best gain at the cell's other lines (an edit must stand out of its own cell: the gains a
    # kind of code usually offers differ more between kinds than within a file)
    measure: str = "nats"
    continuation: int = 24         # most written tokens after an edit that weigh it
    per_site: int = 12             # candidates weighed per place
    alternatives: int = 4          # the model's top choices tried at a rejected token
    min_alt_prob: float = 0.01
    surprising_lines: int = 2      # lines without a rejection whose worst token gets patterns...
    surprise_nats: float = 4.0     # ...when it is at least this surprising
    # 0: the walk's rejections are the places; N: the N most surprising lines are (the raw
    # signal locates a bug better than the rejections do, and each place costs rows)
    places: int = 0
    # rows whose written token the last layer's cheap head finds likely skip the full head
    exit_at_last: bool = True
    # a warning's candidate is scored in full only if its first `probe_tokens` written tokens
    # after the edit leave it within `probe_slack` nats of the margin (0 tokens: no screen)
    probe_tokens: int = 2
    probe_slack: float = 4.0
    # before that, a one-token edit whose own part of the gain plus this falls short is dropped
    probe_edit_slack: float | None = 8.0
    # the written side of a gain from the walk's own reading where it has one (no rows)
    written_from_walk: bool = True
    # an exit test for verification rows before the last layer, where K,V come from the exit
    # state and exit maps are loaded (kv_mode "propagate", a policy that exits early). Off: the
    # exit maps' estimates move gains more than the layers they save are worth
    # (bench/verify_probe.py --early-exit)
    early_exit: str | None = None
    # nats a fill-in-the-middle line repair's own gain must reach (core/repairs.py)
    fim_margin: float = math.inf


def weigh(*, source: str, data: bytes, enc, records: dict, walk_edits: list[Edit],
          facts: CellFacts, encode, scorer, offset: int, token_at, room: int,
          cfg: EvidenceConfig, dists: dict | None = None,
          cache: dict | None = None, exact=(), reasons: dict | None = None,
          unread=frozenset(), cancel=None, repairs=(),
          ) -> tuple[list[Finding], list[Edit], list[Evidence], dict]:
    """Findings, the edits they propose (non-overlapping), the evidence of every weighed place
    and statistics. `records`: TokenRecords by cell token index; `dists`: the walk's Dist of
    each cell position (bounds the gains: see decoding/verify.py); `encode(text) -> ids`;
    `room`: branch rows the context can hold; `cache`: verdicts kept from earlier checks on the
    same context (see decoding/verify.py); `exact`: kernel facts (facts/), errors whose fixes
    are their own candidates; `reasons`: why an undefined name is undefined, by name; `unread`:
    token indices the walk flagged in a stretch it could not read (no place: what the model
    proposes there is noise, and a place costs a parse per candidate); `repairs`: whole-line
    repairs (core/repairs.py), (Candidate, its own gain or None: weighed on the rest of the cell
    like the others; with a gain, it needs `cfg.fim_margin`); `cancel()`: stop."""
    t0 = time.perf_counter()
    places = _Places(source, data, facts)
    places.errors(exact, reasons or {})
    places.model(enc, {k: r for k, r in records.items() if k not in unread}, walk_edits, cfg)
    places.add(c for c, _ in repairs)
    kept, n_generated = places.gated(cfg.per_site, cancel)
    own_gain = {(c.start, c.end, c.text, c.source): g for c, g in repairs if g is not None}

    variants = [Variant(encode(c.apply(data).decode("utf-8", "replace")), k,
                        None if c.site in places.error_lines else cfg.margin, _is_deletion(c))
                for k, c in enumerate(kept) if _own(c) not in own_gain]
    dists = dists or {}

    corrected = _read_after_edits(enc, records, walk_edits)
    written_logprob = _as_written(dists, enc.ids, corrected)
    # as a verification row reads it: at the last layer (an early exit's is an estimate)
    walk_logprob = _as_written(dists, enc.ids, corrected, scorer.model.n_layer - 1)

    def first_logprob(i, token):
        d = dists.get(i)
        return None if d is None else d.logprob_of(int(token))
    early = make_policy(cfg.early_exit) if cfg.early_exit and getattr(scorer.model, "lens", None) is not None \
        else None
    pruned: list = []
    ids = list(enc.ids)
    line_end_tok = _line_end_tokens(enc.starts, data, places.line_starts)
    t1 = time.perf_counter()
    rows0, heads0 = scorer.rows_scored, scorer.full_heads
    verdicts = verify(scorer, ids, variants, offset=offset, token_at=token_at,
                      continuation_end=lambda k: min(len(ids), k + cfg.continuation,
                                                     line_end_tok(k, 2)),
                      max_rows=min(room, scorer.model.max_batch), written_logprob=written_logprob,
                      first_logprob=first_logprob, pruned=pruned,
                      exit_at_last=cfg.exit_at_last,
                      probe=Probe(cfg.probe_tokens, cfg.probe_slack, cfg.probe_edit_slack)
                      if cfg.probe_tokens else None,
                      cache=cache, walk_logprob=walk_logprob if cfg.written_from_walk else None,
                      early=early) if variants and room > 1 else []
    t2 = time.perf_counter()
    verdicts = list(verdicts) + [Verdict(k, own_gain[_own(c)], float("nan"), float("nan"), 0, 0)
                                 for k, c in enumerate(kept) if _own(c) in own_gain]
    findings, edits, evidence = _choose(verdicts, kept, places, data, facts, cfg.margin, cfg.warnings, cfg.measure,
                                        cfg.fim_margin)
    stats = {"places": len(places.sites), "candidates": n_generated,
             "gated_out": n_generated - len(kept) - places.over_cap, "weighed": len(kept),
             "bounded_out": len(pruned), "rows": scorer.rows_scored - rows0,
             "full_heads": scorer.full_heads - heads0,
             "time_s": time.perf_counter() - t0, "scoring_s": t2 - t1}
    if own_gain:      # the line repairs' own gains past the gates, [line, gain, text]: what `fim_margin` is set on
        stats["repair_gains"] = sorted(([c.site, round(own_gain[_own(c)], 3), c.text]
                                        for c in kept if _own(c) in own_gain), key=lambda x: (-x[1], x[0]))
    return findings, edits, evidence, stats


class _Places:
    """The places worth weighing in a cell and the candidate edits at each (by line)."""

    def __init__(self, source: str, data: bytes, facts: CellFacts):
        self.data, self.facts = data, facts
        self.line_starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
        self.pytoks = python_tokens(source)
        self.sites: dict[int, list[Candidate]] = {}
        self.error_lines: dict[int, Finding] = {}
        # the byte spans an exact error names (an undefined name, a kernel fact's word): its fix
        # is there, not elsewhere on the line
        self.error_spans: dict[int, list[tuple[int, int]]] = {}
        self.recorded: set[tuple[int, int, str]] = set()    # a release's own replacement (KernelFact)
        self.over_cap = 0

    def add(self, cands) -> None:
        for c in cands:
            self.sites.setdefault(c.site, []).append(c)

    def is_recorded(self, c: Candidate) -> bool:
        return (c.start, c.end, c.text) in self.recorded

    def line_of(self, pos: int) -> int:
        return bisect.bisect_right(self.line_starts, pos)

    def errors(self, exact=(), reasons: dict | None = None) -> None:
        """Python's own findings first; near-typos of the words it cannot read are their fixes.
        Then the kernel's facts, with the exact alternatives they name."""
        data, facts = self.data, self.facts
        if facts.syntax is not None:
            ln = facts.syntax.line
            self.error_lines[ln] = syntax_finding(facts.syntax)
            self.sites.setdefault(ln, [])
            expected = _EXPECTED.match(facts.syntax.message)
            if expected:        # what Python says is missing, where it says: the model weighs it
                at = _byte_at(data, self.line_starts, ln, facts.syntax.column)
                self.add([Candidate(at, at, expected.group(1), "python", ln)])
            for a, b in _words_on_line(data, self.line_starts, ln):
                word = data[a:b].decode("utf-8", "replace")
                if word not in facts.scope and word not in _KEYWORDS:
                    self.add(typos(word, a, b, facts, ln, _after_dot(data, a)))
        for u in facts.undefined:
            span = word_at(data, _byte_at(data, self.line_starts, u.line, u.column))
            if span is None:
                continue
            self.error_lines.setdefault(u.line, undefined_finding(u, (reasons or {}).get(u.name)))
            self.error_spans.setdefault(u.line, []).append(span)
            self.add(typos(u.name, span[0], span[1], facts, u.line, False))
        for f in exact:
            a = _byte_at(data, self.line_starts, f.line, f.column)
            b = _byte_at(data, self.line_starts, f.line, f.end_column)
            self.error_lines.setdefault(f.line, kernel_finding(f))
            self.error_spans.setdefault(f.line, []).append((a, b))
            self.add([Candidate(a, b, text, "kernel", f.line) for text in f.candidates])
            if getattr(f, "recorded", False) and f.candidates:
                self.recorded.add((a, b, f.candidates[0]))

    def model(self, enc, records: dict, walk_edits: list[Edit], cfg: EvidenceConfig) -> None:
        """The walk's places: its edits and the tokens it rejected or flagged; then the bug
        patterns and names in scope on those lines and on the most surprising other ones. With
        `cfg.places`, the places are the cell's most surprising lines instead, each at its worst
        token whether the walk kept it or not (the raw signal: where the model is surprised)."""
        data, facts = self.data, self.facts
        worst: dict[int, float] = {}
        worst_at: dict[int, object] = {}
        for r in records.values():
            if r.prob is not None and r.decision != "masked":
                nats = -math.log(max(r.prob, 1e-12))
                if nats > worst.get(r.line, -1.0):
                    worst[r.line], worst_at[r.line] = nats, r
        chosen = set(sorted(worst, key=lambda ln: (-worst[ln], ln))[:cfg.places]) if cfg.places else None
        self.add([c for c in from_walk(walk_edits, self.line_of) if chosen is None or c.site in chosen])
        at = [r for r in records.values() if r.decision in NOT_KEPT and (chosen is None or r.line in chosen)]
        if chosen is not None:
            at += [worst_at[ln] for ln in sorted(chosen) if worst_at[ln].decision not in NOT_KEPT]
        for r in at:
            alts = [a.text.encode("utf-8") for a in r.alternatives
                    if a.prob >= cfg.min_alt_prob and a.text != r.text][:cfg.alternatives]
            self.add(from_alternatives(r.index, enc.starts, enc.ends, data, alts, r.line))
            span = word_at(data, r.start) if data[r.start:r.end].strip() else None
            if span is not None and span[1] - span[0] >= 3:
                word = data[span[0]:span[1]].decode("utf-8", "replace")
                if not word.isdigit():
                    self.add(typos(word, span[0], span[1], facts, r.line, _after_dot(data, span[0])))
        if chosen is None:
            extra = sorted((ln for ln in worst if ln not in self.sites and worst[ln] >= cfg.surprise_nats),
                           key=lambda ln: -worst[ln])[:cfg.surprising_lines]
        else:
            extra = [ln for ln in sorted(chosen) if ln not in self.sites]
        for ln in list(self.sites) + extra:
            self.add(patterns(self.pytoks, ln, facts))
            for t in self.pytoks:
                if t.line != ln or t.type != tokenize.NAME or t.string not in facts.locals:
                    continue
                i = _token_index(enc.starts, t.start)
                rec = records.get(i)
                # the model token that starts the name (` name` holds its leading space)
                if rec is not None and rec.alternatives and \
                        enc.starts[i] == t.start - _lead_space(data, t.start, enc.starts[i]):
                    self.add(names(t, [a.text for a in rec.alternatives[:5]], facts))

    def gated(self, per_site: int, cancel=None) -> tuple[list[Candidate], int]:
        """The candidates that pass the gates, at most `per_site` a place (walk, typos,
        alternatives, names, patterns first); and how many distinct ones were generated. Each
        gate may parse the cell: `cancel()` is asked before each."""
        kept, generated = [], 0
        for cands in self.sites.values():
            seen, ok = set(), []
            for c in sorted(cands, key=_order):
                if cancel is not None and cancel():
                    raise Cancelled()
                if (c.start, c.end, c.text) in seen:
                    continue
                seen.add((c.start, c.end, c.text))
                generated += 1
                if (gate_exact if c.source == "kernel" else gate)(c, self.data, self.facts) is None:
                    ok.append(c)
            self.over_cap += max(0, len(ok) - per_site)
            kept += ok[:per_site]
        return kept, generated


def _own(c: Candidate) -> tuple:
    return c.start, c.end, c.text, c.source


def _choose(verdicts, kept: list[Candidate], places: _Places, data: bytes, facts: CellFacts,
            margin: float, warnings: bool = True, measure: str = "nats", fim_margin: float = math.inf
            ) -> tuple[list[Finding], list[Edit], list[Evidence]]:
    """Each place's best candidate is its evidence; it becomes a fix when it clears the place's
    floor (an error: gain >= 0, preferring a near-typo; else the margin, with the rest of the
    cell not against it) and passes the exact undefined-name gate without overlapping a fix
    already taken."""
    by_site: dict[int, list] = {}
    for v in verdicts:
        by_site.setdefault(kept[v.key].site, []).append((_score(v, kept[v.key]), kept[v.key], v))
    findings: dict[int, Finding] = dict(places.error_lines)
    edits: list[Edit] = []
    evidence: list[Evidence] = []
    taken: list[tuple[int, int]] = []
    shown_of = {}
    for site in sorted(by_site):
        ranked = sorted(by_site[site], key=lambda x: -x[0])
        # a line repair's own gain is of another reading than the rest's: a place's evidence is
        # its best verified candidate, a repair only where the place has none
        verified = [r for r in ranked if r[1].source != FIM_SOURCE] or ranked
        shown = next((r for r in verified if _continuation_gain(r[2], r[1]) >= 0), verified[0])
        shown_of[site] = (ranked, _evidence(shown[1], data, shown[0], shown[2]))
    for site in sorted(by_site):
        ranked, shown = shown_of[site]
        evidence.append(shown)
        is_error = site in places.error_lines
        if not (is_error or warnings):
            continue
        # lead: the gains available at the cell's other lines raise this place's floor
        elsewhere = max([0.0, *(e.gain for _, e in shown_of.values() if e.line != shown.line)]) \
            if measure == "lead" else 0.0
        if is_error:
            # among the fixes the cell gains by: a near-typo of the word Python could not resolve
            # is the likeliest slip (for a name defined nowhere, the only fix that says what was
            # meant), and a fix that keeps the user's words (`for v in x` + ':') comes before one
            # that renames them (`for v in list:`)
            # a release's own replacement (renamed API) first, whatever the model's prior says
            ranked = sorted((x for x in ranked if x[0] >= 0.0 or places.is_recorded(x[1])),
                            key=lambda x: (not places.is_recorded(x[1]), not _is_typo_fix(x[1], data),
                                           _drops_a_name(x[1], data), -x[0]))
            if places.error_lines[site].kind == "undefined-name":
                ranked = [x for x in ranked if _is_typo_fix(x[1], data)]
            if site in places.error_spans:      # the fix of an exact error is at its word
                ranked = [x for x in ranked if any(x[1].start < b and x[1].end > a
                                                   for a, b in places.error_spans[site])]
                if places.error_lines[site].kind in KERNEL_KINDS:
                    ranked = [x for x in ranked if x[1].source == "kernel"]
        below = False             # the verified candidates have fallen below the place's floor
        for gain, c, v in ranked:
            if c.source == FIM_SOURCE:
                if gain < fim_margin:
                    continue      # a repair is held to its own floor, whatever the others' margin
            elif below or gain < (0.0 if is_error else margin + elsewhere) and not (is_error and places.is_recorded(c)):
                below = True
                continue
            if not is_error and _continuation_gain(v, c) < 0:
                continue           # the edit wins on its own tokens while the rest disagrees
            if any(c.start < b and c.end > a or c.start == c.end == a for a, b in taken):
                continue
            if adds_undefined_name(c, data, facts) or (not is_error and adds_kernel_fact(c, data, facts)):
                continue
            edit = _as_edit(c, data)
            edits.append(edit)
            taken.append((c.start, c.end))
            if is_error:
                f = places.error_lines[site]
                if c.source == "kernel":      # one of the object's own names, as the user writes it
                    f.message += f"; did you mean {edit.replacement}?"
                else:
                    f.message += (f"; the model proposes {_shown(edit.replacement)}" if edit.replacement.strip()
                                  else f"; the model proposes to delete {_shown(edit.original)}")
            else:
                findings[site] = Finding(line=edit.line, column=edit.column, score=round(gain, 4),
                                         kind=edit.kind, message=_message(edit, gain, c.source), replacement=None,
                                         severity="warning", gain=round(gain, 4))
            break
    return [findings[k] for k in sorted(findings)], edits, evidence


def _score(v, c: Candidate) -> float:
    """The evidence an edit has: its gain, except that a deletion does not count the deleted
    tokens' own cost (any text is cheaper without some of it): only what the rest gains."""
    return _continuation_gain(v, c) if _is_deletion(c) else v.gain


def _continuation_gain(v, c: Candidate) -> float:
    """What the rest of the cell says: the gain without the edited tokens' own part. A warning
    needs it >= 0: an edit must win on the rest of the cell, not on its token alone."""
    return v.gain - v.edit_gain


def _drops_a_name(c: Candidate, data: bytes) -> bool:
    """Does the edit remove a word the user wrote (`x` -> `list:`)?"""
    return bool(set(_WORD.findall(data[c.start:c.end])) - set(_WORD.findall(c.text.encode("utf-8"))))


def _is_typo_fix(c: Candidate, data: bytes) -> bool:
    """Does the edit replace a word by a near-typo of it (whoever proposed it)?"""
    old = data[c.start:c.end].decode("utf-8", "replace").strip()
    new = c.text.strip()
    return c.source in ("typo", "kernel") or (old.isidentifier() and new.isidentifier() and near_typo(old, new))


def syntax_finding(problem) -> Finding:
    """The error finding of a syntax problem (pycheck.syntax_problem)."""
    return Finding(line=problem.line, column=problem.column, score=ERROR_SCORE, kind="syntax",
                   message=f"syntax error: {problem.message}", replacement=None, severity="error")


def undefined_finding(u, reason: str | None = None) -> Finding:
    """The error finding of an undefined name (pycheck.UndefinedName), with the notebook's reason
    where it has one (facts/run_order.py)."""
    why = f": {reason}" if reason else ""
    return Finding(line=u.line, column=u.column, score=ERROR_SCORE, kind="undefined-name",
                   message=f"name {u.name!r} is not defined{why}", replacement=None, severity="error")


def kernel_finding(f) -> Finding:
    """The error finding of a kernel fact (facts/: attribute, key, call, value)."""
    return Finding(line=f.line, column=f.column, score=ERROR_SCORE, kind=f.kind, message=f.message,
                   replacement=None, severity="error", end_column=f.end_column)


def _is_deletion(c: Candidate) -> bool:
    return not c.text.strip() and c.end > c.start


def _as_edit(c: Candidate, data: bytes) -> Edit:
    line = data[:c.start].count(b"\n") + 1
    col = len(data[data.rfind(b"\n", 0, c.start) + 1:c.start].decode("utf-8", "replace"))
    kind = "insert" if c.start == c.end else "delete" if not c.text else "change"
    return Edit(kind=kind, start=c.start, end=c.end, line=line, column=col,
                original=data[c.start:c.end].decode("utf-8", "replace"), replacement=c.text)


def _evidence(c: Candidate, data: bytes, gain: float, v) -> Evidence:
    e = _as_edit(c, data)
    return Evidence(line=e.line, column=e.column, start=c.start, end=c.end, original=e.original,
                    replacement=e.replacement, gain=round(gain, 4), source=c.source,
                    tokens_scored=v.end - v.start, edit_gain=round(v.edit_gain, 4),
                    supported=_continuation_gain(v, c) >= 0)


def _message(e: Edit, gain: float, source: str = "") -> str:
    why = f"the rest of the cell reads {gain:.1f} nats more likely with it" if source != FIM_SOURCE else \
        f"the model, reading the code before and after the line, finds the cell {gain:.1f} nats more likely with it"
    if e.kind == "insert":
        return f"something seems missing here: {_shown(e.replacement)}? ({why})"
    if e.kind == "delete":
        return f"{_shown(e.original)} seems superfluous ({why} removed)"
    return f"{_shown(e.original)} looks wrong here: {_shown(e.replacement)}? ({why})"


def _shown(text: str) -> str:
    if text.strip():
        return repr(text.strip())
    if "\n" in text:
        return "a line break"
    return "a space" if text == " " else f"{len(text)} spaces" if text else "nothing"


def _after_dot(data: bytes, start: int) -> bool:
    j = start - 1
    while j >= 0 and data[j:j + 1] in (b" ", b"\t"):
        j -= 1
    return j >= 0 and data[j:j + 1] == b"."


def _words_on_line(data: bytes, line_starts, line: int):
    a = line_starts[line - 1] if line - 1 < len(line_starts) else len(data)
    b = line_starts[line] if line < len(line_starts) else len(data)
    return [(m.start() + a, m.end() + a) for m in _WORD.finditer(data[a:b])]


def _byte_at(data: bytes, line_starts, line: int, col: int) -> int:
    a = line_starts[line - 1] if line - 1 < len(line_starts) else len(data)
    text = data[a:].split(b"\n", 1)[0].decode("utf-8", "replace")
    return a + len(text[:col].encode("utf-8"))


def _token_index(starts, pos: int) -> int:
    return max(0, bisect.bisect_right(starts, pos) - 1)


def _lead_space(data: bytes, pos: int, tok_start: int) -> int:
    """Bytes of spaces between a model token's start and the Python token at `pos` (the model
    writes ' name' as one token)."""
    gap = data[tok_start:pos]
    return len(gap) if gap.strip() == b"" else -1


def _read_after_edits(enc, records: dict, walk_edits: list[Edit]) -> set[int]:
    """Cell tokens the walk may have read in its corrected text rather than as written: those
    its edits touch, the token after each, and those after a token it did not accept."""
    out: set[int] = set()
    for e in walk_edits:
        a = _token_index(enc.starts, e.start)
        b = _token_index(enc.starts, e.end - 1) if e.end > e.start else a
        out.update(range(a, b + 2))
    for i, r in records.items():
        if r.decision not in ("accept", "masked"):
            out.update((i, i + 1))
    return out


def _as_written(dists: dict, ids, corrected: set[int], layer: int | None = None):
    """f(i): log p of written token i as the walk read it in the text as written, at `layer` if
    given; None when it was not so read (a reading in the walk's corrected text says nothing of
    the text as written, so neither the bound, the free screen nor the written side may use it)."""
    def f(i: int) -> float | None:
        d = dists.get(i)
        if d is None or i in corrected or d.ref != ids[i] or (layer is not None and d.exit_layer != layer):
            return None
        return d.ref_logprob
    return f


def _line_end_tokens(starts, data: bytes, line_starts):
    """f(k, extra): the first cell token after the end of the line `extra - 1` lines below the one
    holding token k (extra=2: the rest of that line and the next one)."""
    def f(k: int, extra: int) -> int:
        if k >= len(starts):
            return len(starts)
        ln = bisect.bisect_right(line_starts, starts[k])       # 1-based line of token k
        stop_line = ln + extra - 1                              # last line included
        end = line_starts[stop_line] if stop_line < len(line_starts) else len(data)
        return bisect.bisect_left(starts, end)
    return f


__all__ = ["EvidenceConfig", "weigh", "syntax_finding", "undefined_finding", "kernel_finding", "ERROR_SCORE"]
