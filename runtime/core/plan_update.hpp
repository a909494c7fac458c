// hcc — HCC_PLAN_UPDATE=FILE: the run writes (or refreshes) an
// instrumentation plan from its own profile at exit, the text `hcc-report
// --plan PROFILE` would write (plans/judge.hpp: the same function),
// so the next build applies it (docs/selective-instrumentation.md, "Plans").
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::rt {

// Writes the plan for `p` (written to `profile_path`) to HCC_PLAN_UPDATE's
// file when that is set: in its directory when that directory is private
// (private_dir.hpp), through an O_EXCL|O_NOFOLLOW temporary renamed over it.
// A failure is one line on stderr; the profile is already written.
void update_plan_if_requested(const profile::Profile &p, const std::string &profile_path);

}  // namespace hcc::rt
