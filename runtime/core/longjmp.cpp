// hcc runtime — keeping the shadow stack right across setjmp/longjmp.
//
// The instrumentor turns `setjmp(env)` into `(hcc_setjmp_mark(env), setjmp(env))`,
// so we learn the depth at which `env` was saved. Our interposed longjmp
// (longjmp_interpose.c) calls hcc_rt_longjmp_unwind before jumping: the frames
// that the jump abandons are closed now, so code after the jump is attributed
// to the function that called setjmp. Unknown `env`s leave the stack alone;
// the exit repair in hooks.cpp still keeps it consistent later.
#include "clock.hpp"
#include "hcc/region.h"
#include "thread_state.hpp"

using namespace hcc::rt;

namespace {

// The real frame that identifies a mark: the one open at its depth (the
// depth-cut node when the mark was set below the cut).
const Frame &frame_at(const ThreadState *ts, uint32_t logical_depth) {
  return ts->stack[logical_depth < ts->depth ? logical_depth : ts->depth];
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void hcc_setjmp_mark(const void *env) {
  ThreadState *ts = t_state;
  if (!ts) return;  // nothing open on this thread, nothing to unwind later
  uint32_t depth = ts->depth + ts->overflow;
  const Frame &f = frame_at(ts, depth);
  JmpMark mark{env, depth, f.node, f.start};
  for (JmpMark &m : ts->marks) {
    if (m.env == env) {  // the same buffer saved again: most recent wins
      m = mark;
      return;
    }
  }
  ts->marks[ts->next_mark++ % kJmpMarks] = mark;
}

extern "C" __attribute__((visibility("hidden"))) void hcc_rt_longjmp_unwind(const void *env) {
  ThreadState *ts = t_state;
  if (!ts || !env) return;
  for (JmpMark &m : ts->marks) {
    if (m.env != env) continue;
    uint32_t target = m.depth;
    if (target >= ts->depth + ts->overflow) return;  // nothing to close
    // The function that called setjmp must still be running: a buffer at a
    // reused stack address, set by code we never saw, must not unwind us.
    const Frame &f = frame_at(ts, target);
    if (f.node != m.node || f.start != m.start) {
      m.env = nullptr;
      return;
    }
    if (target >= ts->depth) {
      ts->overflow = target - ts->depth;  // still below the depth cut
      return;
    }
    close_frames(ts, target, clock_now());
    return;
  }
}
