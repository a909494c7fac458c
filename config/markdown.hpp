// hcc config — the table as Markdown (docs/running.md's environment
// reference) and the check that a document's generated section matches it.
#pragma once

#include <string>

#include "config/config.hpp"

namespace hcc::config {

// The lines between these two in a document are generated (scripts/gen-env-doc.sh).
constexpr const char *kBeginMarker =
    "<!-- BEGIN environment table: generated from config/ by scripts/gen-env-doc.sh; edit the env_vars.def files -->";
constexpr const char *kEndMarker = "<!-- END environment table -->";

// The whole table, one row per variable, header included, ending in "\n".
std::string markdown_table();

// What a row accepts, for people: "on/off", "integer from 0 to 2", "auto, tsc or monotonic".
std::string accepted_text(const Variable &v);

// "" when `document`'s section between the markers is markdown_table(),
// else why not (no markers, or the first line that differs).
std::string compare_section(const std::string &document);

// `document` with its section replaced by markdown_table(); "" without markers.
std::string replace_section(const std::string &document);

}  // namespace hcc::config
