// hcc runtime — a program built with hcc that never entered a region writes
// no profile (it has nothing to say, and configure probes must leave no
// trace); without a word, a user whose code was never instrumented (all of
// it in a file hcc did not instrument, everything filtered out) would look
// for a profile that does not exist. So such a program says so, once, at
// exit — but only a program that hcc linked.
//
// The rule: the hcc driver defines the absolute symbol __hcc_linked_by_hcc
// in every program and library it links (-Wl,--defsym, next to -lhcc in
// instrumentor/driver/link_flags.cpp), which this library references
// weakly: the dynamic linker resolves the reference only in a process hcc
// linked. Configure and CMake probes are passed through by the driver
// without the runtime, and a program that links libhcc by other means (its
// own tests, a library check) does not define it: all stay silent, as does
// HCC_VERBOSE=0.
#include "nothing_measured.hpp"

#include "own_line.hpp"

#include <errno.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "config/config.hpp"

namespace hcc::rt {

extern "C" __attribute__((weak, visibility("default"))) const char __hcc_linked_by_hcc;

bool linked_by_hcc() noexcept { return &__hcc_linked_by_hcc != nullptr; }

void note_nothing_measured() noexcept {
  const char *v = config::text("HCC_VERBOSE");
  if (v && std::strcmp(v, "0") == 0) return;
  const int saved = errno;
  if (linked_by_hcc()) {
    start_own_line();
    std::fprintf(stderr,
                 "hcc: %s measured nothing: no instrumented function ran, so no profile was written "
                 "(hcc --hcc-verbose shows what the instrumentor left out)\n",
                 program_invocation_short_name);
  }
  errno = saved;
}

}  // namespace hcc::rt
