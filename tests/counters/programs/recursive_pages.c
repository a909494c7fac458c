/* Page faults in a recursion through two functions: shade() writes to 10
 * fresh 4 KiB pages per call, bounce() to 30, and they call each other 8
 * levels deep, 4 times (shade 32 calls, bounce 28). hcc folds the
 * recursion into main -> shade -> bounce; each function's exclusive page
 * faults must still be its own (320 and 840), not the inner calls' too. */
#include <stdio.h>
#include <sys/mman.h>

#define PAGE 4096UL

static unsigned char *next_page;

/* A macro, not a function: the writes must be the caller's own code. */
#define TOUCH(n)                                          \
  do {                                                    \
    for (int i_ = 0; i_ < (n); ++i_) {                    \
      *(volatile unsigned char *)next_page = 1;           \
      next_page += PAGE;                                  \
    }                                                     \
  } while (0)

void bounce(int depth);

void shade(int depth) {
  TOUCH(10);
  if (depth > 1) bounce(depth);
}

void bounce(int depth) {
  TOUCH(30);
  shade(depth - 1);
}

int main(void) {
  const unsigned long bytes = 2000 * PAGE;
  unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  madvise(p, bytes, MADV_NOHUGEPAGE);
  next_page = p;
  for (int r = 0; r < 4; ++r) shade(8);
  printf("pages %lu\n", (unsigned long)(next_page - p) / PAGE);
  return 0;
}
