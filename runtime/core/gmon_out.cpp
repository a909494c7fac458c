// gmon.out from the profile (HCC_GPROF=1). The file's layout is the one
// glibc's gmon writes and binutils' gprof reads: a 20-byte header ("gmon",
// version 1, padding), then tagged records — tag 0 a histogram (low and high
// address, number of bins, rate, dimension), tag 1 an arc (from, self, count).
// Addresses are those of the executable's symbol table: gprof compares them
// with the same table, and a PIE's symbols are link-time addresses, so no
// load bias enters (glibc subtracts it for `-pg` PIEs to the same effect).
#include "gmon_out.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "cct.hpp"
#include "elf_symbols.hpp"
#include "env.hpp"
#include "lifecycle.hpp"
#include "output.hpp"
#include "safe_path.hpp"
#include "thread_state.hpp"
#include "config/config.hpp"

namespace hcc::rt {

namespace {

std::string base_name(const std::string &p) {
  size_t s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// The symbol a region's time and calls go to, or -1. Only compiler-made
// function regions have one: loops, user, OpenMP and MPI regions are part of
// the function they run in (their time and calls go to it, see below).
// Exact linker name first, then GCC's clones of it (foo.isra.0,
// foo.constprop.0, foo.part.0; not a .cold fragment); among local symbols of
// that name the one whose STT_FILE is the region's source file.
int resolve(const profile::Region &r, const std::vector<ElfFunction> &syms,
            const std::unordered_multimap<std::string, int> &by_name) {
  if (r.paradigm != "compiler" || r.role != "function") return -1;
  const std::string file = base_name(r.file);
  for (const std::string &want : {r.mangled, r.name}) {
    if (want.empty()) continue;
    std::vector<int> found;
    auto [b, e] = by_name.equal_range(want);
    for (auto it = b; it != e; ++it) found.push_back(it->second);
    if (found.empty()) {
      const std::string prefix = want + ".";
      for (size_t i = 0; i < syms.size(); ++i)
        if (syms[i].name.compare(0, prefix.size(), prefix) == 0 &&
            syms[i].name.find(".cold") == std::string::npos)
          found.push_back(int(i));
    }
    if (found.empty()) continue;
    for (int i : found)
      if (!syms[size_t(i)].local) return i;
    for (int i : found)
      if (base_name(syms[size_t(i)].file) == file) return i;
    return found.front();
  }
  return -1;
}

void put32(std::string &o, uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(char((v >> (8 * i)) & 0xff));
}
void put64(std::string &o, uint64_t v) {
  for (int i = 0; i < 8; ++i) o.push_back(char((v >> (8 * i)) & 0xff));
}

struct Bins {
  uint64_t low;  // a symbol's address
  uint32_t n;    // bins of 2 bytes each inside the symbol
  double seconds;
};

// The histogram: one record per function that has time, its bins inside the
// function's own bytes (2 bytes a bin, glibc's granularity), so gprof gives
// every bin to that function alone. A bin holds at most 65535 counts: the
// rate (counts per second) is the largest power of ten up to 10^6 at which
// every function's time fits into its bins.
std::string histogram(const std::vector<Bins> &fns) {
  uint32_t rate = 1000000;
  for (const Bins &f : fns)
    while (rate > 1 && f.seconds * rate / f.n > 65535.0) rate /= 10;
  std::string o;
  for (const Bins &f : fns) {
    uint64_t counts = uint64_t(std::llround(f.seconds * rate));
    if (counts == 0) continue;
    o.push_back(char(0));  // GMON_TAG_TIME_HIST
    put64(o, f.low);
    put64(o, f.low + 2ull * f.n);
    put32(o, f.n);
    put32(o, rate);
    char dim[15] = "seconds";
    o.append(dim, sizeof dim);
    o.push_back('s');
    for (uint32_t b = 0; b < f.n; ++b) {
      uint64_t c = counts / f.n + (b < counts % f.n ? 1 : 0);
      if (c > 65535) c = 65535;  // only when even rate 1 overflows (days in a tiny function)
      o.push_back(char(c & 0xff));
      o.push_back(char(c >> 8));
    }
  }
  return o;
}

// gmon.out<tag>, or gmon-N.out<tag> when an earlier run's file is there
// (HCC_OVERWRITE=1 replaces it), written to a temporary file first.
std::string publish(const std::string &bytes, std::string &error) {
  const RunInfo &run = run_info();
  std::string tag = run.fork_child ? ".fork-" + std::to_string(run.pid)
                    : current_file_tag().empty() ? ""
                                                 : "." + current_file_tag();
  std::string dir;
  FdGuard dirfd(output_dir_handle(dir, &error));
  if (dirfd.fd < 0) return "";
  std::string tmp;
  FdGuard fd(create_file_at(dirfd.fd, ".gmon.out" + tag + ".new." + std::to_string(getpid()), tmp, error));
  if (fd.fd < 0) return "";
  if (!write_all(fd.fd, bytes) || fsync(fd.fd) != 0) {
    error = "cannot write " + dir + "/" + tmp + ": " + std::strerror(errno);
    unlinkat(dirfd.fd, tmp.c_str(), 0);
    return "";
  }
  for (int n = 0; n < 100000; ++n) {
    const std::string name = n ? "gmon-" + std::to_string(n) + ".out" + tag : "gmon.out" + tag;
    if (settings().overwrite || run.fork_child) {
      if (renameat(dirfd.fd, tmp.c_str(), dirfd.fd, name.c_str()) == 0) return dir + "/" + name;
      break;
    }
    if (linkat(dirfd.fd, tmp.c_str(), dirfd.fd, name.c_str(), 0) == 0) {
      unlinkat(dirfd.fd, tmp.c_str(), 0);
      return dir + "/" + name;
    }
    if (errno != EEXIST) break;
  }
  error = "cannot name " + dir + "/" + tmp + " gmon.out" + tag + ": " + std::strerror(errno);
  unlinkat(dirfd.fd, tmp.c_str(), 0);
  return "";
}

bool requested() {
  return config::flag("HCC_GPROF", "no gmon.out written");
}

void write_gmon(const profile::Profile &p) {
  std::string error;
  const std::vector<ElfFunction> syms = read_elf_functions("/proc/self/exe", error);
  if (syms.empty()) {
    std::fprintf(stderr, "hcc: error: no gmon.out: %s\n", error.c_str());
    return;
  }
  std::unordered_multimap<std::string, int> by_name;
  for (size_t i = 0; i < syms.size(); ++i) by_name.emplace(syms[i].name, int(i));

  // Aliases (a constructor's C1 and C2 names, a function and its clone at
  // one address) become one symbol: gprof would read two histogram records
  // over the same bytes as overlapping.
  std::unordered_map<uint64_t, int> first_at;
  for (size_t i = 0; i < syms.size(); ++i) first_at.emplace(syms[i].addr, int(i));
  std::vector<int> sym_of(p.regions.size());
  std::vector<std::string> missing;
  for (size_t r = 0; r < p.regions.size(); ++r) {
    sym_of[r] = resolve(p.regions[r], syms, by_name);
    if (sym_of[r] >= 0) sym_of[r] = first_at.at(syms[size_t(sym_of[r])].addr);
    if (sym_of[r] < 0 && p.regions[r].paradigm == "compiler" && p.regions[r].role == "function")
      missing.push_back(p.regions[r].name);
  }
  // owner[c]: the symbol a call path's time and calls go to: its own, else
  // its caller's (a loop, an OpenMP construct, an MPI call, a function
  // without a symbol of its own: compiled into a shared library, or inlined
  // everywhere and dropped), as gprof itself sees inlined code.
  const size_t ncn = p.cnodes.size(), nloc = p.nloc();
  std::vector<int> owner(ncn, -1);
  for (size_t c = 0; c < ncn; ++c) {
    const int s = sym_of[size_t(p.cnodes[c].region)];
    owner[c] = s >= 0 ? s : p.cnodes[c].parent >= 0 ? owner[size_t(p.cnodes[c].parent)] : -1;
  }
  const int time_m = p.metric_index("time"), visits_m = p.metric_index("visits");
  const int rec_m = p.metric_index("recursive_visits");
  std::vector<double> seconds(syms.size(), 0.0);
  std::map<std::pair<int, int>, uint64_t> arcs;
  for (size_t c = 0; c < ncn; ++c) {
    double t = 0, calls = 0;
    for (size_t l = 0; l < nloc; ++l) {
      if (time_m >= 0) t += p.at(size_t(time_m), c, l);
      if (visits_m >= 0) calls += p.at(size_t(visits_m), c, l);
      if (rec_m >= 0) calls -= p.at(size_t(rec_m), c, l);  // those come from fold links below
    }
    if (owner[c] >= 0) seconds[size_t(owner[c])] += t;
    const int parent = p.cnodes[c].parent;
    const int s = sym_of[size_t(p.cnodes[c].region)];
    if (s >= 0 && parent >= 0 && owner[size_t(parent)] >= 0 && calls > 0)
      arcs[{owner[size_t(parent)], s}] += uint64_t(std::llround(calls));
  }
  // Recursive calls: a fold link (cct.hpp) under node P for region R counts
  // the calls P's frames made to R while R was open (hooks.hpp): the arc
  // P's function → R, exactly, for direct and indirect recursion.
  for (ThreadState *ts : threads_snapshot()) {
    cct_for_each(ts->cct.root, [&](Node *n) {
      if (n->kind != kForward || n->visits == 0) return;
      const int callee = n->region - 1 < sym_of.size() ? sym_of[n->region - 1] : -1;
      int caller = -1;
      for (const Node *a = n->parent; a && a->region != kNoRegion && caller < 0; a = a->parent)
        if (a->region - 1 < sym_of.size()) caller = sym_of[a->region - 1];
      if (callee >= 0 && caller >= 0) arcs[{caller, callee}] += n->visits;
    });
  }

  std::string o("gmon", 4);
  put32(o, 1);
  o.append(12, '\0');
  std::vector<Bins> fns;
  for (size_t i = 0; i < syms.size(); ++i)
    if (seconds[i] > 0) fns.push_back({syms[i].addr, uint32_t(std::max<uint64_t>(syms[i].size / 2, 1)), seconds[i]});
  o += histogram(fns);
  for (const auto &[pair, count] : arcs) {
    o.push_back(char(1));  // GMON_TAG_CG_ARC
    put64(o, syms[size_t(pair.first)].addr);
    put64(o, syms[size_t(pair.second)].addr);
    put32(o, uint32_t(std::min<uint64_t>(count, 0x7fffffff)));
  }
  const std::string path = publish(o, error);
  if (path.empty()) {
    std::fprintf(stderr, "hcc: error: gmon.out not written: %s\n", error.c_str());
    return;
  }
  if (settings().verbose >= 1) {
    std::fprintf(stderr, "hcc: gmon.out written to %s (gprof %s %s)\n", path.c_str(), run_info().program.c_str(),
                 path.c_str());
    if (!missing.empty()) {
      std::string names;
      for (size_t i = 0; i < missing.size() && i < 5; ++i) names += (i ? ", " : "") + missing[i];
      if (missing.size() > 5) names += ", …";
      std::fprintf(stderr,
                   "hcc: gmon.out: %zu function(s) have no symbol in the executable (in a shared library, "
                   "or inlined everywhere): their time and calls count for their callers: %s\n",
                   missing.size(), names.c_str());
    }
  }
}

}  // namespace

void write_gmon_if_requested(const profile::Profile &local) noexcept {
  if (!requested()) return;
  try {
    write_gmon(local);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hcc: error: gmon.out not written: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "hcc: error: gmon.out not written\n");
  }
}

}  // namespace hcc::rt
