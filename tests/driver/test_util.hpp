// Helpers for the driver tests: scratch directories, files, and running a
// program with a given cwd/environment while capturing what it prints.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace hcc_test {

namespace fs = std::filesystem;

class ScratchDir {
 public:
  ScratchDir() {
    std::string t = (fs::temp_directory_path() / "hcc-driver-test-XXXXXX").string();
    if (!::mkdtemp(t.data())) std::abort();
    path_ = t;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return path_; }
  std::string operator/(const std::string &rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

inline void write_file(const std::string &path, const std::string &text, bool executable = false) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  if (executable) ::chmod(path.c_str(), 0755);
}

inline std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool exists(const std::string &path) { return fs::exists(path); }

inline std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

inline size_t count(const std::string &haystack, const std::string &needle) {
  size_t n = 0;
  for (size_t p = haystack.find(needle); p != std::string::npos; p = haystack.find(needle, p + 1)) ++n;
  return n;
}

struct Result {
  int status = -1;  // exit code, or -1 when killed
  int signal = 0;
  std::string out, err;
};

// Environment changes: value = nullopt removes the variable.
using EnvChanges = std::vector<std::pair<std::string, std::optional<std::string>>>;

inline Result run(const std::vector<std::string> &argv, const std::string &cwd,
                  const EnvChanges &env = {}, const std::string &stdin_text = "") {
  ScratchDir io;
  std::string in = io / "in", out = io / "out", err = io / "err";
  write_file(in, stdin_text);
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) ::_exit(125);
    for (const auto &[k, v] : env) {
      if (v)
        ::setenv(k.c_str(), v->c_str(), 1);
      else
        ::unsetenv(k.c_str());
    }
    int fi = ::open(in.c_str(), O_RDONLY);
    int fo = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fi, 0);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    std::vector<char *> a;
    for (const auto &s : argv) a.push_back(const_cast<char *>(s.c_str()));
    a.push_back(nullptr);
    ::execvp(a[0], a.data());
    ::_exit(124);
  }
  int st = 0;
  ::waitpid(pid, &st, 0);
  Result r;
  if (WIFEXITED(st)) r.status = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) r.signal = WTERMSIG(st);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace hcc_test
