// hcc findings — MPI, from the wrappers' timings (no trace needed): ranks
// waiting in a collective for the last to arrive, and what that rank did
// instead; waiting in receives (a late sender) and in blocking sends (a late
// receiver); many small messages. Per outermost MPI call path, every rank's
// time summed over its threads.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "model.hpp"

namespace hcc::findings {
namespace {

bool one_of(const std::string &name, std::initializer_list<const char *> list) {
  for (const char *s : list)
    if (name == s) return true;
  return false;
}

bool collective(const std::string &n) {
  return one_of(n, {"MPI_Allreduce", "MPI_Reduce", "MPI_Barrier", "MPI_Bcast", "MPI_Allgather", "MPI_Allgatherv",
                    "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Alltoall", "MPI_Alltoallv",
                    "MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Exscan",
                    "MPI_Finalize", "MPI_Comm_split", "MPI_Comm_dup", "MPI_Comm_create"});
}
bool receive_wait(const std::string &n) {
  return one_of(n, {"MPI_Recv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Probe",
                    "MPI_Sendrecv", "MPI_Sendrecv_replace"});
}
constexpr double kEagerBytes = 4096;

bool blocking_send(const std::string &n) { return one_of(n, {"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend"}); }
bool any_send(const std::string &n) {
  return blocking_send(n) || one_of(n, {"MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend", "MPI_Sendrecv"});
}

// Per rank (index into m.ranks): `value(c, l)` summed over the rank's threads.
template <class F>
std::vector<double> per_rank(const Model &m, F value) {
  std::vector<double> out(m.ranks.size(), 0);
  for (std::size_t l = 0; l < m.nl; ++l) out[std::size_t(m.rank_index[l])] += value(l);
  return out;
}

Evidence rank_row(const Model &m, std::string what, std::string unit, const std::vector<double> &v,
                  const std::vector<double> &present) {
  Evidence e{std::move(what), std::move(unit), {}, {}};
  for (std::size_t r = 0; r < v.size(); ++r)
    if (present[r] > 0) e.keys.push_back(fmt::format("rank {}", m.ranks[r])), e.values.push_back(v[r]);
  return e;
}

// What the late rank `r` spent more time on than the other ranks' mean,
// outside MPI: per call path its time outside MPI calls (exclusive times
// of its non-MPI subtree), the excess over the others' mean; from the root
// with the most, down to the child holding most of it while that child
// holds at least half of it (main -> std::ostream::flush, not main, and not
// one of flush's leaves).
std::pair<int, double> excess_on(const Model &m, std::size_t r) {
  const double others = double(m.ranks.size() - 1);
  std::vector<double> ex(m.nc, 0);
  for (std::size_t c = 0; c < m.nc; ++c) {
    if (m.in_mpi[c]) continue;
    double mine = 0, rest = 0;
    for (std::size_t l = 0; l < m.nl; ++l) (std::size_t(m.rank_index[l]) == r ? mine : rest) += m.excl_t(int(c), l);
    ex[c] = mine - rest / others;
  }
  for (std::size_t c = m.nc; c-- > 0;)  // parents come before their children
    if (m.p.cnodes[c].parent >= 0) ex[std::size_t(m.p.cnodes[c].parent)] += ex[c];
  int at = -1;
  for (std::size_t c = 0; c < m.nc; ++c)
    if (m.p.cnodes[c].parent < 0 && (at < 0 || ex[c] > ex[std::size_t(at)])) at = int(c);
  if (at < 0 || ex[std::size_t(at)] <= 0) return {-1, 0};
  for (;;) {
    int best = -1;
    for (int k : m.kids[std::size_t(at)])
      if (best < 0 || ex[std::size_t(k)] > ex[std::size_t(best)]) best = k;
    if (best < 0 || ex[std::size_t(best)] < 0.5 * ex[std::size_t(at)]) break;
    at = best;
  }
  return {at, ex[std::size_t(at)]};
}

// The late ranks' excess, each computed once and for at most this many
// ranks (each costs a pass over the profile's values).
constexpr std::size_t kCausesComputed = 8;
using Causes = std::map<std::size_t, std::pair<int, double>>;

void collective_finding(const Model &m, int c, Causes &causes, std::vector<Finding> &out) {
  const auto t = per_rank(m, [&](std::size_t l) { return m.t(c, l); });
  const auto n = per_rank(m, [&](std::size_t l) { return m.v(c, l); });
  double lo = 1e300;
  std::size_t last = 0, present = 0;
  for (std::size_t r = 0; r < t.size(); ++r)
    if (n[r] > 0 && t[r] < lo) lo = t[r], last = r;
  double cost = 0;
  for (std::size_t r = 0; r < t.size(); ++r)
    if (n[r] > 0) cost += t[r] - lo, ++present;
  if (present < 2) return;
  const std::string &name = m.region(c).name;
  Finding f;
  f.kind = "mpi.collective_wait";
  f.title = fmt::format("ranks waiting in {} for rank {}", name, m.ranks[last]);
  f.cost_s = cost;
  f.callpath = c;
  f.path = m.path(c);
  f.evidence.push_back(rank_row(m, "time in " + name, "s", t, n));
  f.evidence.push_back(rank_row(m, "calls", "calls", n, n));
  f.meaning = fmt::format("rank {} reached {} last (it spent the least time in it) and the others waited for it",
                          m.ranks[last], name);
  if (!causes.count(last) && causes.size() < kCausesComputed) causes[last] = excess_on(m, last);
  const auto known = causes.find(last);
  const int cause = known == causes.end() ? -1 : known->second.first;
  const double excess = cause < 0 ? 0 : known->second.second;
  if (cause >= 0 && excess > 0.1 * cost / double(present - 1)) {
    f.evidence.push_back({fmt::format("rank {}'s time more than the other ranks' mean in {}", m.ranks[last],
                                      m.path(cause)),
                          "s", {}, {excess}});
    // "std::ostream::flush() → … → __write": where below the root it starts, and the frame it ends in.
    int top = cause;
    while (m.p.cnodes[std::size_t(top)].parent >= 0 && m.p.cnodes[std::size_t(m.p.cnodes[std::size_t(top)].parent)].parent >= 0)
      top = m.p.cnodes[std::size_t(top)].parent;
    const std::string where = top == cause ? m.region(cause).name
                              : m.p.cnodes[std::size_t(cause)].parent == top
                                  ? m.region(top).name + " \u2192 " + m.region(cause).name
                                  : m.region(top).name + " \u2192 \u2026 \u2192 " + m.region(cause).name;
    f.meaning += fmt::format(": it spent {:.3g} s more than the others in {}", excess, where);
  }
  out.push_back(std::move(f));
}

void wait_finding(const Model &m, int c, bool receive, std::vector<Finding> &out) {
  const auto t = per_rank(m, [&](std::size_t l) { return m.t(c, l); });
  const auto n = per_rank(m, [&](std::size_t l) { return m.v(c, l); });
  const std::string &name = m.region(c).name;
  Finding f;
  f.kind = receive ? "mpi.late_sender" : "mpi.late_receiver";
  f.title = receive ? fmt::format("waiting in {} for messages (late senders)", name)
                    : fmt::format("waiting in {} for receivers (late receivers)", name);
  f.cost_s = m.t_sum(c);
  f.callpath = c;
  f.path = m.path(c);
  f.evidence.push_back(rank_row(m, "time in " + name, "s", t, n));
  f.evidence.push_back(rank_row(m, "calls", "calls", n, n));
  const int bytes = m.p.metric_index(receive ? "bytes_received" : "bytes_sent");
  if (bytes >= 0) {
    const auto b = per_rank(m, [&](std::size_t l) { return m.p.at(std::size_t(bytes), std::size_t(c), l); });
    f.evidence.push_back(rank_row(m, receive ? "bytes received" : "bytes sent", "bytes", b, n));
    // A standard send of small messages goes eagerly and waits for no one
    // (Open MPI's shared-memory eager limit is 4 KiB): its time is the
    // latency the small-messages kind counts.
    double calls = 0, sent = 0;
    for (std::size_t r = 0; r < b.size(); ++r) calls += n[r], sent += b[r];
    if (!receive && name != "MPI_Ssend" && calls > 0 && sent / calls < kEagerBytes) return;
  }
  f.meaning = receive ? "a blocking receive waits until its message arrives: its sender reached the send later "
                        "(or the message is large); post the receive earlier (MPI_Irecv) and do work meanwhile"
                      : "a blocking send of a message too large to go eagerly waits for the receiver to post its "
                        "receive: post receives earlier, or send with MPI_Isend";
  out.push_back(std::move(f));
}

// Many small messages: each pays the latency, on both sides. The cost is
// the time in the sends and in the receives and waits of the run.
void small_messages_finding(const Model &m, const std::vector<int> &sends, const std::vector<int> &receives,
                            std::vector<Finding> &out) {
  const int bytes = m.p.metric_index("bytes_sent");
  double calls = 0, sent = 0, cost = 0;
  int busiest = -1;
  double busiest_calls = 0;
  for (int c : sends) {
    double n = 0;
    for (std::size_t l = 0; l < m.nl; ++l) {
      n += m.v(c, l);
      if (bytes >= 0) sent += m.p.at(std::size_t(bytes), std::size_t(c), l);
    }
    calls += n;
    cost += m.t_sum(c);
    if (n > busiest_calls) busiest_calls = n, busiest = c;
  }
  for (int c : receives) cost += m.t_sum(c);
  if (bytes < 0 || calls < 10000 || sent / calls >= kEagerBytes || busiest < 0) return;
  Finding f;
  f.kind = "mpi.small_messages";
  f.title = fmt::format("{:.0f} small messages ({:.0f} bytes each on average)", calls, sent / calls);
  f.cost_s = cost;
  f.callpath = busiest;
  f.path = m.path(busiest);
  f.evidence.push_back({"messages sent", "calls", {}, {calls}});
  f.evidence.push_back({"bytes sent", "bytes", {}, {sent}});
  f.evidence.push_back({"time in sends, receives and waits", "s", {}, {cost}});
  f.meaning = "every message pays the network's latency whatever its size: send fewer, larger messages "
              "(pack them, or aggregate per neighbour)";
  out.push_back(std::move(f));
}

}  // namespace

void mpi_findings(const Model &m, std::vector<Finding> &out) {
  if (m.time < 0) return;
  std::vector<int> sends, receives;
  Causes causes;
  for (std::size_t c = 0; c < m.nc; ++c) {
    const int ci = int(c), par = m.p.cnodes[c].parent;
    const auto &r = m.region(ci);
    if (r.paradigm != "mpi" || (par >= 0 && m.in_mpi[std::size_t(par)])) continue;
    if (collective(r.name) && m.ranks.size() > 1) collective_finding(m, ci, causes, out);
    else if (receive_wait(r.name)) wait_finding(m, ci, true, out);
    else if (blocking_send(r.name)) wait_finding(m, ci, false, out);
    if (any_send(r.name)) sends.push_back(ci);
    else if (receive_wait(r.name)) receives.push_back(ci);  // a sendrecv's time is counted once
  }
  small_messages_finding(m, sends, receives, out);
}

}  // namespace hcc::findings
