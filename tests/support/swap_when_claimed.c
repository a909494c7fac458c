/* The attacker of the trust tests (issue 28), run as the second user in a
 * directory it owns: waits until the user running hcc creates TRIGGER there,
 * then swaps names for symbolic links, as fast as it can:
 *
 *   swap_when_claimed DIR TRIGGER SECONDS NAME=TARGET...
 *
 * For each NAME: an existing directory of that name is renamed aside
 * (moved-NAME), anything else unlinked, and NAME becomes a link to TARGET.
 * A TRIGGER ending in '*' is a prefix (any entry starting so); a NAME of
 * just '%' is then the entry found.
 * Prints "swapped" and exits 0 once done; exits 1 when TRIGGER did not
 * appear within SECONDS. Polls every 100 microseconds. */
#define _GNU_SOURCE
#include <dirent.h>
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
  const size_t len = strlen(argv[2]);
  const int prefix = len > 0 && argv[2][len - 1] == '*';
  char found[4096];
  for (;;) {
    if (time(NULL) > until) return 1;
    found[0] = '\0';
    if (prefix) {
      DIR *d = opendir(argv[1]);
      for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, argv[2], len - 1) == 0) snprintf(found, sizeof found, "%s", e->d_name);
      if (d) closedir(d);
    } else {
      snprintf(found, sizeof found, "%s", argv[2]);
    }
    struct stat st;
    if (found[0] && fstatat(dir, found, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode) &&
        st.st_uid != getuid())
      break;
    usleep(100);
  }
  struct stat st;
  for (int i = 4; i < argc; ++i) {
    char *eq = strchr(argv[i], '=');
    if (!eq) return 2;
    *eq = '\0';
    const char *name = strcmp(argv[i], "%") == 0 ? found : argv[i], *target = eq + 1;
    if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISDIR(st.st_mode)) {
        char aside[4200];
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
