// The shared blocks an architecture's layer graph is built from (native/models/<arch>.cpp builds
// one layer on them, as llama.cpp's graph builders do on build_norm / build_attn / build_ffn).
//
// A layer is built for one set of batch rows: the first n_act ("active") rows run the whole
// layer; the others (rows that stopped in propagate mode) only write their K,V to the cache.
// Every intermediate tensor gets a per-layer name through cb(), e.g. "attn_norm-3", "l_out-3".
#pragma once

#include "model.h"

#include "ggml.h"

struct LayerGraph {
    ggml_context * ctx;
    ggml_cgraph * gf;
    const Config & c;
    int il;                     // the layer
    const LayerWeights & w;     // weights for the active rows' products
    const LayerWeights & w_kv;  // weights for the K,V products (every row); norms and biases are w's
    int n_rows;
    int n_act;
    ggml_tensor * inp;          // (n_embd, n_rows) f32: the layer's input, active rows first
    ggml_tensor * pos;          // (n_rows) i32: RoPE positions
    ggml_tensor * cells;        // (n_rows) i64: the rows' KV cache cells
    ggml_tensor * k_cache;      // (n_embd_kv, n_ctx) this layer's K
    ggml_tensor * v_cache;      // (n_embd_kv, n_ctx) this layer's V
    ggml_tensor * kq_mask;      // (n_kv, n_act) f16, 0 or -inf; nullptr when no row is active
    // the cache as written by store_kv: attention reads through these, so it runs after the writes
    ggml_tensor * k_stored = nullptr;
    ggml_tensor * v_stored = nullptr;
    const PackedWeights * packed = nullptr;  // matrices our own product takes (or none)
    PackedIsa packed_isa = PackedIsa::none;

    // w x: through the packed copy of w when there is one, else ggml's product
    ggml_tensor * mul_mat(ggml_tensor * w, ggml_tensor * x) const;

    // names t "<name>-<il>"
    void cb(ggml_tensor * t, const char * name) const;
    // the active rows' columns of a (*, n_rows) tensor
    ggml_tensor * active(ggml_tensor * t) const;
    // cur + skip: a residual connection
    ggml_tensor * residual(ggml_tensor * cur, ggml_tensor * skip, const char * name) const;
    // RMSNorm scaled by `weight`
    ggml_tensor * norm(ggml_tensor * x, ggml_tensor * weight, const char * name) const;
    // RoPE on x = (n_head * head_dim, n) for the first n rows; returns (head_dim, n_head, n)
    ggml_tensor * rope(ggml_tensor * x, int n_head, const char * name) const;
    // writes every row's K = (head_dim, n_head_kv, n_rows) and V = (n_embd_kv, n_rows) to the cache
    void store_kv(ggml_tensor * k, ggml_tensor * v);
    // attention of the active rows' Q = (head_dim, n_head, n_act) over the cache, then the output
    // projection wo: (n_embd, n_act)
    ggml_tensor * attn(ggml_tensor * q, ggml_tensor * wo) const;
    // down(silu(gate x) * up x)
    ggml_tensor * ffn_swiglu(ggml_tensor * x, ggml_tensor * gate, ggml_tensor * up, ggml_tensor * down) const;
};
