// hcc — parse anchor.xml into the definitions of a Profile (private to hcc_cube).
#pragma once

#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc::profile::detail {

// One <metric> as the file declares it; the data reader decides whether it
// can decode it (type and dtype strings are kept verbatim for that).
struct AnchorMetric {
  int file_id = -1;         // the id in the file = the N of N.index/N.data
  int parent_file_id = -1;  // enclosing <metric>, or -1
  std::string type;         // EXCLUSIVE, INCLUSIVE, POSTDERIVED, ... ("" = EXCLUSIVE)
  std::string dtype;        // DOUBLE, UINT64, TAU_ATOMIC, ...
  Metric meta;              // names, uom, url, descr (dtype/cube_type/parent unset)
};

struct Anchor {
  // attrs, machine, hosts, regions, cnodes and locations filled in; metrics
  // and values are left to the data reader. Call paths are numbered so that
  // parents precede children and each node's children, in id order, are in
  // document order: then exclusive_row_order()/inclusive_row_order() of this
  // profile are the row orders CubeLib used for the file.
  Profile skeleton;
  std::vector<AnchorMetric> metrics;  // in file-id order
  std::vector<std::string> notes;     // things we changed or ignored
};

// `xml` is the member's bytes; errors throw std::runtime_error starting with
// "anchor.xml" and saying what is wrong.
Anchor parse_anchor(const std::string &xml);

}  // namespace hcc::profile::detail
