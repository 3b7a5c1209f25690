"""A GGUF whose vocabulary the tokenizer does not read (not byte-level BPE, or a pre-tokenizer it
does not know): a GGUFError naming the key, and from the command line exit code 2 with that
message, never a crash or a wrong tokenization."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gguf_files import GGUF_STRING, tiny_model

from jupyter_codecheck.engine import errors
from jupyter_codecheck.engine.bpe_vocab import PRE_TOKENIZER_REGEXES
from jupyter_codecheck.engine.gguf_metadata import GGUFMetadataError
from jupyter_codecheck.engine.tokenizer import Tokenizer

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "buggy_cell.py"


def _gguf(tmp_path, **keys) -> Path:
    """A valid tiny llama model with the tokenizer.ggml.<key> values given (None: key left out)."""
    g = tiny_model("llama")
    for key, value in keys.items():
        if value is not None:
            g.add(f"tokenizer.ggml.{key}", GGUF_STRING, value)
    path = tmp_path / "model.gguf"
    path.write_bytes(g.to_bytes())
    return path


@pytest.mark.parametrize("model, pre, key", [
    ("llama", None, "tokenizer.ggml.model"),          # SentencePiece (Llama 2, TinyLlama, CodeLlama)
    (None, None, "tokenizer.ggml.model"),             # no tokenizer model at all
    ("gpt2", "llama-bpe", "tokenizer.ggml.pre"),      # Llama 3's pre-tokenizer
    ("gpt2", None, "tokenizer.ggml.pre"),             # llama.cpp's 'default' pre-tokenizer
])
def test_unsupported_vocabulary_is_a_gguf_error_naming_the_key(tmp_path, model, pre, key):
    path = _gguf(tmp_path, model=model, pre=pre)
    with pytest.raises(errors.UnsupportedTokenizerError) as info:
        Tokenizer(path)
    assert isinstance(info.value, errors.GGUFError) and isinstance(info.value, ValueError)
    assert info.value.key == key
    assert key in str(info.value) and all(repr(p) in str(info.value) for p in PRE_TOKENIZER_REGEXES)


@pytest.mark.parametrize("pre", sorted(PRE_TOKENIZER_REGEXES))
def test_each_supported_pre_tokenizer_builds(tmp_path, pre):
    """The same file with a pre-tokenizer we read: the error above came from the key alone."""
    with Tokenizer(_gguf(tmp_path, model="gpt2", pre=pre)) as tok:
        assert tok.n_vocab == 100


def test_unreadable_metadata_is_a_gguf_error(tmp_path):
    data = _gguf(tmp_path, model="gpt2", pre="smollm").read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[:200])
    with pytest.raises(GGUFMetadataError) as info:
        Tokenizer(cut)
    assert isinstance(info.value, errors.GGUFError) and "ends early" in str(info.value)


def test_command_line_names_the_key_and_exits_2(tmp_path):
    path = _gguf(tmp_path, model="llama")
    proc = subprocess.run([sys.executable, "-m", "jupyter_codecheck", "--model", str(path), str(EXAMPLE)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "the model file cannot be used" in proc.stderr
    assert "tokenizer.ggml.model is 'llama'" in proc.stderr, proc.stderr
