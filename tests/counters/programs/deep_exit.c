/* exit() from deep inside: main, outer and faulting are still open when the
 * profile is written, so their counters must be brought up to date then
 * (inclusive >= exclusive, the faults where they happened). A fork child
 * measures time only. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void faulting(unsigned long mib) {
  unsigned long bytes = mib << 20, pages = 0;
  unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) exit(2);
  madvise(p, bytes, MADV_NOHUGEPAGE);
  for (unsigned long off = 0; off < bytes; off += 4096, ++pages) p[off] = 1;
  printf("faulted %lu pages\n", pages);
  fflush(stdout);
  exit(5); /* frames main → outer → faulting stay open */
}

static void in_child(void) { faulting(8); }

static void outer(void) {
  pid_t pid = fork();
  if (pid == 0) in_child();
  int status = 0;
  waitpid(pid, &status, 0);
  faulting(32);
}

int main(void) {
  outer();
  return 0;
}
