// hcc-report — print a profile written by libhcc (or any CUBE4 .cubex):
// flat profile (default), call tree, full summary, JSON and the other views
// in kViews below; one view a run (two view options are an error).
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
#include "findings_view.hpp"
#include "folded.hpp"
#include "html_view.hpp"
#include "gprof_view.hpp"
#include "graphviz.hpp"
#include "json_view.hpp"
#include "locate.hpp"
#include "output_file.hpp"
#include "summary.hpp"
#include "plans/judge.hpp"
#include "trace_json.hpp"
#include "watch.hpp"

#include <fstream>
#include "config/config.hpp"

namespace {

// Writes `text` to `file` (output_file.hpp: whole or not at all, never
// through a link), or to stdout when `file` is empty. False, after one line
// on stderr naming the file and why, when it cannot be written.
bool emit(const std::string &text, const std::string &file) {
  if (file.empty()) {
    std::cout << text;
    return true;
  }
  try {
    hcc::report::OutputFile f(file);
    f.stream() << text;
    f.commit();
    return true;
  } catch (const std::exception &e) {
    std::cerr << "hcc-report: " << e.what() << "\n";
    return false;
  }
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

// The command line, whichever view it selects: the path and the options that
// modify a view (kModifiers), filled by CLI11.
struct Options {
  std::string path;
  int location = -1;
  std::string cfg_mode, cfg_root;
  std::string rule_text, format = "hcc", out_file;
  std::size_t top = 10;
  std::string metric = "time";
  std::vector<std::string> diff_paths;
  std::vector<std::string> plan_paths;
  std::string callgraph, focus;
  bool json = false;  // the --json view, or with --diff: the comparison as JSON
  bool unmarked = false;  // --folded, --gprof: no mark on times from samples
  std::string fail_above;  // --findings: exit 3 when a finding is above this share
};

// A profile read for a view, and the file it came from (named in errors).
struct Profiled {
  const hcc::profile::Profile &p;
  const std::string &path;
};

// What most views end with: 0 when stdout took everything, else 1.
int flushed() {
  std::cout.flush();
  return std::cout ? 0 : 1;
}

// --- Views that read no profile (a trace, two profiles, a running program) ---

int run_trace_json(Options &o) {
  try {
    const std::string anchor = hcc::report::locate_trace(o.path);
    hcc::report::TraceJsonCounts n;
    if (o.out_file.empty()) {
      n = hcc::report::write_trace_json(anchor, std::cout);
      std::cout.flush();
      if (!std::cout) return 1;
    } else {
      // A damaged trace throws before commit(): nothing is left at the name.
      hcc::report::OutputFile f(o.out_file);
      n = hcc::report::write_trace_json(anchor, f.stream());
      f.commit();
      std::cout << o.out_file << ": " << n.events << " events on " << n.locations << " location"
                << (n.locations == 1 ? "" : "s") << " from " << anchor << " (open it in ui.perfetto.dev or chrome://tracing)\n";
    }
    if (n.unmatched) std::cerr << "hcc-report: " << n.unmatched << " LEAVE events without their ENTER left out\n";
  } catch (const std::exception &e) {
    std::cerr << "hcc-report: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

int run_diff(Options &o) {
  try {
    std::string note_a, note_b;
    const std::string a = hcc::report::locate_profile(o.diff_paths[0], ".", &note_a);
    const std::string b = hcc::report::locate_profile(o.diff_paths[1], ".", &note_b);
    for (const std::string &n : {note_a, note_b})
      if (!n.empty()) std::cerr << n << "\n";
    const auto d = hcc::report::diff_profiles(hcc::profile::read_cubex(a), hcc::profile::read_cubex(b));
    if (o.json) {
      hcc::report::write_diff_json(std::cout, d, a, b);
      std::cout << "\n";
    } else {
      hcc::report::write_diff_text(std::cout, d, a, b);
    }
  } catch (const std::exception &e) {
    return fail("", e.what());
  }
  return flushed();
}

int run_watch(Options &o) {
  hcc::report::WatchOptions opt;
  opt.dir = o.path;
  opt.top = o.top;
  if (const char *g = hcc::config::text("HCC_REPORT_WATCH_GIVE_UP")) opt.give_up_seconds = std::atof(g);
  return hcc::report::watch(opt, std::cout, std::cerr);
}

// --- Views of one profile: on_profile<show_X> reads it, then calls show_X ---

using Show = int (*)(const Options &, const Profiled &);

// Reads the profile PATH names and checks --location against it, then shows
// it: whatever the view throws is one line naming the file.
template <Show show>
int on_profile(Options &o) {
  hcc::profile::Profile p;
  std::string profile_path;
  try {
    std::string note;
    profile_path = hcc::report::locate_profile(o.path, ".", &note);
    if (!note.empty()) std::cerr << note << "\n";
    p = hcc::profile::read_cubex(profile_path);
  } catch (const std::exception &e) {
    return fail("", e.what());
  }
  if (o.location >= static_cast<int>(p.nloc())) {
    std::cerr << "hcc-report: no location " << o.location << "; the profile has " << p.nloc() << " (ids 0.."
              << p.nloc() - 1 << ")\n";
    return 2;
  }
  try {
    return show(o, {p, profile_path});
  } catch (const std::exception &e) {
    return fail(profile_path, e.what());
  }
}

int show_flat(const Options &o, const Profiled &in) {
  std::cout << hcc::profile::flat_profile_text(in.p, o.location);
  return flushed();
}

int show_tree(const Options &o, const Profiled &in) {
  std::cout << hcc::profile::call_tree_text(in.p, o.location);
  return flushed();
}

int show_summary(const Options &, const Profiled &in) {
  std::cout << hcc::profile::summary_text(in.p);
  return flushed();
}

int show_openmp(const Options &, const Profiled &in) {
  const std::string text = hcc::profile::openmp_summary_text(in.p);
  std::cout << (text.empty() ? "no OpenMP regions in this profile\n" : text);
  return flushed();
}

int show_mpi(const Options &, const Profiled &in) {
  const std::string text = hcc::profile::mpi_summary_text(in.p);
  std::cout << (text.empty() ? "no MPI regions in this profile\n" : text);
  return flushed();
}

// Exit status with --fail-above P: 3 when a finding costs more than P % of
// the run (docs/reports.md), so CI can guard a regression.
constexpr int kFindingAbove = 3;

int show_findings(const Options &o, const Profiled &in) {
  double above = -1;
  if (!o.fail_above.empty() && !hcc::report::parse_share(o.fail_above, above))
    return fail("", "--fail-above '" + o.fail_above + "': expected a share of the run from 0 to 100, such as 5%");
  double thread_time = 0;
  const auto all = hcc::findings::find_all(in.p, &thread_time);
  if (o.json) {
    std::cout << hcc::report::json_text(hcc::report::findings_json(all, thread_time, in.path)) << "\n";
  } else {
    std::cout << hcc::findings::findings_text(all, o.top);
  }
  if (flushed() != 0) return 1;
  bool over = false;
  for (const auto &f : all) over = over || (above >= 0 && 100 * f.share > above);
  if (over) std::cerr << "hcc-report: a finding is above " << above << "% of the run (--fail-above)\n";
  return over ? kFindingAbove : 0;
}

int show_json(const Options &o, const Profiled &in) {
  hcc::report::write_profile_json(std::cout, in.p, o.location);
  std::cout << "\n";
  return flushed();
}

int show_cfg(const Options &o, const Profiled &in) {
  const std::string mode = o.cfg_mode.empty() ? "text" : o.cfg_mode;
  if (mode == "text") {
    std::cout << hcc::report::cfg_text(in.p, o.location);
  } else if (mode == "dot" || mode == "svg") {
    const std::string dot = hcc::report::cfg_dot(in.p, o.cfg_root);
    std::cout << (mode == "dot" ? dot : hcc::report::dot_to_svg(dot, "--cfg=svg"));
  } else {
    std::cerr << "hcc-report: --cfg=" << mode << ": expected text, dot or svg\n";
    return 2;
  }
  return flushed();
}

// `--cfg PATH`: CLI11 hands PATH to --cfg (it takes an optional value).
int run_cfg(Options &o) {
  if (o.path.empty() && !o.cfg_mode.empty() && o.cfg_mode != "text" && o.cfg_mode != "dot" && o.cfg_mode != "svg") {
    o.path = o.cfg_mode;
    o.cfg_mode = "text";
  }
  return on_profile<show_cfg>(o);
}

// The explanation (the leading comment lines of a filter) for the terminal.
void print_leading_comments(const std::string &text) {
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    if (text[b] != '#') break;
    std::cout << text.substr(b, e - b + 1);
    b = e + 1;
  }
}

int show_suggest_filter(const Options &o, const Profiled &in) {
  hcc::report::SuggestRule rule;
  if (!o.rule_text.empty()) {
    std::string why = hcc::report::parse_suggest_rule(o.rule_text, rule);
    if (!why.empty()) {
      std::cerr << "hcc-report: --rule '" << o.rule_text << "' " << why << "\n";
      return 2;
    }
  }
  auto syntax = o.format == "tau"      ? hcc::report::FilterSyntax::Tau
                : o.format == "scorep" ? hcc::report::FilterSyntax::ScoreP
                                       : hcc::report::FilterSyntax::Hcc;
  std::string text = hcc::report::suggest_filter(in.p, rule, syntax, in.path);
  if (!emit(text, o.out_file)) return 2;
  if (!o.out_file.empty()) {
    print_leading_comments(text);
    std::cout << "filter written to " << o.out_file << "\n";
  }
  return 0;
}

// --plan PROFILE...: every profile is read first (one that cannot be is an
// error naming it), then judged on their sum.
int run_plan(Options &o) {
  hcc::report::SuggestRule rule;
  if (!o.rule_text.empty()) {
    std::string why = hcc::report::parse_suggest_rule(o.rule_text, rule);
    if (!why.empty()) return fail("", "--rule '" + o.rule_text + "' " + why);
  }
  std::vector<hcc::profile::Profile> profiles;
  std::vector<std::string> paths;
  for (const std::string &given : o.plan_paths) {
    try {
      std::string note;
      paths.push_back(hcc::report::locate_profile(given, ".", &note));
      if (!note.empty()) std::cerr << note << "\n";
      profiles.push_back(hcc::profile::read_cubex(paths.back()));
    } catch (const std::exception &e) {
      return fail("", e.what());
    }
  }
  std::vector<hcc::report::ProfileInput> inputs;
  for (size_t i = 0; i < profiles.size(); ++i) inputs.push_back({&profiles[i], paths[i]});
  const std::string text = hcc::report::plan_text(inputs, rule);
  if (!emit(text, o.out_file)) return 2;
  if (!o.out_file.empty()) {
    print_leading_comments(text);
    std::cout << "plan written to " << o.out_file << "\n";
  }
  return 0;
}

int show_callgraph(const Options &o, const Profiled &in) {
  std::string text = hcc::report::callgraph_dot(in.p, {o.location, o.focus});
  if (o.callgraph == "svg") text = hcc::report::dot_to_svg(text, "--callgraph=svg");
  if (!emit(text, o.out_file)) return 2;
  if (!o.out_file.empty()) std::cout << "call graph written to " << o.out_file << "\n";
  return flushed();
}

int show_html(const Options &o, const Profiled &in) {
  if (o.out_file.empty()) {
    hcc::report::write_html_report(std::cout, in.p, in.path);
    return flushed();
  }
  hcc::report::OutputFile f(o.out_file);
  hcc::report::write_html_report(f.stream(), in.p, in.path);
  f.commit();
  const auto size = static_cast<long long>(f.bytes_written());
  std::cout << o.out_file << ": HTML report of " << in.path << " (" << size << " bytes, no network access)\n";
  return 0;
}

int show_folded(const Options &o, const Profiled &in) {
  std::cout << hcc::report::folded_text(in.p, o.metric, o.location, !o.unmarked);
  return flushed();
}

int show_gprof(const Options &o, const Profiled &in) {
  std::cout << hcc::report::gprof_text(in.p, o.location, !o.unmarked);
  return flushed();
}

// --- The table of views ---

struct View;
using AddView = CLI::Option *(*)(CLI::App &, Options &, const View &);

// One view: the option that selects it, its --help line, the options that
// modify it (space-separated; anything else given with it is an error), how
// to register the option when it is more than a flag, and what runs it.
struct View {
  const char *flag;
  const char *help;
  const char *takes;
  AddView add;  // nullptr: a plain flag
  int (*run)(Options &);
};

CLI::Option *add_cfg(CLI::App &app, Options &o, const View &v) {
  return app.add_option(v.flag, o.cfg_mode, v.help)->expected(0, 1);
}
CLI::Option *add_json(CLI::App &app, Options &o, const View &v) { return app.add_flag(v.flag, o.json, v.help); }
CLI::Option *add_diff(CLI::App &app, Options &o, const View &v) {
  return app.add_option(v.flag, o.diff_paths, v.help)->expected(2);
}
CLI::Option *add_plan(CLI::App &app, Options &o, const View &v) {
  return app.add_option(v.flag, o.plan_paths, v.help)->expected(1, -1);
}
CLI::Option *add_callgraph(CLI::App &app, Options &o, const View &v) {
  return app.add_option(v.flag, o.callgraph, v.help)->check(CLI::IsMember({"dot", "svg"}));
}

// With no view option: pprof's columns.
const View kFlatProfile = {"", "", "--location", nullptr, on_profile<show_flat>};

// In --help's order; each view's modifiers follow it there (kModifiers).
const View kViews[] = {
    {"--tree", "show the call tree", "--location", nullptr, on_profile<show_tree>},
    {"--summary", "show everything summary.txt holds", "", nullptr, on_profile<show_summary>},
    {"--openmp",
     "show the OpenMP section: ompP-style tables per construct and thread, overhead analysis per parallel region", "",
     nullptr, on_profile<show_openmp>},
    {"--mpi", "show the MPI section: time per rank, top MPI call paths, imbalance per call", "", nullptr,
     on_profile<show_mpi>},
    {"--findings",
     "what cost this run the most, ranked, each with its call path, evidence and meaning (--json: as JSON; "
     "--fail-above P: exit status 3 when one is above P% of the run)",
     "--json --top --fail-above", nullptr, on_profile<show_findings>},
    {"--json", "print the profile as JSON (see report/README.md)", "--location", add_json, on_profile<show_json>},
    {"--cfg",
     "control flow (predecessor lists): the tree as ompP prints it; =dot Graphviz DOT, "
     "=svg run dot on it",
     "--location --cfg-root", add_cfg, run_cfg},
    {"--suggest-filter",
     "print a filter file excluding regions whose measurement costs more than it tells "
     "(default rule calls>1000000,usec<2)",
     "--rule --format -o", nullptr, on_profile<show_suggest_filter>},
    {"--plan",
     "write an instrumentation plan from PROFILE... (summed): a Score-P filter file, with the evidence "
     "of each decision, that hcc applies at the next build (hcc.plan beside the sources, or HCC_PLAN=FILE)",
     "--rule -o", add_plan, run_plan},
    {"--trace-json",
     "convert the OTF2 trace (PATH: traces.otf2 or a run directory) to Chrome trace-event JSON "
     "for Perfetto UI and chrome://tracing",
     "-o", nullptr, run_trace_json},
    {"--watch",
     "redraw the hottest call paths of a running program (PATH: its output directory; run it with "
     "HCC_SNAPSHOT=SECONDS) each time its snapshot changes, until it ends",
     "--top", nullptr, run_watch},
    // Views for people and other tools (report/README.md): --html, --folded, --diff.
    {"--html", "write one self-contained HTML page (flame graph, tables) to -o FILE (else stdout)", "-o", nullptr,
     on_profile<show_html>},
    {"--folded", "print folded stacks (main;solve;leaf 1234) for flamegraph.pl, speedscope, inferno",
     "--location --metric --unmarked", nullptr, on_profile<show_folded>},
    {"--diff", "compare two profiles A B by call path (with --json: as JSON)", "--json", add_diff, run_diff},
    {"--gprof", "flat profile and call graph in GNU gprof's layout, from the call-context tree",
     "--location --unmarked", nullptr, on_profile<show_gprof>},
    {"--callgraph", "the call graph as Graphviz DOT (dot) or rendered by dot (svg); -o FILE",
     "--location --callgraph-focus -o", add_callgraph, on_profile<show_callgraph>},
};
constexpr std::size_t kViewCount = sizeof kViews / sizeof kViews[0];

// An option that modifies a view; registered in --help right after `after`.
struct Modifier {
  const char *name;
  const char *after;
  CLI::Option *(*add)(CLI::App &, Options &);
};

const Modifier kModifiers[] = {
    {"--fail-above", "--findings",
     [](CLI::App &app, Options &o) {
       return app.add_option("--fail-above", o.fail_above,
                             "with --findings: exit status 3 when a finding costs more than this share of the run (5%)");
     }},
    {"--location", "--json",
     [](CLI::App &app, Options &o) {
       return app.add_option("--location", o.location, "restrict to one location (thread) id")
           ->check(CLI::NonNegativeNumber);
     }},
    {"--cfg-root", "--cfg",
     [](CLI::App &app, Options &o) {
       return app.add_option("--cfg-root", o.cfg_root,
                             "with --cfg=dot|svg: only this region's first call path and its children");
     }},
    {"--rule", "--suggest-filter",
     [](CLI::App &app, Options &o) {
       return app.add_option("--rule", o.rule_text,
                             "with --suggest-filter or --plan: 'calls>N,usec<X,budget<P' (>= and <= too; any may be left "
                             "out; P: percent of the run the timed regions may cost, default 3, 100 = off)");
     }},
    {"--format", "--suggest-filter",
     [](CLI::App &app, Options &o) {
       return app.add_option("--format", o.format, "with --suggest-filter: hcc (default), tau or scorep")
           ->check(CLI::IsMember({"hcc", "tau", "scorep"}));
     }},
    {"-o", "--suggest-filter",
     [](CLI::App &app, Options &o) {
       return app.add_option("-o", o.out_file,
                             "with --suggest-filter, --plan, --trace-json or --html: write to this file instead of stdout");
     }},
    {"--top", "--watch",
     [](CLI::App &app, Options &o) {
       return app.add_option("--top", o.top, "with --watch: call paths shown; with --findings: findings shown (default 10)")
           ->check(CLI::PositiveNumber);
     }},
    {"--metric", "--folded",
     [](CLI::App &app, Options &o) {
       return app.add_option("--metric", o.metric, "with --folded: the metric (default time, in microseconds)");
     }},
    // Marks change names and numbers that other tools read (difffolded.pl
    // against perf's stacks, gprof2dot): they can be left off.
    {"--unmarked", "--folded",
     [](CLI::App &app, Options &o) {
       return app.add_flag("--unmarked", o.unmarked,
                           "with --folded or --gprof: no mark (_[s], ~) on times that came from samples");
     }},
    {"--callgraph-focus", "--callgraph",
     [](CLI::App &app, Options &o) {
       return app.add_option("--callgraph-focus", o.focus,
                             "with --callgraph: only this function and its callers, transitively");
     }},
};
constexpr std::size_t kModifierCount = sizeof kModifiers / sizeof kModifiers[0];

// --- Choosing the view ---

// Whether `name` is one of the space-separated words of `list`.
bool listed(const std::string &list, const std::string &name) {
  return (" " + list + " ").find(" " + name + " ") != std::string::npos;
}

// The options registered for kViews and kModifiers, index for index.
struct Registered {
  std::vector<CLI::Option *> views, modifiers;
};

Registered add_options(CLI::App &app, Options &o) {
  Registered r;
  r.modifiers.resize(kModifierCount);
  for (const View &v : kViews) {
    const std::string help = v.help;
    r.views.push_back(v.add ? v.add(app, o, v) : app.add_flag(v.flag, help));
    for (std::size_t i = 0; i < kModifierCount; ++i)
      if (std::string(kModifiers[i].after) == v.flag) r.modifiers[i] = kModifiers[i].add(app, o);
  }
  return r;
}

// The views given, in command-line order, each once.
std::vector<const View *> views_given(const CLI::App &app, const Registered &r) {
  std::vector<const View *> given;
  for (const CLI::Option *opt : app.parse_order())
    for (std::size_t i = 0; i < kViewCount; ++i) {
      bool seen = false;
      for (const View *g : given) seen = seen || g == &kViews[i];
      if (r.views[i] == opt && !seen) given.push_back(&kViews[i]);
    }
  return given;
}

// The view to run, or nullptr after one line on stderr when two options
// select different views. A view option another given view takes as a
// modifier (--json with --diff) selects nothing.
const View *chosen_view(const CLI::App &app, const Registered &r) {
  const std::vector<const View *> given = views_given(app, r);
  std::vector<const View *> views;
  for (const View *v : given) {
    bool modifies = false;
    for (const View *w : given) modifies = modifies || (w != v && listed(w->takes, v->flag));
    if (!modifies) views.push_back(v);
  }
  if (views.size() > 1) {
    std::cerr << "hcc-report: " << views[0]->flag << " and " << views[1]->flag << " select different views; give one\n";
    return nullptr;
  }
  return views.empty() ? &kFlatProfile : views[0];
}

// "the flat profile (the default view), --tree or --json": the views taking `name`.
std::string views_taking(const std::string &name) {
  std::vector<std::string> names;
  if (listed(kFlatProfile.takes, name)) names.push_back("the flat profile (the default view)");
  for (const View &v : kViews)
    if (listed(v.takes, name)) names.push_back(v.flag);
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

// False, after one line on stderr, when an option modifying some other view
// was given with `view`.
bool modifiers_fit(const View &view, const Registered &r) {
  for (std::size_t i = 0; i < kModifierCount; ++i) {
    if (r.modifiers[i]->count() == 0 || listed(view.takes, kModifiers[i].name)) continue;
    std::cerr << "hcc-report: " << kModifiers[i].name << " applies to " << views_taking(kModifiers[i].name)
              << ", not to " << (view.flag[0] ? view.flag : "the flat profile (the default view)") << "\n";
    return false;
  }
  return true;
}

int run_views(int argc, char **argv) {
  CLI::App app{"hcc-report: show an hcc (CUBE4) profile", "hcc-report"};
  Options o;
  app.add_option("PATH", o.path,
                 "a .cubex file or a directory containing profile.cubex "
                 "(default: the newest hcc-* directory here)");
  const Registered r = add_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return 2;
  }
  const View *view = chosen_view(app, r);
  if (!view || !modifiers_fit(*view, r)) return 2;
  return view->run(o);
}

}  // namespace
