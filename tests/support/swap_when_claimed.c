/* The attacker of the trust tests (issue 28), run as the second user in a
 * directory it owns: waits until the user running hcc creates TRIGGER there,
 * then swaps names for symbolic links, as fast as it can:
 *
 *   swap_when_claimed DIR TRIGGER SECONDS NAME=TARGET...
 *
 * For each NAME: an existing directory of that name is renamed aside
 * (moved-NAME), anything else unlinked, and NAME becomes a link to TARGET.
 * Prints "swapped" and exits 0 once done; exits 1 when TRIGGER did not
 * appear within SECONDS. Polls every 100 microseconds. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s DIR TRIGGER SECONDS NAME=TARGET...\n", argv[0]);
    return 2;
  }
  const int dir = open(argv[1], O_PATH | O_DIRECTORY);
  if (dir < 0) {
    perror(argv[1]);
    return 2;
  }
  const time_t until = time(NULL) + atoi(argv[3]);
  struct stat st;
  while (fstatat(dir, argv[2], &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode) || st.st_uid == getuid()) {
    if (time(NULL) > until) return 1;
    usleep(100);
  }
  for (int i = 4; i < argc; ++i) {
    char *eq = strchr(argv[i], '=');
    if (!eq) return 2;
    *eq = '\0';
    const char *name = argv[i], *target = eq + 1;
    if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISDIR(st.st_mode)) {
        char aside[4096];
        snprintf(aside, sizeof aside, "moved-%s", name);
        if (renameat(dir, name, dir, aside) != 0) perror(name);
      } else if (unlinkat(dir, name, 0) != 0) {
        perror(name);
      }
    }
    if (symlinkat(target, dir, name) != 0) {
      perror(name);
      return 3;
    }
  }
  puts("swapped");
  return 0;
}
