"""The one entry point: check(source, *, context=None, **options) -> CheckResult.

    result = check("def f(x):\n    retrun x\n")
    result.findings[0].line        # 2
    result.corrected               # "def f(x):\n    return x\n"

`check_iter(...)` takes the same arguments and yields each input token's `TokenRecord` and each
`Edit` as soon as they are decided, then the `CheckResult` last.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from ..decoding.editor import EditDecoder, EditEvent, EditorConfig, TokenEvent, longer_tokens
from ..decoding.exit_policy import make_policy
from ..decoding.scorer import Cancelled, Scorer
from .evidence import EvidenceConfig, weigh
from .pycheck import analyse
from .pysource import free_spans
from .result import Alternative, CheckResult, Edit, TokenRecord
from .masking import masked_spans, overlapping
from .options import CheckOptions
from .sources import is_python_cell

# Token healing's rows (see decoding/editor.py) are settled by the last layer's cheap head when
# the shortlist holds all the tokens healing could want instead: a healable token with at most
# this many longer tokens brings them into the cell's shortlist (all of SmolLM2's but ` `, whose
# 32k longer tokens would make it the full head)
HEAL_SHORTLIST_MAX = 256


# -- the walk ----------------------------------------------------------------------------------------

def check(source: str, *, context: Sequence[str] | None = None, **options) -> CheckResult:
    result = None
    for item in check_iter(source, context=context, **options):
        result = item
    assert isinstance(result, CheckResult)
    return result


def check_iter(source: str, *, context: Sequence[str] | None = None,
               **options) -> Iterator[TokenRecord | Edit | CheckResult]:
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}")
    opts = CheckOptions.from_kwargs(**options)
    rule = opts.acceptance_rule()
    sampler = opts.sampler()
    from .adapter import EngineLayerModel, load_model, single_threaded_blas
    engine = load_model(opts.model, opts.n_threads)
    with engine.lock, single_threaded_blas():
        # no lens (and no first-use fit) unless the policy exits before the last layer
        wants_lens = opts.lens and _exits_early(opts.policy_spec(True), engine.session.n_layer)
        lens = engine.get_lens() if wants_lens else None
        policy = make_policy(opts.policy_spec(lens is not None))
        tok = engine.tokenizer       # last: in a new process it may still be loading
        yield from _run(source, context, opts, rule, sampler, policy, lens, engine, tok,
                        EngineLayerModel)


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


def _run(source, context, opts, rule, sampler, policy, lens, engine, tok, EngineLayerModel):
    t0 = time.perf_counter()
    enc = tok.encode(source)
    data = enc.data
    n = len(enc.ids)
    python_cell = is_python_cell(source)
    # a cell in another language (%%bash, %%html, ...) is all masked: shown, never judged
    masked = overlapping(enc.starts, enc.ends, masked_spans(data) if python_cell else [(0, len(data))])
    free = overlapping(enc.starts, enc.ends, free_spans(source)) if opts.python else None
    prefix = _document_start(tok)
    room = engine.session.n_ctx - n - _walk_slack(opts)
    if room < len(prefix):
        from ..engine.errors import ContextFullError
        raise ContextFullError(f"the cell has {n} tokens but the model's context holds "
                               f"{engine.session.n_ctx}: split it into smaller cells")
    if context:
        # cell by cell, as each was checked: a notebook's next check then finds the KV of the
        # earlier cells' own tokens in the session (text joined first merges the blank lines
        # between cells into other tokens)
        ctx_ids = [t for c in context for t in tok.encode(c.rstrip("\n") + "\n\n").ids]
        # the most recent context is kept when it all does not fit beside the cell
        prefix += ctx_ids[max(0, len(ctx_ids) - (room - len(prefix))):]

    layer_model = EngineLayerModel(engine.session, kv_mode=opts.kv_mode, lens=lens)
    longer = engine.cached("longer", _longer_ids)
    heal_in_shortlist = frozenset(t for t in set(enc.ids)
                                  if 0 < len(longer.get(t, ())) <= HEAL_SHORTLIST_MAX)
    if not engine.set_cell_shortlist(enc.ids or [0], [x for t in heal_in_shortlist for x in longer[t]]):
        heal_in_shortlist = frozenset()
    info = engine.model.info
    n_layer = info.n_layer
    rule_k = max(rule.top_k_needed(), 8)
    scorer = Scorer(layer_model, policy, top_k=rule_k, cancel=opts.cancel)
    stop_ids = frozenset(i for i in range(min(info.n_vocab, 64)) if tok.is_eog(i)) | {tok.eos_id}
    cfg = EditorConfig(mode=opts.mode, window=opts.window, max_unsync=opts.max_unsync,
                       n_candidates=opts.n_candidates, pieces=tok.piece,
                       stop_ids=stop_ids, boundary_ids=engine.cached("whitespace", _whitespace_ids),
                       tail_ids=engine.cached("closers", _closer_ids),
                       heal_prob=EditorConfig.heal_prob if opts.token_healing else None,
                       healable=frozenset(longer), heal_in_shortlist=heal_in_shortlist,
                       anchored=opts.anchored, draft=opts.draft,
                       context_limit=engine.session.n_ctx)
    decoder = EditDecoder(scorer, rule, sampler, cfg)

    result = CheckResult(source=source)
    records: dict[int, TokenRecord] = {}
    raw_edits: list[EditEvent] = []
    walk_edits: list[Edit] = []
    cancelled = False
    reused = 0
    try:
        text_of = _token_texts(data, enc.starts, enc.ends)
        start, replay, kept_edits = _resumable(engine, prefix, enc.ids, opts)
        for ev in kept_edits:
            raw_edits.append(ev)
            walk_edits.append(_edit(ev, enc, data, tok))
        if start:
            # an edited cell: its unchanged, accepted beginning keeps its KV and its decisions
            engine.session.truncate(len(prefix) + start - 1)
            lead = enc.ids[start - 1]
            reused = len(prefix) + start - 1
            for ev in replay[:start]:
                rec = _record(ev, enc, text_of, tok, n_layer)
                records[ev.index] = rec
                yield rec
        else:
            lead, reused = _prime(engine.session, prefix)
        events: list[TokenEvent] = list(replay[:start])
        # the token before the cell's first undecided one is scored by the decoder: its row
        # judges that token (with the first window, when it can)
        for ev in decoder.run(enc.ids, masked, free=free, start=start, lead_token=lead):
            if isinstance(ev, TokenEvent):
                events.append(ev)
                rec = _record(ev, enc, text_of, tok, n_layer)
                records[ev.index] = rec
                yield rec
            else:
                # the walk's edit is a candidate: it becomes a finding only with evidence
                raw_edits.append(ev)
                walk_edits.append(_edit(ev, enc, data, tok))
        engine.last_run = _LastRun(prefix, list(enc.ids), events, raw_edits, _resume_key(opts))
    except (Cancelled, KeyboardInterrupt):
        cancelled = True
    result.tokens = [records[i] for i in sorted(records)]
    facts = analyse(source, context, opts.names) if opts.python and python_cell else None
    verification = {}
    if facts is not None and not cancelled:
        try:
            if _hold_cell(engine.session, prefix, enc.ids):
                margin = opts.margin if opts.margin is not None else _calibrated_margin(opts.model)
                cfg = EvidenceConfig(margin=margin, continuation=opts.continuation, probe_tokens=opts.probe)
                common = dict(enc=enc, encode=lambda text: tok.encode(text).ids, scorer=scorer,
                              offset=len(prefix), cfg=cfg,
                              token_at=lambda i: prefix[len(prefix) + i] if i < 0 else enc.ids[i],
                              room=engine.session.n_ctx - engine.session.n_past,
                              cache=_verdict_cache(engine, prefix, opts))
                result.findings, result.edits, result.evidence, verification = weigh(
                    source=source, data=data, records=records, walk_edits=walk_edits, facts=facts,
                    dists={ev.index: ev.dist for ev in events if ev.dist is not None}, **common)
                if facts.syntax is not None and result.edits:
                    _past_the_syntax_error(result, data, context, opts.names, common)
        except (Cancelled, KeyboardInterrupt):
            cancelled = True
    for edit in result.edits:
        yield edit
    result.corrected = _apply(data, result.edits).decode("utf-8", "replace")
    _corrected_lines(result)
    dt = time.perf_counter() - t0
    from ..engine.paths import model_display_name
    computed = layer_model.layers_computed
    possible = scorer.rows_scored * n_layer
    result.stats = {
        "model": model_display_name(info.path) if info.path else (info.name or info.arch),
        "model_name": info.name, "model_path": info.path, "n_layer": n_layer,
        "arch": info.arch, "n_vocab": info.n_vocab, "n_threads": engine.session.n_threads,
        "mode": opts.mode, "exit_policy": policy.name if policy else None, "kv_mode": opts.kv_mode,
        "exit_policy_name": policy_name(policy.name if policy else None),
        "lens": lens is not None, "sampler": sampler.describe(),
        "tokens": n, "rows_scored": scorer.rows_scored, "full_heads": scorer.full_heads,
        "context_tokens": len(prefix),
        "context_reused": reused,
        "layers_computed": computed, "layers_possible": possible,
        "layer_fraction": computed / possible if possible else 0.0,
        "decision_depth": float(((np.arange(n_layer) + 1) * scorer.exit_histogram).sum() / possible)
        if possible else 0.0,
        "exit_histogram": scorer.exit_histogram.tolist(),
        # branch batches by purpose: correction (a rejection's candidates), unsync (the search for
        # a rejoin), confirm (a rejection read at an early exit, at full depth)
        "branch": {k: {"batches": b, "rows": r, "time_s": t}
                   for k, (b, r, t) in sorted(scorer.branch_stats.items())},
        "drafted": decoder.drafted, "drafts_taken": decoder.drafts_taken,
        # the evidence step: places weighed, candidates generated / stopped by the gates /
        # weighed by the model, branch rows scored, seconds (scoring_s: the model's part)
        "verification": verification,
        "time_s": dt, "tokens_per_s": n / dt if dt > 0 else 0.0, "cancelled": cancelled,
    }
    yield result


@dataclass
class _LastRun:
    """What an edited cell's re-check can reuse: the tokens decided in order before any edit."""
    prefix: list
    ids: list
    events: list
    edits: list
    key: tuple


def _resume_key(opts) -> tuple:
    # a change of any of these starts afresh (decisions, or how they were computed, differ)
    return (opts.accept_prob, opts.accept_rank, opts.accept_argmax, opts.accept_combine,
            opts.lenient_tokens, opts.lenient_floor, opts.python, opts.mode, str(opts.exit_policy),
            opts.kv_mode, opts.lens)


def _verdict_cache(engine, prefix, opts) -> dict:
    """The verification's verdicts on this context, kept from check to check (a re-check after
    an edit scores only what the edit reaches)."""
    ident = (tuple(prefix), _resume_key(opts))
    held = getattr(engine, "verdicts", None)
    if held is None or held[0] != ident or len(held[1]) > 50_000:
        held = engine.verdicts = (ident, {})
    return held[1]


def _resumable(engine, prefix, ids, opts) -> tuple[int, list, list]:
    """How many leading cell tokens can be taken over from the last check (0: none), with that
    check's decisions and the walk's edits that lie before them."""
    last = getattr(engine, "last_run", None)
    if last is None or last.prefix != prefix or last.key != _resume_key(opts) or not prefix:
        return 0, [], []
    same = 0
    for a, b in zip(last.ids, ids):
        if a != b:
            break
        same += 1
    # the token before the first difference is scored again (its distribution judges the
    # changed token); before it, tokens accepted in order before any edit are kept...
    accepted = decided = 0
    for ev in last.events:
        if ev.index != decided:
            break
        if accepted == decided and ev.decision in ("accept", "masked"):
            accepted += 1
        decided += 1
    first_edit = min((e.start for e in last.edits), default=len(last.ids))
    start = min(same, first_edit, accepted, len(ids) - 1)
    if opts.anchored:
        # ...and, as the walk judges each token in the cell as written, every decision that the
        # changed tokens cannot reach (a correction may rejoin a few tokens ahead)
        reach = opts.max_unsync + EditorConfig.resync_window + 2
        start = max(start, min(same - reach, decided, len(ids) - 1))
    # an edit the cut would split is found again by the walk
    start = min([start] + [e.start for e in last.edits if e.start < start <= e.end])
    session = engine.session
    if start < 2 or session.tokens[:len(prefix) + start] != list(prefix) + list(ids[:start]):
        return 0, [], []
    return start, last.events, [e for e in last.edits if e.end < start]


def _prime(session, prefix) -> tuple[int | None, int]:
    """Puts `prefix` but its last token in the session, reusing the KV of what it already holds;
    returns that last token (its row judges the cell's first; None without a prefix: then
    nothing does) and how many positions were reused."""
    if not prefix:
        session.truncate(0)
        return None, 0
    keep = min(session.common_prefix(prefix), len(prefix) - 1)
    if keep < session.n_past:
        session.truncate(keep)
    if keep < len(prefix) - 1:
        session.forward(prefix[keep:-1])     # no head needed for the context itself
    return prefix[-1], keep


def _past_the_syntax_error(result: CheckResult, data: bytes, context, names, common: dict) -> None:
    """A cell that does not parse hides its undefined names from pyflakes. Once the syntax
    error's fix makes it parse, they are errors too; their near-typos are weighed with that fix
    applied, against the cell as written, and mapped back to the cell's own positions."""
    fixed = _apply(data, result.edits)
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


def _hold_cell(session, prefix, ids) -> bool:
    """Makes the context hold the cell as written (verification rows branch off it): after an
    anchored walk it already does; otherwise the written tokens replace the corrected ones."""
    want = list(prefix) + list(ids)
    need = len(want) - 1
    if need < 1:
        return False
    session.flush()
    keep = session.common_prefix(want)
    if keep >= need:
        if session.n_past > len(want):
            session.truncate(len(want))
        return True
    session.truncate(keep)
    session.forward(want[keep:need])
    return True


def _calibrated_margin(model) -> float:
    """The margin shipped for this model file (jupyter_codecheck/calibration/), else the default."""
    try:
        from .calibration import shipped_margin
        margin = shipped_margin(model)
    except (OSError, ValueError, ImportError):
        margin = None
    return EvidenceConfig.margin if margin is None else margin


def _walk_slack(opts) -> int:
    """Positions the walk may need beyond the cell: tokens appended at the end and the branch
    rows one rejection may need (EditorConfig.branch_reserve; the walk drops older ones)."""
    reserve = EditorConfig(n_candidates=opts.n_candidates, max_unsync=opts.max_unsync,
                           draft=opts.draft).branch_reserve
    return EditorConfig.max_tail + reserve


def _document_start(tok) -> list[int]:
    """The token a training document starts after: gives the cell's first token a distribution
    without adding text. SmolLM2's BOS is the chat token <|im_start|>, which would make the model
    expect a role name, so the document separator <|endoftext|> is preferred."""
    for i in range(min(tok.n_vocab, 512)):
        if tok.piece(i) == b"<|endoftext|>":
            return [i]
    for i in (151643,):  # Qwen2's <|endoftext|> sits after the ordinary vocabulary
        if i < tok.n_vocab and tok.piece(i) == b"<|endoftext|>":
            return [i]
    return [tok.bos_id] if tok.bos_id is not None and tok.bos_id >= 0 else []


def _closer_ids(tok) -> frozenset[int]:
    """Tokens made only of closing brackets/quotes and colons: all the tail may append."""
    out = []
    for i in range(tok.n_vocab):
        piece = tok.piece(i).strip(b" ")
        if piece and all(ch in b")]}'\":" for ch in piece):
            out.append(i)
    return frozenset(out)


def _longer_ids(tok) -> dict[int, list[int]]:
    return longer_tokens([tok.piece(i) for i in range(tok.n_vocab)])


def _healable_ids(tok) -> frozenset[int]:
    return frozenset(_longer_ids(tok))


def _whitespace_ids(tok) -> frozenset[int]:
    out = []
    for i in range(tok.n_vocab):
        piece = tok.piece(i)
        if piece and not piece.strip():
            out.append(i)
    return frozenset(out)


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


def _apply(data: bytes, edits: list[Edit]) -> bytes:
    out, pos = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < pos:
            continue  # overlapping edits cannot happen; be safe rather than garble
        out.append(data[pos:e.start])
        out.append(e.replacement.encode("utf-8"))
        pos = e.end
    out.append(data[pos:])
    return b"".join(out)


__all__ = ["check", "check_iter", "CheckOptions"]

