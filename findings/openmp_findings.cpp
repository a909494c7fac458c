// hcc findings — OpenMP: ompP's overhead categories per construct
// (imbalance, limited parallelism, synchronisation, thread management) and
// the serial part of a threaded run, from the constructs' regions and roles
// alone (text_views/openmp_summary.cpp reads them the same way).
#include <fmt/format.h>

#include <algorithm>

#include "model.hpp"

namespace hcc::findings {
namespace {

// "thread 2", "threads 1 and 3", "threads 0, 1 and 5" (at most 6 named).
std::string names(const Model &m, const std::vector<std::size_t> &ls) {
  std::string out = ls.size() == 1 ? "" : "threads ";
  for (std::size_t i = 0; i < ls.size() && i < 6; ++i) {
    std::string n = m.location_name(ls[i]);
    if (ls.size() > 1 && n.rfind("thread ", 0) == 0) n = n.substr(7);
    out += (i == 0 ? "" : i + 1 == ls.size() ? " and " : ", ") + n;
  }
  if (ls.size() > 6) out += fmt::format(" and {} more", ls.size() - 6);
  return out;
}

// The locations that waited least at `wait` among those in `construct`:
// the ones the others waited for.
std::vector<std::size_t> late(const Model &m, int construct, const std::vector<double> &wait) {
  double lo = 1e300, hi = -1e300;
  for (std::size_t l = 0; l < m.nl; ++l)
    if (m.v(construct, l) > 0) lo = std::min(lo, wait[l]), hi = std::max(hi, wait[l]);
  std::vector<std::size_t> out;
  for (std::size_t l = 0; l < m.nl; ++l)
    if (m.v(construct, l) > 0 && wait[l] <= lo + 0.1 * (hi - lo)) out.push_back(l);
  return out;
}

double child_time(const Model &m, int c, const char *role, std::size_t l) {
  double s = 0;
  for (int k : m.kids[std::size_t(c)])
    if (m.region(k).role == role) s += m.t(k, l);
  return s;
}

std::string construct_name(const Model &m, int c) {
  const std::string &role = m.region(c).role;
  const std::string what = role == "parallel" ? "parallel region" : role;
  return fmt::format("{} at {}", what, m.where(c));
}

void barrier_finding(const Model &m, int bar, std::vector<Finding> &out) {
  const int con = m.p.cnodes[std::size_t(bar)].parent;
  if (con < 0) return;
  const std::string &prole = m.region(con).role;
  const bool limited = prole == "single" || prole == "sections";
  std::vector<double> wait(m.nl);
  for (std::size_t l = 0; l < m.nl; ++l) wait[l] = m.t(bar, l);
  Finding f;
  f.cost_s = m.t_sum(bar);
  f.callpath = bar;
  f.path = m.path(bar);
  auto in = [&](std::size_t l) { return m.v(con, l) > 0; };
  f.evidence.push_back(per_location(m, "waiting at the implicit barrier", "s", [&](std::size_t l) { return wait[l]; }, in));
  const auto last = late(m, con, wait);
  if (limited) {
    f.kind = "openmp.limited_parallelism";
    f.title = "limited parallelism in the " + construct_name(m, con);
    f.meaning = fmt::format("{} had the {}'s work and the others waited for them at its implicit barrier: give "
                            "the team more to share (more sections, tasks) or let it go on (nowait)",
                            names(m, last), prole);
  } else {
    f.kind = "openmp.imbalance";
    f.title = "load imbalance in the " + construct_name(m, con);
    f.evidence.push_back(per_location(
        m, "working (execT - exitBarT)", "s", [&](std::size_t l) { return m.t(con, l) - wait[l]; }, in));
    f.meaning = fmt::format("{} finished last; the others waited for {} at the implicit barrier: split the work "
                            "by its cost, or schedule(dynamic) / schedule(guided)",
                            names(m, last), last.size() == 1 ? "it" : "them");
  }
  out.push_back(std::move(f));
}

// Waiting to enter a critical (or ordered) section: its time outside its body.
void enter_finding(const Model &m, int c, const char *body_role, std::vector<Finding> &out) {
  std::vector<double> wait(m.nl), body(m.nl);
  double cost = 0;
  for (std::size_t l = 0; l < m.nl; ++l) {
    body[l] = child_time(m, c, body_role, l);
    wait[l] = std::max(0.0, m.t(c, l) - body[l]);
    cost += wait[l];
  }
  Finding f;
  const bool critical = m.region(c).role == "critical";
  f.kind = critical ? "openmp.critical" : "openmp.ordered";
  f.title = fmt::format("waiting to enter the {}", construct_name(m, c));
  f.cost_s = cost;
  f.callpath = c;
  f.path = m.path(c);
  auto in = [&](std::size_t l) { return m.v(c, l) > 0; };
  f.evidence.push_back(per_location(m, "waiting to enter (execT - bodyT)", "s", [&](std::size_t l) { return wait[l]; }, in));
  f.evidence.push_back(per_location(m, "inside (bodyT)", "s", [&](std::size_t l) { return body[l]; }, in));
  f.evidence.push_back(per_location(m, "entries", "calls", [&](std::size_t l) { return m.v(c, l); }, in));
  f.meaning = critical ? "threads queued while another held the section: hold it for less (compute outside, update "
                         "inside), or use a reduction or an atomic"
                       : "threads waited for the iterations before theirs: an ordered section serialises the loop";
  out.push_back(std::move(f));
}

void wait_finding(const Model &m, int c, std::vector<Finding> &out) {
  const std::string &role = m.region(c).role;
  Finding f;
  f.cost_s = m.t_sum(c);
  f.callpath = c;
  f.path = m.path(c);
  std::vector<double> wait(m.nl);
  for (std::size_t l = 0; l < m.nl; ++l) wait[l] = m.t(c, l);
  auto in = [&](std::size_t l) { return m.v(c, l) > 0; };
  f.evidence.push_back(per_location(m, "waiting", "s", [&](std::size_t l) { return wait[l]; }, in));
  if (role == "barrier") {
    f.kind = "openmp.barrier";
    f.title = "waiting at the explicit " + construct_name(m, c);
    f.meaning = fmt::format("the team waited for {} to reach the barrier: balance the work before it, or drop "
                            "it where the threads do not depend on each other's results",
                            names(m, late(m, c, wait)));
  } else if (role == "lock") {
    f.kind = "openmp.lock";
    f.title = fmt::format("waiting in {} at {}", m.region(c).name, m.where(c));
    f.meaning = "time in OpenMP lock calls: threads wanted a lock another held";
  } else {
    f.kind = "openmp.taskwait";
    f.title = "waiting for tasks at the " + construct_name(m, c);
    f.meaning = "the thread waited for its child tasks: create them earlier, or give it other work meanwhile";
  }
  out.push_back(std::move(f));
}

// Team start-up and shut-down: a thread's time outside the region while the
// longest thread was in it.
void management_finding(const Model &m, int c, std::vector<Finding> &out) {
  double longest = 0, cost = 0;
  for (std::size_t l = 0; l < m.nl; ++l) longest = std::max(longest, m.t(c, l));
  for (std::size_t l = 0; l < m.nl; ++l)
    if (m.v(c, l) > 0) cost += longest - m.t(c, l);
  Finding f;
  f.kind = "openmp.thread_management";
  f.title = "starting and ending the team of the " + construct_name(m, c);
  f.cost_s = cost;
  f.callpath = c;
  f.path = m.path(c);
  auto in = [&](std::size_t l) { return m.v(c, l) > 0; };
  f.evidence.push_back(per_location(m, "in the region", "s", [&](std::size_t l) { return m.t(c, l); }, in));
  f.evidence.push_back(per_location(m, "entries", "calls", [&](std::size_t l) { return m.v(c, l); }, in));
  f.meaning = "threads joined the region late or left it early: fewer and longer parallel regions pay less of it";
  out.push_back(std::move(f));
}

// Per process: the master thread's time outside the outermost parallel
// regions, which the rest of the team spends idle.
void serial_finding(const Model &m, std::vector<Finding> &out) {
  Evidence serial{"outside parallel regions (master thread)", "s", {}, {}};
  Evidence team{"largest team", "threads", {}, {}};
  double cost = 0, serial_sum = 0, master_sum = 0;
  int root = -1;
  for (std::size_t r = 0; r < m.ranks.size(); ++r) {
    std::size_t master = m.nl;
    std::vector<std::size_t> locs;
    for (std::size_t l = 0; l < m.nl; ++l)
      if (std::size_t(m.rank_index[l]) == r) {
        locs.push_back(l);
        if (master == m.nl || m.p.locations[l].thread < m.p.locations[master].thread) master = l;
      }
    double in_parallel = 0, own = 0, size = 0;
    for (std::size_t c = 0; c < m.nc; ++c) {
      const int ci = int(c);
      if (m.p.cnodes[c].parent < 0) {
        own += m.t(ci, master);
        if (root < 0 && m.t(ci, master) > 0) root = ci;
      }
      if (m.region(ci).role != "parallel" || m.region(ci).paradigm != "openmp") continue;
      double members = 0;
      for (std::size_t l : locs) members += m.v(ci, l) > 0 ? 1 : 0;
      size = std::max(size, members);
      const int par = m.p.cnodes[c].parent;
      if (par < 0 || !m.in_openmp[std::size_t(par)]) in_parallel += m.t(ci, master);
    }
    if (size < 2) continue;
    const double s = std::max(0.0, own - in_parallel);
    cost += s * (size - 1);
    serial_sum += s;
    master_sum += own;
    serial.keys.push_back(m.location_name(master));
    serial.values.push_back(s);
    team.keys.push_back(m.location_name(master));
    team.values.push_back(size);
  }
  if (serial.values.empty() || master_sum <= 0) return;
  const double frac = serial_sum / master_sum;
  double threads = 0;
  for (double x : team.values) threads = std::max(threads, x);
  Finding f;
  f.kind = "openmp.serial";
  f.title = "the serial part of a threaded run";
  f.cost_s = cost;
  f.callpath = root;
  f.path = root >= 0 ? m.path(root) + " (outside parallel regions)" : "";
  f.evidence = {serial, team};
  f.evidence.push_back({"serial share of the master thread's time", "%", {}, {100 * frac}});
  f.meaning = fmt::format("the other threads idle while the master runs alone: with this serial share the run "
                          "cannot be more than {:.1f}x faster on {:.0f} threads than on one (Amdahl), {:.1f}x on "
                          "any number",
                          1 / (frac + (1 - frac) / threads), threads, frac > 0 ? 1 / frac : 0.0);
  out.push_back(std::move(f));
}

}  // namespace

void openmp_findings(const Model &m, std::vector<Finding> &out) {
  bool any = false;
  for (std::size_t c = 0; c < m.nc && !any; ++c) any = m.region(int(c)).paradigm == "openmp";
  if (!any || m.time < 0) return;
  for (std::size_t c = 0; c < m.nc; ++c) {
    const int ci = int(c);
    const auto &r = m.region(ci);
    if (r.paradigm != "openmp") continue;
    if (r.role == "implicit barrier") barrier_finding(m, ci, out);
    else if (r.role == "critical") enter_finding(m, ci, "critical sblock", out);
    else if (r.role == "ordered") enter_finding(m, ci, "ordered sblock", out);
    else if (r.role == "barrier" || r.role == "lock" || r.role == "taskwait") wait_finding(m, ci, out);
    else if (r.role == "parallel") management_finding(m, ci, out);
  }
  serial_finding(m, out);
}

}  // namespace hcc::findings
