// Architecture "llama" (SmolLM2, Llama 2/3): pre-norm, RMSNorm, RoPE (normal ordering: the GGUF
// converter permutes Q/K rows for it), grouped-query attention, SwiGLU feed-forward.
#include "../src/errors.h"
#include "../src/graph.h"
#include "../src/model.h"

// Hyper-parameters of the llama family (qwen2 reads the same keys with other defaults).
void llama_family_load_config(const gguf_file & f, Config & c, int ctx_default, double freq_default,
                              double eps_default, int rope_type) {
    const std::string a = c.arch + ".";
    c.n_layer = meta_int32(f, a + "block_count", 0, true);
    c.n_embd = meta_int32(f, a + "embedding_length", 0, true);
    c.n_ff = meta_int32(f, a + "feed_forward_length", 0, true);
    c.n_head = meta_int32(f, a + "attention.head_count", 0, true);
    c.n_head_kv = meta_int32(f, a + "attention.head_count_kv", c.n_head, false);
    c.n_ctx_train = meta_int32(f, a + "context_length", ctx_default, false);
    c.rope_freq_base = (float) meta_float(f, a + "rope.freq_base", freq_default, false);
    c.norm_eps = (float) meta_float(f, a + "attention.layer_norm_rms_epsilon", eps_default, true);
    c.head_dim = c.n_head > 0 ? c.n_embd / c.n_head : 0;
    c.head_dim = meta_int32(f, a + "attention.key_length", c.head_dim, false);
    c.n_rot = meta_int32(f, a + "rope.dimension_count", c.head_dim, false);
    c.rope_type = rope_type;
    check_config(c);
}

static void llama_load_config(const gguf_file & f, Config & c) {
    llama_family_load_config(f, c, 2048, 10000.0, 1e-5, GGML_ROPE_TYPE_NORMAL);
}

// Shared with qwen2, which differs only by Q/K/V biases and RoPE ordering.
void llama_family_load_weights(TensorBinder & b, const Config & c, Weights & w, bool qkv_bias) {
    w.tok_embd = b.matrix("token_embd.weight", c.n_embd, c.n_vocab);
    w.output_norm = b.vector("output_norm.weight", c.n_embd);
    w.output = b.matrix("output.weight", c.n_embd, c.n_vocab, /*required=*/false);
    if (!w.output) w.output = w.tok_embd;  // tied embeddings
    const int q_width = c.head_dim * c.n_head;
    w.layers.resize(c.n_layer);
    for (int il = 0; il < c.n_layer; ++il) {
        LayerWeights & l = w.layers[il];
        const std::string p = "blk." + std::to_string(il) + ".";
        l.attn_norm = b.vector(p + "attn_norm.weight", c.n_embd);
        l.wq = b.matrix(p + "attn_q.weight", c.n_embd, q_width);
        l.wk = b.matrix(p + "attn_k.weight", c.n_embd, c.n_embd_kv());
        l.wv = b.matrix(p + "attn_v.weight", c.n_embd, c.n_embd_kv());
        l.wo = b.matrix(p + "attn_output.weight", q_width, c.n_embd);
        if (qkv_bias) {
            l.bq = b.vector(p + "attn_q.bias", q_width);
            l.bk = b.vector(p + "attn_k.bias", c.n_embd_kv());
            l.bv = b.vector(p + "attn_v.bias", c.n_embd_kv());
        }
        l.ffn_norm = b.vector(p + "ffn_norm.weight", c.n_embd);
        l.ffn_gate = b.matrix(p + "ffn_gate.weight", c.n_embd, c.n_ff);
        l.ffn_up = b.matrix(p + "ffn_up.weight", c.n_embd, c.n_ff);
        l.ffn_down = b.matrix(p + "ffn_down.weight", c.n_ff, c.n_embd);
    }
}

static void llama_load_weights(TensorBinder & b, const Config & c, Weights & w) {
    llama_family_load_weights(b, c, w, /*qkv_bias=*/false);
}

// One layer: x + attn(norm(x)), then h + ffn(norm(h)).
static ggml_tensor * llama_build_layer(LayerGraph & g) {
    const Config & c = g.c;
    const LayerWeights & w = g.w;
    ggml_tensor * cur = g.norm(g.inp, w.attn_norm, "attn_norm");

    // K and V of every row: a row that stopped (propagate mode) still feeds later rows' attention
    ggml_tensor * k = g.rope(g.mul_mat(g.w_kv.wk, cur), c.n_head_kv, "Kcur");
    ggml_tensor * v = g.mul_mat(g.w_kv.wv, cur);
    g.cb(v, "Vcur");
    g.store_kv(k, v);
    if (g.n_act == 0) return nullptr;

    ggml_tensor * q = g.rope(g.mul_mat(w.wq, g.active(cur)), c.n_head, "Qcur");
    ggml_tensor * ffn_inp = g.residual(g.attn(q, w.wo), g.active(g.inp), "ffn_inp");
    cur = g.ffn_swiglu(g.norm(ffn_inp, w.ffn_norm, "ffn_norm"), w.ffn_gate, w.ffn_up, w.ffn_down);
    return g.residual(cur, ffn_inp, "l_out");
}

extern const ArchSpec ARCH_LLAMA = {"llama", llama_load_config, llama_load_weights, llama_build_layer};
