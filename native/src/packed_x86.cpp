// The packed product's kernels for x86-64: AVX-512 VNNI (16 rows by 4 inputs an instruction) and
// AVX2 (8 rows, two instructions), each compiled for its instructions and chosen at run time.
#include "packed_layout.h"

#if defined(__x86_64__) || defined(_M_X64)

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which -Wmaybe-uninitialized
// reports at every use (GCC bug 105593)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cmath>
#include <cstring>

using namespace packed_layout;

namespace {

// The kernels fetch the super-block PREFETCH_AHEAD on (the 32-input types: the block as many
// bytes on) while they multiply this one: with few columns of x a product waits on memory
// otherwise (docs/measurements.md).
constexpr int PREFETCH_AHEAD = 2;
constexpr size_t PREFETCH_BYTES = PREFETCH_AHEAD * Q4_BLOCK;
template <size_t BYTES>
inline void prefetch_block(const uint8_t * blk) {
    for (size_t k = 0; k < BYTES; k += 64) _mm_prefetch((const char *) blk + PREFETCH_BYTES + k, _MM_HINT_T0);
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
        const uint8_t * ahead = blk + PREFETCH_AHEAD * Q4_BLOCK;
        __m512i isum[NC];
        for (int c = 0; c < NC; ++c) isum[c] = _mm512_setzero_si512();
        for (int s = 0; s < 8; ++s) {
            for (int k = 0; k < 5; ++k) _mm_prefetch((const char *) ahead + s * (Q4_BLOCK / 8) + 64 * k, _MM_HINT_T0);
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
        const uint8_t * ahead = blk + PREFETCH_AHEAD * Q6_BLOCK;
        __m512i isum[NC];
        for (int c = 0; c < NC; ++c) isum[c] = _mm512_setzero_si512();
        for (int j = 0; j < 16; ++j) {
            for (int k = 0; k < 5; ++k) _mm_prefetch((const char *) ahead + j * (Q6_BLOCK / 16) + 64 * k, _MM_HINT_T0);
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
        prefetch_block<Q41_BLOCK>(blk);
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

// Q8_0 by Q8_0, ggml's vec_dot_q8_0_q8_0: per 32-input block d * d_x * <codes, x>. The packed codes
// are ggml's + 128, so <codes + 128, x> - 128 * sum(x) is ggml's integer sum exactly.
template <int NC>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
void product_q80(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const ColumnQ80 * const * x = (const ColumnQ80 * const *) xv;
    __m512 res[NC];
    for (int c = 0; c < NC; ++c) res[c] = _mm512_setzero_ps();
    const uint8_t * blk = w.data.get() + g * w.n_blocks * Q80_BLOCK;
    for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q80_BLOCK) {
        prefetch_block<Q80_BLOCK>(blk);
        __m512i acc[NC];
        for (int c = 0; c < NC; ++c) acc[c] = _mm512_set1_epi32(-x[c]->sum128[b]);
        for (int p = 0; p < 8; ++p) {
            const __m512i v = _mm512_load_si512((const void *) (blk + p * 64));
            for (int c = 0; c < NC; ++c) {
                int32_t a;
                std::memcpy(&a, x[c]->blocks[b].qs + 4 * p, sizeof a);
                acc[c] = _mm512_dpbusd_epi32(acc[c], v, _mm512_set1_epi32(a));
            }
        }
        const __m512 dv = _mm512_load_ps((const float *) (blk + Q80_CODES));
        for (int c = 0; c < NC; ++c) {
            res[c] = _mm512_fmadd_ps(_mm512_mul_ps(dv, _mm512_set1_ps(x[c]->d[b])), _mm512_cvtepi32_ps(acc[c]), res[c]);
        }
    }
    for (int c = 0; c < NC; ++c) _mm512_storeu_ps(y[c] + g * ROWS, res[c]);
}

// The same products on AVX2 (x86-64-v3 machines without AVX-512): a 64-byte step holds 16 rows,
// so a ymm register takes one half of it (rows 8h..8h+7) and each half is a pass of its own, to
// keep the 16 registers for NC columns. maddubs multiplies unsigned codes by signed inputs into
// 16-bit pairs, one row's two in its 32-bit lane; a sub-block's pairs are summed in 16 bits and
// madd applies the row's scale as it widens them to 32 (ggml's AVX2 kernels do the same), so
// there is no 32-bit multiply in the inner loop.

// each of 8 rows' bytes in both 16-bit halves of its 32-bit lane: madd's multiplier of a row's pairs
__attribute__((target("avx2"))) inline __m256i row_u8_pairs(const uint8_t * p) {
    const __m128i b = _mm_loadl_epi64((const __m128i *) p);
    return _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(b, b));
}
// rows' signed bytes of two tables a and b as the pair (a, b) in each row's lane
__attribute__((target("avx2"))) inline __m256i row_i8_two(const int8_t * a, const int8_t * b) {
    return _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *) a), _mm_loadl_epi64((const __m128i *) b)));
}
// GCC reassociates a chain of integer adds into a tree whose many live values spill; this pins
// the chain's order
__attribute__((target("avx2"))) inline void in_register(__m256i & v) { asm("" : "+x"(v)); }
__attribute__((target("avx2"))) inline __m256i broadcast32(const void * p) {
    return _mm256_set1_epi32(*(const int32_t *) p);
}

// Q4_K: a sub-block's 8 products of 4 inputs sum to at most 16 * 15 * 128 = 30720 per 16-bit
// lane, so they add in 16 bits; the mins' term sum_s min_s * (bsums_2s + bsums_2s+1) is madd of
// each min against a pair of ggml's 16-input sums. The two halves of a super-block run one after
// the other (the second reads its lines from L1), and the super-block PREFETCH_AHEAD on is
// fetched meanwhile, as in the AVX-512 kernels.
template <int NC>
__attribute__((target("avx2,fma")))
void product_q4_avx2(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    __m256 res[2][NC];
    for (int h = 0; h < 2; ++h) for (int c = 0; c < NC; ++c) res[h][c] = _mm256_setzero_ps();
    const uint8_t * blk = w.data.get() + g * w.n_blocks * Q4_BLOCK;
    for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q4_BLOCK) {
        const uint8_t * ahead = blk + PREFETCH_AHEAD * Q4_BLOCK;
        for (int h = 0; h < 2; ++h) {
            const uint8_t * codes = blk + 32 * h;
            const uint8_t * sc = blk + Q4_CODES + 8 * h;
            const uint8_t * mn = sc + Q4_SCALES;
            const float * d = (const float *) (blk + Q4_CODES + Q4_SCALES + Q4_MINS) + 8 * h;
            __m256i isum[NC];
            for (int c = 0; c < NC; ++c) isum[c] = _mm256_setzero_si256();
            for (int s = 0; s < 8; ++s) {
                if (h == 0) {  // a super-block is 36 lines: 5 a sub-block cover them
                    for (int k = 0; k < 5; ++k) _mm_prefetch((const char *) ahead + s * (Q4_BLOCK / 8) + 64 * k, _MM_HINT_T0);
                }
                __m256i acc[NC];
                for (int c = 0; c < NC; ++c) acc[c] = _mm256_setzero_si256();
                for (int p = 0; p < 4; ++p) {
                    const __m256i v = _mm256_load_si256((const __m256i *) (codes + (s * 4 + p) * 64));
                    const __m256i lo = _mm256_and_si256(v, low4);
                    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
                    for (int c = 0; c < NC; ++c) {
                        const int8_t * a = x[c][b].qs + 32 * s + 8 * p;
                        acc[c] = _mm256_add_epi16(acc[c], _mm256_maddubs_epi16(lo, broadcast32(a)));
                        acc[c] = _mm256_add_epi16(acc[c], _mm256_maddubs_epi16(hi, broadcast32(a + 4)));
                        in_register(acc[c]);
                    }
                }
                const __m256i scale = row_u8_pairs(sc + s * ROWS);
                for (int c = 0; c < NC; ++c) {
                    isum[c] = _mm256_add_epi32(isum[c], _mm256_madd_epi16(acc[c], scale));
                    in_register(isum[c]);
                }
            }
            __m256i msum[NC];
            for (int s = 0; s < 8; ++s) {
                const __m256i mins = row_u8_pairs(mn + s * ROWS);
                for (int c = 0; c < NC; ++c) {
                    const __m256i m = _mm256_madd_epi16(mins, broadcast32(x[c][b].bsums + 2 * s));
                    msum[c] = s == 0 ? m : _mm256_add_epi32(msum[c], m);
                    in_register(msum[c]);
                }
            }
            const __m256 dv = _mm256_loadu_ps(d), dminv = _mm256_loadu_ps(d + ROWS);
            for (int c = 0; c < NC; ++c) {
                const __m256 t = _mm256_fmsub_ps(dv, _mm256_cvtepi32_ps(isum[c]),
                                                 _mm256_mul_ps(dminv, _mm256_cvtepi32_ps(msum[c])));
                res[h][c] = _mm256_fmadd_ps(_mm256_set1_ps(x[c][b].d), t, res[h][c]);
            }
        }
    }
    for (int h = 0; h < 2; ++h) for (int c = 0; c < NC; ++c) _mm256_storeu_ps(y[c] + g * ROWS + 8 * h, res[h][c]);
}

// Q6_K: codes 0..63 (ggml's q + 32), so two products of 4 inputs stay within 16 bits (at most
// 4 * 63 * 128 = 32256); each pair is madd'ed with the scale. The -32 sum(x) term is
// sum_j scale_j * bsums_j once per super-block, madd of two sub-blocks' scales at a time.
template <int NC>
__attribute__((target("avx2,fma")))
void product_q6_avx2(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    __m256 res[2][NC];
    for (int h = 0; h < 2; ++h) for (int c = 0; c < NC; ++c) res[h][c] = _mm256_setzero_ps();
    const uint8_t * blk = w.data.get() + g * w.n_blocks * Q6_BLOCK;
    for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q6_BLOCK) {
        const uint8_t * ahead = blk + PREFETCH_AHEAD * Q6_BLOCK;
        for (int h = 0; h < 2; ++h) {
            const uint8_t * codes = blk + 32 * h;
            const int8_t * sc = (const int8_t *) (blk + Q6_CODES) + 8 * h;
            const float * d = (const float *) (blk + Q6_CODES + Q6_SCALES) + 8 * h;
            __m256i isum[NC];
            for (int c = 0; c < NC; ++c) isum[c] = _mm256_setzero_si256();
            for (int j = 0; j < 16; ++j) {
                if (h == 0) {  // a super-block is 69 lines: 5 a sub-block cover them
                    for (int k = 0; k < 5; ++k) _mm_prefetch((const char *) ahead + j * (Q6_BLOCK / 16) + 64 * k, _MM_HINT_T0);
                }
                const __m128i sb = _mm_loadl_epi64((const __m128i *) (sc + j * ROWS));
                const __m256i scale = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(sb, sb));
                for (int p = 0; p < 4; p += 2) {
                    const __m256i v0 = _mm256_load_si256((const __m256i *) (codes + (j * 4 + p) * 64));
                    const __m256i v1 = _mm256_load_si256((const __m256i *) (codes + (j * 4 + p + 1) * 64));
                    for (int c = 0; c < NC; ++c) {
                        const int8_t * a = x[c][b].qs + 16 * j + 4 * p;
                        const __m256i t = _mm256_add_epi16(_mm256_maddubs_epi16(v0, broadcast32(a)),
                                                           _mm256_maddubs_epi16(v1, broadcast32(a + 4)));
                        isum[c] = _mm256_add_epi32(isum[c], _mm256_madd_epi16(t, scale));
                        in_register(isum[c]);
                    }
                }
            }
            __m256i bsum[NC];
            for (int j = 0; j < 16; j += 2) {
                const __m256i scales = row_i8_two(sc + j * ROWS, sc + (j + 1) * ROWS);
                for (int c = 0; c < NC; ++c) {
                    const __m256i m = _mm256_madd_epi16(scales, broadcast32(x[c][b].bsums + j));
                    bsum[c] = j == 0 ? m : _mm256_add_epi32(bsum[c], m);
                    in_register(bsum[c]);
                }
            }
            const __m256 dv = _mm256_loadu_ps(d);
            for (int c = 0; c < NC; ++c) {
                const __m256i sum = _mm256_sub_epi32(isum[c], _mm256_slli_epi32(bsum[c], 5));
                res[h][c] = _mm256_fmadd_ps(_mm256_set1_ps(x[c][b].d), _mm256_mul_ps(dv, _mm256_cvtepi32_ps(sum)), res[h][c]);
            }
        }
    }
    for (int h = 0; h < 2; ++h) for (int c = 0; c < NC; ++c) _mm256_storeu_ps(y[c] + g * ROWS + 8 * h, res[h][c]);
}

// Q4_1 on AVX2: the AVX-512 kernel's sums, 8 rows a pass
template <int NC>
__attribute__((target("avx2,fma")))
void product_q41_avx2(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const ColumnQ81 * const * x = (const ColumnQ81 * const *) xv;
    const __m256i low4 = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
    for (int h = 0; h < 2; ++h) {
        __m256 res[NC];
        for (int c = 0; c < NC; ++c) res[c] = _mm256_setzero_ps();
        const uint8_t * blk = w.data.get() + g * w.n_blocks * Q41_BLOCK;
        for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q41_BLOCK) {
            if (h == 0) prefetch_block<Q41_BLOCK>(blk);   // the second pass reads the group from cache
            const float * d = (const float *) (blk + Q41_CODES);
            __m256i acc[NC];
            for (int c = 0; c < NC; ++c) acc[c] = _mm256_setzero_si256();
            for (int p = 0; p < 4; ++p) {
                const __m256i v = _mm256_load_si256((const __m256i *) (blk + p * 64 + 32 * h));
                const __m256i lo = _mm256_and_si256(v, low4);
                const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
                for (int c = 0; c < NC; ++c) {
                    const int32_t * a = (const int32_t *) (x[c]->blocks[b].qs + 8 * p);
                    const __m256i plo = _mm256_maddubs_epi16(lo, _mm256_set1_epi32(a[0]));
                    const __m256i phi = _mm256_maddubs_epi16(hi, _mm256_set1_epi32(a[1]));
                    acc[c] = _mm256_add_epi32(acc[c], _mm256_madd_epi16(_mm256_add_epi16(plo, phi), ones));
                }
            }
            const __m256 dv = _mm256_loadu_ps(d + 8 * h), mv = _mm256_loadu_ps(d + ROWS + 8 * h);
            for (int c = 0; c < NC; ++c) {
                const float * ds = x[c]->ds + 2 * b;
                const __m256 t = _mm256_fmadd_ps(_mm256_mul_ps(dv, _mm256_set1_ps(ds[0])), _mm256_cvtepi32_ps(acc[c]),
                                                 _mm256_mul_ps(mv, _mm256_set1_ps(ds[1])));
                res[c] = _mm256_add_ps(res[c], t);
            }
        }
        for (int c = 0; c < NC; ++c) _mm256_storeu_ps(y[c] + g * ROWS + 8 * h, res[c]);
    }
}

// Q8_0 on AVX2: maddubs multiplies unsigned by signed bytes into 16-bit pairs, which codes + 128
// would overflow; so ggml's own way: the codes' magnitudes times x carrying the codes' signs
// (at most 2 * 128 * 127 a pair), the same integer sums
template <int NC>
__attribute__((target("avx2,fma")))
void product_q80_avx2(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const ColumnQ80 * const * x = (const ColumnQ80 * const *) xv;
    const __m256i flip = _mm256_set1_epi8((char) 0x80), ones = _mm256_set1_epi16(1);
    for (int h = 0; h < 2; ++h) {
        __m256 res[NC];
        for (int c = 0; c < NC; ++c) res[c] = _mm256_setzero_ps();
        const uint8_t * blk = w.data.get() + g * w.n_blocks * Q80_BLOCK;
        for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q80_BLOCK) {
            if (h == 0) prefetch_block<Q80_BLOCK>(blk);
            __m256i acc[NC];
            for (int c = 0; c < NC; ++c) acc[c] = _mm256_setzero_si256();
            for (int p = 0; p < 8; ++p) {
                const __m256i v = _mm256_xor_si256(_mm256_load_si256((const __m256i *) (blk + p * 64 + 32 * h)), flip);
                const __m256i mag = _mm256_sign_epi8(v, v);
                for (int c = 0; c < NC; ++c) {
                    const __m256i xs = _mm256_sign_epi8(broadcast32(x[c]->blocks[b].qs + 4 * p), v);
                    acc[c] = _mm256_add_epi32(acc[c], _mm256_madd_epi16(_mm256_maddubs_epi16(mag, xs), ones));
                }
            }
            const __m256 dv = _mm256_loadu_ps((const float *) (blk + Q80_CODES) + 8 * h);
            for (int c = 0; c < NC; ++c) {
                res[c] = _mm256_fmadd_ps(_mm256_mul_ps(dv, _mm256_set1_ps(x[c]->d[b])), _mm256_cvtepi32_ps(acc[c]), res[c]);
            }
        }
        for (int c = 0; c < NC; ++c) _mm256_storeu_ps(y[c] + g * ROWS + 8 * h, res[c]);
    }
}

// a block of zeros: d = 0 and zero codes, as the reference (which leaves the sums unwritten)
inline void zero_block(BlockQ8K & y) {
    y.d = 0;
    std::memset(y.qs, 0, sizeof y.qs);
    std::memset(y.bsums, 0, sizeof y.bsums);
}

// ggml's quantize_row_q8_K_ref per 256 inputs, vectorized: the first input of the largest
// magnitude sets iscale = -127 / that input, each code is rint(iscale * x) (its nearest_int, to
// even) capped at 127, and a block of zeros gets d = 0 and zero codes. The same float operations
// in the same order, so every byte is the reference's (ggml-base is built for x86-64's baseline:
// no FMA fuses the reference's multiply with its rounding's add). x86's ggml runs the scalar
// reference for Q8_K, and every thread of a product quantizes all of x: in a large batch that
// reference was a tenth of the layer's time.
__attribute__((target("avx512f,avx512bw,avx512vl")))
void quantize_q8_k_avx512(const float * x, void * vy, int64_t k) {
    BlockQ8K * y = (BlockQ8K *) vy;
    for (int64_t i = 0; i < k / QK; ++i, x += QK) {
        __m512 amax = _mm512_setzero_ps();
        // max_ps returns its second operand where the first is NaN: NaNs are passed over, as in
        // the reference's `ax > amax`
        for (int j = 0; j < QK; j += 16) amax = _mm512_max_ps(_mm512_abs_ps(_mm512_loadu_ps(x + j)), amax);
        const float m = _mm512_reduce_max_ps(amax);
        if (m == 0.0f) {
            zero_block(y[i]);
            continue;
        }
        float max = 0;
        for (int j = 0; j < QK; j += 16) {
            const __mmask16 hit = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_loadu_ps(x + j)),
                                                     _mm512_set1_ps(m), _CMP_EQ_OQ);
            if (hit) { max = x[j + __builtin_ctz(hit)]; break; }
        }
        const float iscale = -127.f / max;
        const __m512 vs = _mm512_set1_ps(iscale);
        const __m512i cap = _mm512_set1_epi32(127);
        for (int j = 0; j < QK; j += 16) {
            const __m512 p = _mm512_mul_ps(vs, _mm512_loadu_ps(x + j));
            // a NaN's or an infinity's code is the reference's 0 (nearest_int keeps none of their
            // bits; iscale is infinite where the largest input is below ~4e-37), not INT_MIN
            const __mmask16 finite = _mm512_cmp_ps_mask(_mm512_abs_ps(p), _mm512_set1_ps(INFINITY), _CMP_LT_OQ);
            const __m512i v = _mm512_min_epi32(_mm512_maskz_cvtps_epi32(finite, p), cap);
            _mm_storeu_si128((__m128i *) (y[i].qs + j), _mm512_cvtsepi32_epi8(v));
            y[i].bsums[j / 16] = (int16_t) _mm512_reduce_add_epi32(v);
        }
        y[i].d = 1 / iscale;
    }
}

__attribute__((target("avx2"))) inline float max8(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
}
__attribute__((target("avx2"))) inline int32_t sum8(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtsi128_si32(_mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1))));
}

// The same on AVX2, 8 inputs a register; 32 codes are packed at a time (ggml's own AVX2 Q8_0
// packing: two saturating packs, then the 32-bit lanes put back in order)
__attribute__((target("avx2")))
void quantize_q8_k_avx2(const float * x, void * vy, int64_t k) {
    BlockQ8K * y = (BlockQ8K *) vy;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int64_t i = 0; i < k / QK; ++i, x += QK) {
        __m256 amax = _mm256_setzero_ps();
        for (int j = 0; j < QK; j += 8) amax = _mm256_max_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)), amax);
        const float m = max8(amax);
        if (m == 0.0f) {
            zero_block(y[i]);
            continue;
        }
        float max = 0;
        for (int j = 0; j < QK; j += 8) {
            const int hit = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)),
                                                             _mm256_set1_ps(m), _CMP_EQ_OQ));
            if (hit) { max = x[j + __builtin_ctz(hit)]; break; }
        }
        const float iscale = -127.f / max;
        const __m256 vs = _mm256_set1_ps(iscale);
        const __m256i cap = _mm256_set1_epi32(127);
        for (int j = 0; j < QK; j += 32) {
            __m256i v[4];
            for (int q = 0; q < 4; ++q) {
                const __m256 p = _mm256_mul_ps(vs, _mm256_loadu_ps(x + j + 8 * q));
                const __m256i finite = _mm256_castps_si256(
                    _mm256_cmp_ps(_mm256_andnot_ps(sign, p), _mm256_set1_ps(INFINITY), _CMP_LT_OQ));
                v[q] = _mm256_min_epi32(_mm256_and_si256(_mm256_cvtps_epi32(p), finite), cap);
            }
            y[i].bsums[j / 16] = (int16_t) sum8(_mm256_add_epi32(v[0], v[1]));
            y[i].bsums[j / 16 + 1] = (int16_t) sum8(_mm256_add_epi32(v[2], v[3]));
            const __m256i b = _mm256_packs_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
            _mm256_storeu_si256((__m256i *) (y[i].qs + j), _mm256_permutevar8x32_epi32(b, order));
        }
        y[i].d = 1 / iscale;
    }
}

// the kernel for each count of columns: 1..8 on AVX-512; on AVX2 (16 ymm registers) 1..6 for the
// k-quants (a 16-bit and a 32-bit sum a column) and 1..4 for Q4_1 and Q8_0
constexpr int AVX512_COLUMNS = 8, AVX2_COLUMNS = 6, AVX2_Q41_COLUMNS = 4;
GroupProduct x86_kernel(ggml_type type, PackedIsa isa, int nc) {
    static constexpr GroupProduct q4[9] = {nullptr, product_q4<1>, product_q4<2>, product_q4<3>, product_q4<4>,
                                           product_q4<5>, product_q4<6>, product_q4<7>, product_q4<8>};
    static constexpr GroupProduct q6[9] = {nullptr, product_q6<1>, product_q6<2>, product_q6<3>, product_q6<4>,
                                           product_q6<5>, product_q6<6>, product_q6<7>, product_q6<8>};
    static constexpr GroupProduct q4_avx2[7] = {nullptr, product_q4_avx2<1>, product_q4_avx2<2>, product_q4_avx2<3>,
                                                product_q4_avx2<4>, product_q4_avx2<5>, product_q4_avx2<6>};
    static constexpr GroupProduct q6_avx2[7] = {nullptr, product_q6_avx2<1>, product_q6_avx2<2>, product_q6_avx2<3>,
                                                product_q6_avx2<4>, product_q6_avx2<5>, product_q6_avx2<6>};
    static constexpr GroupProduct q41[9] = {nullptr, product_q41<1>, product_q41<2>, product_q41<3>, product_q41<4>,
                                            product_q41<5>, product_q41<6>, product_q41<7>, product_q41<8>};
    static constexpr GroupProduct q41_avx2[5] = {nullptr, product_q41_avx2<1>, product_q41_avx2<2>,
                                                 product_q41_avx2<3>, product_q41_avx2<4>};
    static constexpr GroupProduct q80[9] = {nullptr, product_q80<1>, product_q80<2>, product_q80<3>, product_q80<4>,
                                            product_q80<5>, product_q80<6>, product_q80<7>, product_q80<8>};
    static constexpr GroupProduct q80_avx2[5] = {nullptr, product_q80_avx2<1>, product_q80_avx2<2>,
                                                 product_q80_avx2<3>, product_q80_avx2<4>};
    if (type == GGML_TYPE_Q4_1) return isa == PackedIsa::avx512 ? q41[nc] : q41_avx2[nc];
    if (type == GGML_TYPE_Q8_0) return isa == PackedIsa::avx512 ? q80[nc] : q80_avx2[nc];
    if (isa == PackedIsa::avx512) return type == GGML_TYPE_Q4_K ? q4[nc] : q6[nc];
    return type == GGML_TYPE_Q4_K ? q4_avx2[nc] : q6_avx2[nc];
}

}  // namespace

PackedIsa packed_isa_of_cpu() {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni") ? PackedIsa::avx512
           : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? PackedIsa::avx2
           : PackedIsa::none;
}

GroupProduct packed_kernel(ggml_type type, PackedIsa isa, int nc) {
    if (isa != PackedIsa::avx512 && isa != PackedIsa::avx2) return nullptr;
    return x86_kernel(type, isa, nc);
}

RowQuantizer packed_quantizer(ggml_type x_type, PackedIsa isa) {
    if (x_type != GGML_TYPE_Q8_K) return nullptr;
    return isa == PackedIsa::avx512 ? quantize_q8_k_avx512 : isa == PackedIsa::avx2 ? quantize_q8_k_avx2 : nullptr;
}

int packed_columns(ggml_type type, PackedIsa isa) {
    return isa == PackedIsa::avx512 ? AVX512_COLUMNS
           : type == GGML_TYPE_Q4_1 || type == GGML_TYPE_Q8_0 ? AVX2_Q41_COLUMNS : AVX2_COLUMNS;
}

#endif
