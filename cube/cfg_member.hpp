// hcc — the control-flow member of a .cubex (Profile::preds), private to the
// writer and the reader. CubeLib reads members by name and ignores this one.
#pragma once

#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc::profile::detail {

constexpr const char *kCfgMember = "hcc_cfg.txt";

// The member's text; `columns[k]` is the model location written as column k
// (location_file_order). Never a multiple of 512 bytes (the 512 rule).
std::string cfg_member_text(const Profile &p, const std::vector<int> &columns);

// Fills p.preds from the member (locations are columns, as the reader's
// model has them). Throws std::runtime_error naming the line on bad input.
void cfg_member_parse(Profile &p, const std::string &text);

}  // namespace hcc::profile::detail
