// hcc driver — what a link needs to carry the runtime.
#pragma once

#include <string>
#include <vector>

namespace hcc::driver {

// -L<lib> -Wl,-rpath,<lib> -lhcc (with --no-as-needed): appended after the
// user's arguments so the runtime resolves the symbols of every instrumented
// object, the program finds libhcc.so at run time without LD_LIBRARY_PATH,
// and a program with no instrumented code still loads it and, marked by
// the symbol __hcc_linked_by_hcc, hears that it measured nothing.
std::vector<std::string> runtime_link_flags(const std::string &lib_dir);

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
