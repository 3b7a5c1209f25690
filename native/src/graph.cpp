#include "graph.h"

#include <cmath>

void LayerGraph::cb(ggml_tensor * t, const char * name) const {
    ggml_format_name(t, "%s-%d", name, il);
}

ggml_tensor * LayerGraph::mul_mat(ggml_tensor * w, ggml_tensor * x) const {
    return mul_mat_packed_or_ggml(ctx, packed, packed_isa, w, x);
}

ggml_tensor * LayerGraph::active(ggml_tensor * t) const {
    return ggml_view_2d(ctx, t, t->ne[0], n_act, t->nb[1], 0);
}

ggml_tensor * LayerGraph::residual(ggml_tensor * cur, ggml_tensor * skip, const char * name) const {
    cur = ggml_add(ctx, cur, skip);
    cb(cur, name);
    return cur;
}

ggml_tensor * LayerGraph::norm(ggml_tensor * x, ggml_tensor * weight, const char * name) const {
    ggml_tensor * cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, c.norm_eps), weight);
    cb(cur, name);
    return cur;
}

ggml_tensor * LayerGraph::rope(ggml_tensor * x, int n_head, const char * name) const {
    const int n = (int) x->ne[1];
    ggml_tensor * p = n == n_rows ? pos : ggml_view_1d(ctx, pos, n, 0);
    ggml_tensor * cur = ggml_rope_ext(ctx, ggml_reshape_3d(ctx, x, c.head_dim, n_head, n), p, nullptr, c.n_rot,
                                      c.rope_type, c.n_ctx_train, c.rope_freq_base, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
    cb(cur, name);
    return cur;
}

void LayerGraph::store_kv(ggml_tensor * k, ggml_tensor * v) {
    k_stored = ggml_set_rows(ctx, k_cache, ggml_reshape_2d(ctx, k, c.n_embd_kv(), n_rows), cells);
    v_stored = ggml_set_rows(ctx, v_cache, v, cells);
    ggml_build_forward_expand(gf, k_stored);
    ggml_build_forward_expand(gf, v_stored);
}

ggml_tensor * LayerGraph::attn(ggml_tensor * q, ggml_tensor * wo) const {
    const int hd = c.head_dim;
    const int64_t n_kv = kq_mask->ne[0];
    q = ggml_permute(ctx, q, 0, 2, 1, 3);  // (hd, n_act, n_head)
    const size_t head_stride = ggml_row_size(k_cache->type, hd);
    ggml_tensor * kc = ggml_view_3d(ctx, k_stored, hd, n_kv, c.n_head_kv, k_stored->nb[1], head_stride, 0);
    ggml_tensor * vc = ggml_view_3d(ctx, v_stored, hd, n_kv, c.n_head_kv, v_stored->nb[1], head_stride, 0);
    ggml_tensor * cur = ggml_flash_attn_ext(ctx, q, kc, vc, kq_mask, 1.0f / sqrtf((float) hd), 0.0f, 0.0f);
    ggml_prec_set_acc(cur, GGML_PREC_F32);
    cur = ggml_reshape_2d(ctx, cur, hd * c.n_head, n_act);
    cb(cur, "kqv_out");
    cur = mul_mat(wo, cur);
    cb(cur, "attn_out");
    return cur;
}

ggml_tensor * LayerGraph::ffn_swiglu(ggml_tensor * x, ggml_tensor * gate, ggml_tensor * up, ggml_tensor * down) const {
    ggml_tensor * g = mul_mat(gate, x);
    cb(g, "ffn_gate");
    ggml_tensor * u = mul_mat(up, x);
    cb(u, "ffn_up");
    ggml_tensor * cur = mul_mat(down, ggml_swiglu_split(ctx, g, u));
    cb(cur, "ffn_out");
    return cur;
}
