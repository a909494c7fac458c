// --functions=auto: which functions are not worth an enter/exit pair. A
// guard costs ~20 ns per call and, worse, keeps the compiler from inlining
// the function (and vectorising the loop around the call); for an accessor
// that is most of a program's dilation.
//
// The rule is the AST's stand-in for LLVM XRay's default (no function below
// 200 machine instructions unless it has a loop), sharpened by one fact: a
// function with no loop, no goto, no recursion and no call of unknown cost
// runs each of its operations at most once per call, so its time per call is
// bounded by its size and is of the order of the pair itself (geometry
// kernels of 40-100 operations ran 30-35 ns per call). Such a *straight-line
// leaf* is left out whatever its size.
//
// A function is KEPT, whatever its size, when any of these holds, in order:
//   - it is `main`;
//   - its body has a loop (for, while, do, range-for) or a goto; a `for`
//     loop counted by constants is not such a loop when the function makes
//     no call of unknown cost: see kMaxBoundedWork below;
//   - it has try/catch (or is a function-try-block);
//   - it has an OpenMP directive, calls an MPI function (MPI_*, PMPI_*), or
//     opens/closes a user region (hcc_region_* calls, `#pragma hcc region`,
//     `#pragma pomp inst`);
//   - it calls itself (recursion, also mutual) or a user function this rule
//     keeps.
// Otherwise, when it makes a call of UNKNOWN cost — a user function whose
// body is not in this translation unit, a library function that is compiled
// in the library (not inline, not a template, not a builtin: qsort, fopen,
// dgemm_), anything through a function pointer, or a user function left out
// that itself makes such a call — the size decides: kept from the minimum
// (kAutoMinSize, --min-size=N) on. A small wrapper of qsort is left out; the
// callee of another file is measured there if that file is built by hcc.
// Otherwise it is a straight-line leaf (its calls, if any, go to left-out
// straight-line leaves, inline library code, or noreturn/cold functions):
// left out. A function whose only calls are to straight-line leaves is one.
// With counted loops in it (or in a bounded function it calls) it is a
// bounded leaf: left out while its work is at most kMaxBoundedWork.
//
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
// instruction too. So a wrapper of std::sort is left out, whatever the size
// of the array it sorts (a limit: the call is not of unknown cost). Inside
// templates a call whose target depends on a template parameter counts as
// an operation (the target is unknown until instantiation) unless a
// candidate by that name is kept.
#ifndef HCC_REWRITER_FUNCTION_SIZE_H
#define HCC_REWRITER_FUNCTION_SIZE_H

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include "policy.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace hcc::rewriter {

struct SizeVerdict {
  bool keep = true;
  // Why: "has a loop", "calls 'solve', which is kept (has a loop)" …; for a
  // function left out "straight-line leaf: no loop, no call worth measuring
  // (size 87)" or "too small: size 5 < 40 (…), no loop; calls 'qsort', …".
  std::string reason;
  // The first call of unknown cost it makes (directly or through left-out
  // functions), "" if none: a caller of a left-out function inherits it, so
  // a function is a straight-line leaf only if all it calls is bounded too.
  std::string unknown_call;
  // For a function left out with no call of unknown cost: the operations
  // and statements one call runs at most (its calls' included), whether a
  // counted loop is among them, and the largest number of iterations of one.
  uint64_t work = 0;
  bool loops = false;
  uint64_t trips = 0;
};

// A function whose loops are all counted (constant bounds, see below) is
// left out while one call does at most this much: statements and operations,
// each times the iterations of the loops around it, its calls' work added.
// The work is an upper bound (both arms of an `if`, a triangular loop as a
// square one). btsolve's 5x5 block kernels (tests/bench/standins/btsolve.c,
// work 141, 442, 861 and 2 521) ran 12, 17, 44 and 94 ns a call with GCC
// -O2: about 0.04 ns per unit, so 5 000 is about 200 ns, ten pairs (the
// TAU-style line between what is worth timing and what is not).
constexpr uint64_t kMaxBoundedWork = 5000;

class SizeRule {
 public:
  SizeRule(clang::ASTContext &ast, unsigned min_size) : ast_(ast), min_size_(min_size) {}
  // `body` is the function's (or lambda call operator's) body.
  SizeVerdict judge(const clang::FunctionDecl *fd);

 private:
  struct Walk;
  SizeVerdict judgeBody(const clang::FunctionDecl *fd, const clang::Stmt *body);
  // What a call of `callee` says about its caller: nothing (bounded), that
  // its cost is unknown (the size decides), or that it keeps the caller.
  enum class CallWorth { Bounded, Unknown, Keeps };
  struct CallVerdict {
    CallWorth worth = CallWorth::Bounded;
    std::string why;  // "calls 'qsort', compiled in a library" …
    uint64_t work = 0;  // Bounded: SizeVerdict's
    bool loops = false;
    uint64_t trips = 0;
  };
  CallVerdict callWorth(const clang::FunctionDecl *callee);
  bool userCode(clang::SourceLocation loc) const;

  clang::ASTContext &ast_;
  unsigned min_size_;
  std::map<const clang::FunctionDecl *, SizeVerdict> memo_;
  std::set<const clang::FunctionDecl *> in_progress_;
};

}  // namespace hcc::rewriter

#endif
