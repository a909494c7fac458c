// A small C++ MPI code for issue 13's end-to-end check (built with
// --hcc-functions=none and HCC_SAMPLING): a Field with tiny member functions
// used in the hot loops; relax() and norm2() both call sweep(), relax three
// times per iteration and norm2 once, so the CPU time below main/relax/sweep
// is by construction 3x that below main/norm2/sweep; exchange() sends a
// fixed number of doubles to the other rank every iteration with
// MPI_Sendrecv. Prints a checksum that no measurement may change.
//
// The functions whose call paths the test checks are noinline: the test is
// about finding call paths that exist in the machine code, and which calls an
// optimiser inlines at -O2 is its own business, not the tool's.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {
constexpr int kRows = 256;      // interior rows per rank
constexpr int kCols = 256;      // columns; also the halo's length in doubles
// Few long sweeps rather than many short ones: the kernel checks CPU-time
// timers at its tick (4 ms at HZ=250), so a sweep several ticks long gets
// its share of samples within one sample per call, and the sampled ratio
// of relax to norm2 is sharp with ~1.9 s of CPU per rank.
constexpr int kSweepReps = 40;
constexpr int kIterations = 50;
}  // namespace

class Field {
 public:
  Field(int rows, int cols) : rows_(rows), cols_(cols), v_(std::size_t(rows + 2) * cols, 0.0) {}
  // Rows 0 and rows+1 are the halo.
  double &at(int i, int j) { return v_[std::size_t(i) * cols_ + j]; }
  double get(int i, int j) const { return v_[std::size_t(i) * cols_ + j]; }
  int size() const { return rows_; }
  int width() const { return cols_; }
  double *row(int i) { return &v_[std::size_t(i) * cols_]; }

 private:
  int rows_, cols_;
  std::vector<double> v_;
};

// One Gauss-Seidel sweep over the interior (the same work whatever the
// values); returns the sum of squared updates.
__attribute__((noinline)) double sweep(Field &f, double source) {
  double change = 0;
  for (int rep = 0; rep < kSweepReps; ++rep)
    for (int i = 1; i <= f.size(); ++i)
      for (int j = 1; j + 1 < f.width(); ++j) {
        const double next =
            0.25 * (f.get(i - 1, j) + f.get(i + 1, j) + f.get(i, j - 1) + f.get(i, j + 1)) + source;
        const double d = next - f.at(i, j);
        change += d * d;
        f.at(i, j) = next;
      }
  return change;
}

// Returns what its sweeps changed, which keeps every sweep() call out of
// tail position: at -O2 gcc turns a last call whose result is unused into a
// jump, relax's frame is gone during that sweep, and its samples read
// main/sweep (as in any unwinding profiler).
__attribute__((noinline)) double relax(Field &f) {
  double change = 0;
  for (int k = 0; k < 3; ++k) change += sweep(f, 1e-3);
  return change;
}

__attribute__((noinline)) double norm2(Field &f) { return std::sqrt(sweep(f, 1e-3)); }

// Both ranks send their edge row and receive the other's into the halo.
__attribute__((noinline)) void exchange(Field &f, int rank, int ranks) {
  const int other = (rank + 1) % ranks;
  double *send = rank == 0 ? f.row(f.size()) : f.row(1);
  double *recv = rank == 0 ? f.row(f.size() + 1) : f.row(0);
  MPI_Sendrecv(send, f.width(), MPI_DOUBLE, other, 7, recv, f.width(), MPI_DOUBLE, other, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Field f(kRows, kCols);
  // A fixed boundary: the outer halo row of each rank is held at 1.
  for (int j = 0; j < kCols; ++j) f.at(rank == 0 ? 0 : kRows + 1, j) = 1.0;
  double residual = 0, changed = 0;
  for (int it = 0; it < kIterations; ++it) {
    exchange(f, rank, ranks);
    changed += relax(f);
    residual = norm2(f);
  }
  double sum = 0;
  for (int i = 1; i <= f.size(); ++i)
    for (int j = 0; j < f.width(); ++j) sum += f.get(i, j);
  double local[3] = {sum, residual, changed}, total[3] = {0, 0, 0};
  MPI_Reduce(local, total, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("ranks %d iterations %d halo %d checksum %.10e residual %.10e changed %.10e\n", ranks, kIterations, kCols,
                total[0], total[1], total[2]);
  MPI_Finalize();
  return 0;
}
