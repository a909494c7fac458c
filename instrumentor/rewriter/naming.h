// The strings that go into a region descriptor: the readable name, the
// linker name, and the quoting that makes any of them a C string literal.
#ifndef HCC_REWRITER_NAMING_H
#define HCC_REWRITER_NAMING_H

#include <clang/AST/Decl.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/PrettyPrinter.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace hcc::rewriter {

// `s` as a C/C++ string literal, quotes included.
std::string quoteCString(llvm::StringRef s);

// How names print: like a demangler would ("S::operator+(const S &)"), and
// never with the build machine's paths ("(anonymous struct)").
clang::PrintingPolicy namingPolicy(const clang::LangOptions &lang);

// True when the name must be left to the compiler (__PRETTY_FUNCTION__):
// function templates, members of class templates and everything else inside
// a template, so each instantiation gets its own name.
bool nameDependsOnInstantiation(const clang::FunctionDecl *fd);

// The initializer of the descriptor's `name` field: a string literal, or
// __PRETTY_FUNCTION__ (unquoted) for templates.
//   C:    fib
//   C++:  geo::Matrix::mul(double) const
//   main and extern "C" functions: the plain name, as their linker name is.
std::string functionNameExpr(const clang::FunctionDecl *fd,
                             const clang::PrintingPolicy &policy);

// The readable name without quotes (non-template functions).
std::string readableName(const clang::FunctionDecl *fd, const clang::PrintingPolicy &policy);

// The routine as TAU writes it in selective-instrumentation files, for the
// compile-time filter: return type, qualified name, parameter types
// ("int early(int)", "double multiply(void)", "int ns::A::f(int) const").
std::string tauSignature(const clang::FunctionDecl *fd, const clang::PrintingPolicy &policy);

// The linker symbol: Itanium-mangled for C++, the plain name for C and
// extern "C", the asm label when there is one; "" inside templates, where the
// pattern has no symbol of its own.
std::string linkerName(const clang::FunctionDecl *fd, clang::MangleContext &mangler);

// "lambda at app.cpp:12", with the base name of `file` (src/app.cpp -> app.cpp)
std::string lambdaName(llvm::StringRef file, unsigned line);

// Short name for messages: "geo::Matrix::mul".
std::string shortName(const clang::FunctionDecl *fd);

}  // namespace hcc::rewriter

#endif
