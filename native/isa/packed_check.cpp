// The packed product's claims checked through the C API alone, for a build that cannot run the
// Python tests (a cross-compiled aarch64 engine under QEMU's user-mode emulation):
//   1. each matrix product (every layer matrix and the output matrix, batches of 1 to 40 rows)
//      equals ggml's to float rounding, row by row;
//   2. a forward pass through the whole stack agrees with ggml's products: most rows to float
//      rounding, the rest within a few 8-bit rounding steps (see tests/test_packed.py);
//   3. without a packed product on this CPU, ggml's products run and give finite numbers.
// Usage: packed_check MODEL.gguf [MODEL.gguf ...]; exit status 0 when every claim holds.
#include "codecheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char * what, const char * model) {
    if (!ok) {
        ++failures;
        std::printf("FAIL %s: %s\n", model, what);
    }
}

std::vector<float> product(cc_model * m, int layer, int matrix, const std::vector<float> & x, int n, int n_out, int packed) {
    std::vector<float> out((size_t) n * n_out);
    cc_error err;
    if (cc_model_product(m, layer, matrix, x.data(), n, out.data(), packed, &err) != CC_OK) {
        std::printf("error: %s\n", err.message);
        out.clear();
    }
    return out;
}

std::vector<float> forward(cc_model * m, const cc_model_info & info, const std::vector<int32_t> & tokens, int packed) {
    cc_context_params p = cc_context_default_params();
    p.kv_f32 = 1;
    p.packed = packed;
    p.batch_type = -1;
    cc_error err;
    cc_context * ctx = cc_context_new(m, p, &err);
    std::vector<float> hidden(tokens.size() * (size_t) info.n_embd);
    std::vector<int32_t> rows(tokens.size());
    for (size_t i = 0; i < rows.size(); ++i) rows[i] = (int32_t) i;
    if (!ctx || cc_batch_begin(ctx, tokens.data(), (int32_t) tokens.size(), CC_KV_EXACT, &err) != CC_OK ||
        cc_batch_run(ctx, &err) != CC_OK ||
        cc_batch_hidden(ctx, rows.data(), (int32_t) rows.size(), hidden.data(), &err) != CC_OK ||
        cc_batch_end(ctx, &err) != CC_OK) {
        std::printf("error: %s\n", err.message);
        hidden.clear();
    }
    if (ctx) cc_context_free(ctx);
    return hidden;
}

void check_model(const char * path) {
    cc_error err;
    cc_model * m = cc_model_load(path, &err);
    if (!m) {
        std::printf("FAIL %s: cannot load: %s\n", path, err.message);
        ++failures;
        return;
    }
    cc_model_info info;
    cc_model_get_info(m, &info);
    const int kv = info.n_head_kv * info.head_dim;
    const int shapes[7][2] = {{info.n_embd, info.n_embd}, {info.n_embd, kv}, {info.n_embd, kv}, {info.n_embd, info.n_embd},
                              {info.n_embd, info.n_ff}, {info.n_embd, info.n_ff}, {info.n_ff, info.n_embd}};
    const int isa = cc_packed_supported();
    std::mt19937 rng(7);
    std::normal_distribution<float> normal;
    int products = 0, packed_products = 0;
    for (int n : {1, 3, 8, 40}) {
        for (int layer = -1; layer < info.n_layer; ++layer) {
            for (int matrix = 0; matrix < (layer < 0 ? 1 : 7); ++matrix) {
                const int n_in = layer < 0 ? info.n_embd : shapes[matrix][0];
                const int n_out = layer < 0 ? info.n_vocab : shapes[matrix][1];
                std::vector<float> x((size_t) n * n_in);
                for (float & v : x) v = normal(rng);
                const std::vector<float> ggml = product(m, layer, matrix, x, n, n_out, 0);
                expect(!ggml.empty() && std::all_of(ggml.begin(), ggml.end(), [](float v) { return std::isfinite(v); }),
                       "ggml's product is finite", path);
                ++products;
                if (isa == 0 || ggml.empty()) continue;
                cc_error e2;
                std::vector<float> ours((size_t) n * n_out);
                if (cc_model_product(m, layer, matrix, x.data(), n, ours.data(), 1, &e2) != CC_OK) continue;  // not packed (type)
                ++packed_products;
                for (int r = 0; r < n; ++r) {
                    float scale = 0, diff = 0;
                    for (int j = 0; j < n_out; ++j) {
                        scale = std::max(scale, std::fabs(ggml[(size_t) r * n_out + j]));
                        diff = std::max(diff, std::fabs(ggml[(size_t) r * n_out + j] - ours[(size_t) r * n_out + j]));
                    }
                    if (diff > 1e-5f * scale) {
                        std::printf("  layer %d matrix %d n %d row %d: %g of %g\n", layer, matrix, n, r, diff, scale);
                        expect(false, "a packed product equals ggml's to float rounding", path);
                    }
                }
            }
        }
    }
    std::vector<int32_t> tokens(40);
    for (size_t i = 0; i < tokens.size(); ++i) tokens[i] = (int32_t) ((i * 37 + 11) % (size_t) info.n_vocab);
    const std::vector<float> ggml = forward(m, info, tokens, 0);
    expect(!ggml.empty(), "a forward pass on ggml's products", path);
    int rows_off = 0;
    float worst = 0;
    if (isa != 0 && !ggml.empty()) {
        const std::vector<float> ours = forward(m, info, tokens, 1);
        expect(!ours.empty(), "a forward pass on the packed products", path);
        float scale = 0;
        for (float v : ggml) scale = std::max(scale, std::fabs(v));
        for (size_t r = 0; r < tokens.size() && !ours.empty(); ++r) {
            float diff = 0;
            for (int j = 0; j < info.n_embd; ++j) {
                const size_t k = r * info.n_embd + j;
                diff = std::max(diff, std::fabs(ggml[k] - ours[k]));
            }
            rows_off += diff > 1e-5f * scale;
            worst = std::max(worst, diff / scale);
        }
        expect(worst <= 5e-2f, "the whole stack within a few rounding steps of ggml's", path);
    }
    std::printf("%s: packed isa %d, %d products (%d packed) checked, forward rows beyond float rounding %d of %zu (worst %.2g)\n",
                path, isa, products, packed_products, rows_off, tokens.size(), worst);
    cc_model_free(m);
}

}  // namespace

int main(int argc, char ** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.gguf [MODEL.gguf ...]\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; ++i) check_model(argv[i]);
    std::printf("%s\n", failures ? "packed_check: FAILED" : "packed_check: all claims hold");
    return failures ? 1 : 0;
}
