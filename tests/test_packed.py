"""The packed product (native/src/packed.h): Q4_K, Q6_K, Q4_1 and Q8_0 matrices multiplied by our
own kernels (AVX-512 VNNI, AVX2; NEON on ARM, checked by native/isa/check_aarch64.sh). Its
integer sums are ggml's exactly, so each product equals ggml's to float rounding; a layer, which
rounds its activations to 8 bits between products, agrees to a rounding step. The models are
llama.cpp's own quantizations of a small random model. `make test-isa` runs these on ggml's AVX2
and generic builds too (CODECHECK_PACKED_ISA caps our kernels)."""
from __future__ import annotations

import ctypes

import numpy as np
import pytest

from gguf_files import tiny_model
from jupyter_codecheck.engine import Model
from jupyter_codecheck.engine.session import checker_settings, packed_isa

pytestmark = pytest.mark.skipif(packed_isa() is None, reason="no packed product here: the CPU has none of its "
                                "instructions, or CODECHECK_PACKED_ISA=none")
# the AVX2 kernels run wherever the AVX-512 ones do, so a machine with AVX-512 tests both
KERNELS = [True, "avx2"] if packed_isa() == "avx512" else [True]


def _quantized(tmp_path_factory, arch, ftype):
    import llama_cpp
    d = tmp_path_factory.mktemp("packed")
    f32, out = d / "tiny-f32.gguf", d / "tiny-quantized.gguf"
    f32.write_bytes(tiny_model(arch, n_embd=256, n_head=4, n_head_kv=2, n_ff=512, n_vocab=320).to_bytes())
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.nthread = 1
    assert llama_cpp.llama_model_quantize(str(f32).encode(), str(out).encode(), ctypes.byref(params)) == 0
    return Model(out)


@pytest.fixture(scope="module")
def q4km(tmp_path_factory):
    """A 2-layer qwen2 model quantized by llama.cpp to Q4_K_M: Q4_K matrices, and Q6_K ones
    (half the ffn_down and attn_v) as in Qwen2.5-Coder's files."""
    import llama_cpp
    model = _quantized(tmp_path_factory, "qwen2", llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_K_M)
    yield model
    model.close()


@pytest.fixture(scope="module")
def q41(tmp_path_factory):
    """The llama architecture in Q4_1, as SmolLM2's file (its product runs on x86: AVX-512, AVX2)."""
    import llama_cpp
    if packed_isa() not in ("avx512", "avx2"):
        pytest.skip("the Q4_1 product needs AVX2 or AVX-512")
    model = _quantized(tmp_path_factory, "llama", llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_1)
    yield model
    model.close()


@pytest.fixture(scope="module")
def q80(tmp_path_factory):
    """The llama architecture in Q8_0: every matrix as SmolLM2's head (its tied embedding) is
    stored (the product runs on x86: AVX-512, AVX2)."""
    import llama_cpp
    if packed_isa() not in ("avx512", "avx2"):
        pytest.skip("the Q8_0 product needs AVX2 or AVX-512")
    model = _quantized(tmp_path_factory, "llama", llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0)
    yield model
    model.close()


TOKENS = [int(t) for t in np.random.default_rng(3).integers(0, 320, 80)]


def _states(model, packed, chunk, stop_after=None):  # packed: False, True or "avx2"
    """Every row's hidden state after layer `stop_after` (None: the last), the tokens fed in
    batches of `chunk` rows."""
    s = model.session(n_threads=1, kv_f32=True, packed=packed)
    out = []
    for i in range(0, len(TOKENS), chunk):
        part = TOKENS[i:i + chunk]
        rows = list(range(len(part)))
        hook = None if stop_after is None else (lambda step: rows if step.layer == stop_after else None)
        s.forward(part, hook=hook)
        out.append(s.hidden(rows))
    s.close()
    return np.concatenate(out)


def _matrices(model):
    """(layer, matrix) of every matrix the packed product takes: each layer's seven, the head."""
    return [(il, name) for il in range(model.info.n_layer) for name in model.MATRICES] + [(None, None)]


def _inputs(model, layer, matrix, n):
    width = model.info.n_ff if matrix == "ffn_down" else model.info.n_embd
    return np.random.default_rng(n).standard_normal((n, width)).astype(np.float32)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 8, 9, 40, 80])
def test_each_product_equals_ggml_to_float_rounding(q4km, n, kernel):
    """The claim the kernels make, one product at a time: the integer sums are ggml's (the same
    8-bit rounding of x), only the order of the float sums differs, so every row of W x agrees
    with ggml's to float rounding, on every instruction set ggml and ours are built for, for
    batches of 1-8 rows (ggml: a dot product per row) and more (ggml: its tiled kernel)."""
    for layer, matrix in _matrices(q4km):
        x = _inputs(q4km, layer, matrix, n)
        ggml = q4km.matrix_product(layer, matrix, x, packed=False)
        ours = q4km.matrix_product(layer, matrix, x, packed=kernel)
        scale = np.abs(ggml).max(axis=1, keepdims=True)
        assert (np.abs(ours - ggml) <= 1e-5 * scale).all(), (layer, matrix)
    assert q4km.packed_bytes > 0


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("n", [1, 3, 8, 9, 40])
@pytest.mark.parametrize("fixture,layer_type,head", [("q41", "q4_1", False), ("q80", "q8_0", True)])
def test_each_product_of_32_input_blocks_equals_ggml_to_float_rounding(request, fixture, layer_type, head, n, kernel):
    """Q4_1 and Q8_0 (SmolLM2's layers and head). Q8_0's codes are signed: the kernels add 128
    (AVX-512) or carry the signs over to x (AVX2), and either way the integer sums are ggml's.
    The Q4_1 model's head is tied: the embedding's Q6_K, tested above."""
    model = request.getfixturevalue(fixture)
    assert model.info.layer_type == layer_type
    for layer, matrix in _matrices(model)[:None if head else -1]:
        x = _inputs(model, layer, matrix, n)
        ggml = model.matrix_product(layer, matrix, x, packed=False)
        ours = model.matrix_product(layer, matrix, x, packed=kernel)
        scale = np.abs(ggml).max(axis=1, keepdims=True)
        assert (np.abs(ours - ggml) <= 1e-5 * scale).all(), (layer, matrix)
    assert model.packed_bytes > 0


def _rows_within_a_rounding_step(ours, ggml):
    """A layer chains products: its attention output and gated product are rounded to 8 bits
    again before the next matrix. A float difference of the last bit (the sums' order above; ggml
    differs so from itself between its AVX2 and AVX-512 builds) can put an input of a row across
    a rounding step, which moves that row's later sums by a step's weight: up to ~6e-3 of the
    largest value for these small random matrices, where a wrong product would move values by
    their own size. Every other row agrees to float rounding."""
    diff = np.abs(ours - ggml).max(axis=1) / np.abs(ggml).max()     # per row (token)
    assert (diff > 1e-5).mean() <= 0.05
    assert diff.max() <= 1e-2


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("chunk", [1, 3, 8, 40, 80])
def test_a_layer_agrees_with_ggml_products_to_a_rounding_step(q4km, chunk, kernel):
    assert q4km.info.layer_type == "q4_K"
    ggml = _states(q4km, False, chunk, stop_after=0)
    ours = _states(q4km, kernel, chunk, stop_after=0)
    assert q4km.packed_bytes > 0
    _rows_within_a_rounding_step(ours, ggml)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("chunk", [1, 8, 40])
def test_a_q4_1_layer_agrees_with_ggml_products_to_a_rounding_step(q41, chunk, kernel):
    assert q41.info.layer_type == "q4_1"
    ggml = _states(q41, False, chunk, stop_after=0)
    ours = _states(q41, kernel, chunk, stop_after=0)
    assert q41.packed_bytes > 0
    _rows_within_a_rounding_step(ours, ggml)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_whole_stack_agrees_with_ggml_products(q4km, kernel):
    """After the first layer a rounding difference can move an activation across an 8-bit step
    of the next product's quantization (ggml's own batch sizes differ so too): most values
    agree to float rounding, the rest by about such a step, never by a wrong matrix's worth."""
    ggml = _states(q4km, False, 8)
    ours = _states(q4km, kernel, 8)
    diff = np.abs(ours - ggml) / np.abs(ggml).max()
    assert np.median(diff) <= 1e-5
    assert diff.max() <= 5e-2


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_full_head_equals_ggml_products(q4km, kernel):
    """The output matrix (Q6_K here, as in Qwen2.5-Coder) is packed too: the head's logits of
    the same states match ggml's to float rounding."""
    s = q4km.session(n_threads=1, kv_f32=True)
    s.forward(TOKENS[:8])
    states = s.hidden(list(range(8)))
    s.close()
    logits = {}
    for packed in (False, kernel):
        s = q4km.session(n_threads=1, kv_f32=True, packed=packed)
        s.forward(TOKENS[:1])
        logits[packed] = s.head_states(states, top_k=1, shortlist=False, logits=True).logits
        s.close()
    assert np.abs(logits[kernel] - logits[False]).max() <= 1e-5 * np.abs(logits[False]).max()


def test_the_checker_packs_the_layer_types_it_has_products_for():
    assert checker_settings("q4_K")["packed"] and checker_settings("q6_K")["packed"]
    assert checker_settings("q4_1").get("packed", False) == (packed_isa() in ("avx512", "avx2"))
    assert not checker_settings("f16").get("packed")


# ggml's types of x (ggml.h) and a Q8_K block's bytes: d (f32), 256 codes, 16 sums (int16)
GGML_TYPE_Q8_K, Q8_K_BLOCK = 15, 292


def _q8_k_inputs():
    """Rows of 2 super-blocks each: normal values at several scales, and the reference's edge
    cases: a magnitude reached first by a negative and then by a positive input (and the other
    way), an all-zero block, NaN and infinite inputs, subnormal ones, values on a half step."""
    rng = np.random.default_rng(11)
    rows = [rng.standard_normal(512) * s for s in (1.0, 1e-3, 1e3, 1e-30, 1e30)]
    tie = rng.standard_normal(512)
    tie[[5, 200]], tie[[300, 301]] = (-9.0, 9.0), (4.0, -4.0)
    zero = np.concatenate([np.zeros(256), rng.standard_normal(256)])
    odd = rng.standard_normal(512)
    odd[[3, 260]], odd[[7, 400]] = np.nan, (np.inf, -np.inf)
    sub = rng.standard_normal(512) * 1e-39
    half = np.tile(np.arange(-127.0, 129.0), 2) / 2         # iscale * x lands on .5: rounded to even
    rows += [tie, zero, odd, sub, half, -half]
    # and many ordinary rows (10^6 inputs): a difference of rounding in a rare case shows there,
    # not in a handful of rows
    rows += list(rng.standard_normal((2000, 512)) * rng.lognormal(0, 3, (2000, 1)))
    return np.ascontiguousarray(np.stack(rows), dtype=np.float32)


@pytest.mark.parametrize("kernel", KERNELS)
def test_inputs_are_quantized_as_ggml_reference_to_the_bit(kernel):
    """x86's ggml runs the scalar reference for Q8_K (every k-quant product's input); ours is
    vectorized and must give its every byte: the first largest magnitude's sign, codes rounded
    to even and capped at 127, each 16 codes' sum, d = 0 for a block of zeros, a NaN's or an
    infinity's code 0 (the reference's nearest_int keeps none of their bits)."""
    from jupyter_codecheck.engine import _native as N
    x = _q8_k_inputs()
    n, k = x.shape
    ours = np.zeros(n * k // 256 * Q8_K_BLOCK, np.uint8)
    err = N.cc_error()
    N.check(N.lib.cc_packed_quantize(GGML_TYPE_Q8_K, N.ptr(x), n, k, N.ptr(ours), 2 if kernel == "avx2" else 1,
                                     ctypes.byref(err)), err)
    reference = np.zeros_like(ours)          # the reference leaves an all-zero block's sums unwritten
    ref = N.lib.quantize_row_q8_K_ref
    ref.argtypes, ref.restype = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64], None
    for r in range(n):
        ref(x[r].ctypes.data, reference[r * k // 256 * Q8_K_BLOCK:].ctypes.data, k)
    blocks = ours.reshape(-1, Q8_K_BLOCK), reference.reshape(-1, Q8_K_BLOCK)
    differ = np.flatnonzero((blocks[0] != blocks[1]).any(axis=1))
    assert differ.size == 0, f"blocks {differ.tolist()} differ from ggml's quantize_row_q8_K_ref"
