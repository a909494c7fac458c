// hcc tracer — writing the OTF2 archive at the end of the run: one archive
// for the whole job, each process writing the event files of its own
// threads, rank 0 the unified global definitions (see otf2_writer.cpp).
#pragma once

#include <string>

#include "core/service.hpp"

namespace hcc::rt::trace {

// Collective over `c` (every process calls it, in the same order as its
// other collectives). `problem` is "" when this process can write its part
// (tracing on, OTF2 loaded); otherwise nobody writes and rank 0 says why.
// `archive` is the archive's name ("traces", or "traces.rank-3" for a rank
// that writes alone). Sets the profile attributes hcc.trace (and
// hcc.trace.lost) that summary.txt shows.
void write_archive(const hcc_svc_collectives &c, const std::string &problem, std::string archive);

}  // namespace hcc::rt::trace
