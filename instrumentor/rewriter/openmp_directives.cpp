#include "openmp_directives.h"

#include "naming.h"
#include "openmp_clauses.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/OpenMPKinds.h>
#include <clang/Lex/Lexer.h>

#include <cctype>
#include <map>
#include <set>

namespace hcc::rewriter {

using namespace clang;
using namespace omp;

namespace {

// One rewritten directive: text before its `#`, at its statement's first
// character and after its statement's last. Start texts are inserted in
// pre-order and end texts in post-order, so `parallel` + nested `for`
// starting (or ending) at the same character nest correctly.
struct Plan {
  unsigned hash_offset = 0;
  std::string before_hash;
  bool has_stmt = false;
  unsigned stmt_begin = 0, stmt_end = 0;
  std::string at_begin, at_end;
  unsigned comment_end = 0;  // a continued pragma is commented out by /* … */: where */ goes
};

// Words that start or continue a directive name: seen where a clause should
// be, they mean the directive is spelled some way the AST class did not
// predict, and it is left alone.
bool isDirectiveWord(const std::string &w) {
  static const char *const kWords[] = {"parallel", "for", "simd", "sections", "section",
                                       "single", "master", "masked", "loop", "taskloop",
                                       "distribute", "teams", "target", "workshare", "task"};
  for (const char *k : kWords)
    if (w == k) return true;
  return false;
}

enum class Kind { Parallel, For, ParallelFor, Sections, ParallelSections, ParallelMaster,
                  Section, Single, Master, Critical, Taskgroup, Taskloop, Atomic, Barrier, Task,
                  Taskwait, Flush, Ordered,
                  // OpenMP 5.x
                  Loop, ParallelLoop, ParallelMasked, MaskedTaskloop, ParallelMaskedTaskloop,
                  Scope, Error, Transform, None };

Kind kindOf(const OMPExecutableDirective *d, unsigned &words) {
  words = 1;
  if (isa<OMPParallelDirective>(d)) return Kind::Parallel;
  if (isa<OMPForDirective>(d)) return Kind::For;
  if (isa<OMPForSimdDirective>(d)) { words = 2; return Kind::For; }
  if (isa<OMPParallelForDirective>(d)) { words = 2; return Kind::ParallelFor; }
  if (isa<OMPParallelForSimdDirective>(d)) { words = 3; return Kind::ParallelFor; }
  if (isa<OMPSectionsDirective>(d)) return Kind::Sections;
  if (isa<OMPParallelSectionsDirective>(d)) { words = 2; return Kind::ParallelSections; }
  if (isa<OMPSectionDirective>(d)) return Kind::Section;
  if (isa<OMPSingleDirective>(d)) return Kind::Single;
  if (isa<OMPMasterDirective>(d)) return Kind::Master;
  // `masked [filter(n)]` is master with another thread: the same region
  // kind, timed on whichever thread the filter picks.
  if (isa<OMPMaskedDirective>(d)) return Kind::Master;
  if (isa<OMPParallelMasterDirective>(d)) { words = 2; return Kind::ParallelMaster; }
  if (isa<OMPParallelMaskedDirective>(d)) { words = 2; return Kind::ParallelMasked; }
  // `loop`: a loop construct without nowait; inside a parallel region it
  // binds to it (all threads enter), elsewhere to the encountering thread.
  if (isa<OMPGenericLoopDirective>(d)) return Kind::Loop;
  if (isa<OMPParallelGenericLoopDirective>(d)) { words = 2; return Kind::ParallelLoop; }
  // master|masked taskloop [simd], with or without `parallel` in front:
  // split into their constituent constructs, as the combined ones are
  // defined.
  if (isa<OMPMaskedTaskLoopDirective>(d) || isa<OMPMasterTaskLoopDirective>(d)) {
    words = 2;
    return Kind::MaskedTaskloop;
  }
  if (isa<OMPMaskedTaskLoopSimdDirective>(d) || isa<OMPMasterTaskLoopSimdDirective>(d)) {
    words = 3;
    return Kind::MaskedTaskloop;
  }
  if (isa<OMPParallelMaskedTaskLoopDirective>(d) || isa<OMPParallelMasterTaskLoopDirective>(d)) {
    words = 3;
    return Kind::ParallelMaskedTaskloop;
  }
  if (isa<OMPParallelMaskedTaskLoopSimdDirective>(d) ||
      isa<OMPParallelMasterTaskLoopSimdDirective>(d)) {
    words = 4;
    return Kind::ParallelMaskedTaskloop;
  }
  if (isa<OMPScopeDirective>(d)) return Kind::Scope;
  // `error at(execution)` runs; at(compilation) (the default) is the
  // compiler's business and has nothing to time.
  if (auto *e = dyn_cast<OMPErrorDirective>(d)) {
    const auto *at = e->getSingleClause<OMPAtClause>();
    return at && at->getAtKind() == OMPC_AT_execution ? Kind::Error : Kind::None;
  }
  // unroll, tile, reverse, interchange: timed around the transformed loop
  // when they stand alone (not when they are the loop of a loop construct,
  // see bare_).
  if (isa<OMPLoopTransformationDirective>(d)) return Kind::Transform;
  if (isa<OMPCriticalDirective>(d)) return Kind::Critical;
  if (isa<OMPAtomicDirective>(d)) return Kind::Atomic;
  if (isa<OMPBarrierDirective>(d)) return Kind::Barrier;
  if (isa<OMPTaskDirective>(d)) return Kind::Task;
  if (isa<OMPTaskwaitDirective>(d)) return Kind::Taskwait;
  if (isa<OMPTaskgroupDirective>(d)) return Kind::Taskgroup;
  // POMP2 has no taskloop event: the construct is timed as one region on
  // the encountering thread (task creation plus, without nogroup, its
  // implicit taskgroup's wait, with the tasks that thread runs meanwhile).
  if (isa<OMPTaskLoopDirective>(d)) return Kind::Taskloop;
  if (isa<OMPTaskLoopSimdDirective>(d)) { words = 2; return Kind::Taskloop; }
  if (isa<OMPFlushDirective>(d)) return Kind::Flush;
  if (auto *o = dyn_cast<OMPOrderedDirective>(d))
    return o->hasAssociatedStmt() && !o->getSingleClause<OMPSIMDClause>() ? Kind::Ordered
                                                                          : Kind::None;
  return Kind::None;
}

// omp_set_nest_lock → POMP2_Set_nest_lock (pomp2.h).
std::string pompLockWrapper(const std::string &omp_name) {
  std::string w = "POMP2";
  for (size_t i = 3; i < omp_name.size(); ++i) {
    const bool word_start = omp_name[i - 1] == '_' && omp_name.compare(i, 4, "lock") != 0 &&
                            omp_name.compare(i, 4, "nest") != 0;
    w += word_start ? char(std::toupper(static_cast<unsigned char>(omp_name[i]))) : omp_name[i];
  }
  return w;
}

const char *ctcType(Kind k) {
  switch (k) {
    case Kind::Parallel: case Kind::ParallelFor: case Kind::ParallelSections:
    case Kind::ParallelMaster: return "parallel";
    case Kind::For: return "for";
    case Kind::Sections: return "sections";
    case Kind::Single: return "single";
    case Kind::Master: return "master";
    case Kind::Critical: return "critical";
    case Kind::Atomic: return "atomic";
    case Kind::Barrier: return "barrier";
    case Kind::Task: return "task";
    case Kind::Taskwait: return "taskwait";
    case Kind::Taskgroup: return "taskgroup";
    case Kind::Taskloop: return "taskloop";
    case Kind::Flush: return "flush";
    case Kind::Ordered: return "ordered";
    case Kind::Section: return "section";
    case Kind::Loop: return "loop";
    case Kind::ParallelLoop: case Kind::ParallelMasked: case Kind::ParallelMaskedTaskloop:
      return "parallel";
    case Kind::MaskedTaskloop: return "master";
    case Kind::Scope: return "scope";
    case Kind::Error: return "error";
    default: return "";
  }
}

// A measured explicit barrier standing for a construct's implicit one.
std::string measuredBarrier(const std::string &h, const std::string &b) {
  return " { POMP2_Task_handle " + b + "; POMP2_Implicit_barrier_enter(&" + h + ", &" + b +
         "); _Pragma(\"omp barrier\") POMP2_Implicit_barrier_exit(&" + h + ", " + b + "); }";
}

// `#pragma omp nothing` at `off` of `text`, alone on its line (a comment
// may follow): the directive leaves no trace in the AST.
bool isNothingPragma(llvm::StringRef text, unsigned off) {
  size_t eol = text.find('\n', off);
  llvm::StringRef line = text.slice(off, eol == llvm::StringRef::npos ? text.size() : eol);
  line = line.rtrim();
  if (line.ends_with("\\")) return false;
  size_t c = line.find("//");
  if (c != llvm::StringRef::npos) line = line.substr(0, c).rtrim();
  if (!line.consume_front("#")) return false;
  line = line.ltrim();
  if (!line.consume_front("pragma")) return false;
  llvm::StringRef rest = line.ltrim();
  if (rest.size() == line.size() || !rest.consume_front("omp")) return false;
  llvm::StringRef name = rest.ltrim();
  return name.size() < rest.size() && name == "nothing";
}

class OpenMPRewriter : public RecursiveASTVisitor<OpenMPRewriter> {
 public:
  explicit OpenMPRewriter(RewriteContext &ctx) : ctx_(ctx) {
    for (unsigned off : ctx_.omp_pragmas)
      if (isNothingPragma(ctx_.original, off)) nothing_.insert(off);
  }

  // `nothing` is timed (enter and exit around the directive, re-issued)
  // only where a block statement may stand: directly in a compound
  // statement, between its statements; after `if (c)` or a label it would
  // change what the statement controls.
  bool VisitCompoundStmt(CompoundStmt *cs) {
    if (nothing_.empty() || !ctx_.isFileChar(cs->getLBracLoc()) ||
        !ctx_.isFileChar(cs->getRBracLoc()))
      return true;
    const SourceManager &sm = ctx_.sm;
    const unsigned lb = sm.getFileOffset(cs->getLBracLoc()), rb = sm.getFileOffset(cs->getRBracLoc());
    for (unsigned o : nothing_) {
      if (o <= lb || o >= rb) continue;
      bool inside_child = false;
      for (const Stmt *child : cs->body()) {
        SourceLocation b = sm.getExpansionLoc(child->getBeginLoc());
        SourceLocation e = sm.getExpansionLoc(child->getEndLoc());
        if (sm.getFileID(b) != ctx_.fid || sm.getFileID(e) != ctx_.fid) continue;
        if (sm.getFileOffset(b) <= o && o <= sm.getFileOffset(e)) inside_child = true;
      }
      if (!inside_child) nothing_ok_.insert(o);
    }
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return false; }

  // One hook for every directive class (RecursiveASTVisitor's data
  // recursion calls it before each statement's children). Returning false
  // skips the children: unknown constructs and everything inside them stay
  // exactly as written.
  bool dataTraverseStmtPre(Stmt *s) {
    auto *d = dyn_cast<OMPExecutableDirective>(s);
    if (!d) return true;
    // A loop transformation that is the loop of a loop construct (`for`
    // over `unroll partial`) must stay right under it: not wrapped, but
    // what is inside it is still rewritten.
    if (auto *inner = dyn_cast_or_null<OMPLoopTransformationDirective>(body(d)))
      bare_.insert(inner);
    if (bare_.count(d)) return true;
    unsigned words = 0;
    Kind k = kindOf(d, words);
    // Clang 19's Sema records a `loop` as the construct it will compile it
    // to (`for` inside a parallel region, `simd` with bind(thread), …);
    // what is re-issued is what was written, and `loop` takes no nowait.
    if (const std::string w = writtenName(d); w == "loop") {
      k = Kind::Loop;
      words = 1;
    } else if (w == "parallel loop") {
      k = Kind::ParallelLoop;
      words = 2;
    }
    if (k == Kind::None) {
      if (ctx_.expandsInFile(d->getBeginLoc()))
        ctx_.leftAlone(d->getBeginLoc(),
                       "omp " + llvm::omp::getOpenMPDirectiveName(d->getDirectiveKind()).str(),
                       "this OpenMP construct is not rewritten (nor anything inside it)");
      return false;
    }
    plan(d, k, words);
    return true;
  }

  // omp_set_lock(&l) → HCC_OMP_LOCK_(omp_set_lock, POMP2_Set_lock)(&l):
  // the prelude's macro keeps only the POMP2 wrapper (pomp2.h, a `void *`
  // argument), which times the call; insertions only. No wrapper needs
  // omp.h's types, so the prelude includes no system header.
  bool VisitCallExpr(CallExpr *call) {
    // Without -fopenmp there is no OpenMP runtime to forward to.
    if (!ctx_.lang.OpenMP) return true;
    auto *ref = dyn_cast_or_null<DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts());
    if (!ref) return true;
    auto *fn = dyn_cast<FunctionDecl>(ref->getDecl());
    if (!fn || !fn->getIdentifier() || !ctx_.sm.isInSystemHeader(fn->getLocation())) return true;
    static const char *const kLocks[] = {"omp_set_lock", "omp_unset_lock", "omp_test_lock",
                                         "omp_set_nest_lock", "omp_unset_nest_lock",
                                         "omp_test_nest_lock"};
    const std::string name = fn->getName().str();
    bool lock = false;
    for (const char *k : kLocks) lock = lock || name == k;
    if (!lock || (!fn->getDeclContext()->isTranslationUnit() && !fn->isExternC())) return true;
    SourceLocation b = ref->getBeginLoc(), e = ref->getEndLoc();
    if (!ctx_.isFileChar(b) || !ctx_.isFileChar(e) || ref->hasQualifier()) return true;
    unsigned bo = ctx_.sm.getFileOffset(b);
    unsigned eo = bo + unsigned(name.size());
    locks_.push_back({bo, eo, name});
    return true;
  }

  void emit() {
    ast_nowait_ = false;
    for (unsigned off : nothing_ok_) {
      if (ctx_.followsUnknownDirective(off)) continue;
      const std::string n = std::to_string(++counter_), h = "__hcc_omp" + n;
      const unsigned l = ctx_.sm.getLineNumber(ctx_.fid, off);
      PragmaText t;
      Plan p;
      p.hash_offset = off;
      p.before_hash = "{ static POMP2_Region_handle " + h + " = 0; hcc_pomp_construct_enter(&" + h +
                      ", " + ctc("nothing", Kind::None, l, l, l, l, t) +
                      "); _Pragma(\"omp nothing\") hcc_pomp_construct_exit(&" + h + "); } //";
      plans_.push_back(std::move(p));
    }
    for (const Plan &p : plans_) {
      ctx_.edits.insert(p.hash_offset, p.before_hash);
      if (p.comment_end) ctx_.edits.insert(p.comment_end, "*/");
      if (p.has_stmt) ctx_.edits.insert(p.stmt_begin, p.at_begin);
    }
    // A directive left as written that is the statement of a rewritten one
    // (`parallel` over `simd`, `task` over `target`): the begin text in
    // front of its `#` would leave a stray `#` mid-line, so it is re-issued
    // as `_Pragma("…")` after that text, the original commented out.
    std::set<unsigned> reissued;
    for (const Plan &p : plans_) {
      if (!p.has_stmt || p.at_begin.empty() || !startsDirectiveLine(p.stmt_begin) ||
          !reissued.insert(p.stmt_begin).second)
        continue;
      bool rewritten = false;
      for (const Plan &q : plans_) rewritten = rewritten || (q.hash_offset == p.stmt_begin && !q.before_hash.empty());
      if (rewritten) continue;
      unsigned end = 0;
      const std::string raw = directiveLines(p.stmt_begin, end);
      std::string body;
      // The outer plan was kept only when this text is understood (plan()).
      if (!pragmaBody(raw, body)) continue;
      const bool continued = raw.find('\n') != std::string::npos;
      ctx_.edits.insert(p.stmt_begin, "_Pragma(\"" + escapeForPragma(body) + "\") " + (continued ? "/*" : "//"));
      if (continued) ctx_.edits.insert(end, "*/");
    }
    // After the begin texts: a lock call may start a construct's statement.
    for (const LockCall &l : locks_) {
      ctx_.edits.insert(l.begin, "HCC_OMP_LOCK_(");
      ctx_.edits.insert(l.end, ", " + pompLockWrapper(l.name) + ")");
    }
    for (auto it = plans_.rbegin(); it != plans_.rend(); ++it)
      if (it->has_stmt) ctx_.edits.insert(it->stmt_end, it->at_end);
  }
  unsigned count() const { return unsigned(plans_.size() + locks_.size()); }

 private:
  const Stmt *body(OMPExecutableDirective *d) {
    if (!d->hasAssociatedStmt()) return nullptr;
    const Stmt *s = d->getAssociatedStmt();
    while (auto *cs = dyn_cast<CapturedStmt>(s)) s = cs->getCapturedStmt();
    return s;
  }

  // [first char, one past last char] of a statement in the main file; the
  // `;` that ends a non-compound statement is included.
  bool stmtRange(const Stmt *s, unsigned &b, unsigned &e) {
    const SourceManager &sm = ctx_.sm;
    // A directive's own range ends with its pragma line; as a statement it
    // ends where its associated statement does.
    if (auto *d = dyn_cast<OMPExecutableDirective>(s)) {
      const Stmt *inner = d->hasAssociatedStmt() ? body(const_cast<OMPExecutableDirective *>(d)) : nullptr;
      unsigned ib = 0, pe = 0;
      std::string text;
      bool op = false;
      if (!inner || !pragmaText(d, b, pe, text, op) || !stmtRange(inner, ib, e)) return false;
      return true;
    }
    CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(s->getSourceRange()),
                                                 sm, ctx_.lang);
    if (r.isInvalid() || !ctx_.isFileChar(r.getBegin()) || !ctx_.isFileChar(r.getEnd()))
      return false;
    b = sm.getFileOffset(r.getBegin());
    e = sm.getFileOffset(r.getEnd());
    llvm::StringRef buf = sm.getBufferData(ctx_.fid);
    if (e == 0 || buf[e - 1] != '}' || !isa<CompoundStmt>(s)) {
      // Find the next token: a `;` ends this statement.
      Token tok;
      SourceLocation after = r.getEnd();
      if (!Lexer::getRawToken(after, tok, sm, ctx_.lang, /*IgnoreWhiteSpace=*/true) &&
          tok.is(tok::semi))
        e = sm.getFileOffset(tok.getEndLoc());
    }
    return true;
  }

  std::string ctc(Kind k, unsigned l1, unsigned l2, unsigned e1, unsigned e2,
                  const PragmaText &t) {
    return ctc(ctcType(k), k, l1, l2, e1, e2, t);
  }
  std::string ctc(const std::string &type, Kind k, unsigned l1, unsigned l2, unsigned e1,
                  unsigned e2, const PragmaText &t) {
    std::string body = "*regionType=" + type + "*sscl=" + ctx_.file_name + ":" +
                       std::to_string(l1) + ":" + std::to_string(l2) + "*escl=" +
                       ctx_.file_name + ":" + std::to_string(e1) + ":" + std::to_string(e2) + "*";
    if (k == Kind::Critical && !t.paren_arg.empty()) body += "criticalName=" + t.paren_arg + "*";
    if (hasClause(t.clauses, "nowait") || ast_nowait_) body += "hasNowait*";
    body += "*";
    return quoteCString(std::to_string(body.size()) + body);
  }

  // Where a directive is written in the main file: [off, end) is `#pragma
  // omp …` up to the end of its last continued line, or a `_Pragma("omp …")`
  // spelled in the file itself (`op`), up to its `)`. `text` is the directive
  // as a #pragma line, for parsePragma. False for a directive from a macro
  // expansion (a _Pragma in a macro body included): that stays as written.
  bool pragmaText(const OMPExecutableDirective *d, unsigned &off, unsigned &end, std::string &text,
                  bool &op) {
    const SourceManager &sm = ctx_.sm;
    llvm::StringRef buf = ctx_.original;  // a blanked clause is re-issued as written
    SourceLocation hash = d->getBeginLoc();
    op = false;
    if (!ctx_.isFileChar(hash)) return false;
    off = sm.getFileOffset(hash);
    if (off < buf.size() && buf[off] == '#') {
      end = off;
      while (end < buf.size() && buf[end] != '\n') {
        if (buf[end] == '\\' && end + 1 < buf.size() && buf[end + 1] == '\n') ++end;
        ++end;
      }
      text = buf.substr(off, end - off).str();
      return true;
    }
    // A _Pragma's directive starts at the `_Pragma` keyword: a character of
    // the main file when the user wrote it there (from a macro, the start is
    // a macro location and was refused above).
    if (!buf.substr(off).starts_with("_Pragma")) return false;
    // _Pragma ( "omp …" ): a plain string literal, no escapes (those would
    // need undoing before parsing; such a directive is left alone).
    size_t i = off + 7;
    auto space = [&] { while (i < buf.size() && isspace(static_cast<unsigned char>(buf[i]))) ++i; };
    space();
    if (i >= buf.size() || buf[i] != '(') return false;
    ++i;
    space();
    if (i >= buf.size() || buf[i] != '"') return false;
    const size_t q = buf.find_first_of("\"\\\n", i + 1);
    if (q == llvm::StringRef::npos || buf[q] != '"') return false;
    const std::string inner = buf.substr(i + 1, q - i - 1).str();
    i = q + 1;
    space();
    if (i >= buf.size() || buf[i] != ')') return false;
    end = unsigned(i + 1);
    text = "#pragma " + inner;
    op = true;
    return true;
  }

  // `#` starting a preprocessing line at `off` (a directive of this file).
  bool startsDirectiveLine(unsigned off) const {
    llvm::StringRef buf = ctx_.original;
    if (off >= buf.size() || buf[off] != '#') return false;
    for (unsigned i = off; i > 0 && buf[i - 1] != '\n'; --i)
      if (buf[i - 1] != ' ' && buf[i - 1] != '\t') return false;
    return true;
  }

  // The directive starting at `off`, up to the end of its last continued
  // line (`end`).
  std::string directiveLines(unsigned off, unsigned &end) const {
    llvm::StringRef buf = ctx_.original;
    end = off;
    while (end < buf.size() && buf[end] != '\n') {
      if (buf[end] == '\\' && end + 1 < buf.size() && buf[end + 1] == '\n') ++end;
      ++end;
    }
    return buf.substr(off, end - off).str();
  }

  // Clause facts from the AST (a clause written through a macro is there
  // too, parsed).
  static bool hasReductionModifier(const OMPExecutableDirective *d,
                                   OpenMPReductionClauseModifier m) {
    for (const auto *c : d->getClausesOfKind<OMPReductionClause>())
      if (c->getModifier() == m) return true;
    return false;
  }
  static bool clauseFromMacro(const OMPExecutableDirective *d) {
    for (const OMPClause *c : d->clauses())
      if (c && !c->isImplicit() && c->getBeginLoc().isMacroID()) return true;
    return false;
  }
  // The statements inside `s`; a directive's is its associated statement
  // (its children() would give the CapturedStmt's captures instead).
  static std::vector<const Stmt *> children(const Stmt *s) {
    std::vector<const Stmt *> out;
    if (auto *d = dyn_cast<OMPExecutableDirective>(s)) {
      if (d->hasAssociatedStmt()) out.push_back(d->getRawStmt());
      return out;
    }
    if (auto *cs = dyn_cast<CapturedStmt>(s)) {
      out.push_back(cs->getCapturedStmt());
      return out;
    }
    for (const Stmt *c : s->children())
      if (c) out.push_back(c);
    return out;
  }
  // A `cancel` or `cancellation point` of construct kind `region` (for,
  // sections) anywhere in `s`.
  static bool hasCancel(const Stmt *s, OpenMPDirectiveKind region) {
    if (!s) return false;
    if (auto *c = dyn_cast<OMPCancelDirective>(s); c && c->getCancelRegion() == region) return true;
    if (auto *c = dyn_cast<OMPCancellationPointDirective>(s); c && c->getCancelRegion() == region)
      return true;
    for (const Stmt *child : children(s))
      if (hasCancel(child, region)) return true;
    return false;
  }
  // A `task detach(…)` anywhere in `s`.
  static bool hasDetachedTask(const Stmt *s) {
    if (!s) return false;
    if (auto *t = dyn_cast<OMPTaskDirective>(s); t && t->getSingleClause<OMPDetachClause>()) return true;
    for (const Stmt *child : children(s))
      if (hasDetachedTask(child)) return true;
    return false;
  }

  // The first one or two words of the directive as written ("parallel
  // loop", "loop"), or "" when it is not spelled as a pragma of its own.
  std::string writtenName(const OMPExecutableDirective *d) {
    unsigned off = 0, end = 0;
    std::string text;
    bool op = false;
    if (!pragmaText(d, off, end, text, op)) return "";
    PragmaText t;
    if (!parsePragma(text, 0, t) || t.clauses.empty()) return "";
    std::string w = t.clauses[0].name;
    if (t.clauses.size() > 1 && !t.clauses[0].had_parens && t.clauses[1].name == "loop")
      w += " loop";
    return w;
  }

  // `#` or `_Pragma` at `loc` (a metadirective's chosen variant starts at
  // its name inside the `when(…)`).
  bool isPragmaStart(SourceLocation loc) {
    llvm::StringRef rest = ctx_.sm.getBufferData(ctx_.fid)
                               .substr(ctx_.sm.getFileOffset(loc));
    return rest.starts_with("#") || rest.starts_with("_Pragma");
  }

  void plan(OMPExecutableDirective *d, Kind k, unsigned words) {
    const SourceManager &sm = ctx_.sm;
    SourceLocation hash = d->getBeginLoc();
    llvm::StringRef buf = ctx_.original;
    unsigned off = 0, end = 0;
    std::string raw;
    bool op = false;
    if (!pragmaText(d, off, end, raw, op)) {
      ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(ctx_.line(hash)) +
                              ": leaving an OpenMP directive alone: " +
                              (!ctx_.isFileChar(hash) ? "it comes from a macro expansion"
                               : isPragmaStart(hash) ? "its _Pragma string is not understood"
                                                     : "it is not written as a directive of its own "
                                                       "(a metadirective's variant)"));
      return;
    }
    // What gets commented out: the line(s), or the whole _Pragma(…).
    const std::string written = buf.substr(off, end - off).str();
    PragmaText t;
    bool understood = parsePragma(raw, words, t) && written.find("/*") == std::string::npos &&
                      written.find("*/") == std::string::npos;
    for (const Clause &c : t.clauses)
      if (isDirectiveWord(c.name)) understood = false;
    if (!understood) {
      ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(ctx_.line(hash)) +
                              ": leaving an OpenMP directive alone: clauses not understood");
      return;
    }
    // Right after a directive Clang could not parse: this one may be its
    // associated statement, so nothing may come between them.
    if (ctx_.followsUnknownDirective(off)) {
      ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(ctx_.line(hash)) +
                              ": leaving an OpenMP directive alone: it follows one Clang 19 "
                              "cannot parse");
      return;
    }
    // A clause Clang could not parse is re-issued as written, but a
    // combined construct is only split when every clause is understood.
    if (const BlankedPragma *b = ctx_.blankedAt(off);
        b && (k == Kind::ParallelFor || k == Kind::ParallelSections || k == Kind::ParallelMaster ||
              k == Kind::ParallelMasked || k == Kind::ParallelLoop || k == Kind::MaskedTaskloop ||
              k == Kind::ParallelMaskedTaskloop)) {
      ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(ctx_.line(hash)) +
                              ": leaving an OpenMP directive alone: a combined construct with a "
                              "clause Clang 19 cannot parse ('" + b->clause + "')");
      return;
    }
    Plan p;
    p.hash_offset = off;
    const unsigned l1 = sm.getLineNumber(ctx_.fid, off),
                   l2 = sm.getLineNumber(ctx_.fid, end);
    const Stmt *s = body(d);
    unsigned e_line = l2;
    if (s) {
      if (!stmtRange(s, p.stmt_begin, p.stmt_end)) {
        ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(l1) +
                                ": leaving an OpenMP directive alone: its block is in a macro");
        return;
      }
      p.has_stmt = true;
      e_line = sm.getLineNumber(ctx_.fid, p.stmt_end ? p.stmt_end - 1 : 0);
      // Its statement is a directive: unless that one is rewritten too, it
      // is re-issued as _Pragma (emit()), which needs its text understood.
      std::string inner_body;
      unsigned inner_end = 0;
      if (startsDirectiveLine(p.stmt_begin) &&
          !pragmaBody(directiveLines(p.stmt_begin, inner_end), inner_body)) {
        ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(l1) +
                                ": leaving an OpenMP directive alone: the directive that is its "
                                "statement has a comment inside");
        return;
      }
    }
    const std::string n = std::to_string(++counter_);
    const std::string h = "__hcc_omp" + n, b = "__hcc_ompb" + n;
    ast_nowait_ = d->getSingleClause<OMPNowaitClause>() != nullptr;  // also from a macro
    const std::string cs = ctc(k, l1, l2, e_line, e_line, t);
    const std::string decl = "{ static POMP2_Region_handle " + h + " = 0; ";
    // What the clause text may hide behind a macro (`#pragma omp for
    // FOR_CLAUSE`) is read from the AST as well.
    const bool nowait = hasClause(t.clauses, "nowait") || d->getSingleClause<OMPNowaitClause>();
    // A worksharing construct whose implicit barrier cannot be made an
    // explicit one: nowait is illegal with a task reduction, with a `cancel`
    // or `cancellation point` of the construct inside (Clang: "parent region
    // for 'omp cancel' construct cannot be nowait"), and an inscan reduction
    // is kept as written. Its barrier stays implicit, inside its region.
    const bool ws_keeps_barrier =
        hasTaskReduction(t.clauses) || hasReductionModifier(d, OMPC_REDUCTION_task) ||
        hasReductionModifier(d, OMPC_REDUCTION_inscan) || hasCancel(s, llvm::omp::OMPD_for) ||
        hasCancel(s, llvm::omp::OMPD_sections) || hasDetachedTask(s);
    std::string words_text;
    for (const std::string &w : t.words) words_text += (words_text.empty() ? "" : " ") + w;
    if (!t.paren_arg.empty()) words_text += "(" + t.paren_arg + ")";
    auto pragma = [](const std::string &text) {
      return "_Pragma(\"omp " + escapeForPragma(text) + "\") ";
    };
    // A combined construct is split into its constituents only when that
    // cannot change what it computes: not with an inscan reduction (Clang 19
    // miscompiles `parallel` + `for reduction(inscan, …)`: wrong prefix
    // sums), not when a clause comes from a macro (its text cannot be routed
    // to a part). Such a construct is re-issued as written and timed as one
    // region on the encountering thread, around the whole statement.
    const bool combined = k == Kind::ParallelFor || k == Kind::ParallelSections ||
                          k == Kind::ParallelMaster || k == Kind::ParallelMasked ||
                          k == Kind::ParallelLoop || k == Kind::MaskedTaskloop ||
                          k == Kind::ParallelMaskedTaskloop;
    const bool inscan = hasReductionModifier(d, OMPC_REDUCTION_inscan);
    const bool keep_whole = combined && (inscan || clauseFromMacro(d));
    if (keep_whole) {
      ctx_.messages.push_back("hcc: " + ctx_.file_name + ":" + std::to_string(l1) + ": omp " +
                              words_text + " kept whole, timed around the statement: " +
                              (inscan ? "an inscan reduction" : "a clause from a macro"));
      p.before_hash = decl + "hcc_pomp_construct_enter(&" + h + ", " +
                      ctc(words_text, Kind::None, l1, l2, e_line, e_line, t) + "); " +
                      pragma(words_text + joinClauses(t.clauses)) + "//";
      p.at_end = " hcc_pomp_construct_exit(&" + h + "); }";
    } else
    switch (k) {
      case Kind::Parallel:
      case Kind::ParallelFor:
      case Kind::ParallelSections:
      case Kind::ParallelMaster:
      case Kind::ParallelMasked:
      case Kind::ParallelLoop:
      case Kind::ParallelMaskedTaskloop: {
        // `master` takes no clauses: all of `parallel master`'s go to the
        // parallel; `masked` takes `filter` only.
        const bool all_par = k == Kind::Parallel || k == Kind::ParallelMaster ||
                             k == Kind::ParallelMasked;
        const bool tasking = k == Kind::ParallelMaskedTaskloop;
        std::vector<Clause> par, ws, masked;
        bool if_for_both = false;  // an `if` without modifier: parallel and taskloop
        for (const Clause &c : t.clauses) {
          if (c.name == "filter") {
            masked.push_back(c);
          } else if (tasking && c.name == "if") {
            const std::string m = ifModifier(c);
            if (m.empty()) if_for_both = true;
            (m.empty() || m == "parallel" ? par : ws).push_back(c);
          } else {
            (all_par || belongsToParallel(c) ? par : ws).push_back(c);
          }
        }
        const std::string team = "__hcc_ompt" + n;
        std::string pre = decl + "POMP2_Task_handle " + team + "; ";
        std::string ifv = "1", ntv = "0";
        bool none = false;
        std::string if_var;
        for (Clause &c : par) {
          // Evaluated once, before the fork, and passed to it (OPARI2's shape).
          const std::string mod = c.name == "if" ? ifModifier(c) : "";
          if (c.name == "if" && (c.args.find(':') == std::string::npos || mod == "parallel")) {
            const std::string e = mod.empty() ? c.args : c.args.substr(c.args.find(':') + 1);
            pre += "int __hcc_ompif" + n + " = !!(" + e + "); ";
            c.args = ifv = if_var = "__hcc_ompif" + n;
          } else if (c.name == "num_threads") {
            pre += "int __hcc_ompnt" + n + " = (" + c.args + "); ";
            c.args = ntv = "__hcc_ompnt" + n;
          } else if (c.name == "default" && (c.args.find("none") != std::string::npos ||
                                              c.args.find("private") != std::string::npos)) {
            // default(none), and OpenMP 5.1's default(private|firstprivate):
            // the split-off inner construct's variables must be shared in
            // the parallel part, as the combined construct makes them.
            none = true;
          }
        }
        // The same `if` value for the taskloop as for the parallel part,
        // evaluated once before the fork.
        if (if_for_both && !if_var.empty()) ws.push_back(Clause{"if", if_var, true});
        std::string extra = " shared(" + h;
        std::set<std::string> listed;  // variables the parallel part now names
        if (none && !all_par) {
          // Split off, the worksharing part's reduction/lastprivate lists must
          // be shared in the parallel part; the loop counter private.
          for (const Clause &c : ws)
            if (c.name == "reduction" || c.name == "lastprivate" || c.name == "private" ||
                c.name == "firstprivate" || c.name == "linear" || c.name == "in_reduction")
              for (const std::string &v : clauseVariables(c.args, c.name != "private" && c.name != "firstprivate")) {
                if (listed.insert(v).second) extra += ", " + v;
              }
        }
        extra += ") firstprivate(" + team + (if_for_both && !if_var.empty() ? ", " + if_var : "") + ")";
        if (none && (k == Kind::ParallelFor || k == Kind::ParallelLoop || tasking)) {
          if (auto *f = dyn_cast_or_null<ForStmt>(s))
            if (auto *bo = dyn_cast_or_null<BinaryOperator>(f->getInit()))
              if (auto *dr = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParenImpCasts()))
                if (!listed.count(dr->getDecl()->getNameAsString()))
                  extra += " private(" + dr->getDecl()->getNameAsString() + ")";
        }
        pre += "POMP2_Parallel_fork(&" + h + ", " + ifv + ", " + ntv + ", &" + team + ", " + cs +
               "); " + pragma("parallel" + joinClauses(par) + extra);
        // A task with `detach` may still be pending at the region's end: no
        // barrier the program did not have is added there (libomp 14 aborts
        // in a barrier that meets such a task: "Assertion failure at
        // kmp_runtime.cpp(2375)"); the region ends at Parallel_end and its
        // implicit barrier goes unmeasured.
        const bool detached = hasDetachedTask(s);
        std::string end_par = (detached ? std::string() : measuredBarrier(h, b)) + " POMP2_Parallel_end(&" + h +
                              "); } POMP2_Parallel_join(&" + h + ", " + team + "); }";
        if (k == Kind::Parallel) {
          p.before_hash = pre + "//";
          p.at_begin = "{ hcc_pomp_parallel_begin(&" + h + ", " + team + "); ";
          p.at_end = end_par;
          break;
        }
        if (k == Kind::ParallelMaster || k == Kind::ParallelMasked) {
          // parallel + master|masked: the master part has no barrier of its
          // own, the parallel's implicit one ends the team as for `parallel`.
          const std::string mh = "__hcc_ompm" + n;
          p.before_hash = pre + "//";
          p.at_begin = "{ hcc_pomp_parallel_begin(&" + h + ", " + team + "); { static POMP2_Region_handle " + mh +
                       " = 0; " + pragma(t.words[1] + joinClauses(masked)) + "{ POMP2_Master_begin(&" + mh + ", " +
                       ctc(Kind::Master, l1, l2, e_line, e_line, t) + "); ";
          p.at_end = " POMP2_Master_end(&" + mh + "); } }" + end_par;
          break;
        }
        if (tasking) {
          // parallel + master|masked + taskloop [simd]: the taskloop is
          // timed like a lone one (its wait included), inside the master part.
          const std::string mh = "__hcc_ompm" + n, th = "__hcc_ompl" + n;
          std::string ttext;
          for (size_t i = 2; i < t.words.size(); ++i) ttext += (i > 2 ? " " : "") + t.words[i];
          p.before_hash = pre + "{ hcc_pomp_parallel_begin(&" + h + ", " + team +
                          "); { static POMP2_Region_handle " + mh + " = 0; static POMP2_Region_handle " + th +
                          " = 0; " + pragma(t.words[1] + joinClauses(masked)) + "{ POMP2_Master_begin(&" + mh +
                          ", " + ctc(Kind::Master, l1, l2, e_line, e_line, t) + "); POMP2_Taskgroup_begin(&" +
                          th + ", " + ctc(Kind::Taskloop, l1, l2, e_line, e_line, t) + "); " +
                          pragma(ttext + joinClauses(ws)) + "//";
          p.at_begin = "";
          p.at_end = " POMP2_Taskgroup_end(&" + th + "); POMP2_Master_end(&" + mh + "); } }" + end_par;
          break;
        }
        if (k == Kind::ParallelLoop) {
          // parallel + loop: `loop` takes no nowait, so its own end (and
          // whatever waiting the runtime does there) is inside the loop
          // region, and the parallel's barrier is measured as for `parallel`.
          const std::string wh = "__hcc_ompw" + n;
          p.before_hash = pre + "{ hcc_pomp_parallel_begin(&" + h + ", " + team + "); { static POMP2_Region_handle " +
                          wh + " = 0; POMP2_For_enter(&" + wh + ", " + ctc(Kind::Loop, l1, l2, e_line, e_line, t) +
                          "); " + pragma("loop" + joinClauses(ws)) + "//";
          p.at_begin = "";
          p.at_end = " POMP2_For_exit(&" + wh + "); }" + end_par;
          break;
        }
        // The worksharing part: its own handle, nowait, one measured barrier
        // (the loop's) standing for both implicit ones.
        const std::string wh = "__hcc_ompw" + n, wb = "__hcc_ompwb" + n;
        Kind wk = k == Kind::ParallelFor ? Kind::For : Kind::Sections;
        std::string wtext;
        for (size_t i = 1; i < t.words.size(); ++i) wtext += (i > 1 ? " " : "") + t.words[i];
        const std::string wcs = ctc(wk, l1, l2, e_line, e_line, t);
        const char *enter = wk == Kind::For ? "POMP2_For_enter" : "POMP2_Sections_enter";
        const char *exit = wk == Kind::For ? "POMP2_For_exit" : "POMP2_Sections_exit";
        // A task reduction or a cancel forbids nowait: the loop keeps its
        // barrier (inside its region) and the parallel's is measured as for
        // `parallel`. With a detached task inside, the loop takes nowait and
        // the team's one barrier stays the parallel's implicit one.
        const bool own_end = ws_keeps_barrier || detached;
        p.before_hash = pre + "{ hcc_pomp_parallel_begin(&" + h + ", " + team + "); { static POMP2_Region_handle " +
                        wh + " = 0; " + enter + "(&" + wh + ", " + wcs + "); " +
                        pragma(wtext + joinClauses(ws) + (hasClause(ws, "nowait") || ws_keeps_barrier ? "" : " nowait")) + "//";
        p.has_stmt = true;  // the loop/block itself, unchanged
        p.at_begin = "";
        p.at_end = own_end ? " " + std::string(exit) + "(&" + wh + "); }" + end_par
                            : measuredBarrier(wh, wb) + " " + exit + "(&" + wh + "); } POMP2_Parallel_end(&" + h +
                                  "); } POMP2_Parallel_join(&" + h + ", " + team + "); }";
        if (wk == Kind::Sections) sections_handle_[s] = wh;
        break;
      }
      case Kind::For:
      case Kind::Sections:
      case Kind::Single: {
        const char *enter = k == Kind::For ? "POMP2_For_enter" : k == Kind::Sections ? "POMP2_Sections_enter" : "POMP2_Single_enter";
        const char *exit = k == Kind::For ? "POMP2_For_exit" : k == Kind::Sections ? "POMP2_Sections_exit" : "POMP2_Single_exit";
        // copyprivate needs the construct's own barrier (nowait is illegal with it).
        bool keep_barrier = hasClause(t.clauses, "copyprivate") ||
                            d->getSingleClause<OMPCopyprivateClause>() || ws_keeps_barrier;
        p.before_hash = decl + enter + "(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses) + (nowait || keep_barrier ? "" : " nowait")) + "//";
        std::string tail = nowait || keep_barrier ? "" : measuredBarrier(h, b);
        if (k == Kind::Single) {
          p.at_begin = "{ POMP2_Single_begin(&" + h + "); ";
          p.at_end = " POMP2_Single_end(&" + h + "); }" + tail + " " + exit + "(&" + h + "); }";
        } else {
          p.at_end = tail + " " + exit + "(&" + h + "); }";
        }
        if (k == Kind::Sections) sections_handle_[s] = h;
        break;
      }
      case Kind::Section: {
        // Its handle is the enclosing `sections` construct's (parent map).
        std::string sh = currentSections(d);
        if (sh.empty()) return;
        p.before_hash = "";
        p.at_begin = "{ POMP2_Section_begin(&" + sh + ", " + cs + "); ";
        p.at_end = " POMP2_Section_end(&" + sh + "); }";
        break;
      }
      case Kind::Master:
        p.before_hash = decl + pragma(words_text + joinClauses(t.clauses)) + "//";
        p.at_begin = "{ POMP2_Master_begin(&" + h + ", " + cs + "); ";
        p.at_end = " POMP2_Master_end(&" + h + "); } }";
        break;
      case Kind::MaskedTaskloop: {
        // master|masked + taskloop [simd]: `filter` to masked, the rest to
        // the taskloop, which is timed as a lone one inside the master part.
        std::vector<Clause> masked, rest;
        for (const Clause &c : t.clauses) (c.name == "filter" ? masked : rest).push_back(c);
        const std::string th = "__hcc_ompl" + n;
        std::string ttext;
        for (size_t i = 1; i < t.words.size(); ++i) ttext += (i > 1 ? " " : "") + t.words[i];
        p.before_hash = decl + "static POMP2_Region_handle " + th + " = 0; " +
                        pragma(t.words[0] + joinClauses(masked)) + "{ POMP2_Master_begin(&" + h + ", " + cs +
                        "); POMP2_Taskgroup_begin(&" + th + ", " + ctc(Kind::Taskloop, l1, l2, e_line, e_line, t) +
                        "); " + pragma(ttext + joinClauses(rest)) + "//";
        p.at_end = " POMP2_Taskgroup_end(&" + th + "); POMP2_Master_end(&" + h + "); } }";
        break;
      }
      case Kind::Loop:
        p.before_hash = decl + "POMP2_For_enter(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + "//";
        p.at_end = " POMP2_For_exit(&" + h + "); }";
        break;
      case Kind::Scope: {
        // A worksharing construct: nowait and a measured barrier, as `for`.
        const bool own = nowait || ws_keeps_barrier;
        p.before_hash = decl + "hcc_pomp_construct_enter(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses) + (own ? "" : " nowait")) + "//";
        p.at_end = (own ? "" : measuredBarrier(h, b)) + " hcc_pomp_construct_exit(&" + h + "); }";
        break;
      }
      case Kind::Transform: {
        const std::string type = llvm::omp::getOpenMPDirectiveName(d->getDirectiveKind()).str();
        p.before_hash = decl + "hcc_pomp_construct_enter(&" + h + ", " +
                        ctc(type, k, l1, l2, e_line, e_line, t) + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + "//";
        p.at_end = " hcc_pomp_construct_exit(&" + h + "); }";
        break;
      }
      case Kind::Error:
        // Counted where it is reached, just after it: the directive keeps
        // its column, which libomp prints in the message (Clang passes the
        // directive's line and column). Nothing to time: it prints a
        // message, or ends the program.
        p.before_hash = pragma(words_text + joinClauses(t.clauses)) + decl + "hcc_pomp_construct_enter(&" + h +
                        ", " + cs + "); hcc_pomp_construct_exit(&" + h + "); } //";
        break;
      case Kind::Critical:
      case Kind::Ordered: {
        const std::string C = k == Kind::Critical ? "Critical" : "Ordered";
        p.before_hash = decl + "POMP2_" + C + "_enter(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + "//";
        p.at_begin = "{ POMP2_" + C + "_begin(&" + h + "); ";
        p.at_end = " POMP2_" + C + "_end(&" + h + "); } POMP2_" + C + "_exit(&" + h + "); }";
        break;
      }
      case Kind::Taskgroup:
      case Kind::Taskloop:
        // Enter before the construct, exit after it: the end of a taskgroup
        // (and of a taskloop without nogroup) waits for its tasks, so that
        // wait is inside the region.
        p.before_hash = decl + "POMP2_Taskgroup_begin(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + "//";
        p.at_end = " POMP2_Taskgroup_end(&" + h + "); }";
        break;
      case Kind::Atomic:
        p.before_hash = decl + "POMP2_Atomic_enter(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + "//";
        p.at_end = " POMP2_Atomic_exit(&" + h + "); }";
        break;
      case Kind::Task: {
        const std::string nt = "__hcc_ompn" + n, ot = "__hcc_ompo" + n;
        p.before_hash = decl + "POMP2_Task_handle " + nt + ", " + ot + "; POMP2_Task_create_begin(&" + h +
                        ", &" + nt + ", &" + ot + ", 1, " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses) + " shared(" + h + ")") + "//";
        p.at_begin = "{ POMP2_Task_begin(&" + h + ", 0); ";
        p.at_end = " POMP2_Task_end(&" + h + "); } POMP2_Task_create_end(&" + h + ", " + ot + "); }";
        break;
      }
      case Kind::Barrier:
      case Kind::Taskwait: {
        const std::string C = k == Kind::Barrier ? "POMP2_Barrier_enter" : "POMP2_Taskwait_begin";
        const std::string E = k == Kind::Barrier ? "POMP2_Barrier_exit" : "POMP2_Taskwait_end";
        p.before_hash = decl + "POMP2_Task_handle " + b + "; " + C + "(&" + h + ", &" + b + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + E + "(&" + h + ", " + b + "); } //";
        break;
      }
      case Kind::Flush:
        p.before_hash = decl + "POMP2_Flush_enter(&" + h + ", " + cs + "); " +
                        pragma(words_text + joinClauses(t.clauses)) + "POMP2_Flush_exit(&" + h + "); } //";
        break;
      case Kind::None:
        return;
    }
    if (k == Kind::Barrier || k == Kind::Taskwait || k == Kind::Flush || k == Kind::Error)
      p.has_stmt = false;
    // A continued pragma: `//` would make GCC warn (-Wcomment) about a
    // multi-line comment; a block comment closed at its last line does not.
    // A _Pragma(…) is commented out the same way, up to its `)`: the
    // statement may follow on the same line.
    if ((op || raw.find('\n') != std::string::npos) && p.before_hash.size() >= 2 &&
        p.before_hash.compare(p.before_hash.size() - 2, 2, "//") == 0) {
      p.before_hash.replace(p.before_hash.size() - 2, 2, "/*");
      p.comment_end = end;
    }
    // Our code right after an unbraced loop/if body on the same line would
    // trip -Wmisleading-indentation (an error under -Werror): silenced for
    // this construct only, the user's own code elsewhere still warns.
    if (p.has_stmt && s && (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<IfStmt>(s) ||
                            isa<CXXForRangeStmt>(s)) &&
        buf[p.stmt_end - 1] != '}') {
      p.before_hash = "_Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic ignored \\\"-Wmisleading-indentation\\\"\") " + p.before_hash;
      p.at_end += " _Pragma(\"GCC diagnostic pop\")";
    }
    plans_.push_back(std::move(p));
    if (k == Kind::Sections || k == Kind::ParallelSections) wrapFirstSection(s);
  }

  // The first section may be written without `#pragma omp section`: its
  // statement is wrapped like a section's, so it is timed as one.
  void wrapFirstSection(const Stmt *s) {
    auto *cs = dyn_cast_or_null<CompoundStmt>(s);
    if (!cs || cs->body_empty() || isa<OMPSectionDirective>(cs->body_front())) return;
    std::string sh = sections_handle_[s];
    if (sh.empty()) return;  // `parallel sections` kept whole
    Plan p;
    if (!stmtRange(cs->body_front(), p.stmt_begin, p.stmt_end)) return;
    p.has_stmt = true;
    p.hash_offset = p.stmt_begin;
    p.at_begin = "{ POMP2_Section_begin(&" + sh + ", \"\"); ";
    p.at_end = " POMP2_Section_end(&" + sh + "); }";
    plans_.push_back(std::move(p));
  }

  // The handle of the `sections` whose block holds section `d`.
  std::string currentSections(OMPExecutableDirective *d) {
    for (auto &[stmt, handle] : sections_handle_) {
      if (auto *cs = dyn_cast<CompoundStmt>(stmt))
        for (const Stmt *c : cs->body())
          if (c == d) return handle;
    }
    return "";
  }

  struct LockCall {
    unsigned begin, end;
    std::string name;
  };
  RewriteContext &ctx_;
  std::vector<Plan> plans_;
  std::vector<LockCall> locks_;
  std::map<const Stmt *, std::string> sections_handle_;
  std::set<const Stmt *> bare_;  // loop transformations that are another construct's loop
  std::set<unsigned> nothing_, nothing_ok_;  // `#pragma omp nothing`: all, and those timed
  unsigned counter_ = 0;
  bool ast_nowait_ = false;  // the directive being planned has nowait (AST: a macro's too)
};

}  // namespace

unsigned addOpenMPDirectives(RewriteContext &ctx) {
  OpenMPRewriter r(ctx);
  for (Decl *d : ctx.decls) r.TraverseDecl(d);
  r.emit();
  return r.count();
}

}  // namespace hcc::rewriter
