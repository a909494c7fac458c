// hcc runtime — the one line at exit of a program built with hcc that
// measured nothing (see nothing_measured.cpp).
#pragma once

namespace hcc::rt {

// Called by finalize() when no region was ever entered: prints one line on
// stderr when hcc linked this program and HCC_VERBOSE is not 0.
void note_nothing_measured() noexcept;

// Whether the hcc driver linked this program (its --defsym, see
// nothing_measured.cpp); configure probes and other links say no.
bool linked_by_hcc() noexcept;

}  // namespace hcc::rt
