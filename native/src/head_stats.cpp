#include "head_stats.h"

#include "packed.h"

#include <algorithm>
#include <cmath>

namespace {

LogitSums scalar_sums(const float * z, int n, float floor, float above) {
    float mx = floor;
    for (int j = 0; j < n; ++j) mx = std::max(mx, z[j]);
    double sum = 0.0;
    int32_t count = 0;
    for (int j = 0; j < n; ++j) {
        sum += expf(z[j] - mx);
        count += z[j] > above;
    }
    return {mx, sum, count};
}

}  // namespace

#if defined(__x86_64__) || defined(_M_X64)
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*() (GCC bug 105593)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

namespace {

// Cephes' expf: n = round(x log2 e), r = x - n ln 2 (in two parts), e^r by a degree-6
// polynomial, times 2^n through the exponent bits; x below -87 gives e^-87 (~1.6e-38), which
// no sum of at most 2^24 terms that holds exp(0) = 1 can see
constexpr float LOG2E = 1.44269504088896341f, LN2_HI = 0.693359375f, LN2_LO = -2.12194440e-4f, LOWEST = -87.0f;
constexpr float P0 = 1.9875691500e-4f, P1 = 1.3981999507e-3f, P2 = 8.3334519073e-3f, P3 = 4.1665795894e-2f,
                P4 = 1.6666665459e-1f, P5 = 5.0000001201e-1f;
constexpr int CHUNK = 256;  // logits summed in float before the sum moves to double

__attribute__((target("avx512f"))) inline __m512 exp16(__m512 x) {
    x = _mm512_max_ps(x, _mm512_set1_ps(LOWEST));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(LN2_HI), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(LN2_LO), r);
    __m512 p = _mm512_set1_ps(P0);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(P1));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(P2));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(P3));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(P4));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(P5));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    const __m512i e = _mm512_slli_epi32(_mm512_cvtps_epi32(n), 23);
    return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(p), e));
}

__attribute__((target("avx512f"))) LogitSums sums_avx512(const float * z, int n, float floor, float above) {
    __m512 vmax = _mm512_set1_ps(floor);
    int j = 0;
    for (; j + 16 <= n; j += 16) vmax = _mm512_max_ps(vmax, _mm512_loadu_ps(z + j));
    const __mmask16 tail = (__mmask16) ((1u << (n - j)) - 1);
    vmax = _mm512_mask_max_ps(vmax, tail, vmax, _mm512_maskz_loadu_ps(tail, z + j));
    const float mx = _mm512_reduce_max_ps(vmax);
    const __m512 m = _mm512_set1_ps(mx), a = _mm512_set1_ps(above);
    double sum = 0.0;
    int32_t count = 0;
    for (int c = 0; c < n; c += CHUNK) {
        const int end = std::min(n, c + CHUNK);
        __m512 acc = _mm512_setzero_ps();
        for (j = c; j < end; j += 16) {
            const __mmask16 k = end - j >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << (end - j)) - 1);
            const __m512 v = _mm512_maskz_loadu_ps(k, z + j);
            acc = _mm512_add_ps(acc, _mm512_maskz_mov_ps(k, exp16(_mm512_sub_ps(v, m))));
            count += __builtin_popcount(_mm512_mask_cmp_ps_mask(k, v, a, _CMP_GT_OQ));
        }
        sum += _mm512_reduce_add_ps(acc);
    }
    return {mx, sum, count};
}

__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x) {
    x = _mm256_max_ps(x, _mm256_set1_ps(LOWEST));
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(LOG2E)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_HI), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_LO), r);
    __m256 p = _mm256_set1_ps(P0);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(P1));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(P2));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(P3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(P4));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(P5));
    p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    const __m256i e = _mm256_slli_epi32(_mm256_cvtps_epi32(n), 23);
    return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(p), e));
}

__attribute__((target("avx2,fma"))) inline float hsum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

__attribute__((target("avx2,fma"))) LogitSums sums_avx2(const float * z, int n, float floor, float above) {
    __m256 vmax = _mm256_set1_ps(floor);
    int j = 0;
    for (; j + 8 <= n; j += 8) vmax = _mm256_max_ps(vmax, _mm256_loadu_ps(z + j));
    float lanes[8];
    _mm256_storeu_ps(lanes, vmax);
    float mx = *std::max_element(lanes, lanes + 8);
    for (; j < n; ++j) mx = std::max(mx, z[j]);
    const __m256 m = _mm256_set1_ps(mx), a = _mm256_set1_ps(above);
    double sum = 0.0;
    int32_t count = 0;
    for (int c = 0; c < n; c += CHUNK) {
        const int end = std::min(n, c + CHUNK);
        __m256 acc = _mm256_setzero_ps();
        for (j = c; j + 8 <= end; j += 8) {
            const __m256 v = _mm256_loadu_ps(z + j);
            acc = _mm256_add_ps(acc, exp8(_mm256_sub_ps(v, m)));
            count += __builtin_popcount(_mm256_movemask_ps(_mm256_cmp_ps(v, a, _CMP_GT_OQ)));
        }
        float part = hsum8(acc);
        for (; j < end; ++j) {  // the chunk's last few: the same polynomial, one lane used
            part += _mm256_cvtss_f32(exp8(_mm256_set1_ps(z[j] - mx)));
            count += z[j] > above;
        }
        sum += part;
    }
    return {mx, sum, count};
}

}  // namespace

LogitSums logit_sums(const float * z, int n, float floor, float above) {
    // the instructions of our own kernels (packed.h: the CPU's, capped by CODECHECK_PACKED_ISA)
    static const PackedIsa isa = packed_isa();
    if (n <= 0) return {floor, 0.0, 0};
    if (isa == PackedIsa::avx512) return sums_avx512(z, n, floor, above);
    if (isa == PackedIsa::avx2) return sums_avx2(z, n, floor, above);
    return scalar_sums(z, n, floor, above);
}

#else

LogitSums logit_sums(const float * z, int n, float floor, float above) { return scalar_sums(z, n, floor, above); }

#endif
