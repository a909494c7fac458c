/* A plain OpenMP program: each thread of the team calls an instrumented
 * function, so every worker becomes a location with its own counters. */
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>

static unsigned long touch(unsigned long mib) {
  unsigned long bytes = mib << 20, pages = 0;
  unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 0;
  madvise(p, bytes, MADV_NOHUGEPAGE);
  for (unsigned long off = 0; off < bytes; off += 4096, ++pages) p[off] = 1;
  munmap(p, bytes);
  return pages;
}

int main(void) {
  unsigned long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  total += touch(16UL * (unsigned long)(omp_get_thread_num() + 1));
  printf("pages %lu\n", total);
  return 0;
}
