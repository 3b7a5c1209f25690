"""Exit policies: after a layer, which rows (tokens) may leave the stack.

A policy looks first at the *reference token* (the cell's own token at that position: its
probability, its rank, whether it is the argmax) and then at generic signals (max probability,
top1-top2 margin, argmax stability across layers, a fixed layer). Policies compose (`AllOf`,
`AnyOf`), can differ per layer band (`Banded`) or per layer (`PerLayer`), can depend on whether
the previous token was accepted (`IfPrevAccepted`), and never fire below a layer floor
(`MinLayer`). They are plain objects over numpy arrays: no model inside.

Cost model, in layers of work (SmolLM2-135M): the shortlist head an exit test reads is ~0.2
layers, the full head ~8 layers. Policies therefore say at which layers they test
(`test_layers`), and tests read the cheap head's numbers.

Names for the magic and the CLI: `make_policy("ref-top1:0.5")`, `make_policy("ref-prob:0.6,min:8")`,
see `POLICY_HELP`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass
class LayerStats:
    """What the exit test sees for the active rows after `layer` (natural-log probabilities)."""
    layer: int
    n_layer: int
    rows: np.ndarray            # (n,) row indices in the batch
    ref_logprob: np.ndarray     # (n,) log p(reference) (nan where a row has no reference)
    ref_rank: np.ndarray        # (n,) rank of the reference (-1: no reference)
    top_ids: np.ndarray         # (n, k)
    top_logprobs: np.ndarray    # (n, k)
    prev_accepted: np.ndarray   # (n,) bool: the previous token of each row was kept

    @property
    def has_ref(self) -> np.ndarray:
        return self.ref_rank >= 0


class ExitPolicy:
    """Base class. `decide` returns a boolean mask over `stats.rows`: True = stop here."""
    name = "policy"

    def test_layers(self, n_layer: int) -> set[int] | None:
        """Layers after which this policy wants a test (None: every layer)."""
        return None

    def children(self) -> list:
        """The policies this one combines (they hear `start` too)."""
        return []

    def start(self, n_rows: int) -> None:
        """A new batch begins (policies with per-row history reset it)."""
        for p in self.children():
            p.start(n_rows)

    def decide(self, stats: LayerStats) -> np.ndarray:
        raise NotImplementedError

    def __and__(self, other):
        return AllOf([self, other])

    def __or__(self, other):
        return AnyOf([self, other])

    def __repr__(self):
        return self.name


def _union(sets):
    out = set()
    for s in sets:
        if s is None:
            return None
        out |= s
    return out


# -- reference-token tests -------------------------------------------------------------------

@dataclass(repr=False)
class RefProb(ExitPolicy):
    """The reference token's probability is at least `threshold`."""
    threshold: float

    @property
    def name(self):
        return f"ref-prob:{self.threshold:g}"

    def decide(self, s):
        return s.has_ref & (s.ref_logprob >= math.log(self.threshold))


@dataclass(repr=False)
class RefRank(ExitPolicy):
    """The reference token ranks at most `rank` (0 = argmax): 'in the top rank+1'."""
    rank: int

    @property
    def name(self):
        return f"ref-rank:{self.rank}"

    def decide(self, s):
        return s.has_ref & (s.ref_rank <= self.rank)


class RefArgmax(RefRank):
    """The reference token is the argmax (rank test on raw logits: no softmax needed)."""

    def __init__(self):
        super().__init__(0)

    @property
    def name(self):
        return "ref-argmax"


@dataclass(repr=False)
class RefTop1(ExitPolicy):
    """The reference is the argmax AND has probability >= threshold: the usual safe exit."""
    threshold: float = 0.5

    @property
    def name(self):
        return f"ref-top1:{self.threshold:g}"

    def decide(self, s):
        return s.has_ref & (s.ref_rank == 0) & (s.ref_logprob >= math.log(self.threshold))


# -- generic tests -----------------------------------------------------------------------------

@dataclass(repr=False)
class MaxProb(ExitPolicy):
    """The most likely token has probability >= threshold (whatever the reference)."""
    threshold: float

    @property
    def name(self):
        return f"max-prob:{self.threshold:g}"

    def decide(self, s):
        return s.top_logprobs[:, 0] >= math.log(self.threshold)


@dataclass(repr=False)
class Margin(ExitPolicy):
    """top1 - top2 log-probability is at least `nats`."""
    nats: float

    @property
    def name(self):
        return f"margin:{self.nats:g}"

    def decide(self, s):
        if s.top_logprobs.shape[1] < 2:
            return np.ones(len(s.rows), bool)
        return (s.top_logprobs[:, 0] - s.top_logprobs[:, 1]) >= self.nats


@dataclass(repr=False)
class StableArgmax(ExitPolicy):
    """The argmax has not changed over the last `k` tested layers."""
    k: int = 3
    _history: dict = field(default_factory=dict, init=False)

    @property
    def name(self):
        return f"stable:{self.k}"

    def start(self, n_rows):
        self._history = {}

    def decide(self, s):
        out = np.zeros(len(s.rows), bool)
        for j, (row, top) in enumerate(zip(s.rows.tolist(), s.top_ids[:, 0].tolist())):
            run, last = self._history.get(row, (0, -1))
            run = run + 1 if top == last else 1
            self._history[row] = (run, top)
            out[j] = run >= self.k
        return out


@dataclass(repr=False)
class FixedLayer(ExitPolicy):
    """Every row stops after `layer` (a static early exit, the baseline for adaptive ones)."""
    layer: int

    @property
    def name(self):
        return f"fixed:{self.layer}"

    def test_layers(self, n_layer):
        return {self.layer}

    def decide(self, s):
        return np.full(len(s.rows), s.layer >= self.layer)


# -- composition ---------------------------------------------------------------------------------

@dataclass(repr=False)
class AllOf(ExitPolicy):
    parts: list

    @property
    def name(self):
        return "+".join(p.name for p in self.parts)

    def test_layers(self, n_layer):
        sets = [p.test_layers(n_layer) for p in self.parts]
        known = [x for x in sets if x is not None]
        if not known:
            return None
        out = set(known[0])
        for x in known[1:]:
            out &= x
        return out

    def children(self):
        return self.parts

    def decide(self, s):
        out = np.ones(len(s.rows), bool)
        for p in self.parts:  # every part sees every layer: history-keeping parts stay in step
            out &= p.decide(s)
        return out


@dataclass(repr=False)
class AnyOf(ExitPolicy):
    parts: list

    @property
    def name(self):
        return "|".join(p.name for p in self.parts)

    def test_layers(self, n_layer):
        return _union(p.test_layers(n_layer) for p in self.parts)

    def children(self):
        return self.parts

    def decide(self, s):
        out = np.zeros(len(s.rows), bool)
        for p in self.parts:
            out |= p.decide(s)
        return out


@dataclass(repr=False)
class MinLayer(ExitPolicy):
    """No exit before `layer` (negative: counted from the end, -1 is the last layer); tests only
    every `every` layers from there (cost control), and at the last layer, whatever the step:
    there a passing test spares the full output head, the costliest read of a row."""
    inner: ExitPolicy
    layer: int
    every: int = 1

    @property
    def name(self):
        return f"{self.inner.name},min:{self.layer}" + (f",every:{self.every}" if self.every > 1 else "")

    def first(self, n_layer: int) -> int:
        return self.layer if self.layer >= 0 else max(0, n_layer + self.layer)

    def test_layers(self, n_layer):
        a = self.first(n_layer)
        mine = {l for l in range(a, n_layer) if (l - a) % self.every == 0 or l == n_layer - 1}
        inner = self.inner.test_layers(n_layer)
        return mine if inner is None else mine & inner

    def children(self):
        return [self.inner]

    def decide(self, s):
        if s.layer < self.first(s.n_layer):
            return np.zeros(len(s.rows), bool)
        return self.inner.decide(s)


@dataclass(repr=False)
class Banded(ExitPolicy):
    """Different policies for early / middle / late layers: bounds (a, b) split the stack into
    [0, a), [a, b), [b, n_layer)."""
    early: ExitPolicy | None
    middle: ExitPolicy | None
    late: ExitPolicy | None
    bounds: tuple = (10, 20)

    @property
    def name(self):
        parts = [p.name if p else "-" for p in (self.early, self.middle, self.late)]
        return f"banded({'/'.join(parts)}@{self.bounds[0]},{self.bounds[1]})"

    def _pick(self, layer):
        a, b = self.bounds
        return self.early if layer < a else self.middle if layer < b else self.late

    def children(self):
        return [p for p in (self.early, self.middle, self.late) if p]

    def decide(self, s):
        p = self._pick(s.layer)
        return p.decide(s) if p else np.zeros(len(s.rows), bool)


@dataclass(repr=False)
class PerLayer(ExitPolicy):
    """A policy per layer (layers not listed never exit)."""
    by_layer: dict

    @property
    def name(self):
        return "per-layer(" + ",".join(f"{k}:{v.name}" for k, v in sorted(self.by_layer.items())) + ")"

    def test_layers(self, n_layer):
        return set(self.by_layer)

    def children(self):
        return list(self.by_layer.values())

    def decide(self, s):
        p = self.by_layer.get(s.layer)
        return p.decide(s) if p else np.zeros(len(s.rows), bool)


@dataclass(repr=False)
class IfPrevAccepted(ExitPolicy):
    """A multi-token criterion: `then` where the previous token was kept, `otherwise` (default:
    never exit) right after a correction, where the model's context has just changed."""
    then: ExitPolicy
    otherwise: ExitPolicy | None = None

    @property
    def name(self):
        return f"{self.then.name},after-accept" + (f"/{self.otherwise.name}" if self.otherwise else "")

    def test_layers(self, n_layer):
        return _union([self.then.test_layers(n_layer)] +
                      ([self.otherwise.test_layers(n_layer)] if self.otherwise else []))

    def children(self):
        return [self.then] + ([self.otherwise] if self.otherwise else [])

    def decide(self, s):
        out = self.then.decide(s) & s.prev_accepted
        if self.otherwise is not None:
            out |= self.otherwise.decide(s) & ~s.prev_accepted
        return out


# -- names ------------------------------------------------------------------------------------------

_ATOMS = {
    "ref-prob": lambda a: RefProb(float(a or 0.5)),
    "ref-rank": lambda a: RefRank(int(a or 0)),
    "ref-argmax": lambda a: RefArgmax(),
    "ref-top1": lambda a: RefTop1(float(a or 0.5)),
    "max-prob": lambda a: MaxProb(float(a or 0.9)),
    "margin": lambda a: Margin(float(a or 2.0)),
    "stable": lambda a: StableArgmax(int(a or 3)),
    "fixed": lambda a: FixedLayer(int(a)),
}

# Ready-made policies, chosen by measurement (bench/check.py, bench/lens.py; figures in
# bench/reports/). "after-accept": a correction's rows are read at full depth, since the edit walk
# compares its hypotheses by their probabilities and an early exit's numbers can pick another edit.
# - "head": the test at the last layer only, where it saves the full output head. check()'s
#   default with exact K,V: there every row runs every layer anyway, so an earlier exit saves
#   nothing more and costs its tests.
# - "lens": exits from layer 2 on, read through the learned exit maps; check()'s default when
#   the skipped layers' K,V come from the exit state (kv_mode="propagate"), where early exits
#   save layers. "plain": the same without the maps (they predict poorly before ~layer 20).
PRESETS = {
    "head": "ref-rank:3+ref-prob:0.1,min:-1,after-accept",
    "lens": "ref-rank:3+ref-prob:0.1,min:2,every:3,after-accept",
    "plain": "ref-top1:0.5+stable:2,min:6,every:2,after-accept",
    "fast": "ref-top1:0.4,min:4,every:2",
    "safe": "ref-top1:0.7+margin:1.5,min:10,every:2,after-accept",
}
PRESETS["default"] = PRESETS["head"]   # what "default" means where check() does not choose

POLICY_HELP = (
    "Exit policy names: a preset (" + ", ".join(PRESETS) + "), or tests joined with '+' (all) "
    "or '|' (any): " + ", ".join(f"{k}[:x]" for k in _ATOMS) + "; then options after commas: "
    "min:L (no exit before layer L; negative: from the end, -1 = the last layer), every:N (test "
    "every N layers), after-accept (only when the previous token was kept). Example: "
    "'ref-top1:0.5+margin:1,min:8,every:2'."
)


def make_policy(spec: "str | ExitPolicy | None") -> ExitPolicy | None:
    """A policy from its name (see POLICY_HELP); None or 'none' means full depth."""
    if spec is None or isinstance(spec, ExitPolicy):
        return spec
    text = spec.strip()
    if text.lower() in ("", "none", "off", "full"):
        return None
    text = PRESETS.get(text, text)
    head, *opts = [t.strip() for t in text.split(",")]

    def atom(t):
        name, _, arg = t.partition(":")
        if name not in _ATOMS:
            raise ValueError(f"unknown exit test {name!r}. {POLICY_HELP}")
        try:
            return _ATOMS[name](arg)
        except (TypeError, ValueError):
            raise ValueError(f"bad value in exit test {t!r}. {POLICY_HELP}") from None

    if "|" in head:
        policy: ExitPolicy = AnyOf([atom(t) for t in head.split("|")])
    elif "+" in head:
        policy = AllOf([atom(t) for t in head.split("+")])
    else:
        policy = atom(head)
    min_layer, every, after_accept = 0, 1, False
    for o in opts:
        key, _, val = o.partition(":")
        try:
            if key == "min":
                min_layer = int(val)
            elif key == "every":
                every = int(val)
            elif key == "after-accept":
                after_accept = True
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"bad option {o!r}. {POLICY_HELP}") from None
    if every < 1:
        raise ValueError(f"every must be >= 1. {POLICY_HELP}")
    if min_layer or every > 1:
        policy = MinLayer(policy, min_layer, every)
    if after_accept:
        policy = IfPrevAccepted(policy)
    return policy
