/* main: 20 M calls of twin_probe from this file, a nap (the deciding thread
 * stops its count), then later_calls (count_stop_twin_b.c) calls it through
 * the other file's descriptor. Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "count_stop_twin.h"

unsigned later_calls(unsigned s, unsigned n);

static void nap_ms(int ms) {
  for (int i = 0; i < ms; ++i) {
    struct timespec t = {0, 1000000L};
    nanosleep(&t, NULL);
  }
}

int main(int argc, char **argv) {
  const unsigned n = (unsigned)(argc > 1 ? atol(argv[1]) : 20000000L);
  unsigned s = 1;
  for (unsigned i = 0; i < n; ++i) s = twin_probe(s + i);
  nap_ms(100);
  s = later_calls(s, n / 4);
  printf("checksum %u\n", s);
  return 0;
}
