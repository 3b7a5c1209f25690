// The context: one token sequence, its KV cache, and the batch being stepped layer by layer.
#pragma once

#include "codecheck.h"
#include "model.h"

#include <cstdint>
#include <memory>
#include <vector>

enum class RowState : uint8_t {
    ACTIVE,   // computed at every layer, visible to the exit hook
    CARRIED,  // stopped (exact mode) but a later active row attends to it: still computed for K,V
    GONE,     // left the compute: propagate mode (K,V from its exit state) or owed (exact mode)
};

struct Row {
    int32_t  token;        // -1 for an owed row riding along (its hidden state is already set)
    int32_t  pos;          // position in the sequence (RoPE)
    int32_t  cell;         // KV cache cell: == pos, except for branch rows (see TreeNode)
    int32_t  start_layer;  // first layer to compute
    int32_t  done_layer;   // last layer computed for this row (-1: none)
    int32_t  exit_layer;   // layer after which the caller stopped it (-1: not stopped)
    RowState state;
};

// A row that stopped in exact mode and left the compute: its layers next_layer.. are still owed
// to the KV cache. It rides along with the next batch, which writes them before anyone reads them.
struct OwedRow {
    int32_t pos;
    int32_t next_layer;
    std::vector<float> h;  // (n_embd) the row's state after layer next_layer-1
};

// A branch row: one of several alternatives scored in parallel (the candidate corrections of one
// position and their continuations). Branch rows are not part of the sequence until a chain of
// them is committed; node i (in order of creation since the last commit) holds KV cell n_past + i
// and sees the sequence (or its first `base` positions: an alternative to a token inside it)
// plus its own ancestors.
struct TreeNode {
    int32_t parent;  // index of the parent node, -1: it follows sequence position base - 1
    int32_t depth;   // its position is base + depth
    int32_t base;    // the sequence positions it sees: [0, base) (n_past: the whole sequence)
};

// Rows per output-head graph: bounds the logits buffer (HEAD_CHUNK x n_vocab floats).
static const int HEAD_CHUNK = 32;

struct cc_context {
    cc_model * model;
    const Config & c;
    int n_ctx;
    int n_batch;
    int n_threads;
    ggml_type kv_type;
    const BatchWeights * batch_weights = nullptr;  // converted layer matrices for batches (or none)
    int batch_min_rows = 8;
    const PackedWeights * packed = nullptr;  // the model's packed matrices (packed.h), when asked for
    PackedIsa packed_isa = PackedIsa::none;  // the instructions their product runs on

    // KV cache: per layer K and V (f16, or f32), one row of n_embd_kv per position (cell == position)
    ggml_context * ctx_kv = nullptr;
    std::vector<ggml_tensor *> k_cache;  // (n_embd_kv, n_ctx) per layer
    std::vector<ggml_tensor *> v_cache;  // (n_embd_kv, n_ctx) per layer, not transposed (flash attention)
    int n_past = 0;
    std::vector<OwedRow> owed;
    std::vector<OwedRow> owed_before;  // owed rows as they were at cc_batch_begin (for abort)
    std::vector<TreeNode> tree;        // branch rows since the last commit (cells n_past + i)
    size_t tree_before = 0;            // tree size at cc_batch_begin (for abort)
    bool tree_batch = false;           // the batch in progress is of branch rows

    // the batch: owed rows riding along first, then the caller's rows
    bool in_batch = false;
    bool have_batch = false;   // a batch ran: its states stay readable until the next begin
    int kv_mode = 0;
    int layer = -1;            // last layer computed
    int n_owed_rows = 0;       // rows[0 .. n_owed_rows) are owed rows riding along
    std::vector<Row> rows;
    ggml_tensor * hidden = nullptr;     // (n_embd, 2*n_batch) f32: residual stream, slot == row index
    std::vector<float> exit_state;      // [user row][n_embd]: hidden state when stopped
    std::vector<int32_t> rows_per_layer;     // rows computed in full at each layer
    std::vector<int32_t> kv_rows_per_layer;  // rows whose K,V only were computed (propagate)

    // one thread pool for every graph (ggml would otherwise build and free one per graph)
    ggml_threadpool * threadpool = nullptr;
    int pool_threads = 0;
    void set_threads(int n);

    // compute memory, reused by every graph
    // not a std::vector: its zero-fill would touch every page of the largest graph's memory in
    // the first graph of a new process, where most graphs use a small part of it
    std::unique_ptr<uint8_t[]> scratch;
    size_t scratch_size = 0;
    std::vector<uint8_t> work;

    // shortlist for the cheap head
    ggml_context * ctx_short = nullptr;
    ggml_tensor * short_w = nullptr;     // (n_embd, M) rows of the output matrix
    std::vector<int32_t> short_ids;
    std::vector<int32_t> short_pos;      // token id -> index in the shortlist, or -1

    cc_context(cc_model * m, const cc_context_params & p);
    ~cc_context();

    void begin(const int32_t * tokens, int n, int mode, const int32_t * parents = nullptr,
               const int32_t * bases = nullptr);
    void commit(const int32_t * nodes, int n);
    int step();
    void stop(const int32_t * user_rows, int n);
    void end();
    void abort();
    int flush();
    void truncate(int n_keep);
    int n_user() const { return (int) rows.size() - n_owed_rows; }
    const float * row_state(int user_row) const;

    void head(const int32_t * user_rows, int n, const int32_t * ref, int top_k, bool shortlist, cc_head_out * out);
    // the head on given states (states == nullptr: the rows' own states)
    void head_of(const float * states, const int32_t * user_rows, int n, const int32_t * ref, int top_k, bool shortlist,
                 cc_head_out * out);
    void set_shortlist(const int32_t * tokens, int n);
    // rows ith, ith+nth, ... of one head chunk's logits z: statistics into `out` (a graph node)
    void head_row_stats(const ggml_tensor * z, const ggml_tensor * xn, int i0, const int32_t * ref, int top_k,
                        bool shortlist, cc_head_out * out, int ith, int nth) const;

  private:
    void compute_layer(int il, const std::vector<int> & act, const std::vector<int> & kv_only);
    ggml_tensor * kq_mask(ggml_context * ctx, const std::vector<int> & act, int n_kv) const;
    void run_graph(ggml_cgraph * gf);
    ggml_context * graph_ctx();
    void update_departures();
};
