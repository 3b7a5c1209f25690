// The packed matrices' layout, shared by the packing (packed.cpp) and the kernels of each
// instruction set (packed_x86.cpp, packed_arm.cpp): groups of 16 output rows, each weight's code
// next to the same input of its 15 neighbours.
#pragma once

#include "packed.h"

#include <cstddef>
#include <cstdint>

namespace packed_layout {

constexpr int QK = 256;       // a super-block: the inputs one scale d covers
constexpr int ROWS = 16;      // output rows of a group: the 16 int32 lanes of a zmm register
// A group's super-block. Q4_K: codes (16 rows x 256 inputs, two per byte), the 8 sub-blocks'
// 6-bit scales and mins (a byte per row), d and dmin (f32 per row). Q6_K: codes (a byte each),
// the 16 sub-blocks' signed scales (a byte per row), d (f32 per row).
constexpr size_t Q4_CODES = ROWS * QK / 2, Q4_SCALES = 8 * ROWS, Q4_MINS = 8 * ROWS;
constexpr size_t Q4_BLOCK = Q4_CODES + Q4_SCALES + Q4_MINS + 2 * ROWS * sizeof(float);
constexpr size_t Q6_CODES = ROWS * QK, Q6_SCALES = 16 * ROWS;
constexpr size_t Q6_BLOCK = Q6_CODES + Q6_SCALES + ROWS * sizeof(float);
// Q4_1 (blocks of 32 inputs, each with its own scale d and offset m): a group's block holds the
// codes (16 rows x 32 inputs, two per byte), then d and m (f32 per row).
constexpr int QK41 = 32;
constexpr size_t Q41_CODES = ROWS * QK41 / 2;
constexpr size_t Q41_BLOCK = Q41_CODES + 2 * ROWS * sizeof(float);
// Q8_0 (blocks of 32 inputs, each with its scale d): a group's block holds the codes, a byte each
// as ggml's signed code + 128 (VNNI multiplies unsigned bytes by signed ones; the 128 is taken
// off exactly with 128 times the block's sum of x's codes), 8 steps of 4 inputs with row r's 4 at
// r*4, then d (f32 per row).
constexpr int QK80 = 32;
constexpr size_t Q80_CODES = ROWS * QK80;
constexpr size_t Q80_BLOCK = Q80_CODES + ROWS * sizeof(float);
static_assert(Q4_BLOCK % 64 == 0 && Q6_BLOCK % 64 == 0 && Q41_BLOCK % 64 == 0 && Q80_BLOCK % 64 == 0,
              "blocks stay 64-byte aligned");

// ggml's blocks (ggml-common.h), for QK_K = 256
struct BlockQ4K { uint16_t d, dmin; uint8_t scales[12]; uint8_t qs[QK / 2]; };
struct BlockQ6K { uint8_t ql[QK / 2]; uint8_t qh[QK / 4]; int8_t scales[QK / 16]; uint16_t d; };
struct BlockQ8K { float d; int8_t qs[QK]; int16_t bsums[QK / 16]; };
struct BlockQ41 { uint16_t d, m; uint8_t qs[QK41 / 2]; };
struct BlockQ81 { uint16_t d, s; int8_t qs[QK41]; };
struct BlockQ80 { uint16_t d; int8_t qs[QK80]; };
// a column of x for the Q4_1 product: ggml's Q8_1 blocks, and their d and s (= d * sum) as f32
struct ColumnQ81 { const BlockQ81 * blocks; const float * ds; };
// a column of x for the Q8_0 product: ggml's Q8_0 blocks, their d as f32 and 128 * their codes' sum
struct ColumnQ80 { const BlockQ80 * blocks; const float * d; const int32_t * sum128; };
static_assert(sizeof(BlockQ4K) == 144, "ggml's block_q4_K");
static_assert(sizeof(BlockQ6K) == 210, "ggml's block_q6_K");
static_assert(sizeof(BlockQ8K) == 292, "ggml's block_q8_K");
static_assert(sizeof(BlockQ41) == 20, "ggml's block_q4_1");
static_assert(sizeof(BlockQ81) == 36, "ggml's block_q8_1");
static_assert(sizeof(BlockQ80) == 34, "ggml's block_q8_0");

// one group's 16 output rows for NC rows of x (x: ggml's 8-bit blocks, or ColumnQ81 for Q4_1,
// ColumnQ80 for Q8_0)
using GroupProduct = void (*)(const PackedMatrix &, const void * const *, float * const *, int64_t);

}  // namespace packed_layout

// Each instruction set's file gives these (a CPU of another family: none, and ggml's products).
// The best instructions of this CPU for the product.
PackedIsa packed_isa_of_cpu();
// Rows of x into `x_type` (ggml's from_float signature), bit for bit as ggml's own reference
// quantizer, where ggml's CPU backend runs the scalar reference itself on this instruction set
// (Q8_K on x86: every k-quant product's input); null where ggml's own from_float is used.
using RowQuantizer = void (*)(const float *, void *, int64_t);
RowQuantizer packed_quantizer(ggml_type x_type, PackedIsa isa);
// The quantizer the packed product runs on its input (packed.cpp): ours above, else ggml's from_float.
RowQuantizer input_quantizer(ggml_type x_type, PackedIsa isa);
// The kernel for nc rows of x, 1 <= nc <= packed_columns(type, isa); null where `isa` has none for `type`.
packed_layout::GroupProduct packed_kernel(ggml_type type, PackedIsa isa, int nc);
// The most rows of x one kernel call takes (its registers).
int packed_columns(ggml_type type, PackedIsa isa);
