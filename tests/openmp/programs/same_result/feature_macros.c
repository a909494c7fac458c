/* The user's feature macro comes first: hcc's prelude, force-included
 * ahead of this line, must not have pulled in a system header (glibc's
 * <features.h> would have fixed the feature set without _GNU_SOURCE, and
 * strcasestr would be undeclared: an implicit int cuts the pointer). */
#define _GNU_SOURCE
#ifdef __GLIBC__
#define SEEN_GLIBC_FIRST 1 /* a glibc header came before this file's first line */
#else
#define SEEN_GLIBC_FIRST 0
#endif
#include <stdio.h>
#include <string.h>

static const char *find(const char *hay, const char *needle) { return strcasestr(hay, needle); }

int main(void) {
  static char text[] = "Profiling OpenMP Programs";
  const char *p = find(text, "openmp");
  printf("glibc header before the program: %d\n", SEEN_GLIBC_FIRST);
  printf("found at %d: %s\n", p ? (int)(p - text) : -1, p ? p : "(null)");
  return 0;
}
