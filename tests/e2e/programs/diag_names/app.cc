// A source whose project headers draw warnings (diagnostic_names_e2e_test.cpp).
#include <cstdio>
#include "grid.h"
#include "plain.h"

int main() {
  Grid g{3};
  return g.cells() == 9 ? 0 : 1;
}
