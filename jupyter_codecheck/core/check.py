"""The one entry point: check(source, *, context=None, **options) -> CheckResult.

    result = check("def f(x):\n    retrun x\n")
    result.findings[0].line        # 2
    result.corrected               # "def f(x):\n    return x\n"

`context`: the earlier cells, in the order they ran; a long notebook's are read as every view
reads them (the most recent within the model's budget; the rest still define names).
`check_iter(...)` takes the same arguments and yields each input token's `TokenRecord` and each
`Edit` as soon as they are decided, then the `CheckResult` last.
"""
from __future__ import annotations

import math
from functools import partial
import time
from typing import Iterator, Sequence

import numpy as np

from ..decoding.editor import NOT_KEPT, EditDecoder, EditEvent, EditorConfig, TokenEvent
from ..decoding.exit_policy import make_policy
from ..decoding.scorer import Cancelled, Scorer
from .calibration import shipped, shipped_model_warnings
from .evidence import EvidenceConfig, weigh
from ..pytext.pycheck import analyse
from ..pytext.pysource import free_spans
from .result import Alternative, CheckResult, Edit, TokenRecord, apply_edits
from .masking import masked_spans, overlapping
from .options import CheckOptions, validate
from .resolved_model import ResolvedModel, resolve_model
from .resume import LastRun, hold_cell, prime, resumable, resume_key, verdict_cache
from .silence import Silencer
from ..pytext.sources import NotTextError, is_python_cell
from .vocab import HEAL_SHORTLIST_MAX, closer_ids, document_start, longer_ids, whitespace_ids

# -- the walk ----------------------------------------------------------------------------------------

def shows_model_warnings(opts: CheckOptions) -> bool:
    """Does a check with these options report the model's warnings? `model_warnings`: on, off, or
    (evidence) where the shipped calibration says the model's warnings beat chance on held-out code
    of this kind, notebook cells or files, in checks like this one (with line repairs or
    without): a model with no such verdict shows none."""
    if opts.model_warnings != "evidence":
        return opts.model_warnings == "on"
    return bool(shipped(partial(shipped_model_warnings, notebook=opts.notebook, repairs=opts.repairs == "lines"),
                        opts.model, False))


def check(source: str, *, context: Sequence[str] | None = None, progress=None, **options) -> CheckResult:
    result = None
    for item in check_iter(source, context=context, progress=progress, **options):
        result = item
    assert isinstance(result, CheckResult)
    return result


def check_iter(source: str, *, context: Sequence[str] | None = None, progress=None,
               **options) -> Iterator[TokenRecord | Edit | CheckResult]:
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}")
    NotTextError.check(source, "the source")
    for k, cell in enumerate(context or ()):
        NotTextError.check(cell, f"context cell {k}")
    context, options = _chosen_context(context, options)
    given = validate(options)
    # the model named, resolved once: its file, calibration, margin and places go down from here
    model = resolve_model(given.get("model"))
    opts = CheckOptions.from_valid(given, model)
    rule, sampler = opts.acceptance_rule(), opts.sampler()
    from .adapter import load_model, single_threaded_blas
    engine = load_model(model, opts.n_threads)
    with engine.lock, single_threaded_blas():
        # no lens (and no first-use fit) unless the policy exits before the last layer
        wants_lens = opts.lens and _exits_early(opts.policy_spec(True), engine.session.n_layer)
        lens = engine.get_lens(progress) if wants_lens else None
        run = _Run(source, context, opts, model, engine, lens=lens, rule=rule, sampler=sampler)
        yield from run.walk()
        verification = run.verify()
        yield from run.result.edits
        yield run.finish(verification)


def _chosen_context(context, options: dict):
    """The context the model reads, chosen as every view chooses it (long_sources.select_context:
    the most recent cells within the budget, once the cells given hold more than twice it); the
    cells before that window still define names (the `earlier` option). A long notebook's cells
    given whole then never overflow the model's context."""
    if not context:
        return context, options
    from .context import select_context
    context = list(context)
    start, window = select_context(context)
    if start == 0:
        return context, options
    return window, {**options, "earlier": [*(options.get("earlier") or ()), *context[:start]]}


def policy_name(spec) -> str:
    """An exit policy as a user names it: a preset's name rather than its tests ('head', not
    'ref-rank:3+ref-prob:0.1,min:-1,after-accept'); 'none' for full depth."""
    if spec is None:
        return "none"
    from ..decoding.exit_policy import PRESETS
    return next((name for name, tests in PRESETS.items() if name != "default" and tests == spec), str(spec))


def _exits_early(spec, n_layer: int) -> bool:
    """Does the policy test any layer before the last (where the exit lens maps the states)?"""
    policy = make_policy(spec)
    if policy is None:
        return False
    layers = policy.test_layers(n_layer)
    return layers is None or any(l < n_layer - 1 for l in layers)


class _Run:
    """One check, in three steps: `walk()` (the edit walk, resuming an edited cell), `verify()`
    (the evidence step and Python's own checks), `finish()` (the corrected code and the stats)."""

    def __init__(self, source: str, context, opts: CheckOptions, model: ResolvedModel, engine, *,
                 lens, rule, sampler):
        self.t0 = time.perf_counter()
        self.source, self.context, self.opts, self.model, self.engine = source, context, opts, model, engine
        self.lens, self.rule, self.sampler = lens, rule, sampler
        self.policy = make_policy(opts.policy_spec(lens is not None))
        self.tok = tok = engine.tokenizer       # last: in a new process it may still be loading
        self.enc = enc = tok.encode(source)
        self.data = enc.data
        self.python_cell = is_python_cell(source)
        self.prefix = self._prefix()
        self.decoder = self._decoder()
        self.result = CheckResult(source=source)
        self.records: dict[int, TokenRecord] = {}
        self.events: list[TokenEvent] = []
        self.walk_edits: list[Edit] = []
        self.cancelled = False
        self.reused = 0
        self.silenced = 0

    def _prefix(self) -> list[int]:
        """The document start and as much of the context as fits beside the cell and the walk."""
        tok, n, n_ctx = self.tok, len(self.enc.ids), self.engine.session.n_ctx
        prefix = document_start(tok)
        room = n_ctx - n - _walk_slack(self.opts)
        if room < len(prefix):
            from ..engine.errors import ContextFullError
            raise ContextFullError(f"the cell has {n} tokens but the model's context holds "
                                   f"{n_ctx}: split it into smaller cells")
        if self.context:
            # cell by cell, as each was checked: a notebook's next check then finds the KV of the
            # earlier cells' own tokens in the session (text joined first merges the blank lines
            # between cells into other tokens)
            ctx_ids = [t for c in self.context for t in tok.encode(c.rstrip("\n") + "\n\n").ids]
            # the most recent context is kept when it all does not fit beside the cell
            prefix += ctx_ids[max(0, len(ctx_ids) - (room - len(prefix))):]
        return prefix

    def _decoder(self) -> EditDecoder:
        from .adapter import EngineLayerModel
        opts, engine, tok, enc = self.opts, self.engine, self.tok, self.enc
        self.layer_model = EngineLayerModel(engine.session, kv_mode=opts.kv_mode, lens=self.lens)
        longer = engine.cached("longer", longer_ids)
        heal_in_shortlist = frozenset(t for t in set(enc.ids)
                                      if 0 < len(longer.get(t, ())) <= HEAL_SHORTLIST_MAX)
        if not engine.set_cell_shortlist(enc.ids or [0], [x for t in heal_in_shortlist for x in longer[t]]):
            heal_in_shortlist = frozenset()
        info = engine.model.info
        rule_k = max(self.rule.top_k_needed(), 8)
        self.scorer = Scorer(self.layer_model, self.policy, top_k=rule_k, cancel=opts.cancel)
        stop_ids = frozenset(i for i in range(min(info.n_vocab, 64)) if tok.is_eog(i)) | {tok.eos_id}
        cfg = EditorConfig(mode=opts.mode, window=opts.window, max_unsync=opts.max_unsync,
                           n_candidates=opts.n_candidates, pieces=tok.piece,
                           stop_ids=stop_ids, boundary_ids=engine.cached("whitespace", whitespace_ids),
                           tail_ids=engine.cached("closers", closer_ids),
                           heal_prob=EditorConfig.heal_prob if opts.token_healing else None,
                           healable=frozenset(longer), heal_in_shortlist=heal_in_shortlist,
                           anchored=opts.anchored, draft=opts.draft,
                           context_limit=engine.session.n_ctx)
        return EditDecoder(self.scorer, self.rule, self.sampler, cfg)

    def walk(self) -> Iterator[TokenRecord]:
        """The edit walk over the cell, yielding each token's record as it is decided; an edited
        cell's unchanged, accepted beginning is taken over from the last check."""
        enc, data, tok, prefix, session = self.enc, self.data, self.tok, self.prefix, self.engine.session
        n_layer = self.engine.model.info.n_layer
        # a cell in another language (%%bash, %%html, ...) is all masked: shown, never judged
        masked = overlapping(enc.starts, enc.ends,
                             masked_spans(data) if self.python_cell else [(0, len(data))])
        free = overlapping(enc.starts, enc.ends, free_spans(self.source)) if self.opts.python else None
        raw_edits: list[EditEvent] = []
        try:
            text_of = _token_texts(data, enc.starts, enc.ends)
            start, replay, kept_edits = resumable(self.engine.memory, session, prefix, enc.ids, self.opts)
            for ev in kept_edits:
                raw_edits.append(ev)
                self.walk_edits.append(_edit(ev, enc, data, tok))
            if start:
                # an edited cell: its unchanged, accepted beginning keeps its KV and its decisions
                session.truncate(len(prefix) + start - 1)
                lead = enc.ids[start - 1]
                self.reused = len(prefix) + start - 1
                for ev in replay[:start]:
                    rec = _record(ev, enc, text_of, tok, n_layer)
                    self.records[ev.index] = rec
                    yield rec
            else:
                lead, self.reused = prime(session, prefix)
            events = self.events
            events.extend(replay[:start])
            # the token before the cell's first undecided one is scored by the decoder: its row
            # judges that token (with the first window, when it can)
            not_kept = [ev.index for ev in replay[:start] if ev.decision in NOT_KEPT]
            for ev in self.decoder.run(enc.ids, masked, free=free, start=start, lead_token=lead,
                                       not_kept=not_kept):
                if isinstance(ev, TokenEvent):
                    events.append(ev)
                    rec = _record(ev, enc, text_of, tok, n_layer)
                    self.records[ev.index] = rec
                    yield rec
                else:
                    # the walk's edit is a candidate: it becomes a finding only with evidence
                    raw_edits.append(ev)
                    self.walk_edits.append(_edit(ev, enc, data, tok))
            self.engine.memory.last_run = LastRun(prefix, list(enc.ids), events, raw_edits,
                                                  resume_key(self.opts))
        except (Cancelled, KeyboardInterrupt):
            self.cancelled = True
        self.result.tokens = [self.records[i] for i in sorted(self.records)]

    def verify(self) -> dict:
        """Weighs the walk's edits and Python's findings on the rest of the cell; what has the
        evidence becomes the result's findings and edits. Returns the evidence step's stats."""
        opts, engine, enc, tok, prefix, result = self.opts, self.engine, self.enc, self.tok, self.prefix, self.result
        source, data, context, scorer = self.source, self.data, self.context, self.scorer
        defined = self.defined
        facts = analyse(source, _defining(opts.earlier, context), defined) if opts.python and self.python_cell else None
        if facts is not None:
            facts.shows_last = opts.notebook
        verification = {}
        if facts is not None and not self.cancelled:
            try:
                # reading the kernel's objects may import a library: an interrupt there cancels too
                exact, reasons = self._notebook_facts(facts)
                if hold_cell(engine.session, prefix, enc.ids):
                    margin = next(m for m in (opts.margin, self.model.margin(opts.notebook), EvidenceConfig.margin)
                                  if m is not None)
                    places = next(p for p in (opts.places, self.model.places, 0) if p is not None)
                    cfg = EvidenceConfig(margin=margin, continuation=opts.continuation, probe_tokens=opts.probe,
                                         places=places, warnings=shows_model_warnings(opts),
                                         measure=self.model.margin_measure,
                                         fim_margin=_repair_margin(opts, self.model))
                    common = dict(enc=enc, encode=lambda text: tok.encode(text).ids, scorer=scorer,
                                  offset=len(prefix), cfg=cfg,
                                  token_at=lambda i: prefix[len(prefix) + i] if i < 0 else enc.ids[i],
                                  room=engine.session.n_ctx - engine.session.n_past,
                                  cache=verdict_cache(engine.memory, prefix, opts))
                    repairs, repair_stats = self._line_repairs()
                    result.findings, result.edits, result.evidence, verification = weigh(
                        source=source, data=data, records=self.records, walk_edits=self.walk_edits,
                        facts=facts, dists={ev.index: ev.dist for ev in self.events if ev.dist is not None},
                        exact=exact, reasons=reasons,
                        unread=frozenset(ev.index for ev in self.events if not ev.searched),
                        cancel=opts.cancel, repairs=repairs, **common)
                    if repair_stats is not None:
                        verification["line_repairs"] = repair_stats
                    if facts.syntax is not None and result.edits:
                        _past_the_syntax_error(result, data, _defining(opts.earlier, context), defined, common)
            except (Cancelled, KeyboardInterrupt):
                self.cancelled = True
        _drop_shut_branches(result, source, opts.namespace)
        # before the edits are streamed: a silenced finding's fix is no edit anywhere
        self.silenced = Silencer(source, opts.ignore).apply(result)
        return verification

    def _line_repairs(self) -> tuple[list, dict | None]:
        """With `repairs="lines"`: the model's whole-line repairs at the most suspicious lines
        (core/repairs.py), candidates beside the walk's; the context holds the cell as written."""
        opts = self.opts
        if opts.repairs != "lines":
            return [], None
        from .repairs import LineRepairConfig, fim_ids, header_spans, line_candidates
        prompt = opts.repair_prompt
        if prompt == "auto":
            prompt = "fim" if fim_ids(self.tok) is not None else "left"
        cfg = LineRepairConfig(lines=opts.repair_lines, prompt=prompt)
        return line_candidates(data=self.data, enc=self.enc, records=self.records, scorer=self.scorer,
                               tok=self.tok, prefix=self.prefix, offset=len(self.prefix),
                               cfg=cfg, free=header_spans(self.data) if self.python_cell else (),
                               before="".join(c.rstrip("\n") + "\n\n" for c in self.context or ()),
                               room=self.engine.session.n_ctx - self.engine.session.n_past)

    @property
    def defined(self):
        """The kernel's live objects, or its names, or None (no kernel)."""
        return None if self.opts.namespace is None else self.opts.namespace.defined

    def _notebook_facts(self, facts) -> tuple[list, dict]:
        """The kernel's facts on the cell (given, or read from the namespace's objects) and the
        notebook's reason for each undefined name (run order, a failed cell, a `del`)."""
        from ..facts import facts_for
        opts, t0 = self.opts, time.perf_counter()
        got = facts_for(self.source, opts.namespace, analysed=facts, given=opts.facts, history=opts.history,
                        earlier=_defining(opts.earlier, self.context), failed=opts.failed, later=opts.later,
                        libraries=opts.libraries)
        if got.read is not None:
            facts.live_facts = got.read     # the fix gate's "before": read once
        self.kernel_s = time.perf_counter() - t0
        return got.facts, got.reasons

    def finish(self, verification: dict) -> CheckResult:
        result = self.result
        result.corrected = apply_edits(self.data, result.edits).decode("utf-8", "replace")
        _corrected_lines(result)
        result.stats = self._stats(verification, time.perf_counter() - self.t0)
        return result

    def _stats(self, verification: dict, dt: float) -> dict:
        engine, opts, scorer, decoder, policy = self.engine, self.opts, self.scorer, self.decoder, self.policy
        info = engine.model.info
        n, n_layer = len(self.enc.ids), info.n_layer
        computed = self.layer_model.layers_computed
        possible = scorer.rows_scored * n_layer
        return {
            "model": self.model.display_name,
            "model_name": info.name, "model_path": info.path, "n_layer": n_layer,
            "arch": info.arch, "n_vocab": info.n_vocab, "n_threads": engine.session.n_threads,
            "mode": opts.mode, "exit_policy": policy.name if policy else None, "kv_mode": opts.kv_mode,
            # were the model's warnings reported (the `model_warnings` option, the model's verdict)
            "model_warnings": shows_model_warnings(opts),
            "exit_policy_name": policy_name(policy.name if policy else None),
            "lens": self.lens is not None, "sampler": self.sampler.describe(),
            "tokens": n, "rows_scored": scorer.rows_scored, "full_heads": scorer.full_heads,
            "context_tokens": len(self.prefix),
            "context_reused": self.reused,
            "layers_computed": computed, "layers_possible": possible,
            "layer_steps": self.layer_model.layer_steps,
            "layer_fraction": computed / possible if possible else 0.0,
            "decision_depth": float(((np.arange(n_layer) + 1) * scorer.exit_histogram).sum() / possible)
            if possible else 0.0,
            "exit_histogram": scorer.exit_histogram.tolist(),
            # branch batches by purpose: correction (a rejection's candidates), unsync (the search for
            # a rejoin), confirm (a rejection read at an early exit, at full depth)
            "branch": {k: {"batches": b, "rows": r, "time_s": t}
                       for k, (b, r, t) in sorted(scorer.branch_stats.items())},
            "drafted": decoder.drafted, "drafts_taken": decoder.drafts_taken,
            "unsearched": decoder.unsearched,
            # the evidence step: places weighed, candidates generated / stopped by the gates /
            # weighed by the model, branch rows scored, seconds (scoring_s: the model's part)
            "verification": verification,
            "kernel_facts_s": getattr(self, "kernel_s", 0.0),
            "silenced": self.silenced,
            "time_s": dt, "tokens_per_s": n / dt if dt > 0 else 0.0, "cancelled": self.cancelled,
        }


# -- the result ------------------------------------------------------------------------------------

def _past_the_syntax_error(result: CheckResult, data: bytes, context, names, common: dict) -> None:
    """A cell that does not parse hides its undefined names from pyflakes. Once the syntax
    error's fix makes it parse, they are errors too; their near-typos are weighed with that fix
    applied, against the cell as written, and mapped back to the cell's own positions."""
    fixed = apply_edits(data, result.edits)
    text = fixed.decode("utf-8", "replace")
    facts = analyse(text, context, names)
    if not facts.parses or not facts.undefined:
        return
    findings, edits, evidence, _ = weigh(source=text, data=fixed, records={}, walk_edits=[],
                                         facts=facts, **common)
    fixes = sorted(result.edits, key=lambda e: e.start)

    def back(pos: int) -> int:                 # a position in `fixed` -> one in `data`
        shift = 0                              # bytes the fixes before `pos` added
        for e in fixes:
            if pos < e.start + shift:
                break
            shift += len(e.replacement.encode("utf-8")) - (e.end - e.start)
        return pos - shift

    def line_col(pos: int) -> tuple[int, int]:
        line = data[:pos].count(b"\n") + 1
        return line, len(data[data.rfind(b"\n", 0, pos) + 1:pos].decode("utf-8", "replace"))

    fixed_lines = [0] + [i + 1 for i, b in enumerate(fixed) if b == 0x0A]
    taken = {f.line for f in result.findings}
    for f in findings:
        start = back(fixed_lines[f.line - 1] + len(text.split("\n")[f.line - 1][:f.column].encode("utf-8")))
        f.line, f.column = line_col(start)
        if f.line not in taken:
            result.findings.append(f)
    for e in edits:
        e.start, e.end = back(e.start), back(e.end)
        e.line, e.column = line_col(e.start)
        result.edits.append(e)
    for ev in evidence:
        ev.start, ev.end = back(ev.start), back(ev.end)
        ev.line, ev.column = line_col(ev.start)
        result.evidence.append(ev)
    result.findings.sort(key=lambda f: f.line)


def _corrected_lines(result: CheckResult) -> None:
    """A finding with a fix on its line gets that line as corrected (when line counts align)."""
    src, out = result.source.split("\n"), result.corrected.split("\n")
    if len(src) != len(out):
        return
    fixed = {e.line for e in result.edits}
    for f in result.findings:
        if f.line in fixed and 0 < f.line <= len(out):
            f.replacement = out[f.line - 1]


def _drop_shut_branches(result: CheckResult, source: str, namespace) -> None:
    """No finding, and no fix, in a branch a version test shuts on this Python (versions.py):
    it never runs."""
    from ..pytext.pycheck import parse
    from ..pytext.versions import dead_spans, in_spans
    tree = parse(source)
    spans = dead_spans(tree, namespace) if tree is not None else []
    if not spans:
        return
    gone = {f.line for f in result.findings if in_spans(f.line, f.column, spans)}
    result.findings = [f for f in result.findings if f.line not in gone]
    result.edits = [e for e in result.edits if e.line not in gone]


def _defining(earlier, context) -> list[str]:
    """The cells whose definitions count for Python's checks: the context and the cells before it."""
    return [*(earlier or ()), *(context or ())]


def _repair_margin(opts, model) -> float:
    """The floor of a fill-in-the-middle line repair's own gain (core/repairs.py): the option,
    else the model's shipped floor (files or notebook cells), else FIM_MARGIN."""
    from .repairs import FIM_MARGIN
    return next(m for m in (opts.repair_margin, model.repair_margin(opts.notebook), FIM_MARGIN) if m is not None)


def _walk_slack(opts) -> int:
    """Positions the walk may need beyond the cell: tokens appended at the end and the branch
    rows one rejection may need (EditorConfig.branch_reserve; the walk drops older ones)."""
    reserve = EditorConfig(n_candidates=opts.n_candidates, max_unsync=opts.max_unsync,
                           draft=opts.draft).branch_reserve
    return EditorConfig.max_tail + reserve


def _token_texts(data: bytes, starts, ends) -> list[str]:
    """Each token's text as complete characters: a character split across tokens belongs to the
    token where it ends, so streamed text never holds half a character."""
    out, carry = [], b""
    for s, e in zip(starts, ends):
        chunk = carry + data[s:e]
        cut = len(chunk)
        # back off over an incomplete trailing UTF-8 sequence
        for back in range(1, min(4, len(chunk)) + 1):
            b = chunk[-back]
            if b & 0xC0 == 0x80:
                continue
            need = 1 if b < 0x80 else 2 if b >> 5 == 0b110 else 3 if b >> 4 == 0b1110 else 4 if b >> 3 == 0b11110 else 1
            if need > back:
                cut = len(chunk) - back
            break
        out.append(chunk[:cut].decode("utf-8", "replace"))
        carry = chunk[cut:]
    if carry and out:
        out[-1] += carry.decode("utf-8", "replace")
    return out


def _record(ev: TokenEvent, enc, text_of, tok, n_layer) -> TokenRecord:
    i = ev.index
    line, col = enc.line_col(i)
    d = ev.dist
    prob = rank = exit_layer = None
    alts: list[Alternative] = []
    if d is not None:
        token = enc.ids[i]   # the dist may have been read with another reference after an edit
        prob = float(math.exp(d.logprob_of(token)))
        rank = int(d.rank_of(token))
        exit_layer = int(d.exit_layer)
        alts = [Alternative(tok.decode([int(t)]), float(math.exp(lp)))
                for t, lp in zip(d.top_ids[:5], d.top_logprobs[:5])]
    return TokenRecord(index=i, text=text_of[i], start=enc.starts[i], end=enc.ends[i], line=line,
                       column=col, prob=prob, rank=rank, alternatives=alts, exit_layer=exit_layer,
                       decision=ev.decision)


def _span(ev: EditEvent, enc, data) -> tuple[int, int]:
    n = len(enc.ids)
    start = enc.starts[ev.start] if ev.start < n else len(data)
    end = enc.starts[ev.end] if ev.end < n else len(data)
    return start, end


def _edit(ev: EditEvent, enc, data, tok) -> Edit:
    start, end = _span(ev, enc, data)
    line = data[:start].count(b"\n") + 1
    col = len(data[data.rfind(b"\n", 0, start) + 1:start].decode("utf-8", "replace"))
    replacement = b"".join(tok.piece(t) for t in ev.tokens)
    return Edit(kind=ev.kind, start=start, end=end, line=line, column=col,
                original=data[start:end].decode("utf-8", "replace"),
                replacement=replacement.decode("utf-8", "replace"))


__all__ = ["check", "check_iter", "CheckOptions"]

