// The batch copies of the layer matrices (BatchWeights) kept in a file between processes: a new
// process maps the file instead of converting the matrices again.
#pragma once

#include "model.h"

#include <string>

// Maps `path` into `bw` when it holds the copies of `type` for this model: the header (format,
// ggml version, type, model file size), the layout of every matrix and a checksum of the data
// must all match. Returns false (bw untouched) for a missing, stale or corrupt file.
bool batch_cache_load(const cc_model & m, ggml_type type, const std::string & path, BatchWeights & bw);

// Writes `bw` to `path` (a temporary file renamed into place, so readers never see a partial
// one). Failures (no space, read-only folder) leave no file behind and are not reported: the
// copies are then converted again next time.
void batch_cache_save(const cc_model & m, const BatchWeights & bw, const std::string & path);
