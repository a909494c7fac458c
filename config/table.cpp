// hcc config — the table: every part's env_vars.def, in one array.
//
// To add a variable: add one HCC_VAR row to the env_vars.def of the part
// that reads it (name, type, default, min, max, choices, reader, doc), read
// it through config.hpp, and run scripts/gen-env-doc.sh for the docs.
// Constant-initialised (plain pointers and numbers): libhcc may read it
// before any static initialiser ran (another library's instrumented
// constructor).
#include "config/config.hpp"

namespace hcc::config {
namespace {

#define HCC_VAR(NAME, TYPE, DEFAULT, MIN, MAX, CHOICES, READER, DOC) \
  {NAME, Type::TYPE, DEFAULT, MIN, MAX, CHOICES, Reader::READER, DOC},

constexpr Variable kTable[] = {
#include "runtime/core/env_vars.def"
#include "runtime/counters/env_vars.def"
#include "runtime/trace/env_vars.def"
#include "runtime/snapshot/env_vars.def"
#include "runtime/sampling/env_vars.def"
#include "wrappers/env_vars.def"
#include "instrumentor/driver/env_vars.def"
#include "instrumentor/cache/env_vars.def"
#include "instrumentor/server/env_vars.def"
#include "report/env_vars.def"
#include "scripts/env_vars.def"
};

#undef HCC_VAR

}  // namespace

const Variable *table_begin() { return kTable; }
const Variable *table_end() { return kTable + sizeof kTable / sizeof kTable[0]; }

const Variable *find(const std::string &name) {
  for (const Variable *v = table_begin(); v != table_end(); ++v)
    if (name == v->name) return v;
  return nullptr;
}

const char *reader_name(Reader r) {
  switch (r) {
    case Reader::Runtime: return "runtime";
    case Reader::Mpi: return "MPI wrappers";
    case Reader::Driver: return "hcc";
    case Reader::Cache: return "result cache";
    case Reader::Server: return "instrumentation server";
    case Reader::Report: return "hcc-report";
    case Reader::Scripts: return "scripts";
  }
  return "?";
}

}  // namespace hcc::config
