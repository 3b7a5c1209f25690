// Layer matrices repacked for our own batched product: Q4_K, Q6_K, Q4_1 and Q8_0 rows interleaved 16
// at a time, each weight's code next to the same column of its 15 neighbours, so that one AVX-512
// VNNI instruction multiplies 16 rows by 4 columns of an 8-bit activation row (AVX2: 8 rows, in
// two; NEON with the dot product: 4 rows, k-quants only).
//
// Why: ggml multiplies a Q4_K or Q6_K matrix by fewer than ~10 rows one dot product at a time
// (its whole decode cost for each row again), and by more through a tiled kernel that unpacks the
// matrix on every call; Q4_1 has no tiled kernel at all. The checker's batches are mostly small (a
// rejection's candidates, a search step, an edit's evidence) or middling (a walk step of a cell),
// so those paths cost it a row's decode or a fixed unpacking per layer and batch. Unpacked once at
// load, a product costs about the same per row at 1 row as at 128, and a row's numbers do not
// depend on its batch (each column is summed alone, in the same order).
#pragma once

#include "ggml.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

// The instructions the product runs on: AVX-512 (F/BW/VL and VNNI: 16 rows by 4 inputs an
// instruction), else AVX2 (8 rows, two instructions); on ARM, NEON with the dot-product
// instructions (4 rows by 4 inputs); else none (ggml's products).
enum class PackedIsa : int { none = 0, avx2 = 1, avx512 = 2, neon = 3 };

struct PackedMatrix {
    ggml_type type = GGML_TYPE_Q4_K;  // the file's: Q4_K, Q6_K, Q4_1 or Q8_0
    int64_t n_in = 0, n_out = 0;
    int64_t n_blocks = 0;   // blocks per row: super-blocks of 256 inputs (k-quants), 32 (Q4_1, Q8_0)
    int64_t n_groups = 0;   // groups of 16 output rows
    std::unique_ptr<uint8_t, decltype(&std::free)> data{nullptr, &std::free};
    // what a graph node's userdata points to: this matrix, and the instructions to use
    struct Op {
        const PackedMatrix * matrix = nullptr;
        PackedIsa isa = PackedIsa::none;
    } ops[4];
    size_t bytes() const;
};

struct PackedWeights {
    std::map<const ggml_tensor *, PackedMatrix> by_matrix;  // keyed by the file's tensor
    size_t bytes = 0;
    const PackedMatrix * find(const ggml_tensor * w) const {
        auto it = by_matrix.find(w);
        return it == by_matrix.end() ? nullptr : &it->second;
    }
};

// The best instructions this CPU has for the product, at most those CODECHECK_PACKED_ISA names
// (avx512, avx2 or none): one machine can then run and measure each path.
PackedIsa packed_isa();
// The instructions `packed` asks for (cc_context_params.packed: 0 none, 1 the best of this CPU,
// 2 AVX2 even where AVX-512 runs), or none where this CPU has no such kernel.
PackedIsa packed_isa_for(int packed);
// A matrix this packing takes: Q4_K or Q6_K, or Q4_1 and Q8_0 on x86 (AVX-512, AVX2); rows a multiple of 16.
bool packed_accepts(const ggml_tensor * w);
// Packs the accepted matrices of `ws`, their rows split over the cores.
void packed_build(const std::vector<const ggml_tensor *> & ws, PackedWeights & out);
// w x as a graph node through the packed copy of w where there is one and `isa` has a kernel for
// its type (`packed` may be null), else ggml's product: the one choice every caller makes. Ours
// is the faster at every batch size on each instruction set it has kernels for (measured against
// ggml's tiled kernels too: docs/measurements.md), so the choice does not depend on the batch.
ggml_tensor * mul_mat_packed_or_ggml(ggml_context * ctx, const PackedWeights * packed, PackedIsa isa,
                                     ggml_tensor * w, ggml_tensor * x);
// w x as a graph node: x = (n_in, n) f32 -> (n_out, n) f32. Each row of x is quantized to 8 bits
// per 256 values as ggml's own product does (Q8_K), so the integer sums are ggml's exactly.
ggml_tensor * packed_mul_mat(ggml_context * ctx, const PackedMatrix & w, ggml_tensor * x, PackedIsa isa);
// out = w x for n rows of x (w's input width each), through the packed copy on `isa` or, with
// PackedIsa::none, ggml's own product, on the calling thread: the two compared one product at a
// time (tests), where no later 8-bit rounding of an activation can amplify a float difference.
void matrix_product(const ggml_tensor * w, const PackedWeights * packed, PackedIsa isa, const float * x, int64_t n,
                    float * out);
