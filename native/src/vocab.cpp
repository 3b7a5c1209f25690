// vocab.cpp: llama.cpp's own tokenizer, loaded without the llama_cpp Python package.
//
// The tokenizer must be llama.cpp's (the ids we score are the ids the model sees). Its model
// parameters are a struct whose layout follows the llama.cpp release, so the load is made here,
// against llama.h; every other vocabulary call takes plain pointers and integers and the caller
// makes it on libllama directly. A new process then need not import llama_cpp at start-up.

#include "codecheck.h"

#include <llama.h>

#include <mutex>

namespace {

void silent(ggml_log_level, const char *, void *) {}

std::mutex load_mutex;

}  // namespace

extern "C" {

CC_API void * cc_vocab_load(const char * path) {
    if (path == nullptr) {
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(load_mutex);
    static std::once_flag backend;
    std::call_once(backend, [] { llama_backend_init(); });
    // llama.cpp reports every metadata key it reads; a caller's own logger is put back after
    ggml_log_callback previous = nullptr;
    void * previous_data = nullptr;
    llama_log_get(&previous, &previous_data);
    llama_log_set(silent, nullptr);
    llama_model_params params = llama_model_default_params();
    params.vocab_only = true;
    params.use_extra_bufts = false;  // its AMX buffer type crashes on some Xeons (llama.cpp #20824)
    llama_model * model = llama_model_load_from_file(path, params);
    llama_log_set(previous, previous_data);
    return model;
}

CC_API void cc_vocab_free(void * model) {
    if (model != nullptr) {
        llama_model_free(static_cast<llama_model *>(model));
    }
}

}  // extern "C"
