#include "atomic_file.h"

#include "private_dir.hpp"
#include "safe_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hcc::rewriter {

bool writeFileAtomically(const std::string &path, const std::string &text, std::string *error) {
  // The directory is the caller's to choose (OUT, the driver's private
  // temporary directory); inside it, the temporary is created exclusively
  // and without following a link, so a name planted there is never written
  // through (private_dir.hpp, replace_file_at).
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  rt::FdGuard fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  std::string why;
  if (fd.fd < 0)
    why = "cannot open the directory " + dir + ": " + std::strerror(errno);
  else if (rt::replace_file_at(fd.fd, name, text, why, 0666))
    return true;
  if (error) *error = "cannot write " + path + ": " + why;
  return false;
}

}  // namespace hcc::rewriter
