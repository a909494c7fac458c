#include "call_free.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/Builtins.h>

using namespace clang;

namespace hcc::rewriter {
namespace {

// A call of a builtin that runs no user code: Clang marks library builtins
// such as fabs or strlen `const`/`pure`, and `__builtin_*` are the compiler's.
bool harmlessBuiltin(const CallExpr *call) {
  const FunctionDecl *fd = call->getDirectCallee();
  if (!fd) return false;
  const unsigned id = fd->getBuiltinID();
  if (id == 0) return false;
  const Builtin::Context &info = fd->getASTContext().BuiltinInfo;
  if (info.isConst(id) || info.isPure(id)) return true;
  return fd->getName().starts_with("__builtin_");
}

bool runsCode(const CXXRecordDecl *rd, bool constructing, const CXXConstructorDecl *ctor) {
  if (constructing) return ctor && !ctor->isTrivial();
  return rd && rd->hasDefinition() && !rd->hasTrivialDestructor();
}

class CallFinder : public RecursiveASTVisitor<CallFinder> {
 public:
  bool found = false;

  bool VisitCallExpr(CallExpr *call) {
    if (!harmlessBuiltin(call)) found = true;
    return !found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *e) {
    if (runsCode(nullptr, true, e->getConstructor())) found = true;
    return !found;
  }
  bool VisitVarDecl(VarDecl *v) {
    QualType t = v->getType();
    if (t->isDependentType()) found = true;
    else if (const CXXRecordDecl *rd = t->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      if (runsCode(rd, false, nullptr)) found = true;
    return !found;
  }
  bool VisitExpr(Expr *e) {
    // Bound for destruction, built by code at run time, or waiting for the
    // template's arguments (an operator may become a call).
    if (isa<CXXBindTemporaryExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, CXXUnresolvedConstructExpr,
            CXXDependentScopeMemberExpr, UnresolvedLookupExpr, UnresolvedMemberExpr, CoawaitExpr,
            CoyieldExpr, LambdaExpr, StmtExpr>(e))
      found = true;
    else if (e->isTypeDependent() && !isa<DeclRefExpr, DependentScopeDeclRefExpr, ParenExpr>(e))
      found = true;
    return !found;
  }
  bool VisitStmt(Stmt *s) {
    if (isa<AsmStmt, CXXTryStmt, CoroutineBodyStmt, OMPExecutableDirective>(s)) found = true;
    return !found;
  }
};

}  // namespace

bool callsNothing(const Stmt *body) {
  if (!body) return false;
  CallFinder f;
  f.TraverseStmt(const_cast<Stmt *>(body));
  return !f.found;
}

}  // namespace hcc::rewriter
