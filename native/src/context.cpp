#include "context.h"

#include "errors.h"
#include "graph.h"

#include "ggml-cpu.h"

#include <algorithm>
#include <cmath>
#include <cstring>

// ---------------------------------------------------------------------------------------------
// set-up
// ---------------------------------------------------------------------------------------------

cc_context::cc_context(cc_model * m, const cc_context_params & p)
    : model(m), c(m->config), n_ctx(p.n_ctx), n_batch(p.n_batch), n_threads(p.n_threads),
      kv_type(p.kv_f32 ? GGML_TYPE_F32 : GGML_TYPE_F16) {
    if (n_ctx <= 0) n_ctx = std::min(c.n_ctx_train > 0 ? c.n_ctx_train : 4096, 4096);
    if (n_batch <= 0) n_batch = 512;
    if (n_threads <= 0) n_threads = 1;
    if (n_ctx > (1 << 20)) CC_THROW(CC_ERR_ARGUMENT, -1, "n_ctx", "n_ctx = %d is too large", n_ctx);
    if (n_batch > 512) CC_THROW(CC_ERR_ARGUMENT, -1, "n_batch", "n_batch = %d exceeds 512", n_batch);
    if (p.batch_type >= 0) {
        const ggml_type t = (ggml_type) p.batch_type;
        if (t != GGML_TYPE_F32 && t != GGML_TYPE_F16 && t != GGML_TYPE_BF16 && t != GGML_TYPE_Q8_0) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "batch_type", "batch_type %d: must be f32 (0), f16 (1), q8_0 (8) or bf16 (30)", p.batch_type);
        }
        // weights ggml already multiplies with tiled kernels are used as they are
        const ggml_type have = m->weights.layers[0].wq->type;
        const bool tiled = have == GGML_TYPE_F32 || have == GGML_TYPE_F16 || have == GGML_TYPE_BF16 ||
                           have == GGML_TYPE_Q8_0 || have == GGML_TYPE_Q4_0 || have == GGML_TYPE_Q5_0;
        if (!tiled) batch_weights = m->get_batch_weights(t);
        batch_min_rows = std::max(1, (int) p.batch_min_rows);
    }
    // 1: the best instructions this CPU has; 2: AVX2 even where AVX-512 runs (tests, comparisons)
    packed_isa = packed_isa_for(p.packed);
    if (packed_isa != PackedIsa::none) packed = m->get_packed();

    const size_t n_tensors = 2 * (size_t) c.n_layer + 1;
    const size_t kv_bytes = 2 * (size_t) c.n_layer * ggml_row_size(kv_type, c.n_embd_kv()) * n_ctx;
    const size_t hidden_bytes = sizeof(float) * (size_t) c.n_embd * 2 * n_batch;
    ggml_init_params ip = {ggml_tensor_overhead() * n_tensors + kv_bytes + hidden_bytes + 256 * n_tensors, nullptr, false};
    ctx_kv = ggml_init(ip);
    if (!ctx_kv) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot allocate the KV cache (%zu MiB)", kv_bytes >> 20);
    for (int il = 0; il < c.n_layer; ++il) {
        k_cache.push_back(ggml_new_tensor_2d(ctx_kv, kv_type, c.n_embd_kv(), n_ctx));
        v_cache.push_back(ggml_new_tensor_2d(ctx_kv, kv_type, c.n_embd_kv(), n_ctx));
    }
    hidden = ggml_new_tensor_2d(ctx_kv, GGML_TYPE_F32, c.n_embd, 2 * n_batch);
    rows_per_layer.assign(c.n_layer, 0);
    kv_rows_per_layer.assign(c.n_layer, 0);
    set_threads(n_threads);
}

// One thread needs no pool (ggml runs the graph on the caller), so switching between one thread
// and the pool's size costs nothing: the caller may do it between any two layers.
void cc_context::set_threads(int n) {
    if (n > 1 && n != pool_threads) {
        ggml_threadpool_params tpp = ggml_threadpool_params_default(n);
        // workers sleep as soon as a graph is done: polling would spin a core through the Python
        // work between layers and the one-thread steps, which a busy machine cannot spare
        tpp.poll = 0;
        ggml_threadpool * pool = ggml_threadpool_new(&tpp);
        if (!pool) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot create a pool of %d threads", n);
        if (threadpool) ggml_threadpool_free(threadpool);
        threadpool = pool;
        pool_threads = n;
    }
    n_threads = n;
}

cc_context::~cc_context() {
    if (ctx_kv) ggml_free(ctx_kv);
    if (ctx_short) ggml_free(ctx_short);
    if (threadpool) ggml_threadpool_free(threadpool);
}

// A fresh graph context over the reusable scratch memory. The size bounds the largest graph: one
// layer over 2*n_batch rows, or one chunk of the output head.
ggml_context * cc_context::graph_ctx() {
    if (!scratch) {
        const size_t R = 2 * (size_t) n_batch;
        size_t act = R * sizeof(float) * (12 * (size_t) c.n_embd + 6 * (size_t) c.n_embd_kv() + 4 * (size_t) c.n_ff);
        size_t mask = R * (size_t) n_ctx * sizeof(ggml_fp16_t);
        size_t head = HEAD_CHUNK * sizeof(float) * ((size_t) c.n_vocab + 4 * (size_t) c.n_embd);
        size_t meta = ggml_tensor_overhead() * 256 + ggml_graph_overhead() + (1 << 20);
        scratch_size = std::max(act + mask, head) + meta;
        scratch.reset(new uint8_t[scratch_size]);
    }
    ggml_init_params ip = {scratch_size, scratch.get(), false};
    return ggml_init(ip);
}

void cc_context::run_graph(ggml_cgraph * gf) {
    ggml_cplan plan = ggml_graph_plan(gf, n_threads, n_threads > 1 ? threadpool : nullptr);
    if (plan.work_size > work.size()) work.resize(plan.work_size);
    plan.work_data = work.data();
    if (ggml_graph_compute(gf, &plan) != GGML_STATUS_SUCCESS) {
        CC_THROW(CC_ERR_COMPUTE, -1, "", "ggml graph computation failed");
    }
}

// ---------------------------------------------------------------------------------------------
// one transformer layer for a set of rows
// ---------------------------------------------------------------------------------------------

// Computes layer il for rows `act` (full layer) and rows `kv_only` (K,V from their frozen state:
// propagate mode). Every row's K,V are written to the cache before attention reads it, so rows of
// the same batch attend to one another causally by position. The layer itself is the
// architecture's (native/models/<arch>.cpp).
void cc_context::compute_layer(int il, const std::vector<int> & act, const std::vector<int> & kv_only) {
    const int n_act = (int) act.size();
    const int n_rows = n_act + (int) kv_only.size();
    // the K,V products see every row, the rest only the active ones
    const LayerWeights & w_kv = batch_weights && n_rows >= batch_min_rows ? batch_weights->layers[il] : model->weights.layers[il];
    const LayerWeights & w = batch_weights && n_act >= batch_min_rows ? batch_weights->layers[il] : model->weights.layers[il];

    ggml_context * ctx = graph_ctx();
    ggml_cgraph * gf = ggml_new_graph(ctx);

    // inputs
    ggml_tensor * slots = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_rows);  // rows of `hidden`
    ggml_tensor * pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_rows);    // RoPE positions
    ggml_tensor * cells = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, n_rows);  // KV cache rows
    int max_pos = 0;
    for (int i = 0; i < n_rows; ++i) {
        const int r = i < n_act ? act[i] : kv_only[i - n_act];
        ((int32_t *) slots->data)[i] = r;
        ((int32_t *) pos->data)[i] = rows[r].pos;
        ((int64_t *) cells->data)[i] = rows[r].cell;
        max_pos = std::max(max_pos, rows[r].cell);
    }
    ggml_tensor * inp = ggml_get_rows(ctx, hidden, slots);  // (n_embd, n_rows)
    ggml_tensor * mask = n_act > 0 ? kq_mask(ctx, act, max_pos + 1) : nullptr;

    LayerGraph g{ctx, gf, c, il, w, w_kv, n_rows, n_act, inp, pos, cells, k_cache[il], v_cache[il], mask};
    g.packed = packed;
    g.packed_isa = packed_isa;
    if (ggml_tensor * out = model->arch->build_layer(g)) {
        ggml_build_forward_expand(gf, ggml_set_rows(ctx, hidden, out, ggml_view_1d(ctx, slots, n_act, 0)));
    }
    run_graph(gf);
    ggml_free(ctx);
}

// Which cells 0..n_kv-1 each active row may attend to: 0 where it may, -inf where it may not.
ggml_tensor * cc_context::kq_mask(ggml_context * ctx, const std::vector<int> & act, int n_kv) const {
    const int n_act = (int) act.size();
    ggml_tensor * mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, n_kv, n_act);
    const ggml_fp16_t zero = ggml_fp32_to_fp16(0.0f), neg_inf = ggml_fp32_to_fp16(-INFINITY);
    for (int i = 0; i < n_act; ++i) {
        ggml_fp16_t * m = (ggml_fp16_t *) mask->data + (size_t) i * n_kv;
        const Row & row = rows[act[i]];
        if (!tree_batch || row.cell < n_past) {  // the sequence's rows (and riders)
            for (int j = 0; j < n_kv; ++j) m[j] = j <= row.pos ? zero : neg_inf;
        } else {  // a branch row: the sequence up to its base, its ancestors and itself
            const int base = tree[row.cell - n_past].base;
            for (int j = 0; j < n_kv; ++j) m[j] = j < base ? zero : neg_inf;
            for (int t = row.cell - n_past; t >= 0; t = tree[t].parent) m[n_past + t] = zero;
        }
    }
    return mask;
}

// ---------------------------------------------------------------------------------------------
// batches
// ---------------------------------------------------------------------------------------------

void cc_context::begin(const int32_t * tokens, int n, int mode, const int32_t * parents, const int32_t * bases) {
    if (in_batch) CC_THROW(CC_ERR_STATE, -1, "", "a batch is already in progress: call cc_batch_end first");
    if (n < 0 || n > n_batch) CC_THROW(CC_ERR_ARGUMENT, -1, "", "batch of %d tokens: must be 0..%d (n_batch)", n, n_batch);
    if (mode != CC_KV_EXACT && mode != CC_KV_PROPAGATE) CC_THROW(CC_ERR_ARGUMENT, -1, "", "unknown kv mode %d", mode);
    const int n_tree = parents ? (int) tree.size() : 0;
    for (int i = 0; parents && i < n; ++i) {
        if (parents[i] < -1 || parents[i] >= n_tree + i) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "", "branch row %d: parent %d must be -1 or an earlier branch row (0..%d)", i, parents[i], n_tree + i - 1);
        }
        if (bases && parents[i] < 0 && (bases[i] < 0 || bases[i] > n_past)) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "", "branch row %d: base %d must be 0..%d (n_past)", i, bases[i], n_past);
        }
    }
    if (n_past + n_tree + n > n_ctx) {
        CC_THROW(CC_ERR_CONTEXT_FULL, -1, "", "the sequence would hold %d positions but the context holds %d (n_ctx)", n_past + n_tree + n, n_ctx);
    }
    for (int i = 0; i < n; ++i) {
        if (tokens[i] < 0 || tokens[i] >= c.n_vocab) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "", "token %d at row %d is outside the vocabulary (0..%d)", tokens[i], i, c.n_vocab - 1);
        }
    }
    rows.clear();
    n_owed_rows = (int) owed.size();
    const size_t row_bytes = sizeof(float) * c.n_embd;
    for (size_t i = 0; i < owed.size(); ++i) {
        rows.push_back({-1, owed[i].pos, owed[i].pos, owed[i].next_layer, owed[i].next_layer - 1, -1, RowState::ACTIVE});
        memcpy((char *) hidden->data + i * row_bytes, owed[i].h.data(), row_bytes);
    }
    owed_before = std::move(owed);
    owed.clear();
    // token embeddings: one row of the (possibly quantized) matrix each, dequantized on the host
    const ggml_tensor * emb = model->weights.tok_embd;
    const auto * traits = ggml_get_type_traits(emb->type);
    for (int i = 0; i < n; ++i) {
        const int slot = n_owed_rows + i;
        const char * src = (const char *) emb->data + (size_t) tokens[i] * emb->nb[1];
        float * dst = (float *) ((char *) hidden->data + slot * row_bytes);
        if (emb->type == GGML_TYPE_F32) memcpy(dst, src, row_bytes);
        else traits->to_float(src, dst, c.n_embd);
        if (parents) {  // a branch row: cell after the sequence and the earlier branch rows
            const int32_t parent = parents[i];
            const int32_t depth = parent < 0 ? 0 : tree[parent].depth + 1;
            const int32_t base = parent >= 0 ? tree[parent].base : bases ? bases[i] : n_past;
            tree.push_back({parent, depth, base});
            rows.push_back({tokens[i], base + depth, n_past + n_tree + i, 0, -1, -1, RowState::ACTIVE});
        } else {
            rows.push_back({tokens[i], n_past + i, n_past + i, 0, -1, -1, RowState::ACTIVE});
        }
    }
    tree_before = (size_t) n_tree;
    tree_batch = parents != nullptr;
    if (!tree_batch) tree.clear();  // the batch's cells overwrite the branch rows' ones
    exit_state.assign((size_t) n * c.n_embd, 0.0f);
    std::fill(rows_per_layer.begin(), rows_per_layer.end(), 0);
    std::fill(kv_rows_per_layer.begin(), kv_rows_per_layer.end(), 0);
    kv_mode = mode;
    layer = -1;
    in_batch = true;
    have_batch = true;
}

int cc_context::step() {
    if (!in_batch) CC_THROW(CC_ERR_STATE, -1, "", "no batch in progress: call cc_batch_begin first");
    for (int il = layer + 1; il < c.n_layer; ++il) {
        std::vector<int> act, kv_only;
        bool pending = false;  // an owed row that joins at a later layer
        for (int r = 0; r < (int) rows.size(); ++r) {
            const Row & row = rows[r];
            if (row.state != RowState::GONE) {
                if (row.start_layer <= il) act.push_back(r);
                else pending = true;
            } else if (kv_mode == CC_KV_PROPAGATE && row.exit_layer >= 0) {
                kv_only.push_back(r);
            }
        }
        if (act.empty() && !pending) return -1;  // what remains (propagated K,V) is finished by end()
        if (!act.empty() || !kv_only.empty()) compute_layer(il, act, kv_only);
        for (int r : act) rows[r].done_layer = il;
        rows_per_layer[il] = (int) act.size();
        kv_rows_per_layer[il] = (int) kv_only.size();
        layer = il;
        if (!act.empty()) return il;
    }
    return -1;
}

// In exact mode a stopped row may leave the compute only when no active row comes after it:
// otherwise that row will attend to the stopped row's K,V at the coming layers.
void cc_context::update_departures() {
    int last_active_pos = -1;
    for (const Row & r : rows) {
        if (r.state == RowState::ACTIVE) last_active_pos = std::max(last_active_pos, r.pos);
    }
    for (Row & r : rows) {
        if (r.state == RowState::CARRIED && r.pos > last_active_pos) r.state = RowState::GONE;
    }
}

void cc_context::stop(const int32_t * user_rows, int n) {
    if (!in_batch) CC_THROW(CC_ERR_STATE, -1, "", "no batch in progress");
    if (layer < 0) CC_THROW(CC_ERR_STATE, -1, "", "rows can only stop after a layer has been computed");
    if (tree_batch && kv_mode != CC_KV_PROPAGATE) {
        CC_THROW(CC_ERR_STATE, -1, "", "branch rows stop only in propagate mode (exact K,V would need them at full depth)");
    }
    for (int i = 0; i < n; ++i) {
        const int u = user_rows[i];
        if (u < 0 || u >= n_user()) CC_THROW(CC_ERR_ARGUMENT, -1, "", "row %d is not in the batch (0..%d)", u, n_user() - 1);
        Row & r = rows[n_owed_rows + u];
        if (r.state != RowState::ACTIVE) CC_THROW(CC_ERR_STATE, -1, "", "row %d has already stopped (after layer %d)", u, r.exit_layer);
        r.exit_layer = layer;
        memcpy(&exit_state[(size_t) u * c.n_embd], (const char *) hidden->data + (size_t) (n_owed_rows + u) * hidden->nb[1],
               sizeof(float) * c.n_embd);
        r.state = kv_mode == CC_KV_EXACT ? RowState::CARRIED : RowState::GONE;
    }
    if (kv_mode == CC_KV_EXACT) update_departures();
}

void cc_context::end() {
    if (!in_batch) CC_THROW(CC_ERR_STATE, -1, "", "no batch in progress");
    bool any_active = false;
    for (const Row & r : rows) any_active |= r.state != RowState::GONE && r.done_layer < c.n_layer - 1;
    if (any_active && layer < c.n_layer - 1) {
        CC_THROW(CC_ERR_STATE, -1, "", "the batch still has layers to compute (last computed: %d): step or run it first", layer);
    }
    if (kv_mode == CC_KV_PROPAGATE) {
        // rows that stopped after the last computed layer still owe K,V for the layers above it
        std::vector<int> kv_only, none;
        for (int r = 0; r < (int) rows.size(); ++r) {
            if (rows[r].state == RowState::GONE) kv_only.push_back(r);
        }
        for (int il = layer + 1; il < c.n_layer && !kv_only.empty(); ++il) {
            compute_layer(il, none, kv_only);
            kv_rows_per_layer[il] = (int) kv_only.size();
        }
    } else {
        for (int r = 0; r < (int) rows.size(); ++r) {
            const Row & row = rows[r];
            if (row.state == RowState::GONE && row.done_layer < c.n_layer - 1) {
                const float * h = (const float *) ((const char *) hidden->data + (size_t) r * hidden->nb[1]);
                owed.push_back({row.pos, row.done_layer + 1, std::vector<float>(h, h + c.n_embd)});
            }
        }
    }
    if (!tree_batch) n_past += n_user();  // branch rows join the sequence only when committed
    in_batch = false;
}

// Makes a chain of branch rows (nodes[0] follows the sequence, each next one is the child of the
// one before) the next positions of the sequence: their K,V move to cells n_past, n_past + 1, ...
// The other branch rows are forgotten.
void cc_context::commit(const int32_t * nodes, int n) {
    if (in_batch) CC_THROW(CC_ERR_STATE, -1, "", "cannot commit inside a batch");
    if (n_past + n > n_ctx) CC_THROW(CC_ERR_CONTEXT_FULL, -1, "", "committing %d rows would exceed the context (%d)", n, n_ctx);
    for (int j = 0; j < n; ++j) {
        const int t = nodes[j];
        if (t < 0 || t >= (int) tree.size()) CC_THROW(CC_ERR_ARGUMENT, -1, "", "%d is not a branch row (0..%d)", t, (int) tree.size() - 1);
        if (j == 0 && tree[t].base != n_past) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "", "branch row %d follows position %d, not the end of the sequence (%d): it cannot be appended", t, tree[t].base - 1, n_past - 1);
        }
        if (tree[t].parent != (j == 0 ? -1 : nodes[j - 1])) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "", "branch rows to commit must form a chain from the sequence: row %d does not follow %d", t, j ? nodes[j - 1] : -1);
        }
    }
    // nodes are created after their parents, so nodes[j] >= j: a row's destination cell is never
    // the source of a later row in the chain
    for (int j = 0; j < n; ++j) {
        const int src = n_past + nodes[j], dst = n_past + j;
        if (src == dst) continue;
        for (int il = 0; il < c.n_layer; ++il) {
            for (ggml_tensor * t : {k_cache[il], v_cache[il]}) {
                memcpy((char *) t->data + (size_t) dst * t->nb[1], (const char *) t->data + (size_t) src * t->nb[1], t->nb[1]);
            }
        }
    }
    tree.clear();
    n_past += n;
}

void cc_context::abort() {
    if (!in_batch) return;
    // K,V rows already written at positions >= n_past are unreachable: every later batch rewrites
    // a cell before any row attends to it. The owed rows' cells hold exactly what they held.
    owed = std::move(owed_before);
    owed_before.clear();
    if (tree_batch) tree.resize(tree_before);
    in_batch = false;
    have_batch = false;
}

int cc_context::flush() {
    if (in_batch) CC_THROW(CC_ERR_STATE, -1, "", "cannot flush inside a batch");
    const int n = (int) owed.size();
    if (n == 0) return 0;
    begin(nullptr, 0, CC_KV_EXACT);
    layer = c.n_layer;
    for (const Row & r : rows) layer = std::min(layer, r.start_layer);
    layer -= 1;  // the first layer any owed row needs
    while (step() >= 0) {}
    end();
    return n;
}

void cc_context::truncate(int n_keep) {
    if (in_batch) CC_THROW(CC_ERR_STATE, -1, "", "cannot truncate inside a batch");
    if (n_keep < 0 || n_keep > n_past) CC_THROW(CC_ERR_ARGUMENT, -1, "", "cannot keep %d positions: the sequence has %d", n_keep, n_past);
    owed.erase(std::remove_if(owed.begin(), owed.end(), [&](const OwedRow & o) { return o.pos >= n_keep; }), owed.end());
    tree.clear();
    n_past = n_keep;
}

const float * cc_context::row_state(int u) const {
    const Row & r = rows[n_owed_rows + u];
    if (r.exit_layer >= 0) return &exit_state[(size_t) u * c.n_embd];
    return (const float *) ((const char *) hidden->data + (size_t) (n_owed_rows + u) * hidden->nb[1]);
}
