#include <stdio.h>
#define PAR_FOR _Pragma("omp parallel for reduction(+ : s)")
int main(void) {
  int s = 0, c = 0, m = 0;
  _Pragma("omp parallel num_threads(3)")
  {
    _Pragma ( "omp for reduction(+ : c)" )
    for (int i = 0; i < 30; i++) c++;
    _Pragma("omp critical(pm)") { m++; }
    _Pragma("omp barrier")
  }
  PAR_FOR
  for (int i = 0; i < 10; i++) s += i;
  printf("%d %d %d\n", s, c, m);
  return 0;
}
