// hcc runtime — "adopt the parent's context": how a thread that works for
// another (an OpenMP team member) gets its events filed under the call path
// of the thread that started the work (the master that forked the team).
//
// The master captures its current call path (region ids, root to top); the
// worker pushes that path as its base frames before its own events. Base
// frames are marked `adopted`: they count no visits on the worker, take only
// the time the worker spends below them, and are closed by leave_adopted().
// The merge then files the worker's events under the same merged path as
// the master's. Nothing here is on the enter/exit hot path.
#pragma once

#include <cstdint>

namespace hcc::rt {

struct ThreadState;

// Deeper paths are cut (the worker's events then hang under the first
// kMaxAdoptedDepth regions of the path, still below the same root).
constexpr uint32_t kMaxAdoptedDepth = 64;

struct CallPath {
  uint32_t n = 0;
  uint32_t regions[kMaxAdoptedDepth];
};

// The calling thread's state, created (and the runtime started) if needed.
ThreadState *current_thread_state();

// The calling thread's open frames, root first.
void capture_path(ThreadState *ts, CallPath &out);

// Pushes `path` on the calling thread as adopted base frames; returns the
// depth before, to give to leave_adopted().
uint32_t adopt_path(ThreadState *ts, const CallPath &path);

// Closes every frame above `base` now (the adopted ones and anything left
// open above them).
void leave_adopted(ThreadState *ts, uint32_t base);

}  // namespace hcc::rt
