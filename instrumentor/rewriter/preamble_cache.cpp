#include "preamble_cache.h"

#include "private_dir.hpp"
#include "recording_fs.h"
#include "result_cache.h"


#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/PCHContainerOperations.h>
#include <clang/Frontend/PrecompiledPreamble.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

#include <fcntl.h>
#include <unistd.h>

#include <cctype>

namespace hcc::rewriter {

using namespace clang;
namespace fs = llvm::sys::fs;

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }

// The preamble up to the start of the line of its first quoted #include
// (a project header: parsed with the rest, so it can be rewritten).
unsigned cutAtQuotedInclude(llvm::StringRef text, unsigned size) {
  size_t line = 0;
  while (line < size) {
    size_t i = line;
    while (i < size && isBlank(text[i])) ++i;
    if (i < size && text[i] == '#') {
      ++i;
      while (i < size && isBlank(text[i])) ++i;
      size_t w = i;
      while (w < size && std::isalpha(static_cast<unsigned char>(text[w]))) ++w;
      llvm::StringRef word = text.slice(i, w);
      if (word == "include" || word == "import" || word == "include_next") {
        while (w < size && isBlank(text[w])) ++w;
        if (w < size && text[w] == '"') return unsigned(line);
      }
    }
    size_t eol = text.find('\n', line);
    if (eol == llvm::StringRef::npos) break;
    line = eol + 1;
  }
  return size;
}

// Whether the preamble can look a file up beside the main file, which makes
// its meaning depend on the main file's directory. Only a name that is not
// in angle brackets can: __has_include("x.h") (and _next, __has_embed),
// #embed "x", #pragma GCC dependency "x", an #include of a macro (which
// may hold "x.h", from the preamble or from a -D); a quoted #include ends
// the preamble before it. A string anywhere else — `#define VERSION "1.2"`,
// an #error message, a licence comment's "AS IS" — names no file, so it does
// not keep the files of different directories from sharing. Token pasting
// and _Pragma could build any of these: with a string around, they count.
bool mayLookBesideMainFile(llvm::StringRef preamble, const LangOptions &lang) {
  // The lexer reads up to a NUL at the buffer's end; the preamble is a
  // prefix of the file, so it gets a copy that has one.
  const std::string text = preamble.str();
  Lexer lexer(SourceLocation(), lang, text.data(), text.data(), text.data() + text.size());
  bool has_string = false, builds_names = false;
  // The token after a directive's name or after `__has_include(`: its
  // operand, which looks beside the main file unless it is `<...>`.
  enum { kNone, kAfterHash, kOperand, kAfterProbe } state = kNone;
  Token tok;
  while (true) {
    const bool last = lexer.LexFromRawLexer(tok);
    if (tok.is(tok::eof)) break;
    const bool at_line_start = tok.isAtStartOfLine();
    if (state == kOperand) {
      if (!tok.is(tok::less) && !at_line_start) return true;
      state = kNone;
    } else if (state == kAfterProbe) {
      state = tok.is(tok::l_paren) ? kOperand : kNone;
      if (state == kOperand) continue;
    } else if (state == kAfterHash) {
      state = kNone;
      if (tok.is(tok::raw_identifier) && !at_line_start) {
        const llvm::StringRef word = tok.getRawIdentifier();
        if (word == "include" || word == "import" || word == "include_next" || word == "embed") state = kOperand;
        continue;
      }
    }
    if (tok::isStringLiteral(tok.getKind())) has_string = true;
    if (tok.is(tok::hashhash)) builds_names = true;
    if (tok.is(tok::hash) && at_line_start) state = kAfterHash;
    if (tok.is(tok::raw_identifier)) {
      const llvm::StringRef word = tok.getRawIdentifier();
      if (word == "__has_include" || word == "__has_include_next" || word == "__has_embed")
        state = kAfterProbe;
      else if (word == "dependency" || word == "_Pragma")
        builds_names = true;
    }
    if (last) break;
  }
  return has_string && builds_names;
}

// Watches the precompilation: a non-system file other than the main one
// makes the preamble unusable (its functions must be rewritten).
class UserFileWatch : public PreambleCallbacks {
 public:
  void BeforeExecute(CompilerInstance &ci) override { sm_ = &ci.getSourceManager(); }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    struct Watch : PPCallbacks {
      explicit Watch(UserFileWatch &w) : w_(w) {}
      void FileChanged(SourceLocation loc, FileChangeReason reason, SrcMgr::CharacteristicKind kind,
                       FileID) override {
        if (reason != EnterFile || kind != SrcMgr::C_User || !w_.sm_ || !loc.isFileID()) return;
        FileID fid = w_.sm_->getFileID(loc);
        if (fid != w_.sm_->getMainFileID() && w_.sm_->getFileEntryRefForID(fid)) w_.user = true;
      }
      UserFileWatch &w_;
    };
    return std::make_unique<Watch>(*this);
  }
  bool user = false;

 private:
  const SourceManager *sm_ = nullptr;
};


// What precompiling one preamble needs; copied into a deferred job.
struct Precompilation {
  std::shared_ptr<CompilerInvocation> inv;
  std::shared_ptr<llvm::MemoryBuffer> buffer;  // the main file
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs;
  IntrusiveRefCntPtr<DiagnosticsEngine> diags;
  CacheDir pch;  // the checked pch/ directory: <key>.pch, <key>.deps, <key>.seen
  std::string key, source, abs_source;
  unsigned size = 0;
  bool eol = true;
};

// Precompiles `p`'s preamble into <key>.pch and records what it read in
// <key>.deps, sealed (or marks it unusable). Clang writes the PCH by name:
// into the pinned path of the checked directory, so nothing it opens can be
// redirected; the cache's own files are written with *at calls.
std::optional<PreambleUse> precompile(const Precompilation &p, std::vector<std::string> &messages,
                                      std::vector<std::string> &inputs) {
  llvm::IntrusiveRefCntPtr<RecordingFileSystem> recorder(new RecordingFileSystem(p.vfs));
  UserFileWatch watch;
  // As in the instrumentor's own parse: system headers' function bodies are
  // skipped (else they would be instantiated with every use).
  p.inv->getFrontendOpts().SkipFunctionBodies = true;
  llvm::ErrorOr<PrecompiledPreamble> pre = PrecompiledPreamble::Build(
      *p.inv, p.buffer.get(), PreambleBounds(p.size, p.eol), *p.diags, recorder,
      std::make_shared<PCHContainerOperations>(), /*StoreInMemory=*/false, p.pch.pinnedPath(), watch);
  if (!pre) return std::nullopt;
  std::string record = watch.user ? "unusable\n" : "usable\n";
  // The main file itself is not a dependency: the preamble's bytes of it
  // are in the key, and the rest of it may change.
  llvm::SmallString<256> main_path(p.abs_source);
  llvm::sys::path::remove_dots(main_path, /*remove_dot_dot=*/false);
  std::vector<std::string> deps;
  for (const std::string &d : recorder->paths())
    if (d != main_path) deps.push_back(d);
  for (const std::string &d : deps) record += d + "\t" + inputRecord(d) + "\n";
  std::string error;
  if (watch.user) {
    rt::replace_file_at(p.pch.fd(), p.key + ".deps", seal(p.key, record), error);
    return std::nullopt;
  }
  // Where Build put the PCH (a temporary it would remove): keep it.
  CompilerInvocation probe(*p.inv);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> probe_fs = p.vfs;
  pre->OverridePreamble(probe, probe_fs, p.buffer.get());
  const std::string built = probe.getPreprocessorOpts().ImplicitPCHInclude;
  const std::string pinned = p.pch.pinnedPath() + "/";
  if (built.compare(0, pinned.size(), pinned) != 0) return std::nullopt;
  const std::string built_name = built.substr(pinned.size()), pch_name = p.key + ".pch";
  if (built_name.find('/') != std::string::npos ||
      ::renameat(p.pch.fd(), built_name.c_str(), p.pch.fd(), pch_name.c_str()) != 0)
    return std::nullopt;
  if (!rt::replace_file_at(p.pch.fd(), p.key + ".deps", seal(p.key, record), error)) return std::nullopt;
  ::unlinkat(p.pch.fd(), (p.key + ".seen").c_str(), 0);  // gone already when deferred
  inputs.insert(inputs.end(), deps.begin(), deps.end());
  messages.push_back("hcc: " + p.source + ": precompiled its leading system headers for the next time");
  return PreambleUse{pinned + pch_name, p.pch, p.size, p.eol};
}

}  // namespace

std::optional<PreambleUse> preparePreamble(const CacheDir &cache, const ClangCommand &cmd,
                                           const std::string &source,
                                           llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs,
                                           std::vector<std::string> &messages,
                                           std::vector<std::string> &inputs,
                                           const std::function<bool(std::function<void()>)> &defer) {
  auto buffer = vfs->getBufferForFile(source);
  if (!buffer) return std::nullopt;
  IntrusiveRefCntPtr<DiagnosticsEngine> diags = CompilerInstance::createDiagnostics(
      new DiagnosticOptions, new IgnoringDiagConsumer, /*ShouldOwnClient=*/true);
  CreateInvocationOptions opts;
  opts.Diags = diags;
  opts.VFS = vfs;
  std::vector<const char *> argv;
  for (const std::string &a : cmd.argv) argv.push_back(a.c_str());
  std::shared_ptr<CompilerInvocation> inv = createInvocation(argv, opts);
  if (!inv) return std::nullopt;

  const llvm::StringRef text = (*buffer)->getBuffer();
  PreambleBounds bounds = ComputePreambleBounds(inv->getLangOpts(), (*buffer)->getMemBufferRef(), 0);
  const unsigned size = cutAtQuotedInclude(text, bounds.Size);
  const bool eol = size == bounds.Size ? bounds.PreambleEndsAtStartOfLine : true;
  if (size == 0) return std::nullopt;

  llvm::SmallString<256> cwd, abs_source(source);
  fs::current_path(cwd);
  fs::make_absolute(abs_source);
  fs::file_status exe;
  const std::string self = fs::getMainExecutable(nullptr, nullptr);
  if (fs::status(self, exe)) return std::nullopt;
  std::vector<std::string> parts = {
      "preamble", self, std::to_string(exe.getSize()),
      std::to_string(exe.getLastModificationTime().time_since_epoch().count()), cwd.str().str(),
      text.substr(0, size).str(), eol ? "eol" : "no-eol"};
  // Not the main file's name (preamble_cache.h): files that begin alike share.
  for (const std::string &a : cmd.argv)
    parts.push_back(a == source ? "<main file>" + llvm::sys::path::extension(a).str() : a);
  // Except where the preamble may name a file that is looked up beside the
  // main file first: its directory goes in.
  if (mayLookBesideMainFile(text.substr(0, size), inv->getLangOpts()))
    parts.push_back(llvm::sys::path::parent_path(abs_source).str());
  const std::string key = ResultCache::key(parts);
  // pch/ under the cache's rule (one another user made is refused).
  const CacheDir pch = cache.subdirectory("pch");
  if (!pch.enabled()) return std::nullopt;

  // A stored one: its record (sealed, ours) says whether it is usable and
  // what it read.
  std::string stored, error;
  std::optional<llvm::StringRef> record;
  if (rt::read_private_file_at(pch.fd(), key + ".deps", stored, error, kMaxEntryBytes))
    record = unseal(key, stored);
  if (record) {
    llvm::SmallVector<llvm::StringRef, 256> lines;
    record->split(lines, '\n', -1, /*KeepEmpty=*/false);
    // A preamble that reached one of the project's headers will again (its
    // text, command line and directory are in the key): no new attempt to
    // precompile it when its inputs change (a configure run rewriting
    // config.h made every rebuild pay a discarded precompilation).
    if (!lines.empty() && lines[0] == "unusable") return std::nullopt;
    bool fresh = !lines.empty();
    std::vector<std::string> deps;
    for (size_t i = 1; fresh && i < lines.size(); ++i) {
      auto [path, sig] = lines[i].split('\t');
      fresh = inputUnchanged(path.str(), sig);
      deps.push_back(path.str());
    }
    if (fresh) {
      if (lines[0] != "usable") return std::nullopt;
      if (rt::private_file_exists_at(pch.fd(), key + ".pch")) {
        inputs.insert(inputs.end(), deps.begin(), deps.end());
        messages.push_back("hcc: " + source + ": system headers from a precompiled preamble");
        return PreambleUse{pch.pinnedPath() + "/" + key + ".pch", pch, size, eol};
      }
    }
  }

  // Precompile it the second time it is needed: a first build of a project
  // (each file once) pays nothing for preambles no file will use again.
  const std::string seen = key + ".seen";
  if (!rt::private_file_exists_at(pch.fd(), seen)) {
    rt::replace_file_at(pch.fd(), seen, "", error);
    return std::nullopt;
  }
  Precompilation job{inv, std::shared_ptr<llvm::MemoryBuffer>(std::move(*buffer)), vfs, diags,
                     pch, key, source, abs_source.str().str(), size, eol};
  if (defer) {
    // Taken by whoever removes the mark: of two files seen at once, one
    // precompiles (a job that dies leaves no mark; the next sighting
    // makes one again).
    if (::unlinkat(pch.fd(), seen.c_str(), 0) != 0) return std::nullopt;
    if (defer([job] {
          std::vector<std::string> ignored_messages, ignored_inputs;
          precompile(job, ignored_messages, ignored_inputs);
        })) {
      messages.push_back("hcc: " + source +
                         ": precompiling its leading system headers after this file, for the next ones");
      return std::nullopt;
    }
  }
  return precompile(job, messages, inputs);
}

}  // namespace hcc::rewriter
