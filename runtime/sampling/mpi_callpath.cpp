// hcc runtime — MPI calls find their call path by unwinding (HCC_MPI_UNWIND).
//
// Without function instrumentation (`--hcc-functions=none`, or a filter that
// excludes everything) an MPI call measured by its wrapper would be a root
// call path. With HCC_SAMPLING on, the wrapper's enter first unwinds from
// itself (a normal context, not a signal) up to the innermost instrumented
// function, exactly as a sample does, and pushes those frames as regions of
// kind `sampled`; the MPI region goes below them and the exit pops them
// again. The pushed frames get no visits (they are marked `adopted`, which
// the merge keeps), so a sampled region's visits stay 0; their time is the
// MPI calls' time, and the samples between calls land on the same call
// paths (the same regions), so the two merge.
//
// The same unwinding serves an OpenMP fork (hcc_svc_push_caller_frames): the
// master's construct goes below the frames that lead to it, and the team
// adopts that path (pomp/team.cpp).
//
// HCC_MPI_UNWIND = on (default with HCC_SAMPLING) | off | exclude:NAME,NAME…
// (those MPI functions are still measured, as roots or below the innermost
// instrumented function, but not unwound: e.g. MPI_Comm_rank in a hot loop).
#include <pthread.h>

#include <cstring>
#include <string>
#include <unordered_map>

#include "core/service.hpp"
#include "core/thread_state.hpp"
#include "sampling/sampling.hpp"

namespace hcc::rt::sampling {
namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

// One runtime-made descriptor per function start, for every thread.
hcc_region_desc *descriptor_for(uintptr_t start) {
  static auto *all = new std::unordered_map<uintptr_t, hcc_region_desc *>;  // leaked, like descriptors
  pthread_mutex_lock(&g_lock);
  auto it = all->find(start);
  hcc_region_desc *d = it == all->end() ? nullptr : it->second;
  pthread_mutex_unlock(&g_lock);
  if (d) return d;
  const Symbol s = symbolize(start);
  d = new hcc_region_desc{strdup(s.name.c_str()), s.mangled.empty() ? nullptr : strdup(s.mangled.c_str()),
                          strdup(s.file.c_str()), s.line, -1, HCC_KIND_SAMPLED, 0};
  pthread_mutex_lock(&g_lock);
  auto [pos, inserted] = all->emplace(start, d);
  d = pos->second;
  pthread_mutex_unlock(&g_lock);
  return d;
}

// The thread's own cache in front of the shared one (no lock on a hit).
hcc_region_desc *cached_descriptor(Buffer *b, uintptr_t start) {
  if (!b->mpi_descs) b->mpi_descs = new std::unordered_map<uintptr_t, hcc_region_desc *>;
  auto &m = *static_cast<std::unordered_map<uintptr_t, hcc_region_desc *> *>(b->mpi_descs);
  auto it = m.find(start);
  if (it != m.end()) return it->second;
  return m[start] = descriptor_for(start);
}

// Unwinds from here (hcc's own frames at the top skipped) up to the
// innermost instrumented function and pushes those frames, outermost first,
// as sampled regions with no visits; their descriptors go to out[0..],
// at most `max`. Returns how many were pushed.
uint32_t push_caller_frames(Buffer *b, hcc_region_desc **out, uint32_t max) {
  uintptr_t frames[Buffer::kMpiFrames];
  const int n = unwind_here(b, frames, Buffer::kMpiFrames);
  uint32_t pushed = 0;
  ThreadState *ts = t_state;
  for (int i = n - 1; i >= 0 && ts && pushed < max; --i) {
    hcc_region_desc *fd = cached_descriptor(b, frames[i]);
    const uint32_t before = ts->depth;
    hcc_enter(fd);
    if (ts->depth != before + 1) {  // not pushed (depth cut, pause): stop here
      if (ts->depth > before) hcc_exit(fd);
      break;
    }
    Node *node = ts->stack[ts->depth].node;
    if (node->kind == kProxy) node = node->link;
    --node->visits;     // a sampled frame has no visits …
    node->adopted = 1;  // … and is kept by the merge without them
    note_region_start(node->region, frames[i]);
    out[pushed++] = fd;
  }
  return pushed;
}

}  // namespace
}  // namespace hcc::rt::sampling

using namespace hcc::rt;
using namespace hcc::rt::sampling;

extern "C" __attribute__((visibility("default"))) uint32_t hcc_svc_push_caller_frames(hcc_region_desc **out,
                                                                                      uint32_t max) {
  Buffer *b = current_buffer();
  if (!b || !active()) return 0;
  return push_caller_frames(b, out, max);
}

extern "C" __attribute__((visibility("default"))) void hcc_svc_mpi_enter(hcc_region_desc *d) {
  Buffer *b = current_buffer();
  if (!b || !active() || b->mpi_level >= Buffer::kMpiNest || !mpi_unwind_enabled(d->name)) {
    if (b && b->mpi_level < Buffer::kMpiNest) b->mpi_count[b->mpi_level++] = 0;
    hcc_enter(d);
    return;
  }
  const uint32_t pushed = push_caller_frames(b, b->mpi_pushed[b->mpi_level], Buffer::kMpiFrames);
  b->mpi_count[b->mpi_level++] = pushed;
  hcc_enter(d);
}

extern "C" __attribute__((visibility("default"))) void hcc_svc_mpi_exit(hcc_region_desc *d) {
  hcc_exit(d);
  Buffer *b = current_buffer();
  if (!b || b->mpi_level == 0) return;
  const uint32_t level = --b->mpi_level;
  for (uint32_t i = b->mpi_count[level]; i-- > 0;) hcc_exit(b->mpi_pushed[level][i]);
  b->mpi_count[level] = 0;
}
