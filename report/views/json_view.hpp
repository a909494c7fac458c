// hcc-report — the JSON view of a profile (report/README.md has the schema).
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "profile.hpp"

namespace hcc::report {

// Compact JSON text of `j`. Names come from files anyone may have written
// (a program named with a Latin-1 byte): bytes that are not UTF-8 become
// U+FFFD instead of nlohmann's type_error.316, in every JSON view.
std::string json_text(const nlohmann::ordered_json &j);

// Writes the profile as one JSON document, for one location or all (-1).
// Streamed call path by call path: memory stays the model's plus one call
// path's values, never a DOM of every value (a file of a few hundred KiB
// can hold millions of them).
void write_profile_json(std::ostream &os, const hcc::profile::Profile &p, int location = -1);

}  // namespace hcc::report
