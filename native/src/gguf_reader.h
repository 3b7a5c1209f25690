// A validating reader for the GGUF container, over a read-only memory map.
//
// ggml's own gguf_init_from_file trusts too much for our purposes (hostile files must produce an
// error that names the problem, never an abort), so the container is parsed here with every read
// bounds-checked against the file size. Only scalar metadata values are kept; arrays (e.g. the
// 49k-entry vocabulary) are walked for validity and recorded by type, length and offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

enum gguf_value_type : uint32_t {
    GV_UINT8 = 0, GV_INT8 = 1, GV_UINT16 = 2, GV_INT16 = 3, GV_UINT32 = 4, GV_INT32 = 5,
    GV_FLOAT32 = 6, GV_BOOL = 7, GV_STRING = 8, GV_ARRAY = 9, GV_UINT64 = 10, GV_INT64 = 11,
    GV_FLOAT64 = 12, GV_COUNT = 13,
};

struct gguf_value {
    uint32_t    type = GV_COUNT;
    int64_t     offset = -1;      // where the value starts in the file
    // scalars (integers and bools in i, floats in f), strings in s
    int64_t     i = 0;
    double      f = 0;
    std::string s;
    // arrays
    uint32_t    array_type = GV_COUNT;
    uint64_t    array_len = 0;
};

struct gguf_tensor_info {
    std::string name;
    uint32_t    n_dims = 0;
    int64_t     ne[4] = {1, 1, 1, 1};
    uint32_t    type = 0;         // ggml_type
    uint64_t    offset = 0;       // relative to the data section
    uint64_t    nbytes = 0;
    int64_t     info_offset = 0;  // where the tensor info starts in the file (for errors)
};

struct gguf_file {
    // the mapping
    int         fd = -1;
    const uint8_t * base = nullptr;
    size_t      size = 0;
    // the parsed container
    uint32_t    version = 0;
    uint64_t    alignment = 32;
    uint64_t    data_offset = 0;  // start of the tensor data section in the file
    std::map<std::string, gguf_value> kv;
    std::vector<gguf_tensor_info> tensors;
    std::map<std::string, size_t> tensor_index;

    ~gguf_file();
    const gguf_value * find(const std::string & key) const;
    const gguf_tensor_info * tensor(const std::string & name) const;
    const uint8_t * tensor_data(const gguf_tensor_info & t) const { return base + data_offset + t.offset; }
};

// Maps `path` and parses it; throws cc_exception with a specific code, offset and key on failure.
void gguf_open(gguf_file & f, const char * path);
