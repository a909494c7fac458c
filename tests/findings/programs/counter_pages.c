/* Findings stand-in, a counter hot spot: touch_pages() writes one byte in
 * each of PAGES fresh 4 KiB pages (huge pages off: one page fault each);
 * compute() does about as long of arithmetic and faults none. Counted with
 * perf::PAGE-FAULTS, touch_pages holds nearly all the faults in a part of the
 * time: PAGES faults by construction. */
#include <stdio.h>
#include <sys/mman.h>

#define PAGES 51200UL /* 200 MiB */
#define PAGE 4096UL

static unsigned long touch_pages(void) {
  unsigned char *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 0;
  madvise(p, PAGES * PAGE, MADV_NOHUGEPAGE);
  unsigned long n = 0;
  for (unsigned long i = 0; i < PAGES; ++i, ++n) p[i * PAGE] = (unsigned char)i | 1;
  munmap(p, PAGES * PAGE);
  return n;
}

static double compute(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)(i % 7) * 1e-9;
  return x;
}

int main(void) {
  const unsigned long pages = touch_pages();
  const double x = compute(200000000L);
  printf("pages %lu, %d\n", pages, x > 0);
  return 0;
}
