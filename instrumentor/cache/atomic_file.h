// hcc-instrument — writing a file so that no reader ever sees half of it.
#pragma once

#include <string>

namespace hcc::rewriter {

// Writes `text` to a temporary name beside `path`, then renames it over
// `path`: a reader (the driver, make after a crash, a concurrent compile
// sharing a cache) sees the old file or the whole new one. On failure the
// temporary is removed, `error` (when given) says why, and false is returned.
bool writeFileAtomically(const std::string &path, const std::string &text, std::string *error = nullptr);

}  // namespace hcc::rewriter
