// hcc runtime — in-library services that see every event (PAPI counters,
// the OTF2 tracer).
//
// A service (runtime/counters is the first) registers itself from a static
// constructor; the core calls it by these hooks and knows nothing else about
// it. Only a service that asks for every event (init() returns true) costs
// anything: then g_fast_events is false, the fast paths of hcc_enter/hcc_exit
// are never taken and the general paths call the hooks. Without such a
// service the fast paths are exactly what they were.
#pragma once

#include <cstdint>

namespace hcc::rt {

struct ThreadState;

struct EventService {
  // At start-up (the process's first event), after the HCC_* settings were
  // parsed, before any thread state exists: the place to register metrics.
  // Returns true when the service needs enter()/exit() on every event.
  bool (*init)();
  // On a thread's first event, in that thread, once its state exists.
  void (*thread_start)(ThreadState *ts);
  // In the thread, right after a frame was pushed (its depth is ts->depth).
  void (*enter)(ThreadState *ts);
  // In the thread, right before frames stack[ts->depth] .. stack[target + 1]
  // are closed (a normal exit closes one; repairs, longjmp and thread end more)
  // at clock time `t`: the time the profile charges them up to (the tracer
  // writes it as the LEAVE time, so trace and profile agree to the tick).
  void (*exit)(ThreadState *ts, uint32_t target, uint64_t t);
  // In the thread, when it ends (after its open frames were closed).
  void (*thread_end)(ThreadState *ts);
  // Before a profile is built: bring open frames up to date. May run more
  // than once; must then not count anything twice.
  void (*before_build)();
};

// Services register from a constructor of this priority: before every
// constructor of default priority, so that a start at load (sampling's, for
// programs that may enter no region) finds them all, whatever the link order.
#define HCC_SERVICE_REGISTRATION __attribute__((constructor(110)))

// Called from static constructors (single-threaded, before main). At most a
// handful of services; a registration beyond that is ignored.
void register_event_service(const EventService *s);

// false once a service asked for every event, or when the TSC is not used:
// the hot path then takes the general paths (hooks.cpp, compute_fast_limit).
// Written once by services_init() before the first thread state exists.
extern bool g_fast_events;

void services_init();  // from runtime init, after clock_init()
// Dispatch, only called when !g_fast_events (enter/exit) or on cold paths.
void services_thread_start(ThreadState *ts);
void services_enter(ThreadState *ts);
void services_exit(ThreadState *ts, uint32_t target, uint64_t t);
void services_thread_end(ThreadState *ts);
void services_before_build();

}  // namespace hcc::rt
