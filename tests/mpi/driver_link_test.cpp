// hcc — the driver's MPI link decisions (instrumentor/driver/link_flags.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "link_flags.hpp"

using namespace hcc::driver;
using Args = std::vector<std::string>;

TEST(MpiLink, RecognisesMpiLibraries) {
  EXPECT_TRUE(links_mpi_library({"a.o", "-lmpi"}));
  EXPECT_TRUE(links_mpi_library({"-l", "mpi", "-o", "x"}));
  EXPECT_TRUE(links_mpi_library({"-lmpich"}));
  EXPECT_TRUE(links_mpi_library({"x.o", "/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so"}));
  EXPECT_TRUE(links_mpi_library({"/opt/mpich/lib/libmpich.so.12"}));
  EXPECT_FALSE(links_mpi_library({"-lmpi_cxx_helper", "-lm", "-o", "mpi"}));
  EXPECT_FALSE(links_mpi_library({"libmpiplus.a", "-lmpfr"}));
}

TEST(MpiLink, FlagsOnlyWhenTheLibraryExists) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hcc-mpilink-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  EXPECT_TRUE(mpi_link_flags(dir.string()).empty());
  std::ofstream(dir / "libhcc_mpi.so") << "";
  EXPECT_EQ(mpi_link_flags(dir.string()),
            (Args{"-L" + dir.string(), "-Wl,-rpath," + dir.string(), "-Wl,--defsym,__hcc_linked_by_hcc=1",
                  "-Wl,--push-state,--no-as-needed", "-lhcc_mpi", "-lhcc", "-Wl,--pop-state"}));
  // With both link stubs the linker reads those; with one, it would miss the
  // other (-lhcc_mpi is searched in the stubs' directory only), so none.
  fs::create_directories(dir / kLinkStubDir);
  std::ofstream(dir / kLinkStubDir / "libhcc.so") << "";
  EXPECT_EQ(mpi_link_flags(dir.string())[0], "-L" + dir.string());
  std::ofstream(dir / kLinkStubDir / "libhcc_mpi.so") << "";
  EXPECT_EQ(mpi_link_flags(dir.string()),
            (Args{"-L" + dir.string() + "/hcc-link", "-Wl,-rpath," + dir.string(),
                  "-Wl,--defsym,__hcc_linked_by_hcc=1", "-Wl,--push-state,--no-as-needed", "-lhcc_mpi",
                  "-lhcc", "-Wl,--pop-state"}));
  fs::remove_all(dir);
}
