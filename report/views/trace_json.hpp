// hcc-report --trace-json — an OTF2 trace as Chrome trace-event JSON, which
// Perfetto UI (ui.perfetto.dev) and chrome://tracing open.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace hcc::report {

struct TraceJsonCounts {
  uint64_t events = 0;     // complete ("X") events written, one per visit
  uint64_t locations = 0;  // threads over all processes
  uint64_t unmatched = 0;  // LEAVEs without an ENTER (left out)
};

// Reads the archive whose anchor file is `anchor` (…/traces.otf2) with the
// OTF2 library and writes {"traceEvents": [...]} to `out`: process and
// thread names as metadata events, then one "X" event per visit with
// pid = the process (OTF2 location group, = MPI rank), tid = the thread's
// number within it, ts/dur in microseconds since the trace's first event,
// and the region's paradigm as the category. Visits still open at the end
// of the trace end there. Throws std::runtime_error naming the problem.
TraceJsonCounts write_trace_json(const std::string &anchor, std::ostream &out);

}  // namespace hcc::report
