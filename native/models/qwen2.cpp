// Architecture "qwen2" (Qwen2.5, Qwen2.5-Coder): the llama layer with biases on Q, K and V and
// NeoX-ordered RoPE (the converter does not permute Q/K rows for this family).
#include "../src/errors.h"
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

extern const ArchSpec ARCH_QWEN2 = {"qwen2", qwen2_load_config, qwen2_load_weights};
