// The shadow tree: how the compiler gets the instrumented copies of the
// project's headers without a byte of the user's files changing.
//
// Under a private ROOT, every file lives at ROOT + its real path. The driver
// puts the instrumented main file there and, for each -I/-iquote directory
// D of the command, adds ROOT/D in front of D. So every #include the
// compiler resolves — beside the including file, through -iquote or -I, with
// `..` — finds the copy where the original was. Each copy starts with
// `#line 1 "NAME"`, so diagnostics, __FILE__ and debug info name the real
// header and lines; the driver maps ROOT/... back to the real paths in
// dependency files. The directories that hold copies (and their ancestors
// up to the deepest one they share) are mirrored: every other entry becomes
// a symbolic link to the original, so a file the parse did not see
// (another configuration's #include, a __has_include probe) is still found
// beside its neighbours, as without hcc.
#ifndef HCC_REWRITER_SHADOW_TREE_H
#define HCC_REWRITER_SHADOW_TREE_H

#include "result.h"

#include <string>
#include <vector>

namespace hcc::rewriter {

// ROOT + `path` (an absolute path).
std::string shadowPath(const std::string &root, const std::string &path);

// Writes `files` under `root` and lists them, with the names the compiler
// knows them by, in `<root>.names` (`<copy>\t<name>` lines, appended);
// mirrors their directories and
// `main_dir` (the main file's real directory, whose copy the caller wrote).
// Nothing is written when no file was rewritten and every name has a
// directory part: the compiler then reads every header from its own place
// and names it as without hcc. A copy that another source of the same
// command already put there is kept (said in `messages`). False with
// `error` when the file system refused.
bool writeShadowTree(const std::string &root, const std::vector<OutputFile> &files,
                     const std::string &main_dir, std::vector<std::string> &messages,
                     std::string &error);

}  // namespace hcc::rewriter

#endif
