// hcc runtime — turning one guard call into a no-op, once its region stopped.
//
// A region whose count stopped (auto_throttle.cpp) records nothing more, but
// each call still runs its guard (bind.h: a direct call, a compare, a return)
// at entry and at exit. In a memory-bound loop those few instructions cost
// more than their count suggests: they take room in the out-of-order window
// that the next iterations' cache misses would have used (a 256 MiB hash
// lookup runs 1.18x plain with the guards, 1.03x with their calls gone). So
// the first call of a stopped region through each call site replaces that
// site's `call __hcc_t_hcc_{enter,exit}_guard` by a five-byte nop, as XRay
// and the kernel's static keys rewrite their sites.
//
// Only what is certainly a guard call is rewritten: the five bytes before the
// return address are `call rel32`, and its target is one of bind.h's guard
// stubs, byte for byte. The store is one 8-byte write inside one cache line
// (atomic on x86-64 for a processor fetching those bytes: it runs the old
// call or the nop, never a mix), or, where eight bytes would cross a line,
// a 2-byte short jump over the call's other three bytes; the page writable
// only for that store and one thread at a time. A site that is not certain,
// a call in a line's last byte, or a page mprotect refuses (W^X policies)
// keeps its call: the region's hooks then return at their first tests.
// x86-64 ELF only (bind.h's guards exist only there).
#pragma once

#include <cstdint>

namespace hcc::rt {

enum class GuardKind { kEnter, kExit };

// `ret`: the return address of the hook's caller (hcc_enter's or hcc_exit's
// own return address: the guards and trampolines only tail-jump). True when
// the call before it was a `kind` guard call and is a nop now.
bool patch_guard_call(uintptr_t ret, GuardKind kind) __attribute__((noinline, cold));

// Call sites rewritten so far (the profile's hcc.stopped_sites).
uint64_t patched_guard_calls();

}  // namespace hcc::rt
