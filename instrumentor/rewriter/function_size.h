// --functions=auto: which functions are too small to be worth an enter/exit
// pair. A guard costs ~20 ns per call and, worse, keeps the compiler from
// inlining the function (and vectorising the loop around the call); for an
// accessor that is most of a program's dilation.
//
// The rule is the AST's stand-in for LLVM XRay's default (no function below
// 200 machine instructions unless it has a loop). A function is KEPT when
// any of these holds, in this order:
//   - it is `main`;
//   - its body has a loop (for, while, do, range-for) or a goto;
//   - it has try/catch (or is a function-try-block);
//   - it has an OpenMP directive, calls an MPI function (MPI_*, PMPI_*), or
//     opens/closes a user region (hcc_region_* calls, `#pragma hcc region`,
//     `#pragma pomp inst`);
//   - it calls a function worth measuring: itself (recursion, also mutual),
//     a user function this rule keeps, a user function whose body is not in
//     this translation unit (its size is unknown), a library function that
//     is compiled in the library (not inline, not a template, not a
//     builtin: qsort, fopen, dgemm_), or through a
//     function pointer;
//   - its size is at least the minimum (kAutoMinSize, --min-size=N).
// Size = statements + operations. Statements: each statement of a block
// (declarations included) and each unbraced if/else branch. Operations:
// calls (member, operator, constructor calls of user types), unary, binary,
// compound-assignment and conditional operators, subscripts, new, delete,
// throw, and a lambda expression (1; its body is a function of its own).
// Names, literals, member accesses and casts cost nothing. A constructor's
// member initialisers count as part of its body.
// Calls of the system headers' inline functions and templates
// (std::vector::operator[], std::min, std::sort) and of builtins (sqrt,
// memcpy, printf, malloc: Clang knows these library functions) count as one
// operation each: their bodies are not parsed, and XRay would see one call
// instruction too. So a one-line wrapper of std::sort is left out. Inside templates a call whose target depends
// on a template parameter counts as an operation (the target is unknown
// until instantiation) unless a candidate by that name is kept.
#ifndef HCC_REWRITER_FUNCTION_SIZE_H
#define HCC_REWRITER_FUNCTION_SIZE_H

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include "policy.h"

#include <map>
#include <set>
#include <string>

namespace hcc::rewriter {

struct SizeVerdict {
  bool keep = true;
  // Why: "has a loop", "calls 'solve'" …; for a function left out
  // "1 statement, 4 operations (size 5 < 40), no loop, no call worth measuring".
  std::string reason;
};

class SizeRule {
 public:
  SizeRule(clang::ASTContext &ast, unsigned min_size) : ast_(ast), min_size_(min_size) {}
  // `body` is the function's (or lambda call operator's) body.
  SizeVerdict judge(const clang::FunctionDecl *fd);

 private:
  struct Walk;
  SizeVerdict judgeBody(const clang::FunctionDecl *fd, const clang::Stmt *body);
  // Whether a call to `callee` keeps its caller, and why ("" if not).
  std::string callKeeps(const clang::FunctionDecl *callee);
  bool userCode(clang::SourceLocation loc) const;

  clang::ASTContext &ast_;
  unsigned min_size_;
  std::map<const clang::FunctionDecl *, SizeVerdict> memo_;
  std::set<const clang::FunctionDecl *> in_progress_;
};

}  // namespace hcc::rewriter

#endif
