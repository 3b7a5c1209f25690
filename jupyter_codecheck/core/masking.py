"""What the model never judges: IPython syntax (magics, shell lines), found by byte span.

Never flagged, never rewritten; check() masks these tokens and the line scores leave them out.
"""
from __future__ import annotations

import re

# the line's newline too: the model's view of the token that ends a magic is as foreign as the
# magic itself
_MAGIC_LINE = re.compile(rb"^[ \t]*(%|!)[^\n]*\n?", re.M)


def masked_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans of magics and shell lines (`%...`, `%%...`, `!...`) with their newline."""
    return [(m.start(), m.end()) for m in _MAGIC_LINE.finditer(data)]


def overlapping(starts, ends, spans) -> list[bool]:
    """Per token: does its byte span overlap any of `spans` (magics, or names/comments/strings)?"""
    out = []
    for s, e in zip(starts, ends):
        out.append(any(s < b and e > a for a, b in spans))
    return out


__all__ = ["masked_spans", "overlapping"]
