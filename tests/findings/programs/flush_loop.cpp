// Findings stand-in, I/O in a loop: LINES log lines written with std::endl,
// each a flush and a write system call, after a stretch of computing. The
// program times its writing phase on its own CPU clock and prints it on
// stderr ("writing: S s"): the I/O finding's cost must match it.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

constexpr int kLines = 400000;

double cpu_now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double compute(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += double(i % 7) * 1e-9;
  return x;
}

void write_lines(std::ofstream &log) {
  for (int i = 0; i < kLines; ++i) log << "one more line of the log" << std::endl;
}

}  // namespace

int main() {
  const char *dir = std::getenv("FLUSH_LOG_DIR");
  std::ofstream log(std::string(dir ? dir : ".") + "/lines.log");
  const double x = compute(300000000L);
  const double t0 = cpu_now();
  write_lines(log);
  const double t1 = cpu_now();
  std::fprintf(stderr, "writing: %.6f s\n", t1 - t0);
  std::printf("%d lines, %d\n", kLines, x > 0);
  return 0;
}
