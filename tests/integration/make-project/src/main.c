#include "shapes.h"
#include "text.h"
int main(void) {
  print_area("circle", circle_area(2.0));
  print_area("square", square_area(3.0));
  return 0;
}
