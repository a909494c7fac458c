// An exception nobody catches: the program dies as it would plain (abort),
// and the profile is still written.
#include <cstdio>
#include <stdexcept>

void fail_deep(int n) {
  if (n == 0) throw std::logic_error("nobody catches this");
  fail_deep(n - 1);
}

int main() {
  std::printf("about to fail\n");
  std::fflush(stdout);
  fail_deep(2);
  return 0;
}
