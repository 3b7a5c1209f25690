#include "gguf_reader.h"

#include "errors.h"

#include "ggml.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// Bounds that no real model reaches but that keep a hostile header from making us allocate or
// loop without end before the size checks below catch it.
static const uint64_t MAX_STRING = 1ull << 26;   // 64 MiB (the chat template is ~KBs)
static const uint64_t MAX_TENSORS = 1ull << 20;
static const uint64_t MAX_KV = 1ull << 20;

gguf_file::~gguf_file() {
    if (base) munmap(const_cast<uint8_t *>(base), size);
    if (fd >= 0) close(fd);
}

const gguf_value * gguf_file::find(const std::string & key) const {
    auto it = kv.find(key);
    return it == kv.end() ? nullptr : &it->second;
}

const gguf_tensor_info * gguf_file::tensor(const std::string & name) const {
    auto it = tensor_index.find(name);
    return it == tensor_index.end() ? nullptr : &tensors[it->second];
}

namespace {

// Sequential reader over the mapping; every read checks the remaining size first.
struct reader {
    const uint8_t * p;
    size_t size;
    size_t pos = 0;
    std::string what;  // what is being read, for error messages

    void need(uint64_t n, const std::string & key) const {
        if (n > size - pos) {
            CC_THROW(CC_ERR_TRUNCATED, (int64_t) pos, key,
                     "file truncated: %s needs %llu bytes at offset %zu but only %zu remain",
                     what.c_str(), (unsigned long long) n, pos, size - pos);
        }
    }
    template <typename T> T get(const std::string & key = "") {
        need(sizeof(T), key);
        T v;
        memcpy(&v, p + pos, sizeof(T));
        pos += sizeof(T);
        return v;
    }
    std::string str(const std::string & key = "") {
        size_t at = pos;
        uint64_t n = get<uint64_t>(key);
        if (n > MAX_STRING) {
            CC_THROW(CC_ERR_METADATA, (int64_t) at, key, "%s: string length %llu is absurd",
                     what.c_str(), (unsigned long long) n);
        }
        need(n, key);
        std::string s((const char *) p + pos, n);
        pos += n;
        return s;
    }
};

size_t scalar_size(uint32_t t) {
    switch (t) {
        case GV_UINT8: case GV_INT8: case GV_BOOL: return 1;
        case GV_UINT16: case GV_INT16: return 2;
        case GV_UINT32: case GV_INT32: case GV_FLOAT32: return 4;
        case GV_UINT64: case GV_INT64: case GV_FLOAT64: return 8;
        default: return 0;
    }
}

void read_scalar(reader & r, uint32_t t, gguf_value & v, const std::string & key) {
    switch (t) {
        case GV_UINT8:   v.i = r.get<uint8_t>(key); break;
        case GV_INT8:    v.i = r.get<int8_t>(key); break;
        case GV_UINT16:  v.i = r.get<uint16_t>(key); break;
        case GV_INT16:   v.i = r.get<int16_t>(key); break;
        case GV_UINT32:  v.i = r.get<uint32_t>(key); break;
        case GV_INT32:   v.i = r.get<int32_t>(key); break;
        case GV_UINT64:  v.i = (int64_t) r.get<uint64_t>(key); break;
        case GV_INT64:   v.i = r.get<int64_t>(key); break;
        case GV_BOOL:    v.i = r.get<uint8_t>(key) != 0; break;
        // a float keeps i = 0 (meta_int refuses floats): converting one outside the int64 range
        // (or NaN) would be undefined behaviour
        case GV_FLOAT32: v.f = r.get<float>(key); break;
        case GV_FLOAT64: v.f = r.get<double>(key); break;
        default: break;
    }
    if (t != GV_FLOAT32 && t != GV_FLOAT64) v.f = (double) v.i;
}

// A key or tensor name is a C string everywhere past the reader (ggml's tensor names, cc_error.key,
// messages): a NUL inside would cut it short, so that no error could name it.
void refuse_nul(int code, const std::string & name, int64_t offset, const std::string & what) {
    const size_t at = name.find('\0');
    if (at != std::string::npos) {
        CC_THROW(code, offset, "", "%s has a NUL byte at position %zu", what.c_str(), at);
    }
}

bool valid_ggml_type(uint32_t t) {
    if (t >= GGML_TYPE_COUNT) return false;
    // removed types keep their enum slot but have no block size / name
    return ggml_blck_size((ggml_type) t) > 0 && ggml_type_size((ggml_type) t) > 0 &&
           ggml_type_name((ggml_type) t) != nullptr;
}

// ---------------------------------------------------------------------------------------------
// stage 1: the file, mapped read-only
// ---------------------------------------------------------------------------------------------

void map_file(gguf_file & f, const char * path) {
    f.fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f.fd < 0) {
        CC_THROW(CC_ERR_IO, -1, "", "cannot open %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(f.fd, &st) != 0) CC_THROW(CC_ERR_IO, -1, "", "cannot stat %s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) CC_THROW(CC_ERR_IO, -1, "", "%s is not a regular file", path);
    if (st.st_size == 0) CC_THROW(CC_ERR_EMPTY, 0, "", "%s is empty (0 bytes), not a GGUF model", path);
    f.size = (size_t) st.st_size;
    void * m = mmap(nullptr, f.size, PROT_READ, MAP_SHARED, f.fd, 0);
    if (m == MAP_FAILED) CC_THROW(CC_ERR_IO, -1, "", "cannot map %s: %s", path, strerror(errno));
    f.base = (const uint8_t *) m;
}

// ---------------------------------------------------------------------------------------------
// stage 2: header (magic, version, the counts of tensors and metadata entries)
// ---------------------------------------------------------------------------------------------

struct gguf_counts {
    uint64_t n_tensors;
    uint64_t n_kv;
};

gguf_counts read_header(reader & r, gguf_file & f) {
    r.what = "header";
    if (f.size < 4 || memcmp(f.base, "GGUF", 4) != 0) {
        char got[9] = {0};
        for (size_t i = 0; i < 4 && i < f.size; ++i) {
            snprintf(got + 2 * i, 3, "%02x", f.base[i]);
        }
        CC_THROW(CC_ERR_BAD_MAGIC, 0, "", "bad magic: expected \"GGUF\" (47475546), got %s: not a GGUF file", got);
    }
    r.pos = 4;
    f.version = r.get<uint32_t>();
    if (f.version != 2 && f.version != 3) {
        CC_THROW(CC_ERR_VERSION, 4, "", "GGUF version %u is not supported (expected 2 or 3)", f.version);
    }
    gguf_counts n;
    n.n_tensors = r.get<uint64_t>();
    n.n_kv = r.get<uint64_t>();
    // each tensor info takes at least 8 (name len) + 4 (n_dims) + 8 (ne) + 4 (type) + 8 (offset)
    // bytes, each kv at least 8 + 4 + 1: counts beyond what the file can hold are corrupt.
    if (n.n_tensors > MAX_TENSORS) {
        CC_THROW(CC_ERR_TENSOR_INFO, 8, "", "tensor count %llu is absurd (limit %llu)",
                 (unsigned long long) n.n_tensors, (unsigned long long) MAX_TENSORS);
    }
    if (n.n_kv > MAX_KV) {
        CC_THROW(CC_ERR_METADATA, 16, "", "metadata count %llu is absurd (limit %llu)",
                 (unsigned long long) n.n_kv, (unsigned long long) MAX_KV);
    }
    if (n.n_tensors * 32 + n.n_kv * 13 > f.size - r.pos) {
        CC_THROW(CC_ERR_TRUNCATED, 8, "", "file truncated: the header counts %llu tensors and %llu metadata entries, which cannot fit in %zu bytes",
                 (unsigned long long) n.n_tensors, (unsigned long long) n.n_kv, f.size);
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// stage 3: metadata key-value pairs
// ---------------------------------------------------------------------------------------------

// Arrays are walked for validity (every length within the file) but their values are not kept.
void skip_array(reader & r, gguf_value & v, const std::string & key) {
    v.array_type = r.get<uint32_t>(key);
    v.array_len = r.get<uint64_t>(key);
    if (v.array_type == GV_ARRAY || v.array_type >= GV_COUNT) {
        CC_THROW(CC_ERR_METADATA, v.offset, key, "metadata '%s': array of type %u is not supported",
                 key.c_str(), v.array_type);
    }
    if (v.array_type == GV_STRING) {
        if (v.array_len > (r.size - r.pos) / 8) {
            CC_THROW(CC_ERR_TRUNCATED, v.offset, key, "metadata '%s': %llu strings cannot fit in the file",
                     key.c_str(), (unsigned long long) v.array_len);
        }
        for (uint64_t j = 0; j < v.array_len; ++j) {
            uint64_t n = r.get<uint64_t>(key);
            if (n > MAX_STRING) {
                CC_THROW(CC_ERR_METADATA, (int64_t) r.pos - 8, key, "metadata '%s'[%llu]: string length %llu is absurd",
                         key.c_str(), (unsigned long long) j, (unsigned long long) n);
            }
            r.need(n, key);
            r.pos += n;
        }
    } else {
        uint64_t es = scalar_size(v.array_type);
        if (v.array_len > (r.size - r.pos) / es) {
            CC_THROW(CC_ERR_TRUNCATED, v.offset, key, "metadata '%s': array of %llu elements runs past the end of the file",
                     key.c_str(), (unsigned long long) v.array_len);
        }
        r.pos += v.array_len * es;
    }
}

gguf_value read_value(reader & r, const std::string & key) {
    gguf_value v;
    v.offset = (int64_t) r.pos;
    v.type = r.get<uint32_t>(key);
    if (v.type >= GV_COUNT) {
        CC_THROW(CC_ERR_METADATA, v.offset, key, "metadata '%s' has unknown value type %u", key.c_str(), v.type);
    }
    if (v.type == GV_STRING) v.s = r.str(key);
    else if (v.type == GV_ARRAY) skip_array(r, v, key);
    else read_scalar(r, v.type, v, key);
    return v;
}

void read_metadata(reader & r, gguf_file & f, uint64_t n_kv) {
    for (uint64_t i = 0; i < n_kv; ++i) {
        r.what = cc_format("metadata entry %llu", (unsigned long long) i);
        int64_t at = (int64_t) r.pos;
        std::string key = r.str();
        if (key.empty()) CC_THROW(CC_ERR_METADATA, at, "", "metadata entry %llu has an empty key", (unsigned long long) i);
        refuse_nul(CC_ERR_METADATA, key, at, cc_format("metadata entry %llu: its key", (unsigned long long) i));
        r.what = "metadata '" + key + "'";
        gguf_value v = read_value(r, key);
        if (f.kv.count(key)) CC_THROW(CC_ERR_METADATA, at, key, "duplicate metadata key '%s'", key.c_str());
        f.kv.emplace(key, std::move(v));
    }
    if (const gguf_value * a = f.find("general.alignment")) {
        if (a->type != GV_UINT32 || a->i == 0 || (a->i & (a->i - 1)) != 0) {
            CC_THROW(CC_ERR_METADATA, a->offset, "general.alignment",
                     "metadata 'general.alignment' must be a power of two uint32 (has value type %u, value %lld)", a->type,
                     (long long) a->i);
        }
        f.alignment = (uint64_t) a->i;
    }
}

// ---------------------------------------------------------------------------------------------
// stage 4: tensor infos (name, shape, type, offset)
// ---------------------------------------------------------------------------------------------

// Reads the dimensions into t.ne and returns the element count, refusing shapes that overflow.
int64_t read_shape(reader & r, gguf_tensor_info & t) {
    t.n_dims = r.get<uint32_t>(t.name);
    if (t.n_dims < 1 || t.n_dims > 4) {
        CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, t.name, "tensor '%s' has %u dimensions (expected 1..4)", t.name.c_str(), t.n_dims);
    }
    int64_t nel = 1;
    for (uint32_t d = 0; d < t.n_dims; ++d) {
        uint64_t ne = r.get<uint64_t>(t.name);
        if (ne == 0 || ne > (uint64_t) INT64_MAX / 2 || (uint64_t) nel > (uint64_t) INT64_MAX / ne) {
            CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, t.name, "tensor '%s' has an absurd shape (dimension %u = %llu)",
                     t.name.c_str(), d, (unsigned long long) ne);
        }
        t.ne[d] = (int64_t) ne;
        nel *= (int64_t) ne;
    }
    return nel;
}

// Reads the ggml type and derives the byte size of `nel` elements of it.
void read_type(reader & r, gguf_tensor_info & t, int64_t nel) {
    t.type = r.get<uint32_t>(t.name);
    if (!valid_ggml_type(t.type)) {
        CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, t.name, "tensor '%s' has unknown ggml type %u", t.name.c_str(), t.type);
    }
    int64_t blck = ggml_blck_size((ggml_type) t.type);
    if (t.ne[0] % blck != 0) {
        CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, t.name, "tensor '%s': row length %lld is not a multiple of the %s block size %lld",
                 t.name.c_str(), (long long) t.ne[0], ggml_type_name((ggml_type) t.type), (long long) blck);
    }
    // bytes = rows * row_size; nel fits in int64, row_size <= type_size * ne0 / blck
    uint64_t row = (uint64_t) (t.ne[0] / blck) * ggml_type_size((ggml_type) t.type);
    uint64_t rows = (uint64_t) (nel / t.ne[0]);
    if (rows != 0 && row > UINT64_MAX / rows) {
        CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, t.name, "tensor '%s' is too large", t.name.c_str());
    }
    t.nbytes = row * rows;
}

void read_tensor_infos(reader & r, gguf_file & f, uint64_t n_tensors) {
    f.tensors.resize(n_tensors);
    for (uint64_t i = 0; i < n_tensors; ++i) {
        gguf_tensor_info & t = f.tensors[i];
        t.info_offset = (int64_t) r.pos;
        r.what = cc_format("tensor info %llu", (unsigned long long) i);
        t.name = r.str();
        if (t.name.empty() || t.name.size() >= GGML_MAX_NAME) {
            // no key: an empty or over-long name is no name to cite; the index and offset place it
            CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, "", "tensor info %llu has an invalid name (length %zu, limit %d)",
                     (unsigned long long) i, t.name.size(), GGML_MAX_NAME - 1);
        }
        refuse_nul(CC_ERR_TENSOR_INFO, t.name, t.info_offset, cc_format("tensor info %llu: its name", (unsigned long long) i));
        r.what = "tensor '" + t.name + "'";
        read_type(r, t, read_shape(r, t));
        t.offset = r.get<uint64_t>(t.name);
        if (f.tensor_index.count(t.name)) {
            CC_THROW(CC_ERR_TENSOR_INFO, t.info_offset, t.name, "duplicate tensor name '%s'", t.name.c_str());
        }
        f.tensor_index.emplace(t.name, (size_t) i);
    }
}

// ---------------------------------------------------------------------------------------------
// stage 5: the data section (each tensor aligned, inside the file, and apart from the others)
// ---------------------------------------------------------------------------------------------

// Places the data section after the header and returns its size.
uint64_t locate_data(gguf_file & f, size_t header_end) {
    f.data_offset = (header_end + f.alignment - 1) / f.alignment * f.alignment;
    if (!f.tensors.empty() && f.data_offset > f.size) {
        CC_THROW(CC_ERR_TRUNCATED, (int64_t) header_end, "", "file truncated: no tensor data after the header (header ends at %zu, file size %zu)",
                 header_end, f.size);
    }
    return f.size - std::min<uint64_t>(f.data_offset, f.size);
}

void check_tensor_bounds(const gguf_file & f, uint64_t data_size) {
    for (const auto & t : f.tensors) {
        if (t.offset % f.alignment != 0) {
            CC_THROW(CC_ERR_TENSOR_OFFSET, t.info_offset, t.name, "tensor '%s' has offset %llu, not a multiple of the alignment %llu",
                     t.name.c_str(), (unsigned long long) t.offset, (unsigned long long) f.alignment);
        }
        if (t.offset > data_size || t.nbytes > data_size - t.offset) {
            CC_THROW(CC_ERR_TENSOR_OFFSET, t.info_offset, t.name,
                     "tensor '%s' (offset %llu, %llu bytes) extends past the end of the file (data section holds %llu bytes)%s",
                     t.name.c_str(), (unsigned long long) t.offset, (unsigned long long) t.nbytes,
                     (unsigned long long) data_size,
                     t.offset < data_size ? ": the file is probably truncated" : "");
        }
    }
}

void check_tensor_overlaps(const gguf_file & f) {
    std::vector<const gguf_tensor_info *> by_offset;
    for (const auto & t : f.tensors) by_offset.push_back(&t);
    std::sort(by_offset.begin(), by_offset.end(),
              [](const gguf_tensor_info * a, const gguf_tensor_info * b) { return a->offset < b->offset; });
    for (size_t i = 1; i < by_offset.size(); ++i) {
        const gguf_tensor_info * a = by_offset[i - 1];
        const gguf_tensor_info * b = by_offset[i];
        if (a->offset + a->nbytes > b->offset) {
            CC_THROW(CC_ERR_TENSOR_OFFSET, b->info_offset, b->name, "tensor '%s' (offset %llu) overlaps tensor '%s' (offset %llu, %llu bytes)",
                     b->name.c_str(), (unsigned long long) b->offset, a->name.c_str(), (unsigned long long) a->offset,
                     (unsigned long long) a->nbytes);
        }
    }
}

}  // namespace

void gguf_open(gguf_file & f, const char * path) {
    map_file(f, path);
    reader r{f.base, f.size, 0, ""};
    const gguf_counts n = read_header(r, f);
    read_metadata(r, f, n.n_kv);
    read_tensor_infos(r, f, n.n_tensors);
    check_tensor_bounds(f, locate_data(f, r.pos));
    check_tensor_overlaps(f);
}
