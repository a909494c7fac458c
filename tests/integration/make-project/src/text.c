#include <stdio.h>
#include "text.h"
void print_area(const char *what, double area) { printf("%s: %.3f\n", what, area); }
