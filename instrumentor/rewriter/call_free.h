// Whether a function body can run no other code: count mode's one-call form
// (HCC_COUNT_VISIT_, runtime/core/README.md "Count mode") is only right for
// a function inside which no event can happen, since it pushes no frame.
#ifndef HCC_REWRITER_CALL_FREE_H
#define HCC_REWRITER_CALL_FREE_H

#include <clang/AST/Stmt.h>

namespace hcc::rewriter {

// True when `body` calls nothing: no call of any function (a user's, a
// library's, through a pointer, an operator or a conversion of a class type),
// no object of a class type built or destroyed by code (a non-trivial
// constructor or destructor, a temporary bound for destruction), no
// new/delete/throw, no asm, no try, no coroutine, no OpenMP directive and, in
// a template, no expression whose meaning waits for the instantiation (it may
// become an operator call). GCC/Clang builtins that run no user code
// (`__builtin_expect`, `__builtin_memcpy`, `fabs`: Clang's builtins with the
// `const` or `pure` attribute, or named `__builtin_*`) are not calls.
bool callsNothing(const clang::Stmt *body);

}  // namespace hcc::rewriter

#endif
