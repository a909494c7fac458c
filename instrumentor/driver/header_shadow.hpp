// hcc driver — the shadow tree through which the compiler reads the
// instrumented copies of the project's own headers (the instrumentor writes
// it, instrumentor/cache/shadow_tree.h explains it).
//
// The driver's part: the include options that make the compiler look under
// <root> first (-I D becomes -I <root>D -I D for every include directory
// the tree mirrors, and the source's own directory gets its copy's -iquote
// before its own; -include F names F's copy), and the removal of the tree
// (symbolic links are removed, never followed). The instrumented source
// itself stays at <tmp>/<base name>: a short path keeps the compiler's
// dependency-file layout as it is without hcc.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "args.hpp"

namespace hcc::driver {

// <root> + realpath(dir of `path`) + "/" + base name of `path`; "" when the
// directory has no real path.
std::string shadow_file_path(const std::string &root, const std::string &path);

// <root> + realpath(`dir`) when the tree has it as a directory, else "".
std::string shadow_dir_of(const std::string &root, const std::string &dir);

// `args` (the compile arguments, classified by `cl`) with, in front of each
// -I/-iquote/--include-directory directory whose shadow exists under `root`,
// the same option naming that shadow; -include F names F's copy when there
// is one. Everything else is kept in order.
std::vector<std::string> shadow_include_args(const std::vector<std::string> &args,
                                             const CommandLine &cl, const std::string &root);

// -I <shadow> for each CPATH directory whose shadow exists, to go after all
// other arguments: the compiler searches CPATH after every -I, so these
// come after the command line's -I directories and before CPATH's own.
// (C_INCLUDE_PATH and CPLUS_INCLUDE_PATH name system directories, whose
// headers are not instrumented.)
std::vector<std::string> shadow_cpath_args(const std::string &cpath, const std::string &root);

// The copies the instrumentor listed in `<root>.names`, with the names the
// compiler knows their originals by (copy, name).
std::vector<std::pair<std::string, std::string>> shadow_names(const std::string &root);

// rm -rf without following symbolic links.
void remove_tree(const std::string &dir);

}  // namespace hcc::driver
