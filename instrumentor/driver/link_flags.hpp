// hcc driver — what a link needs to carry the runtime.
#pragma once

#include <string>
#include <vector>

namespace hcc::driver {

// The directory below `lib_dir` with the link stubs (runtime/link_stub/):
// libhcc.so and libhcc_mpi.so with the real libraries' SONAMEs and exported
// functions but no dependencies, so the linker need not open the 21
// libraries behind the runtime to check its undefined symbols.
inline constexpr const char kLinkStubDir[] = "hcc-link";

// -L<lib>/hcc-link -Wl,-rpath,<lib> -Wl,--defsym,__hcc_linked_by_hcc=1
// -Wl,--push-state,--no-as-needed -lhcc -Wl,--pop-state: appended after the
// user's arguments so the program loads the runtime at start-up, ahead of
// libc (its longjmp interposes), finds the real libhcc.so without
// LD_LIBRARY_PATH, and, with no instrumented code, hears that it measured
// nothing. -L<lib> itself when there is no stub (an older installation).
std::vector<std::string> runtime_link_flags(const std::string &lib_dir);

// -DHCC_RUNTIME_LIBRARY_="<path>" for instrumented compiles: the runtime an
// object loads itself when the program was linked without it (a plain link
// command; include/hcc/detail/bind.h). "" when the path cannot be passed.
std::string runtime_path_define(const std::string &runtime_library);

// MPI programs also get the PMPI wrappers (libhcc_mpi.so). They must come
// before libmpi in the executable's DT_NEEDED list, or the program's MPI
// calls bind to libmpi directly; so these flags go right after the compiler
// command, before the user's `-lmpi`, and --no-as-needed keeps the library
// although no object seen so far references it. Empty when the library is
// not in `lib_dir` (hcc built without MPI).
std::vector<std::string> mpi_link_flags(const std::string &lib_dir);

// The user links MPI by hand: -lmpi, -lmpich (also as "-l mpi"), or
// .../libmpi.so[.N] / libmpich.so[.N] by path (CMake's find_package(MPI)).
bool links_mpi_library(const std::vector<std::string> &args);

}  // namespace hcc::driver
