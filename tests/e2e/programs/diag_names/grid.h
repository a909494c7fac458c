// Rewritten by hcc (it defines a function); includes another header beside it.
#pragma once
#include "nested.h"
#warning "grid.h warns"
struct Grid {
  int n;
  int cells() const { return n * n; }
};
