#include "function_size.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/SourceManager.h>

#include <cstring>

namespace hcc::rewriter {

using namespace clang;

namespace {

std::string plural(unsigned n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The definition whose body decides: a template instance's pattern (its text
// is what gets the guard), else the definition if this TU has one.
const FunctionDecl *definitionOf(const FunctionDecl *fd) {
  if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern()) fd = pattern;
  if (const FunctionDecl *def = fd->getDefinition()) return def;
  return fd;
}

bool isMpiName(llvm::StringRef n) { return n.starts_with("MPI_") || n.starts_with("PMPI_"); }

// `# pragma hcc|pomp|omp` inside the body's text: user regions are found by
// a text scan (user_regions.cpp), and OpenMP text Clang could not parse
// leaves no directive in the AST.
std::string pragmaIn(const SourceManager &sm, const Stmt *body) {
  SourceLocation b = body->getBeginLoc(), e = body->getEndLoc();
  if (!b.isFileID() || !e.isFileID() || sm.getFileID(b) != sm.getFileID(e)) return "";
  llvm::StringRef text = sm.getBufferData(sm.getFileID(b));
  unsigned from = sm.getFileOffset(b), to = sm.getFileOffset(e);
  if (to > text.size() || from > to) return "";
  llvm::StringRef s = text.slice(from, to);
  for (size_t at = s.find("pragma"); at != llvm::StringRef::npos; at = s.find("pragma", at + 6)) {
    size_t h = at;  // the `#` before it, blanks between
    while (h > 0 && (s[h - 1] == ' ' || s[h - 1] == '\t')) --h;
    if (h == 0 || s[h - 1] != '#') continue;
    llvm::StringRef rest = s.substr(at + 6).ltrim(" \t");
    for (const char *word : {"hcc", "pomp", "omp"})
      if (rest.starts_with(word) &&
          (rest.size() == std::strlen(word) || !isalnum(static_cast<unsigned char>(rest[std::strlen(word)]))))
        return std::string("has #pragma ") + word;
  }
  return "";
}

}  // namespace

// One pass over a body: counts statements and operations until something
// makes the function worth keeping whatever its size (`keep` says what);
// `unknown` keeps the first call of unknown cost, for the size to decide.
struct SizeRule::Walk {
  explicit Walk(SizeRule &r) : rule(r) {}
  SizeRule &rule;
  unsigned statements = 0, operations = 0;
  std::string keep, unknown;

  void unknownCost(std::string why) {
    if (unknown.empty()) unknown = std::move(why);
  }

  void call(const FunctionDecl *callee) {
    if (!callee || !keep.empty()) return;
    // A call that ends the program or is marked cold (assert's
    // __assert_fail, abort, a project's `[[noreturn]] fail()`) runs at most
    // once: it says nothing about what a call of this function costs, so a
    // comparator with an assert stays as small as it is.
    if (callee->isNoReturn() || callee->hasAttr<ColdAttr>()) return;
    if (const IdentifierInfo *id = callee->getIdentifier()) {
      if (isMpiName(id->getName())) {
        keep = "calls " + id->getName().str();
        return;
      }
      if (id->getName().starts_with("hcc_region_")) {
        keep = "opens a user region (" + id->getName().str() + ")";
        return;
      }
    }
    CallVerdict v = rule.callWorth(callee);
    if (v.worth == CallWorth::Keeps) keep = std::move(v.why);
    else if (v.worth == CallWorth::Unknown) unknownCost(std::move(v.why));
  }

  void stmt(const Stmt *s) {
    if (!s || !keep.empty()) return;
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) {
      keep = "has a loop";
      return;
    }
    if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) {
      keep = "has a goto";
      return;
    }
    if (isa<CXXTryStmt>(s)) {
      keep = "has try/catch";
      return;
    }
    if (isa<OMPExecutableDirective>(s)) {
      keep = "has an OpenMP directive";
      return;
    }
    if (isa<LambdaExpr>(s)) {  // its body is a function of its own
      ++operations;
      return;
    }
    if (const auto *block = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *child : block->body())
        if (!isa<NullStmt>(child)) ++statements;
    } else if (const auto *branch = dyn_cast<IfStmt>(s)) {
      for (const Stmt *part : {branch->getThen(), branch->getElse()})
        if (part && !isa<CompoundStmt>(part) && !isa<NullStmt>(part)) ++statements;
    } else if (const auto *c = dyn_cast<CallExpr>(s)) {
      ++operations;
      if (const FunctionDecl *callee = c->getDirectCallee()) {
        call(callee);
      } else if (const Expr *e = c->getCallee()) {
        e = e->IgnoreParenImpCasts();
        if (const auto *overloads = dyn_cast<OverloadExpr>(e)) {
          // Inside a template: any candidate by that name that is kept.
          for (const NamedDecl *d : overloads->decls()) {
            d = d->getUnderlyingDecl();
            if (const auto *t = dyn_cast<FunctionTemplateDecl>(d)) d = t->getTemplatedDecl();
            if (const auto *f = dyn_cast<FunctionDecl>(d)) call(f);
          }
        } else if (!e->isTypeDependent() && !e->isValueDependent() &&
                   !isa<CXXDependentScopeMemberExpr>(e) && !isa<DependentScopeDeclRefExpr>(e) &&
                   !isa<CXXPseudoDestructorExpr>(e)) {
          unknownCost("calls through a function pointer");
        }
      }
    } else if (const auto *ctor = dyn_cast<CXXConstructExpr>(s)) {
      const CXXConstructorDecl *cd = ctor->getConstructor();
      if (cd && !ctor->isElidable() && !cd->isTrivial() && !cd->isImplicit() && !cd->isDefaulted()) {
        ++operations;
        call(cd);
      }
    } else if (isa<UnaryOperator>(s) || isa<BinaryOperator>(s) || isa<AbstractConditionalOperator>(s) ||
               isa<ArraySubscriptExpr>(s) || isa<CXXNewExpr>(s) || isa<CXXDeleteExpr>(s) ||
               isa<CXXThrowExpr>(s)) {
      ++operations;
    }
    for (const Stmt *child : s->children()) stmt(child);
  }
};

bool SizeRule::userCode(SourceLocation loc) const {
  const SourceManager &sm = ast_.getSourceManager();
  return loc.isValid() && !sm.isInSystemHeader(sm.getExpansionLoc(loc));
}

SizeRule::CallVerdict SizeRule::callWorth(const FunctionDecl *callee) {
  if (callee->getBuiltinID() != 0 || callee->isImplicit() || callee->isDefaulted()) return {};
  const std::string name = callee->getQualifiedNameAsString();
  if (!userCode(callee->getLocation())) {
    // The standard library's inline functions and templates (vector's
    // operator[], std::min …): one operation, their bodies are not parsed.
    // A compiled library function (qsort, fopen, dgemm_) has a cost we
    // cannot see.
    if (callee->isInlined() || callee->isConstexpr() || callee->isTemplateInstantiation() ||
        callee->isDependentContext() || callee->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
      return {};
    if (const auto *md = dyn_cast<CXXMethodDecl>(callee);
        md && md->getParent()->getTemplateSpecializationKind() != TSK_Undeclared)
      return {};  // a member of a class template instance (defined inline, or extern template)
    return {CallWorth::Unknown, "calls '" + name + "', compiled in a library"};
  }
  const FunctionDecl *def = definitionOf(callee);
  if (in_progress_.count(def)) return {CallWorth::Keeps, "recursive (calls '" + name + "')"};
  if (!def->doesThisDeclarationHaveABody() || !def->getBody())
    return {CallWorth::Unknown, "calls '" + name + "', whose body is not in this file"};
  SizeVerdict v = judge(def);
  if (v.keep) return {CallWorth::Keeps, "calls '" + name + "', which is kept (" + v.reason + ")"};
  // Left out, but not bounded: what it calls is the caller's unknown too.
  if (!v.unknown_call.empty()) return {CallWorth::Unknown, "calls '" + name + "', which " + v.unknown_call};
  return {};  // a straight-line leaf
}

SizeVerdict SizeRule::judge(const FunctionDecl *fd) {
  const FunctionDecl *def = definitionOf(fd);
  if (auto it = memo_.find(def); it != memo_.end()) return it->second;
  if (in_progress_.count(def)) return {true, "recursive", ""};
  SizeVerdict v;
  if (def->isMain()) {
    v = {true, "main", ""};
  } else if (!def->getBody()) {
    v = {true, "body not parsed", ""};
  } else {
    in_progress_.insert(def);
    v = judgeBody(def, def->getBody());
    in_progress_.erase(def);
  }
  memo_[def] = v;
  return v;
}

SizeVerdict SizeRule::judgeBody(const FunctionDecl *fd, const Stmt *body) {
  std::string pragma = pragmaIn(ast_.getSourceManager(), body);
  if (!pragma.empty()) return {true, pragma, ""};
  Walk walk(*this);
  // A constructor's member initialisers run as part of calling it.
  if (const auto *ctor = dyn_cast<CXXConstructorDecl>(fd))
    for (const CXXCtorInitializer *init : ctor->inits())
      if (init->isWritten()) walk.stmt(init->getInit());
  walk.stmt(body);
  if (!walk.keep.empty()) return {true, walk.keep, ""};
  unsigned size = walk.statements + walk.operations;
  const std::string sz = std::to_string(size);
  if (walk.unknown.empty())
    return {false, "straight-line leaf: no loop, no call worth measuring (size " + sz + ")", ""};
  std::string counts = " (" + plural(walk.statements, "statement", "statements") + ", " +
                       plural(walk.operations, "operation", "operations") + ")";
  const std::string min = std::to_string(min_size_);
  if (size >= min_size_) return {true, walk.unknown + "; size " + sz + " >= " + min + counts, ""};
  return {false, "too small: size " + sz + " < " + min + counts + ", no loop; " + walk.unknown, walk.unknown};
}

}  // namespace hcc::rewriter
