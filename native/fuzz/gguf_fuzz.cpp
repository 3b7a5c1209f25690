// gguf_fuzz: libFuzzer harness for the GGUF reader and the model load behind cc_model_load.
//
// Each input is a whole model file. It goes through the same C API the Python binding calls: the
// reader (gguf_reader.cpp), the architecture's hyper-parameter and tensor checks (model.cpp,
// models/*.cpp), and for a file that loads, one token through every layer and the output head.
// The file lives in a memfd opened by its /proc path, so the reader maps it as it maps a real
// file and nothing touches the disk.
//
// A refusal is a finding too unless it is a GGUF error that names its place: the key or tensor
// (cc_error.key, quoted in the message), or, where no name exists yet, the section and offset.
// Such a vague refusal aborts, so libFuzzer keeps the input like a crash.
//
// GGUF_FUZZ_STATS=path: at exit, write the count of inputs by outcome (loaded, or the refusal's
// code and message kind) to path, one "count<TAB>outcome" line each (bench/gguf_fuzz.py reads it).
#include "codecheck.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

int g_fd = -1;
char g_path[64];
std::map<std::string, unsigned long> g_outcomes;

// The sections a refusal without a name may point at (the reader's `what` and header fields).
const char * const SECTIONS[] = {"empty", "magic", "version", "header", "tensor count", "metadata count",
                                 "metadata entry", "tensor info", "tensor data"};

bool names_its_place(const cc_error & e) {
    if (e.code > CC_ERR_EMPTY || e.code < CC_ERR_TENSOR_TYPE) return false;  // not a GGUF error
    if (e.message[0] == 0) return false;
    if (e.key[0] != 0) {
        // a name longer than the key's buffer is cut there: the message quotes it whole
        const bool cut = strlen(e.key) == sizeof(e.key) - 1;
        std::string quoted = std::string("'") + e.key + (cut ? "" : "'");
        return strstr(e.message, quoted.c_str()) != nullptr;
    }
    if (e.offset < 0) return false;
    for (const char * s : SECTIONS) {
        if (strstr(e.message, s)) return true;
    }
    return false;
}

// The message with names and numbers masked: one line per kind of refusal in the statistics.
std::string kind_of(const cc_error & e) {
    if (e.code == CC_ERR_BAD_MAGIC) return std::to_string(e.code) + " bad magic";  // its bytes vary
    std::string msg = e.message;
    if (e.key[0] != 0) {  // the name first: it may hold quotes or digits itself
        const std::string quoted = std::string("'") + e.key + "'";
        for (size_t at; (at = msg.find(quoted)) != std::string::npos;) msg.replace(at, quoted.size(), "'*'");
    }
    std::string k = std::to_string(e.code) + " ";
    for (size_t i = 0; i < msg.size(); ++i) {
        const char ch = msg[i];
        if (isdigit((unsigned char) ch)) {
            if (k.back() != '#') k += '#';
        } else if (ch == '/' && e.code == CC_ERR_EMPTY && k.back() == ' ') {
            while (i + 1 < msg.size() && msg[i + 1] != ' ') ++i;  // the memfd's path
            k += "<path>";
        } else if (msg.compare(i, 3, "'*'") == 0) {
            k += "'*'";
            i += 2;
        } else if (ch == '\'') {
            // a second name, e.g. the other tensor: it ends at a quote before a space, a
            // punctuation mark or the end, as the names may hold quotes themselves
            size_t close = i + 1;
            while (close < msg.size() && !(msg[close] == '\'' && (close + 1 == msg.size() || strchr(" ,:)", msg[close + 1])))) {
                ++close;
            }
            k += "'*'";
            i = close;
        } else if (isprint((unsigned char) ch)) {
            k += ch;
        }
    }
    return k;
}

void write_stats() {
    const char * path = getenv("GGUF_FUZZ_STATS");
    if (!path) return;
    FILE * f = fopen(path, "w");
    if (!f) return;
    for (const auto & [outcome, n] : g_outcomes) fprintf(f, "%lu\t%s\n", n, outcome.c_str());
    fclose(f);
}

// One token through the whole stack and the head: the shapes the load accepted must compute.
void run_one_token(cc_model * m) {
    cc_model_info info;
    cc_model_get_info(m, &info);
    cc_context_params p = cc_context_default_params();
    p.n_ctx = 4;
    p.n_batch = 1;
    p.n_threads = 1;
    cc_error err;
    cc_context * ctx = cc_context_new(m, p, &err);
    if (!ctx) {
        fprintf(stderr, "gguf_fuzz: a loaded model gets no context: %s\n", err.message);
        abort();
    }
    const int32_t token = info.n_vocab - 1, row = 0;
    int32_t rank = 0, top = 0;
    float logprob = 0, top_logprob = 0;
    cc_head_out out = {nullptr, &logprob, &rank, &top, &top_logprob, nullptr};
    if (cc_batch_begin(ctx, &token, 1, CC_KV_EXACT, &err) < 0 || cc_batch_run(ctx, &err) < 0 ||
        cc_head(ctx, &row, 1, &token, 1, 0, &out, &err) < 0 || cc_batch_end(ctx, &err) < 0) {
        fprintf(stderr, "gguf_fuzz: a loaded model fails to compute: %s\n", err.message);
        abort();
    }
    cc_context_free(ctx);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    g_fd = memfd_create("gguf-fuzz", MFD_CLOEXEC);
    if (g_fd < 0) {
        perror("gguf_fuzz: memfd_create");
        abort();
    }
    snprintf(g_path, sizeof(g_path), "/proc/self/fd/%d", g_fd);
    atexit(write_stats);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size) {
    if (ftruncate(g_fd, 0) != 0 || (size && pwrite(g_fd, data, size, 0) != (ssize_t) size)) {
        perror("gguf_fuzz: writing the memfd");
        abort();
    }
    cc_error err;
    cc_model * m = cc_model_load(g_path, &err);
    if (m) {
        run_one_token(m);
        cc_model_free(m);
        ++g_outcomes["loaded"];
        return 0;
    }
    if (!names_its_place(err)) {
        fprintf(stderr, "gguf_fuzz: vague refusal: code %d, offset %lld, key '%s': %s\n", err.code,
                (long long) err.offset, err.key, err.message);
        abort();
    }
    ++g_outcomes[kind_of(err)];
    return 0;
}
