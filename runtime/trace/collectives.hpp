// hcc tracer — collectives over the processes of a job (service.hpp's
// hcc_svc_collectives): the trivial ones of a single process, byte strings
// to and from rank 0, and OTF2's collective callbacks on top of ours.
#pragma once

#include <otf2/otf2.h>

#include <string>
#include <vector>

#include "core/service.hpp"

// OTF2 leaves this struct to whoever provides the collectives.
struct OTF2_CollectiveContext {
  const hcc_svc_collectives *c;
};

namespace hcc::rt::trace {

// The trivial collectives of a single process (rank 0 of 1).
const hcc_svc_collectives &serial_collectives();

// Every process's `mine`, at rank 0 (empty elsewhere).
std::vector<std::string> gather_bytes(const hcc_svc_collectives &c, const std::string &mine);
// parts[r] (given at rank 0) to process r.
std::string scatter_bytes(const hcc_svc_collectives &c, const std::vector<std::string> &parts);
// Rank 0's `v` everywhere.
uint8_t bcast_flag(const hcc_svc_collectives &c, uint8_t v);

// OTF2_Archive_SetCollectiveCallbacks with user data = the hcc_svc_collectives.
const OTF2_CollectiveCallbacks &otf2_collectives();

}  // namespace hcc::rt::trace
