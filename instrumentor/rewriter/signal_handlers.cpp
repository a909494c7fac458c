#include "signal_handlers.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <vector>

namespace hcc::rewriter {

using namespace clang;

namespace {

// The functions `e` names without calling them: a function, &function, a
// captureless lambda (its call operator), through casts and conditionals.
void functionsNamedIn(const Stmt *e, std::vector<const FunctionDecl *> &out) {
  if (!e) return;
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    if (const auto *fd = dyn_cast<FunctionDecl>(ref->getDecl())) out.push_back(fd);
    return;
  }
  if (const auto *lambda = dyn_cast<LambdaExpr>(e)) {
    out.push_back(lambda->getCallOperator());
    return;
  }
  if (const auto *call = dyn_cast<CallExpr>(e)) {
    // What a call returns is not a name; a lambda's conversion to a
    // function pointer is a member call on the lambda, which is.
    if (isa<CXXMemberCallExpr>(call)) functionsNamedIn(cast<CXXMemberCallExpr>(call)->getImplicitObjectArgument(), out);
    return;
  }
  for (const Stmt *child : e->children()) functionsNamedIn(child, out);
}

class Finder : public RecursiveASTVisitor<Finder> {
 public:
  Finder(ASTContext &ast, SignalHandlers &found) : ast_(ast), found_(found) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  // System headers install no handler of the program's.
  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        ast_.getSourceManager().isInSystemHeader(ast_.getSourceManager().getExpansionLoc(d->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || call->getNumArgs() < 2) return true;
    if (const IdentifierInfo *id = callee->getIdentifier()) {
      llvm::StringRef n = id->getName();
      if (n == "signal" || n == "sigset" || n == "bsd_signal" || n == "sysv_signal" || n == "__sysv_signal")
        installed(call->getArg(1), call->getBeginLoc());
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *op) {
    if (op->getOpcode() != BO_Assign) return true;
    if (const auto *member = dyn_cast<MemberExpr>(op->getLHS()->IgnoreParenImpCasts()))
      if (const IdentifierInfo *id = member->getMemberDecl()->getIdentifier();
          id && (id->getName() == "sa_handler" || id->getName() == "sa_sigaction"))
        installed(op->getRHS(), op->getBeginLoc());
    return true;
  }

  bool VisitInitListExpr(InitListExpr *init) {
    if (const auto *record = init->getType()->getAsRecordDecl())
      if (const IdentifierInfo *id = record->getIdentifier(); id && id->getName() == "sigaction")
        installed(init, init->getBeginLoc());
    return true;
  }

  std::vector<const FunctionDecl *> roots;

 private:
  void installed(const Expr *handler, SourceLocation at) {
    std::vector<const FunctionDecl *> named;
    functionsNamedIn(handler, named);
    const SourceManager &sm = ast_.getSourceManager();
    const SourceLocation where = sm.getExpansionLoc(at);
    std::string place = std::string(llvm::sys::path::filename(sm.getFilename(where))) + ":" +
                        std::to_string(sm.getExpansionLineNumber(where));
    for (const FunctionDecl *fd : named) {
      fd = fd->getCanonicalDecl();
      if (found_.emplace(fd, "signal handler (installed at " + place + ")").second) roots.push_back(fd);
    }
  }
  ASTContext &ast_;
  SignalHandlers &found_;
};

// The functions a body calls directly (with a body to look into later).
void calleesOf(const Stmt *s, std::vector<const FunctionDecl *> &out) {
  if (!s) return;
  if (const auto *call = dyn_cast<CallExpr>(s))
    if (const FunctionDecl *callee = call->getDirectCallee()) out.push_back(callee);
  if (const auto *ctor = dyn_cast<CXXConstructExpr>(s))
    if (const FunctionDecl *callee = ctor->getConstructor()) out.push_back(callee);
  for (const Stmt *child : s->children()) calleesOf(child, out);
}

}  // namespace

SignalHandlers findSignalHandlers(ASTContext &ast) {
  SignalHandlers found;
  Finder finder(ast, found);
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  // What the handlers call runs in the handler too.
  for (const FunctionDecl *root : finder.roots) {
    const std::string by = root->getNameAsString();
    std::vector<const FunctionDecl *> todo{root};
    while (!todo.empty()) {
      const FunctionDecl *fd = todo.back();
      todo.pop_back();
      const FunctionDecl *def = fd->getDefinition();
      if (!def || !def->getBody()) continue;
      std::vector<const FunctionDecl *> callees;
      calleesOf(def->getBody(), callees);
      for (const FunctionDecl *c : callees)
        if (found.emplace(c->getCanonicalDecl(), "called from the signal handler '" + by + "'").second)
          todo.push_back(c);
    }
  }
  return found;
}

}  // namespace hcc::rewriter
