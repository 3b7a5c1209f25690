#include "packed.h"
#include "packed_layout.h"

#include "errors.h"

#include "ggml-cpu.h"


#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

using namespace packed_layout;

namespace {

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

// Q8_0: step p of 4 inputs, 64 bytes, row r's 4 codes (ggml's + 128) at r*4; then d.
void pack_q80(const ggml_tensor * w, PackedMatrix & out, int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
        for (int64_t b = 0; b < out.n_blocks; ++b) {
            uint8_t * blk = out.data.get() + (g * out.n_blocks + b) * Q80_BLOCK;
            float * d = (float *) (blk + Q80_CODES);
            for (int r = 0; r < ROWS; ++r) {
                const BlockQ80 & q = *(const BlockQ80 *) ((const char *) w->data + (g * ROWS + r) * w->nb[1] + b * sizeof(BlockQ80));
                d[r] = ggml_fp16_to_fp32(q.d);
                for (int p = 0; p < QK80 / 4; ++p) {
                    for (int j = 0; j < 4; ++j) blk[p * 64 + r * 4 + j] = (uint8_t) (q.qs[4 * p + j] + 128);
                }
            }
        }
    }
}

// inputs a block of the type covers, and the bytes of a group's block
int64_t block_inputs(ggml_type type) { return type == GGML_TYPE_Q4_1 ? QK41 : type == GGML_TYPE_Q8_0 ? QK80 : QK; }
size_t block_bytes(ggml_type type) {
    return type == GGML_TYPE_Q4_K ? Q4_BLOCK : type == GGML_TYPE_Q6_K ? Q6_BLOCK : type == GGML_TYPE_Q4_1 ? Q41_BLOCK : Q80_BLOCK;
}

}  // namespace

RowQuantizer input_quantizer(ggml_type x_type, PackedIsa isa) {
    const RowQuantizer ours = packed_quantizer(x_type, isa);
    return ours ? ours : ggml_get_type_traits_cpu(x_type)->from_float;
}

namespace {

// dst = w x for the output groups this thread owns; every thread quantizes all of x (small
// beside the product: input_quantizer) so that no thread waits for another. Groups outside,
// columns inside: a group's rows (at most ~150 KB) stay in the core's cache while all of x
// passes them, so the matrix is read from memory once per product, not once per 8 columns.
void packed_op(ggml_tensor * dst, int ith, int nth, void * userdata) {
    const PackedMatrix::Op & op = *(const PackedMatrix::Op *) userdata;
    const PackedMatrix & w = *op.matrix;
    const ggml_tensor * x = dst->src[0];
    const int n = (int) x->ne[1];
    const int64_t g0 = w.n_groups * ith / nth, g1 = w.n_groups * (ith + 1) / nth;
    if (g0 == g1) return;
    // x in ggml's 8-bit type for the matrix's (Q8_K for the k-quants, Q8_1 for Q4_1, Q8_0 for Q8_0)
    const ggml_type x_type = w.type == GGML_TYPE_Q4_1 ? GGML_TYPE_Q8_1 : w.type == GGML_TYPE_Q8_0 ? GGML_TYPE_Q8_0 : GGML_TYPE_Q8_K;
    const size_t x_row = ggml_row_size(x_type, w.n_in);
    thread_local std::vector<uint8_t> xq;
    thread_local std::vector<float> x_ds;
    thread_local std::vector<ColumnQ81> x_cols;
    thread_local std::vector<int32_t> x_sums;
    thread_local std::vector<ColumnQ80> x_cols80;
    thread_local std::vector<const void *> xs;
    thread_local std::vector<float *> ys;
    xq.resize(n * x_row);
    xs.resize(n);
    ys.resize(n);
    const RowQuantizer to_q8 = input_quantizer(x_type, op.isa);
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
    } else if (w.type == GGML_TYPE_Q8_0) {  // d as f32 and 128 * the codes' sum, once
        x_ds.resize((size_t) n * w.n_blocks);
        x_sums.resize((size_t) n * w.n_blocks);
        x_cols80.resize(n);
        for (int c = 0; c < n; ++c) {
            const BlockQ80 * blocks = (const BlockQ80 *) xs[c];
            float * d = x_ds.data() + (size_t) c * w.n_blocks;
            int32_t * sums = x_sums.data() + (size_t) c * w.n_blocks;
            for (int64_t b = 0; b < w.n_blocks; ++b) {
                d[b] = ggml_fp16_to_fp32(blocks[b].d);
                int32_t sum = 0;
                for (int j = 0; j < QK80; ++j) sum += blocks[b].qs[j];
                sums[b] = 128 * sum;
            }
            x_cols80[c] = {blocks, d, sums};
            xs[c] = &x_cols80[c];
        }
    }
    // the columns in as few kernel calls as the registers allow, of sizes as even as they can be
    // (9 columns on 8 registers: 5 and 4, not 8 and 1)
    const int width = packed_columns(w.type, op.isa), calls = (n + width - 1) / width;
    for (int64_t g = g0; g < g1; ++g) {
        for (int k = 0, c = 0; k < calls; ++k) {
            const int nc = (n - c) / (calls - k);
            packed_kernel(w.type, op.isa, nc)(w, xs.data() + c, ys.data() + c, g);
            c += nc;
        }
    }
}

}  // namespace

size_t PackedMatrix::bytes() const {
    return (size_t) n_groups * n_blocks * block_bytes(type);
}

PackedIsa packed_isa() {
    static const PackedIsa isa = [] {
        const PackedIsa cpu = packed_isa_of_cpu();
        const char * cap = std::getenv("CODECHECK_PACKED_ISA");
        if (!cap || !*cap) return cpu;
        const std::string c = cap;
        if (c == "none") return PackedIsa::none;
        if (c == "avx2" && cpu == PackedIsa::avx512) return PackedIsa::avx2;
        if (c != "avx2" && c != "avx512" && c != "neon") {
            std::fprintf(stderr, "codecheck: CODECHECK_PACKED_ISA=%s is not avx512, avx2, neon or none: ignored\n", cap);
        }
        return cpu;  // a cap at or above what the CPU has, or another family's: the CPU's own
    }();
    return isa;
}

PackedIsa packed_isa_for(int packed) {
    if (packed == 1) return packed_isa();
    if (packed == 2 && (packed_isa() == PackedIsa::avx2 || packed_isa() == PackedIsa::avx512)) return PackedIsa::avx2;
    return PackedIsa::none;
}

bool packed_accepts(const ggml_tensor * w) {
    const bool k_quant = w->type == GGML_TYPE_Q4_K || w->type == GGML_TYPE_Q6_K;
    // Q4_1 and Q8_0 (SmolLM2's layers and head) where this CPU has a kernel for them
    const bool small_blocks = (w->type == GGML_TYPE_Q4_1 || w->type == GGML_TYPE_Q8_0) && packed_kernel(w->type, packed_isa(), 1);
    return (k_quant || small_blocks) && w->ne[0] % block_inputs(w->type) == 0 && w->ne[1] % ROWS == 0 && w->ne[2] == 1 && w->ne[3] == 1;
}

#if !defined(__x86_64__) && !defined(_M_X64) && !(defined(__aarch64__) && defined(__linux__))
// a CPU family without kernels of ours: ggml's products throughout
PackedIsa packed_isa_of_cpu() { return PackedIsa::none; }
GroupProduct packed_kernel(ggml_type, PackedIsa, int) { return nullptr; }
int packed_columns(ggml_type, PackedIsa) { return 1; }
RowQuantizer packed_quantizer(ggml_type, PackedIsa) { return nullptr; }
#endif

void packed_build(const std::vector<const ggml_tensor *> & ws, PackedWeights & out) {
    std::vector<std::pair<const ggml_tensor *, PackedMatrix *>> jobs;
    for (const ggml_tensor * w : ws) {
        if (!packed_accepts(w) || out.by_matrix.count(w)) continue;
        PackedMatrix & m = out.by_matrix[w];
        m.type = w->type;
        for (PackedIsa isa : {PackedIsa::avx2, PackedIsa::avx512, PackedIsa::neon}) m.ops[(int) isa] = {&m, isa};
        m.n_in = w->ne[0];
        m.n_out = w->ne[1];
        m.n_blocks = m.n_in / block_inputs(m.type);
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
            else if (m->type == GGML_TYPE_Q4_1) pack_q41(w, *m, g0, g1);
            else pack_q80(w, *m, g0, g1);
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
    return p && packed_kernel(p->type, isa, 1) ? packed_mul_mat(ctx, *p, x, isa) : ggml_mul_mat(ctx, w, x);
}

ggml_tensor * packed_mul_mat(ggml_context * ctx, const PackedMatrix & w, ggml_tensor * x, PackedIsa isa) {
    GGML_ASSERT(x->type == GGML_TYPE_F32 && x->ne[0] == w.n_in && x->nb[0] == sizeof(float));
    GGML_ASSERT(packed_kernel(w.type, isa, 1) && (isa == packed_isa() || (isa == PackedIsa::avx2 && packed_isa() == PackedIsa::avx512)));
    ggml_tensor * args[1] = {x};
    return ggml_custom_4d(ctx, GGML_TYPE_F32, w.n_out, x->ne[1], 1, 1, args, 1, packed_op, GGML_N_TASKS_MAX,
                          (void *) &w.ops[(int) isa]);
}

void matrix_product(const ggml_tensor * w, const PackedWeights * packed, PackedIsa isa, const float * x, int64_t n,
                    float * out) {
    const PackedMatrix * p = isa == PackedIsa::none || !packed ? nullptr : packed->find(w);
    if (isa != PackedIsa::none && !p) CC_THROW(CC_ERR_ARGUMENT, -1, "", "this matrix has no packed copy");
    const size_t bytes = (size_t) n * (2 * w->ne[0] + w->ne[1]) * sizeof(float) + 4 * ggml_tensor_overhead() +
                         ggml_graph_overhead() + (1 << 16);
    ggml_cpu_init();  // the CPU backend's tables (a model's sessions may not have made them yet)
    ggml_init_params ip = {bytes, nullptr, false};
    ggml_context * ctx = ggml_init(ip);
    if (!ctx) CC_THROW(CC_ERR_NO_MEMORY, -1, "", "cannot allocate a product's graph");
    ggml_tensor * xt = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, w->ne[0], n);
    std::memcpy(xt->data, x, ggml_nbytes(xt));
    ggml_tensor * y = p ? packed_mul_mat(ctx, *p, xt, isa) : ggml_mul_mat(ctx, const_cast<ggml_tensor *>(w), xt);
    ggml_cgraph * gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, y);
    ggml_cplan plan = ggml_graph_plan(gf, 1, nullptr);
    std::vector<uint8_t> work(plan.work_size);
    plan.work_data = work.data();
    const ggml_status st = ggml_graph_compute(gf, &plan);
    if (st == GGML_STATUS_SUCCESS) std::memcpy(out, y->data, ggml_nbytes(y));
    ggml_free(ctx);
    if (st != GGML_STATUS_SUCCESS) CC_THROW(CC_ERR_COMPUTE, -1, "", "ggml graph computation failed");
}
