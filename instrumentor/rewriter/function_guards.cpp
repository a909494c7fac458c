#include "function_guards.h"

#include "call_free.h"
#include "function_size.h"
#include "naming.h"
#include "signal_handlers.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ExprConcepts.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <map>
#include <memory>
#include <optional>

namespace hcc::rewriter {

using namespace clang;

namespace {

// One guard to write; numbered only once all are known, in file order, so the
// output does not depend on the order the AST is walked in.
struct Guard {
  std::string name;      // C expression: string literal or __PRETTY_FUNCTION__
  std::string mangled;   // raw, quoted when written
  unsigned begin_line;
  unsigned end_line;
  bool counted = false;  // count mode: HCC_COUNT_GUARD_ (no clock, visits only)
  bool visit = false;    // ... and the body calls nothing: HCC_COUNT_VISIT_, one call
};

// The block whose `{` receives the guard: the body itself, or for a
// function-try-block the `try { ... }` block, so the guard covers the whole
// body and exceptions caught by the handlers still see the region exited.
const CompoundStmt *guardedBlock(const Stmt *body) {
  if (const auto *block = dyn_cast_or_null<CompoundStmt>(body)) return block;
  if (const auto *tryStmt = dyn_cast_or_null<CXXTryStmt>(body)) return tryStmt->getTryBlock();
  return nullptr;
}

class GuardFinder : public RecursiveASTVisitor<GuardFinder> {
  using Base = RecursiveASTVisitor<GuardFinder>;

 public:
  explicit GuardFinder(RewriteContext &ctx)
      : ctx_(ctx),
        policy_(namingPolicy(ctx.lang)),
        mangler_(ctx.ast.createMangleContext()),
        size_(ctx.ast, ctx.min_size),
        handlers_(findSignalHandlers(ctx.ast)) {}

  // Templates are rewritten once, in the text of the pattern; the compiler
  // stamps out one guard per instantiation from it.
  bool shouldVisitTemplateInstantiations() const { return false; }
  // Implicit members have no text to rewrite.
  bool shouldVisitImplicitCode() const { return false; }

  // Lambdas written where a constant is required may be evaluated at compile
  // time (C++17 makes suitable lambdas implicitly constexpr); a static local
  // would make such a use ill-formed, so those lambdas are left alone.
  //
  // Variables whose initializer may be used in constant expressions:
  // constexpr and constinit ones, and in C++ `const` integral ones
  // (`const int n = f(); int a[n];`), including static members.
  // (References are left out: `const auto &r = make([] {...});` is common
  // and a reference to a compile-time constant is rare.)
  bool TraverseVarDecl(VarDecl *var) {
    QualType t = var->getType();
    bool constant = var->isConstexpr() || var->hasAttr<ConstInitAttr>() ||
                    (ctx_.lang.CPlusPlus && t.isConstQualified() && !t.isVolatileQualified() &&
                     t->isIntegralOrEnumerationType());
    ConstantScope scope(*this, constant);
    return Base::TraverseVarDecl(var);
  }
  bool TraverseStaticAssertDecl(StaticAssertDecl *decl) {
    ConstantScope scope(*this, true);
    return Base::TraverseStaticAssertDecl(decl);
  }
  // Sema wraps most constant-evaluated expressions in ConstantExpr: case
  // labels, enumerators, bit-field widths, alignas, noexcept(...),
  // if constexpr conditions, immediate (consteval) calls.
  // No data-recursion queue parameter: the scope must cover the subtree.
  bool TraverseConstantExpr(ConstantExpr *expr) {
    ConstantScope scope(*this, true);
    return Base::TraverseConstantExpr(expr, nullptr);
  }
  // ... but not array bounds,
  bool TraverseConstantArrayTypeLoc(ConstantArrayTypeLoc tl) {
    ConstantScope scope(*this, true);
    return Base::TraverseConstantArrayTypeLoc(tl);
  }
  bool TraverseDependentSizedArrayTypeLoc(DependentSizedArrayTypeLoc tl) {
    ConstantScope scope(*this, true);
    return Base::TraverseDependentSizedArrayTypeLoc(tl);
  }
  // template arguments and default template arguments,
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &arg) {
    ConstantScope scope(*this, arg.getArgument().getKind() == TemplateArgument::Expression);
    return Base::TraverseTemplateArgumentLoc(arg);
  }
  bool TraverseNonTypeTemplateParmDecl(NonTypeTemplateParmDecl *decl) {
    ConstantScope scope(*this, true);
    return Base::TraverseNonTypeTemplateParmDecl(decl);
  }
  // and constraints (C++20).
  bool TraverseConceptDecl(ConceptDecl *decl) {
    ConstantScope scope(*this, true);
    return Base::TraverseConceptDecl(decl);
  }
  bool TraverseRequiresExpr(RequiresExpr *expr) {
    ConstantScope scope(*this, true);
    return Base::TraverseRequiresExpr(expr, nullptr);
  }

  // Everything inside a lambda written `constexpr` may run at compile time.
  bool TraverseLambdaExpr(LambdaExpr *lambda) {
    ConstantScope scope(*this, writtenConstexpr(lambda));
    return Base::TraverseLambdaExpr(lambda, nullptr);
  }

  bool VisitFunctionDecl(FunctionDecl *fd);
  bool VisitLambdaExpr(LambdaExpr *lambda);

  const std::map<unsigned, Guard> &guards() const { return guards_; }
  // Loop regions: where the opening `{ guard` goes, and where the `}` goes.
  struct Loop {
    unsigned close_offset;
    unsigned begin_line, end_line;
  };
  const std::map<unsigned, Loop> &loops() const { return loops_; }

 private:
  struct ConstantScope {
    ConstantScope(GuardFinder &f, bool active) : f_(f), active_(active) {
      if (active_) ++f_.constant_depth_;
    }
    ~ConstantScope() {
      if (active_) --f_.constant_depth_;
    }
    GuardFinder &f_;
    bool active_;
  };

  // Why `fd` must not get a guard, or nothing.
  std::optional<std::string> reasonToSkip(const FunctionDecl *fd) const;
  bool writtenConstexpr(const LambdaExpr *lambda) const;
  bool insideConstexprFunction(const LambdaExpr *lambda) const;
  // Records a guard after `block`'s `{`, or says why not when the braces are
  // not plain text of the main file.
  void addGuard(const CompoundStmt *block, SourceLocation begin, SourceLocation end,
                std::string name, std::string mangled, const std::string &what, bool counted);

  // --functions=auto|all|none: false (and says why) when `fd` gets no guard.
  // `named`: an include rule of the filter names it (wins over auto).
  bool policyKeeps(const FunctionDecl *fd, SourceLocation loc, const std::string &what, bool named);

  RewriteContext &ctx_;
  PrintingPolicy policy_;
  std::unique_ptr<MangleContext> mangler_;
  SizeRule size_;
  SignalHandlers handlers_;  // left as written whatever the policy (signal_handlers.h)
  unsigned constant_depth_ = 0;
  std::map<unsigned, Guard> guards_;  // by file offset of the insertion: dedupes too
  std::map<unsigned, Loop> loops_;    // by file offset of the loop's first character

  void addLoops(const Stmt *body);
};

// The outermost loops of a body (TAU `loops routine=…`): loops nested in
// other loops belong to their outer loop's region; lambdas and local classes
// are other functions.
void GuardFinder::addLoops(const Stmt *s) {
  if (!s) return;
  for (const Stmt *child : s->children()) {
    if (!child || isa<LambdaExpr>(child) || isa<DeclStmt>(child)) continue;
    if (!isa<ForStmt>(child) && !isa<WhileStmt>(child) && !isa<DoStmt>(child) &&
        !isa<CXXForRangeStmt>(child)) {
      addLoops(child);
      continue;
    }
    SourceLocation b = child->getBeginLoc(), e = child->getEndLoc();
    if (!ctx_.isFileChar(b) || !ctx_.isFileChar(e)) continue;  // macro text: not ours
    // The loop of a directive Clang could not parse: nothing may come between.
    if (ctx_.followsUnknownDirective(ctx_.sm.getFileOffset(b))) continue;
    // The loop statement ends at its last token, or at the `;` after it when
    // the body is a plain statement (`while (x) f();`, `do … while (x);`).
    SourceLocation after = Lexer::findLocationAfterToken(e, tok::semi, ctx_.sm, ctx_.lang, false);
    bool braced = false;
    if (const auto *f = dyn_cast<ForStmt>(child)) braced = isa<CompoundStmt>(f->getBody());
    if (const auto *w = dyn_cast<WhileStmt>(child)) braced = isa<CompoundStmt>(w->getBody());
    if (const auto *r = dyn_cast<CXXForRangeStmt>(child)) braced = isa<CompoundStmt>(r->getBody());
    if (braced || after.isInvalid()) after = Lexer::getLocForEndOfToken(e, 0, ctx_.sm, ctx_.lang);
    if (after.isInvalid() || !ctx_.isFileChar(after)) continue;
    loops_.emplace(ctx_.sm.getFileOffset(b),
                   Loop{ctx_.sm.getFileOffset(after), ctx_.line(b), ctx_.line(e)});
  }
}

std::optional<std::string> GuardFinder::reasonToSkip(const FunctionDecl *fd) const {
  if (isa<CoroutineBodyStmt>(fd->getBody())) return "coroutine";
  // consteval first: it implies constexpr, and the message should be precise.
  if (fd->isConsteval()) return "consteval";
  if (fd->isConstexpr()) return "constexpr";
  if (fd->hasAttr<NakedAttr>()) return "naked function";
  if (fd->hasAttr<NoInstrumentFunctionAttr>()) return "no_instrument_function";
  if (auto h = handlers_.find(fd->getCanonicalDecl()); h != handlers_.end()) return h->second;
  if (const IdentifierInfo *id = fd->getIdentifier()) {
    // The runtime's own functions must not measure themselves.
    if (id->getName().starts_with("hcc_") || id->getName().starts_with("__hcc_"))
      return "hcc runtime function";
  }
  // C99 6.7.4p3: an inline definition with external linkage must not define
  // a modifiable static object. Covers `inline` and `extern inline`.
  if (!ctx_.lang.CPlusPlus && fd->isInlineSpecified() && fd->hasExternalFormalLinkage())
    return "C inline function with external linkage";
  return std::nullopt;
}

bool GuardFinder::VisitFunctionDecl(FunctionDecl *fd) {
  if (fd->isImplicit()) return true;
  // A lambda's call operator is reached through its LambdaExpr.
  if (const auto *md = dyn_cast<CXXMethodDecl>(fd); md && md->getParent()->isLambda())
    return true;
  // Header functions are not ours (and their bodies were not even parsed).
  if (!ctx_.expandsInFile(fd->getLocation())) return true;

  if (fd->isDeleted()) {
    ctx_.leftAlone(fd->getLocation(), shortName(fd), "deleted");
    return true;
  }
  if (fd->isDefaulted()) {
    ctx_.leftAlone(fd->getLocation(), shortName(fd), "defaulted");
    return true;
  }
  if (!fd->doesThisDeclarationHaveABody() || !fd->getBody()) return true;

  if (auto why = reasonToSkip(fd)) {
    ctx_.leftAlone(fd->getLocation(), shortName(fd), *why);
    return true;
  }
  const CompoundStmt *block = guardedBlock(fd->getBody());
  if (!block) return true;

  bool named = false, counted = false;
  if (ctx_.filter) {
    // The name the runtime will see, in a form the matcher reads: inside a
    // template the pattern's own name (template parameters, not arguments).
    // The signature lets TAU patterns compare return types here, which the
    // runtime's names do not carry.
    std::string name = readableName(fd, policy_);
    std::string mangled = linkerName(fd, *mangler_);
    std::string signature = tauSignature(fd, policy_);
    filter::Region region{name, mangled, ctx_.file_name, nameDependsOnInstantiation(fd), signature};
    if (ctx_.filter->excludes(region)) {
      ctx_.leftAlone(fd->getLocation(), shortName(fd), "excluded by the filter");
      ++ctx_.filtered;
      return true;
    }
    if (ctx_.filter->wants_loops(region)) addLoops(block);
    named = ctx_.functions == FunctionPolicy::Auto && ctx_.filter->includes_by_name(region);
    counted = ctx_.filter->counts(region);
  }
  if (!policyKeeps(fd, fd->getLocation(), shortName(fd), named)) return true;

  // The region spans the whole definition, template header included.
  SourceLocation begin = fd->getBeginLoc();
  // (Abbreviated templates, `void f(auto)`, have no `template` to start at.)
  if (const FunctionTemplateDecl *tmpl = fd->getDescribedFunctionTemplate();
      tmpl && tmpl->getBeginLoc().isValid())
    begin = tmpl->getBeginLoc();
  addGuard(block, begin, fd->getEndLoc(), functionNameExpr(fd, policy_),
           linkerName(fd, *mangler_), shortName(fd), counted);
  return true;
}

// True when the lambda says `constexpr` or `consteval` itself. Clang also
// marks lambdas that merely qualify as constexpr (C++17), which we do want to
// instrument, so the flag on the call operator cannot tell them apart.
bool GuardFinder::writtenConstexpr(const LambdaExpr *lambda) const {
  const CompoundStmt *body = lambda->getCompoundStmtBody();
  SourceLocation from = lambda->getIntroducerRange().getEnd();
  SourceLocation to = body ? body->getLBracLoc() : SourceLocation();
  const SourceManager &sm = ctx_.sm;
  if (!from.isFileID() || !to.isFileID() || sm.getFileID(from) != sm.getFileID(to)) {
    // Specifiers in macro text (e.g. KOKKOS_LAMBDA): trust the flag only
    // where it cannot be implicit, i.e. before C++17.
    return lambda->getCallOperator()->isConstexpr() && !ctx_.lang.CPlusPlus17;
  }
  FileID fid = sm.getFileID(from);
  unsigned stop = sm.getFileOffset(to);
  llvm::StringRef buffer = sm.getBufferData(fid);
  Lexer lexer(sm.getLocForStartOfFile(fid), ctx_.lang, buffer.begin(),
              buffer.begin() + sm.getFileOffset(from), buffer.end());
  Token tok;
  while (!lexer.LexFromRawLexer(tok) && sm.getFileOffset(tok.getLocation()) < stop) {
    if (tok.is(tok::raw_identifier) &&
        (tok.getRawIdentifier() == "constexpr" || tok.getRawIdentifier() == "consteval"))
      return true;
  }
  return false;
}

// A lambda inside a constexpr function may run during constant evaluation.
// (Enclosing lambdas are not looked at here: their call operators carry the
// implicit C++17 constexpr flag; TraverseLambdaExpr tracks the written one.)
bool GuardFinder::insideConstexprFunction(const LambdaExpr *lambda) const {
  for (const DeclContext *dc = lambda->getLambdaClass()->getDeclContext(); dc;
       dc = dc->getParent()) {
    const auto *fd = dyn_cast<FunctionDecl>(dc);
    if (!fd) continue;
    const auto *md = dyn_cast<CXXMethodDecl>(fd);
    if (md && md->getParent()->isLambda()) continue;
    if (fd->isConstexpr()) return true;
  }
  return false;
}

bool GuardFinder::VisitLambdaExpr(LambdaExpr *lambda) {
  if (!ctx_.expandsInFile(lambda->getBeginLoc())) return true;
  const CXXMethodDecl *op = lambda->getCallOperator();
  std::string name = lambdaName(ctx_.file_name, ctx_.line(lambda->getBeginLoc()));

  std::optional<std::string> why;
  if (isa_and_nonnull<CoroutineBodyStmt>(op->getBody()))
    why = "coroutine";
  else if (writtenConstexpr(lambda))
    why = op->isConsteval() ? "consteval" : "constexpr";
  else if (constant_depth_ > 0)
    why = "may be evaluated at compile time (constant expression context)";
  else if (insideConstexprFunction(lambda))
    why = "may be evaluated at compile time (inside a constexpr function)";
  else if (op->hasAttr<NakedAttr>())
    why = "naked function";
  else if (op->hasAttr<NoInstrumentFunctionAttr>())
    why = "no_instrument_function";
  else if (auto h = handlers_.find(op->getCanonicalDecl()); h != handlers_.end())
    why = h->second;
  if (why) {
    ctx_.leftAlone(lambda->getBeginLoc(), name, *why);
    return true;
  }
  const CompoundStmt *block = lambda->getCompoundStmtBody();
  if (!block) return true;
  if (ctx_.filter && ctx_.filter->excludes(filter::Region{name, "", ctx_.file_name, false})) {
    ctx_.leftAlone(lambda->getBeginLoc(), name, "excluded by the filter");
    ++ctx_.filtered;
    return true;
  }
  bool named = ctx_.functions == FunctionPolicy::Auto && ctx_.filter &&
               ctx_.filter->includes_by_name(filter::Region{name, "", ctx_.file_name, false});
  if (!policyKeeps(op, lambda->getBeginLoc(), name, named)) return true;
  const bool counted = ctx_.filter && ctx_.filter->counts(filter::Region{name, "", ctx_.file_name, false});
  addGuard(block, lambda->getBeginLoc(), lambda->getEndLoc(), quoteCString(name), "",
           name, counted);
  return true;
}

bool GuardFinder::policyKeeps(const FunctionDecl *fd, SourceLocation loc, const std::string &what,
                              bool named) {
  switch (ctx_.functions) {
    case FunctionPolicy::All:
      return true;
    case FunctionPolicy::None:
      ctx_.leftAlone(loc, what, "--hcc-functions=none");
      ++ctx_.left_out;
      return false;
    case FunctionPolicy::Auto:
      break;
  }
  if (named) return true;
  SizeVerdict v = size_.judge(fd);
  if (v.keep) return true;
  ctx_.leftAlone(loc, what, "--hcc-functions=auto: " + v.reason);
  ++ctx_.left_out;
  return false;
}

void GuardFinder::addGuard(const CompoundStmt *block, SourceLocation begin,
                           SourceLocation end, std::string name, std::string mangled,
                           const std::string &what, bool counted) {
  SourceLocation lbrace = block->getLBracLoc();
  SourceLocation rbrace = block->getRBracLoc();
  if (lbrace.isMacroID() || rbrace.isMacroID()) {
    // Text from a #define is shared by every use of the macro. Text in a
    // macro argument is the user's, but the guard's commas would split the
    // argument, and a macro may stringize it (#x) into the program's output.
    ctx_.leftAlone(begin, what, "body braces come from a macro expansion");
    return;
  }
  // Braces in another file (a body #included into place): not our text.
  if (!ctx_.isFileChar(lbrace) || !ctx_.isFileChar(rbrace)) return;

  unsigned offset = ctx_.sm.getFileOffset(lbrace) + 1;  // just after `{`
  // A counted body in which no event can happen needs no frame: its enter
  // and exit are one call (call_free.h).
  const bool visit = counted && callsNothing(block);
  guards_.emplace(offset, Guard{std::move(name), std::move(mangled), ctx_.line(begin),
                                ctx_.line(end), counted, visit});
}

}  // namespace

unsigned addFunctionGuards(RewriteContext &ctx) {
  GuardFinder finder(ctx);
  for (Decl *d : ctx.decls) finder.TraverseDecl(d);

  const std::string file = quoteCString(ctx.file_name);
  unsigned n = 0;
  for (const auto &[offset, g] : finder.guards()) {
    const std::string id = std::to_string(n++);
    ctx.edits.insert(offset, "static hcc_region_desc __hcc_rd" + id + " = {" + g.name +
                                 ", " + quoteCString(g.mangled) + ", " + file + ", " +
                                 std::to_string(g.begin_line) + ", " +
                                 std::to_string(g.end_line) + ", 0, 0}; " +
                                 (g.visit     ? "HCC_COUNT_VISIT_(__hcc_g"
                                  : g.counted ? "HCC_COUNT_GUARD_(__hcc_g"
                                              : "HCC_FUNCTION_GUARD_(__hcc_g") +
                                 id + ", &__hcc_rd" + id + ");");
  }
  // Loops: `{ static desc; guard;` before the loop, `}` after it, both on the
  // loop's own lines. Named like TAU's loop timers.
  unsigned k = 0;
  for (const auto &[offset, l] : finder.loops()) {
    const std::string id = std::to_string(k++);
    std::string name = "loop at " + lambdaName(ctx.file_name, l.begin_line).substr(10);
    ctx.edits.insert(offset, "{ static hcc_region_desc __hcc_lrd" + id + " = {" +
                                 quoteCString(name) + ", \"\", " + file + ", " +
                                 std::to_string(l.begin_line) + ", " +
                                 std::to_string(l.end_line) + ", 2, 0}; " +
                                 "HCC_FUNCTION_GUARD_(__hcc_lg" + id + ", &__hcc_lrd" + id + "); ");
    ctx.edits.insert(l.close_offset, " }");
  }
  ctx.loops = k;
  return n;
}

}  // namespace hcc::rewriter
