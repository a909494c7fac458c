// hcc-report — print a profile written by libhcc (or any CUBE4 .cubex):
// flat profile (default), call tree, full summary or JSON.
// Exit codes: 0 ok, 2 bad input (missing/unreadable/not a profile, bad options).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "callgraph_dot.hpp"
#include "cfg_view.hpp"
#include "cubex.hpp"
#include "diff.hpp"
#include "folded.hpp"
#include "html_view.hpp"
#include "gprof_view.hpp"
#include "graphviz.hpp"
#include "json_view.hpp"
#include "locate.hpp"
#include "summary.hpp"
#include "suggest.hpp"
#include "trace_json.hpp"
#include "watch.hpp"

#include <fstream>
#include "config/config.hpp"

namespace {

// Writes `text` to `file`, or to stdout when `file` is empty. False, after
// one line on stderr naming the file, when it cannot be written.
bool emit(const std::string &text, const std::string &file) {
  if (file.empty()) {
    std::cout << text;
    return true;
  }
  std::ofstream f(file);
  f << text;
  if (f.flush()) return true;
  std::cerr << "hcc-report: cannot write " << file << "\n";
  return false;
}

// One line on stderr for an error that ends the run: `hcc-report: [FILE: ]WHAT`
// with any line break in WHAT (a name from the file) shown as a space.
int fail(const std::string &file, const std::string &what) {
  std::string line = "hcc-report: " + (file.empty() ? "" : file + ": ") + what;
  for (char &c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::cerr << line << "\n";
  return 2;
}

int run_views(int argc, char **argv);

}  // namespace

// Every view's error reaches here as one line with status 2, whatever threw
// it (a view, the JSON library, an allocation): never an abort.
int main(int argc, char **argv) {
  try {
    return run_views(argc, argv);
  } catch (const std::exception &e) {
    return fail("", e.what());
  }
}

namespace {

int run_views(int argc, char **argv) {
  CLI::App app{"hcc-report: show an hcc (CUBE4) profile", "hcc-report"};
  std::string path;
  bool tree = false, json = false, summary = false, mpi = false, openmp = false;
  int location = -1;
  app.add_option("PATH", path,
                 "a .cubex file or a directory containing profile.cubex "
                 "(default: the newest hcc-* directory here)");
  app.add_flag("--tree", tree, "show the call tree");
  app.add_flag("--summary", summary, "show everything summary.txt holds");
  app.add_flag("--openmp", openmp, "show the OpenMP section: ompP-style tables per construct and thread, overhead analysis per parallel region");
  app.add_flag("--mpi", mpi, "show the MPI section: time per rank, top MPI call paths, imbalance per call");
  app.add_flag("--json", json, "print the profile as JSON (see report/README.md)");
  app.add_option("--location", location, "restrict to one location (thread) id")->check(CLI::NonNegativeNumber);
  std::string cfg_mode, cfg_root;
  auto *cfg_opt = app.add_option("--cfg", cfg_mode,
                                 "control flow (predecessor lists): the tree as ompP prints it; =dot Graphviz DOT, "
                                 "=svg run dot on it")
                      ->expected(0, 1);
  app.add_option("--cfg-root", cfg_root, "with --cfg=dot|svg: only this region's first call path and its children");
  bool suggest = false;
  std::string rule_text, format = "hcc", out_file;
  app.add_flag("--suggest-filter", suggest,
               "print a filter file excluding regions whose measurement costs more than it tells "
               "(default rule calls>1000000,usec<2)");
  app.add_option("--rule", rule_text, "with --suggest-filter: 'calls>N,usec<X' (>= and <= too; either may be left out)");
  app.add_option("--format", format, "with --suggest-filter: hcc (default), tau or scorep")
      ->check(CLI::IsMember({"hcc", "tau", "scorep"}));
  app.add_option("-o", out_file, "with --suggest-filter, --trace-json or --html: write to this file instead of stdout");
  bool trace_json = false, watch_run = false;
  std::size_t top = 10;
  app.add_flag("--trace-json", trace_json,
               "convert the OTF2 trace (PATH: traces.otf2 or a run directory) to Chrome trace-event JSON "
               "for Perfetto UI and chrome://tracing");
  app.add_flag("--watch", watch_run,
               "redraw the hottest call paths of a running program (PATH: its output directory; run it with "
               "HCC_SNAPSHOT=SECONDS) each time its snapshot changes, until it ends");
  app.add_option("--top", top, "with --watch: call paths shown (default 10)")->check(CLI::PositiveNumber);
  // Views for people and other tools (report/README.md): --html, --folded, --diff.
  bool html = false, folded = false;
  std::string metric = "time";
  std::vector<std::string> diff_paths;
  app.add_flag("--html", html, "write one self-contained HTML page (flame graph, tables) to -o FILE (else stdout)");
  app.add_flag("--folded", folded, "print folded stacks (main;solve;leaf 1234) for flamegraph.pl, speedscope, inferno");
  app.add_option("--metric", metric, "with --folded: the metric (default time, in microseconds)");
  app.add_option("--diff", diff_paths, "compare two profiles A B by call path (with --json: as JSON)")->expected(2);
  bool gprof = false;
  std::string callgraph, focus;
  app.add_flag("--gprof", gprof, "flat profile and call graph in GNU gprof's layout, from the call-context tree");
  app.add_option("--callgraph", callgraph, "the call graph as Graphviz DOT (dot) or rendered by dot (svg); -o FILE")
      ->check(CLI::IsMember({"dot", "svg"}));
  app.add_option("--callgraph-focus", focus, "with --callgraph: only this function and its callers, transitively");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return 2;
  }

  if (trace_json) {
    try {
      const std::string anchor = hcc::report::locate_trace(path);
      hcc::report::TraceJsonCounts n;
      if (out_file.empty()) {
        n = hcc::report::write_trace_json(anchor, std::cout);
        std::cout.flush();
        if (!std::cout) return 1;
      } else {
        std::ofstream f(out_file);
        if (!f) throw std::runtime_error("cannot write " + out_file);
        n = hcc::report::write_trace_json(anchor, f);
        if (!f.flush()) throw std::runtime_error("cannot write " + out_file);
        std::cout << out_file << ": " << n.events << " events on " << n.locations << " location"
                  << (n.locations == 1 ? "" : "s") << " from " << anchor << " (open it in ui.perfetto.dev or chrome://tracing)\n";
      }
      if (n.unmatched) std::cerr << "hcc-report: " << n.unmatched << " LEAVE events without their ENTER left out\n";
    } catch (const std::exception &e) {
      std::cerr << "hcc-report: " << e.what() << "\n";
      return 2;
    }
    return 0;
  }
  if (!diff_paths.empty()) {
    try {
      std::string note_a, note_b;
      const std::string a = hcc::report::locate_profile(diff_paths[0], ".", &note_a);
      const std::string b = hcc::report::locate_profile(diff_paths[1], ".", &note_b);
      for (const std::string &n : {note_a, note_b})
        if (!n.empty()) std::cerr << n << "\n";
      const auto d = hcc::report::diff_profiles(hcc::profile::read_cubex(a), hcc::profile::read_cubex(b));
      if (json) {
        hcc::report::write_diff_json(std::cout, d, a, b);
        std::cout << "\n";
      } else {
        hcc::report::write_diff_text(std::cout, d, a, b);
      }
    } catch (const std::exception &e) {
      return fail("", e.what());
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  if (watch_run) {
    hcc::report::WatchOptions opt;
    opt.dir = path;
    opt.top = top;
    if (const char *g = hcc::config::text("HCC_REPORT_WATCH_GIVE_UP")) opt.give_up_seconds = std::atof(g);
    return hcc::report::watch(opt, std::cout, std::cerr);
  }

  // `--cfg PATH`: CLI11 hands PATH to --cfg (it takes an optional value).
  if (cfg_opt->count() > 0 && path.empty() && !cfg_mode.empty() && cfg_mode != "text" && cfg_mode != "dot" &&
      cfg_mode != "svg") {
    path = cfg_mode;
    cfg_mode = "text";
  }
  hcc::profile::Profile p;
  std::string profile_path;
  try {
    std::string note;
    profile_path = hcc::report::locate_profile(path, ".", &note);
    if (!note.empty()) std::cerr << note << "\n";
    p = hcc::profile::read_cubex(profile_path);
  } catch (const std::exception &e) {
    return fail("", e.what());
  }
  if (location >= static_cast<int>(p.nloc())) {
    std::cerr << "hcc-report: no location " << location << "; the profile has " << p.nloc()
              << " (ids 0.." << p.nloc() - 1 << ")\n";
    return 2;
  }

  // The views: whatever one throws is one line naming the file.
  try {
    if (suggest) {
      hcc::report::SuggestRule rule;
      if (!rule_text.empty()) {
        std::string why = hcc::report::parse_suggest_rule(rule_text, rule);
        if (!why.empty()) {
          std::cerr << "hcc-report: --rule '" << rule_text << "' " << why << "\n";
          return 2;
        }
      }
      auto syntax = format == "tau"      ? hcc::report::FilterSyntax::Tau
                    : format == "scorep" ? hcc::report::FilterSyntax::ScoreP
                                         : hcc::report::FilterSyntax::Hcc;
      std::string text = hcc::report::suggest_filter(p, rule, syntax, profile_path);
      if (!emit(text, out_file)) return 2;
      if (!out_file.empty()) {
        // The explanation (the leading comment lines) goes to the terminal too.
        for (size_t b = 0; b < text.size();) {
          size_t e = text.find('\n', b);
          if (text[b] != '#') break;
          std::cout << text.substr(b, e - b + 1);
          b = e + 1;
        }
        std::cout << "filter written to " << out_file << "\n";
      }
      return 0;
    }
    if (!callgraph.empty()) {
      std::string text = hcc::report::callgraph_dot(p, {location, focus});
      if (callgraph == "svg") text = hcc::report::dot_to_svg(text, "--callgraph=svg");
      if (!emit(text, out_file)) return 2;
      if (!out_file.empty()) std::cout << "call graph written to " << out_file << "\n";
      std::cout.flush();
      return std::cout ? 0 : 1;
    }
    if (html) {
      if (out_file.empty()) {
        hcc::report::write_html_report(std::cout, p, profile_path);
        std::cout.flush();
        return std::cout ? 0 : 1;
      }
      std::ofstream f(out_file);
      hcc::report::write_html_report(f, p, profile_path);
      const auto size = static_cast<long long>(f.tellp());
      if (!f.flush()) return fail("", "cannot write " + out_file);
      std::cout << out_file << ": HTML report of " << profile_path << " (" << size << " bytes, no network access)\n";
      return 0;
    }
    if (folded) {
      std::cout << hcc::report::folded_text(p, metric, location);
      std::cout.flush();
      return std::cout ? 0 : 1;
    }
    if (cfg_opt->count() > 0) {
      if (cfg_mode.empty()) cfg_mode = "text";
      if (cfg_mode == "text") {
        std::cout << hcc::report::cfg_text(p, location);
      } else if (cfg_mode == "dot" || cfg_mode == "svg") {
        const std::string dot = hcc::report::cfg_dot(p, cfg_root);
        std::cout << (cfg_mode == "dot" ? dot : hcc::report::dot_to_svg(dot, "--cfg=svg"));
      } else {
        std::cerr << "hcc-report: --cfg=" << cfg_mode << ": expected text, dot or svg\n";
        return 2;
      }
    } else if (gprof) {
      std::cout << hcc::report::gprof_text(p, location);
    } else if (json) {
      hcc::report::write_profile_json(std::cout, p, location);
      std::cout << "\n";
    } else if (openmp) {
      const std::string text = hcc::profile::openmp_summary_text(p);
      std::cout << (text.empty() ? "no OpenMP regions in this profile\n" : text);
    } else if (mpi) {
      const std::string text = hcc::profile::mpi_summary_text(p);
      std::cout << (text.empty() ? "no MPI regions in this profile\n" : text);
    } else if (summary) {
      std::cout << hcc::profile::summary_text(p);
    } else if (tree) {
      std::cout << hcc::profile::call_tree_text(p, location);
    } else {
      std::cout << hcc::profile::flat_profile_text(p, location);
    }
  } catch (const std::exception &e) {
    return fail(profile_path, e.what());
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace
