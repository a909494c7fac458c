// hcc-report --gprof: the flat profile and call graph in GNU gprof's layout
// (index, % time, self, children, called as n/total, <spontaneous>,
// recursion as 1+9), computed from the call-context tree: a caller's
// `children` is the real time below the callee under that caller.
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::report {

// location -1: all locations summed.
std::string gprof_text(const profile::Profile &p, int location);

}  // namespace hcc::report
