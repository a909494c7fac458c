// hcc runtime — the kernel's perf_event interface as a counter source.
//
// PAPI reaches the kernel's counters through libpfm4, which must know the
// CPU; on a CPU newer than the distribution's libpfm4 PAPI's perf_event
// component is disabled and counts nothing, although the kernel still offers
// its software events (page faults, context switches, task clock …) and,
// where the hardware or hypervisor exposes them, its generic hardware events
// (cycles, instructions …). This source opens those directly with
// perf_event_open(2), under the names PAPI's perf_event component gives them
// (perf::PAGE-FAULTS …), so a metric is called the same whichever source
// counted it.
//
// Per thread, the events form one group per kernel PMU (hardware events;
// the task clock; the CPU clock; the other software events), each read with
// ONE read() of PERF_FORMAT_GROUP; the first event of a group is its leader,
// pinned so a group that does not fit on the PMU reads as an error instead
// of being silently multiplexed. Events of different software PMUs are never
// grouped: on the kernels here such a group loses counts (a task clock after
// a page-fault leader read 0 for a whole run in about one run of four; page
// faults after a task-clock leader lost up to two thirds of their counts),
// while the same events opened apart count exactly. Like
// PAPI's default domain, only user-level events are counted (exclude_kernel:
// a user page fault still counts, it is raised from user mode), which is
// also what perf_event_paranoid 2 allows an unprivileged user.
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

#include "counters/source.hpp"
#include "io/regular_file.hpp"

namespace hcc::rt::counters {
namespace {

struct Known {
  const char *names[3];  // spellings, as PAPI's perf_event component accepts them (after "perf::")
  uint32_t type;
  uint64_t config;
  const char *descr;
};

constexpr Known kEvents[] = {
    {{"TASK-CLOCK", "PERF_COUNT_SW_TASK_CLOCK"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
     "Time the thread ran on a CPU, in nanoseconds (kernel software event)"},
    {{"CPU-CLOCK", "PERF_COUNT_SW_CPU_CLOCK"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
     "CPU clock while the thread ran, in nanoseconds (kernel software event)"},
    {{"PAGE-FAULTS", "FAULTS", "PERF_COUNT_SW_PAGE_FAULTS"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
     "Page faults, minor and major (kernel software event)"},
    {{"MINOR-FAULTS", "PERF_COUNT_SW_PAGE_FAULTS_MIN"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
     "Minor page faults: the page was in memory (kernel software event)"},
    {{"MAJOR-FAULTS", "PERF_COUNT_SW_PAGE_FAULTS_MAJ"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
     "Major page faults: the page had to be read in (kernel software event)"},
    {{"CONTEXT-SWITCHES", "CS", "PERF_COUNT_SW_CONTEXT_SWITCHES"}, PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CONTEXT_SWITCHES, "Context switches of the thread (kernel software event)"},
    {{"CPU-MIGRATIONS", "MIGRATIONS", "PERF_COUNT_SW_CPU_MIGRATIONS"}, PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CPU_MIGRATIONS, "Moves of the thread to another CPU (kernel software event)"},
    {{"ALIGNMENT-FAULTS", "PERF_COUNT_SW_ALIGNMENT_FAULTS"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS,
     "Alignment faults (kernel software event)"},
    {{"EMULATION-FAULTS", "PERF_COUNT_SW_EMULATION_FAULTS"}, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
     "Emulation faults (kernel software event)"},
    {{"CYCLES", "CPU-CYCLES", "PERF_COUNT_HW_CPU_CYCLES"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
     "CPU cycles (the kernel's generic hardware event)"},
    {{"INSTRUCTIONS", "PERF_COUNT_HW_INSTRUCTIONS"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
     "Instructions retired (the kernel's generic hardware event)"},
    {{"CACHE-REFERENCES", "PERF_COUNT_HW_CACHE_REFERENCES"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
     "Cache references, usually of the last-level cache (the kernel's generic hardware event)"},
    {{"CACHE-MISSES", "PERF_COUNT_HW_CACHE_MISSES"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
     "Cache misses, usually of the last-level cache (the kernel's generic hardware event)"},
    {{"BRANCH-INSTRUCTIONS", "BRANCHES", "PERF_COUNT_HW_BRANCH_INSTRUCTIONS"}, PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "Branch instructions retired (the kernel's generic hardware event)"},
    {{"BRANCH-MISSES", "PERF_COUNT_HW_BRANCH_MISSES"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
     "Mispredicted branches (the kernel's generic hardware event)"},
    {{"BUS-CYCLES", "PERF_COUNT_HW_BUS_CYCLES"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES,
     "Bus cycles (the kernel's generic hardware event)"},
    {{"REF-CYCLES", "PERF_COUNT_HW_REF_CPU_CYCLES"}, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
     "Reference cycles, not scaled by frequency (the kernel's generic hardware event)"},
};

// PAPI presets whose meaning is exactly a generic kernel event; counted
// here only where PAPI itself cannot count them.
struct PresetAlias {
  const char *preset;
  uint64_t config;
};
constexpr PresetAlias kPresets[] = {
    {"PAPI_TOT_CYC", PERF_COUNT_HW_CPU_CYCLES},     {"PAPI_TOT_INS", PERF_COUNT_HW_INSTRUCTIONS},
    {"PAPI_BR_INS", PERF_COUNT_HW_BRANCH_INSTRUCTIONS}, {"PAPI_BR_MSP", PERF_COUNT_HW_BRANCH_MISSES},
    {"PAPI_REF_CYC", PERF_COUNT_HW_REF_CPU_CYCLES},
};

struct Attr {
  uint32_t type;
  uint64_t config;
  const char *descr;
};

bool lookup(const std::string &event, Attr *out) {
  if (event.rfind("perf::", 0) == 0) {
    const char *n = event.c_str() + 6;
    for (const Known &k : kEvents)
      for (const char *s : k.names)
        if (s && strcasecmp(s, n) == 0) {
          *out = {k.type, k.config, k.descr};
          return true;
        }
    return false;
  }
  for (const PresetAlias &p : kPresets)
    if (event == p.preset)
      for (const Known &k : kEvents)
        if (k.type == PERF_TYPE_HARDWARE && k.config == p.config) {
          *out = {k.type, k.config, k.descr};
          return true;
        }
  return false;
}

int perf_open(const Attr &a, int group_fd) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = a.type;
  attr.config = a.config;
  attr.read_format = PERF_FORMAT_GROUP;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.pinned = group_fd < 0;  // the leader: a group that cannot be scheduled reads as an error
  return int(syscall(SYS_perf_event_open, &attr, 0 /* this thread */, -1 /* any CPU */, group_fd,
                     PERF_FLAG_FD_CLOEXEC));
}

// The kernel's refusal in the user's terms.
std::string refusal(int err, const Attr &a) {
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
      return a.type == PERF_TYPE_HARDWARE ? "perf_event_open: the kernel exposes no such hardware event here "
                                            "(a virtual machine without a virtual PMU?)"
                                          : "perf_event_open: the kernel has no such event";
    case EACCES:
    case EPERM: {
      std::string s = "perf_event_open: not permitted";
      if (const int level = perf_event_paranoid(); level != -1)
        s += " (/proc/sys/kernel/perf_event_paranoid is " + std::to_string(level) +
             "; 2 or less lets a user count its own threads; a container may also forbid the call)";
      return s;
    }
    case ENOSYS: return "perf_event_open: the kernel was built without perf events";
    case EMFILE: return "perf_event_open: no file descriptors left";
    default: return std::string("perf_event_open: ") + std::strerror(err);
  }
}

constexpr int kMax = 32;

struct Group {
  int n = 0;
  int fd[kMax];
};

void close_group(Group *g) {
  for (int i = g->n - 1; i >= 0; --i) close(g->fd[i]);
  g->n = 0;
}

// Opens `attrs` as one group for the calling thread; "" or why not.
std::string open_group(const Attr *attrs, int n, Group *g) {
  g->n = 0;
  for (int i = 0; i < n; ++i) {
    int fd = perf_open(attrs[i], i == 0 ? -1 : g->fd[0]);
    if (fd < 0) {
      const int err = errno;
      close_group(g);
      return refusal(err, attrs[i]);
    }
    g->fd[g->n++] = fd;
  }
  return "";
}

// One group read: {nr, value[nr]}. False when the group is in error (a
// pinned group that lost the PMU reads 0 bytes).
bool read_group(const Group &g, long long *out) {
  uint64_t buf[1 + kMax];
  const ssize_t want = ssize_t(sizeof(uint64_t)) * (1 + g.n);
  if (::read(g.fd[0], buf, size_t(want)) != want || buf[0] != uint64_t(g.n)) return false;
  for (int i = 0; i < g.n; ++i) out[i] = static_cast<long long>(buf[1 + i]);
  return true;
}

// "" when `attrs` count together on this thread, else why not.
std::string try_group(const Attr *attrs, int n) {
  Group g;
  std::string why = open_group(attrs, n, &g);
  if (!why.empty()) return why;
  long long v[kMax];
  const bool ok = read_group(g, v);
  close_group(&g);
  return ok ? "" : "perf_event_open: the events do not fit on the PMU together";
}

// Which kernel PMU counts an event: events are grouped only with events
// of the same PMU (see the top of this file).
int pmu_class(const Attr &a) {
  if (a.type != PERF_TYPE_SOFTWARE) return 0;
  if (a.config == PERF_COUNT_SW_TASK_CLOCK) return 1;
  if (a.config == PERF_COUNT_SW_CPU_CLOCK) return 2;
  return 3;
}
constexpr int kClasses = 4;

// One thread's groups: group c holds the accepted events of class c, in
// order; pos[c][i] is where event i of group c goes in a reading.
struct Groups {
  Group g[kClasses];
  int pos[kClasses][kMax];
};

void close_groups(Groups *gs) {
  for (Group &g : gs->g) close_group(&g);
}

// Opens `attrs` for the calling thread, one group per PMU class; "" or why not.
std::string open_groups(const Attr *attrs, int n, Groups *gs) {
  std::string why;
  for (int c = 0; c < kClasses && why.empty(); ++c) {
    Attr mine[kMax];
    int k = 0;
    for (int i = 0; i < n; ++i)
      if (pmu_class(attrs[i]) == c) {
        gs->pos[c][k] = i;
        mine[k++] = attrs[i];
      }
    gs->g[c].n = 0;
    if (k) why = open_group(mine, k, &gs->g[c]);
  }
  if (!why.empty()) close_groups(gs);
  return why;
}

bool read_groups(const Groups &gs, long long *out) {
  long long v[kMax];
  for (int c = 0; c < kClasses; ++c) {
    if (gs.g[c].n == 0) continue;
    if (!read_group(gs.g[c], v)) return false;
    for (int i = 0; i < gs.g[c].n; ++i) out[gs.pos[c][i]] = v[i];
  }
  return true;
}

// "" when `attrs` count together on this thread, else why not.
std::string try_groups(const Attr *attrs, int n) {
  Groups gs;
  std::string why = open_groups(attrs, n, &gs);
  if (!why.empty()) return why;
  long long v[kMax];
  const bool ok = read_groups(gs, v);
  close_groups(&gs);
  return ok ? "" : "perf_event_open: the events do not fit on the PMU together";
}

class PerfSource final : public Source {
 public:
  std::string label() const override { return "perf_event_open"; }

  std::string open() override {
    Attr clock = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, ""};
    std::string why = try_group(&clock, 1);
    return why.empty() ? "" : "the kernel's counters cannot be read: " + why;
  }

  int knows(const std::string &event) override {
    Attr a;
    return lookup(event, &a) ? 1 : 0;
  }

  std::string unknown_hint() const override {
    return "not a perf_event event hcc counts directly (perf::TASK-CLOCK, perf::PAGE-FAULTS, "
           "perf::CONTEXT-SWITCHES, perf::CYCLES, perf::INSTRUCTIONS, … as papi_native_avail names them)";
  }

  Verdict add(const std::string &event, EventDef *def, std::string *why) override {
    Attr a;
    if (!lookup(event, &a)) return Verdict::Unknown;
    if (n_ >= kMax) {
      *why = "perf_event_open: more than 32 events";
      return Verdict::NotTogether;
    }
    std::string alone = try_group(&a, 1);
    if (!alone.empty()) {
      *why = alone;
      return Verdict::Unavailable;
    }
    attrs_[n_] = a;
    std::string together = try_groups(attrs_, n_ + 1);
    if (!together.empty()) {
      *why = together;
      return Verdict::NotTogether;
    }
    ++n_;
    def->name = event;
    def->descr = a.descr;
    const std::string unit = kernel_time_unit(event);
    def->uom = unit.empty() ? "#" : unit;
    return Verdict::Counts;
  }

  int size() const override { return n_; }

  std::vector<std::string> working_events() override {
    std::vector<std::string> out;
    for (const Known &k : kEvents) {
      Attr a = {k.type, k.config, k.descr};
      if (try_group(&a, 1).empty()) out.push_back(std::string("perf::") + k.names[0]);
    }
    return out;
  }

  void *thread_start(std::string *why) override {
    auto *gs = new Groups;
    *why = open_groups(attrs_, n_, gs);
    if (!why->empty()) {
      delete gs;
      return nullptr;
    }
    return gs;
  }

  bool read(void *handle, long long *out) override { return read_groups(*static_cast<Groups *>(handle), out); }

  void thread_end(void *handle) override {
    auto *gs = static_cast<Groups *>(handle);
    close_groups(gs);
    delete gs;
  }

 private:
  Attr attrs_[kMax];
  int n_ = 0;
};

}  // namespace

int perf_event_paranoid() {
  std::string text;
  if (!io::read_regular_file("/proc/sys/kernel/perf_event_paranoid", io::kProcFileLimit, text)) return -1;
  char *end = nullptr;
  const long level = std::strtol(text.c_str(), &end, 10);
  return end == text.c_str() || level == -1 ? -1 : static_cast<int>(level);
}

std::string kernel_time_unit(const std::string &event) {
  Attr a;
  const std::string bare = event.substr(0, event.find(':', event.rfind("perf::", 0) == 0 ? 6 : 0));
  if (!lookup(bare, &a) || a.type != PERF_TYPE_SOFTWARE) return "";
  return a.config == PERF_COUNT_SW_TASK_CLOCK || a.config == PERF_COUNT_SW_CPU_CLOCK ? "ns" : "";
}

Source &perf_source() {
  static auto *s = new PerfSource;  // leaked: used until the last thread ends
  return *s;
}

}  // namespace hcc::rt::counters
