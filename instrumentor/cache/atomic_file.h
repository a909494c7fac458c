// hcc-instrument — writing a file so that no reader ever sees half of it.
#pragma once

#include <string>

namespace hcc::rewriter {

// Writes `text` to a temporary beside `path` (created O_EXCL|O_NOFOLLOW:
// a link planted at a name we would pick is skipped, never written
// through), then renames it over `path`: a reader (the driver, make after a
// crash) sees the old file or the whole new one. On failure the temporary
// is removed, `error` (when given) says why, and false is returned. The
// cache's own files go through private_dir.hpp's replace_file_at directly.
bool writeFileAtomically(const std::string &path, const std::string &text, std::string *error = nullptr);

}  // namespace hcc::rewriter
