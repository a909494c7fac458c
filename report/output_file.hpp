// hcc-report -o FILE: the file is written whole or not at all, and never
// through a link (issue 40).
//
// `--plan … -o hcc.plan` is what the docs suggest, often in a directory
// others can write (a shared project, /tmp). Opening the name with
// std::ofstream followed a symbolic link someone planted there, or wrote
// into the file a planted hard link shares, overwriting that file's owner's
// data. So the text goes into a temporary made O_EXCL|O_NOFOLLOW in the
// same directory (opened once; every step goes through its handle), which
// is then renamed onto the name: rename replaces the name itself, so
// whatever link stands there by then is replaced, never written through.
// Before that, the name must be absent or a regular file the user owns: a
// link, a device, a FIFO or another user's file is refused, and a run that
// fails (a damaged trace) leaves no file and no temporary behind.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

namespace hcc::report {

class OutputFile {
 public:
  // Checks the name and creates the temporary beside it; throws
  // std::runtime_error "cannot write PATH: WHY" ("it is a symbolic link
  // (-o does not write through links)", "it is a FIFO, not a regular file",
  // "it belongs to uid 1001 (-o replaces only your own files)", errno text).
  explicit OutputFile(const std::string &path);
  // Removes the temporary unless commit() put it in place.
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  std::ostream &stream();
  uint64_t bytes_written() const;
  // Writes what is buffered and renames the temporary onto the name; throws
  // like the constructor when a write, the close or the rename failed.
  void commit();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace hcc::report
