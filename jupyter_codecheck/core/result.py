"""CheckResult: plain, JSON-able data. Views, the CLI and outside tools rely on these names.

Offsets `start`/`end` are BYTE offsets into the UTF-8 source (a token may end inside a multibyte
character); `line` is 1-based, `column` 0-based in characters. `to_dict()` also carries the diff
as `diff_rows` (see `CheckResult.diff_rows`), so every view draws the same diff.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from .diff import DIFF_CONTEXT, DiffRow, diff_rows


@dataclass
class Alternative:
    text: str
    prob: float


@dataclass
class TokenRecord:
    index: int
    text: str                   # complete characters only (a split character goes to the token that ends it)
    start: int
    end: int
    line: int
    column: int
    prob: float | None          # the model's probability of this (the cell's) token; None: not predicted
    rank: int | None            # 0 = the model's first choice
    alternatives: list[Alternative]
    exit_layer: int | None      # layer whose output decided (n_layer-1: full depth)
    decision: str               # accept | masked | change | delete | flag


@dataclass
class Edit:
    kind: str                   # change | insert | delete | replace
    start: int                  # byte span of the original text replaced (start == end: insertion)
    end: int
    line: int
    column: int
    original: str
    replacement: str


def apply_edits(data: bytes, edits: list[Edit]) -> bytes:
    """The source `data` with `edits` (byte spans in it) applied."""
    out, pos = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < pos:
            continue  # overlapping edits cannot happen; be safe rather than garble
        out.append(data[pos:e.start])
        out.append(e.replacement.encode("utf-8"))
        pos = e.end
    out.append(data[pos:])
    return b"".join(out)


SEVERITIES = ("error", "warning")

# Finding.kind: Python's own errors, the kernel's facts (facts/), the model's edits, and a
# `# codecheck: ignore[...]` comment that names no kind here (core/silence.py). The `ignore`
# option and the comment take these names; a new kind of finding is added here.
ERROR_KINDS = ("syntax", "undefined-name", "attribute", "key", "call", "value")
WARNING_KINDS = ("change", "replace", "insert", "delete", "ignore")
FINDING_KINDS = ERROR_KINDS + WARNING_KINDS


def severity(f) -> str:
    """A finding's severity (a Finding or its dict); "warning" when it names none (a result of an
    older version)."""
    sev = f.get("severity") if isinstance(f, dict) else getattr(f, "severity", None)
    return sev if sev in SEVERITIES else "warning"


def severity_counts(findings) -> str:
    """'1 error, 2 warnings' ('' for no findings): how every view sums findings up."""
    errors = sum(1 for f in findings if severity(f) == "error")
    warnings = len(findings) - errors
    return ", ".join(f"{n} {word}{'s' if n != 1 else ''}"
                     for n, word in ((errors, "error"), (warnings, "warning")) if n)


@dataclass
class Finding:
    """A claim a user can act on: Python's own checks ("error": a syntax error or an undefined
    name), or an edit the model verified on the rest of the cell ("warning": gain >= margin)."""
    line: int                   # 1-based
    column: int
    score: float                # higher = more certain: an error ranks above every warning
    kind: str                   # one of FINDING_KINDS
    message: str
    replacement: str | None     # the corrected line, or None
    severity: str = "warning"   # error | warning
    # nats: log P(edit + continuation) - log P(as written + continuation); for a deletion only
    # the continuation's part (the deleted tokens' own cost is no evidence)
    gain: float | None = None
    # where the word or literal the finding names ends on its line (0-based, characters), when it
    # names one (a kernel fact's attribute, key or argument); None: the view picks the word at `column`
    end_column: int | None = None


@dataclass
class Evidence:
    """One verified location: the best candidate edit there and what it gains on the rest of the
    cell, whether or not it reached the margin (below it, it is a guess for the heat map)."""
    line: int
    column: int
    start: int                  # byte span of the original text the candidate replaces
    end: int
    original: str
    replacement: str
    gain: float                 # nats, as in Finding.gain (a deletion: what the rest gains)
    source: str                 # where the candidate came from: walk, alternative, typo, pattern, name
    tokens_scored: int          # written tokens the gain covers (edit + continuation)
    edit_gain: float = 0.0      # the part of the gain the edited tokens make (the rest: continuation)
    supported: bool = True      # the rest of the cell does not oppose it (a warning needs this)


@dataclass
class CheckResult:
    source: str
    tokens: list[TokenRecord] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    corrected: str = ""
    evidence: list[Evidence] = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not self.findings

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    def diff_rows(self, context: int = DIFF_CONTEXT) -> list[DiffRow]:
        """The diff of `source` against its edits as rows ([] without edits), what every view
        draws: the changed lines (kind "removed", then "added", with the characters the edits
        remove or insert as `spans`), `context` unchanged lines ("same") around each change, and
        a "gap" row for each run of unchanged lines left out. Computed from `edits`, so a partial
        result being streamed has its rows too."""
        return diff_rows(self.source, self.edits, context)

    def to_dict(self) -> dict:
        """Every field, and the diff as `diff_rows` (a list of DiffRow dicts)."""
        return {**asdict(self), "diff_rows": [asdict(r) for r in self.diff_rows()]}

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def diff_lines(self, fromfile: str = "cell", tofile: str = "corrected", *,
                   no_newline: str | None = None) -> list[str]:
        """`source` against `corrected` as unified-diff lines without their line ends ([] when
        equal); every view's diff comes from here. A last line without a line end is followed by
        `no_newline` when one is given (diff's `\\ No newline at end of file`)."""
        import difflib               # here: a new process's first check has no diff to show
        out = []
        for line in difflib.unified_diff(self.source.splitlines(keepends=True),
                                         self.corrected.splitlines(keepends=True), fromfile, tofile):
            ended = line.endswith("\n")
            out.append(line[:-1] if ended else line)
            if not ended and no_newline is not None:
                out.append(no_newline)
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "CheckResult":
        tokens = [TokenRecord(**{**t, "alternatives": [Alternative(**a) for a in t["alternatives"]]})
                  for t in d.get("tokens", [])]
        return cls(source=d["source"], tokens=tokens,
                   edits=[Edit(**e) for e in d.get("edits", [])],
                   findings=[Finding(**f) for f in d.get("findings", [])],
                   corrected=d.get("corrected", ""), stats=dict(d.get("stats", {})),
                   evidence=[Evidence(**e) for e in d.get("evidence", [])])

    @classmethod
    def from_json(cls, text: str) -> "CheckResult":
        return cls.from_dict(json.loads(text))

    def __repr__(self) -> str:
        return (f"CheckResult({len(self.tokens)} tokens, {len(self.edits)} edits, "
                f"{len(self.findings)} findings)")


__all__ = ["Alternative", "TokenRecord", "Edit", "apply_edits", "Finding", "Evidence", "CheckResult", "DiffRow",
           "SEVERITIES", "severity", "severity_counts", "FINDING_KINDS", "ERROR_KINDS", "WARNING_KINDS"]
