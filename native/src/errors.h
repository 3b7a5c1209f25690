// Internal error type: thrown inside the engine, caught at the C boundary (api.cpp) and turned
// into a cc_status + cc_error. Nothing thrown here ever crosses the C ABI.
#pragma once

#include "codecheck.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

struct cc_exception : std::runtime_error {
    int         code;
    int64_t     offset;
    std::string key;
    cc_exception(int code, std::string msg, int64_t offset = -1, std::string key = "")
        : std::runtime_error(std::move(msg)), code(code), offset(offset), key(std::move(key)) {}
};

inline std::string cc_format(const char * fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return buf;
}

#define CC_THROW(code, offset, key, ...) throw cc_exception((code), cc_format(__VA_ARGS__), (offset), (key))
