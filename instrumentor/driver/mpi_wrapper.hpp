// hcc driver — MPI compiler wrappers underneath (mpicc, mpicxx, mpiicpc …).
//
// A wrapper adds MPI's include directories itself, out of sight of the
// command line, so the instrumentor (which parses the source with the
// user's arguments) would not find <mpi.h>. Every common wrapper (Open MPI,
// MPICH, Intel MPI, MVAPICH) prints the command it would run with `-show`;
// the preprocessor options of that command are given to the instrumentor.
#pragma once

#include <string>
#include <vector>

namespace hcc::driver {

// True when the compiler command runs an MPI wrapper: a word of it (after a
// launcher such as ccache) whose base name starts with "mpi".
bool runs_mpi_wrapper(const std::vector<std::string> &compiler);

// The preprocessor options (-I, -D, -U, -isystem, -idirafter, -iquote,
// -include, -pthread) in the output of `<wrapper> -show`; the compiler name
// and linker options are dropped. Blanks separate words; quoting is not
// interpreted (wrappers print paths without blanks).
std::vector<std::string> preprocessor_flags_from_show(const std::string &show_output);

// Runs `<compiler> -show` (with HCC_WRAPPER=off already in the environment)
// and returns its preprocessor options; empty when that fails.
std::vector<std::string> mpi_wrapper_flags(const std::vector<std::string> &compiler, bool verbose);

}  // namespace hcc::driver
