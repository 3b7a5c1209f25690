// codecheck.h: the whole C API of the jupyter-codecheck engine.
//
// A small transformer runtime on ggml that runs the stack ONE LAYER AT A TIME so that a caller can
// stop individual rows (tokens) after any layer: reference-token early exit.
//
//   cc_model    a GGUF file mapped read-only, validated before ggml sees any of it, plus the
//               architecture's hyper-parameters (the file's weights are never copied; a context
//               may ask for a converted copy for batches: batch_type).
//   cc_context  one token sequence: its positions, a per-layer KV cache, and the working state of
//               the batch being evaluated.
//
// Usage (one batch):
//   cc_batch_begin(ctx, tokens, n, CC_KV_EXACT, &err);
//   while ((layer = cc_batch_step(ctx, &err)) >= 0) {
//       ... inspect rows (cc_batch_hidden, cc_head) and stop some: cc_batch_stop(ctx, rows, k, &err)
//   }
//   cc_batch_end(ctx, &err);            // positions n_past .. n_past+n-1 are now in the sequence
//
// The GGUF subset read (see gguf.h in ggml for the full format):
//   1. magic "GGUF", version 2 or 3 (uint32)
//   2. tensor count, metadata count (uint64)
//   3. metadata: key (uint64 length + bytes), value type (uint32), value (scalars, strings, arrays
//      of scalars or strings; nested arrays are rejected)
//   4. tensor infos: name, n_dims (1..4), ne[n_dims] (uint64), ggml type (uint32), offset (uint64)
//   5. padding to `general.alignment` (default 32), then tensor data.
// Every length, count, shape, type and offset is checked against the file size before use.
//
// Conventions: functions return 0 (CC_OK) on success and a negative cc_status on failure, with
// details in the cc_error the caller passes (may be NULL). No C++ exception and no ggml abort
// crosses this boundary for any input the checks can see; shapes handed to ggml are validated.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CC_API __declspec(dllexport)
#else
#define CC_API __attribute__((visibility("default")))
#endif

//
// Errors
//

enum cc_status {
    CC_OK                    =   0,
    CC_ERR_IO                =  -1,  // cannot open / stat / map the file
    CC_ERR_EMPTY             =  -2,  // zero-byte file
    CC_ERR_BAD_MAGIC         =  -3,  // not a GGUF file
    CC_ERR_VERSION           =  -4,  // GGUF version we do not read
    CC_ERR_TRUNCATED         =  -5,  // a field runs past the end of the file
    CC_ERR_METADATA          =  -6,  // malformed or missing metadata key / value
    CC_ERR_TENSOR_INFO       =  -7,  // bad tensor name, n_dims, shape or type
    CC_ERR_TENSOR_OFFSET     =  -8,  // tensor data misaligned, overlapping or outside the file
    CC_ERR_UNSUPPORTED_ARCH  =  -9,  // general.architecture is not one we implement
    CC_ERR_MISSING_TENSOR    = -10,  // a tensor the architecture needs is absent
    CC_ERR_TENSOR_SHAPE      = -11,  // a tensor's shape disagrees with the hyper-parameters
    CC_ERR_TENSOR_TYPE       = -12,  // a tensor's type cannot be used where it is
    CC_ERR_ARGUMENT          = -13,  // bad argument from the caller
    CC_ERR_STATE             = -14,  // call not valid in the context's current state
    CC_ERR_CONTEXT_FULL      = -15,  // the sequence would exceed n_ctx
    CC_ERR_COMPUTE           = -16,  // ggml failed to compute a graph
    CC_ERR_NO_MEMORY         = -17,
};

typedef struct cc_error {
    int32_t code;        // a cc_status
    int64_t offset;      // byte offset in the file the error refers to, or -1
    char    key[128];    // metadata key or tensor name involved, or ""
    char    message[512];
} cc_error;

//
// Model
//

typedef struct cc_model   cc_model;
typedef struct cc_context cc_context;

typedef struct cc_model_info {
    char    arch[32];
    char    name[128];       // general.name, or ""
    int32_t n_layer;
    int32_t n_embd;
    int32_t n_head;
    int32_t n_head_kv;
    int32_t head_dim;
    int32_t n_ff;
    int32_t n_vocab;
    int32_t n_ctx_train;
    float   rope_freq_base;
    float   norm_eps;
    int32_t tied_output;     // 1 when the output matrix is the token embedding
    int32_t output_type;     // ggml type of the output matrix
    int32_t layer_type;      // ggml type holding most of the layer matrices' weights
    int64_t n_params;
    int64_t file_size;
} cc_model_info;

// Maps and validates a GGUF file. Returns NULL on failure (err filled).
CC_API cc_model * cc_model_load(const char * path, cc_error * err);
CC_API void       cc_model_free(cc_model * model);
CC_API void       cc_model_get_info(const cc_model * model, cc_model_info * out);
// Keeps the model's batch copies of `batch_type` (see cc_context_params) in the file `path`
// between processes: a context that needs them maps the file when its header, layout and
// checksum match this model and ggml, and otherwise converts them and writes the file in the
// background (a temporary renamed into place). NULL path: no file. The caller names the file after
// the model file's identity; a stale or damaged file is simply rebuilt.
CC_API int        cc_model_set_batch_cache(cc_model * model, int32_t batch_type, const char * path, cc_error * err);
// Where the model's batch copies of `batch_type` came from: 0 not made yet, 1 converted in this
// process, 2 mapped from the cache file.
CC_API int32_t    cc_model_batch_source(cc_model * model, int32_t batch_type);
// The instructions the packed product (cc_context_params.packed) runs on here: 2 AVX-512 VNNI,
// 1 AVX2, 0 none (ggml's products are used); the environment variable CODECHECK_PACKED_ISA
// (avx512, avx2 or none) caps it.
CC_API int32_t    cc_packed_supported(void);
// Bytes of the model's packed matrices (0 until a context asked for them).
CC_API int64_t    cc_model_packed_bytes(cc_model * model);
// out = W x for one matrix of the model, on the calling thread: layer -1 is the output matrix,
// else `matrix` 0..6 of that layer (wq, wk, wv, wo, ffn_gate, ffn_up, ffn_down); x holds n rows
// of the matrix's input width, out n rows of its output width. packed as in cc_context_params
// (0: ggml's product). For comparing the two products one at a time.
CC_API int        cc_model_product(cc_model * model, int32_t layer, int32_t matrix, const float * x, int32_t n,
                                   float * out, int32_t packed, cc_error * err);
// n rows of x (k inputs each) in ggml's 8-bit type `x_type` (GGML_TYPE_Q8_K, _Q8_1, _Q8_0) as the
// packed product quantizes its input with `packed` (as in cc_context_params); out holds n rows of
// ggml's row size. For comparing the quantizers with ggml's reference.
CC_API int        cc_packed_quantize(int32_t x_type, const float * x, int32_t n, int64_t k, void * out,
                                     int32_t packed, cc_error * err);

//
// Context (one sequence)
//

typedef struct cc_context_params {
    int32_t n_ctx;       // positions the KV cache holds (0: min(n_ctx_train, 4096))
    int32_t n_batch;     // most rows in one batch (<= 512)
    int32_t n_threads;   // compute threads (0: 1)
    // KV cache precision: 0 = f16 (default, as llama.cpp: batched scores match it to ~1e-5),
    // 1 = f32 (twice the memory). Note: ggml's CPU flash attention accumulates in f16 when a batch
    // has < 64 rows and an f16 cache, so the same row scored in a small batch differs slightly
    // from a large batch; the 8-bit activation quantization of the matrix products then spreads
    // such differences, whichever the precision.
    int32_t kv_f32;
    // Batches of at least `batch_min_rows` rows multiply a copy of the layer matrices converted
    // to `batch_type` (a ggml type: 0 = f32, 1 = f16, 8 = q8_0, 30 = bf16; -1 = never), made once
    // per model and type. The default model's Q4_1 has no tiled GEMM kernel in ggml's CPU
    // backend; the converted copy has one (much faster for batches), a single row stays faster
    // on the small original. f32 holds the dequantized weights exactly. Models whose matrices
    // already have a tiled kernel (f32, f16, bf16, q8_0, q4_0, q5_0) are used as they are.
    int32_t batch_type;
    int32_t batch_min_rows;
    // 1: multiply the Q4_K and Q6_K layer matrices and output matrix through a copy packed for
    // our own kernel, made once per model (native/src/packed.h), on AVX-512 VNNI or else AVX2;
    // 2: the same on AVX2 even where AVX-512 runs; ignored without AVX2. 0: ggml's products,
    // as llama.cpp's.
    int32_t packed;
} cc_context_params;

CC_API cc_context_params cc_context_default_params(void);
CC_API cc_context * cc_context_new(cc_model * model, cc_context_params params, cc_error * err);
CC_API void         cc_context_free(cc_context * ctx);
// Threads for the next graphs; allowed between any two steps of a batch. One thread runs on the
// caller; a larger count keeps its worker pool, so going back and forth costs nothing.
CC_API int          cc_set_threads(cc_context * ctx, int32_t n_threads);
CC_API int32_t      cc_n_ctx(const cc_context * ctx);

// Positions [0, n_past) are in the sequence (their K,V are in the cache).
CC_API int32_t cc_n_past(const cc_context * ctx);

// Rollback: keep positions [0, n_keep). Later positions are forgotten; their cache rows are
// overwritten before anything can attend to them again. Not allowed inside a batch.
CC_API int cc_truncate(cc_context * ctx, int32_t n_keep, cc_error * err);

//
// Layer stepping with early exit
//

// What happens to the K,V of the layers a stopped row skips.
enum cc_kv_mode {
    // The skipped layers are completed before any later token attends to them. A stopped row that
    // later rows of the same batch still need keeps flowing through the stack (K,V only matter);
    // a stopped row that no active row follows leaves the batch and is completed by riding along
    // with the next batch (2 rows instead of 1 in a matrix product costs little on a CPU), or by
    // cc_flush(). Logits of later tokens equal full depth.
    CC_KV_EXACT     = 0,
    // CALM-style: for every skipped layer, K and V are computed from the row's exit hidden state
    // (norm + two projections + RoPE, about 6 % of a layer for SmolLM2). Later tokens see an
    // approximation; its agreement with full depth is measured by the tests/benchmark.
    CC_KV_PROPAGATE = 1,
};

// Starts a batch of n tokens at positions n_past .. n_past+n-1. Rows are numbered 0..n-1.
CC_API int cc_batch_begin(cc_context * ctx, const int32_t * tokens, int32_t n, int32_t kv_mode,
                          cc_error * err);

// Computes the next layer for every active row. Returns the index of the layer just computed, or
// -1 when the batch has no layer left to compute (all rows stopped or the stack is done), or a
// value < -1 ... never: errors are reported as CC_ERR_* (< -1) with err filled.
CC_API int cc_batch_step(cc_context * ctx, cc_error * err);

// The layer computed last (-1 before the first step).
CC_API int32_t cc_batch_layer(const cc_context * ctx);

// Rows still active (not stopped), ascending; returns their count.
CC_API int32_t cc_batch_active(const cc_context * ctx, int32_t * rows_out);

// Stops rows after the layer just computed: their exit layer is cc_batch_layer().
CC_API int cc_batch_stop(cc_context * ctx, const int32_t * rows, int32_t n, cc_error * err);

// Copies the hidden state of rows (n_embd floats each): the exit state for stopped rows, the
// output of the last computed layer for the others.
CC_API int cc_batch_hidden(const cc_context * ctx, const int32_t * rows, int32_t n, float * out,
                           cc_error * err);

// Per row, the layer after which it stopped (n_layer-1 when it ran the whole stack).
CC_API int cc_batch_exit_layers(const cc_context * ctx, int32_t * out);

// Runs the remaining layers with no hook (used for full depth without the per-call overhead).
CC_API int cc_batch_run(cc_context * ctx, cc_error * err);

// Ends the batch: its positions join the sequence. The batch must have no layer left to compute.
CC_API int cc_batch_end(cc_context * ctx, cc_error * err);

// Branch rows: alternatives scored in parallel, e.g. the candidate corrections of one position
// and their continuations (tree attention). Row i follows the sequence (parents[i] == -1) or the
// branch row parents[i], counted over all branch rows begun since the last commit (this batch's
// rows continue that numbering). It sees the sequence, its ancestors and itself, never its
// siblings. In CC_KV_EXACT they run at full depth (no stops); in CC_KV_PROPAGATE a row may stop,
// its K,V at the later layers then computed from its exit state (rows thrown away after scoring,
// such as verification rows, need no exact K,V). They are not part of the sequence: after
// cc_batch_end, n_past is unchanged and their heads are readable as usual. A later cc_batch_begin
// of ordinary rows, cc_truncate or cc_tree_commit forgets them.
// bases (NULL: all n_past): a row with parents[i] == -1 follows sequence position bases[i] - 1
// instead of the last one (an alternative to the token at bases[i]): it and its descendants see
// positions [0, bases[i]) only and sit at positions bases[i], bases[i] + 1, ... Only chains that
// follow the last position can be committed.
CC_API int cc_batch_begin_tree(cc_context * ctx, const int32_t * tokens, const int32_t * parents,
                               const int32_t * bases, int32_t n, int32_t kv_mode, cc_error * err);

// Appends the chain of branch rows nodes[0..n) to the sequence (nodes[0] follows the sequence,
// nodes[j] is the child of nodes[j-1]): their K,V become positions n_past .. n_past+n-1, as if
// the tokens had been evaluated in order. The other branch rows are forgotten.
CC_API int cc_tree_commit(cc_context * ctx, const int32_t * nodes, int32_t n, cc_error * err);

// Abandons the batch (e.g. the user cancelled): the sequence stays as before cc_batch_begin,
// including K,V still owed by earlier exits. Safe at any point between begin and end.
CC_API int cc_batch_abort(cc_context * ctx, cc_error * err);

// Completes the K,V owed by rows that exited in CC_KV_EXACT mode (normally they ride along with the
// next batch). Returns the number of rows completed.
CC_API int cc_flush(cc_context * ctx, cc_error * err);

// Rows computed per layer in the last batch (length n_layer), to account for the work done,
// including rows carried for K,V and rows that rode along.
CC_API int cc_batch_rows_per_layer(const cc_context * ctx, int32_t * out);

//
// Output head: logits at any layer, for any rows of the current (or last) batch
//

typedef struct cc_head_out {
    float   * logits;        // [n][n_vocab] raw logits, or NULL (full head only)
    float   * ref_logprob;   // [n] log-probability of the reference token, or NULL
    int32_t * ref_rank;      // [n] tokens with a strictly higher logit (0: argmax), or NULL
    int32_t * topk_ids;      // [n][top_k], or NULL
    float   * topk_logprob;  // [n][top_k], or NULL
    float   * logsumexp;     // [n] the log-normaliser used, or NULL
} cc_head_out;

// Final norm + output matrix on the rows' current hidden states (see cc_batch_hidden). With
// use_shortlist, only the shortlist tokens and each row's reference token are scored: the
// probabilities are then relative to that set (an upper bound of the true probability) and ranks
// are ranks within it (a lower bound of the true rank); the cost is that of |shortlist| rows of
// the output matrix instead of n_vocab.
CC_API int cc_head(cc_context * ctx, const int32_t * rows, int32_t n, const int32_t * ref_tokens,
                   int32_t top_k, int32_t use_shortlist, cc_head_out * out, cc_error * err);

// The same head on hidden states the caller provides ([n][n_embd] floats), e.g. a layer's output
// mapped by a learned exit map (a "tuned lens") before the final norm.
CC_API int cc_head_states(cc_context * ctx, const float * states, int32_t n, const int32_t * ref_tokens,
                          int32_t top_k, int32_t use_shortlist, cc_head_out * out, cc_error * err);

// Sets the shortlist for cc_head(use_shortlist=1): token ids, deduplicated, at most 8192.
CC_API int cc_set_shortlist(cc_context * ctx, const int32_t * tokens, int32_t n, cc_error * err);

#ifdef __cplusplus
}
#endif
