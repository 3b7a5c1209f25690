#include "batch_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const char MAGIC[8] = {'C', 'C', 'B', 'A', 'T', 'C', 'H', 'W'};
// bump when the conversion or this layout changes: older files are then rebuilt
const uint32_t FORMAT = 1;
const size_t TENSOR_ALIGN = 64;
const size_t PAYLOAD_ALIGN = 4096;

struct Header {
    char magic[8];
    uint32_t format;
    int32_t type;
    uint64_t model_file_size;
    uint64_t n_tensors;
    uint64_t payload_offset;
    uint64_t payload_bytes;
    uint64_t checksum;       // of every matrix's bytes, combined in order (see checksum())
    char ggml[64];           // ggml's version and commit: its dequantization made the copies
};

struct Entry {               // one per matrix, in layer order (wq wk wv wo gate up down)
    int64_t ne0, ne1;
    uint64_t offset;         // from the payload's start
    uint64_t bytes;
};

std::vector<const ggml_tensor *> matrices(const cc_model & m) {
    std::vector<const ggml_tensor *> out;
    for (const LayerWeights & w : m.weights.layers) {
        for (const ggml_tensor * t : {w.wq, w.wk, w.wv, w.wo, w.ffn_gate, w.ffn_up, w.ffn_down}) out.push_back(t);
    }
    return out;
}

size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

// What the file must hold for this model and type: the entries and the payload's size.
std::vector<Entry> layout(const cc_model & m, ggml_type type, uint64_t * payload_bytes) {
    std::vector<Entry> out;
    uint64_t off = 0;
    for (const ggml_tensor * t : matrices(m)) {
        const uint64_t bytes = ggml_row_size(type, t->ne[0]) * t->ne[1];
        out.push_back({t->ne[0], t->ne[1], off, bytes});
        off = align_up(off + bytes, TENSOR_ALIGN);
    }
    *payload_bytes = off;
    return out;
}

void ggml_id(char (&out)[64]) {
    memset(out, 0, sizeof(out));
    snprintf(out, sizeof(out), "%s %s", ggml_version(), ggml_commit());
}

// A 64-bit checksum over the data, four independent lanes so it runs at memory speed; it detects
// damaged or mixed-up files, not tampering.
uint64_t checksum_range(const uint8_t * p, size_t n) {
    const uint64_t P = 0x9E3779B97F4A7C15ull;
    uint64_t h[4] = {1, 2, 3, 4};
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, 32);
        for (int j = 0; j < 4; ++j) h[j] = (h[j] ^ w[j]) * P;
    }
    for (; i < n; ++i) h[0] = (h[0] ^ p[i]) * P;
    uint64_t out = n;
    for (int j = 0; j < 4; ++j) out = (out ^ (h[j] >> 29) ^ h[j]) * P;
    return out;
}

// The checksum of several ranges (one per matrix) computed over the cores and combined in order,
// so the value does not depend on the thread count.
uint64_t checksum(const std::vector<std::pair<const uint8_t *, size_t>> & ranges) {
    std::vector<uint64_t> part(ranges.size());
    const int n_threads = (int) std::max(1u, std::min(std::thread::hardware_concurrency(), 8u));
    auto work = [&](int k) {
        for (size_t i = k; i < ranges.size(); i += n_threads) part[i] = checksum_range(ranges[i].first, ranges[i].second);
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < n_threads; ++k) pool.emplace_back(work, k);
    work(0);
    for (auto & t : pool) t.join();
    return checksum_range((const uint8_t *) part.data(), part.size() * sizeof(uint64_t));
}

}  // namespace

bool batch_cache_load(const cc_model & m, ggml_type type, const std::string & path, BatchWeights & bw) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t) sizeof(Header)) {
        close(fd);
        return false;
    }
    const size_t size = (size_t) st.st_size;
    void * map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return false;
    const uint8_t * base = (const uint8_t *) map;
    bool ok = false;
    do {
        Header h;
        memcpy(&h, base, sizeof(h));
        char want_ggml[64];
        ggml_id(want_ggml);
        uint64_t payload_bytes = 0;
        const std::vector<Entry> want = layout(m, type, &payload_bytes);
        if (memcmp(h.magic, MAGIC, sizeof(MAGIC)) != 0 || h.format != FORMAT || h.type != (int32_t) type ||
            h.model_file_size != (uint64_t) m.file.size || memcmp(h.ggml, want_ggml, sizeof(want_ggml)) != 0 ||
            h.n_tensors != want.size() || h.payload_bytes != payload_bytes ||
            h.payload_offset != align_up(sizeof(Header) + want.size() * sizeof(Entry), PAYLOAD_ALIGN) ||
            h.payload_offset + h.payload_bytes != size) {
            break;
        }
        if (memcmp(base + sizeof(Header), want.data(), want.size() * sizeof(Entry)) != 0) break;
        const uint8_t * payload = base + h.payload_offset;
        std::vector<std::pair<const uint8_t *, size_t>> ranges;
        for (const Entry & e : want) ranges.emplace_back(payload + e.offset, e.bytes);
        if (checksum(ranges) != h.checksum) break;

        ggml_init_params ip = {ggml_tensor_overhead() * (want.size() + 8), nullptr, /*no_alloc=*/true};
        bw.ctx = ggml_init(ip);
        if (!bw.ctx) break;
        const std::vector<const ggml_tensor *> src = matrices(m);
        size_t k = 0;
        auto mapped = [&](const ggml_tensor * s) {
            ggml_tensor * t = ggml_new_tensor_2d(bw.ctx, type, s->ne[0], s->ne[1]);
            ggml_set_name(t, s->name);
            t->data = const_cast<uint8_t *>(payload + want[k++].offset);
            return t;
        };
        for (const LayerWeights & w : m.weights.layers) bw.layers.push_back(w.with_matrices(mapped));
        bw.type = type;
        bw.bytes = payload_bytes;
        bw.map = map;
        bw.map_size = size;
        bw.from_cache = true;
        ok = true;
    } while (false);
    if (!ok) munmap(map, size);
    return ok;
}

void batch_cache_save(const cc_model & m, const BatchWeights & bw, const std::string & path) {
    uint64_t payload_bytes = 0;
    const std::vector<Entry> entries = layout(m, bw.type, &payload_bytes);
    Header h;
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, MAGIC, sizeof(MAGIC));
    h.format = FORMAT;
    h.type = (int32_t) bw.type;
    h.model_file_size = m.file.size;
    h.n_tensors = entries.size();
    h.payload_offset = align_up(sizeof(Header) + entries.size() * sizeof(Entry), PAYLOAD_ALIGN);
    h.payload_bytes = payload_bytes;
    ggml_id(h.ggml);

    std::vector<std::pair<const uint8_t *, size_t>> ranges;
    size_t k = 0;
    for (const LayerWeights & w : bw.layers) {
        for (const ggml_tensor * t : {w.wq, w.wk, w.wv, w.wo, w.ffn_gate, w.ffn_up, w.ffn_down}) {
            ranges.emplace_back((const uint8_t *) t->data, entries[k++].bytes);
        }
    }
    h.checksum = checksum(ranges);

    const std::string tmp = path + "." + std::to_string(getpid()) + ".tmp";
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    std::vector<uint8_t> head(h.payload_offset, 0);
    memcpy(head.data(), &h, sizeof(h));
    memcpy(head.data() + sizeof(h), entries.data(), entries.size() * sizeof(Entry));
    auto write_all = [&](const uint8_t * p, size_t n) {
        while (n > 0) {
            const ssize_t w = write(fd, p, n);
            if (w <= 0) return false;
            p += w;
            n -= (size_t) w;
        }
        return true;
    };
    bool ok = write_all(head.data(), head.size());
    const std::vector<uint8_t> zeros(TENSOR_ALIGN, 0);
    uint64_t at = 0;  // bytes of the payload written
    for (size_t i = 0; ok && i < entries.size(); ++i) {
        ok = write_all(zeros.data(), entries[i].offset - at) && write_all(ranges[i].first, ranges[i].second);
        at = entries[i].offset + entries[i].bytes;
    }
    ok = ok && write_all(zeros.data(), payload_bytes - at);
    if (close(fd) != 0 || !ok || rename(tmp.c_str(), path.c_str()) != 0) unlink(tmp.c_str());
}
