// The output head at any layer: final RMSNorm + output matrix on chosen rows' hidden states, and
// the statistics an exit test needs (reference log-probability and rank, top-k, log-normaliser).
//
// Cost: the full head is a (n_vocab x n_embd) product: for SmolLM2 a 49k x 576 Q8_0 matrix, about
// as much work as 8 of its 30 layers. The shortlist head multiplies only |shortlist| rows of the
// same matrix (plus one dot product per reference token), e.g. 1024 rows = 2 % of the full head.
#include "context.h"

#include "errors.h"
#include "head_stats.h"

#include "ggml-cpu.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

struct TopK {  // the k largest (value, id) pairs seen, as a min-heap on value
    int k;
    std::vector<std::pair<float, int32_t>> heap;
    void push(float v, int32_t id) {
        if ((int) heap.size() < k) {
            heap.emplace_back(v, id);
            std::push_heap(heap.begin(), heap.end(), std::greater<>());
        } else if (k > 0 && v > heap.front().first) {
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            heap.back() = {v, id};
            std::push_heap(heap.begin(), heap.end(), std::greater<>());
        }
    }
};

// Statistics of one row of logits z over candidate ids (ids == nullptr: id == index).
void row_stats(const float * z, int n, const int32_t * ids, int32_t ref_id, float ref_logit, int top_k,
               int i, cc_head_out * out) {
    const LogitSums sums = logit_sums(z, n, ref_logit, ref_logit);  // the reference's logit is a candidate too
    const float mx = sums.max;
    double sum = sums.sum_exp;
    const int32_t rank = sums.above;
    bool ref_seen = ids == nullptr ? ref_id >= 0 && ref_id < n : false;
    if (ids != nullptr) {
        for (int j = 0; j < n && !ref_seen; ++j) ref_seen = ids[j] == ref_id;
    }
    TopK top{top_k, {}};
    top.heap.reserve(top_k);
    if (top_k > 0) {
        for (int j = 0; j < n; ++j) top.push(z[j], ids ? ids[j] : j);
    }
    if (ref_id >= 0 && !ref_seen) {  // shortlist head: the reference token joins the candidate set
        sum += expf(ref_logit - mx);
        if (top_k > 0) top.push(ref_logit, ref_id);
    }
    const float lse = mx + (float) log(sum);
    if (out->logsumexp) out->logsumexp[i] = lse;
    if (out->ref_logprob) out->ref_logprob[i] = ref_id >= 0 ? ref_logit - lse : NAN;
    if (out->ref_rank) out->ref_rank[i] = ref_id >= 0 ? rank : -1;
    if (top_k > 0) {
        std::sort(top.heap.begin(), top.heap.end(), std::greater<>());
        for (int j = 0; j < top_k; ++j) {
            const bool have = j < (int) top.heap.size();
            if (out->topk_ids) out->topk_ids[(size_t) i * top_k + j] = have ? top.heap[j].second : -1;
            if (out->topk_logprob) out->topk_logprob[(size_t) i * top_k + j] = have ? top.heap[j].first - lse : -INFINITY;
        }
    }
}

float dot(const float * a, const float * b, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

struct RowStatsJob {
    const cc_context * cx;
    const ggml_tensor * xn;
    int i0;
    const int32_t * ref;
    int top_k;
    bool shortlist;
    cc_head_out * out;
};

void row_stats_node(ggml_tensor * dst, const ggml_tensor * z, int ith, int nth, void * userdata) {
    const auto * job = (const RowStatsJob *) userdata;
    job->cx->head_row_stats(z, job->xn, job->i0, job->ref, job->top_k, job->shortlist, job->out, ith, nth);
}

}  // namespace

void cc_context::head(const int32_t * user_rows, int n, const int32_t * ref, int top_k, bool shortlist, cc_head_out * out) {
    if (!have_batch) CC_THROW(CC_ERR_STATE, -1, "", "no batch has been evaluated yet");
    for (int i = 0; i < n; ++i) {
        if (user_rows[i] < 0 || user_rows[i] >= n_user()) {
            CC_THROW(CC_ERR_ARGUMENT, -1, "", "row %d is not in the batch (0..%d)", user_rows[i], n_user() - 1);
        }
    }
    head_of(nullptr, user_rows, n, ref, top_k, shortlist, out);
}

void cc_context::head_of(const float * states, const int32_t * user_rows, int n, const int32_t * ref, int top_k,
                         bool shortlist, cc_head_out * out) {
    if (top_k < 0 || top_k > 1024) CC_THROW(CC_ERR_ARGUMENT, -1, "", "top_k = %d must be 0..1024", top_k);
    if (shortlist && !short_w) CC_THROW(CC_ERR_STATE, -1, "", "no shortlist set: call cc_set_shortlist first");
    if (shortlist && out->logits) CC_THROW(CC_ERR_ARGUMENT, -1, "", "the shortlist head returns statistics, not full logits");
    for (int i = 0; i < n; ++i) {
        if (ref && (ref[i] < -1 || ref[i] >= c.n_vocab)) CC_THROW(CC_ERR_ARGUMENT, -1, "", "reference token %d is outside the vocabulary", ref[i]);
    }
    const Weights & W = model->weights;

    for (int i0 = 0; i0 < n; i0 += HEAD_CHUNK) {
        const int m = std::min(HEAD_CHUNK, n - i0);
        ggml_context * ctx = graph_ctx();
        ggml_cgraph * gf = ggml_new_graph(ctx);
        ggml_tensor * x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, c.n_embd, m);
        for (int i = 0; i < m; ++i) {
            const float * src = states ? states + (size_t) (i0 + i) * c.n_embd : row_state(user_rows[i0 + i]);
            memcpy((float *) x->data + (size_t) i * c.n_embd, src, sizeof(float) * c.n_embd);
        }
        ggml_tensor * xn = ggml_mul(ctx, ggml_rms_norm(ctx, x, c.norm_eps), W.output_norm);
        // (n_cand, m); the shortlist's rows are a copy of their own, never packed
        ggml_tensor * z = mul_mat_packed_or_ggml(ctx, packed, packed_isa, shortlist ? short_w : W.output, xn);
        // the statistics of each row (passes over n_vocab logits, head_stats.cpp) run as a graph
        // node, on all of ggml's threads
        RowStatsJob job{this, xn, i0, ref, top_k, shortlist, out};
        ggml_build_forward_expand(gf, ggml_map_custom1_inplace(ctx, z, row_stats_node, GGML_N_TASKS_MAX, &job));
        run_graph(gf);
        ggml_free(ctx);
    }
}

void cc_context::head_row_stats(const ggml_tensor * z, const ggml_tensor * xn, int i0, const int32_t * ref, int top_k,
                                bool shortlist, cc_head_out * out, int ith, int nth) const {
    const Weights & W = model->weights;
    const int n_cand = (int) z->ne[0];
    const int m = (int) z->ne[1];
    const auto * out_traits = ggml_get_type_traits(W.output->type);
    std::vector<float> ref_row;
    for (int i = ith; i < m; i += nth) {
        const float * zi = (const float *) z->data + (size_t) i * n_cand;
        const int32_t r = ref ? ref[i0 + i] : -1;
        float ref_logit = -INFINITY;
        if (r >= 0) {
            if (!shortlist) {
                ref_logit = zi[r];
            } else if (short_pos[r] >= 0) {
                ref_logit = zi[short_pos[r]];
            } else {  // one row of the output matrix, dequantized
                ref_row.resize(c.n_embd);
                const char * src = (const char *) W.output->data + (size_t) r * W.output->nb[1];
                if (W.output->type == GGML_TYPE_F32) memcpy(ref_row.data(), src, sizeof(float) * c.n_embd);
                else out_traits->to_float(src, ref_row.data(), c.n_embd);
                ref_logit = dot(ref_row.data(), (const float *) xn->data + (size_t) i * c.n_embd, c.n_embd);
            }
        }
        if (out->logits) memcpy(out->logits + (size_t) (i0 + i) * c.n_vocab, zi, sizeof(float) * c.n_vocab);
        row_stats(zi, n_cand, shortlist ? short_ids.data() : nullptr, r, ref_logit, top_k, i0 + i, out);
    }
}

void cc_context::set_shortlist(const int32_t * tokens, int n) {
    if (n < 1 || n > 8192) CC_THROW(CC_ERR_ARGUMENT, -1, "", "shortlist of %d tokens: must be 1..8192", n);
    std::vector<int32_t> ids;
    std::vector<int32_t> where(c.n_vocab, -1);
    for (int i = 0; i < n; ++i) {
        if (tokens[i] < 0 || tokens[i] >= c.n_vocab) CC_THROW(CC_ERR_ARGUMENT, -1, "", "shortlist token %d is outside the vocabulary", tokens[i]);
        if (where[tokens[i]] < 0) {
            where[tokens[i]] = (int32_t) ids.size();
            ids.push_back(tokens[i]);
        }
    }
    const ggml_tensor * W = model->weights.output;
    // a copy of the chosen rows in the matrix's own type: same numbers as the full head
    ggml_init_params ip = {ggml_tensor_overhead() + ggml_row_size(W->type, c.n_embd) * ids.size() + 256, nullptr, false};
    ggml_context * ctx = ggml_init(ip);
    if (!ctx) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot allocate the shortlist");
    ggml_tensor * t = ggml_new_tensor_2d(ctx, W->type, c.n_embd, (int64_t) ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
        memcpy((char *) t->data + i * t->nb[1], (const char *) W->data + (size_t) ids[i] * W->nb[1], W->nb[1]);
    }
    if (ctx_short) ggml_free(ctx_short);
    ctx_short = ctx;
    short_w = t;
    short_ids = std::move(ids);
    short_pos = std::move(where);
}
