// Findings stand-in for the Scalasca hybrid case study: rank 0 writes a
// log line with std::endl (a flush, a write system call) on every one of
// LINES steps, while the other ranks go straight to the MPI_Allreduce that
// ends the phase and wait there for rank 0. The waiting is (ranks - 1)
// times rank 0's flushing; the finding must name the collective, rank 0
// and the write below std::endl.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

constexpr int kLines = 300000;

void log_step(std::ofstream &log, int step) { log << "step " << step << std::endl; }

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long local = rank + 1, total = 0;
  if (rank == 0) {
    const char *dir = std::getenv("FLUSH_LOG_DIR");
    std::ofstream log(std::string(dir ? dir : ".") + "/steps.log");
    for (int step = 0; step < kLines; ++step) log_step(log, step);
  }
  MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("ranks %d, sum %ld\n", size, total);
  MPI_Finalize();
  return 0;
}
