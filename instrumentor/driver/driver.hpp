// hcc driver — the whole run of one `hcc …` command (see README.md).
#pragma once

namespace hcc::driver {

// Returns the exit status for hcc, or does not return (exec, death by signal).
int run_driver(int argc, char **argv);

}  // namespace hcc::driver
