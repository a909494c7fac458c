// hcc-report — print a profile written by libhcc (or any CUBE4 .cubex):
// flat profile (default), call tree, full summary or JSON.
// Exit codes: 0 ok, 2 bad input (missing/unreadable/not a profile, bad options).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "cubex.hpp"
#include "json_view.hpp"
#include "locate.hpp"
#include "summary.hpp"

int main(int argc, char **argv) {
  CLI::App app{"hcc-report: show an hcc (CUBE4) profile", "hcc-report"};
  std::string path;
  bool tree = false, json = false, summary = false;
  int location = -1;
  app.add_option("PATH", path,
                 "a .cubex file or a directory containing profile.cubex "
                 "(default: the newest hcc-* directory here)");
  app.add_flag("--tree", tree, "show the call tree");
  app.add_flag("--summary", summary, "show everything summary.txt holds");
  app.add_flag("--json", json, "print the profile as JSON (see report/README.md)");
  app.add_option("--location", location, "restrict to one location (thread) id")->check(CLI::NonNegativeNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return 2;
  }

  hcc::profile::Profile p;
  try {
    p = hcc::profile::read_cubex(hcc::report::locate_profile(path));
  } catch (const std::exception &e) {
    std::cerr << "hcc-report: " << e.what() << "\n";
    return 2;
  }
  if (location >= static_cast<int>(p.nloc())) {
    std::cerr << "hcc-report: no location " << location << "; the profile has " << p.nloc()
              << " (ids 0.." << p.nloc() - 1 << ")\n";
    return 2;
  }

  if (json) {
    std::cout << hcc::report::profile_json(p, location).dump() << "\n";
  } else if (summary) {
    std::cout << hcc::profile::summary_text(p);
  } else if (tree) {
    std::cout << hcc::profile::call_tree_text(p, location);
  } else {
    std::cout << hcc::profile::flat_profile_text(p, location);
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}
