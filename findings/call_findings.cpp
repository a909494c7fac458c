// hcc findings — library and system calls in the program's hot paths, from
// samples (sampled frames of libc and libstdc++) and timed calls alike: I/O
// writes and flushes (std::endl), memory allocation, lock calls, and time off
// the CPU (`<not on CPU>`). Classified by the function's name; per caller,
// the outermost classified frames of one kind together (fflush and the
// write below it are one finding). Calls inside an OpenMP construct or an
// MPI call are those paradigms' waiting, found by their own kinds.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "model.hpp"

namespace hcc::findings {
namespace {

enum class Kind { None, Io, Alloc, Lock, Blocked };

// "std::basic_ostream<char>::flush()" -> "flush"; "operator new(unsigned long)" -> "operator new".
std::string last_name(const std::string &full) {
  std::string s = full.substr(0, full.find('('));
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>') --depth;
    else if (depth == 0 && s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') start = i + 2, ++i;
  }
  s = s.substr(start);
  if (auto lt = s.find('<'); lt != std::string::npos && s.rfind("operator", 0) != 0) s = s.substr(0, lt);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

template <std::size_t N>
bool listed(const char *const (&names)[N], const std::string &n) {
  for (const char *x : names)
    if (n == x) return true;
  return false;
}

// The names are constant arrays, not std::sets: libhcc writes summary.txt
// from a destructor at exit, after a static set would have been destroyed.
Kind classify(const std::string &name) {
  static constexpr const char *io[] = {
      "write", "__write", "__libc_write", "writev", "pwrite", "pwrite64", "fsync", "fdatasync", "fflush",
      "_IO_fflush", "fwrite", "_IO_fwrite", "fputs", "_IO_fputs", "puts", "_IO_puts", "fputc", "putc", "putchar",
      "printf", "fprintf", "vfprintf", "__vfprintf_internal", "new_do_write", "_IO_new_do_write",
      "_IO_new_file_write", "_IO_new_file_xsputn", "_IO_file_write", "_IO_do_write", "read", "__read",
      "__libc_read", "fread", "_IO_fread", "flush", "endl", "__ostream_insert", "xsputn", "sync"};
  static constexpr const char *alloc[] = {
      "malloc", "calloc", "realloc", "free", "cfree", "__libc_malloc", "__libc_free", "__libc_calloc",
      "__libc_realloc", "_int_malloc", "_int_free", "_int_realloc", "malloc_consolidate", "sysmalloc",
      "operator new", "operator delete", "operator new[]", "operator delete[]", "posix_memalign", "aligned_alloc",
      "memalign", "mmap", "mmap64", "__mmap", "munmap", "__munmap", "brk", "__brk", "sbrk", "__sbrk"};
  static constexpr const char *lock[] = {
      "pthread_mutex_lock", "pthread_mutex_unlock", "__pthread_mutex_lock", "__pthread_mutex_unlock",
      "___pthread_mutex_lock", "__lll_lock_wait", "__lll_lock_wait_private", "__futex_abstimed_wait_common",
      "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_spin_lock", "pthread_cond_wait",
      "___pthread_cond_wait", "sem_wait", "__new_sem_wait", "lock", "__gthread_mutex_lock"};
  if (name == "<not on CPU>") return Kind::Blocked;
  const std::string n = last_name(name);
  // "lock" alone only as a member (std::mutex::lock), not a user's free function.
  if (n == "lock") return name.find("mutex") != std::string::npos ? Kind::Lock : Kind::None;
  if (n == "sync" || n == "xsputn" || n == "flush")
    return name.find("std::") != std::string::npos ? Kind::Io : Kind::None;
  if (listed(io, n)) return Kind::Io;
  if (listed(alloc, n)) return Kind::Alloc;
  if (listed(lock, n)) return Kind::Lock;
  return Kind::None;
}

// Per Kind (in its order): the finding's kind, what its title calls the
// calls, and its meaning.
struct Wording {
  const char *kind, *what, *meaning;
};
const Wording kWording[] = {
    {"", "", ""},
    {"calls.io", "I/O calls",
     "writing and flushing on the run's path: each flush is a system call; buffer the output (std::endl flushes the "
     "stream, '\\n' does not) or write less often"},
    {"calls.allocation", "memory allocation",
     "allocating and freeing on the run's path: reuse the buffers, reserve capacity, or move the allocation out of "
     "the loop"},
    {"calls.lock", "lock calls",
     "threads took a lock often or waited for one: hold it for less, or give each thread its own data"},
    {"calls.blocked", "",
     "time the thread was not running: blocked in a system call (I/O, a sleep, a lock's futex) or waiting for a core "
     "other work held"},
};

struct Group {
  Kind kind = Kind::None;
  int caller = -1;
  std::vector<int> nodes;
};

}  // namespace

void call_findings(const Model &m, std::vector<Finding> &out) {
  if (m.time < 0) return;
  std::vector<Kind> kind(m.nc, Kind::None);
  std::vector<char> inside(m.nc, 0);  // below a classified frame (flush -> sync -> overflow -> write)
  std::map<std::pair<int, int>, Group> groups;  // (caller, kind)
  for (std::size_t c = 0; c < m.nc; ++c) {
    kind[c] = classify(m.region(int(c)).name);
    const int par = m.p.cnodes[c].parent;
    if (par >= 0) inside[c] = inside[std::size_t(par)] || kind[std::size_t(par)] != Kind::None;
    if (kind[c] == Kind::None || m.in_mpi[c] || m.in_openmp[c] || inside[c]) continue;
    Group &g = groups[{par, int(kind[c])}];
    g.kind = kind[c];
    g.caller = par;
    g.nodes.push_back(int(c));
  }
  const int samples = m.p.metric_index("samples");
  const std::vector<double> samples_incl =
      samples >= 0 && !groups.empty() ? hcc::profile::inclusive(m.p, std::size_t(samples)) : std::vector<double>{};
  for (auto &[key, g] : groups) {
    Finding f;
    std::vector<std::pair<double, int>> by_cost;
    std::vector<double> per_loc(m.nl, 0);
    for (int c : g.nodes) {
      by_cost.push_back({m.t_sum(c), c});
      f.cost_s += m.t_sum(c);
      for (std::size_t l = 0; l < m.nl; ++l) per_loc[l] += m.t(c, l);
    }
    std::sort(by_cost.rbegin(), by_cost.rend());
    f.callpath = by_cost.front().second;
    f.path = m.path(f.callpath);
    const std::string caller = g.caller >= 0 ? m.region(g.caller).name : "the program";
    std::string called;
    Evidence each{"time in each call (inclusive)", "s", {}, {}};
    for (const auto &[cost, c] : by_cost) {
      if (each.keys.size() < 8) each.keys.push_back(m.region(c).name), each.values.push_back(cost);
      if (called.size() < 60) called += (called.empty() ? "" : ", ") + last_name(m.region(c).name);
    }
    const Wording &w = kWording[int(g.kind)];
    f.kind = w.kind;
    f.title = g.kind == Kind::Blocked ? caller + " off the CPU" : fmt::format("{} in {} ({})", w.what, caller, called);
    f.meaning = w.meaning;
    if (g.kind != Kind::Blocked) f.evidence.push_back(each);
    f.evidence.push_back(per_location(
        m, "per thread", "s", [&](std::size_t l) { return per_loc[l]; }, [&](std::size_t l) { return per_loc[l] > 0; }));
    if (g.caller >= 0 && m.visits >= 0) {
      double calls = 0;
      for (std::size_t l = 0; l < m.nl; ++l) calls += m.v(g.caller, l);
      if (calls > 0) f.evidence.push_back({"visits of " + caller, "calls", {}, {calls}});
    }
    if (!samples_incl.empty()) {
      double n = 0;
      for (int c : g.nodes)
        for (std::size_t l = 0; l < m.nl; ++l) n += samples_incl[std::size_t(c) * m.nl + l];
      if (n > 0) f.evidence.push_back({"samples", "samples", {}, {n}});
    }
    out.push_back(std::move(f));
  }
}

}  // namespace hcc::findings
