// A region's name from a profile written into a filter or a plan as one
// rule line, only when the filter parser reads that line back as that one
// region (issue 40).
//
// A profile may come from anyone, and its names are bytes: a linker name
// `tiny main` written as `EXCLUDE MANGLED tiny main` is two patterns, and
// the next build leaves out `main`; a line break in a name starts a line
// of the attacker's choosing (`SCOREP_REGION_NAMES_END`, `EXCLUDE *`); a
// control character anywhere makes the parser refuse the whole file, which
// stops the build. So every line is built with the syntax's escapes, then
// parsed on its own with the parser the build uses (filter/), and written
// only when it leaves out (or counts) the region and neither `main` nor an
// unrelated region; otherwise the caller writes a comment saying why.
#pragma once

#include <string>

#include "judge.hpp"

namespace hcc::report {

struct FilterLine {
  std::string text;  // the rule line, '\n' included; empty when none can be written
  std::string why;   // then why not: "a blank in its linker name", "a control character in its name" …
};

// The line that leaves out the region `name` (linker name `mangled`, may be
// empty) — or counts it, with `count` — in a filter of `syntax`: hcc's
// `exclude NAME`, a TAU list entry, Score-P's `  EXCLUDE MANGLED NAME`
// (the linker name when there is one, else the qualified name).
FilterLine region_line(FilterSyntax syntax, const std::string &name, const std::string &mangled, bool count);

// `s` for a comment line: control characters (a line break would end the
// comment; the parser refuses the others anywhere) become '?'.
std::string comment_text(std::string s);

}  // namespace hcc::report
