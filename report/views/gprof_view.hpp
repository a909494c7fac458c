// hcc-report --gprof: the flat profile and call graph in GNU gprof's layout
// (index, % time, self, children, called as n/total, <spontaneous>,
// recursion as 1+9), computed from the call-context tree: a caller's
// `children` is the real time below the callee under that caller.
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::report {

// location -1: all locations summed. With `mark`, the times of a function
// whose time came from samples (text_views/marks.hpp) have `~` before them
// (in their column's width) and a legend line ends each table; without it
// the numbers stay as gprof prints them, for tools that parse gprof's text
// (gprof2dot reads `\d+\.\d+` there).
std::string gprof_text(const profile::Profile &p, int location, bool mark = true);

}  // namespace hcc::report
