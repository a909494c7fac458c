// C++: the prelude must not include a system header ahead of this line
// either (the user's _XOPEN_SOURCE and _FILE_OFFSET_BITS must be the first
// ones <features.h> sees).
#define _XOPEN_SOURCE 700
#define _FILE_OFFSET_BITS 64
#ifdef __GLIBC__
#define SEEN_GLIBC_FIRST 1
#else
#define SEEN_GLIBC_FIRST 0
#endif
#include <cstdio>
#include <strings.h>
#include <sys/types.h>

static int same(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

int main() {
  std::printf("glibc header before the program: %d\n", SEEN_GLIBC_FIRST);
  std::printf("same: %d, off_t bytes: %zu\n", same("OpenMP", "openmp"), sizeof(off_t));
  return 0;
}
