#include "driver.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "args.hpp"
#include "cache_dir.h"
#include "client.h"
#include "compiler_choice.hpp"
#include "depfile_fix.hpp"
#include "early_start.hpp"
#include "header_shadow.hpp"
#include "help.hpp"
#include "instrument_step.hpp"
#include "filter/filter.hpp"
#include "link_flags.hpp"
#include "log.hpp"
#include "mpi_wrapper.hpp"
#include "options.hpp"
#include "paths.hpp"
#include "filter_texts.hpp"
#include "plan.hpp"
#include "process.hpp"
#include "response_file.hpp"
#include "sanitizer_flags.hpp"
#include "config/config.hpp"

#ifndef HCC_VERSION_STRING
#define HCC_VERSION_STRING "unknown"
#endif

namespace hcc::driver {
namespace {

// A chain of hcc → wrapper → hcc … deeper than this is a configuration loop
// (e.g. HCC_COMPILER=mpicxx with OMPI_CXX=hcc), not a build.
constexpr int kMaxNesting = 8;

// Signals after which a failed instrumented compile is NOT retried: the user
// or the system wants the build to stop.
bool stop_signal(int sig) {
  return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT ||
         sig == SIGKILL || sig == SIGPIPE;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string> &b,
                                const std::vector<std::string> &c = {}) {
  a.insert(a.end(), b.begin(), b.end());
  a.insert(a.end(), c.begin(), c.end());
  return a;
}

// Replaces hcc by the compiler; returns a status only when that failed.
int exec_compiler(const std::vector<std::string> &cmd, bool verbose) {
  if (verbose) print_note("exec: " + shell_command(cmd));
  exec_process(cmd);
  int e = errno;
  print_error("cannot run '" + cmd[0] + "': " + std::strerror(e));
  return e == ENOENT ? 127 : 126;
}

std::vector<std::string> instrumentor_command(const Layout &layout) {
  const char *env = config::text("HCC_INSTRUMENTOR");
  std::vector<std::string> cmd = env ? split_command(env) : std::vector<std::string>{};
  if (cmd.empty()) return {layout.instrumentor};
  if (auto p = find_program(cmd[0], "")) cmd[0] = *p;
  return cmd;
}

// The instrumentation server's line of --hcc-show-config: whether compiles
// use it, its socket, and whether one is up there now.
std::string server_state(const Layout &layout) {
  if (config::text("HCC_INSTRUMENTOR")) return "not used (HCC_INSTRUMENTOR names another instrumentor)";
  if (switched_off("HCC_SERVER")) return "off (HCC_SERVER)";
  char tool[PATH_MAX];
  const std::string socket = ::realpath(layout.instrumentor.c_str(), tool) ? server::socketPath(tool) : "";
  if (socket.empty()) return "off (no private directory for its socket)";
  const int conn = server::connectToServer(socket);
  if (conn >= 0) ::close(conn);
  return socket + (conn >= 0 ? " (running" : " (not running: the next instrumented file starts it") +
         ", idle timeout " + std::to_string(server::serverIdleSeconds()) + " s)";
}

// The instrumentation cache's line of --hcc-show-config: its directory, or
// why it is not used (../cache/cache_dir.h).
std::string cache_state() {
  if (rewriter::CacheDir::pathFromEnvironment().empty()) return "off (HCC_CACHE, or no HCC_CACHE_DIR/HOME)";
  std::string refusal;
  const rewriter::CacheDir dir = rewriter::CacheDir::fromEnvironment(&refusal);
  if (dir.enabled()) return dir.path();
  return refusal.empty() ? dir.path() + " (not used: it cannot be created or opened)" : refusal;
}

void show_config(const Layout &layout, const CompilerChoice &choice, bool off,
                 const char *why_off) {
  auto state = [](const std::string &path) {
    return path + (file_exists(path) ? "" : " [missing]");
  };
  std::string s = "hcc " HCC_VERSION_STRING "\n";
  s += "prefix:       " + layout.prefix + "\n";
  s += "executable:   " + layout.executable + "\n";
  const char *env_instr = config::text("HCC_INSTRUMENTOR");
  if (env_instr && !split_command(env_instr).empty())
    s += "instrumentor: " + shell_command(instrumentor_command(layout)) + " (from HCC_INSTRUMENTOR)\n";
  else
    s += "instrumentor: " + state(layout.instrumentor) + "\n";
  s += "runtime:      " + state(layout.runtime_library) + "\n";
  // What links read instead of the runtime (link_flags.hpp); without it
  // they read the runtime itself, and ld its 21 dependencies.
  const std::string stub = layout.lib_dir + "/" + kLinkStubDir + "/libhcc.so";
  s += "link stub:    " + stub + (file_exists(stub) ? "" : " [missing: links read the runtime itself]") + "\n";
  s += "server:       " + server_state(layout) + "\n";
  s += "cache:        " + cache_state() + "\n";
  s += "include:      " + state(layout.include_dir) + "\n";
  s += "prelude:      " + state(layout.prelude) + "\n";
  s += "cmake:        " + state(layout.cmake_dir) + "\n";
  s += "compiler:     " + shell_command(choice.command) + " -> " +
       (choice.program.empty() ? std::string("[not found]") : choice.program) + " (" +
       choice.how + ")\n";
  if (!runtime_sanitizers().empty())
    s += "sanitizers:   " + runtime_sanitizers() + " (the runtime is sanitized: programs are built with " +
         shell_command(runtime_sanitizer_flags()) + ")\n";
  s += std::string("wrapper:      ") + (off ? "off (" : "on") + (off ? why_off : "") +
       (off ? ")" : "") + "\n";
  write_stdout(s);
}

// Writes the compile arguments to a response file: the user had one, so the
// expanded list may be too long for one command line.
std::optional<std::string> write_response_file(const std::vector<std::string> &args,
                                               TempDirs &temps) {
  std::string error;
  auto dir = temps.create(error);
  if (!dir) return std::nullopt;
  std::string path = *dir + "/args.rsp";
  std::FILE *f = std::fopen(path.c_str(), "we");
  if (!f) return std::nullopt;
  bool ok = true;
  for (const auto &a : args) {
    std::string line = quote_for_response_file(a) + "\n";
    ok = ok && std::fwrite(line.data(), 1, line.size(), f) == line.size();
  }
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return std::nullopt;
  return path;
}

struct Instrumented {
  std::vector<PathRewrite> rewrites;      // temp copy -> source as typed
  std::vector<std::string> sources;       // every instrumentable source
  std::vector<std::string> compile_args;  // user arguments, sources replaced
  std::vector<std::string> quote_dirs;    // dirs of the instrumented sources
  // Sources the instrumentor gave up on. Said only once the compile has
  // succeeded: when the user's code does not compile (the usual reason the
  // instrumentor fails), the compiler's own diagnostics must stand alone,
  // exactly as without hcc.
  std::vector<std::string> not_instrumented;
};

void warn_not_instrumented(const Instrumented &work) {
  for (const auto &path : work.not_instrumented)
    print_warning("could not instrument '" + path +
                  "'; compiled it uninstrumented (--hcc-verbose shows why)");
}

// Ends hcc: keeps or removes the temp files, dies of a pending signal.
int finish(int status, TempDirs &temps, const Instrumented &work, bool keep) {
  if (keep) {
    for (const auto &r : work.rewrites)
      if (!r.prefix && !r.drop) print_note("kept instrumented source of '" + r.to + "': " + r.from);
  } else {
    temps.remove_all();
  }
  if (int sig = received_signal()) die_of_signal(sig);
  return status;
}

// Whether any rewritten file of this command (the sources' copies and the
// instrumented header copies) mentions the POMP2 interface.
bool calls_pomp(const Instrumented &work) {
  for (const auto &r : work.rewrites)
    if (!r.prefix && !r.drop && file_contains(r.from, "POMP2_")) return true;
  return false;
}

// The compile arguments with the shadow tree's directories in front of the
// command's own (header_shadow.hpp).
std::vector<std::string> with_shadow_dirs(std::vector<std::string> args, const CommandLine &cl,
                                          const std::string &shadow_root) {
  args = shadow_include_args(args, cl, shadow_root);
  if (const char *cpath = std::getenv("CPATH"); cpath && *cpath) {
    std::vector<std::string> more = shadow_cpath_args(cpath, shadow_root);
    args.insert(args.end(), more.begin(), more.end());
  }
  return args;
}

// The compiler command for the instrumented sources: the prelude and the
// sources' own directories come first: a quoted #include is looked up beside
// the file that includes it, which is now a temp dir, so the original dir
// must be searched before any user -iquote.
std::vector<std::string> compile_command(const std::vector<std::string> &compiler,
                                         const std::vector<std::string> &compile_args,
                                         const std::vector<std::string> &quote_dirs,
                                         const std::string &shadow_root, const Layout &layout,
                                         bool pomp, bool response_file, TempDirs &temps,
                                         const std::vector<std::string> &link_flags) {
  std::vector<std::string> cmd = compiler;
  for (const auto &d : quote_dirs) {
    // The directory's copy in the shadow tree first: the headers beside the
    // source are read from there (their instrumented copies).
    if (!shadow_root.empty())
      if (std::string s = shadow_dir_of(shadow_root, d); !s.empty()) cmd.insert(cmd.end(), {"-iquote", s});
    cmd.insert(cmd.end(), {"-iquote", d});
  }
  if (std::string def = runtime_path_define(layout.runtime_library); !def.empty()) cmd.push_back(def);
  cmd.insert(cmd.end(), {"-include", layout.prelude});
  // The OpenMP declarations and trampolines only where the rewritten code
  // (a source or a header copy) calls the POMP2 interface: every name and
  // type it writes starts with POMP2_ (include/hcc/detail/bind.h says why).
  if (pomp) cmd.insert(cmd.end(), {"-include", layout.prelude_openmp});
  std::optional<std::string> rsp;
  if (response_file) rsp = write_response_file(compile_args, temps);
  if (rsp)
    cmd.push_back("@" + *rsp);
  else
    cmd.insert(cmd.end(), compile_args.begin(), compile_args.end());
  cmd.insert(cmd.end(), link_flags.begin(), link_flags.end());
  return cmd;
}

int instrumented_compile(const std::vector<std::string> &compiler,
                         const std::vector<std::string> &raw_args,
                         const std::vector<std::string> &args, bool args_from_response_file,
                         const CommandLine &cl, const Layout &layout,
                         const std::vector<std::string> &link_flags, const HccOptions &opts) {
  if (!file_exists(layout.prelude)) {
    print_warning("cannot instrument: the prelude '" + layout.prelude +
                  "' is missing (incomplete installation?); compiling uninstrumented");
    return exec_compiler(concat(compiler, raw_args, link_flags), opts.verbose);
  }
  install_signal_forwarding();
  TempDirs temps;
  Instrumented work;
  work.compile_args = args;
  auto instrumentor = instrumentor_command(layout);
  // A filter that cannot be read is the user's error: stop here with its
  // file:line, before anything is compiled (the same parser as the
  // instrumentor's and the runtime's, filter/). Each filter file is read
  // once, here; the instrumentor gets that text (filter_texts.hpp), never
  // the file's name to open again.
  FilterTexts filter_texts;
  std::vector<const FilterText *> command_filters;
  if (!opts.instrument_args.empty()) {
    hcc::filter::Filter filter;
    std::string error;
    for (const std::string &a : opts.instrument_args) {
      size_t eq = a.find('=');
      std::string kind = a.substr(2, eq - 2), value = a.substr(eq + 1);
      if (kind == "openmp" || kind == "functions" || kind == "min-size") {  // not filters
        instrumentor.push_back(a);
        continue;
      }
      if (kind == "filter") {
        std::string text, hide;
        if (!read_filter_file(value, text, hide, error)) {
          print_error(error);
          return 1;
        }
        if (!filter.add_text(text, value, error)) {
          // A file that is not yours may be anything a link or a
          // colleague's mistake led to: its lines stay out of the log.
          print_error(hide.empty() ? error : without_file_text(error, value, hide));
          return 1;
        }
        const FilterText *copy = filter_texts.add(value, text, error);
        if (!copy) {
          print_error(error);
          return 1;
        }
        command_filters.push_back(copy);
        instrumentor.push_back(copy->argument());
        continue;
      }
      bool ok = kind == "include" ? filter.add_include(value, error)
                : kind == "count" ? filter.add_count(value, error)
                                  : filter.add_exclude(value, error);
      if (!ok) {
        print_error(kind == "count" ? "--hcc-functions=count:" + value + ": " + error
                                    : "--hcc-" + kind + "=" + value + ": " + error);
        return 1;
      }
      instrumentor.push_back(a);
    }
  }
  // The copies of the project's headers carry the names the compiler
  // underneath gives them without hcc: Clang "./x.h", GCC "x.h" for a header
  // beside a source named without a directory.
  if (compiler_family(compiler[0]) == CompilerFamily::Clang) instrumentor.push_back("--names=clang");
  // The instrumentation cache is used only when its directory is private
  // (../cache/cache_dir.h): otherwise one warning for this command, and the
  // instrumentor — started here or in the server, both with this
  // environment — is told to leave the cache alone.
  if (std::string refusal; !rewriter::CacheDir::fromEnvironment(&refusal).enabled() && !refusal.empty()) {
    print_warning(refusal);
    ::setenv("HCC_CACHE", "off", 1);
  }
  // An MPI wrapper's hidden -I options (for <mpi.h>), as the wrapper puts
  // them: before the user's arguments.
  std::vector<std::string> wrapper_flags;
  if (runs_mpi_wrapper(compiler)) wrapper_flags = mpi_wrapper_flags(compiler, opts.verbose);

  // One shadow tree for the command (its include options serve every
  // source): the instrumented copies of the project's headers.
  std::string shadow_root;
  if (opts.headers) {
    std::string error;
    if (auto d = temps.create(error)) shadow_root = *d + "/shadow";
    else if (opts.verbose) print_note("headers are not instrumented: " + error);
  }

  // The instrumentation server runs our own tool only, not a stand-in named
  // by HCC_INSTRUMENTOR.
  const bool use_server = !config::text("HCC_INSTRUMENTOR") && !switched_off("HCC_SERVER");

  // One source to one object: the compiler may start on the source's
  // leading system headers while the instrumentor parses (early_start.hpp).
  std::unique_ptr<EarlyCompile> early;
  std::vector<std::string> early_cmd;
  std::function<void()> start_early;
  std::string source_text;
  if (!opts.keep && !args_from_response_file && cl.inputs.size() == 1 && cl.inputs[0].instrumentable &&
      read_file(cl.inputs[0].path, source_text)) {
    const InputFile &in = cl.inputs[0];
    const CompilerFamily family = compiler_family(compiler[0]);
    std::string why = early_start_obstacle(args, cl, in.path, source_text, family, !shadow_root.empty());
    const size_t head = why.empty() ? leading_system_includes(source_text, user_include_dirs(args, cl)) : 0;
    if (why.empty() && head == 0) why = "it does not begin with an #include of a system header";
    if (!why.empty()) {
      if (opts.verbose) print_note("the compiler starts after the instrumentor: " + why);
    } else {
      start_early = [&, head, family]() {
        std::string error;
        auto dir = temps.create(error);
        auto e = std::make_unique<EarlyCompile>();
        if (!dir || !e->prepare(*dir, in.path, source_text, head, family, error)) {
          if (opts.verbose) print_note("the compiler starts after the instrumentor: " + error);
          return;
        }
        std::vector<std::string> a = args;
        a[in.index] = e->main_file();
        if (!shadow_root.empty()) a = with_shadow_dirs(a, cl, shadow_root);
        early_cmd = compile_command(compiler, a, {dir_name(in.path)}, shadow_root, layout,
                                    may_call_pomp(args, source_text), false, temps, link_flags);
        if (opts.verbose)
          print_note("run: " + shell_command(early_cmd) +
                     " (started on the leading system headers; the rest follows the instrumentation)");
        e->start(early_cmd);
        early = std::move(e);
      };
    }
  }

  std::vector<std::string> plans_told;  // plans whose decisions --hcc-verbose has printed
  std::map<std::string, const FilterText *> plan_copies;  // one copy per plan text, for all its sources
  for (const auto &in : cl.inputs) {
    if (!in.instrumentable) continue;
    work.sources.push_back(in.path);
    std::vector<std::string> iargs = instrumentor_args(args, cl, in);
    iargs.insert(iargs.begin(), wrapper_flags.begin(), wrapper_flags.end());
    // The source's plan (plan.hpp): one more filter for the instrumentor,
    // on top of --hcc-filter, passed as the text checked here; its text
    // joins the cache key as every filter's does.
    Plan plan;
    std::string plan_error;
    if (!plan_for_source(in.path, plan, plan_error)) {
      print_error(plan_error);
      return finish(1, temps, work, false);
    }
    std::vector<std::string> source_instrumentor = instrumentor;
    std::vector<const FilterText *> source_filters = command_filters;
    if (!plan.path.empty()) {
      const FilterText *&copy = plan_copies[plan.path + '\0' + plan.text];
      if (!copy && !(copy = filter_texts.add(plan.path, plan.text, plan_error))) {
        print_error(plan_error);
        return finish(1, temps, work, false);
      }
      source_instrumentor.push_back(copy->argument());
      source_filters.push_back(copy);
      if (opts.verbose && std::find(plans_told.begin(), plans_told.end(), plan.path) == plans_told.end()) {
        plans_told.push_back(plan.path);
        const std::vector<std::string> decisions = plan_decisions(plan.text);
        if (decisions.empty()) print_note("plan " + plan.path + ": applied (it gives no evidence lines)");
        for (const std::string &d : decisions) print_note("plan " + plan.path + ": " + d);
      }
    }
    InstrumentResult res = instrument_source(source_instrumentor, source_filters, in, iargs, temps, opts.verbose,
                                             shadow_root, use_server, start_early);
    if (early && (received_signal() || !res.ok)) {
      early->abandon();
      early.reset();
    }
    if (received_signal()) return finish(1, temps, work, false);
    if (res.user_error) {
      print_error(in.path + ": " + res.why);
      return finish(1, temps, work, false);
    }
    if (!res.ok) {
      work.not_instrumented.push_back(in.path);
      if (opts.verbose) print_note("could not instrument '" + in.path + "': " + res.why);
      continue;
    }
    work.compile_args[in.index] = res.output;
    work.rewrites.push_back({res.output, in.path});
    std::string dir = dir_name(in.path);
    if (std::find(work.quote_dirs.begin(), work.quote_dirs.end(), dir) == work.quote_dirs.end())
      work.quote_dirs.push_back(dir);
  }

  const std::vector<std::string> original = concat(compiler, raw_args, link_flags);
  if (!shadow_root.empty() && !work.rewrites.empty()) {
    // The compiler looks in the shadow tree first; dependency files name the
    // real headers again.
    work.compile_args = with_shadow_dirs(work.compile_args, cl, shadow_root);
    // (GCC and Clang write "x.h" there where diagnostics say "./x.h").
    for (auto [copy, name] : shadow_names(shadow_root)) {
      while (name.rfind("./", 0) == 0 && name.size() > 2) name.erase(0, 2);
      work.rewrites.push_back({copy, name});
    }
    work.rewrites.push_back({shadow_root + "/", "/", true});
  }
  if (work.rewrites.empty()) {  // nothing instrumented: the plain command
    temps.remove_all();
    if (work.not_instrumented.empty()) return exec_compiler(original, opts.verbose);
    if (opts.verbose) print_note("run: " + shell_command(original));
    ProcessResult po = run_process(original, RunOptions{});
    if (!po.started) print_error("cannot run '" + original[0] + "': " + std::strerror(po.start_errno));
    if (po.ok()) warn_not_instrumented(work);
    return finish(po.shell_status(), temps, work, false);
  }

  std::vector<std::string> cmd =
      compile_command(compiler, work.compile_args, work.quote_dirs, shadow_root, layout,
                      calls_pomp(work), args_from_response_file, temps, link_flags);
  ProcessResult pr;
  if (early) {
    // The early compile is this one if its command is (the copy it reads
    // aside) and the rewritten text begins with the lines it has read.
    const std::string instrumented = work.rewrites.front().from;
    std::vector<std::string> expected = cmd;
    std::replace(expected.begin(), expected.end(), instrumented, early->main_file());
    std::string text;
    if (expected == early_cmd && read_file(instrumented, text) && early->feed(text)) {
      if (opts.verbose) print_note("the compiler started early reads the instrumented rest");
      pr = early->finish();
      work.rewrites.push_back({early->main_file(), work.rewrites.front().to});
      work.rewrites.push_back({early->pipe(), "", false, true});
    } else {
      if (opts.verbose) print_note("the compile started early does not fit the instrumentation; stopped it");
      early->abandon();
      early.reset();
    }
  }
  if (!early) {
    if (opts.verbose) print_note("run: " + shell_command(cmd));
    RunOptions ro;
    ro.err = Stream::Capture;  // shown as is on success; replaced by the original's on failure
    if (cl.dep_file_stdout) ro.out = Stream::Capture;  // -MF -: dependencies on stdout
    pr = run_process(cmd, ro);
  }
  if (received_signal()) return finish(1, temps, work, false);

  const std::string drop_prefix = dir_name(layout.prelude) + "/";
  if (pr.ok()) {
    write_stderr(pr.err);
    warn_not_instrumented(work);
    if (cl.dep_file_stdout) write_stdout(rewrite_depfile(pr.out, work.rewrites, drop_prefix));
    for (const auto &d : depfile_candidates(cl, work.sources)) {
      std::string error;
      if (!fix_depfile(d, work.rewrites, drop_prefix, error)) print_warning(error);
    }
    return finish(0, temps, work, opts.keep);
  }
  if (!pr.started) {
    print_error("cannot run '" + cmd[0] + "': " + std::strerror(pr.start_errno));
    return finish(pr.shell_status(), temps, work, opts.keep);
  }
  if (pr.term_signal && stop_signal(pr.term_signal))
    return finish(pr.shell_status(), temps, work, opts.keep);

  // The instrumented compile failed. The user's own code decides: compile the
  // originals, with their diagnostics streaming as usual.
  if (opts.verbose) {
    print_note("the instrumented compile failed (status " + std::to_string(pr.shell_status()) +
               "); its diagnostics follow, then the original sources are compiled");
    write_stderr(pr.err);
    write_stderr(pr.out);  // stdout may be the user's (-MF -, -o -)
    print_note("run: " + shell_command(original));
  }
  ProcessResult po = run_process(original, RunOptions{});
  if (received_signal()) return finish(1, temps, work, opts.keep);
  if (!po.started) {
    print_error("cannot run '" + original[0] + "': " + std::strerror(po.start_errno));
  } else if (po.ok()) {
    warn_not_instrumented(work);
    std::string names;
    for (const auto &r : work.rewrites)
      if (!r.prefix && !r.drop) names += (names.empty() ? "'" : ", '") + r.to + "'";
    print_warning("instrumentation broke the compile of " + names +
                  "; built uninstrumented instead (--hcc-verbose shows the errors)");
  }
  return finish(po.shell_status(), temps, work, opts.keep);
}

}  // namespace

int run_driver(int argc, char **argv) {
  std::vector<std::string> raw(argv + 1, argv + argc);
  HccOptions opts;
  if (auto err = take_hcc_options(raw, opts)) {
    print_error(*err);
    return 2;
  }
  Expansion ex = expand_response_files(raw);
  std::vector<std::string> args = std::move(ex.args);
  if (std::any_of(args.begin(), args.end(), [](const std::string &a) { return is_hcc_option(a); })) {
    // --hcc-* inside a response file: the compiler must not see them either,
    // so it gets the expanded list.
    if (auto err = take_hcc_options(args, opts)) {
      print_error(*err);
      return 2;
    }
    raw = args;
  }

  const char *depth_env = config::text("HCC_DRIVER_DEPTH");
  int depth = depth_env ? std::atoi(depth_env) : 0;
  if (depth >= kMaxNesting) {
    print_error("hcc keeps calling itself through the compiler it runs; check HCC_COMPILER, "
                "--hcc-compiler and compiler wrappers configured to call hcc (e.g. OMPI_CXX)");
    return 2;
  }

  const bool env_off = switched_off("HCC_WRAPPER");
  const bool off = opts.off || env_off;

  const std::string self = self_executable(argc > 0 ? argv[0] : nullptr);
  InstallDirs dirs;
#ifdef HCC_INSTALL_LIBDIR
  dirs.lib = HCC_INSTALL_LIBDIR;
#endif
#ifdef HCC_INSTALL_LIBEXECDIR
  dirs.libexec = HCC_INSTALL_LIBEXECDIR;
#endif
#ifdef HCC_INSTALL_INCLUDEDIR
  dirs.include = HCC_INSTALL_INCLUDEDIR;
#endif
  const Layout layout = layout_for(self, dirs);

  // Prefix mode looks at the arguments as typed: a compiler named inside a
  // response file is not a prefix (and its @file must stay in place).
  CompilerChoice choice = choose_explicit(opts.compiler, config::text("HCC_COMPILER"), raw, self);
  if (choice.taken_args > 0) {
    auto n = static_cast<std::ptrdiff_t>(choice.taken_args);
    args.erase(args.begin(), args.begin() + n);
    raw.erase(raw.begin(), raw.begin() + n);
  }
  const CommandLine cl = classify(args);
  if (choice.command.empty() && !choose_by_program_name(choice, argc > 0 ? argv[0] : nullptr, self))
    choose_by_language(choice, cl, self);

  if (opts.help) write_stdout(hcc_help_text());
  if (opts.version) write_stdout("hcc " HCC_VERSION_STRING "\n");
  if (opts.show_config) {
    show_config(layout, choice, off, opts.off ? "--hcc-off" : "HCC_WRAPPER");
  }
  if (opts.help || opts.version || opts.show_config) return 0;

  if (!choice.warning.empty()) print_warning(choice.warning);
  if (choice.program.empty()) {
    print_error("compiler '" + choice.command[0] + "' (" + choice.how + ") not found" +
                (choice.command[0].find('/') == std::string::npos ? " in PATH" : ""));
    return 127;
  }
  if (!self.empty() && real_path(choice.program) == self) {
    print_error("the compiler chosen by " + choice.how + " is hcc itself");
    return 2;
  }
  std::vector<std::string> compiler = choice.command;
  compiler[0] = choice.program;
  // A sanitized runtime only loads into a sanitized program (sanitizer_flags.hpp).
  for (const std::string &f : runtime_sanitizer_flags()) compiler.push_back(f);
  if (opts.verbose) print_note("compiler: " + shell_command(compiler) + " (" + choice.how + ")");

  // Whatever runs below us sees a plain compiler: an hcc reached again through
  // a wrapper (mpicxx with OMPI_CXX=hcc) passes through instead of
  // instrumenting twice, and picks its compiler by language.
  ::setenv("HCC_WRAPPER", "off", 1);
  ::unsetenv("HCC_COMPILER");
  ::setenv("HCC_DRIVER_DEPTH", std::to_string(depth + 1).c_str(), 1);

  if (off) {
    if (opts.verbose) print_note(std::string("wrapper off (") + (opts.off ? "--hcc-off" : "HCC_WRAPPER") + ")");
    return exec_compiler(concat(compiler, raw), opts.verbose);
  }
  // `hcc --help` is the compiler's help (a build may ask the compiler what
  // it takes); its first line says where hcc's own is.
  if (asks_for_compiler_help(cl.info_option)) write_stdout(help_pointer_line());
  // configure's conftest programs and CMake's try_compile must see the plain
  // compiler: an instrumented conftest that runs leaves a profile directory
  // behind, and a check must answer as it does without hcc.
  if (const std::string probe = configure_probe_reason(cl); !probe.empty()) {
    if (opts.verbose) print_note("not instrumenting: " + probe);
    return exec_compiler(concat(compiler, raw), opts.verbose);
  }

  if (self.empty()) {
    print_error("cannot find where hcc is installed (no /proc/self/exe and argv[0] is not usable)");
    return 2;
  }

  const bool link = links_program(cl);
  if (link && cl.static_link && !file_exists(layout.lib_dir + "/libhcc.a")) {
    print_error("cannot link statically (-static): the hcc runtime is a shared library (" +
                layout.runtime_library + "); link without -static, or with --hcc-off and "
                "uninstrumented objects");
    return 1;
  }
  const std::vector<std::string> link_flags =
      link ? runtime_link_flags(layout.lib_dir) : std::vector<std::string>{};
  // An MPI program also links the PMPI wrappers, ahead of the user's
  // arguments (see mpi_link_flags); appended to the compiler command so every
  // path below (pass-through, instrumented, fallback) carries them.
  if (link && (runs_mpi_wrapper(compiler) || links_mpi_library(args))) {
    const std::vector<std::string> mpi = mpi_link_flags(layout.lib_dir);
    if (mpi.empty()) print_warning("MPI program: no libhcc_mpi.so in " + layout.lib_dir +
                                   " (hcc built without MPI); MPI calls are not measured");
    compiler.insert(compiler.end(), mpi.begin(), mpi.end());
  }

  const std::string reason = pass_through_reason(cl);
  if (!reason.empty()) {
    if (opts.verbose) print_note("not instrumenting: " + reason);
    return exec_compiler(concat(compiler, raw, link_flags), opts.verbose);
  }
  return instrumented_compile(compiler, raw, args, ex.expanded_any, cl, layout, link_flags, opts);
}

}  // namespace hcc::driver
