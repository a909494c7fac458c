// A second ordinary user for the tests of what hcc trusts (issue 28): the
// "attacker" who shares a directory with the user running hcc.
//
// Running as root (as CI does), the user `hcc-attacker` is created once (no
// home, no login shell) and its uid returned; a test then plants files as that
// user, either by running a command under its identity (run_as_other_user) or
// by creating them itself and handing them over with lchown. Anyone else
// cannot create users, and the caller skips with the reason in `why`.
#pragma once

#include <pwd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace hcc::test {

inline constexpr const char *kOtherUserName = "hcc-attacker";

// The second user's uid, or (uid_t)-1 with the reason in `why`.
inline uid_t other_user(std::string &why) {
  if (const passwd *pw = getpwnam(kOtherUserName)) return pw->pw_uid;
  if (geteuid() != 0) {
    why = "needs a second user: run as root to create '" + std::string(kOtherUserName) + "'";
    return static_cast<uid_t>(-1);
  }
  const std::string cmd = "useradd --system --no-create-home --shell /usr/sbin/nologin " +
                          std::string(kOtherUserName) + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0 && !getpwnam(kOtherUserName)) {
    why = "useradd " + std::string(kOtherUserName) + " failed";
    return static_cast<uid_t>(-1);
  }
  const passwd *pw = getpwnam(kOtherUserName);
  if (!pw) {
    why = "user '" + std::string(kOtherUserName) + "' not found after useradd";
    return static_cast<uid_t>(-1);
  }
  return pw->pw_uid;
}

// Runs `shell_command` with /bin/sh as the second user (its uid and gid, no
// supplementary groups; `shell_command` holds no single quote); returns the
// shell's exit status, -1 when it could
// not run.
inline int run_as_other_user(const std::string &shell_command) {
  std::string why;
  const uid_t uid = other_user(why);
  if (uid == static_cast<uid_t>(-1)) return -1;
  const passwd *pw = getpwuid(uid);
  const std::string cmd = "setpriv --reuid=" + std::to_string(uid) + " --regid=" +
                          std::to_string(pw ? pw->pw_gid : uid) +
                          " --clear-groups /bin/sh -c '" + shell_command + "'";
  const int status = std::system(cmd.c_str());
  return (status >= 0 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

}  // namespace hcc::test
