// User regions nest with functions (tests/filter). Builds without hcc too:
// the macros are no-ops then and nothing of libhcc is referenced.
#include <hcc/hcc.h>

#include <cstdio>

static volatile int sink;
void work(int n) {
  for (int i = 0; i < n; ++i) sink = sink + i;
}

void phase() {
  HCC_SCOPE("inner");
  work(10);
}

int main() {
  HCC_REGION_BEGIN("outer");
  work(1);
  phase();
#pragma hcc region begin(prag)
  work(2);
#pragma hcc region end(prag)
#pragma pomp inst begin(pomp_r)
  work(3);
#pragma pomp inst end(pomp_r)
  HCC_REGION_END("outer");
  HCC_PAUSE();
  work(4);   // not recorded
  phase();   // not recorded
  HCC_RESUME();
  work(5);
  // Wrong nesting: reported, naming both regions.
  HCC_REGION_BEGIN("x");
  HCC_REGION_BEGIN("y");
  HCC_REGION_END("x");
  std::printf("done %d\n", sink);
  return 0;
}
