// The C boundary: every entry point catches what the engine throws and returns a cc_status.
#include "codecheck.h"

#include "context.h"
#include "errors.h"
#include "packed_layout.h"

#include "ggml-cpu.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <new>
#include <vector>

namespace {

int fail(cc_error * err, int code, const char * msg, int64_t offset = -1, const char * key = "") {
    if (err) {
        err->code = code;
        err->offset = offset;
        snprintf(err->key, sizeof(err->key), "%s", key);
        snprintf(err->message, sizeof(err->message), "%s", msg);
    }
    return code;
}

void clear(cc_error * err) {
    if (err) {
        err->code = CC_OK;
        err->offset = -1;
        err->key[0] = 0;
        err->message[0] = 0;
    }
}

// Runs f, mapping exceptions to a status; f returns a non-negative int on success.
template <typename F> int guarded(cc_error * err, F && f) {
    clear(err);
    try {
        return f();
    } catch (const cc_exception & e) {
        return fail(err, e.code, e.what(), e.offset, e.key.c_str());
    } catch (const std::bad_alloc &) {
        return fail(err, CC_ERR_NO_MEMORY, "out of memory");
    } catch (const std::exception & e) {
        return fail(err, CC_ERR_COMPUTE, e.what());
    } catch (...) {
        return fail(err, CC_ERR_COMPUTE, "unknown error");
    }
}

}  // namespace

extern "C" {

cc_model * cc_model_load(const char * path, cc_error * err) {
    cc_model * out = nullptr;
    guarded(err, [&] {
        if (!path) CC_THROW(CC_ERR_ARGUMENT, -1, "", "path is NULL");
        out = model_load(path).release();
        return 0;
    });
    return out;
}

void cc_model_free(cc_model * model) { delete model; }

void cc_model_get_info(const cc_model * m, cc_model_info * out) {
    memset(out, 0, sizeof(*out));
    const Config & c = m->config;
    snprintf(out->arch, sizeof(out->arch), "%s", c.arch.c_str());
    snprintf(out->name, sizeof(out->name), "%s", c.name.c_str());
    out->n_layer = c.n_layer;
    out->n_embd = c.n_embd;
    out->n_head = c.n_head;
    out->n_head_kv = c.n_head_kv;
    out->head_dim = c.head_dim;
    out->n_ff = c.n_ff;
    out->n_vocab = c.n_vocab;
    out->n_ctx_train = c.n_ctx_train;
    out->rope_freq_base = c.rope_freq_base;
    out->norm_eps = c.norm_eps;
    out->tied_output = m->weights.output == m->weights.tok_embd;
    out->output_type = m->weights.output->type;
    // the type most of a step's weights are read in: what decides the fastest batch arithmetic
    std::map<int, int64_t> by_type;
    for (const LayerWeights & l : m->weights.layers)
        for (const ggml_tensor * t : {l.wq, l.wk, l.wv, l.wo, l.ffn_gate, l.ffn_up, l.ffn_down})
            by_type[t->type] += ggml_nelements(t);
    out->layer_type = by_type.empty() ? -1 : std::max_element(by_type.begin(), by_type.end(),
        [](const auto & a, const auto & b) { return a.second < b.second; })->first;
    out->n_params = m->n_params;
    out->file_size = (int64_t) m->file.size;
}

int cc_model_set_batch_cache(cc_model * m, int32_t batch_type, const char * path, cc_error * err) {
    return guarded(err, [&] {
        if (!m) CC_THROW(CC_ERR_ARGUMENT, -1, "", "model is NULL");
        if (batch_type < 0 || batch_type >= GGML_TYPE_COUNT) CC_THROW(CC_ERR_ARGUMENT, -1, "batch_type", "batch_type %d is not a ggml type", batch_type);
        std::lock_guard<std::mutex> lock(m->batch_weights_mutex);
        if (path) m->batch_cache_paths[(ggml_type) batch_type] = path;
        else m->batch_cache_paths.erase((ggml_type) batch_type);
        return 0;
    });
}

int32_t cc_packed_supported(void) { return (int32_t) packed_isa(); }

int64_t cc_model_packed_bytes(cc_model * m) {
    std::lock_guard<std::mutex> lock(m->packed_mutex);
    return m->packed ? (int64_t) m->packed->bytes : 0;
}

int cc_model_product(cc_model * m, int32_t layer, int32_t matrix, const float * x, int32_t n, float * out,
                     int32_t packed, cc_error * err) {
    return guarded(err, [&] {
        if (!m || !x || !out) CC_THROW(CC_ERR_ARGUMENT, -1, "", "model, x and out must not be NULL");
        if (layer < -1 || layer >= m->config.n_layer) CC_THROW(CC_ERR_ARGUMENT, -1, "layer", "layer %d is not -1 (the output matrix) or a layer of the model", layer);
        if (n <= 0) CC_THROW(CC_ERR_ARGUMENT, -1, "n", "n = %d rows: must be positive", n);
        if (packed < 0 || packed > 2) CC_THROW(CC_ERR_ARGUMENT, -1, "packed", "packed must be 0, 1 or 2, got %d", packed);
        const ggml_tensor * w = m->weights.output;
        if (layer >= 0) {
            std::vector<ggml_tensor *> ms;
            m->weights.layers[layer].with_matrices([&](ggml_tensor * t) { ms.push_back(t); return t; });
            if (matrix < 0 || matrix >= (int) ms.size()) CC_THROW(CC_ERR_ARGUMENT, -1, "matrix", "matrix %d: must be 0..6 (wq, wk, wv, wo, ffn_gate, ffn_up, ffn_down)", matrix);
            w = ms[matrix];
        }
        const PackedIsa isa = packed_isa_for(packed);
        matrix_product(w, isa == PackedIsa::none ? nullptr : m->get_packed(), isa, x, n, out);
        return 0;
    });
}

int cc_packed_quantize(int32_t x_type, const float * x, int32_t n, int64_t k, void * out, int32_t packed,
                       cc_error * err) {
    return guarded(err, [&] {
        if (!x || !out) CC_THROW(CC_ERR_ARGUMENT, -1, "", "x and out must not be NULL");
        if (x_type != GGML_TYPE_Q8_K && x_type != GGML_TYPE_Q8_1 && x_type != GGML_TYPE_Q8_0)
            CC_THROW(CC_ERR_ARGUMENT, -1, "x_type", "x_type %d is not Q8_K, Q8_1 or Q8_0", x_type);
        if (n <= 0 || k <= 0 || k % ggml_blck_size((ggml_type) x_type))
            CC_THROW(CC_ERR_ARGUMENT, -1, "k", "%d rows of %lld inputs: need rows, and inputs a multiple of %lld",
                     n, (long long) k, (long long) ggml_blck_size((ggml_type) x_type));
        if (packed < 0 || packed > 2) CC_THROW(CC_ERR_ARGUMENT, -1, "packed", "packed must be 0, 1 or 2, got %d", packed);
        ggml_cpu_init();
        const RowQuantizer q = input_quantizer((ggml_type) x_type, packed_isa_for(packed));
        const size_t row = ggml_row_size((ggml_type) x_type, k);
        for (int32_t r = 0; r < n; ++r) q(x + r * k, (uint8_t *) out + r * row, k);
        return 0;
    });
}

int32_t cc_model_batch_source(cc_model * m, int32_t batch_type) {
    std::lock_guard<std::mutex> lock(m->batch_weights_mutex);
    auto it = m->batch_weights.find((ggml_type) batch_type);
    if (it == m->batch_weights.end()) return 0;
    return it->second->from_cache ? 2 : 1;
}

cc_context_params cc_context_default_params(void) { return {0, 512, 1, 0, -1, 8, 0}; }

cc_context * cc_context_new(cc_model * model, cc_context_params params, cc_error * err) {
    cc_context * out = nullptr;
    guarded(err, [&] {
        if (!model) CC_THROW(CC_ERR_ARGUMENT, -1, "", "model is NULL");
        out = new cc_context(model, params);
        return 0;
    });
    return out;
}

void cc_context_free(cc_context * ctx) { delete ctx; }

int cc_set_threads(cc_context * ctx, int32_t n_threads) {
    if (n_threads < 1 || n_threads > 512) return CC_ERR_ARGUMENT;
    return guarded(nullptr, [&] { ctx->set_threads(n_threads); return 0; });
}

int32_t cc_n_ctx(const cc_context * ctx) { return ctx->n_ctx; }
int32_t cc_n_past(const cc_context * ctx) { return ctx->n_past; }

int cc_truncate(cc_context * ctx, int32_t n_keep, cc_error * err) {
    return guarded(err, [&] { ctx->truncate(n_keep); return 0; });
}

int cc_batch_begin(cc_context * ctx, const int32_t * tokens, int32_t n, int32_t kv_mode, cc_error * err) {
    return guarded(err, [&] {
        if (n > 0 && !tokens) CC_THROW(CC_ERR_ARGUMENT, -1, "", "tokens is NULL");
        if (n < 1) CC_THROW(CC_ERR_ARGUMENT, -1, "", "a batch needs at least one token");
        ctx->begin(tokens, n, kv_mode);
        return 0;
    });
}

int cc_batch_begin_tree(cc_context * ctx, const int32_t * tokens, const int32_t * parents, const int32_t * bases,
                        int32_t n, int32_t kv_mode, cc_error * err) {
    return guarded(err, [&] {
        if (n > 0 && (!tokens || !parents)) CC_THROW(CC_ERR_ARGUMENT, -1, "", "tokens or parents is NULL");
        if (n < 1) CC_THROW(CC_ERR_ARGUMENT, -1, "", "a batch needs at least one token");
        ctx->begin(tokens, n, kv_mode, parents, bases);
        return 0;
    });
}

int cc_tree_commit(cc_context * ctx, const int32_t * nodes, int32_t n, cc_error * err) {
    return guarded(err, [&] {
        if (n > 0 && !nodes) CC_THROW(CC_ERR_ARGUMENT, -1, "", "nodes is NULL");
        ctx->commit(nodes, n);
        return 0;
    });
}

int cc_batch_step(cc_context * ctx, cc_error * err) {
    int layer = -1;
    int rc = guarded(err, [&] { layer = ctx->step(); return 0; });
    return rc < 0 ? rc : layer;
}

int32_t cc_batch_layer(const cc_context * ctx) { return ctx->layer; }

int32_t cc_batch_active(const cc_context * ctx, int32_t * rows_out) {
    int32_t n = 0;
    for (int u = 0; u < ctx->n_user(); ++u) {
        if (ctx->rows[ctx->n_owed_rows + u].state == RowState::ACTIVE) {
            if (rows_out) rows_out[n] = u;
            ++n;
        }
    }
    return n;
}

int cc_batch_stop(cc_context * ctx, const int32_t * rows, int32_t n, cc_error * err) {
    return guarded(err, [&] { ctx->stop(rows, n); return 0; });
}

int cc_batch_hidden(const cc_context * ctx, const int32_t * rows, int32_t n, float * out, cc_error * err) {
    return guarded(err, [&] {
        if (!ctx->have_batch) CC_THROW(CC_ERR_STATE, -1, "", "no batch has been evaluated yet");
        const int e = ctx->c.n_embd;
        for (int i = 0; i < n; ++i) {
            if (rows[i] < 0 || rows[i] >= ctx->n_user()) CC_THROW(CC_ERR_ARGUMENT, -1, "", "row %d is not in the batch", rows[i]);
            memcpy(out + (size_t) i * e, ctx->row_state(rows[i]), sizeof(float) * e);
        }
        return 0;
    });
}

int cc_batch_exit_layers(const cc_context * ctx, int32_t * out) {
    for (int u = 0; u < ctx->n_user(); ++u) {
        const Row & r = ctx->rows[ctx->n_owed_rows + u];
        out[u] = r.exit_layer >= 0 ? r.exit_layer : r.done_layer;
    }
    return ctx->n_user();
}

int cc_batch_run(cc_context * ctx, cc_error * err) {
    return guarded(err, [&] { while (ctx->step() >= 0) {} return 0; });
}

int cc_batch_end(cc_context * ctx, cc_error * err) {
    return guarded(err, [&] { ctx->end(); return 0; });
}

int cc_batch_abort(cc_context * ctx, cc_error * err) {
    return guarded(err, [&] { ctx->abort(); return 0; });
}

int cc_flush(cc_context * ctx, cc_error * err) {
    return guarded(err, [&] { return ctx->flush(); });
}

int cc_batch_rows_per_layer(const cc_context * ctx, int32_t * out) {
    for (int il = 0; il < ctx->c.n_layer; ++il) out[il] = ctx->rows_per_layer[il];
    return ctx->c.n_layer;
}

int cc_head(cc_context * ctx, const int32_t * rows, int32_t n, const int32_t * ref_tokens, int32_t top_k,
            int32_t use_shortlist, cc_head_out * out, cc_error * err) {
    return guarded(err, [&] {
        if (!out || (n > 0 && !rows)) CC_THROW(CC_ERR_ARGUMENT, -1, "", "rows and out are required");
        ctx->head(rows, n, ref_tokens, top_k, use_shortlist != 0, out);
        return 0;
    });
}

int cc_head_states(cc_context * ctx, const float * states, int32_t n, const int32_t * ref_tokens, int32_t top_k,
                   int32_t use_shortlist, cc_head_out * out, cc_error * err) {
    return guarded(err, [&] {
        if (!out || (n > 0 && !states)) CC_THROW(CC_ERR_ARGUMENT, -1, "", "states and out are required");
        if (n < 0) CC_THROW(CC_ERR_ARGUMENT, -1, "", "n must be >= 0");
        ctx->head_of(states, nullptr, n, ref_tokens, top_k, use_shortlist != 0, out);
        return 0;
    });
}

int cc_set_shortlist(cc_context * ctx, const int32_t * tokens, int32_t n, cc_error * err) {
    return guarded(err, [&] {
        if (!tokens) CC_THROW(CC_ERR_ARGUMENT, -1, "", "tokens is NULL");
        ctx->set_shortlist(tokens, n);
        return 0;
    });
}

}  // extern "C"
