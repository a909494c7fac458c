// hcc — instrumentation plans at compile time: the filter file `hcc-report
// --plan` writes (docs/selective-instrumentation.md, "Plans"). A plan applies
// like --hcc-filter (the functions it excludes get no guard at all) and
// combines with it; it is named by HCC_PLAN=FILE, else found as `hcc.plan`
// in the directory of the source being compiled; HCC_PLAN=off ignores both.
//
// A plan decides what is compiled into the program, so it is trusted only
// when owned by the user and writable by no one else, in a directory others
// cannot rename things in (private, or sticky): the instrumentor reads it
// again by name (its contents are part of the instrumentation cache's key,
// like every --filter file's), and that second read must see what was checked.
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
// regular file, untrusted, or malformed (then FILE:LINE). The build stops
// then: a plan named but ignored would measure what the user left out.
bool plan_for_source(const std::string &source, Plan &plan, std::string &error);

// The decisions a plan's comment lines give with their evidence ("left out
// Vec::dot: 35 ns per call over 37.5 M calls in run.cubex; ..."), in order.
std::vector<std::string> plan_decisions(const std::string &text);

}  // namespace hcc::driver
