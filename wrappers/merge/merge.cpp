// hcc — cross-rank merge (see merge.hpp).
#include "merge.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace hcc::mpimerge {

namespace {

using profile::CallNode;
using profile::Metric;
using profile::Profile;
using profile::Region;

// --- a tiny little-endian-agnostic byte stream (same machine type on all ranks) ---
struct Writer {
  std::string out;
  template <class T>
  void pod(T v) {
    out.append(reinterpret_cast<const char *>(&v), sizeof v);
  }
  void str(const std::string &s) {
    pod<uint32_t>(uint32_t(s.size()));
    out += s;
  }
};

struct Reader {
  const std::string &in;
  size_t pos = 0;
  template <class T>
  T pod() {
    if (in.size() - pos < sizeof(T)) throw std::runtime_error("truncated merge message");
    T v;
    std::memcpy(&v, in.data() + pos, sizeof v);
    pos += sizeof v;
    return v;
  }
  std::string str() {
    uint32_t n = pod<uint32_t>();
    if (in.size() - pos < n) throw std::runtime_error("truncated merge message");
    std::string s = in.substr(pos, n);
    pos += n;
    return s;
  }
};

std::string region_key(const Region &r) {
  std::string k;
  k.reserve(r.name.size() + r.file.size() + 32);
  for (const std::string *s : {&r.name, &r.mangled, &r.file, &r.paradigm, &r.role}) {
    k += *s;
    k += '\0';
  }
  k += std::to_string(r.begin_line);
  k += ':';
  k += std::to_string(r.end_line);
  return k;
}

uint64_t cnode_key(int parent, int region) {
  return (uint64_t(uint32_t(parent + 1)) << 32) | uint32_t(region);
}

}  // namespace

Defs defs_of(const Profile &p) { return Defs{p.metrics, p.regions, p.cnodes}; }

std::string serialize(const Defs &d) {
  Writer w;
  w.pod<uint32_t>(0x68636331);  // "hcc1"
  w.pod<uint32_t>(uint32_t(d.metrics.size()));
  for (const Metric &m : d.metrics) {
    w.str(m.uniq_name), w.str(m.disp_name), w.str(m.uom), w.str(m.descr), w.str(m.url);
    w.pod<int32_t>(int32_t(m.dtype)), w.pod<int32_t>(int32_t(m.cube_type)), w.pod<int32_t>(m.parent);
  }
  w.pod<uint32_t>(uint32_t(d.regions.size()));
  for (const Region &r : d.regions) {
    w.str(r.name), w.str(r.mangled), w.str(r.file), w.str(r.paradigm), w.str(r.role), w.str(r.descr);
    w.pod<int32_t>(r.begin_line), w.pod<int32_t>(r.end_line);
  }
  w.pod<uint32_t>(uint32_t(d.cnodes.size()));
  for (const CallNode &c : d.cnodes) w.pod<int32_t>(c.region), w.pod<int32_t>(c.parent);
  return std::move(w.out);
}

Defs deserialize(const std::string &bytes) {
  Reader r{bytes};
  if (r.pod<uint32_t>() != 0x68636331) throw std::runtime_error("not an hcc merge message");
  Defs d;
  d.metrics.resize(r.pod<uint32_t>());
  for (Metric &m : d.metrics) {
    m.uniq_name = r.str(), m.disp_name = r.str(), m.uom = r.str(), m.descr = r.str(), m.url = r.str();
    m.dtype = profile::DType(r.pod<int32_t>());
    m.cube_type = profile::CubeType(r.pod<int32_t>());
    m.parent = r.pod<int32_t>();
  }
  d.regions.resize(r.pod<uint32_t>());
  for (Region &g : d.regions) {
    g.name = r.str(), g.mangled = r.str(), g.file = r.str(), g.paradigm = r.str(), g.role = r.str(),
    g.descr = r.str();
    g.begin_line = r.pod<int32_t>(), g.end_line = r.pod<int32_t>();
  }
  uint32_t n = r.pod<uint32_t>();
  if (n > bytes.size()) throw std::runtime_error("bad call-path count in merge message");
  d.cnodes.resize(n);
  for (size_t i = 0; i < n; ++i) {
    CallNode &c = d.cnodes[i];
    c.region = r.pod<int32_t>(), c.parent = r.pod<int32_t>();
    if (c.region < 0 || size_t(c.region) >= d.regions.size() || c.parent >= int(i) || c.parent < -1)
      throw std::runtime_error("bad call path in merge message");
  }
  return d;
}

void merge_into(Defs &a, const Defs &b) {
  // Metrics: by unique name; a metric's parent is remapped as well.
  std::unordered_map<std::string, int> metric_of;
  for (size_t i = 0; i < a.metrics.size(); ++i) metric_of.emplace(a.metrics[i].uniq_name, int(i));
  std::vector<int> mmap(b.metrics.size());
  for (size_t i = 0; i < b.metrics.size(); ++i) {
    auto [it, added] = metric_of.emplace(b.metrics[i].uniq_name, int(a.metrics.size()));
    if (added) {
      a.metrics.push_back(b.metrics[i]);
      int par = b.metrics[i].parent;
      a.metrics.back().parent = par >= 0 && size_t(par) < i ? mmap[par] : -1;
    }
    mmap[i] = it->second;
  }
  // Regions.
  std::unordered_map<std::string, int> region_of;
  region_of.reserve(a.regions.size() + b.regions.size());
  for (size_t i = 0; i < a.regions.size(); ++i) region_of.emplace(region_key(a.regions[i]), int(i));
  std::vector<int> rmap(b.regions.size());
  for (size_t i = 0; i < b.regions.size(); ++i) {
    auto [it, added] = region_of.emplace(region_key(b.regions[i]), int(a.regions.size()));
    if (added) a.regions.push_back(b.regions[i]);
    rmap[i] = it->second;
  }
  // Call paths: b's parents come first, so they are mapped before their children.
  std::unordered_map<uint64_t, int> cnode_of;
  cnode_of.reserve(a.cnodes.size() + b.cnodes.size());
  for (size_t i = 0; i < a.cnodes.size(); ++i)
    cnode_of.emplace(cnode_key(a.cnodes[i].parent, a.cnodes[i].region), int(i));
  std::vector<int> cmap(b.cnodes.size());
  for (size_t i = 0; i < b.cnodes.size(); ++i) {
    int parent = b.cnodes[i].parent < 0 ? -1 : cmap[b.cnodes[i].parent];
    int region = rmap[b.cnodes[i].region];
    auto [it, added] = cnode_of.emplace(cnode_key(parent, region), int(a.cnodes.size()));
    if (added) a.cnodes.push_back(CallNode{region, parent});
    cmap[i] = it->second;
  }
}

Defs canonical(const Defs &d) {
  Defs out{d.metrics, d.regions, {}};
  std::vector<std::vector<int>> kids(d.cnodes.size());
  std::vector<int> roots;
  for (int i = 0; i < int(d.cnodes.size()); ++i)
    (d.cnodes[i].parent < 0 ? roots : kids[d.cnodes[i].parent]).push_back(i);
  std::vector<int> new_id(d.cnodes.size(), -1);
  std::vector<int> todo(roots.rbegin(), roots.rend());
  out.cnodes.reserve(d.cnodes.size());
  while (!todo.empty()) {
    int c = todo.back();
    todo.pop_back();
    new_id[c] = int(out.cnodes.size());
    int par = d.cnodes[c].parent;
    out.cnodes.push_back(CallNode{d.cnodes[c].region, par < 0 ? -1 : new_id[par]});
    todo.insert(todo.end(), kids[c].rbegin(), kids[c].rend());
  }
  return out;
}

Mapping map_local(const Defs &global, const Profile &local) {
  Mapping m;
  std::unordered_map<std::string, int> metric_of;
  for (size_t i = 0; i < global.metrics.size(); ++i) metric_of.emplace(global.metrics[i].uniq_name, int(i));
  for (const Metric &x : local.metrics) {
    auto it = metric_of.find(x.uniq_name);
    m.metric.push_back(it == metric_of.end() ? -1 : it->second);
  }
  std::unordered_map<std::string, int> region_of;
  region_of.reserve(global.regions.size());
  for (size_t i = 0; i < global.regions.size(); ++i) region_of.emplace(region_key(global.regions[i]), int(i));
  std::vector<int> rmap;
  rmap.reserve(local.regions.size());
  for (const Region &r : local.regions) {
    auto it = region_of.find(region_key(r));
    rmap.push_back(it == region_of.end() ? -1 : it->second);
  }
  std::unordered_map<uint64_t, int> cnode_of;
  cnode_of.reserve(global.cnodes.size());
  for (size_t i = 0; i < global.cnodes.size(); ++i)
    cnode_of.emplace(cnode_key(global.cnodes[i].parent, global.cnodes[i].region), int(i));
  m.cnode.assign(local.cnodes.size(), -1);
  for (size_t i = 0; i < local.cnodes.size(); ++i) {
    const CallNode &c = local.cnodes[i];
    int parent = c.parent < 0 ? -1 : m.cnode[c.parent];
    int region = rmap[c.region];
    if ((c.parent >= 0 && parent < 0) || region < 0) continue;
    auto it = cnode_of.find(cnode_key(parent, region));
    if (it != cnode_of.end()) m.cnode[i] = it->second;
  }
  return m;
}

std::string pack_values(const Profile &local, const Mapping &m, size_t n_global_metrics, const std::string &host) {
  const size_t nloc = local.nloc();
  Writer w;
  w.pod<uint32_t>(0x68636332);
  w.str(host);
  w.pod<uint32_t>(uint32_t(nloc));
  size_t rows = 0;
  for (int g : m.cnode) rows += g >= 0;
  w.pod<uint64_t>(rows);
  w.out.reserve(w.out.size() + rows * (4 + 8 * n_global_metrics * nloc));
  std::vector<double> row(n_global_metrics * nloc);
  for (size_t c = 0; c < local.cnodes.size(); ++c) {
    if (m.cnode[c] < 0) continue;
    std::fill(row.begin(), row.end(), 0.0);
    for (size_t k = 0; k < local.metrics.size(); ++k) {
      if (m.metric[k] < 0) continue;
      for (size_t l = 0; l < nloc; ++l) row[size_t(m.metric[k]) * nloc + l] = local.at(k, c, l);
    }
    w.pod<int32_t>(m.cnode[c]);
    w.out.append(reinterpret_cast<const char *>(row.data()), row.size() * sizeof(double));
  }
  // Control flow (Profile::preds): a flag, then (call path, predecessor,
  // count per thread) in global ids, in the local lists' order.
  w.pod<uint8_t>(local.preds.empty() ? 0 : 1);
  if (!local.preds.empty()) {
    uint64_t n = 0;
    for (size_t c = 0; c < local.preds.size(); ++c)
      if (m.cnode[c] >= 0)
        for (const auto &pr : local.preds[c]) n += m.cnode[size_t(pr.callpath)] >= 0;
    w.pod<uint64_t>(n);
    for (size_t c = 0; c < local.preds.size(); ++c) {
      if (m.cnode[c] < 0) continue;
      for (const auto &pr : local.preds[c]) {
        if (m.cnode[size_t(pr.callpath)] < 0) continue;
        w.pod<int32_t>(m.cnode[c]);
        w.pod<int32_t>(m.cnode[size_t(pr.callpath)]);
        w.out.append(reinterpret_cast<const char *>(pr.count.data()), nloc * sizeof(double));
      }
    }
  }
  return std::move(w.out);
}

Assembler::Assembler(const Defs &global, const std::vector<int> &threads_per_rank, LocationMode mode) {
  p_.metrics = global.metrics;
  p_.regions = global.regions;
  p_.cnodes = global.cnodes;
  p_.hosts.assign(threads_per_rank.size(), "");
  for (size_t r = 0; r < threads_per_rank.size(); ++r) {
    first_loc_.push_back(p_.locations.size());
    for (int t = 0; t < threads_per_rank[r]; ++t)
      p_.locations.push_back({mode == LocationMode::Process ? "all threads" : "thread " + std::to_string(t), int(r), t});
  }
  p_.excl.assign(p_.metrics.size(), std::vector<double>(p_.cnodes.size() * p_.locations.size(), 0.0));
}

std::size_t Assembler::matrix_bytes() const {
  return p_.metrics.size() * p_.cnodes.size() * p_.locations.size() * sizeof(double);
}

Packet parse_packet(const std::string &packed, size_t nm, size_t nc) {
  Reader r{packed};
  if (r.pod<uint32_t>() != 0x68636332) throw std::runtime_error("not an hcc value packet");
  Packet pk;
  pk.host = r.str();
  pk.threads = r.pod<uint32_t>();
  const uint64_t rows = r.pod<uint64_t>();
  const size_t row_bytes = nm * pk.threads * sizeof(double);
  if (rows > packed.size()) throw std::runtime_error("bad row count in value packet");
  pk.rows.reserve(rows);
  for (uint64_t i = 0; i < rows; ++i) {
    int32_t c = r.pod<int32_t>();
    if (c < 0 || size_t(c) >= nc) throw std::runtime_error("bad call path in value packet");
    if (packed.size() - r.pos < row_bytes) throw std::runtime_error("truncated value packet");
    pk.rows.push_back({c, packed.data() + r.pos});
    r.pos += row_bytes;
  }
  if (r.pos == packed.size() || r.pod<uint8_t>() == 0) return pk;  // no control-flow data from this rank
  pk.has_cfg = true;
  const uint64_t n = r.pod<uint64_t>();
  if (n > packed.size()) throw std::runtime_error("bad control-flow count in value packet");
  for (uint64_t i = 0; i < n; ++i) {
    const int32_t c = r.pod<int32_t>(), pred = r.pod<int32_t>();
    if (c < 0 || size_t(c) >= nc || pred < 0 || size_t(pred) >= nc)
      throw std::runtime_error("bad call path in control-flow packet");
    if (packed.size() - r.pos < pk.threads * sizeof(double)) throw std::runtime_error("truncated control-flow packet");
    pk.preds.push_back({c, pred, packed.data() + r.pos});
    r.pos += pk.threads * sizeof(double);
  }
  return pk;
}

bool parse_location_mode(const std::string &text, LocationMode *out) {
  if (text == "all" || text.empty()) *out = LocationMode::All;
  else if (text == "process") *out = LocationMode::Process;
  else if (text == "summary") *out = LocationMode::Summary;
  else return false;
  return true;
}

const char *location_mode_name(LocationMode m) {
  return m == LocationMode::Process ? "process" : m == LocationMode::Summary ? "summary" : "all";
}

void collapse_threads(Profile &p) {
  const size_t nl = p.nloc(), nc = p.cnodes.size();
  if (nl == 1 && p.locations[0].name == "all threads") return;
  for (auto &values : p.excl) {
    std::vector<double> sum(nc, 0.0);
    for (size_t c = 0; c < nc; ++c)
      for (size_t l = 0; l < nl; ++l) sum[c] += values[c * nl + l];
    values = std::move(sum);
  }
  for (auto &list : p.preds)
    for (auto &pr : list) {
      double s = 0;
      for (double v : pr.count) s += v;
      pr.count.assign(1, s);
    }
  const int rank = p.locations.empty() ? 0 : p.locations[0].rank;
  p.locations.assign(1, profile::Location{"all threads", rank, 0});
}

void Assembler::add(int rank, const std::string &packed) {
  add(rank, parse_packet(packed, p_.metrics.size(), p_.cnodes.size()));
}

void Assembler::add(int rank, const Packet &pk) {
  if (rank < 0 || size_t(rank) >= first_loc_.size()) throw std::runtime_error("bad rank in merge");
  const size_t nm = p_.metrics.size(), nloc = p_.nloc();
  p_.hosts[rank] = pk.host;
  const size_t nthr = pk.threads, first = first_loc_[rank];
  const size_t limit = size_t(rank) + 1 < first_loc_.size() ? first_loc_[rank + 1] : p_.locations.size();
  if (first + nthr != limit) throw std::runtime_error("thread count of rank " + std::to_string(rank) + " changed");
  for (const Packet::Row &row : pk.rows)
    for (size_t m = 0; m < nm; ++m)
      for (size_t t = 0; t < nthr; ++t)
        // += : two local call paths can never map to one global path, but
        // adding is the right thing should they (and costs nothing).
        p_.excl[m][size_t(row.cnode) * nloc + first + t] += Packet::value(row.values, m * nthr + t);
  if (!pk.has_cfg) return;
  if (p_.preds.empty()) p_.preds.assign(p_.cnodes.size(), {});
  for (const Packet::Pred &pr : pk.preds) {
    auto &list = p_.preds[size_t(pr.cnode)];
    size_t k = 0;
    while (k < list.size() && list[k].callpath != pr.pred) ++k;
    if (k == list.size()) list.push_back({pr.pred, std::vector<double>(nloc, 0.0)});
    for (size_t t = 0; t < nthr; ++t) list[k].count[first + t] += Packet::value(pr.counts, t);
  }
}

profile::Profile Assembler::take() {
  // Predecessor lists: the parent first (as one rank's lists are), then
  // the others in order of first occurrence, lower ranks first.
  for (size_t c = 0; c < p_.preds.size(); ++c) {
    auto &list = p_.preds[c];
    for (size_t k = 0; k < list.size(); ++k)
      if (list[k].callpath == p_.cnodes[c].parent) {
        std::rotate(list.begin(), list.begin() + long(k), list.begin() + long(k) + 1);
        break;
      }
  }
  return std::move(p_);
}

}  // namespace hcc::mpimerge
