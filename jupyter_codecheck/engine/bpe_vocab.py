"""A GGUF's byte-level BPE vocabulary as llama.cpp reads it, run by Hugging Face `tokenizers`.

The ids we score must be the ids llama.cpp gives (the model was converted for it, and it is the
reference our tests compare against), so each rule here is llama.cpp's (src/llama-vocab.cpp of
the pinned llama-cpp-python): the pre-tokenizer regexes of each `tokenizer.ggml.pre`, which
tokens are control, user-defined or unused, which end a generation, and each token's bytes.
`tests/test_tokenizer_reference.py` holds every one of them to llama.cpp itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tokenizers import AddedToken, Regex, models, pre_tokenizers
from tokenizers import Tokenizer as HFTokenizer

from .errors import UnsupportedTokenizerError
from .gguf_metadata import read_metadata

# tokenizer.ggml.token_type (llama.h's llama_token_type)
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6

_GPT2_WORDS = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
# each `tokenizer.ggml.pre` we read -> llama.cpp's regexes for it, applied one after another
PRE_TOKENIZER_REGEXES = {
    # SmolLM2 (and StarCoder's family): every digit apart, then GPT-2's words (llama.cpp's own
    # GPT-2 splitter ends with the `\s+` GPT-2's regex has and its string leaves out)
    "smollm": [r"\p{N}", _GPT2_WORDS],
    "starcoder": [r"\p{N}", _GPT2_WORDS],
    "gpt2": [_GPT2_WORDS],
    # Qwen2 and Qwen2.5
    "qwen2": [r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+"
              r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
}

SUPPORTED_PRE = ", ".join(map(repr, PRE_TOKENIZER_REGEXES))

# token texts llama.cpp makes end-of-generation whatever their ids (llama-vocab.cpp's list), and
# the FIM pad, repo and file-separator tokens it adds to them
_EOG_TEXTS = frozenset({
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
    "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
    "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
    "<｜end▁of▁sentence｜>", "[e~["})
_FIM_EOG_TEXTS = (
    ("<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"),
    ("<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"),
    ("<|file_sep|>",),
)


def _byte_decoder() -> dict[str, int]:
    """GPT-2's map of the 256 bytes onto printable characters, inverted (what a piece is)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[chr(b)] = b
        else:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars


_BYTES = _byte_decoder()


def piece(text: str, kind: int) -> bytes:
    """llama_token_to_piece(special=True) of a BPE token."""
    if kind in (CONTROL, USER_DEFINED, UNKNOWN):
        return text.encode("utf-8", "surrogateescape")
    if kind == NORMAL:
        return bytes(_BYTES[c] for c in text)
    return b""                                # unused and byte tokens render as nothing


@dataclass(frozen=True)
class BpeVocab:
    """What llama.cpp reads of a GGUF's vocabulary, and the tokenizer built from it."""

    tokens: list[str]
    kinds: list[int]                  # llama_token_type of each id, after llama.cpp's overrides
    bos_id: int
    eos_id: int
    add_bos: bool
    eog_ids: frozenset[int]
    # control tokens are special added tokens, split out unless `encode_special_tokens` is set
    # (llama_tokenize's parse_special off); user-defined ones are split out always, as llama.cpp does
    hf: HFTokenizer

    @property
    def n_vocab(self) -> int:
        return len(self.tokens)


def _eog_ids(meta: dict, ids: dict[str, int], n_vocab: int) -> tuple[set[int], set[int]]:
    """The ids that end a generation, and those of them found by their text (which llama.cpp
    also makes control tokens)."""
    by_text = {i for t, i in ids.items() if t in _EOG_TEXTS}
    by_text |= {ids[next(t for t in texts if t in ids)] for texts in _FIM_EOG_TEXTS
                if any(t in ids for t in texts)}
    eog = set(by_text)
    for key in ("eos", "eot", "eom"):
        tid = meta.get(f"tokenizer.ggml.{key}_token_id")
        if tid is not None and 0 <= tid < n_vocab:
            eog.add(tid)
    return eog, by_text


def _hf_tokenizer(vocab: dict[str, int], merges: list[tuple[str, str]], regexes: list[str],
                  added: list[AddedToken]) -> HFTokenizer:
    hf = HFTokenizer(models.BPE(vocab=vocab, merges=merges, fuse_unk=False, byte_fallback=False,
                                ignore_merges=False))
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(r), behavior="isolated") for r in regexes]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    hf.add_tokens(added)
    return hf


def read_bpe_vocab(path: str | Path) -> BpeVocab:
    """The vocabulary of the GGUF at `path`; UnsupportedTokenizerError (a GGUFError) if it is not
    one llama.cpp reads as a byte-level BPE with a pre-tokenizer we know, GGUFMetadataError if
    its metadata cannot be read."""
    meta = read_metadata(path)
    model = meta.get("tokenizer.ggml.model")
    pre = meta.get("tokenizer.ggml.pre", "default")
    if model != "gpt2":
        raise UnsupportedTokenizerError(
            f"{path}: tokenizer.ggml.model is {model!r}; the tokenizer reads byte-level BPE "
            f"vocabularies ('gpt2') only, with one of the pre-tokenizers {SUPPORTED_PRE}",
            key="tokenizer.ggml.model")
    if pre not in PRE_TOKENIZER_REGEXES:
        raise UnsupportedTokenizerError(
            f"{path}: tokenizer.ggml.pre is {pre!r}; the tokenizer reads the pre-tokenizers "
            f"{SUPPORTED_PRE} only", key="tokenizer.ggml.pre")
    tokens = list(meta["tokenizer.ggml.tokens"])
    kinds = list(meta.get("tokenizer.ggml.token_type") or [NORMAL] * len(tokens))
    if len(kinds) != len(tokens):
        raise ValueError(f"{path}: {len(tokens)} tokens but {len(kinds)} token types")
    for i, t in enumerate(tokens):
        if not t:                             # llama.cpp names an empty token so it stays unique
            tokens[i] = f"[EMPTY_{i}]"
    vocab = {t: i for i, t in enumerate(tokens)}      # a repeated text: the last id, as llama.cpp
    eog, eog_by_text = _eog_ids(meta, vocab, len(tokens))
    for i in eog_by_text:
        kinds[i] = CONTROL
    merges = [tuple(m.split(" ", 1)) for m in meta.get("tokenizer.ggml.merges", [])]
    regexes = PRE_TOKENIZER_REGEXES[pre]
    added = [AddedToken(tokens[i], special=k != USER_DEFINED, normalized=False)
             for i, k in enumerate(kinds) if k in (CONTROL, UNKNOWN, USER_DEFINED)]
    bos = meta.get("tokenizer.ggml.bos_token_id", -1)
    eos = meta.get("tokenizer.ggml.eos_token_id", -1)
    return BpeVocab(tokens=tokens, kinds=kinds, bos_id=bos, eos_id=eos,
                    add_bos=bool(meta.get("tokenizer.ggml.add_bos_token", False)),
                    eog_ids=frozenset(eog), hf=_hf_tokenizer(vocab, merges, regexes, added))
