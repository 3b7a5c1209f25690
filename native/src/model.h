// The model: hyper-parameters (Config), weights bound into the mapped file (Weights), and the
// per-architecture description that fills both. Nothing here allocates activation memory.
#pragma once

#include "gguf_reader.h"
#include "packed.h"

#include "ggml.h"

#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct Config {
    std::string arch;
    std::string name;
    int n_layer = 0;
    int n_embd = 0;           // width of the residual stream
    int n_head = 0;
    int n_head_kv = 0;        // grouped-query attention: n_head % n_head_kv == 0
    int head_dim = 0;
    int n_ff = 0;             // feed-forward hidden width
    int n_vocab = 0;
    int n_ctx_train = 0;
    int n_rot = 0;            // rotary dimensions (== head_dim for the archs we run)
    int rope_type = 0;        // GGML_ROPE_TYPE_NORMAL (llama) or GGML_ROPE_TYPE_NEOX (qwen2)
    float rope_freq_base = 10000.0f;
    float norm_eps = 1e-5f;
    int n_embd_kv() const { return head_dim * n_head_kv; }  // K (or V) width per token
};

struct LayerWeights {
    ggml_tensor * attn_norm;   // (n_embd)
    ggml_tensor * wq;          // (n_embd, n_embd)      ggml order: (in, out)
    ggml_tensor * wk;          // (n_embd, n_embd_kv)
    ggml_tensor * wv;          // (n_embd, n_embd_kv)
    ggml_tensor * wo;          // (n_embd, n_embd)
    ggml_tensor * bq = nullptr;  // (n_embd)     qwen2 only
    ggml_tensor * bk = nullptr;  // (n_embd_kv)  qwen2 only
    ggml_tensor * bv = nullptr;  // (n_embd_kv)  qwen2 only
    ggml_tensor * ffn_norm;    // (n_embd)
    ggml_tensor * ffn_gate;    // (n_embd, n_ff)
    ggml_tensor * ffn_up;      // (n_embd, n_ff)
    ggml_tensor * ffn_down;    // (n_ff, n_embd)

    // The same layer with each of its seven matrices replaced by f(matrix), in the order
    // wq, wk, wv, wo, ffn_gate, ffn_up, ffn_down (norms and biases kept): the batch copies.
    template <class F> LayerWeights with_matrices(F f) const {
        LayerWeights b = *this;
        for (ggml_tensor ** t : {&b.wq, &b.wk, &b.wv, &b.wo, &b.ffn_gate, &b.ffn_up, &b.ffn_down}) *t = f(*t);
        return b;
    }
};

struct Weights {
    ggml_tensor * tok_embd;    // (n_embd, n_vocab)
    ggml_tensor * output_norm; // (n_embd)
    ggml_tensor * output;      // (n_embd, n_vocab); == tok_embd when tied
    std::vector<LayerWeights> layers;
};

// Binds named tensors of the file to ggml tensors, checking shape and type (see model.cpp).
struct TensorBinder {
    const gguf_file & file;
    ggml_context * ctx;  // no_alloc: tensor data points into the mapping
    ggml_tensor * get(const std::string & name, std::vector<int64_t> shape, bool required = true);
    ggml_tensor * matrix(const std::string & name, int64_t n_in, int64_t n_out, bool required = true);
    ggml_tensor * vector(const std::string & name, int64_t n, bool required = true);
};

struct LayerGraph;

// What each architecture file (native/models/<arch>.cpp) provides.
struct ArchSpec {
    const char * name;
    void (*load_config)(const gguf_file & f, Config & c);
    void (*load_weights)(TensorBinder & b, const Config & c, Weights & w);
    // builds one layer on the shared blocks (graph.h); returns the active rows' output
    // (n_embd, n_act), or nullptr when no row is active
    ggml_tensor * (*build_layer)(LayerGraph & g);
};

const ArchSpec * find_arch(const std::string & name);
std::string supported_archs();

// Metadata helpers shared by the architecture files: "<arch>.<key>" lookups with type checks.
int64_t meta_int(const gguf_file & f, const std::string & key, int64_t fallback, bool required);
// meta_int for a field held as int: a value outside its range is refused, not cut to 32 bits
int meta_int32(const gguf_file & f, const std::string & key, int fallback, bool required);
double meta_float(const gguf_file & f, const std::string & key, double fallback, bool required);
// Checks shared by the transformer families we run (positive sizes, divisibility, limits).
void check_config(const Config & c);

// The layer matrices converted to a type whose batched CPU product is fast. ggml multiplies
// Q4_1 (the default model's type) with its generic dot-product loop; F32, F16, BF16 and Q8_0 go
// through the tiled GEMM kernels (llamafile's tinyBLAS), which are much faster for batches of
// rows. A single row is memory-bound: there the small original type stays faster.
struct BatchWeights {
    ggml_type type;
    ggml_context * ctx = nullptr;
    std::vector<LayerWeights> layers;  // matrices converted; norms and biases are the originals
    size_t bytes = 0;
    bool from_cache = false;  // mapped from the cache file (native/src/batch_cache.h), not converted
    void * map = nullptr;     // that file's mapping
    size_t map_size = 0;
    ~BatchWeights();
};

struct cc_model {
    gguf_file file;
    const ArchSpec * arch = nullptr;
    Config config;
    Weights weights;
    ggml_context * ctx_w = nullptr;
    int64_t n_params = 0;
    // converted copies by type, made on first use and shared by the model's contexts
    std::map<ggml_type, std::unique_ptr<BatchWeights>> batch_weights;
    std::mutex batch_weights_mutex;
    // files that keep the copies between processes, by type (none: converted in every process)
    std::map<ggml_type, std::string> batch_cache_paths;
    // writes a new copy to its file after the conversion, off the caller's path; joined before
    // the copies are freed
    std::vector<std::thread> cache_writers;
    const BatchWeights * get_batch_weights(ggml_type type);
    // the layer matrices repacked for our own product (packed.h), made on first use
    std::unique_ptr<PackedWeights> packed;
    std::mutex packed_mutex;
    const PackedWeights * get_packed();
    ~cc_model();
};

std::unique_ptr<cc_model> model_load(const char * path);
