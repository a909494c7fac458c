/* Page faults per call path: touch_pages() writes one byte into every 4 KiB
 * page of a fresh 100 MiB anonymous mapping (huge pages off, so each write
 * is one fault); touch_nothing() only computes. Exits with status 3 so the
 * tests can see the status is kept. */
#include <stdio.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024UL)
#define PAGE 4096UL

static unsigned long touch_pages(unsigned long bytes) {
  unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 0;
  madvise(p, bytes, MADV_NOHUGEPAGE);
  unsigned long pages = 0;
  for (unsigned long off = 0; off < bytes; off += PAGE, ++pages) p[off] = (unsigned char)off | 1;
  munmap(p, bytes);
  return pages;
}

static unsigned long touch_nothing(unsigned long n) {
  unsigned long x = 1;
  for (unsigned long i = 0; i < n; ++i) x = x * 6364136223846793005UL + 1442695040888963407UL;
  return x;
}

int main(void) {
  unsigned long pages = touch_pages(100 * MIB);
  unsigned long x = touch_nothing(20000000UL);
  printf("pages %lu, checksum %lu\n", pages, x & 0xff);
  return 3;
}
