// Architecture "qwen2" (Qwen2.5, Qwen2.5-Coder): the llama layer with biases on Q, K and V and
// NeoX-ordered RoPE (the converter does not permute Q/K rows for this family).
#include "../src/errors.h"
#include "../src/graph.h"
#include "../src/model.h"

void llama_family_load_config(const gguf_file & f, Config & c, int ctx_default, double freq_default,
                              double eps_default, int rope_type);
void llama_family_load_weights(TensorBinder & b, const Config & c, Weights & w, bool qkv_bias);

static void qwen2_load_config(const gguf_file & f, Config & c) {
    llama_family_load_config(f, c, 32768, 1000000.0, 1e-6, GGML_ROPE_TYPE_NEOX);
}

static void qwen2_load_weights(TensorBinder & b, const Config & c, Weights & w) {
    llama_family_load_weights(b, c, w, /*qkv_bias=*/true);
}

// One layer: llama's, with a bias added to each of the Q, K and V projections.
static ggml_tensor * qwen2_build_layer(LayerGraph & g) {
    const Config & c = g.c;
    const LayerWeights & w = g.w;
    ggml_tensor * cur = g.norm(g.inp, w.attn_norm, "attn_norm");

    // K and V of every row: a row that stopped (propagate mode) still feeds later rows' attention
    ggml_tensor * k = ggml_add(g.ctx, g.mul_mat(g.w_kv.wk, cur), w.bk);
    k = g.rope(k, c.n_head_kv, "Kcur");
    ggml_tensor * v = ggml_add(g.ctx, g.mul_mat(g.w_kv.wv, cur), w.bv);
    g.cb(v, "Vcur");
    g.store_kv(k, v);
    if (g.n_act == 0) return nullptr;

    ggml_tensor * q = ggml_add(g.ctx, g.mul_mat(w.wq, g.active(cur)), w.bq);
    q = g.rope(q, c.n_head, "Qcur");
    ggml_tensor * ffn_inp = g.residual(g.attn(q, w.wo), g.active(g.inp), "ffn_inp");
    cur = g.ffn_swiglu(g.norm(ffn_inp, w.ffn_norm, "ffn_norm"), w.ffn_gate, w.ffn_up, w.ffn_down);
    return g.residual(cur, ffn_inp, "l_out");
}

extern const ArchSpec ARCH_QWEN2 = {"qwen2", qwen2_load_config, qwen2_load_weights, qwen2_build_layer};
