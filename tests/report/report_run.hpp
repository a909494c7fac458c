// Running the built hcc-report from a test: a shell command line with its
// stdout captured and its stderr kept apart (in a file the caller names), so
// the tests can check that errors go to stderr and nothing to stdout.
#ifndef HCC_TESTS_REPORT_RUN_HPP
#define HCC_TESTS_REPORT_RUN_HPP

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace hcc_test {

struct ReportResult {
  int status = -1;
  std::string out, err;
};

// `s` in single quotes for /bin/sh.
inline std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `command` (which must send its stderr to `errfile`); status -1 when
// it did not exit normally.
inline ReportResult run_capturing(const std::string &command, const std::string &errfile) {
  ReportResult r;
  FILE *f = ::popen(command.c_str(), "r");
  if (!f) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) r.out.append(buf, n);
  const int st = ::pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream e(errfile);
  r.err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
  return r;
}

}  // namespace hcc_test

#endif
