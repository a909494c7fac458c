// hcc — the control-flow member of a .cubex (see cfg_member.hpp).
//
// Plain text, one line per (call path, predecessor), in list order:
//   hcc-cfg 1
//   <call path id> <predecessor call path id> <column>:<count> ...
// Only nonzero counts are written. A pair may appear on several lines (the
// streamed writer writes one per block of columns): their counts add. Call path ids are the anchor's cnode ids,
// columns the data columns (location Ids in the file).
#include "cfg_member.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace hcc::profile::detail {

namespace {
constexpr const char *kHeader = "hcc-cfg 1";
}

std::string cfg_member_text(const Profile &p, const std::vector<int> &columns) {
  std::string out = std::string(kHeader) + "\n";
  for (std::size_t c = 0; c < p.preds.size(); ++c)
    for (const Predecessor &pr : p.preds[c]) {
      out += std::to_string(c) + " " + std::to_string(pr.callpath);
      for (std::size_t k = 0; k < columns.size(); ++k) {
        const double v = pr.count[static_cast<std::size_t>(columns[k])];
        if (v > 0) out += " " + std::to_string(k) + ":" + std::to_string(static_cast<unsigned long long>(std::llround(v)));
      }
      out += "\n";
    }
  if (out.size() % 512 == 0) out += "\n";  // the 512 rule (README.md)
  return out;
}

void cfg_member_parse(Profile &p, const std::string &text) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  auto bad = [&](const std::string &what) {
    throw std::runtime_error(std::string(kCfgMember) + " line " + std::to_string(lineno) + ": " + what);
  };
  const long nc = static_cast<long>(p.cnodes.size()), nl = static_cast<long>(p.nloc());
  p.preds.assign(p.cnodes.size(), {});
  while (std::getline(in, line)) {
    ++lineno;
    if (lineno == 1) {
      if (line != kHeader) bad("expected '" + std::string(kHeader) + "'");
      continue;
    }
    if (line.empty()) continue;
    std::istringstream ls(line);
    long c = -1, pred = -1;
    if (!(ls >> c >> pred)) bad("expected two call path ids");
    if (c < 0 || c >= nc || pred < 0 || pred >= nc) bad("call path id out of range");
    // A (call path, predecessor) pair seen before adds to it: the streamed
    // writer (cubex_stream.hpp) writes one line per pair and block of columns.
    auto &list = p.preds[static_cast<std::size_t>(c)];
    std::size_t at = 0;
    while (at < list.size() && list[at].callpath != pred) ++at;
    if (at == list.size()) list.push_back({static_cast<int>(pred), std::vector<double>(p.nloc(), 0.0)});
    Predecessor &pr = list[at];
    std::string item;
    while (ls >> item) {
      const std::size_t colon = item.find(':');
      char *end = nullptr;
      const long col = colon == std::string::npos ? -1 : std::strtol(item.c_str(), &end, 10);
      if (colon == std::string::npos || end != item.c_str() + colon || col < 0 || col >= nl)
        bad("bad location column in '" + item + "'");
      const char *num = item.c_str() + colon + 1;
      const unsigned long long v = std::strtoull(num, &end, 10);
      if (*num < '0' || *num > '9' || *end != '\0') bad("bad count in '" + item + "'");
      pr.count[static_cast<std::size_t>(col)] += static_cast<double>(v);
    }
  }
  if (lineno == 0) bad("empty member");
  // The parent first (Profile::preds), wherever its first line was.
  for (std::size_t c = 0; c < p.preds.size(); ++c) {
    auto &list = p.preds[c];
    for (std::size_t k = 1; k < list.size(); ++k)
      if (list[k].callpath == p.cnodes[c].parent) {
        std::rotate(list.begin(), list.begin() + static_cast<long>(k), list.begin() + static_cast<long>(k) + 1);
        break;
      }
  }
}

}  // namespace hcc::profile::detail
