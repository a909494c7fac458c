#include "model.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace hcc::findings {

using hcc::profile::Profile;

Model::Model(const Profile &profile) : p(profile) {
  time = p.metric_index("time");
  visits = p.metric_index("visits");
  nl = p.nloc();
  nc = p.cnodes.size();
  kids.resize(nc);
  for (std::size_t c = 0; c < nc; ++c)
    if (p.cnodes[c].parent >= 0) kids[std::size_t(p.cnodes[c].parent)].push_back(int(c));
  in_mpi.assign(nc, 0);
  in_openmp.assign(nc, 0);
  for (std::size_t c = 0; c < nc; ++c) {  // parents come before their children
    const int par = p.cnodes[c].parent;
    in_mpi[c] = region(int(c)).paradigm == "mpi" || (par >= 0 && in_mpi[std::size_t(par)]);
    in_openmp[c] = region(int(c)).paradigm == "openmp" || (par >= 0 && in_openmp[std::size_t(par)]);
  }
  for (const auto &l : p.locations) ranks.push_back(l.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  for (const auto &l : p.locations)
    rank_index.push_back(int(std::lower_bound(ranks.begin(), ranks.end(), l.rank) - ranks.begin()));
  if (time < 0) return;
  sec = hcc::profile::seconds_per_unit(p.metrics[std::size_t(time)].uom);
  incl = hcc::profile::inclusive(p, std::size_t(time));
  for (double &x : incl) x *= sec;
  // Per process: its longest thread's root time, times its threads.
  std::vector<double> longest(ranks.size(), 0);
  std::vector<double> threads(ranks.size(), 0);
  for (std::size_t l = 0; l < nl; ++l) {
    double own = 0;
    for (std::size_t c = 0; c < nc; ++c)
      if (p.cnodes[c].parent < 0) own += incl[c * nl + l];
    const auto r = std::size_t(rank_index[l]);
    longest[r] = std::max(longest[r], own);
    threads[r] += 1;
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) total += longest[r] * threads[r];
}

double Model::t_sum(int c) const {
  double s = 0;
  for (std::size_t l = 0; l < nl; ++l) s += t(c, l);
  return s;
}

double Model::excl_sum(int c) const {
  double s = 0;
  for (std::size_t l = 0; l < nl; ++l) s += excl_t(c, l);
  return s;
}

std::string Model::path(int c) const {
  std::vector<int> chain;
  for (int n = c; n >= 0; n = p.cnodes[std::size_t(n)].parent) chain.push_back(n);
  std::reverse(chain.begin(), chain.end());
  std::string out;
  auto add = [&](const std::string &s) { out += (out.empty() ? "" : " \u2192 ") + s; };
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (chain.size() > 12 && i == 4) {
      add("\u2026");
      i = chain.size() - 8;
      continue;
    }
    const auto &r = region(chain[i]);
    add(r.paradigm == "openmp" && !r.file.empty() ? r.role + " @" + where(chain[i]) : r.name);
  }
  return out;
}

std::string Model::where(int c) const {
  const auto &r = region(c);
  if (r.file.empty()) return r.name;
  std::string file = r.file;
  if (auto slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return r.begin_line > 0 ? fmt::format("{}:{}", file, r.begin_line) : file;
}

std::string Model::location_name(std::size_t l) const {
  const auto &loc = p.locations[l];
  if (ranks.size() <= 1) return fmt::format("thread {}", loc.thread);
  bool threaded = false;
  for (const auto &o : p.locations) threaded = threaded || o.thread != 0;
  return threaded ? fmt::format("rank {} thread {}", loc.rank, loc.thread) : fmt::format("rank {}", loc.rank);
}

double run_thread_time(const Profile &p) { return Model(p).total; }

}  // namespace hcc::findings
