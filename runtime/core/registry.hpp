// hcc runtime — the global region registry.
//
// Each instrumented region has one static descriptor; the first enter
// registers it here (under a mutex) and stores `id + 1` into the descriptor,
// so every later event finds the region with one load. Descriptors that
// describe the same function (e.g. a `static inline` function compiled into
// several translation units) share one region id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hcc/region.h"

namespace hcc::rt {

struct RegionInfo {
  std::string name;     // normalised (GCC's "[with T = int]" -> "[T = int]")
  std::string mangled;
  std::string file;
  int begin_line = -1;
  int end_line = -1;
  int kind = HCC_KIND_FUNCTION;
  // Count mode: visits only, its time is its caller's (count_hooks.cpp).
  // Set when a descriptor of it registers through hcc_count_enter or a
  // run-time filter's COUNT rule names it; never cleared.
  bool counted = false;
  // Throttled (auto_throttle.cpp, HCC_THROTTLE): timed no more, its frames
  // pushed without a clock. Set once; like a counted region, its time is
  // taken from its samples at a build (untimed_time.hpp).
  bool throttled = false;
  // Its count stopped too (auto_throttle.cpp): its visits are a lower bound.
  bool stopped = false;
};

// Slow path of hcc_enter: registers `d` once and returns the value now
// stored in d->id (region index + 1, never 0). `counted`: registered by
// hcc_count_enter, so the region is counted (RegionInfo::counted).
uint32_t register_region(hcc_region_desc *d, bool counted = false) __attribute__((noinline, cold));

// For an exit through a descriptor that was never entered: the id of an
// already registered region with the same identity (stored into d->id), or
// 0. Never registers anything.
uint32_t find_region(hcc_region_desc *d) __attribute__((noinline, cold));

// The artificial "[depth limit HCC_MAX_DEPTH=N reached]" region, registered
// the first time a thread hits its depth limit N.
uint32_t register_depth_limit_region(uint32_t max_depth) __attribute__((noinline, cold));

// Throttling: stores the throttled value (id | kThrottledBit, selection.hpp)
// into every descriptor of region `id` (descriptor value) and into those
// registered later. Returns the region's name, or "" when it was throttled
// already.
std::string throttle_region_descriptors(uint32_t id) __attribute__((noinline, cold));

// Stops the count of throttled region `id` (descriptor value): its
// descriptors, and those registered later, hold id | kThrottledBit |
// kStoppedBit. Returns its name, or "" when it was not throttled, stopped
// already or its id is too large to carry the bit.
std::string stop_region_descriptors(uint32_t id) __attribute__((noinline, cold));

// Whether the region with descriptor value `id` is an OpenMP construct
// (HCC_KIND_OPENMP, HCC_KIND_OMP_*). Async-signal-safe (one atomic load):
// the sampling handler asks it of the frame a sample hangs below. Ids past
// the first 65536 answer false.
bool region_is_openmp(uint32_t id);

// Name of the region with descriptor value `id` ("" if none), for messages.
std::string region_name(uint32_t id);

// The region with descriptor value `id` (false when there is none), for a
// service that decides per region once (the tracer's HCC_TRACE_SELECT).
bool region_info(uint32_t id, RegionInfo *out);

// Called (under the registry lock, once per descriptor) when a descriptor of
// a function region is registered and recorded: sampling notes which
// machine function calls hcc_enter. Set once at start-up.
using FunctionRegisteredHook = void (*)(const hcc_region_desc *d);
void set_function_registered_hook(FunctionRegisteredHook h);

// Called (outside the registry lock) when a region's count stopped:
// sampling walks through its function from then on. Set once at start-up.
using RegionStoppedHook = void (*)(uint32_t id);
void set_region_stopped_hook(RegionStoppedHook h);

// Copy of every region, indexed by region id (= descriptor value - 1).
std::vector<RegionInfo> regions_snapshot();

// GCC's __PRETTY_FUNCTION__ says "void f(T) [with T = int; U = char]",
// Clang's says "void f(T) [T = int, U = char]"; we keep Clang's form.
std::string normalize_region_name(const std::string &name);

// fork(): hold the lock across the fork so the child never inherits it held
// by a thread that does not exist there.
void registry_lock();
void registry_unlock();

}  // namespace hcc::rt
