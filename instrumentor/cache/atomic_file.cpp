#include "atomic_file.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

namespace hcc::rewriter {

bool writeFileAtomically(const std::string &path, const std::string &text, std::string *error) {
  namespace fs = llvm::sys::fs;
  const std::string tmp = path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  auto fail = [&](const std::string &why) {
    if (error) *error = why;
    fs::remove(tmp);
    return false;
  };
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(tmp, ec, fs::OF_None);
    if (ec) return fail("cannot write " + tmp + ": " + ec.message());
    os << text;
    os.close();
    if (os.has_error()) {
      const std::string why = "cannot write " + tmp + ": " + os.error().message();
      os.clear_error();
      return fail(why);
    }
  }
  if ((ec = fs::rename(tmp, path))) return fail("cannot rename " + tmp + " to " + path + ": " + ec.message());
  return true;
}

}  // namespace hcc::rewriter
