// miniFE/CoMD-like: the build records the compiler it used.
#include <cstdio>
#include <cstring>

#include "compiler_info.h"

static int checksum(const char *s) {
  int c = 0;
  for (; *s; ++s) c = (c * 31 + *s) % 9973;
  return c;
}

int main() {
  std::printf("compiler recorded: %s\n", std::strchr(BUILT_WITH, '/') ? "yes" : "no");
  std::printf("checksum of a fixed text: %d\n", checksum("compiler"));
  return 0;
}
