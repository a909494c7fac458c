// See unpreempted.hpp.
#include "unpreempted.hpp"

#include "e2e_support.hpp"

namespace hcc::e2e {

namespace {

// Asked once per test process: whether chrt can set SCHED_FIFO here.
const RunResult &fifo_probe() {
  static const RunResult r = run("chrt --fifo 2 true");
  return r;
}

}  // namespace

std::string unpreempted(int timeout_seconds) {
  const std::string limit = "timeout " + std::to_string(timeout_seconds) + " ";
  return fifo_probe().status == 0 ? "chrt --fifo 2 " + limit + "chrt --fifo 1 " : limit;
}

std::string unpreempted_note() {
  if (fifo_probe().status == 0) return "";
  return "(run without SCHED_FIFO, which this machine does not allow: " + fifo_probe().err +
         "; on a busy machine these numbers are not expected to hold)";
}

}  // namespace hcc::e2e
