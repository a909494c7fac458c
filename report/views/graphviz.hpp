// hcc — running Graphviz for the views that draw graphs (--cfg, --callgraph).
#pragma once

#include <string>

namespace hcc::report {

// Runs `dot -Tsvg` on `dot_text` and returns the SVG. Throws
// std::runtime_error naming `option` (e.g. "--cfg=svg") when dot is not on
// PATH, and dot's own message when it rejects the graph.
std::string dot_to_svg(const std::string &dot_text, const std::string &option);

}  // namespace hcc::report
