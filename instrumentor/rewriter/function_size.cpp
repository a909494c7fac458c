#include "function_size.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

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

// The range of values an integer expression can take, from constants and
// the variables of enclosing bounded loops (their ranges); nullopt when it
// depends on anything else.
struct Range {
  int64_t lo, hi;
};
using LoopVars = std::vector<std::pair<const VarDecl *, Range>>;

std::optional<Range> rangeOf(const Expr *e, const ASTContext &ast, const LoopVars &vars) {
  if (!e || e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
  e = e->IgnoreParenImpCasts();
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ast)) {
    const llvm::APSInt &v = r.Val.getInt();
    if (v.getSignificantBits() > 40) return std::nullopt;
    return Range{v.getExtValue(), v.getExtValue()};
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    for (const auto &[var, range] : vars)
      if (var == ref->getDecl()) return range;
    return std::nullopt;
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    auto l = rangeOf(b->getLHS(), ast, vars), r2 = rangeOf(b->getRHS(), ast, vars);
    if (!l || !r2) return std::nullopt;
    switch (b->getOpcode()) {
      case BO_Add: return Range{l->lo + r2->lo, l->hi + r2->hi};
      case BO_Sub: return Range{l->lo - r2->hi, l->hi - r2->lo};
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

// The variable `e` names (implicit casts and parentheses aside), or null.
const VarDecl *varOf(const Expr *e) {
  if (!e) return nullptr;
  const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

// Whether `s` only reads `v`: every mention of it is a load (an lvalue-to-
// rvalue conversion), so no assignment, increment, address or reference.
bool onlyReads(const Stmt *s, const VarDecl *v) {
  if (!s) return true;
  if (const auto *cast = dyn_cast<ImplicitCastExpr>(s);
      cast && cast->getCastKind() == CK_LValueToRValue && varOf(cast->getSubExpr()) == v)
    return true;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == v) return false;
  for (const Stmt *child : s->children())
    if (!onlyReads(child, v)) return false;
  return true;
}

// A counted loop: `for (int v = A; v < B; ++v)` (also <=, and downwards
// with > / >= and --, a constant step with += / -=), A and B constants or
// sums of enclosing such loops' variables and constants, v only read in
// the body. Its iterations are at most `trips`, v stays in `range`: compilers
// unroll such loops completely when they are small (a 5x5 block product),
// so the function's work per call is bounded as a straight-line one's is.
struct CountedLoop {
  const VarDecl *var = nullptr;
  Range range{0, 0};
  uint64_t trips = 0;
};

std::optional<CountedLoop> countedLoop(const ForStmt *f, const ASTContext &ast, const LoopVars &vars) {
  const VarDecl *v = nullptr;
  const Expr *init = nullptr;
  if (const auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit()); ds && ds->isSingleDecl()) {
    v = dyn_cast<VarDecl>(ds->getSingleDecl());
    if (v) init = v->getInit();
  } else if (const auto *as = dyn_cast_or_null<BinaryOperator>(f->getInit()); as && as->getOpcode() == BO_Assign) {
    v = varOf(as->getLHS());
    init = as->getRHS();
  }
  if (!v || !init || !v->getType()->isIntegerType() || !v->hasLocalStorage()) return std::nullopt;
  const auto *cond = dyn_cast_or_null<BinaryOperator>(f->getCond());
  if (!cond || varOf(cond->getLHS()) != v) return std::nullopt;
  int64_t step = 0;
  const Expr *inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *u = dyn_cast_or_null<UnaryOperator>(inc); u && varOf(u->getSubExpr()) == v)
    step = u->isIncrementOp() ? 1 : u->isDecrementOp() ? -1 : 0;
  else if (const auto *c = dyn_cast_or_null<CompoundAssignOperator>(inc); c && varOf(c->getLHS()) == v) {
    Expr::EvalResult r;
    if (c->getRHS()->EvaluateAsInt(r, ast) && r.Val.getInt().getSignificantBits() <= 32) {
      const int64_t k = r.Val.getInt().getExtValue();
      step = c->getOpcode() == BO_AddAssign ? k : c->getOpcode() == BO_SubAssign ? -k : 0;
    }
  }
  const auto from = rangeOf(init, ast, vars), to = rangeOf(cond->getRHS(), ast, vars);
  if (step == 0 || !from || !to) return std::nullopt;
  if (!onlyReads(f->getBody(), v) || !onlyReads(f->getCond(), v)) return std::nullopt;
  const BinaryOperatorKind op = cond->getOpcode();
  CountedLoop loop{v};
  int64_t span;  // values v takes, at most
  if (step > 0 && (op == BO_LT || op == BO_LE)) {
    loop.range = {from->lo, op == BO_LT ? to->hi - 1 : to->hi};
    span = loop.range.hi - from->lo + 1;
  } else if (step < 0 && (op == BO_GT || op == BO_GE)) {
    loop.range = {op == BO_GT ? to->lo + 1 : to->lo, from->hi};
    span = from->hi - loop.range.lo + 1;
  } else {
    return std::nullopt;  // != could step past its bound; a direction that never ends
  }
  if (loop.range.lo > loop.range.hi) loop.range.hi = loop.range.lo;  // runs 0 times (or for the narrow case)
  const int64_t abs_step = step > 0 ? step : -step;
  loop.trips = span <= 0 ? 0 : uint64_t((span + abs_step - 1) / abs_step);
  return loop;
}

}  // namespace

// One pass over a body: counts statements and operations until something
// makes the function worth keeping whatever its size (`keep` says what);
// `unknown` keeps the first call of unknown cost, for the size to decide.
struct SizeRule::Walk {
  explicit Walk(SizeRule &r) : rule(r) {}
  SizeRule &rule;
  // Weighted by `mult`, the iterations of the counted loops around them.
  uint64_t statements = 0, operations = 0;
  uint64_t callee_work = 0;  // what the bounded functions it calls do per call, weighted too
  uint64_t mult = 1;
  uint64_t most_trips = 0;  // the largest product of iterations of a loop nest here or below
  bool loops = false;       // a counted loop here or in a bounded function it calls
  bool own_loops = false;   // a counted loop here
  LoopVars vars;            // the counted loops around the statement being walked
  std::string keep, unknown;

  static uint64_t times(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
  static uint64_t plus(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
  void count(uint64_t &what) { what = plus(what, mult); }

  // A counted loop: its parts once per iteration (the condition once more).
  bool countedFor(const ForStmt *f) {
    std::optional<CountedLoop> loop = countedLoop(f, rule.ast_, vars);
    if (!loop) return false;
    loops = own_loops = true;
    stmt(f->getInit());
    const uint64_t outer = mult;
    mult = times(mult, loop->trips);
    if (mult > most_trips) most_trips = mult;
    vars.push_back({loop->var, loop->range});
    stmt(f->getBody());
    stmt(f->getInc());
    stmt(f->getCond());
    vars.pop_back();
    mult = outer;
    return true;
  }

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
    if (v.worth == CallWorth::Keeps) {
      keep = std::move(v.why);
    } else if (v.worth == CallWorth::Unknown) {
      unknownCost(std::move(v.why));
    } else {
      callee_work = plus(callee_work, times(mult, v.work));
      if (v.loops) {
        loops = true;
        most_trips = std::max(most_trips, times(mult, v.trips));
      }
    }
  }

  void stmt(const Stmt *s) {
    if (!s || !keep.empty()) return;
    if (const auto *f = dyn_cast<ForStmt>(s); f && countedFor(f)) return;
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
      count(operations);
      return;
    }
    if (const auto *block = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *child : block->body())
        if (!isa<NullStmt>(child)) count(statements);
    } else if (const auto *branch = dyn_cast<IfStmt>(s)) {
      for (const Stmt *part : {branch->getThen(), branch->getElse()})
        if (part && !isa<CompoundStmt>(part) && !isa<NullStmt>(part)) count(statements);
    } else if (const auto *c = dyn_cast<CallExpr>(s)) {
      count(operations);
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
        count(operations);
        call(cd);
      }
    } else if (isa<UnaryOperator>(s) || isa<BinaryOperator>(s) || isa<AbstractConditionalOperator>(s) ||
               isa<ArraySubscriptExpr>(s) || isa<CXXNewExpr>(s) || isa<CXXDeleteExpr>(s) ||
               isa<CXXThrowExpr>(s)) {
      count(operations);
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
  return {CallWorth::Bounded, "", v.work, v.loops, v.trips};  // a straight-line or counted-loop leaf
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
  // A counted loop with a call of unknown cost in the function: kept, as
  // any loop is (the size rule below is for loop-free code). A loop-free
  // one calling a bounded leaf and unknown code is judged by its size.
  if (walk.own_loops && !walk.unknown.empty()) return {true, "has a loop", ""};
  const uint64_t size = Walk::plus(walk.statements, walk.operations);
  const std::string sz = std::to_string(size);
  if (walk.loops && walk.unknown.empty()) {
    const uint64_t work = Walk::plus(size, walk.callee_work);
    const std::string w = std::to_string(work), most = std::to_string(kMaxBoundedWork),
                      trips = std::to_string(walk.most_trips);
    if (work > kMaxBoundedWork)
      return {true, "has counted loops (" + trips + " iterations), work " + w + " > " + most + " per call", ""};
    SizeVerdict v{false, "bounded leaf: counted loops only (" + trips + " iterations), no call worth measuring (work " +
                             w + " <= " + most + " per call)", ""};
    v.work = work;
    v.loops = true;
    v.trips = walk.most_trips;
    return v;
  }
  if (walk.unknown.empty()) {
    SizeVerdict v{false, "straight-line leaf: no loop, no call worth measuring (size " + sz + ")", ""};
    v.work = Walk::plus(size, walk.callee_work);
    return v;
  }
  std::string counts = " (" + plural(walk.statements, "statement", "statements") + ", " +
                       plural(walk.operations, "operation", "operations") + ")";
  const std::string min = std::to_string(min_size_);
  if (size >= min_size_) return {true, walk.unknown + "; size " + sz + " >= " + min + counts, ""};
  return {false, "too small: size " + sz + " < " + min + counts + ", no loop; " + walk.unknown, walk.unknown};
}

}  // namespace hcc::rewriter
