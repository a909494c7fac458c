/* The second file's calls of twin_probe (count_stop_twin.h). */
#include "count_stop_twin.h"

unsigned later_calls(unsigned s, unsigned n) {
  for (unsigned i = 0; i < n; ++i) s = twin_probe(s ^ i);
  return s;
}
