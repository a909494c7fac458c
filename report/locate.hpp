// hcc-report — find the profile a user means.
#pragma once

#include <string>

namespace hcc::report {

// `arg` is a .cubex file, a directory holding profile.cubex, or empty: then
// the newest directory named hcc-* in `cwd` (by modification time) is used.
// In a directory holding several runs' profiles (profile.cubex,
// profile-1.cubex …) the newest is taken and `note` says so. A directory of
// an MPI job's own per-rank profiles (profile.rank-<r>.cubex, newer than any
// merged one) means its lowest rank's; `note` then names the ranks of the
// job without a profile, as it does for such a file named itself.
// Throws std::runtime_error naming what was looked for and where.
std::string locate_profile(const std::string &arg, const std::string &cwd = ".", std::string *note = nullptr);

// The same for a trace: `arg` is an OTF2 anchor file (traces.otf2), a
// directory holding traces.otf2 (or one traces.<tag>.otf2), or empty: the
// newest hcc-* directory in `cwd`. Throws std::runtime_error like above.
std::string locate_trace(const std::string &arg, const std::string &cwd = ".");

}  // namespace hcc::report
