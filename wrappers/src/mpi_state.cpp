// hcc — the MPI wrappers' state and counting (declared in mpi_helpers.h).
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/service.hpp"
#include "mpi_helpers.h"
#include "mpi_internal.hpp"
#include "config/config.hpp"

namespace hcc::mpi {

// --- groups (HCC_MPI_GROUPS) ---

namespace {

struct GroupName {
  const char *name;
  uint32_t bit;
};
constexpr GroupName kGroups[] = {
    {"CG", HCCM_G_CG},       {"COLL", HCCM_G_COLL},   {"ENV", HCCM_G_ENV},   {"ERR", HCCM_G_ERR},
    {"EXT", HCCM_G_EXT},     {"IO", HCCM_G_IO},       {"MISC", HCCM_G_MISC}, {"P2P", HCCM_G_P2P},
    {"RMA", HCCM_G_RMA},     {"SPAWN", HCCM_G_SPAWN}, {"TOPO", HCCM_G_TOPO}, {"TYPE", HCCM_G_TYPE},
    {"XNONBLOCK", HCCM_G_XNONBLOCK}, {"XREQTEST", HCCM_G_XREQTEST},
};
constexpr uint32_t kAll = (HCCM_G_XREQTEST << 1) - 1;

// Printed by rank 0 after MPI_Init. A function-local static: the library
// constructor below may run before this file's dynamic initialisers.
std::string &groups_warning_text() {
  static std::string *s = new std::string;
  return *s;
}

}  // namespace

uint32_t parse_groups(const char *text, std::string *warning) {
  if (!text || !*text) return kDefaultGroups;
  uint32_t set = 0;
  bool any_positive = false;
  std::string s(text), word;
  for (char &c : s)
    if (c == ',' || c == ':' || c == ';') c = ' ';
  size_t pos = 0;
  while (pos < s.size()) {
    while (pos < s.size() && s[pos] == ' ') ++pos;
    size_t end = s.find(' ', pos);
    if (end == std::string::npos) end = s.size();
    word = s.substr(pos, end - pos);
    pos = end;
    if (word.empty()) continue;
    bool minus = word[0] == '-' || word[0] == '~';
    if (minus || word[0] == '+') word.erase(0, 1);
    for (char &c : word) c = char(std::toupper(static_cast<unsigned char>(c)));
    uint32_t bits = 0;
    if (word == "ALL") bits = kAll;
    else if (word == "DEFAULT") bits = kDefaultGroups;
    else if (word == "NONE") bits = 0;
    else {
      for (const GroupName &g : kGroups)
        if (word == g.name) bits = g.bit;
      if (!bits) {
        if (warning) *warning += (warning->empty() ? "" : ", ") + word;
        continue;
      }
    }
    if (minus) {
      // "-IO" alone means "the default without IO".
      if (!any_positive) set = kDefaultGroups, any_positive = true;
      set &= ~bits;
    } else {
      set |= bits;
      any_positive = true;
    }
  }
  return set;
}

// --- counters ---

int g_counter[kCounters] = {-1, -1, -1, -1, -1, -1};

namespace {

__attribute__((constructor)) void wrappers_init() {
  // Registration must precede the first region; library constructors run
  // before main and before any instrumented code of the program.
  static const struct {
    const char *uniq, *disp, *uom, *descr;
  } kDefs[kCounters] = {
      {"bytes_sent", "Bytes sent", "bytes", "Bytes sent: point-to-point and collective (per the collective's rule), RMA put/accumulate"},
      {"bytes_received", "Bytes received", "bytes", "Bytes received: point-to-point (from the status), collective, RMA get"},
      {"messages_sent", "Messages sent", "occ", "Point-to-point messages sent (persistent: per MPI_Start)"},
      {"messages_received", "Messages received", "occ", "Point-to-point messages received"},
      {"bytes_read", "Bytes read", "bytes", "Bytes read by MPI-IO"},
      {"bytes_written", "Bytes written", "bytes", "Bytes written by MPI-IO"},
  };
  for (int k = 0; k < kCounters; ++k)
    g_counter[k] = hcc_svc_register_counter(kDefs[k].uniq, kDefs[k].disp, kDefs[k].uom, kDefs[k].descr);
  std::string warning;
  hccm_groups = parse_groups(hcc::config::text("HCC_MPI_GROUPS"), &warning);
  if (!warning.empty())
    groups_warning_text() = "hcc: warning: HCC_MPI_GROUPS: unknown group(s) " + warning +
                       " ignored (known: CG COLL ENV ERR EXT IO MISC P2P RMA SPAWN TOPO TYPE XNONBLOCK "
                       "XREQTEST ALL DEFAULT NONE)";
}

}  // namespace

const std::string &groups_warning() { return groups_warning_text(); }

bool counters_registered() { return g_counter[0] >= 0; }

void count(Counter c, uint64_t amount) {
  if (amount && g_counter[c] >= 0) hcc_svc_count(uint32_t(g_counter[c]), amount);
}

uint64_t type_bytes(long long count, MPI_Datatype t) {
  if (count <= 0 || t == MPI_DATATYPE_NULL) return 0;
  int size = 0;
  if (PMPI_Type_size(t, &size) != MPI_SUCCESS || size <= 0) return 0;
  return uint64_t(count) * uint64_t(size);
}

// --- the request table ---
//
// Requests may be created on one thread and completed on another
// (MPI_THREAD_MULTIPLE), so the table is global: 64 shards, each a small
// hash map behind its own mutex. Only non-blocking and persistent point-to-
// point requests are entered, and only while XNONBLOCK is on.

namespace {

struct Entry {
  int kind;
  uint64_t bytes;  // persistent send: bytes per MPI_Start
  int counts_message;
};

struct alignas(64) Shard {
  std::mutex lock;
  std::unordered_map<uint64_t, Entry> map;
};
Shard g_shards[64];
std::atomic<long> g_tracked{0};

uint64_t key_of(MPI_Request r) {
  uint64_t k = 0;
  static_assert(sizeof(MPI_Request) <= sizeof k, "request handle fits 64 bits");
  std::memcpy(&k, &r, sizeof r);
  return k;
}
Shard &shard_of(uint64_t k) { return g_shards[(k >> 4 ^ k >> 10) & 63]; }

void put(MPI_Request r, const Entry &e) {
  if (r == MPI_REQUEST_NULL) return;
  uint64_t k = key_of(r);
  Shard &s = shard_of(k);
  std::lock_guard<std::mutex> g(s.lock);
  // insert_or_assign: a stale entry of a handle value reused by MPI is replaced.
  if (s.map.insert_or_assign(k, e).second) g_tracked.fetch_add(1, std::memory_order_relaxed);
}

bool take(uint64_t k, Entry &out, bool keep_persistent) {
  Shard &s = shard_of(k);
  std::lock_guard<std::mutex> g(s.lock);
  auto it = s.map.find(k);
  if (it == s.map.end()) return false;
  out = it->second;
  if (!(keep_persistent && (out.kind & HCCM_REQ_PERSISTENT))) {
    s.map.erase(it);
    g_tracked.fetch_sub(1, std::memory_order_relaxed);
  }
  return true;
}

// Handles as they were before the completion call reset them, per thread.
thread_local std::vector<uint64_t> t_saved;
thread_local std::vector<MPI_Status> t_statuses;

void complete(uint64_t k, const MPI_Status *st) {
  Entry e;
  if (!k || !take(k, e, true)) return;
  if (!(e.kind & HCCM_REQ_RECV)) return;
  int cancelled = 0;
  PMPI_Test_cancelled(st, &cancelled);
  if (cancelled || st->MPI_SOURCE == MPI_PROC_NULL) return;
  hccm_received(st);
}

}  // namespace

}  // namespace hcc::mpi

using namespace hcc::mpi;

extern "C" {

uint32_t hccm_groups = kDefaultGroups;

void hccm_sent(int count, MPI_Datatype type, int dest) {
  if (dest == MPI_PROC_NULL) return;
  hcc::mpi::count(kBytesSent, type_bytes(count, type));
  hcc::mpi::count(kMessagesSent, 1);
}

void hccm_received(const MPI_Status *st) {
  if (st->MPI_SOURCE == MPI_PROC_NULL) return;
  // The status knows the bytes that arrived (MPI_BYTE: every MPI library
  // keeps the received size in bytes), which may be fewer than requested.
  int n = 0;
  if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n != MPI_UNDEFINED && n > 0)
    hcc::mpi::count(kBytesReceived, uint64_t(n));
  hcc::mpi::count(kMessagesReceived, 1);
}

int hccm_tracking(void) { return g_tracked.load(std::memory_order_relaxed) > 0; }

void hccm_track(MPI_Request req, int kind) {
  if (!(hccm_groups & HCCM_G_XNONBLOCK)) return;
  put(req, Entry{kind, 0, 0});
}

void hccm_track_persistent_send(MPI_Request req, int count, MPI_Datatype type, int dest) {
  if (!(hccm_groups & HCCM_G_XNONBLOCK)) return;
  put(req, Entry{HCCM_REQ_SEND | HCCM_REQ_PERSISTENT, type_bytes(count, type), dest != MPI_PROC_NULL});
}

void hccm_untrack(MPI_Request req) {
  if (req == MPI_REQUEST_NULL || !hccm_tracking()) return;
  Entry e;
  uint64_t k = key_of(req);
  take(k, e, false);
}

void hccm_started(int n, const MPI_Request *reqs) {
  if (!hccm_tracking()) return;
  for (int i = 0; i < n; ++i) {
    uint64_t k = key_of(reqs[i]);
    Shard &s = shard_of(k);
    Entry e{};
    {
      std::lock_guard<std::mutex> g(s.lock);
      auto it = s.map.find(k);
      if (it == s.map.end()) continue;
      e = it->second;
    }
    if ((e.kind & HCCM_REQ_SEND) && e.counts_message) {
      hcc::mpi::count(kBytesSent, e.bytes);
      hcc::mpi::count(kMessagesSent, 1);
    }
  }
}

void hccm_save(int n, const MPI_Request *reqs) {
  t_saved.clear();
  if (!hccm_tracking() || n <= 0) return;
  t_saved.resize(size_t(n));
  for (int i = 0; i < n; ++i) t_saved[size_t(i)] = reqs[i] == MPI_REQUEST_NULL ? 0 : key_of(reqs[i]);
}

void hccm_done_one(int i, const MPI_Status *status) {
  if (i >= 0 && size_t(i) < t_saved.size()) complete(t_saved[size_t(i)], status);
}

void hccm_done_all(int n, const MPI_Status *statuses) {
  for (int i = 0; i < n && size_t(i) < t_saved.size(); ++i) complete(t_saved[size_t(i)], &statuses[i]);
}

void hccm_done_some(int n, const int *indices, const MPI_Status *statuses) {
  if (n == MPI_UNDEFINED) return;
  for (int j = 0; j < n; ++j) hccm_done_one(indices[j], &statuses[j]);
}

MPI_Status *hccm_scratch_statuses(int n) {
  if (n < 1) n = 1;
  if (t_statuses.size() < size_t(n)) t_statuses.resize(size_t(n));
  return t_statuses.data();
}

// --- one-sided and MPI-IO ---

void hccm_rma_out(int count, MPI_Datatype t) { hcc::mpi::count(kBytesSent, type_bytes(count, t)); }
void hccm_rma_in(int count, MPI_Datatype t) { hcc::mpi::count(kBytesReceived, type_bytes(count, t)); }
void hccm_io_read(int count, MPI_Datatype t) { hcc::mpi::count(kBytesRead, type_bytes(count, t)); }
void hccm_io_read_status(const MPI_Status *st, int count, MPI_Datatype t) {
  // What was actually read (less at the end of the file), else what was asked for.
  int n = 0;
  if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n != MPI_UNDEFINED && n >= 0)
    hcc::mpi::count(kBytesRead, uint64_t(n));
  else
    hccm_io_read(count, t);
}
void hccm_io_written(int count, MPI_Datatype t) { hcc::mpi::count(kBytesWritten, type_bytes(count, t)); }

}  // extern "C"
