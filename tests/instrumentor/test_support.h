// Helpers shared by the instrumentor tests: rewrite a snippet in memory,
// run a program, compile a file.
#ifndef HCC_TESTS_INSTRUMENTOR_TEST_SUPPORT_H
#define HCC_TESTS_INSTRUMENTOR_TEST_SUPPORT_H

#include "instrument.h"

#include <map>
#include <string>
#include <vector>

namespace hcc::test {

// Rewrites `code` as the file "/hcc-test/<name>", with descriptors naming it
// `name`. `headers` are more in-memory files, by name under /hcc-test/.
rewriter::Result rewrite(const std::string &code, const std::string &name,
                         const std::vector<std::string> &args = {},
                         const std::map<std::string, std::string> &headers = {});

// The rewritten text without its first line (`#line 1 "name"`), checked to
// have exactly as many lines as `code`; "<failed>" plus the messages when
// the rewrite failed, so a failing expectation shows why.
std::string rewritten(const std::string &code, const std::string &name,
                      const std::vector<std::string> &args = {},
                      const std::map<std::string, std::string> &headers = {});

// True when some message contains `part`.
bool hasMessage(const rewriter::Result &r, const std::string &part);

struct Process {
  int status = -1;   // exit status, or -1 if it did not exit normally
  std::string out;   // stdout and stderr, interleaved
};
// Runs argv[0] with the arguments (no shell), capturing its output.
Process run(const std::vector<std::string> &argv);

// A fresh directory for one test's files, removed at the end of the test.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  std::string write(const std::string &name, const std::string &text) const;

 private:
  std::string path_;
};

std::string readFile(const std::string &path);
size_t countLines(const std::string &text);

}  // namespace hcc::test

#endif
