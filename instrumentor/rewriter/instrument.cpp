#include "instrument.h"

#include "compile_args.h"
#include "edits.h"
#include "function_guards.h"
#include "naming.h"
#include "openmp_directives.h"
#include "rewrite_context.h"
#include "setjmp_marks.h"
#include "user_regions.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace hcc::rewriter {

using namespace clang;

namespace {

// Parse errors mean the file is not what Clang can rewrite safely; hcc then
// compiles the original and the real compiler reports. We only keep one line
// per error for --verbose.
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
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager &sm = info.getSourceManager();
      PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        std::string file = p.getFileID() == sm.getMainFileID() ? file_name_ : p.getFilename();
        where = file + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) +
                ": ";
      }
    }
    messages_.push_back("hcc: " + where + "error: " + text.str().str());
  }

 private:
  std::vector<std::string> &messages_;
  std::string file_name_;
};

class InstrumentConsumer : public ASTConsumer {
 public:
  InstrumentConsumer(CompilerInstance &ci, const std::string &file_name, const Options &options,
                     Result &result)
      : ci_(ci), file_name_(file_name), options_(options), result_(result) {}

  // The speed trick: header function bodies are neither parsed nor checked,
  // so a file that includes half the standard library costs a fraction of a
  // real compile. Sema still parses the bodies it needs to know (constexpr
  // functions, deduced return types). Main-file bodies are parsed: they are
  // what we rewrite.
  bool shouldSkipFunctionBody(Decl *d) override {
    const SourceManager &sm = ci_.getSourceManager();
    return !sm.isInMainFile(sm.getExpansionLoc(d->getLocation()));
  }

  void HandleTranslationUnit(ASTContext &ast) override {
    // A file with errors is compiled as it is; never rewrite half-understood code.
    if (ci_.getDiagnostics().hasErrorOccurred()) return;

    SourceManager &sm = ast.getSourceManager();
    Edits edits;
    RewriteContext ctx{ast, sm, ast.getLangOpts(), file_name_, {}, edits, result_.messages, {}};
    for (Decl *d : ast.getTranslationUnitDecl()->decls()) {
      // The name's location: abbreviated function templates (`void f(auto)`)
      // have no begin location of their own.
      if (!d->isImplicit() && ctx.expandsInMainFile(d->getLocation()))
        ctx.main_decls.push_back(d);
    }

    ctx.filter = options_.filter && !options_.filter->empty() ? options_.filter : nullptr;
    result_.guards = addFunctionGuards(ctx);
    result_.setjmp_marks = addSetjmpMarks(ctx);
    result_.user_regions = addUserRegionPragmas(ctx);
    if (options_.openmp) result_.openmp_directives = addOpenMPDirectives(ctx);
    result_.filtered = ctx.filtered;
    result_.loops = ctx.loops;

    // #line keeps the user's name for diagnostics, __FILE__ and debug info,
    // whatever temporary path the rewritten text is compiled from.
    std::string text = edits.apply(sm.getBufferData(sm.getMainFileID()));
    // A UTF-8 byte order mark is only skipped at the very start of a file.
    const llvm::StringRef bom = "\xEF\xBB\xBF";
    if (llvm::StringRef(text).starts_with(bom)) {
      result_.output = bom.str();
      text.erase(0, bom.size());
    }
    result_.output += "#line 1 " + quoteCString(file_name_) + "\n";
    result_.output += text;
    result_.ok = true;
  }

 private:
  CompilerInstance &ci_;
  const std::string &file_name_;
  const Options &options_;
  Result &result_;
};

class InstrumentAction : public ASTFrontendAction {
 public:
  InstrumentAction(const std::string &file_name, const Options &options, Result &result)
      : file_name_(file_name), options_(options), result_(result) {}

 protected:
  bool BeginInvocation(CompilerInstance &ci) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    // Without carets Clang does not print "N errors generated." either: the
    // tool must stay silent unless --verbose (ErrorCollector has the errors).
    ci.getDiagnosticOpts().ShowCarets = false;
    // Freeing a large AST takes measurable time; the tool exits right after.
    if (options_.leak_ast) ci.getFrontendOpts().DisableFree = true;
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, StringRef) override {
    return std::make_unique<InstrumentConsumer>(ci, file_name_, options_, result_);
  }

 private:
  const std::string &file_name_;
  const Options &options_;
  Result &result_;
};

Result run(const std::string &source, const std::vector<std::string> &compile_args,
           const Options &options, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs) {
  Result result;
  const std::string file_name =
      options.main_file_name.empty() ? source : options.main_file_name;
  ClangCommand cmd = clangCommand(source, compile_args);
  for (const std::string &d : cmd.dropped)
    result.messages.push_back("hcc: not passing '" + d + "' to the instrumentor's parser");

  ErrorCollector errors(result.messages, file_name);
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(FileSystemOptions(), fs));
  tooling::ToolInvocation invocation(
      cmd.argv, std::make_unique<InstrumentAction>(file_name, options, result), files.get());
  invocation.setDiagnosticConsumer(&errors);
  bool ran = invocation.run();

  if (!ran || errors.getNumErrors() > 0 || !result.ok) {
    if (errors.getNumErrors() == 0)
      result.messages.push_back("hcc: " + file_name + ": could not parse the file");
    result.ok = false;
    result.output.clear();
  }
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
