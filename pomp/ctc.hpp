// pomp — the construct context string (CTC) of POMP2:
// "<len>*regionType=<t>*sscl=<file>:<l1>:<l2>*escl=<file>:<l1>:<l2>*[key=value*]*"
#pragma once

#include <string>

namespace hcc::pomp {

struct Ctc {
  std::string type;   // parallel, for, critical, ...
  std::string file;
  int begin_line = 0;
  int end_line = 0;
  std::string critical_name;  // criticalName=
};

// Tolerant: missing fields stay empty/0; never throws on odd text.
Ctc parse_ctc(const char *ctc);

}  // namespace hcc::pomp
