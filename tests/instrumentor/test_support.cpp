#include "test_support.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hcc::test {

rewriter::Result rewrite(const std::string &code, const std::string &name,
                         const std::vector<std::string> &args,
                         const std::map<std::string, std::string> &headers) {
  std::map<std::string, std::string> files;
  for (const auto &[file, text] : headers) files["/hcc-test/" + file] = text;
  std::vector<std::string> all = {"-I/hcc-test"};
  all.insert(all.end(), args.begin(), args.end());
  rewriter::Options options;
  options.main_file_name = name;
  return rewriter::instrumentCode(code, "/hcc-test/" + name, all, options, files);
}

std::string rewritten(const std::string &code, const std::string &name,
                      const std::vector<std::string> &args,
                      const std::map<std::string, std::string> &headers) {
  rewriter::Result r = rewrite(code, name, args, headers);
  if (!r.ok) {
    std::string why = "<failed>";
    for (const std::string &m : r.messages) why += "\n" + m;
    return why;
  }
  const std::string first = "#line 1 \"" + name + "\"\n";
  EXPECT_EQ(r.output.substr(0, first.size()), first);
  std::string text = r.output.substr(std::min(first.size(), r.output.size()));
  // The rewrite must never move a line.
  EXPECT_EQ(countLines(text), countLines(code));
  return text;
}

bool hasMessage(const rewriter::Result &r, const std::string &part) {
  return std::any_of(r.messages.begin(), r.messages.end(),
                     [&](const std::string &m) { return m.find(part) != std::string::npos; });
}

Process run(const std::vector<std::string> &argv) {
  Process result;
  int pipefd[2];
  if (pipe(pipefd) != 0) return result;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    close(pipefd[1]);
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipefd[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) result.out.append(buf, n);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "hcc-instr-test-XXXXXX").string();
  char *made = mkdtemp(tmpl.data());
  path_ = made ? made : "";
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TempDir::write(const std::string &name, const std::string &text) const {
  std::string p = file(name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t countLines(const std::string &text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace hcc::test
