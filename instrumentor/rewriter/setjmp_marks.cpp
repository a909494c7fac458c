#include "setjmp_marks.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include <set>

namespace hcc::rewriter {

using namespace clang;

namespace {

bool isSetjmpName(llvm::StringRef name) {
  return name == "setjmp" || name == "_setjmp" || name == "sigsetjmp" ||
         name == "__sigsetjmp";
}

// The setjmp-family function a call goes to, by name; also in templates,
// where a call with a dependent argument is not resolved yet.
bool callsSetjmp(const CallExpr *call) {
  if (const FunctionDecl *callee = call->getDirectCallee()) {
    // Only the C library's (extern "C") functions, not a method that
    // happens to be called setjmp.
    return callee->getIdentifier() && isSetjmpName(callee->getName()) &&
           callee->isExternC();
  }
  if (const auto *lookup =
          dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts())) {
    return !lookup->getQualifier() && lookup->getName().isIdentifier() &&
           isSetjmpName(lookup->getName().getAsIdentifierInfo()->getName());
  }
  return false;
}

class SetjmpFinder : public RecursiveASTVisitor<SetjmpFinder> {
 public:
  explicit SetjmpFinder(RewriteContext &ctx) : ctx_(ctx) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitCallExpr(CallExpr *call) {
    if (call->getNumArgs() < 1 || !callsSetjmp(call)) return true;
    if (!ctx_.expandsInFile(call->getBeginLoc())) return true;

    // The call as written: `setjmp(env)` even when glibc's macro turned it
    // into `_setjmp (env)`. Fails (invalid range) when the call is only part
    // of a larger macro, where there is no text of its own to wrap.
    const SourceManager &sm = ctx_.sm;
    CharSourceRange written = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(call->getSourceRange()), sm, ctx_.lang);
    CharSourceRange env = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(call->getArg(0)->getSourceRange()), sm, ctx_.lang);
    if (written.isInvalid() || env.isInvalid() || !ctx_.isFileChar(written.getBegin()) ||
        !ctx_.isFileChar(written.getEnd())) {
      ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" +
                              std::to_string(ctx_.line(call->getBeginLoc())) +
                              ": leaving a setjmp call unmarked: it is inside a macro");
      return true;
    }
    unsigned begin = sm.getFileOffset(written.getBegin());
    if (!seen_.insert(begin).second) return true;

    llvm::StringRef envText = Lexer::getSourceText(env, sm, ctx_.lang);
    // The mark comes first: setjmp returns twice, and the second return must
    // find the mark already made.
    ctx_.edits.insert(begin, "(hcc_setjmp_mark(" + envText.str() + "), ");
    ctx_.edits.insert(sm.getFileOffset(written.getEnd()), ")");
    ++count_;
    return true;
  }

  unsigned count() const { return count_; }

 private:
  RewriteContext &ctx_;
  std::set<unsigned> seen_;
  unsigned count_ = 0;
};

}  // namespace

unsigned addSetjmpMarks(RewriteContext &ctx) {
  SetjmpFinder finder(ctx);
  for (Decl *d : ctx.decls) finder.TraverseDecl(d);
  return finder.count();
}

}  // namespace hcc::rewriter
