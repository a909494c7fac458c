// Ends its output without a newline unless given "nl" (hcc's end-of-run
// line must still start on a line of its own).
#include <stdio.h>
#include <string.h>

static int sum_to(int n) {
  int s = 0;
  for (int i = 1; i <= n; ++i) s += i;
  return s;
}

int main(int argc, char **argv) {
  printf("sum %d, ", sum_to(9));
  if (argc > 1 && strcmp(argv[1], "nl") == 0) printf("done\n");
  else printf("no newline");
  return 0;
}
