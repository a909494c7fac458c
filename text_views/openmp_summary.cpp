// hcc — the OpenMP part of the summary (ompP-style), keyed on regions of
// paradigm "openmp" and their roles, so it needs nothing but the call tree:
// a construct's execT is its inclusive time, its implicit barrier (a child
// of role "implicit barrier") its exitBarT, its body (sblock/section child,
// or for loops and parallel regions: execT − exitBarT) its bodyT.
//
// Overhead analysis per parallel region (ompP's four categories):
//  - imbalance: waiting at the implicit barrier of loops and of the
//    parallel region itself;
//  - limited parallelism: waiting at the implicit barrier of single and
//    sections (threads with nothing to do there);
//  - synchronisation: explicit barriers, waiting to enter critical
//    sections (execT − bodyT), lock calls, atomics, taskwait;
//  - thread management: Σ over threads of (longest thread's time in the
//    region − this thread's): time a thread of the team was not yet / no
//    longer in the region (team start-up and shut-down).
// Shares are of the region's total overhead, so they sum to 100 %.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "summary.hpp"

namespace hcc::profile {

namespace {

// A text view stays bounded whatever the tree: tables beyond this many
// (the smallest) are left to the .cubex.
constexpr size_t kMaxTables = 100;

std::string upper(std::string s) {
  for (char &c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string openmp_summary_text(const Profile &p) {
  const int time = p.metric_index("time"), visits = p.metric_index("visits");
  if (time < 0 || visits < 0 || p.cnodes.empty()) return "";
  const size_t nl = p.nloc(), nc = p.cnodes.size();
  auto region = [&](size_t c) -> const Region & { return p.regions[size_t(p.cnodes[c].region)]; };
  auto is_omp = [&](size_t c) { return region(c).paradigm == "openmp"; };
  bool any = false;
  for (size_t c = 0; c < nc && !any; ++c) any = is_omp(c);
  if (!any) return "";
  const std::vector<double> t = inclusive(p, size_t(time));
  std::vector<std::vector<size_t>> kids(nc);
  for (size_t c = 0; c < nc; ++c)
    if (p.cnodes[c].parent >= 0) kids[size_t(p.cnodes[c].parent)].push_back(c);
  // Time of `c`'s children with role `role`, at location l.
  auto child_time = [&](size_t c, const char *role, size_t l) {
    double v = 0;
    for (size_t k : kids[c])
      if (region(k).role == role) v += t[k * nl + l];
    return v;
  };
  auto child_visits = [&](size_t c, const char *role, size_t l) {
    double v = 0;
    for (size_t k : kids[c])
      if (region(k).role == role) v += p.at(size_t(visits), k, l);
    return v;
  };

  // One table per construct's call path; bodies and barriers are shown as
  // columns of their construct. At most kMaxTables of them, those with the
  // largest execT (summed over threads), in tree order.
  auto has_table = [&](size_t c) {
    if (!is_omp(c)) return false;
    const std::string &role = region(c).role;
    return !(role == "implicit barrier" || role == "critical sblock" || role == "single sblock" ||
             role == "section" || role == "ordered sblock");
  };
  auto exec_sum = [&](size_t c) {
    double v = 0;
    for (size_t l = 0; l < nl; ++l) v += t[c * nl + l];
    return v;
  };
  std::vector<size_t> tables;
  for (size_t c = 0; c < nc; ++c)
    if (has_table(c)) tables.push_back(c);
  const size_t all_tables = tables.size();
  if (tables.size() > kMaxTables) {
    std::stable_sort(tables.begin(), tables.end(), [&](size_t a, size_t b) { return exec_sum(a) > exec_sum(b); });
    tables.resize(kMaxTables);
    std::sort(tables.begin(), tables.end());
  }

  std::string out = "OPENMP (ompP-style; times in seconds, per thread and SUM)\n";
  if (tables.size() < all_tables)
    out += fmt::format("(the {} construct call paths of {} with the largest execT; all of them are in the .cubex)\n",
                       tables.size(), all_tables);
  int rid = 0;
  for (size_t c : tables) {
    const Region &r = region(c);
    const std::string &role = r.role;
    std::vector<std::string> cols = {"execT", "execC"};
    const char *body_role = nullptr;
    bool body_is_rest = false, has_bar = false, body_count = false;
    std::string body_name = "bodyT", count_name;
    if (role == "parallel" || role == "loop" || role == "workshare") {
      body_is_rest = has_bar = true;
    } else if (role == "sections") {
      body_role = "section", body_name = "sectT", body_count = true, count_name = "sectC", has_bar = true;
    } else if (role == "single") {
      body_role = "single sblock", body_name = "singleT", body_count = true, count_name = "singleC", has_bar = true;
    } else if (role == "critical") {
      body_role = "critical sblock";
    } else if (role == "ordered") {
      body_role = "ordered sblock";
    }
    const bool has_body = body_is_rest || body_role;
    if (has_body) cols.push_back(body_name);
    if (body_count) cols.push_back(count_name);
    if (has_bar) cols.push_back("exitBarT");
    if (role == "critical" || role == "ordered") cols.push_back("enterT");
    out += fmt::format("\nR{:05d} {} ({}-{}) {}\n", ++rid, r.file, r.begin_line, r.end_line,
                       upper(role));
    out += fmt::format("  {:>6}", "TID");
    for (const std::string &h : cols) out += fmt::format(" {:>12}", h);
    out += "\n";
    std::vector<double> sum(cols.size(), 0.0);
    for (size_t l = 0; l <= nl; ++l) {
      std::vector<double> v;
      if (l < nl) {
        const double exec = t[c * nl + l], bar = child_time(c, "implicit barrier", l);
        v = {exec, p.at(size_t(visits), c, l)};
        if (body_is_rest) v.push_back(exec - bar);
        else if (body_role) v.push_back(child_time(c, body_role, l));
        if (body_count) v.push_back(child_visits(c, body_role, l));
        if (has_bar) v.push_back(bar);
        if (role == "critical" || role == "ordered") v.push_back(exec - child_time(c, body_role, l));
        if (v[1] == 0 && exec == 0) continue;  // thread never there
        for (size_t i = 0; i < v.size(); ++i) sum[i] += v[i];
      } else {
        v = sum;
      }
      out += l < nl ? fmt::format("  {:>6}", l) : fmt::format("  {:>6}", "SUM");
      for (size_t i = 0; i < v.size(); ++i)
        out += i == 1 || (body_count && i == 3) ? fmt::format(" {:>12.0f}", v[i]) : fmt::format(" {:>12.6f}", v[i]);
      out += "\n";
    }
  }

  // Overheads per parallel region: every OpenMP node below it (not below a
  // nested parallel region) counts for it.
  struct Over {
    double total = 0, sync = 0, imbal = 0, limpar = 0, mgmt = 0;
    int rid = 0;
  };
  std::vector<std::pair<size_t, Over>> regions;
  for (size_t c = 0; c < nc; ++c) {
    if (region(c).role != "parallel") continue;
    Over o;
    double longest = 0;
    for (size_t l = 0; l < nl; ++l) longest = std::max(longest, t[c * nl + l]);
    size_t members = 0;
    for (size_t l = 0; l < nl; ++l)
      if (p.at(size_t(visits), c, l) > 0) {
        ++members;
        o.mgmt += longest - t[c * nl + l];
      }
    o.total = longest * double(members);
    std::vector<size_t> todo(kids[c].begin(), kids[c].end());
    while (!todo.empty()) {
      size_t k = todo.back();
      todo.pop_back();
      const std::string &role = region(k).role;
      if (role == "parallel") continue;
      double sum = 0, body = 0;
      for (size_t l = 0; l < nl; ++l) sum += t[k * nl + l];
      const size_t par = size_t(p.cnodes[k].parent);
      const std::string &prole = region(par).role;
      if (role == "implicit barrier") {
        if (prole == "single" || prole == "sections") o.limpar += sum;
        else o.imbal += sum;
      } else if (role == "barrier" || role == "lock" || role == "atomic" || role == "taskwait") {
        o.sync += sum;
      } else if (role == "critical") {
        for (size_t l = 0; l < nl; ++l) body += child_time(k, "critical sblock", l);
        o.sync += sum - body;
      }
      // Time inside lock calls / taskwait is all waiting; nodes below them
      // (tasks run while waiting) are not searched further.
      if (role == "taskwait" || role == "lock" || role == "barrier") continue;
      for (size_t g : kids[k]) todo.push_back(g);
    }
    regions.push_back({c, o});
  }
  if (!regions.empty()) {
    out += "\nOVERHEAD ANALYSIS (share of each region's overhead; ovhd = % of the region's total thread time)\n";
    out += fmt::format("  {:<40} {:>10} {:>10} {:>7} {:>8} {:>8} {:>8} {:>8}\n", "parallel region", "total",
                       "overhead", "ovhd%", "sync%", "imbal%", "limpar%", "mgmt%");
    Over all;
    auto line = [&](const std::string &name, const Over &o) {
      const double ov = o.sync + o.imbal + o.limpar + o.mgmt;
      auto share = [&](double x) { return ov > 0 ? 100.0 * x / ov : 0.0; };
      out += fmt::format("  {:<40} {:>10.6f} {:>10.6f} {:>7.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f}\n", name,
                         o.total, ov, o.total > 0 ? 100.0 * ov / o.total : 0.0, share(o.sync),
                         share(o.imbal), share(o.limpar), share(o.mgmt));
    };
    for (auto &[c, o] : regions)
      all.total += o.total, all.sync += o.sync, all.imbal += o.imbal, all.limpar += o.limpar, all.mgmt += o.mgmt;
    // At most kMaxTables parallel regions' call paths by name, the largest
    // total; "whole program" counts them all.
    std::vector<size_t> shown(regions.size());
    for (size_t i = 0; i < shown.size(); ++i) shown[i] = i;
    if (shown.size() > kMaxTables) {
      std::stable_sort(shown.begin(), shown.end(),
                       [&](size_t a, size_t b) { return regions[a].second.total > regions[b].second.total; });
      shown.resize(kMaxTables);
      std::sort(shown.begin(), shown.end());
    }
    for (size_t i : shown) {
      const Region &r = region(regions[i].first);
      line(fmt::format("{}:{}", r.file, r.begin_line), regions[i].second);
    }
    if (shown.size() < regions.size())
      out += fmt::format("  ({} more parallel region call paths, in the .cubex)\n", regions.size() - shown.size());
    line("whole program", all);
  }
  return out;
}

}  // namespace hcc::profile
