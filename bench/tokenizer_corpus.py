"""Texts our tokenizer is held to llama.cpp's on: what every machine has (the standard library's
Python sources, the repository's examples, and the Unicode and whitespace cases where byte-level
BPE and its pre-tokenizers differ), and the benchmark sets when they are here.

    from tokenizer_corpus import benchmark_texts, edge_cases, example_cells, stdlib_sources
"""
from __future__ import annotations

import json
import random
import sysconfig
from pathlib import Path

from harness import ROOT

SPECIAL_TEXTS = [
    "<|im_end|>", "a<|im_start|>b<|im_end|>\n", "<|endoftext|>x", "<<|im_end|>>", "<|im_end|",
    "<tool_call>{\"a\": 1}</tool_call>", "</tool_call>", "<|fim_prefix|>def f():\n<|fim_suffix|>\n<|fim_middle|>",
    "<|file_sep|>a.py\n<|repo_name|>r", "<jupyter_code>x = 1<jupyter_output>", "<filename>x.py\n<file_sep>",
    "[PAD151665]", "<|endoftext|><|endoftext|>", " <|im_end|> ", "\n<|im_start|>user\nhi<|im_end|>",
]
WHITESPACE_TEXTS = [
    "", " ", "  ", "\n", "\r\n", "\r\n\r\n", "\r", "\t", "\t\t", " \t \n", "x\r\ny", "x \r\n y",
    " " * 100, "\n" * 50, "\t" * 33 + "x", " " * 17 + "\n", "  \n  \n", "a" + " " * 9 + "b",
    "\u00a0x", "x\u3000y", "a\u2028b", "a\u0085b", "\ufeffimport os", "a\u200bb", "\x0b\x0c",
    "    def f(self):\r\n        return 1\r\n", "\n\n\n    x", " \n\t\r\n \r",
]
UNICODE_TEXTS = [
    "π = 'héllo'  # 日本語 🐍\n", "🐍🐍🐍", "👨‍👩‍👧", "🇯🇵🇫🇷", "日本語のテキストです。", "한국어 텍스트",
    "مرحبا بالعالم", "नमस्ते दुनिया", "e\u0301 vs é", "Ⅻ ½ ² ３４５ ١٢٣", "ΑΒΓ αβγ", "\ue000\U000f0000",
    "\U000e0001tag", "x = '\\u00e9'", "naïve café résumé", "Ωmega ≠ omega ≤ 3", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛",
    "don't I'll we've 'S 'RE 'Ll", "1234567890 3.14159 1e-10 0xFF", "a__b __init__ ___", "$€£¥ ₿",
]


def edge_cases() -> list[str]:
    """The special-token, whitespace and Unicode cases, and random mixes of them (seeded)."""
    rng = random.Random(49)
    pool = "".join(SPECIAL_TEXTS + WHITESPACE_TEXTS + UNICODE_TEXTS) + "abcxyz_019 ()[]{}:.,'\"#=+-*/\\"
    mixes = ["".join(rng.choice(pool) for _ in range(rng.randint(1, 60))) for _ in range(300)]
    return SPECIAL_TEXTS + WHITESPACE_TEXTS + UNICODE_TEXTS + mixes


def stdlib_sources(max_bytes: int) -> list[str]:
    """The standard library's Python sources, in path order, up to `max_bytes` of text."""
    out, total = [], 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if total + len(text) > max_bytes:
            break
        out.append(text)
        total += len(text)
    return out


def example_cells() -> list[str]:
    """The repository's example notebooks' code cells and example files."""
    out = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))]
    for nb in sorted((ROOT / "examples").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        out += ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return out


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def benchmark_texts(data: Path) -> list[str]:
    """Every string of every row of every JSONL set under `data` (code, cells, messages)."""
    out = []
    for path in sorted(Path(data).glob("*.jsonl")):
        with open(path, encoding="utf-8") as f:
            out += [s for line in f if line.strip() for s in _strings(json.loads(line))]
    return out
