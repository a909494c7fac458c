// hcc — shared between the MPI wrappers' C++ files (not seen by the C wrappers).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "mpi_helpers.h"

namespace hcc::mpi {

enum Counter { kBytesSent, kBytesReceived, kMessagesSent, kMessagesReceived, kBytesRead, kBytesWritten, kCounters };

// Every group except the cheap queries (MISC) and the polling calls
// (XREQTEST): those run in tight loops where a region per call would cost
// more than the call.
constexpr uint32_t kDefaultGroups = HCCM_G_CG | HCCM_G_COLL | HCCM_G_ENV | HCCM_G_ERR | HCCM_G_EXT |
                                    HCCM_G_IO | HCCM_G_P2P | HCCM_G_RMA | HCCM_G_SPAWN | HCCM_G_TOPO |
                                    HCCM_G_TYPE | HCCM_G_XNONBLOCK;

// HCC_MPI_GROUPS: names separated by commas or blanks; ALL, DEFAULT, NONE;
// "-NAME" removes a group (from DEFAULT when nothing was named before).
// Unknown names are listed in *warning and ignored.
uint32_t parse_groups(const char *text, std::string *warning);
const std::string &groups_warning();

void count(Counter c, uint64_t amount);
bool counters_registered();  // false: registered too late (after the first region)
uint64_t type_bytes(long long count, MPI_Datatype t);

}  // namespace hcc::mpi
