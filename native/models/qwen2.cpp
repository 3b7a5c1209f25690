// Architecture "qwen2" (Qwen2.5, Qwen2.5-Coder): the llama layer with biases on Q, K and V and
// NeoX-ordered RoPE (the converter does not permute Q/K rows for this family).
#include "../src/errors.h"
#include "../src/model.h"

void llama_family_load_weights(TensorBinder & b, const Config & c, Weights & w, bool qkv_bias);

static void qwen2_load_config(const gguf_file & f, Config & c) {
    const std::string a = c.arch + ".";
    c.n_layer = (int) meta_int(f, a + "block_count", 0, true);
    c.n_embd = (int) meta_int(f, a + "embedding_length", 0, true);
    c.n_ff = (int) meta_int(f, a + "feed_forward_length", 0, true);
    c.n_head = (int) meta_int(f, a + "attention.head_count", 0, true);
    c.n_head_kv = (int) meta_int(f, a + "attention.head_count_kv", c.n_head, false);
    c.n_ctx_train = (int) meta_int(f, a + "context_length", 32768, false);
    c.rope_freq_base = (float) meta_float(f, a + "rope.freq_base", 1000000.0, false);
    c.norm_eps = (float) meta_float(f, a + "attention.layer_norm_rms_epsilon", 1e-6, true);
    c.head_dim = c.n_head > 0 ? c.n_embd / c.n_head : 0;
    c.n_rot = (int) meta_int(f, a + "rope.dimension_count", c.head_dim, false);
    c.rope_type = GGML_ROPE_TYPE_NEOX;
    check_config(c);
}

static void qwen2_load_weights(TensorBinder & b, const Config & c, Weights & w) {
    llama_family_load_weights(b, c, w, /*qkv_bias=*/true);
}

extern const ArchSpec ARCH_QWEN2 = {"qwen2", qwen2_load_config, qwen2_load_weights};
