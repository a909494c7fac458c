// hcc tracer — the HCC_TRACE event service: ENTER/LEAVE records per thread.
//
// HCC_TRACE=1 makes this service ask the core for every event
// (event_services.hpp): the fast paths are off, and the general paths call
// on_enter right after a frame was pushed and on_exit right before frames
// close (one for a normal exit; several for longjmp, exit repair, thread
// end). So every real call is one ENTER and one LEAVE, whatever the profile
// does with it, with exactly the times the profile uses. A record is 16
// bytes appended to the thread's own buffer: no lock, no allocation, no
// system call, except when the buffer is full (flush to the spill file).
//
// HCC_TRACE_SELECT=f,g records only inside the subtrees entered through f
// or g (the profile stays complete); regions the filters exclude are never
// entered, so they are not traced either. Frames the core pushes that are
// not calls of this thread are left out: an OpenMP worker's adopted copy of
// its master's call path and hcc_pause's marker frame.
//
// The trace is written by the profile build at the end (serially), or, in
// an MPI job, by libhcc_mpi at MPI_Finalize through hcc_svc_write_trace
// (collectively, one archive for the job); recording stops then.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/env.hpp"
#include "core/event_services.hpp"
#include "core/lifecycle.hpp"
#include "core/metrics.hpp"
#include "core/output.hpp"
#include "core/registry.hpp"
#include "core/safe_path.hpp"
#include "core/selection.hpp"
#include "core/service.hpp"
#include "core/fold.hpp"
#include "core/thread_state.hpp"
#include "filter/filter.hpp"
#include "trace/collectives.hpp"
#include "otf2_api/otf2_api.hpp"
#include "trace/otf2_writer.hpp"
#include "trace/trace_state.hpp"
#include "config/config.hpp"

namespace hcc::rt::trace {

namespace {

constexpr uint64_t kDefaultBuffer = 4u << 20;  // 4 MiB = 262144 records per thread

bool g_requested = false;                 // HCC_TRACE=1
std::string *g_problem = nullptr;         // why a requested trace cannot be written ("" = none)
std::atomic<bool> g_stop{false};          // recording ended (written, or a fork child)
bool g_fork_child = false;
std::mutex g_write_lock;                  // the trace is written once
bool g_written = false;
uint32_t g_cap = uint32_t(kDefaultBuffer / sizeof(Record));

filter::Filter *g_select = nullptr;       // HCC_TRACE_SELECT names
// Per region id: 0 not yet decided, 1 outside the selection, 2 selected.
// Zero-filled mapping, written once per region (any thread may decide it;
// they decide alike).
constexpr uint32_t kMaxFlagged = 1u << 22;
uint8_t *g_sel_flags = nullptr;

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;  // the list, the spill directory
std::vector<TraceThread *> &all_threads() {
  static auto *v = new std::vector<TraceThread *>;  // leaked: read at exit
  return *v;
}
// The spill directory: a private directory of ours (0700) under $TMPDIR,
// used only through its handle, so a link someone puts at its name later
// (in a $TMPDIR they can write to) changes nothing.
std::string *g_spill_dir = nullptr;  // for messages
int g_spill_parent = -1;              // $TMPDIR, O_PATH
int g_spill_fd = -1;                  // the directory itself, O_PATH
std::string *g_spill_name = nullptr;  // its name in $TMPDIR

__thread TraceThread *t_tt;  // initial-exec like all of libhcc; only on the general paths

// --- settings ---------------------------------------------------------------

void on_fork_child() {
  // The child's buffers hold its parent's records: it writes no trace (the
  // parent's archive has everything up to the fork). No locks here.
  g_fork_child = true;
  g_stop.store(true, std::memory_order_relaxed);
}

bool service_init() {
  if (!config::flag("HCC_TRACE", "not tracing")) return false;
  g_requested = true;
  g_problem = new std::string;
  // The range is the table's (env_vars.def): 1K (64 records) to 4G, whose
  // record count still fits the uint32_t capacity. A bad size keeps 4M.
  if (const std::optional<double> bytes = config::number("HCC_TRACE_BUFFER", "using 4M"))
    g_cap = uint32_t(uint64_t(*bytes) / sizeof(Record));
  if (const char *s = config::nonempty("HCC_TRACE_SELECT")) {
    auto *f = new filter::Filter;
    std::string error;
    for (const std::string &n : split_list(s)) f->add_include(n, error);
    if (f->empty()) {
      std::fprintf(stderr, "hcc: error: HCC_TRACE_SELECT='%s' names no region; tracing every region\n", config::shown(s).c_str());
      delete f;
    } else {
      void *m = mmap(nullptr, kMaxFlagged, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) {
        std::fprintf(stderr, "hcc: error: HCC_TRACE_SELECT: no memory for the region table; tracing every region\n");
        delete f;
      } else {
        g_sel_flags = static_cast<uint8_t *>(m);
        g_select = f;
      }
    }
  }
  std::string why;
  if (!otf2::load(&why)) {
    *g_problem = why;
    std::fprintf(stderr, "hcc: error: HCC_TRACE=1: %s; not tracing\n", why.c_str());
    return false;  // nothing is recorded; the end says again that no trace was written
  }
  pthread_atfork(nullptr, nullptr, on_fork_child);
  return true;
}

// --- per thread ------------------------------------------------------------

void on_thread_start(ThreadState *ts) {
  if (!g_requested || !g_problem->empty() || g_stop.load(std::memory_order_relaxed)) return;
  auto *tt = new TraceThread;
  tt->ts = ts;
  tt->buf = static_cast<Record *>(std::malloc(size_t(g_cap) * sizeof(Record)));
  if (!tt->buf) {
    std::fprintf(stderr, "hcc: error: HCC_TRACE: no memory for a %zu-byte event buffer on thread %u; it is not traced\n",
                 size_t(g_cap) * sizeof(Record), ts->location);
    delete tt;
    return;
  }
  pthread_mutex_lock(&g_lock);
  all_threads().push_back(tt);
  pthread_mutex_unlock(&g_lock);
  t_tt = tt;
}

__attribute__((noinline, cold)) void grow_frames(TraceThread *tt, uint32_t depth) {
  uint32_t cap = tt->traced_cap ? tt->traced_cap : 256;
  while (cap <= depth) cap *= 2;
  auto *t = static_cast<Node **>(std::realloc(tt->traced, sizeof(Node *) * cap));
  auto *s = static_cast<uint8_t *>(std::realloc(tt->selected, cap));
  if (!t || !s) {
    std::fputs("hcc: error: out of memory for the trace's frame table\n", stderr);
    std::abort();
  }
  std::memset(t + tt->traced_cap, 0, sizeof(Node *) * (cap - tt->traced_cap));
  std::memset(s + tt->traced_cap, 0, cap - tt->traced_cap);
  tt->traced = t;
  tt->selected = s;
  tt->traced_cap = cap;
}

// Opens the thread's spill file (and the directory, once per process).
bool open_spill(TraceThread *tt, std::string &why) {
  pthread_mutex_lock(&g_lock);
  if (!g_spill_dir) {
    const char *env = std::getenv("TMPDIR");
    const std::string tmp = env && *env ? env : "/tmp";
    std::string name, error;
    FdGuard parent(open_dir_creating(tmp, error, 0777, /*create=*/false));
    FdGuard dir(parent.fd < 0 ? -1 : make_private_dir_at(parent.fd, "hcc-trace-" + std::to_string(getpid()), name, error));
    if (dir.fd < 0) {
      why = "cannot create a spill directory in " + tmp + ": " + error;
      pthread_mutex_unlock(&g_lock);
      return false;
    }
    std::swap(g_spill_parent, parent.fd);
    std::swap(g_spill_fd, dir.fd);
    g_spill_name = new std::string(name);
    g_spill_dir = new std::string(tmp + "/" + name);
  }
  tt->spill_name = "thread-" + std::to_string(tt->ts->location) + ".records";
  tt->spill_path = *g_spill_dir + "/" + tt->spill_name;
  tt->spill_fd = openat(g_spill_fd, tt->spill_name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  pthread_mutex_unlock(&g_lock);
  if (tt->spill_fd < 0) {
    why = "cannot create " + tt->spill_path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool write_all(int fd, const void *data, size_t bytes, std::string &why) {
  const char *p = static_cast<const char *>(data);
  while (bytes) {
    ssize_t n = write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      why = std::strerror(n < 0 ? errno : ENOSPC);
      return false;
    }
    p += n;
    bytes -= size_t(n);
  }
  return true;
}

// The buffer is full: write it to the spill file and start again, with a
// record of the flush (or of the loss) so the trace shows it. Returns false
// once recording has stopped (the writer owns the buffer then).
__attribute__((noinline, cold)) bool flush(TraceThread *tt) {
  const uint64_t t0 = clock_now();
  pthread_mutex_lock(&tt->lock);
  if (g_stop.load(std::memory_order_acquire)) {
    pthread_mutex_unlock(&tt->lock);
    return false;
  }
  std::string why;
  bool ok = (tt->spill_fd >= 0 || (tt->spill_fd == -1 && open_spill(tt, why))) &&
            write_all(tt->spill_fd, tt->buf, sizeof(Record) * tt->n, why);
  if (ok) {
    tt->spilled += tt->n;
    tt->buf[0] = {t0, 0, kFlushBegin};
  } else {
    uint64_t events = 0;
    for (uint32_t i = 0; i < tt->n; ++i) events += tt->buf[i].kind <= kLeave;
    if (tt->lost == 0)
      std::fprintf(stderr, "hcc: error: HCC_TRACE: thread %u: the full event buffer could not be written (%s); "
                   "its events are lost and counted (the trace marks the gap)\n", tt->ts->location, why.c_str());
    tt->lost += events;
    // The gap starts at the first lost record.
    tt->buf[0] = {tt->buf[0].t, uint32_t(events > 0xFFFFFFFFu ? 0xFFFFFFFFu : events), kLostBegin};
    if (tt->spill_fd >= 0) {
      // What was written before stays; a partly written buffer would be
      // read back misaligned, so cut the file to whole records.
      if (ftruncate(tt->spill_fd, off_t(tt->spilled * sizeof(Record))) != 0 ||
          lseek(tt->spill_fd, off_t(tt->spilled * sizeof(Record)), SEEK_SET) < 0) {
        close(tt->spill_fd);
        tt->spill_fd = -2;  // no more attempts: every later buffer is lost (and counted)
      }
    }
  }
  const uint64_t t1 = clock_now();
  tt->buf[1] = {t1, 0, kFlushEnd};
  tt->n = 2;
  tt->published.store(2, std::memory_order_release);
  ++tt->flushes;
  tt->flush_ticks += t1 - t0;
  pthread_mutex_unlock(&tt->lock);
  return true;
}

// Called with room for one record; flushes when that filled the buffer, so
// a flush record always follows the events before it.
inline void append(TraceThread *tt, uint64_t t, uint32_t region, uint32_t kind) {
  tt->buf[tt->n] = {t, region, kind};
  ++tt->n;
  tt->published.store(tt->n, std::memory_order_release);
  if (__builtin_expect(tt->n == g_cap, 0) && !flush(tt)) tt->n = g_cap - 1;  // stopped: never overrun
}

bool selected_region(uint32_t region) {
  if (region >= kMaxFlagged) return false;
  uint8_t f = __atomic_load_n(&g_sel_flags[region], __ATOMIC_RELAXED);
  if (__builtin_expect(f == 0, 0)) {
    RegionInfo info;
    f = 1;
    if (region_info(region, &info) &&
        !g_select->excludes(filter::Region{info.name, info.mangled, info.file, false}))
      f = 2;
    __atomic_store_n(&g_sel_flags[region], f, __ATOMIC_RELAXED);
  }
  return f == 2;
}

void on_enter(ThreadState *ts) {
  TraceThread *tt = t_tt;
  if (!tt || g_stop.load(std::memory_order_relaxed)) return;
  const uint32_t d = ts->depth;
  if (__builtin_expect(d >= tt->traced_cap, 0)) grow_frames(tt, d);
  const Frame &f = ts->stack[d];
  // In a folded recursion the frame holds a proxy of the node it counts on
  // (core/fold.hpp); the trace shows every call by its real region.
  Node *n = attributed(f.node);
  tt->traced[d] = nullptr;
  // Not a call on this thread: hcc_pause's marker, an adopted base frame.
  if (n->region == kPauseRegion || n->adopted) return;
  uint8_t sel = 0;
  if (g_select) {
    sel = selected_region(n->region);
    if (!sel && tt->inside == 0) return;
    tt->inside += sel;
  }
  tt->traced[d] = f.node;  // what the frame holds, to recognise it at exit
  tt->selected[d] = sel;
  append(tt, f.start, n->region, kEnter);
}

void on_exit(ThreadState *ts, uint32_t target, uint64_t t) {
  TraceThread *tt = t_tt;
  if (!tt || g_stop.load(std::memory_order_relaxed)) return;
  const Frame *stack = ts->stack;
  for (uint32_t d = ts->depth; d > target; --d) {
    if (d >= tt->traced_cap) continue;
    Node *n = tt->traced[d];
    if (!n || n != stack[d].node) continue;
    tt->traced[d] = nullptr;
    tt->inside -= tt->selected[d];
    append(tt, t, attributed(n)->region, kLeave);
  }
}

// A thread that ends keeps no buffer: what it holds goes to its spill file
// (a program that starts thousands of threads must not keep 4 MiB for each,
// nor a file descriptor); the writer reads the file back by name.
void on_thread_end(ThreadState *) {
  TraceThread *tt = t_tt;
  if (!tt) return;
  t_tt = nullptr;
  pthread_mutex_lock(&tt->lock);
  if (!g_stop.load(std::memory_order_acquire) && tt->n > 0) {
    std::string why;
    if ((tt->spill_fd >= 0 || (tt->spill_fd == -1 && open_spill(tt, why))) &&
        write_all(tt->spill_fd, tt->buf, sizeof(Record) * tt->n, why)) {
      tt->spilled += tt->n;
    } else {
      uint64_t events = 0;
      for (uint32_t i = 0; i < tt->n; ++i) events += tt->buf[i].kind <= kLeave;
      tt->lost += events;
      std::fprintf(stderr, "hcc: error: HCC_TRACE: thread %u ended and its last events could not be written (%s); "
                   "they are lost and counted\n", tt->ts->location, why.empty() ? "no spill file" : why.c_str());
    }
    if (tt->spill_fd >= 0) close(tt->spill_fd);
    tt->spill_fd = -1;
    tt->n = 0;
    tt->published.store(0, std::memory_order_release);
    std::free(tt->buf);
    tt->buf = nullptr;
  }
  pthread_mutex_unlock(&tt->lock);
}

// --- the end -------------------------------------------------------------

std::string archive_name() {
  std::string tag = current_file_tag();
  return tag.empty() ? "traces" : "traces." + tag;
}

// The profile is being built: this is the end of the run (or of this MPI
// rank without MPI_Finalize). Write the trace of this process alone.
void before_build() {
  if (!g_requested) return;
  std::lock_guard<std::mutex> lock(g_write_lock);
  if (g_written) return;
  g_written = true;
  if (g_fork_child) {
    set_profile_attr("hcc.trace", "not traced in a fork child (the parent's trace holds the events up to the fork)");
    return;
  }
  write_archive(serial_collectives(), *g_problem, archive_name());
}

const EventService kService = {service_init, on_thread_start, on_enter, on_exit, on_thread_end, before_build};

HCC_SERVICE_REGISTRATION void register_service() { register_event_service(&kService); }

}  // namespace

// --- for the writer ----------------------------------------------------------

uint32_t buffer_records() { return g_cap; }

std::vector<TraceThread *> trace_threads() {
  pthread_mutex_lock(&g_lock);
  std::vector<TraceThread *> copy = all_threads();
  pthread_mutex_unlock(&g_lock);
  return copy;
}

void stop_recording() { g_stop.store(true, std::memory_order_release); }

bool read_records(TraceThread *tt, const std::function<void(const Record *, size_t)> &f, std::string *error) {
  pthread_mutex_lock(&tt->lock);
  bool ok = true;
  int fd = tt->spill_fd;
  const bool reopened = fd < 0 && tt->spilled > 0;
  if (reopened) fd = openat(g_spill_fd, tt->spill_name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (tt->spilled > 0) {
    constexpr size_t kChunk = 65536;
    std::vector<Record> chunk(kChunk);
    uint64_t done = 0;
    while (done < tt->spilled) {
      size_t want = size_t(std::min<uint64_t>(kChunk, tt->spilled - done));
      ssize_t got = fd >= 0 ? pread(fd, chunk.data(), want * sizeof(Record), off_t(done * sizeof(Record))) : -1;
      if (got <= 0 || size_t(got) % sizeof(Record) != 0) {
        if (error) *error = "cannot read back " + tt->spill_path + ": " + (got < 0 ? std::strerror(errno) : "file too short");
        ok = false;
        break;
      }
      f(chunk.data(), size_t(got) / sizeof(Record));
      done += uint64_t(got) / sizeof(Record);
    }
  }
  if (reopened && fd >= 0) close(fd);
  const uint32_t n = tt->published.load(std::memory_order_acquire);
  if (n && tt->buf) f(tt->buf, n);
  pthread_mutex_unlock(&tt->lock);
  return ok;
}

void remove_spill_files() {
  pthread_mutex_lock(&g_lock);
  for (TraceThread *tt : all_threads()) {
    pthread_mutex_lock(&tt->lock);
    if (tt->spill_fd >= 0) close(tt->spill_fd);
    tt->spill_fd = -2;
    if (!tt->spill_name.empty() && g_spill_fd >= 0) unlinkat(g_spill_fd, tt->spill_name.c_str(), 0);
    pthread_mutex_unlock(&tt->lock);
  }
  if (g_spill_name) unlinkat(g_spill_parent, g_spill_name->c_str(), AT_REMOVEDIR);
  pthread_mutex_unlock(&g_lock);
}

}  // namespace hcc::rt::trace

// libhcc_mpi at MPI_Finalize: every rank writes its part of the job's archive.
extern "C" __attribute__((visibility("default"))) void hcc_svc_write_trace(const hcc_svc_collectives *c) {
  using namespace hcc::rt::trace;
  std::unique_lock<std::mutex> lock(g_write_lock);
  // Every rank must take part, whether it traces or not: the first step tells
  // them all whether anybody writes.
  std::string problem;
  if (!g_requested) problem = "HCC_TRACE is not set";
  else if (!g_problem->empty()) problem = *g_problem;
  else if (g_written || g_fork_child) problem = "this process's trace was already written";
  g_written = true;
  write_archive(*c, problem, "traces");
}
