#include "model.h"

#include "batch_cache.h"
#include "errors.h"

#include "ggml-cpu.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <system_error>
#include <thread>

#include <sys/mman.h>

extern const ArchSpec ARCH_LLAMA;
extern const ArchSpec ARCH_QWEN2;

// One entry per native/models/<arch>.cpp, which holds the family's hyper-parameters, tensors and
// layer graph. A new family (e.g. gemma3) adds its file here and any block it lacks in graph.h.
static const ArchSpec * const ARCHS[] = {&ARCH_LLAMA, &ARCH_QWEN2};

const ArchSpec * find_arch(const std::string & name) {
    for (const ArchSpec * a : ARCHS) {
        if (name == a->name) return a;
    }
    return nullptr;
}

std::string supported_archs() {
    std::string s;
    for (const ArchSpec * a : ARCHS) s += (s.empty() ? "" : ", ") + std::string(a->name);
    return s;
}

int64_t meta_int(const gguf_file & f, const std::string & key, int64_t fallback, bool required) {
    const gguf_value * v = f.find(key);
    if (!v) {
        if (required) CC_THROW(CC_ERR_METADATA, -1, key, "required metadata key '%s' is missing", key.c_str());
        return fallback;
    }
    if (v->type == GV_STRING || v->type == GV_ARRAY || v->type == GV_FLOAT32 || v->type == GV_FLOAT64) {
        CC_THROW(CC_ERR_METADATA, v->offset, key, "metadata '%s' should be an integer (has value type %u)", key.c_str(), v->type);
    }
    return v->i;
}

int meta_int32(const gguf_file & f, const std::string & key, int fallback, bool required) {
    const int64_t v = meta_int(f, key, fallback, required);
    if (v < INT_MIN || v > INT_MAX) {
        CC_THROW(CC_ERR_METADATA, f.find(key)->offset, key, "metadata '%s' = %lld is out of the 32-bit range", key.c_str(),
                 (long long) v);
    }
    return (int) v;
}

double meta_float(const gguf_file & f, const std::string & key, double fallback, bool required) {
    const gguf_value * v = f.find(key);
    if (!v) {
        if (required) CC_THROW(CC_ERR_METADATA, -1, key, "required metadata key '%s' is missing", key.c_str());
        return fallback;
    }
    if (v->type == GV_STRING || v->type == GV_ARRAY) {
        CC_THROW(CC_ERR_METADATA, v->offset, key, "metadata '%s' should be a number (has value type %u)", key.c_str(), v->type);
    }
    return v->f;
}

void check_config(const Config & c) {
    const std::string a = c.arch + ".";
    auto bad = [&](const std::string & key, double value, const char * rule) {
        CC_THROW(CC_ERR_METADATA, -1, a + key, "hyper-parameter '%s' = %.9g is invalid (%s)", (a + key).c_str(), value, rule);
    };
    if (c.n_layer < 1 || c.n_layer > 512) bad("block_count", c.n_layer, "1..512");
    if (c.n_embd < 1 || c.n_embd > 65536) bad("embedding_length", c.n_embd, "1..65536");
    if (c.n_ff < 1 || c.n_ff > 1 << 20) bad("feed_forward_length", c.n_ff, "1..2^20");
    if (c.n_head < 1 || c.n_head > 1024) bad("attention.head_count", c.n_head, "1..1024");
    if (c.n_head_kv < 1 || c.n_head % c.n_head_kv != 0) bad("attention.head_count_kv", c.n_head_kv, "must divide head_count");
    if (c.head_dim < 2 || c.head_dim % 2 != 0 || c.head_dim > 1024) {
        bad("attention.key_length", c.head_dim, "the head dimension, embedding_length / head_count unless given: even, 2..1024");
    }
    if (c.n_rot != c.head_dim) bad("rope.dimension_count", c.n_rot, "partial RoPE is not supported: must equal the head dimension");
    if (!(c.norm_eps > 0 && c.norm_eps < 1)) bad("attention.layer_norm_rms_epsilon", c.norm_eps, "0 < eps < 1");
    if (!(c.rope_freq_base > 0)) bad("rope.freq_base", c.rope_freq_base, "> 0");
}

ggml_tensor * TensorBinder::get(const std::string & name, std::vector<int64_t> shape, bool required) {
    const gguf_tensor_info * t = file.tensor(name);
    if (!t) {
        if (required) CC_THROW(CC_ERR_MISSING_TENSOR, -1, name, "required tensor '%s' is missing from the model file", name.c_str());
        return nullptr;
    }
    bool same = t->n_dims == shape.size();
    for (size_t d = 0; same && d < shape.size(); ++d) same = t->ne[d] == shape[d];
    if (!same) {
        std::string want, got;
        for (size_t d = 0; d < shape.size(); ++d) want += (d ? ", " : "") + std::to_string(shape[d]);
        for (uint32_t d = 0; d < t->n_dims; ++d) got += (d ? ", " : "") + std::to_string(t->ne[d]);
        CC_THROW(CC_ERR_TENSOR_SHAPE, t->info_offset, name, "tensor '%s' has shape (%s), expected (%s)", name.c_str(), got.c_str(), want.c_str());
    }
    ggml_tensor * g = ggml_new_tensor(ctx, (ggml_type) t->type, (int) t->n_dims, t->ne);
    g->data = const_cast<uint8_t *>(file.tensor_data(*t));
    ggml_set_name(g, name.c_str());
    return g;
}

ggml_tensor * TensorBinder::matrix(const std::string & name, int64_t n_in, int64_t n_out, bool required) {
    ggml_tensor * g = get(name, {n_in, n_out}, required);
    // the CPU matrix product needs a dot-product kernel for the weight type
    if (g && g->type != GGML_TYPE_F32 && ggml_get_type_traits_cpu(g->type)->vec_dot == nullptr) {
        CC_THROW(CC_ERR_TENSOR_TYPE, file.tensor(name)->info_offset, name, "tensor '%s' has type %s, which the CPU backend cannot multiply",
                 name.c_str(), ggml_type_name(g->type));
    }
    return g;
}

ggml_tensor * TensorBinder::vector(const std::string & name, int64_t n, bool required) {
    ggml_tensor * g = get(name, {n}, required);
    if (g && g->type != GGML_TYPE_F32) {
        CC_THROW(CC_ERR_TENSOR_TYPE, file.tensor(name)->info_offset, name, "tensor '%s' has type %s, expected f32",
                 name.c_str(), ggml_type_name(g->type));
    }
    return g;
}

std::unique_ptr<cc_model> model_load(const char * path) {
    auto m = std::make_unique<cc_model>();
    gguf_open(m->file, path);

    const gguf_value * arch = m->file.find("general.architecture");
    if (!arch || arch->type != GV_STRING) {
        CC_THROW(CC_ERR_METADATA, arch ? arch->offset : -1, "general.architecture",
                 "metadata 'general.architecture' is missing or not a string");
    }
    const ArchSpec * spec = find_arch(arch->s);
    if (!spec) {
        CC_THROW(CC_ERR_UNSUPPORTED_ARCH, arch->offset, "general.architecture",
                 "metadata 'general.architecture': architecture '%s' is not supported (supported: %s)", arch->s.c_str(),
                 supported_archs().c_str());
    }
    m->arch = spec;
    Config & c = m->config;
    c.arch = arch->s;
    if (const gguf_value * n = m->file.find("general.name"); n && n->type == GV_STRING) c.name = n->s;
    spec->load_config(m->file, c);

    // the vocabulary size is the embedding's second dimension
    const gguf_tensor_info * emb = m->file.tensor("token_embd.weight");
    if (!emb) CC_THROW(CC_ERR_MISSING_TENSOR, -1, "token_embd.weight", "required tensor 'token_embd.weight' is missing from the model file");
    if (emb->n_dims != 2 || emb->ne[1] < 2 || emb->ne[1] > (1 << 24)) {
        CC_THROW(CC_ERR_TENSOR_SHAPE, emb->info_offset, "token_embd.weight", "tensor 'token_embd.weight' must be (n_embd, n_vocab) with 2 <= n_vocab <= 2^24");
    }
    c.n_vocab = (int) emb->ne[1];

    ggml_init_params ip = {ggml_tensor_overhead() * (m->file.tensors.size() + 8), nullptr, /*no_alloc=*/true};
    m->ctx_w = ggml_init(ip);
    if (!m->ctx_w) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot allocate the weights context");
    TensorBinder binder{m->file, m->ctx_w};
    spec->load_weights(binder, c, m->weights);
    for (const auto & t : m->file.tensors) m->n_params += t.ne[0] * t.ne[1] * t.ne[2] * t.ne[3];
    return m;
}

// Converts rows [r0, r1) of one (n_in, n_out) matrix: each row dequantized to f32, then stored in
// `dst`'s type. Row by row, so no matrix-sized f32 temporary is allocated and touched.
static void convert_rows(const ggml_tensor * src, ggml_tensor * dst, int64_t r0, int64_t r1) {
    const int64_t n_in = src->ne[0];
    std::vector<float> row_f32((size_t) n_in);
    const auto * traits = ggml_get_type_traits(src->type);
    for (int64_t r = r0; r < r1; ++r) {
        const char * row = (const char *) src->data + r * src->nb[1];
        if (src->type == GGML_TYPE_F32) memcpy(row_f32.data(), row, sizeof(float) * n_in);
        else traits->to_float(row, row_f32.data(), n_in);
        char * out = (char *) dst->data + r * dst->nb[1];
        if (dst->type == GGML_TYPE_F32) memcpy(out, row_f32.data(), sizeof(float) * n_in);
        // the CPU backend's vectorised conversion: the same round-to-nearest-even bits as
        // ggml_quantize_chunk's scalar one, several times faster on the cold-start path
        else if (dst->type == GGML_TYPE_F16) ggml_cpu_fp32_to_fp16(row_f32.data(), (ggml_fp16_t *) out, n_in);
        else ggml_quantize_chunk(dst->type, row_f32.data(), out, 0, 1, n_in, nullptr);
    }
}

// The copies are made once per model and type, on the critical path of a new kernel's first
// check: split every matrix's rows over the cores (plain threads, joined: nothing spins).
static void convert_all(const std::vector<std::pair<const ggml_tensor *, ggml_tensor *>> & jobs) {
    const int n = (int) std::max(1u, std::min(std::thread::hardware_concurrency(), 8u));
    auto work = [&](int k) {
        for (const auto & [src, dst] : jobs) {
            const int64_t rows = src->ne[1];
            convert_rows(src, dst, rows * k / n, rows * (k + 1) / n);
        }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < n; ++k) pool.emplace_back(work, k);
    work(0);
    for (auto & t : pool) t.join();
}

BatchWeights::~BatchWeights() {
    if (ctx) ggml_free(ctx);
    if (map) munmap(map, map_size);
}

cc_model::~cc_model() {
    for (std::thread & t : cache_writers) t.join();
    batch_weights.clear();
    if (ctx_w) ggml_free(ctx_w);
}

const PackedWeights * cc_model::get_packed() {
    std::lock_guard<std::mutex> lock(packed_mutex);
    if (!packed) {
        auto p = std::make_unique<PackedWeights>();
        std::vector<const ggml_tensor *> ws;
        for (const LayerWeights & w : weights.layers) w.with_matrices([&](ggml_tensor * t) { ws.push_back(t); return t; });
        ws.push_back(weights.output);  // the full head: the largest matrix of a small model
        packed_build(ws, *p);
        packed = std::move(p);
    }
    return packed.get();
}

const BatchWeights * cc_model::get_batch_weights(ggml_type type) {
    std::lock_guard<std::mutex> lock(batch_weights_mutex);
    auto it = batch_weights.find(type);
    if (it != batch_weights.end()) return it->second.get();
    auto cached = batch_cache_paths.find(type);
    if (cached != batch_cache_paths.end()) {
        auto bw = std::make_unique<BatchWeights>();
        if (batch_cache_load(*this, type, cached->second, *bw)) {
            const BatchWeights * out = bw.get();
            batch_weights[type] = std::move(bw);
            return out;
        }
    }
    const Config & c = config;
    if (c.n_embd % ggml_blck_size(type) != 0 || c.n_ff % ggml_blck_size(type) != 0) {
        CC_THROW(CC_ERR_ARGUMENT, -1, "", "batch weights of type %s need row lengths divisible by %d",
                 ggml_type_name(type), (int) ggml_blck_size(type));
    }
    size_t bytes = 0;
    for (const LayerWeights & w : weights.layers) {
        for (const ggml_tensor * t : {w.wq, w.wk, w.wv, w.wo, w.ffn_gate, w.ffn_up, w.ffn_down}) {
            bytes += ggml_row_size(type, t->ne[0]) * t->ne[1] + 256;
        }
    }
    auto bw = std::make_unique<BatchWeights>();
    bw->type = type;
    ggml_init_params ip = {bytes + ggml_tensor_overhead() * 8 * weights.layers.size(), nullptr, false};
    bw->ctx = ggml_init(ip);
    if (!bw->ctx) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot allocate %zu MiB for the batch weights", bytes >> 20);
    ggml_cpu_init();  // the CPU backend's conversions below may rely on its tables
    std::vector<std::pair<const ggml_tensor *, ggml_tensor *>> jobs;
    auto copy_of = [&](const ggml_tensor * src) {
        ggml_tensor * dst = ggml_new_tensor_2d(bw->ctx, type, src->ne[0], src->ne[1]);
        ggml_set_name(dst, src->name);
        jobs.emplace_back(src, dst);
        return dst;
    };
    for (const LayerWeights & w : weights.layers) bw->layers.push_back(w.with_matrices(copy_of));
    convert_all(jobs);
    bw->bytes = bytes;
    const BatchWeights * out = bw.get();
    batch_weights[type] = std::move(bw);
    if (cached != batch_cache_paths.end()) {
        // the copies live until ~cc_model, which joins this thread first
        try {
            cache_writers.emplace_back([this, out, path = cached->second] { batch_cache_save(*this, *out, path); });
        } catch (const std::system_error &) {
            // no thread to spare: the copies are converted again next time
        }
    }
    return out;
}
