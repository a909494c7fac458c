// hcc — Graphviz for the views that draw graphs (--cfg, --callgraph): DOT
// string quoting and running dot.
#pragma once

#include <string>

namespace hcc::report {

// Runs `dot -Tsvg` on `dot_text` and returns the SVG. Throws
// std::runtime_error naming `option` (e.g. "--cfg=svg") when dot is not on
// PATH, and dot's own message when it rejects the graph.
std::string dot_to_svg(const std::string &dot_text, const std::string &option);

// `s` as the inside of a DOT double-quoted string: `"` and `\` escaped,
// newlines as \n (a centred line break in a label).
std::string dot_escape(const std::string &s);

// `s` as a DOT double-quoted string, quotes included.
inline std::string dot_quoted(const std::string &s) { return "\"" + dot_escape(s) + "\""; }

}  // namespace hcc::report
