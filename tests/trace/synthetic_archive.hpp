// An OTF2 archive written here, with OTF2's own writer, event for event
// known: the input of the --trace-json bounds tests, which cut, swap and
// replace its files. No program is built or run for it.
#pragma once

#include <cstdint>
#include <string>

namespace hcc::trace_test {

struct SyntheticArchive {
  std::string anchor;        // <dir>/traces.otf2
  std::string events;        // <dir>/traces/0.evt (location 0)
  uint64_t visits = 0;       // ENTER/LEAVE pairs written, over all locations
};

// Writes <dir>/traces.otf2 with `locations` threads of one process, each
// making `visits_per_location` visits of three regions nested as
// outer > middle > leaf (one visit = one ENTER and one LEAVE), each event
// `tick` nanoseconds after the one before (0: all at one time, which a
// reader that starts a chunk over cannot tell from going on). Event chunks
// are 1 MiB, as hcc's tracer writes them. Throws std::runtime_error when
// OTF2 fails.
SyntheticArchive write_synthetic_archive(const std::string &dir, int locations, uint64_t visits_per_location,
                                         uint64_t tick = 1);

}  // namespace hcc::trace_test
