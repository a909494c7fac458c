// hcc runtime — sampling with call-path unwinding (HCC_SAMPLING), the parts
// its files share. README.md explains the design; in short:
//  - a per-thread CPU-time interval timer delivers a real-time signal to the
//    thread that burnt the time (timer_create(CLOCK_THREAD_CPUTIME_ID,
//    SIGEV_THREAD_ID)); blocked threads get no samples and are not woken;
//  - the handler (handler.cpp) unwinds with libunwind from the signal frame
//    up to the innermost instrumented function, whose call path the shadow
//    stack already holds (its CCT node is the sample's *anchor*), and counts
//    the unwound frames in a preallocated per-thread table: no allocation,
//    no lock, no write to the CCT except one counter of the anchor;
//  - at a profile build (paths.cpp) the tables become call paths of sampled
//    regions (named with libdw, symbols.cpp) below their anchors, and each
//    anchor's measured exclusive time is shared among its own samples and
//    the sampled paths below it.
#pragma once

#include <signal.h>
#include <time.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hcc/region.h"

namespace hcc::rt {
struct Node;
struct ThreadState;
}  // namespace hcc::rt

namespace hcc::rt::sampling {

// Pseudo function addresses (never a code address).
constexpr uintptr_t kFailedFrame = 1;   // "<unwind failed>"
constexpr uintptr_t kUnknownFrame = 2;  // a sample with no shadow frame and no frame of its own
constexpr uintptr_t kNotOnCpuFrame = 3;  // a thread's time outside every frame that no sample explains
// A frame's key in the path table is its function's start, or, for code
// whose inlined calls can be told apart, its *site* (the sampled address, or
// a caller's return address − 1) with kSiteBit set: the profile build
// expands a site into the function and the calls inlined there. With
// kInlinedOnlyBit too, the site is in the anchor's own function (an
// instrumented one, already on the shadow stack): only its inlined calls
// are added. Code addresses never use these bits (x86-64 user space).
constexpr uintptr_t kSiteBit = uintptr_t(1) << 62;
constexpr uintptr_t kInlinedOnlyBit = uintptr_t(1) << 63;
constexpr uintptr_t kSiteMask = ~(kSiteBit | kInlinedOnlyBit);

// One sampled frame below its parent: the parent is an anchor (a CCT Node*,
// 16-byte aligned, low bit 0) or an earlier entry ((index << 1) | 1).
// `func` is the function's start address; 0 = the slot is free. `count` is
// the samples whose innermost frame this is, `cpu_ns` the thread CPU time
// they stand for (each sample: the thread's CPU clock since the one before).
struct Entry {
  uintptr_t parent;
  uintptr_t func;  // written last (release): a reader that sees it sees `parent`
  uint64_t count;
  uint64_t cpu_ns;
  uint32_t order;  // index in creation order (entries[] below)
  uint32_t pad_;
};

// Per-thread state of the sampler; created in the thread at its first event,
// never freed (the profile is built from it after the thread ended).
struct Buffer {
  ThreadState *ts = nullptr;
  // The path table: open addressing by (parent, func), `cap` a power of two.
  Entry *table = nullptr;
  uint32_t cap = 0;
  uint32_t used = 0;             // entries made (also the next `order`)
  uint32_t *by_order = nullptr;  // slot of entry k, in creation order
  uint64_t lost = 0;             // samples not stored: the table was full
  // Return address -> function start cache (no unw_get_proc_info on a hit).
  uintptr_t *ip_key = nullptr;
  uintptr_t *ip_start = nullptr;
  uint32_t ip_cap = 0;
  uint64_t ip_hits = 0, ip_misses = 0;
  // Samples that landed inside hcc's own code while no frame was open:
  // counted here and added (as measurement_cpu) to the anchor of the next
  // sample taken outside it (or to the top frame at the thread's end).
  uint64_t pending = 0;
  uint64_t pending_ns = 0;   // the CPU time those stand for
  Node *last_anchor = nullptr;  // the anchor of the last sample taken outside hcc's code
  bool has_last = false;
  // The thread's CPU clock (CLOCK_THREAD_CPUTIME_ID, ns) at its last sample
  // or at its start: a sample weighs the CPU time since then, whatever the
  // timer's period and however late the kernel delivered it.
  uint64_t last_cpu_ns = 0;
  uint64_t in_runtime = 0;  // how many did, in total (attribute)
  uint64_t root_self = 0;   // samples with no shadow frame, kept under "<unknown>"
  uint64_t failed = 0;      // unwinds that failed (also counted as paths)
  uint64_t taken = 0;       // samples handled in this thread
  // Frames whose CFA lies above this stack address belong to the code that
  // started the thread (libc, the OpenMP runtime, the thread's entry), not
  // to its measured part: unwinding stops there.
  uintptr_t base_sp = ~uintptr_t(0);
  uint64_t start_tick = 0, end_tick = 0;  // the thread's measured span
  timer_t timer{};
  bool has_timer = false;
  void *signal_stack = nullptr;  // the handler's own (service.cpp), or none
  // MPI wrappers (mpi_callpath.cpp): the descriptors pushed before each open
  // MPI call, and a cache function start -> descriptor (not touched by the handler).
  static constexpr int kMpiFrames = 64, kMpiNest = 4;
  hcc_region_desc *mpi_pushed[kMpiNest][kMpiFrames] = {};
  uint32_t mpi_count[kMpiNest] = {};
  uint32_t mpi_level = 0;
  void *mpi_descs = nullptr;
  void *mpi_walks = nullptr;  // handler.cpp's cached walks (unwind_here)
  volatile sig_atomic_t busy = 0;     // a sample is being taken (no nesting)
  volatile sig_atomic_t stopped = 0;  // the thread ended / the run is finalizing
};

// handler.cpp ---------------------------------------------------------------
// Installed for the chosen signal; async-signal-safe.
void on_signal(int sig, siginfo_t *si, void *uc);
// The calling thread's buffer (initial-exec TLS, set by thread_start).
Buffer *current_buffer();
void set_current_buffer(Buffer *b);
// Address ranges of hcc's own code (libhcc*, samples there are "in the
// runtime") and of the OpenMP runtime (frames skipped, unwinding goes on).
// Computed at start-up, outside any handler.
void scan_code_ranges();
// Adds samples still pending (taken inside hcc's code) to the thread's
// current anchor; only from the thread itself with its sampling stopped.
void flush_pending(Buffer *b);
bool in_hcc_code(uintptr_t ip);
// The instrumented-functions set: start addresses of functions that call
// hcc_enter for a function region. Filled at registration (not in a
// handler), read lock-free by the handler.
void note_instrumented_function(uintptr_t start);
bool is_instrumented_function(uintptr_t start);
// Instrumented functions whose count stopped (core/auto_throttle.cpp): they
// push no frame any more, so a walk goes on through them to the innermost
// open frame (their frames are kept, so a sample in a stopped function
// called by another stays below it). Noted off the handler, read lock-free.
void note_stopped_function(uintptr_t start);
bool is_stopped_function(uintptr_t start);

// A region of kind `sampled` pushed on the shadow stack (an MPI call's or an
// OpenMP fork's unwound frames, mpi_callpath.cpp), or an instrumented
// function's region (noted at registration), and its function's start:
// a sample whose innermost open frame is that region ends its walk at that
// function, as at an instrumented one. Async-signal-safe lookup; 0 for
// any other region (and for ids past the table).
void note_region_start(uint32_t region, uintptr_t start);
uintptr_t region_start(uint32_t region);
// The start of `main` where walks end for a thread with no base (the main
// thread started at load, service.cpp); 0 = none.
void set_main_start(uintptr_t start);
// The function start of `ip` outside a handler (registration, thread start).
uintptr_t function_start_slow(uintptr_t ip);
// Takes one sample from `uc` into `b` (the handler's body; also called by
// the tests and the benchmark with a context they made).
void take_sample(Buffer *b, void *uc);
// Caches on/off (the benchmark measures the handler without them).
void set_caches_enabled(bool on);

// symbols.cpp ---------------------------------------------------------------
struct Symbol {
  std::string name;  // demangled; "0x…" when nothing names it
  std::string mangled;
  std::string file;  // from DWARF line info, or the object's path
  int line = -1;
};
Symbol symbolize(uintptr_t func_start);
// The calls inlined at `ip` (outermost first: the first was inlined into
// the machine function holding `ip`), named after their abstract origins,
// from DWARF (DW_TAG_inlined_subroutine); empty without -g or inlining.
std::vector<Symbol> inlined_at(uintptr_t ip);
// A file under /lib, /lib64, /usr/lib or /usr/lib64: a library of the
// system, named from its symbol table only, its frames keyed by start.
bool system_path(const char *path);
// Calls `add(lo, hi)` once per loaded module for the address block of hcc's
// trampolines there (symbols __hcc_*, bind.h), read from its symbol table.
void for_each_trampoline_block(void (*add)(uintptr_t lo, uintptr_t hi));
// Calls `add(lo, hi, stub size)` for each PLT section (.plt, .plt.sec,
// .plt.got) of each loaded module, from its section headers.
void for_each_plt_section(void (*add)(uintptr_t lo, uintptr_t hi, unsigned entry_size));
// Whether `addr` is in a PLT section found at start-up (handler.cpp).
bool in_plt(uintptr_t addr);

// The frames above the innermost instrumented function, from a normal (not
// signal) context: function starts, innermost first; returns how many, or
// -1 when unwinding failed. Skips hcc's frames at the top.
int unwind_here(Buffer *b, uintptr_t *frames, int max);

// service.cpp ---------------------------------------------------------------
bool mpi_unwind_enabled(const char *mpi_name);  // HCC_MPI_UNWIND
bool active();                // HCC_SAMPLING is on in this process
int samples_metric();         // extra-counter index of `samples`
int cpu_metric();             // extra-counter index of `sampled_cpu` (ns)
int measurement_metric();     // extra-counter index of `measurement_cpu` (ns)
uint64_t thread_cpu_ns();     // the calling thread's CPU clock; async-signal-safe
uint64_t interval_ns();       // the timer's period in thread CPU time

}  // namespace hcc::rt::sampling
