// hcc driver — the filter texts it has read and checked (plans, --hcc-filter
// files), handed to hcc-instrument as they were read.
//
// Each text goes into a sealed memfd (nothing can change it afterwards) that
// the tool is named as `--filter-fd=N:NAME`: a started tool inherits N, the
// instrumentation server gets the text with the request
// (../server/protocol.h). The tool never opens NAME, so what it applies — and
// what the cache key covers — is what was checked here, even if the file is
// replaced in between (issue 40: a plan swapped in a sticky directory after
// the check was used in 2 builds of 16).
#pragma once

#include <deque>
#include <string>

#include "trusted_open.hpp"

namespace hcc::driver {

struct FilterText {
  int fd = -1;       // the sealed copy
  std::string name;  // the file it was read from
  std::string text;
  // The tool's argument for it: "--filter-fd=N:NAME".
  std::string argument() const;
};

// Owns the copies for the command: they are closed when it ends.
class FilterTexts {
 public:
  FilterTexts() = default;
  FilterTexts(const FilterTexts &) = delete;
  FilterTexts &operator=(const FilterTexts &) = delete;
  ~FilterTexts();
  // A sealed copy of `text`, read from `name`; nullptr with `error` when
  // the copy cannot be made.
  const FilterText *add(const std::string &name, const std::string &text, std::string &error);

 private:
  std::deque<FilterText> texts_;  // a deque: the pointers add returns stay valid
};

// Why the lines of the file opened as `f` must not appear in a message, or
// "" when they may: it is not yours (another user's file, or one a planted
// link or hard link led to: its first line could be a secret of whoever
// owns it, printed into a build log others read), or it has more names
// than one in a directory others may write (a hard link someone else may
// have made to a file of yours).
std::string lines_not_shown_because(const OpenedFile &f);

// A filter parser's error ("FILE:LINE: what was found") for a file whose
// lines must not be shown: "FILE:LINE: not a valid filter line (not shown:
// REASON)". The file and line stay, nothing of the file's text does.
std::string without_file_text(const std::string &error, const std::string &file, const std::string &reason);

// Reads the --hcc-filter file `path` once (open_through_trusted_links: a
// link someone else planted is refused; a FIFO, a device, a directory or a
// file over 16 MiB is refused as io/regular_file.hpp says), into `text`.
// False with `error` ("PATH: cannot read the filter file: WHY"). `hide`
// receives lines_not_shown_because of the file.
bool read_filter_file(const std::string &path, std::string &text, std::string &hide, std::string &error);

}  // namespace hcc::driver
