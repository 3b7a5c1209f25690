"""Our tokenizer (the GGUF's vocabulary run by Hugging Face `tokenizers`) against llama.cpp's own,
for every model we name that is installed: the same ids on a few MB of the standard library's
sources, the examples and the Unicode, whitespace and special-token cases (bench/tokenizer_corpus.py;
bench/tokenizer_agreement.py runs the benchmark sets too), and the same bytes, control and
end-of-generation flags for every id."""
from __future__ import annotations

import dataclasses

import pytest

from bench_modules import bench_module
from jupyter_codecheck.engine import llamacpp
from jupyter_codecheck.engine.paths import ModelNotFoundError, resolve_model_path
from jupyter_codecheck.engine.tokenizer import Tokenizer

if not llamacpp.available():
    pytest.skip("llama-cpp-python (the reference) is not installed", allow_module_level=True)

corpus = bench_module("tokenizer_corpus")
# SmolLM2's pre-tokenizer (digits apart, GPT-2's words) and Qwen2's differ; the 1.5B shares the
# 0.5B's vocabulary, held here too when its extra is installed
MODELS = ["smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]
STDLIB_BYTES = 2_000_000


@pytest.fixture(scope="module", params=MODELS)
def pair(request):
    try:
        path = resolve_model_path(request.param)
    except ModelNotFoundError as exc:
        pytest.skip(str(exc))
    with Tokenizer(path) as ours, llamacpp.LlamaCppVocab(path) as ref:
        yield ours, ref


def test_every_token_reads_as_llama_cpp_reads_it(pair):
    ours, ref = pair
    diff = llamacpp.vocab_differences(ours, ref)
    assert diff == {"sizes": [], "piece": [], "control": [], "eog": []}
    assert ours.n_vocab == ref.n_vocab > 49_000


def test_edge_cases_give_llama_cpps_ids(pair):
    ours, ref = pair
    got = llamacpp.token_agreement(ours, ref, corpus.edge_cases() + corpus.example_cells())
    assert got["differing_texts"] == 0, got["first"]
    assert got["texts"] > 700


def test_the_standard_library_gives_llama_cpps_ids(pair):
    ours, ref = pair
    texts = corpus.stdlib_sources(STDLIB_BYTES)
    got = llamacpp.token_agreement(ours, ref, texts)
    assert got["differing_texts"] == 0, got["first"]
    assert got["tokens"] > 2 * 400_000          # both modes, a few hundred thousand tokens each


def test_special_tokens_are_parsed_only_when_asked(pair):
    ours, ref = pair
    eos = ref.piece(ref.eos_id).decode()
    plain, special = ours.encode(f"x{eos}y").ids, ours.encode(f"x{eos}y", parse_special=True).ids
    assert ref.eos_id in special and ref.eos_id not in plain
    assert plain == ref.tokenize(f"x{eos}y") and special == ref.tokenize(f"x{eos}y", parse_special=True)


def test_a_different_tokenizer_is_caught(model_path):
    # the comparison can fail: the same text through the vocabulary with one merge fewer
    text = "    return self.value\n"
    with Tokenizer(model_path) as broken, llamacpp.LlamaCppVocab(model_path) as ref:
        longest = max(broken.encode(text).ids, key=lambda t: len(broken.piece(t)))
        broken._vocab = dataclasses.replace(broken._vocab, hf=_without_token(broken._vocab.hf, longest))
        got = llamacpp.token_agreement(broken, ref, [text])
        assert got["differing_texts"] == 2 and longest not in broken.encode(text).ids


def _without_token(hf, token_id):
    import json

    from tokenizers import Tokenizer as HFTokenizer
    spec = json.loads(hf.to_str())
    text = next(t for t, i in spec["model"]["vocab"].items() if i == token_id)
    spec["model"]["merges"] = [m for m in spec["model"]["merges"]
                               if "".join(m if isinstance(m, list) else m.split(" ")) != text]
    return HFTokenizer.from_str(json.dumps(spec))
