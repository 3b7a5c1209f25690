#include "packed.h"

#include "errors.h"

#include "ggml-cpu.h"

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which -Wmaybe-uninitialized
// reports at every use (GCC bug 105593)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <algorithm>
#include <thread>

namespace {

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
static_assert(Q4_BLOCK % 64 == 0 && Q6_BLOCK % 64 == 0 && Q41_BLOCK % 64 == 0, "blocks stay 64-byte aligned");

// ggml's blocks (ggml-common.h), for QK_K = 256
struct BlockQ4K { uint16_t d, dmin; uint8_t scales[12]; uint8_t qs[QK / 2]; };
struct BlockQ6K { uint8_t ql[QK / 2]; uint8_t qh[QK / 4]; int8_t scales[QK / 16]; uint16_t d; };
struct BlockQ8K { float d; int8_t qs[QK]; int16_t bsums[QK / 16]; };
struct BlockQ41 { uint16_t d, m; uint8_t qs[QK41 / 2]; };
struct BlockQ81 { uint16_t d, s; int8_t qs[QK41]; };
// a column of x for the Q4_1 product: ggml's Q8_1 blocks, and their d and s (= d * sum) as f32
struct ColumnQ81 { const BlockQ81 * blocks; const float * ds; };
static_assert(sizeof(BlockQ4K) == 144, "ggml's block_q4_K");
static_assert(sizeof(BlockQ6K) == 210, "ggml's block_q6_K");
static_assert(sizeof(BlockQ8K) == 292, "ggml's block_q8_K");
static_assert(sizeof(BlockQ41) == 20, "ggml's block_q4_1");
static_assert(sizeof(BlockQ81) == 36, "ggml's block_q8_1");

// ggml's get_scale_min_k4: sub-block j's 6-bit scale and min
void scale_min(int j, const uint8_t * q, uint8_t & d, uint8_t & m) {
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

// Layout of a group's super-block. Codes: for sub-block s (32 inputs) and pair p of 4-input
// steps, 64 bytes, row r's 4 bytes at r*4: the low nibbles hold inputs 32s+8p+j, the high ones
// 32s+8p+4+j (j < 4). One load and two masks give two registers of 16 rows x 4 inputs.
void pack_q4(const ggml_tensor * w, PackedMatrix & out, int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
        for (int64_t b = 0; b < out.n_blocks; ++b) {
            uint8_t * blk = out.data.get() + (g * out.n_blocks + b) * Q4_BLOCK;
            uint8_t * sc = blk + Q4_CODES;
            uint8_t * mn = sc + Q4_SCALES;
            float * d = (float *) (mn + Q4_MINS);
            for (int r = 0; r < ROWS; ++r) {
                const BlockQ4K & q = *(const BlockQ4K *) ((const char *) w->data + (g * ROWS + r) * w->nb[1] + b * sizeof(BlockQ4K));
                d[r] = ggml_fp16_to_fp32(q.d);
                d[ROWS + r] = ggml_fp16_to_fp32(q.dmin);
                uint8_t code[QK];  // ggml's order: each 32 bytes hold two sub-blocks, low then high nibbles
                for (int c = 0; c < 4; ++c) {
                    for (int l = 0; l < 32; ++l) {
                        code[64 * c + l] = q.qs[32 * c + l] & 0xF;
                        code[64 * c + 32 + l] = q.qs[32 * c + l] >> 4;
                    }
                }
                for (int s = 0; s < 8; ++s) {
                    scale_min(s, q.scales, sc[s * ROWS + r], mn[s * ROWS + r]);
                    for (int p = 0; p < 4; ++p) {
                        for (int j = 0; j < 4; ++j) {
                            blk[(s * 4 + p) * 64 + r * 4 + j] =
                                (uint8_t) (code[32 * s + 8 * p + j] | (code[32 * s + 8 * p + 4 + j] << 4));
                        }
                    }
                }
            }
        }
    }
}

// Q6_K: for sub-block j (16 inputs) and step p of 4 inputs, 64 bytes, row r's 4 codes (0..63,
// ggml's q + 32) at r*4.
void pack_q6(const ggml_tensor * w, PackedMatrix & out, int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
        for (int64_t b = 0; b < out.n_blocks; ++b) {
            uint8_t * blk = out.data.get() + (g * out.n_blocks + b) * Q6_BLOCK;
            int8_t * sc = (int8_t *) (blk + Q6_CODES);
            float * d = (float *) (blk + Q6_CODES + Q6_SCALES);
            for (int r = 0; r < ROWS; ++r) {
                const BlockQ6K & q = *(const BlockQ6K *) ((const char *) w->data + (g * ROWS + r) * w->nb[1] + b * sizeof(BlockQ6K));
                d[r] = ggml_fp16_to_fp32(q.d);
                uint8_t code[QK];  // ggml's dequantize_row_q6_K order
                for (int h = 0; h < 2; ++h) {
                    const uint8_t * ql = q.ql + 64 * h;
                    const uint8_t * qh = q.qh + 32 * h;
                    uint8_t * y = code + 128 * h;
                    for (int l = 0; l < 32; ++l) {
                        y[l] = (uint8_t) ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4));
                        y[l + 32] = (uint8_t) ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4));
                        y[l + 64] = (uint8_t) ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4));
                        y[l + 96] = (uint8_t) ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4));
                    }
                }
                for (int j = 0; j < 16; ++j) {
                    sc[j * ROWS + r] = q.scales[j];
                    for (int p = 0; p < 4; ++p) {
                        for (int k = 0; k < 4; ++k) blk[(j * 4 + p) * 64 + r * 4 + k] = code[16 * j + 4 * p + k];
                    }
                }
            }
        }
    }
}

// Q4_1: the Q4_K layout of one 32-input sub-block (pair p of 4-input steps: low nibbles inputs
// 8p+j, high ones 8p+4+j), then d and m.
void pack_q41(const ggml_tensor * w, PackedMatrix & out, int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
        for (int64_t b = 0; b < out.n_blocks; ++b) {
            uint8_t * blk = out.data.get() + (g * out.n_blocks + b) * Q41_BLOCK;
            float * d = (float *) (blk + Q41_CODES);
            for (int r = 0; r < ROWS; ++r) {
                const BlockQ41 & q = *(const BlockQ41 *) ((const char *) w->data + (g * ROWS + r) * w->nb[1] + b * sizeof(BlockQ41));
                d[r] = ggml_fp16_to_fp32(q.d);
                d[ROWS + r] = ggml_fp16_to_fp32(q.m);
                uint8_t code[QK41];  // ggml's order: byte j holds inputs j (low nibble) and j + 16
                for (int j = 0; j < QK41 / 2; ++j) {
                    code[j] = q.qs[j] & 0xF;
                    code[j + QK41 / 2] = q.qs[j] >> 4;
                }
                for (int p = 0; p < 4; ++p) {
                    for (int j = 0; j < 4; ++j) {
                        blk[p * 64 + r * 4 + j] = (uint8_t) (code[8 * p + j] | (code[8 * p + 4 + j] << 4));
                    }
                }
            }
        }
    }
}

// NC rows of x (Q8_K) times the group g's 16 output rows. A row's sum is ggml's vec_dot_q4_K_q8_K's:
// per super-block d_x * (d * sum_s scale_s * <codes, x>_s - dmin * sum_s min_s * sum(x)_s).
template <int NC>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
void product_q4(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    const __m512i low4 = _mm512_set1_epi8(0x0F);
    __m512 res[NC];
    for (int c = 0; c < NC; ++c) res[c] = _mm512_setzero_ps();
    const uint8_t * blk = w.data.get() + g * w.n_blocks * Q4_BLOCK;
    for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q4_BLOCK) {
        const uint8_t * sc = blk + Q4_CODES;
        const uint8_t * mn = sc + Q4_SCALES;
        const float * d = (const float *) (mn + Q4_MINS);
        __m512i isum[NC];
        for (int c = 0; c < NC; ++c) isum[c] = _mm512_setzero_si512();
        for (int s = 0; s < 8; ++s) {
            __m512i acc[NC];
            for (int c = 0; c < NC; ++c) acc[c] = _mm512_setzero_si512();
            for (int p = 0; p < 4; ++p) {
                const __m512i v = _mm512_load_si512((const void *) (blk + (s * 4 + p) * 64));
                const __m512i lo = _mm512_and_si512(v, low4);
                const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), low4);
                for (int c = 0; c < NC; ++c) {
                    const int32_t * a = (const int32_t *) (x[c][b].qs + 32 * s + 8 * p);
                    acc[c] = _mm512_dpbusd_epi32(acc[c], lo, _mm512_set1_epi32(a[0]));
                    acc[c] = _mm512_dpbusd_epi32(acc[c], hi, _mm512_set1_epi32(a[1]));
                }
            }
            const __m512i scale = _mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *) (sc + s * ROWS)));
            for (int c = 0; c < NC; ++c) isum[c] = _mm512_add_epi32(isum[c], _mm512_mullo_epi32(acc[c], scale));
        }
        __m512i msum[NC];
        for (int c = 0; c < NC; ++c) msum[c] = _mm512_setzero_si512();
        for (int s = 0; s < 8; ++s) {
            const __m512i mins = _mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *) (mn + s * ROWS)));
            for (int c = 0; c < NC; ++c) {
                const int32_t sum_x = x[c][b].bsums[2 * s] + x[c][b].bsums[2 * s + 1];
                msum[c] = _mm512_add_epi32(msum[c], _mm512_mullo_epi32(mins, _mm512_set1_epi32(sum_x)));
            }
        }
        const __m512 dv = _mm512_load_ps(d), dminv = _mm512_load_ps(d + ROWS);
        for (int c = 0; c < NC; ++c) {
            const __m512 t = _mm512_fmsub_ps(dv, _mm512_cvtepi32_ps(isum[c]),
                                             _mm512_mul_ps(dminv, _mm512_cvtepi32_ps(msum[c])));
            res[c] = _mm512_fmadd_ps(_mm512_set1_ps(x[c][b].d), t, res[c]);
        }
    }
    for (int c = 0; c < NC; ++c) _mm512_storeu_ps(y[c] + g * ROWS, res[c]);
}

// The same for Q6_K, ggml's vec_dot_q6_K_q8_K: per super-block
// d_x * d * sum_j scale_j * (<codes, x>_j - 32 sum(x)_j).
template <int NC>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
void product_q6(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    __m512 res[NC];
    for (int c = 0; c < NC; ++c) res[c] = _mm512_setzero_ps();
    const uint8_t * blk = w.data.get() + g * w.n_blocks * Q6_BLOCK;
    for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q6_BLOCK) {
        const int8_t * sc = (const int8_t *) (blk + Q6_CODES);
        const float * d = (const float *) (blk + Q6_CODES + Q6_SCALES);
        __m512i isum[NC];
        for (int c = 0; c < NC; ++c) isum[c] = _mm512_setzero_si512();
        for (int j = 0; j < 16; ++j) {
            __m512i acc[NC];
            for (int c = 0; c < NC; ++c) acc[c] = _mm512_set1_epi32(-32 * x[c][b].bsums[j]);
            for (int p = 0; p < 4; ++p) {
                const __m512i v = _mm512_load_si512((const void *) (blk + (j * 4 + p) * 64));
                for (int c = 0; c < NC; ++c) {
                    const int32_t * a = (const int32_t *) (x[c][b].qs + 16 * j + 4 * p);
                    acc[c] = _mm512_dpbusd_epi32(acc[c], v, _mm512_set1_epi32(a[0]));
                }
            }
            const __m512i scale = _mm512_cvtepi8_epi32(_mm_load_si128((const __m128i *) (sc + j * ROWS)));
            for (int c = 0; c < NC; ++c) isum[c] = _mm512_add_epi32(isum[c], _mm512_mullo_epi32(acc[c], scale));
        }
        const __m512 dv = _mm512_load_ps(d);
        for (int c = 0; c < NC; ++c) {
            res[c] = _mm512_fmadd_ps(_mm512_set1_ps(x[c][b].d), _mm512_mul_ps(dv, _mm512_cvtepi32_ps(isum[c])), res[c]);
        }
    }
    for (int c = 0; c < NC; ++c) _mm512_storeu_ps(y[c] + g * ROWS, res[c]);
}

// Q4_1 by Q8_1, ggml's vec_dot_q4_1_q8_1: per 32-input block d * d_x * <codes, x> + m * s_x.
template <int NC>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
void product_q41(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const ColumnQ81 * const * x = (const ColumnQ81 * const *) xv;
    const __m512i low4 = _mm512_set1_epi8(0x0F);
    __m512 res[NC];
    for (int c = 0; c < NC; ++c) res[c] = _mm512_setzero_ps();
    const uint8_t * blk = w.data.get() + g * w.n_blocks * Q41_BLOCK;
    for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q41_BLOCK) {
        const float * d = (const float *) (blk + Q41_CODES);
        __m512i acc[NC];
        for (int c = 0; c < NC; ++c) acc[c] = _mm512_setzero_si512();
        for (int p = 0; p < 4; ++p) {
            const __m512i v = _mm512_load_si512((const void *) (blk + p * 64));
            const __m512i lo = _mm512_and_si512(v, low4);
            const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), low4);
            for (int c = 0; c < NC; ++c) {
                const int32_t * a = (const int32_t *) (x[c]->blocks[b].qs + 8 * p);
                acc[c] = _mm512_dpbusd_epi32(acc[c], lo, _mm512_set1_epi32(a[0]));
                acc[c] = _mm512_dpbusd_epi32(acc[c], hi, _mm512_set1_epi32(a[1]));
            }
        }
        const __m512 dv = _mm512_load_ps(d), mv = _mm512_load_ps(d + ROWS);
        for (int c = 0; c < NC; ++c) {
            const float * ds = x[c]->ds + 2 * b;
            const __m512 t = _mm512_fmadd_ps(_mm512_mul_ps(dv, _mm512_set1_ps(ds[0])), _mm512_cvtepi32_ps(acc[c]),
                                             _mm512_mul_ps(mv, _mm512_set1_ps(ds[1])));
            res[c] = _mm512_add_ps(res[c], t);
        }
    }
    for (int c = 0; c < NC; ++c) _mm512_storeu_ps(y[c] + g * ROWS, res[c]);
}

// The same products on AVX2 (x86-64-v3 machines without AVX-512): a 64-byte step holds 16 rows,
// so a ymm register takes one half of it (rows 8h..8h+7) and each half is a pass of its own, to
// keep the 16 registers for NC columns. maddubs multiplies unsigned codes by signed inputs into
// 16-bit pairs (at most 2 * 63 * 128, no saturation), madd with ones sums them to 32 bits.
template <int NC>
__attribute__((target("avx2,fma")))
void product_q4_avx2(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    const __m256i low4 = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
    for (int h = 0; h < 2; ++h) {
        __m256 res[NC];
        for (int c = 0; c < NC; ++c) res[c] = _mm256_setzero_ps();
        const uint8_t * blk = w.data.get() + g * w.n_blocks * Q4_BLOCK;
        for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q4_BLOCK) {
            const uint8_t * sc = blk + Q4_CODES;
            const uint8_t * mn = sc + Q4_SCALES;
            const float * d = (const float *) (mn + Q4_MINS);
            __m256i isum[NC];
            for (int c = 0; c < NC; ++c) isum[c] = _mm256_setzero_si256();
            for (int s = 0; s < 8; ++s) {
                __m256i acc[NC];
                for (int c = 0; c < NC; ++c) acc[c] = _mm256_setzero_si256();
                for (int p = 0; p < 4; ++p) {
                    const __m256i v = _mm256_load_si256((const __m256i *) (blk + (s * 4 + p) * 64 + 32 * h));
                    const __m256i lo = _mm256_and_si256(v, low4);
                    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
                    for (int c = 0; c < NC; ++c) {
                        const int32_t * a = (const int32_t *) (x[c][b].qs + 32 * s + 8 * p);
                        const __m256i plo = _mm256_maddubs_epi16(lo, _mm256_set1_epi32(a[0]));
                        const __m256i phi = _mm256_maddubs_epi16(hi, _mm256_set1_epi32(a[1]));
                        acc[c] = _mm256_add_epi32(acc[c], _mm256_madd_epi16(_mm256_add_epi16(plo, phi), ones));
                    }
                }
                const __m256i scale = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *) (sc + s * ROWS + 8 * h)));
                for (int c = 0; c < NC; ++c) isum[c] = _mm256_add_epi32(isum[c], _mm256_mullo_epi32(acc[c], scale));
            }
            __m256i msum[NC];
            for (int c = 0; c < NC; ++c) msum[c] = _mm256_setzero_si256();
            for (int s = 0; s < 8; ++s) {
                const __m256i mins = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *) (mn + s * ROWS + 8 * h)));
                for (int c = 0; c < NC; ++c) {
                    const int32_t sum_x = x[c][b].bsums[2 * s] + x[c][b].bsums[2 * s + 1];
                    msum[c] = _mm256_add_epi32(msum[c], _mm256_mullo_epi32(mins, _mm256_set1_epi32(sum_x)));
                }
            }
            const __m256 dv = _mm256_loadu_ps(d + 8 * h), dminv = _mm256_loadu_ps(d + ROWS + 8 * h);
            for (int c = 0; c < NC; ++c) {
                const __m256 t = _mm256_fmsub_ps(dv, _mm256_cvtepi32_ps(isum[c]),
                                                 _mm256_mul_ps(dminv, _mm256_cvtepi32_ps(msum[c])));
                res[c] = _mm256_fmadd_ps(_mm256_set1_ps(x[c][b].d), t, res[c]);
            }
        }
        for (int c = 0; c < NC; ++c) _mm256_storeu_ps(y[c] + g * ROWS + 8 * h, res[c]);
    }
}

template <int NC>
__attribute__((target("avx2,fma")))
void product_q6_avx2(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    const __m256i ones = _mm256_set1_epi16(1);
    for (int h = 0; h < 2; ++h) {
        __m256 res[NC];
        for (int c = 0; c < NC; ++c) res[c] = _mm256_setzero_ps();
        const uint8_t * blk = w.data.get() + g * w.n_blocks * Q6_BLOCK;
        for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q6_BLOCK) {
            const int8_t * sc = (const int8_t *) (blk + Q6_CODES);
            const float * d = (const float *) (blk + Q6_CODES + Q6_SCALES);
            __m256i isum[NC];
            for (int c = 0; c < NC; ++c) isum[c] = _mm256_setzero_si256();
            for (int j = 0; j < 16; ++j) {
                __m256i acc[NC];
                for (int c = 0; c < NC; ++c) acc[c] = _mm256_set1_epi32(-32 * x[c][b].bsums[j]);
                for (int p = 0; p < 4; p += 2) {
                    const __m256i v0 = _mm256_load_si256((const __m256i *) (blk + (j * 4 + p) * 64 + 32 * h));
                    const __m256i v1 = _mm256_load_si256((const __m256i *) (blk + (j * 4 + p + 1) * 64 + 32 * h));
                    for (int c = 0; c < NC; ++c) {
                        const int32_t * a = (const int32_t *) (x[c][b].qs + 16 * j + 4 * p);
                        const __m256i p0 = _mm256_maddubs_epi16(v0, _mm256_set1_epi32(a[0]));
                        const __m256i p1 = _mm256_maddubs_epi16(v1, _mm256_set1_epi32(a[1]));
                        acc[c] = _mm256_add_epi32(acc[c], _mm256_madd_epi16(p0, ones));
                        acc[c] = _mm256_add_epi32(acc[c], _mm256_madd_epi16(p1, ones));
                    }
                }
                const __m256i scale = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *) (sc + j * ROWS + 8 * h)));
                for (int c = 0; c < NC; ++c) isum[c] = _mm256_add_epi32(isum[c], _mm256_mullo_epi32(acc[c], scale));
            }
            const __m256 dv = _mm256_loadu_ps(d + 8 * h);
            for (int c = 0; c < NC; ++c) {
                res[c] = _mm256_fmadd_ps(_mm256_set1_ps(x[c][b].d), _mm256_mul_ps(dv, _mm256_cvtepi32_ps(isum[c])), res[c]);
            }
        }
        for (int c = 0; c < NC; ++c) _mm256_storeu_ps(y[c] + g * ROWS + 8 * h, res[c]);
    }
}

using GroupProduct = void (*)(const PackedMatrix &, const void * const *, float * const *, int64_t);

// the kernel for each count of columns: 1..8 on AVX-512, 1..4 on AVX2 (16 ymm registers)
constexpr int AVX512_COLUMNS = 8, AVX2_COLUMNS = 4;
GroupProduct kernel_for(ggml_type type, PackedIsa isa, int nc) {
    static constexpr GroupProduct q4[9] = {nullptr, product_q4<1>, product_q4<2>, product_q4<3>, product_q4<4>,
                                           product_q4<5>, product_q4<6>, product_q4<7>, product_q4<8>};
    static constexpr GroupProduct q6[9] = {nullptr, product_q6<1>, product_q6<2>, product_q6<3>, product_q6<4>,
                                           product_q6<5>, product_q6<6>, product_q6<7>, product_q6<8>};
    static constexpr GroupProduct q4_avx2[5] = {nullptr, product_q4_avx2<1>, product_q4_avx2<2>,
                                                product_q4_avx2<3>, product_q4_avx2<4>};
    static constexpr GroupProduct q6_avx2[5] = {nullptr, product_q6_avx2<1>, product_q6_avx2<2>,
                                                product_q6_avx2<3>, product_q6_avx2<4>};
    static constexpr GroupProduct q41[9] = {nullptr, product_q41<1>, product_q41<2>, product_q41<3>, product_q41<4>,
                                            product_q41<5>, product_q41<6>, product_q41<7>, product_q41<8>};
    if (type == GGML_TYPE_Q4_1) return q41[nc];  // AVX-512 only (packed_pays)
    if (isa == PackedIsa::avx512) return type == GGML_TYPE_Q4_K ? q4[nc] : q6[nc];
    return type == GGML_TYPE_Q4_K ? q4_avx2[nc] : q6_avx2[nc];
}

// dst = w x for the output groups this thread owns; every thread quantizes all of x (it is
// small beside the product) so that no thread waits for another. Groups outside, columns
// inside: a group's rows (at most ~150 KB) stay in the core's cache while all of x passes
// them, so the matrix is read from memory once per product, not once per 8 columns.
void packed_op(ggml_tensor * dst, int ith, int nth, void * userdata) {
    const PackedMatrix::Op & op = *(const PackedMatrix::Op *) userdata;
    const PackedMatrix & w = *op.matrix;
    const ggml_tensor * x = dst->src[0];
    const int n = (int) x->ne[1];
    const int64_t g0 = w.n_groups * ith / nth, g1 = w.n_groups * (ith + 1) / nth;
    if (g0 == g1) return;
    // x in ggml's 8-bit type for the matrix's (Q8_K for the k-quants, Q8_1 for Q4_1)
    const ggml_type x_type = w.type == GGML_TYPE_Q4_1 ? GGML_TYPE_Q8_1 : GGML_TYPE_Q8_K;
    const size_t x_row = ggml_row_size(x_type, w.n_in);
    thread_local std::vector<uint8_t> xq;
    thread_local std::vector<float> x_ds;
    thread_local std::vector<ColumnQ81> x_cols;
    thread_local std::vector<const void *> xs;
    thread_local std::vector<float *> ys;
    xq.resize(n * x_row);
    xs.resize(n);
    ys.resize(n);
    const ggml_from_float_t to_q8 = ggml_get_type_traits_cpu(x_type)->from_float;
    for (int c = 0; c < n; ++c) {
        to_q8((const float *) ((const char *) x->data + c * x->nb[1]), xq.data() + c * x_row, w.n_in);
        xs[c] = xq.data() + c * x_row;
        ys[c] = (float *) ((char *) dst->data + c * dst->nb[1]);
    }
    if (w.type == GGML_TYPE_Q4_1) {  // d and s read once as f32, not at each group
        x_ds.resize((size_t) n * 2 * w.n_blocks);
        x_cols.resize(n);
        for (int c = 0; c < n; ++c) {
            const BlockQ81 * blocks = (const BlockQ81 *) xs[c];
            float * ds = x_ds.data() + (size_t) c * 2 * w.n_blocks;
            for (int64_t b = 0; b < w.n_blocks; ++b) {
                ds[2 * b] = ggml_fp16_to_fp32(blocks[b].d);
                ds[2 * b + 1] = ggml_fp16_to_fp32(blocks[b].s);
            }
            x_cols[c] = {blocks, ds};
            xs[c] = &x_cols[c];
        }
    }
    const int width = op.isa == PackedIsa::avx512 ? AVX512_COLUMNS : AVX2_COLUMNS;
    for (int64_t g = g0; g < g1; ++g) {
        for (int c = 0; c < n; c += width) {
            kernel_for(w.type, op.isa, std::min(width, n - c))(w, xs.data() + c, ys.data() + c, g);
        }
    }
}

}  // namespace

size_t PackedMatrix::bytes() const {
    return (size_t) n_groups * n_blocks * (type == GGML_TYPE_Q4_K ? Q4_BLOCK : type == GGML_TYPE_Q6_K ? Q6_BLOCK : Q41_BLOCK);
}

PackedIsa packed_isa() {
    static const PackedIsa isa =
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni") ? PackedIsa::avx512
        : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? PackedIsa::avx2
        : PackedIsa::none;
    return isa;
}

bool packed_pays(const PackedMatrix & w, PackedIsa isa, int64_t n) {
    if (w.type == GGML_TYPE_Q4_1) return isa == PackedIsa::avx512;
    return isa == PackedIsa::avx512 || (isa == PackedIsa::avx2 && n <= 8);
}

bool packed_accepts(const ggml_tensor * w) {
    const bool k_quant = (w->type == GGML_TYPE_Q4_K || w->type == GGML_TYPE_Q6_K) && w->ne[0] % QK == 0;
    const bool q41 = w->type == GGML_TYPE_Q4_1 && w->ne[0] % QK41 == 0 && packed_isa() == PackedIsa::avx512;
    return (k_quant || q41) && w->ne[1] % ROWS == 0 && w->ne[2] == 1 && w->ne[3] == 1;
}

void packed_build(const std::vector<const ggml_tensor *> & ws, PackedWeights & out) {
    std::vector<std::pair<const ggml_tensor *, PackedMatrix *>> jobs;
    for (const ggml_tensor * w : ws) {
        if (!packed_accepts(w) || out.by_matrix.count(w)) continue;
        PackedMatrix & m = out.by_matrix[w];
        m.type = w->type;
        m.ops[(int) PackedIsa::avx2] = {&m, PackedIsa::avx2};
        m.ops[(int) PackedIsa::avx512] = {&m, PackedIsa::avx512};
        m.n_in = w->ne[0];
        m.n_out = w->ne[1];
        m.n_blocks = m.n_in / (m.type == GGML_TYPE_Q4_1 ? QK41 : QK);
        m.n_groups = m.n_out / ROWS;
        m.data.reset((uint8_t *) std::aligned_alloc(64, m.bytes()));
        if (!m.data) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot allocate %zu MiB for the packed weights", m.bytes() >> 20);
        out.bytes += m.bytes();
        jobs.emplace_back(w, &m);
    }
    // each matrix's groups split over the cores (plain threads, joined: nothing spins)
    const int n = (int) std::max(1u, std::min(std::thread::hardware_concurrency(), 8u));
    auto work = [&](int k) {
        for (const auto & [w, m] : jobs) {
            const int64_t g0 = m->n_groups * k / n, g1 = m->n_groups * (k + 1) / n;
            if (m->type == GGML_TYPE_Q4_K) pack_q4(w, *m, g0, g1);
            else if (m->type == GGML_TYPE_Q6_K) pack_q6(w, *m, g0, g1);
            else pack_q41(w, *m, g0, g1);
        }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < n; ++k) pool.emplace_back(work, k);
    work(0);
    for (auto & t : pool) t.join();
}

ggml_tensor * mul_mat_packed_or_ggml(ggml_context * ctx, const PackedWeights * packed, PackedIsa isa,
                                     ggml_tensor * w, ggml_tensor * x) {
    const PackedMatrix * p = packed ? packed->find(w) : nullptr;
    return p && packed_pays(*p, isa, x->ne[1]) ? packed_mul_mat(ctx, *p, x, isa) : ggml_mul_mat(ctx, w, x);
}

ggml_tensor * packed_mul_mat(ggml_context * ctx, const PackedMatrix & w, ggml_tensor * x, PackedIsa isa) {
    GGML_ASSERT(x->type == GGML_TYPE_F32 && x->ne[0] == w.n_in && x->nb[0] == sizeof(float));
    GGML_ASSERT(isa != PackedIsa::none && (int) isa <= (int) packed_isa());
    ggml_tensor * args[1] = {x};
    return ggml_custom_4d(ctx, GGML_TYPE_F32, w.n_out, x->ne[1], 1, 1, args, 1, packed_op, GGML_N_TASKS_MAX,
                          (void *) &w.ops[(int) isa]);
}
