import inspect
import textwrap

import pytest

from jupyter_codecheck.engine.paths import ModelNotFoundError, default_model_path
from jupyter_codecheck.engine.threads import physical_cores
from jupyter_codecheck.engine.tokenizer import Tokenizer, Utf8Stream

try:
    MODEL = default_model_path()
except ModelNotFoundError as exc:
    pytest.skip(f"default model not installed: {exc}", allow_module_level=True)

UNICODE = "π = 'héllo'  # 日本語 🐍\n"


@pytest.fixture(scope="module")
def tok():
    with Tokenizer(MODEL) as t:
        yield t


def assert_tiles(enc):
    assert len(enc.ids) == len(enc.starts) == len(enc.ends)
    pos = 0
    for s, e in zip(enc.starts, enc.ends):
        assert s == pos and e >= s
        pos = e
    assert pos == len(enc.data)


def test_vocab_facts(tok):
    assert tok.n_vocab == 49152
    for tid in (tok.bos_id, tok.eos_id):
        assert isinstance(tid, int) and 0 <= tid < tok.n_vocab
    assert tok.is_eog(tok.eos_id)
    assert tok.is_control(tok.eos_id)
    assert not tok.is_eog(tok.encode("x").ids[0])
    assert isinstance(tok.add_bos, bool)
    with pytest.raises(IndexError):
        tok.piece(tok.n_vocab)


def test_roundtrip_real_python(tok):
    source = inspect.getsource(textwrap)[:6000]
    enc = tok.encode(source)
    assert 500 < len(enc) < len(enc.data)  # BPE merges: fewer tokens than bytes
    assert_tiles(enc)
    assert all(enc.data[s:e] == tok.piece(t) for t, s, e in zip(enc.ids, enc.starts, enc.ends))
    assert tok.decode(enc.ids) == source
    assert "".join(enc.text_of(i) for i in range(len(enc))) == source


def test_bos_has_empty_span(tok):
    enc = tok.encode("x = 1\n", add_bos=True)
    assert enc.ids[0] == tok.bos_id
    assert (enc.starts[0], enc.ends[0]) == (0, 0)
    assert enc.ids[1:] == tok.encode("x = 1\n").ids
    assert_tiles(enc)


def test_special_tokens_only_when_asked(tok):
    text = "a<|im_end|>b"
    plain = tok.encode(text)
    special = tok.encode(text, parse_special=True)
    assert not any(tok.is_control(t) for t in plain.ids)
    im_end = [t for t in special.ids if tok.piece(t) == b"<|im_end|>"]
    assert len(im_end) == 1 and tok.is_control(im_end[0])
    assert len(special) < len(plain)
    assert_tiles(special)
    assert tok.decode(special.ids) == text


def test_multibyte_roundtrip_and_stream(tok):
    enc = tok.encode(UNICODE)
    assert_tiles(enc)
    assert tok.decode(enc.ids) == UNICODE
    # The emoji is 4 bytes; make sure the test exercises a token boundary inside a character.
    boundaries = set(enc.starts[1:])
    inside_char = {i for i, b in enumerate(enc.data) if b & 0xC0 == 0x80}
    assert boundaries & inside_char, "expected byte-level BPE to split a multibyte character"

    stream, out = Utf8Stream(), []
    for t in enc.ids:
        text = stream.push(tok.piece(t))
        assert "\ufffd" not in text
        text.encode("utf-8")  # no lone surrogates / half characters
        out.append(text)
    out.append(stream.flush())
    assert "".join(out) == UNICODE


def test_utf8_stream_buffers_and_flushes():
    snake = "🐍".encode()
    s = Utf8Stream()
    assert s.push(b"a" + snake[:2]) == "a"
    assert s.push(snake[2:3]) == ""
    assert s.push(snake[3:] + b"b") == "🐍b"
    assert s.push(snake[:1]) == ""
    assert s.flush() == "\ufffd"
    assert s.push(b"ok") == "ok"


def test_line_col(tok):
    source = "def f():\n    return 'é' + x\ny = f()\n"
    enc = tok.encode(source)
    got = [(enc.text_of(i), *enc.line_col(i)) for i in range(len(enc))]
    # 'é' is 2 bytes but one column; a token may start with the newline ending the line before.
    assert got == [
        ("def", 1, 0), (" f", 1, 3), ("():", 1, 5), ("\n   ", 1, 8),
        (" return", 2, 3), (" '", 2, 10), ("é", 2, 12), ("'", 2, 13), (" +", 2, 14),
        (" x", 2, 16), ("\n", 2, 18),
        ("y", 3, 0), (" =", 3, 1), (" f", 3, 3), ("()", 3, 5), ("\n", 3, 7),
    ]


def test_line_col_inside_a_character(tok):
    enc = tok.encode(UNICODE)
    col_of_byte = {s: enc.line_col(i)[1] for i, s in enumerate(enc.starts)}
    # Bytes 17..19 are '日' (column 15); a token starting at byte 18 is inside it.
    assert UNICODE[15] == "日" and UNICODE.encode()[:17].decode() == UNICODE[:15]
    assert 18 in col_of_byte, "expected a token to start inside '日'"
    assert col_of_byte[18] == 15


def test_mismatch_is_reported(tok):
    enc = tok.encode("hello world")
    pieces = tok._pieces
    tid = enc.ids[-1]
    saved = pieces[tid]
    pieces[tid] = saved + b"!"
    try:
        with pytest.raises(ValueError, match=r"first mismatch at byte \d+"):
            tok.encode("hello world")
    finally:
        pieces[tid] = saved


def test_physical_cores():
    n = physical_cores()
    assert isinstance(n, int) and n >= 1


def test_a_new_process_tokenizes_without_importing_llama_cpp():
    import subprocess
    import sys
    code = ("import sys; from jupyter_codecheck.engine.tokenizer import Tokenizer; "
            f"print(Tokenizer({str(MODEL)!r}).encode('x = 1').ids, 'llama_cpp' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split()[-1] == "False"
