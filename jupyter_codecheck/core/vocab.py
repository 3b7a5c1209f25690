"""Classes of a model's vocabulary the walk needs, found from the tokenizer's pieces (no token ids
written down per model). Each is computed once per model file and kept on disk
(`LoadedModel.cached`)."""
from __future__ import annotations

from ..decoding.editor import longer_tokens

# Token healing's rows (see decoding/editor.py) are settled by the last layer's cheap head when
# the shortlist holds all the tokens healing could want instead: a healable token with at most
# this many longer tokens brings them into the cell's shortlist (a very common prefix such as ` `
# would otherwise make the shortlist the full head)
HEAL_SHORTLIST_MAX = 256

DOCUMENT_SEPARATOR = b"<|endoftext|>"


def document_start(tok) -> list[int]:
    """The token a training document starts after: gives the cell's first token a distribution
    without adding text. The document separator <|endoftext|> is preferred to BOS, which for a
    chat model (SmolLM2's is <|im_start|>) makes the model expect a role name."""
    ids = tok.encode(DOCUMENT_SEPARATOR.decode(), parse_special=True).ids
    if len(ids) == 1 and tok.piece(ids[0]) == DOCUMENT_SEPARATOR:
        return ids
    return [tok.bos_id] if tok.bos_id is not None and tok.bos_id >= 0 else []


# Each class reads the pieces in its own body: the on-disk cache keys on that function's code.

def closer_ids(tok) -> frozenset[int]:
    """Tokens made only of closing brackets/quotes and colons: all the tail may append."""
    pieces = (tok.piece(i).strip(b" ") for i in range(tok.n_vocab))
    return frozenset(i for i, p in enumerate(pieces) if p and all(ch in b")]}'\":" for ch in p))


def whitespace_ids(tok) -> frozenset[int]:
    """Tokens of white space only (the tail the walk appends ends at one)."""
    pieces = (tok.piece(i) for i in range(tok.n_vocab))
    return frozenset(i for i, p in enumerate(pieces) if p and not p.strip())


def longer_ids(tok) -> dict[int, list[int]]:
    """Each token that starts longer tokens (token healing's candidates) -> those tokens."""
    return longer_tokens([tok.piece(i) for i in range(tok.n_vocab)])


def healable_ids(tok) -> frozenset[int]:
    return frozenset(longer_ids(tok))


__all__ = ["HEAL_SHORTLIST_MAX", "closer_ids", "document_start", "healable_ids", "longer_ids",
           "whitespace_ids"]
