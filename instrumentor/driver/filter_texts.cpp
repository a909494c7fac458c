// hcc driver — checked filter texts for the instrumentor (see filter_texts.hpp).
#include "filter_texts.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/regular_file.hpp"

namespace hcc::driver {

std::string FilterText::argument() const { return "--filter-fd=" + std::to_string(fd) + ":" + name; }

FilterTexts::~FilterTexts() {
  for (const FilterText &t : texts_) ::close(t.fd);
}

const FilterText *FilterTexts::add(const std::string &name, const std::string &text, std::string &error) {
  // Close-on-exec: only the tool gets it (process.hpp, RunOptions::inherit),
  // not the compiler or a server started in the background.
  const int fd = ::memfd_create("hcc-filter", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    error = name + ": cannot pass the filter to the instrumentor: memfd_create: " + std::strerror(errno);
    return nullptr;
  }
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = name + ": cannot pass the filter to the instrumentor: " + std::strerror(n < 0 ? errno : EIO);
      ::close(fd);
      return nullptr;
    }
    done += size_t(n);
  }
  // Sealed: the text the tool reads is the text checked here, whatever runs
  // with the descriptor.
  if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    error = name + ": cannot pass the filter to the instrumentor: sealing it: " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  texts_.push_back({fd, name, text});
  return &texts_.back();
}

std::string lines_not_shown_because(const OpenedFile &f) {
  if (f.st.st_uid != ::geteuid()) return "the file is owned by uid " + std::to_string(f.st.st_uid) + ", not you";
  if (f.st.st_nlink > 1 && others_may_add_entries(f.holder))
    return "the file has " + std::to_string(f.st.st_nlink) + " names, in a directory others may write";
  return "";
}

std::string without_file_text(const std::string &error, const std::string &file, const std::string &reason) {
  // The parser's messages begin "FILE:LINE: "; keep that, drop the rest.
  std::string where = file;
  if (error.compare(0, file.size() + 1, file + ":") == 0) {
    size_t end = file.size() + 1;
    while (end < error.size() && error[end] >= '0' && error[end] <= '9') ++end;
    if (end > file.size() + 1) where = error.substr(0, end);
  }
  return where + ": not a valid filter line (not shown: " + reason + ")";
}

bool read_filter_file(const std::string &path, std::string &text, std::string &hide, std::string &error) {
  text.clear();
  hide.clear();
  const OpenedFile f = open_through_trusted_links(path);
  std::string why = f.fd < 0 ? f.why : "";
  if (why.empty() && !io::read_regular_fd(f.fd, io::kFilterFileLimit, text, &why) && why.empty())
    why = "cannot read it";
  if (!why.empty()) {
    error = path + ": cannot read the filter file: " + why;
    return false;
  }
  hide = lines_not_shown_because(f);
  return true;
}

}  // namespace hcc::driver
