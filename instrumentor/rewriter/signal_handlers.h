// Signal handlers are left as written. The runtime's hooks are not
// async-signal-safe: an enter may allocate a call-tree node (calloc) and
// every event updates the thread's shadow stack in several steps. A guard in
// a handler that interrupts malloc, or the runtime itself, deadlocks on
// malloc's lock or corrupts the stack (seen: a SIGALRM handler re-arming its
// timer hung the program at exit, its calloc waiting for the calloc it had
// interrupted). So a function installed as a handler in this translation
// unit, and every function of it that the handler calls (directly or
// through others), gets no guard, whatever the policy or filter says.
//
// Installed means: the function (or a captureless lambda) is the handler
// argument of signal/sigset/bsd_signal/sysv_signal, is assigned to a
// `sa_handler` or `sa_sigaction` member, or appears in the initializer of a
// `struct sigaction`. A handler installed from another file, or through a
// variable holding the pointer, is not seen (docs/limits.md).
#ifndef HCC_REWRITER_SIGNAL_HANDLERS_H
#define HCC_REWRITER_SIGNAL_HANDLERS_H

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <map>
#include <string>

namespace hcc::rewriter {

// Canonical declaration → why it stays as written: "signal handler
// (installed at app.cpp:12)" or "called from the signal handler 'on_alarm'".
using SignalHandlers = std::map<const clang::FunctionDecl *, std::string>;

SignalHandlers findSignalHandlers(clang::ASTContext &ast);

}  // namespace hcc::rewriter

#endif
