#include "instrument.h"

#include "compile_args.h"
#include "edits.h"
#include "function_guards.h"
#include "naming.h"
#include "openmp_directives.h"
#include "preamble_cache.h"
#include "recording_fs.h"
#include "rewrite_context.h"
#include "setjmp_marks.h"
#include "unknown_directives.h"
#include "user_regions.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace hcc::rewriter {

using namespace clang;

namespace {

// Parse errors mean the file is not what Clang can rewrite safely; hcc then
// compiles the original and the real compiler reports. We keep one line per
// error for --verbose, and where it is: errors on OpenMP pragma lines of the
// main file get a second chance (unknown_directives.h).
class ErrorCollector : public DiagnosticConsumer {
 public:
  ErrorCollector(std::vector<std::string> &messages, std::string file_name)
      : messages_(messages), file_name_(std::move(file_name)) {}

  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);  // keeps the error count
    if (level < DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string where;
    bool in_main = false;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager &sm = info.getSourceManager();
      SourceLocation loc = sm.getExpansionLoc(info.getLocation());
      PresumedLoc p = sm.getPresumedLoc(loc);
      if (sm.getFileID(loc) == sm.getMainFileID()) {
        in_main = true;
        main_offsets_.push_back(sm.getFileOffset(loc));
      }
      if (p.isValid()) {
        std::string file = p.getFileID() == sm.getMainFileID() ? file_name_ : p.getFilename();
        where = file + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) +
                ": ";
      }
    }
    if (!in_main) elsewhere_ = true;
    messages_.push_back("hcc: " + where + "error: " + text.str().str());
  }

  // Offsets of the errors in the main file; `elsewhere`: some error is not.
  const std::vector<unsigned> &mainOffsets() const { return main_offsets_; }
  bool elsewhere() const { return elsewhere_; }

 private:
  std::vector<std::string> &messages_;
  std::string file_name_;
  std::vector<unsigned> main_offsets_;
  bool elsewhere_ = false;
};

// What the preprocessor saw: every file it entered (the project's own ones
// are rewritten too when Options::headers), and where `#pragma` lines are
// in them (the OpenMP rewriter needs those that leave nothing in the AST,
// `nothing`, and only those the preprocessor did not skip).
struct SeenFiles {
  struct File {
    FileID fid;
    SrcMgr::CharacteristicKind kind;
  };
  std::vector<File> files;  // in the order they were entered
  std::map<FileID, std::vector<unsigned>> pragmas;
};

class FileRecorder : public PPCallbacks {
 public:
  FileRecorder(const SourceManager &sm, SeenFiles &out) : sm_(sm), out_(out) {}
  void FileChanged(SourceLocation loc, FileChangeReason reason, SrcMgr::CharacteristicKind kind,
                   FileID) override {
    if (reason != EnterFile || !loc.isFileID()) return;
    FileID fid = sm_.getFileID(loc);
    if (fid.isValid() && sm_.getFileEntryRefForID(fid)) out_.files.push_back({fid, kind});
  }
  void PragmaDirective(SourceLocation loc, PragmaIntroducerKind kind) override {
    if (kind == PIK_HashPragma && loc.isFileID() && !sm_.isInSystemHeader(loc))
      out_.pragmas[sm_.getFileID(loc)].push_back(sm_.getFileOffset(loc));
  }

 private:
  const SourceManager &sm_;
  SeenFiles &out_;
};

// What one parse works from besides the file itself: the real text when
// the parser sees a copy with blanked OpenMP text.
struct ParseInput {
  std::string original;  // "" : the parsed buffer is the real text
  std::vector<BlankedPragma> blanked;
  std::optional<PreambleUse> preamble;  // the leading system headers, precompiled
};

// `#line 1 "NAME"` + text: the compiler names the user's file and lines in
// diagnostics, __FILE__ and debug info, whatever path it reads it from. A
// UTF-8 byte order mark is only skipped at the very start of a file.
std::string withLineMarker(std::string text, const std::string &name) {
  std::string out;
  const llvm::StringRef bom = "\xEF\xBB\xBF";
  if (llvm::StringRef(text).starts_with(bom)) {
    out = bom.str();
    text.erase(0, bom.size());
  }
  out += "#line 1 " + quoteCString(name) + "\n";
  out += text;
  return out;
}

// The name the compiler underneath prints for a project header without
// hcc, which the copy's `#line` repeats. Both compilers name a file found
// beside the file that includes it <includer's directory part><spelling>;
// for an includer named without a directory, Clang's part is "./" and
// GCC's is empty ("x.h"). The parse here is Clang's, so its names are
// rebuilt from the main file's name as the user gave it (`main_name`) down
// the chain of includers, in the target compiler's manner. A file found
// through a search directory (-I, -iquote) keeps Clang's name, which is
// GCC's too (the directory as written, then the spelling).
class HeaderNames {
 public:
  HeaderNames(const SourceManager &sm, FileManager &fm, std::string main_name, bool clang)
      : sm_(sm), fm_(fm), main_name_(std::move(main_name)), clang_(clang) {}

  std::string of(FileID fid) {
    if (fid == sm_.getMainFileID()) return main_name_;
    if (auto it = memo_.find(fid); it != memo_.end()) return it->second;
    std::string name = parsedName(fid);
    SourceLocation inc = sm_.getIncludeLoc(fid);
    if (inc.isValid()) {
      inc = sm_.getExpansionLoc(inc);
      const FileID includer = sm_.getFileID(inc);
      auto fe = sm_.getFileEntryRefForID(fid);
      auto ife = sm_.getFileEntryRefForID(includer);
      bool invalid = false;
      const char *spelled = sm_.getCharacterData(inc, &invalid);
      const bool quoted = invalid || *spelled != '<';
      if (fe && ife && quoted &&
          fm_.getCanonicalName(fe->getDir()) == fm_.getCanonicalName(ife->getDir())) {
        const std::string parsed_dir = dirPart(parsedName(includer), true);
        if (llvm::StringRef(name).starts_with(parsed_dir))
          name = dirPart(of(includer), clang_) + name.substr(parsed_dir.size());
      }
    }
    memo_[fid] = name;
    return name;
  }

 private:
  std::string parsedName(FileID fid) const {
    auto fe = sm_.getFileEntryRefForID(fid);
    return fe ? fe->getName().str() : std::string();
  }
  // "src/a.cc" -> "src/"; "a.cc" -> "./" (Clang) or "" (GCC).
  static std::string dirPart(const std::string &name, bool clang) {
    const size_t slash = name.rfind('/');
    if (slash == std::string::npos) return clang ? "./" : "";
    return name.substr(0, slash + 1);
  }

  const SourceManager &sm_;
  FileManager &fm_;
  std::string main_name_;
  bool clang_;
  std::map<FileID, std::string> memo_;
};

class InstrumentConsumer : public ASTConsumer {
 public:
  InstrumentConsumer(CompilerInstance &ci, const std::string &file_name, const Options &options,
                     const ParseInput &input, SeenFiles &seen, Result &result)
      : ci_(ci), file_name_(file_name), options_(options), input_(input), seen_(seen),
        result_(result) {}

  // The speed trick: function bodies in files we do not rewrite are neither
  // parsed nor checked, so a file that includes half the standard library
  // costs a fraction of a real compile. Sema still parses the bodies it
  // needs to know (constexpr functions, deduced return types). Bodies in the
  // main file — and with Options::headers in every non-system file — are
  // parsed: they are what we rewrite.
  bool shouldSkipFunctionBody(Decl *d) override {
    const SourceManager &sm = ci_.getSourceManager();
    SourceLocation loc = sm.getExpansionLoc(d->getLocation());
    if (options_.headers) return sm.isInSystemHeader(loc);
    return !sm.isInMainFile(loc);
  }

  void HandleTranslationUnit(ASTContext &ast) override {
    // A file with errors is compiled as it is; never rewrite half-understood code.
    if (ci_.getDiagnostics().hasErrorOccurred()) return;
    SourceManager &sm = ast.getSourceManager();

    // Top-level declarations in the user's files (system headers hold most
    // of the AST, and nothing of theirs is rewritten).
    std::vector<Decl *> user_decls;
    // Only the declarations parsed here: a precompiled preamble's stay in
    // the PCH (they are all system headers').
    for (Decl *d : ast.getTranslationUnitDecl()->noload_decls()) {
      // The name's location: abbreviated function templates (`void f(auto)`)
      // have no begin location of their own.
      if (d->isImplicit() || d->getLocation().isInvalid()) continue;
      if (!sm.isInSystemHeader(sm.getExpansionLoc(d->getLocation()))) user_decls.push_back(d);
    }

    // The main file.
    Edits edits;
    RewriteContext ctx{ast, sm, ast.getLangOpts(), file_name_, {}, edits, result_.messages};
    ctx.fid = sm.getMainFileID();
    ctx.original = input_.original.empty() ? sm.getBufferData(ctx.fid)
                                           : llvm::StringRef(input_.original);
    ctx.blanked = input_.blanked;
    ctx.omp_pragmas = seen_.pragmas[ctx.fid];
    ctx.decls = declsOf(ctx.fid, user_decls);
    rewrite(ctx);
    result_.output = withLineMarker(edits.apply(ctx.original), file_name_);

    // The project's own headers and #included sources: every non-system
    // file, once; its copy is what the compiler will read instead
    // (tool.cpp, the driver's shadow tree), rewritten when it defines
    // functions. A file entered more than once (no include guard) is copied
    // as it is: one text cannot carry the guards of several inclusions.
    if (options_.headers) {
      std::map<unsigned, unsigned> entries;  // FileEntry UID -> times entered
      for (const SeenFiles::File &f : seen_.files)
        ++entries[sm.getFileEntryRefForID(f.fid)->getUID()];
      std::set<unsigned> done;
      HeaderNames names(sm, ci_.getFileManager(), file_name_, options_.clang_names);
      for (const SeenFiles::File &f : seen_.files) {
        if (f.fid == sm.getMainFileID() || f.kind != SrcMgr::C_User) continue;
        FileEntryRef fe = *sm.getFileEntryRefForID(f.fid);
        if (!done.insert(fe.getUID()).second) continue;
        OutputFile out;
        out.name = names.of(f.fid);
        llvm::SmallString<256> dir(ci_.getFileManager().getCanonicalName(fe.getDir()));
        llvm::sys::path::append(dir, llvm::sys::path::filename(fe.getName()));
        out.path = dir.str().str();
        llvm::StringRef text = sm.getBufferData(f.fid);
        if (entries[fe.getUID()] == 1) {
          Edits hedits;
          RewriteContext hctx{ast, sm, ast.getLangOpts(), out.name, {}, hedits, result_.messages};
          hctx.fid = f.fid;
          hctx.original = text;
          hctx.omp_pragmas = seen_.pragmas[f.fid];
          hctx.decls = declsOf(f.fid, user_decls);
          const unsigned before = result_.guards;
          rewrite(hctx);
          out.guards = result_.guards - before;
          out.rewritten = !hedits.empty();
          out.text = withLineMarker(hedits.apply(text), out.name);
          if (out.rewritten)
            result_.messages.push_back("hcc: instrumented header " + out.name + ": " +
                                       std::to_string(out.guards) + " function guard(s)");
        } else {
          out.text = withLineMarker(text.str(), out.name);
          result_.messages.push_back("hcc: " + out.name +
                                     " is included more than once (no include guard): left "
                                     "uninstrumented");
        }
        result_.files.push_back(std::move(out));
      }
    }
    result_.ok = true;
  }

 private:
  // The rewriters on one file; counts add up over files.
  void rewrite(RewriteContext &ctx) {
    ctx.filter = options_.filter && !options_.filter->empty() ? options_.filter : nullptr;
    ctx.functions = options_.functions;
    ctx.min_size = options_.min_size;
    result_.guards += addFunctionGuards(ctx);
    result_.setjmp_marks += addSetjmpMarks(ctx);
    result_.user_regions += addUserRegionPragmas(ctx);
    if (options_.openmp) result_.openmp_directives += addOpenMPDirectives(ctx);
    result_.filtered += ctx.filtered;
    result_.left_out += ctx.left_out;
    result_.loops += ctx.loops;
  }

  // The declarations that may hold functions of `fid`: those that begin in
  // it, and those an #include of it (or of a file that includes it) sits
  // inside (`namespace ns {` #include "impl.h" `}`).
  std::vector<Decl *> declsOf(FileID fid, const std::vector<Decl *> &decls) {
    const SourceManager &sm = ci_.getSourceManager();
    std::vector<SourceLocation> includers;
    for (FileID f = fid; f.isValid() && f != sm.getMainFileID();) {
      SourceLocation at = sm.getIncludeLoc(f);
      if (at.isInvalid()) break;
      at = sm.getExpansionLoc(at);
      includers.push_back(at);
      f = sm.getFileID(at);
    }
    std::vector<Decl *> out;
    for (Decl *d : decls) {
      SourceLocation b = sm.getExpansionLoc(d->getBeginLoc().isValid() ? d->getBeginLoc()
                                                                       : d->getLocation());
      SourceLocation e = sm.getExpansionLoc(d->getEndLoc().isValid() ? d->getEndLoc() : b);
      bool mine = sm.getFileID(sm.getExpansionLoc(d->getLocation())) == fid;
      for (size_t i = 0; !mine && i < includers.size(); ++i) {
        SourceLocation at = includers[i];
        mine = sm.getFileID(at) == sm.getFileID(b) && sm.getFileID(at) == sm.getFileID(e) &&
               !sm.isBeforeInTranslationUnit(at, b) && !sm.isBeforeInTranslationUnit(e, at);
      }
      if (mine) out.push_back(d);
    }
    return out;
  }

  CompilerInstance &ci_;
  const std::string &file_name_;
  const Options &options_;
  const ParseInput &input_;
  SeenFiles &seen_;
  Result &result_;
};

class InstrumentAction : public ASTFrontendAction {
 public:
  InstrumentAction(const std::string &file_name, const Options &options, const ParseInput &input,
                   Result &result)
      : file_name_(file_name), options_(options), input_(input), result_(result) {}

 protected:
  bool BeginInvocation(CompilerInstance &ci) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    // Without carets Clang does not print "N errors generated." either: the
    // tool must stay silent unless --verbose (ErrorCollector has the errors).
    ci.getDiagnosticOpts().ShowCarets = false;
    // Freeing a large AST takes measurable time; the tool exits right after.
    if (options_.leak_ast) ci.getFrontendOpts().DisableFree = true;
    // The main file's leading system headers from their precompiled
    // preamble, as clangd does (its inputs were checked when it was found).
    if (input_.preamble) {
      PreprocessorOptions &pp = ci.getPreprocessorOpts();
      pp.ImplicitPCHInclude = input_.preamble->pch;
      pp.PrecompiledPreambleBytes = {input_.preamble->size, input_.preamble->ends_at_start_of_line};
      pp.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
      pp.UsePredefines = false;
    }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, StringRef) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<FileRecorder>(ci.getSourceManager(), seen_));
    return std::make_unique<InstrumentConsumer>(ci, file_name_, options_, input_, seen_, result_);
  }

 private:
  const std::string &file_name_;
  const Options &options_;
  const ParseInput &input_;
  Result &result_;
  SeenFiles seen_;
};

// One parse of `source` (as `fs` has it) and the rewrite; `errors` says
// where it failed.
bool parseOnce(const ClangCommand &cmd, const std::string &file_name, const Options &options,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, const ParseInput &input,
               Result &result, std::unique_ptr<ErrorCollector> &errors) {
  errors = std::make_unique<ErrorCollector>(result.messages, file_name);
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(FileSystemOptions(), fs));
  tooling::ToolInvocation invocation(
      cmd.argv, std::make_unique<InstrumentAction>(file_name, options, input, result),
      files.get());
  invocation.setDiagnosticConsumer(errors.get());
  bool ran = invocation.run();
  return ran && errors->getNumErrors() == 0 && result.ok;
}

// `fs` with `text` in place of the file `path`.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> withFile(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, const std::string &path,
    const std::string &text) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(fs));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
      new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  return overlay;
}

std::string lineOf(const std::string &text, unsigned offset) {
  return std::to_string(1 + std::count(text.begin(), text.begin() + std::min<size_t>(offset, text.size()), '\n'));
}

Result run(const std::string &source, const std::vector<std::string> &compile_args,
           const Options &options, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs) {
  Result result;
  const std::string file_name =
      options.main_file_name.empty() ? source : options.main_file_name;
  ClangCommand cmd = clangCommand(source, compile_args);
  for (const std::string &d : cmd.dropped)
    result.messages.push_back("hcc: not passing '" + d + "' to the instrumentor's parser");

  llvm::IntrusiveRefCntPtr<RecordingFileSystem> recorder(new RecordingFileSystem(fs));
  fs = recorder;
  ParseInput input;
  std::unique_ptr<ErrorCollector> errors;
  std::vector<std::string> preamble_inputs;
  if (options.cache.enabled() && (cmd.language == "c" || cmd.language == "c++"))
    input.preamble =
        preparePreamble(options.cache, cmd, source, fs, result.messages, preamble_inputs,
                        options.defer);
  if (input.preamble) {
    if (parseOnce(cmd, file_name, options, fs, input, result, errors)) {
      result.inputs = recorder->paths();
      result.inputs.insert(result.inputs.end(), preamble_inputs.begin(), preamble_inputs.end());
      return result;
    }
    // Whatever went wrong, the plain way decides.
    std::vector<std::string> keep = result.messages;
    result = Result();
    result.messages = std::move(keep);
    result.messages.push_back("hcc: " + file_name + ": parsing again without the precompiled preamble");
    input.preamble.reset();
  }
  if (parseOnce(cmd, file_name, options, fs, input, result, errors)) {
    result.inputs = recorder->paths();
    return result;
  }

  // Only OpenMP text Clang 19 cannot parse? Then blank it and parse again,
  // at most a few rounds (a blanked clause can reveal the next error).
  std::string text;
  if (errors->getNumErrors() > 0 && !errors->elsewhere() && !errors->mainOffsets().empty()) {
    if (auto buffer = fs->getBufferForFile(source)) {
      input.original = (*buffer)->getBuffer().str();
      text = input.original;
    }
  }
  for (int round = 0; round < 4 && !input.original.empty(); ++round) {
    if (errors->elsewhere() || !blankUnparsedOpenMP(text, errors->mainOffsets(), input.blanked))
      break;
    Result again;
    again.messages = std::move(result.messages);
    const size_t keep = again.messages.size();
    if (parseOnce(cmd, file_name, options, withFile(fs, source, text), input, again, errors)) {
      // Clang's complaints become notes: the file is instrumented after all.
      for (size_t i = 0; i < keep; ++i) {
        std::string &m = again.messages[i];
        size_t at = m.find("error: ");
        if (at != std::string::npos) m.replace(at, 7, "not parsed by Clang 19: ");
      }
      again.inputs = recorder->paths();
      for (const BlankedPragma &b : input.blanked)
        again.messages.push_back(
            "hcc: " + file_name + ":" + lineOf(input.original, b.begin) +
            (b.whole ? ": this OpenMP directive is left as written (and not measured); the rest "
                       "of the file is instrumented"
                     : ": OpenMP clause '" + b.clause + "' (not parsed by Clang 19) kept as written"));
      return again;
    }
    result = std::move(again);
  }

  if (errors->getNumErrors() == 0)
    result.messages.push_back("hcc: " + file_name + ": could not parse the file");
  result.ok = false;
  result.output.clear();
  return result;
}

}  // namespace

Result instrumentFile(const std::string &source, const std::vector<std::string> &compile_args,
                      const Options &options) {
  return run(source, compile_args, options, llvm::vfs::getRealFileSystem());
}

Result instrumentCode(const std::string &code, const std::string &path,
                      const std::vector<std::string> &compile_args, const Options &options,
                      const std::map<std::string, std::string> &extra_files) {
  // In-memory files over the real file system: system headers still come
  // from disk.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
      new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(code, path));
  for (const auto &[name, text] : extra_files)
    memory->addFile(name, 0, llvm::MemoryBuffer::getMemBufferCopy(text, name));
  return run(path, compile_args, options, overlay);
}

}  // namespace hcc::rewriter
