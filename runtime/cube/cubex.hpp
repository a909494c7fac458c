// hcc — CUBE4 (.cubex) files: write a Profile so that CubeLib/CubeGUI read it,
// and read one back (ours, and the subset of Score-P's that we understand).
// Facts about the format: shared FORMATS.md; our choices: runtime/cube/README.md.
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::profile {

// Writes `p` to `path` atomically (temporary file in the same directory, then
// rename). Throws std::runtime_error whose message names the path and the
// reason (e.g. "cannot create /x/profile.cubex.tmp: Permission denied").
void write_cubex(const Profile &p, const std::string &path);

// Reads a .cubex file. Throws std::runtime_error naming the file and what is
// wrong with it (not a tar archive, missing anchor.xml, bad row count ...).
Profile read_cubex(const std::string &path);

}  // namespace hcc::profile
