/* A program with no function hcc instruments here: it is compiled plain
 * and only linked through hcc, so it measures nothing. */
#include <stdio.h>

int main(void) {
  puts("nothing to measure");
  return 0;
}
