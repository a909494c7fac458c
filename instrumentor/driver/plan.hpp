// hcc — instrumentation plans at compile time: the filter file `hcc-report
// --plan` writes (docs/selective-instrumentation.md, "Plans"). A plan applies
// like --hcc-filter (the functions it excludes get no guard at all) and
// combines with it; it is named by HCC_PLAN=FILE, else found as `hcc.plan`
// in the directory of the source being compiled; HCC_PLAN=off ignores both.
//
// A plan decides what is compiled into the program, so it is read once, and
// only when it is the user's own (docs/security.md, "Plans"):
//   - reached without following a symbolic link someone else planted
//     (trusted_open.hpp: a link at its name, or on the way to it, is followed
//     only when it belongs to you, to root, or to the owner of the directory
//     holding it; whatever fs.protected_symlinks says);
//   - a regular file owned by you and writable by no one else (fstat of the
//     descriptor read);
//   - in a directory others cannot put things in (yours and writable by you
//     only), or a sticky one — there only with a single name, since a hard
//     link to a file of yours may be anyone's doing.
// The text read is what the instrumentor gets (filter_texts.hpp: a sealed
// copy named --filter-fd=N:PATH); it never opens PATH itself, and the cache
// key covers that text. A refused plan's text is never read, so no message
// can show any of it.
#pragma once

#include <string>
#include <vector>

namespace hcc::driver {

struct Plan {
  std::string path;  // "" when no plan applies
  std::string text;
};

// The plan for `source`. False with `error` ("plan FILE: ...") when a plan
// applies but cannot be used: missing (only when HCC_PLAN names it), not a
// regular file, untrusted (then "plan FILE refused: why"), or malformed
// (then FILE:LINE). The build stops then: a plan named but ignored would
// measure what the user left out.
bool plan_for_source(const std::string &source, Plan &plan, std::string &error);

// The decisions a plan's comment lines give with their evidence ("left out
// Vec::dot: 35 ns per call over 37.5 M calls in run.cubex; ..."), in order.
std::vector<std::string> plan_decisions(const std::string &text);

}  // namespace hcc::driver
