// The sums the head's statistics need over a row of logits, vectorized on the instructions our
// packed kernels run on (AVX-512 or AVX2; CODECHECK_PACKED_ISA caps both): the row's
// log-normaliser is a pass of exp over every logit (49k for SmolLM2, 152k for Qwen2.5), which
// libm's scalar expf made as costly as the packed product itself.
#pragma once

#include <cstdint>

struct LogitSums {
    float max;       // the largest logit, or `floor` when that is larger
    double sum_exp;  // sum of exp(z - max)
    int32_t above;   // logits greater than `above`
};

// n logits z: their maximum (at least `floor`), the sum of exp(z - max) and the count above
// `above`. The vectorized exp is Cephes' polynomial (within 2 ulp of expf), summed in float over
// 256 logits at a time and in double across them; the count and the maximum are exact.
LogitSums logit_sums(const float * z, int n, float floor, float above);
