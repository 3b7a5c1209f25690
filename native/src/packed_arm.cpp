// The packed product's kernels for 64-bit ARM with the dot-product instructions (Apple Silicon,
// Graviton 2 and later, Armv8.2-A+): a 128-bit register holds 4 rows x 4 inputs of a 64-byte step,
// and one SDOT adds each row's 4 products to its 32-bit sum. The codes (0..15, 0..63) are
// non-negative, so the signed dot product of ggml's signed 8-bit inputs is exact, as on x86.
#include "packed_layout.h"

#if defined(__aarch64__) && defined(__linux__)

#include <arm_neon.h>
#include <sys/auxv.h>

#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif

using namespace packed_layout;

namespace {

// each pass takes 4 of a group's 16 rows (rows 4q..4q+3), keeping the 32 registers for NC columns
constexpr int NEON_COLUMNS = 4;

inline int8x16_t broadcast4(const int8_t * x) {
    int32_t v;
    __builtin_memcpy(&v, x, 4);
    return vreinterpretq_s8_s32(vdupq_n_s32(v));
}

inline int32x4_t widen4(const uint8_t * p) { return int32x4_t{p[0], p[1], p[2], p[3]}; }
inline int32x4_t widen4(const int8_t * p) { return int32x4_t{p[0], p[1], p[2], p[3]}; }

// ggml's vec_dot_q4_K_q8_K per super-block: d_x * (d * sum_s scale_s * <codes, x>_s - dmin * sum_s min_s * sum(x)_s)
template <int NC>
__attribute__((target("arch=armv8.2-a+dotprod")))
void product_q4_neon(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    const uint8x16_t low4 = vdupq_n_u8(0x0F);
    for (int q = 0; q < 4; ++q) {
        float32x4_t res[NC];
        for (int c = 0; c < NC; ++c) res[c] = vdupq_n_f32(0.0f);
        const uint8_t * blk = w.data.get() + g * w.n_blocks * Q4_BLOCK;
        for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q4_BLOCK) {
            const uint8_t * sc = blk + Q4_CODES;
            const uint8_t * mn = sc + Q4_SCALES;
            const float * d = (const float *) (mn + Q4_MINS);
            int32x4_t isum[NC], msum[NC];
            for (int c = 0; c < NC; ++c) isum[c] = msum[c] = vdupq_n_s32(0);
            for (int s = 0; s < 8; ++s) {
                int32x4_t acc[NC];
                for (int c = 0; c < NC; ++c) acc[c] = vdupq_n_s32(0);
                for (int p = 0; p < 4; ++p) {
                    const uint8x16_t v = vld1q_u8(blk + (s * 4 + p) * 64 + 16 * q);
                    const int8x16_t lo = vreinterpretq_s8_u8(vandq_u8(v, low4));
                    const int8x16_t hi = vreinterpretq_s8_u8(vshrq_n_u8(v, 4));
                    for (int c = 0; c < NC; ++c) {
                        const int8_t * a = x[c][b].qs + 32 * s + 8 * p;
                        acc[c] = vdotq_s32(acc[c], lo, broadcast4(a));
                        acc[c] = vdotq_s32(acc[c], hi, broadcast4(a + 4));
                    }
                }
                const int32x4_t scale = widen4(sc + s * ROWS + 4 * q);
                const int32x4_t mins = widen4(mn + s * ROWS + 4 * q);
                for (int c = 0; c < NC; ++c) {
                    isum[c] = vmlaq_s32(isum[c], acc[c], scale);
                    msum[c] = vmlaq_n_s32(msum[c], mins, x[c][b].bsums[2 * s] + x[c][b].bsums[2 * s + 1]);
                }
            }
            const float32x4_t dv = vld1q_f32(d + 4 * q), dminv = vld1q_f32(d + ROWS + 4 * q);
            for (int c = 0; c < NC; ++c) {
                const float32x4_t m = vmulq_f32(dminv, vcvtq_f32_s32(msum[c]));
                const float32x4_t t = vfmaq_f32(vnegq_f32(m), dv, vcvtq_f32_s32(isum[c]));
                res[c] = vfmaq_f32(res[c], vdupq_n_f32(x[c][b].d), t);
            }
        }
        for (int c = 0; c < NC; ++c) vst1q_f32(y[c] + g * ROWS + 4 * q, res[c]);
    }
}

// ggml's vec_dot_q6_K_q8_K per super-block: d_x * d * sum_j scale_j * (<codes, x>_j - 32 sum(x)_j)
template <int NC>
__attribute__((target("arch=armv8.2-a+dotprod")))
void product_q6_neon(const PackedMatrix & w, const void * const * xv, float * const * y, int64_t g) {
    const BlockQ8K * const * x = (const BlockQ8K * const *) xv;
    for (int q = 0; q < 4; ++q) {
        float32x4_t res[NC];
        for (int c = 0; c < NC; ++c) res[c] = vdupq_n_f32(0.0f);
        const uint8_t * blk = w.data.get() + g * w.n_blocks * Q6_BLOCK;
        for (int64_t b = 0; b < w.n_blocks; ++b, blk += Q6_BLOCK) {
            const int8_t * sc = (const int8_t *) (blk + Q6_CODES);
            const float * d = (const float *) (blk + Q6_CODES + Q6_SCALES);
            int32x4_t isum[NC];
            for (int c = 0; c < NC; ++c) isum[c] = vdupq_n_s32(0);
            for (int j = 0; j < 16; ++j) {
                int32x4_t acc[NC];
                for (int c = 0; c < NC; ++c) acc[c] = vdupq_n_s32(-32 * x[c][b].bsums[j]);
                for (int p = 0; p < 4; ++p) {
                    const int8x16_t v = vreinterpretq_s8_u8(vld1q_u8(blk + (j * 4 + p) * 64 + 16 * q));
                    for (int c = 0; c < NC; ++c) acc[c] = vdotq_s32(acc[c], v, broadcast4(x[c][b].qs + 16 * j + 4 * p));
                }
                const int32x4_t scale = widen4(sc + j * ROWS + 4 * q);
                for (int c = 0; c < NC; ++c) isum[c] = vmlaq_s32(isum[c], acc[c], scale);
            }
            const float32x4_t dv = vld1q_f32(d + 4 * q);
            for (int c = 0; c < NC; ++c) {
                res[c] = vfmaq_f32(res[c], vdupq_n_f32(x[c][b].d), vmulq_f32(dv, vcvtq_f32_s32(isum[c])));
            }
        }
        for (int c = 0; c < NC; ++c) vst1q_f32(y[c] + g * ROWS + 4 * q, res[c]);
    }
}

}  // namespace

PackedIsa packed_isa_of_cpu() {
    return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) ? PackedIsa::neon : PackedIsa::none;
}

GroupProduct packed_kernel(ggml_type type, PackedIsa isa, int nc) {
    static constexpr GroupProduct q4[NEON_COLUMNS + 1] = {nullptr, product_q4_neon<1>, product_q4_neon<2>,
                                                          product_q4_neon<3>, product_q4_neon<4>};
    static constexpr GroupProduct q6[NEON_COLUMNS + 1] = {nullptr, product_q6_neon<1>, product_q6_neon<2>,
                                                          product_q6_neon<3>, product_q6_neon<4>};
    if (isa != PackedIsa::neon) return nullptr;
    return type == GGML_TYPE_Q4_K ? q4[nc] : type == GGML_TYPE_Q6_K ? q6[nc] : nullptr;
}

// ggml's own (its Q8_K is the scalar reference here too): a NEON quantizer of ours was tried and
// dropped, its products moved off ggml's under QEMU (bench/reports/failure-latency-prefetch)
RowQuantizer packed_quantizer(ggml_type, PackedIsa) { return nullptr; }

int packed_columns(ggml_type, PackedIsa) { return NEON_COLUMNS; }

#endif
