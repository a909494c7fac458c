#include "naming.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/GlobalDecl.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace hcc::rewriter {

using namespace clang;

std::string quoteCString(llvm::StringRef s) {
  std::string out = "\"";
  char prev = 0;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '?':
        // "??=" and friends are trigraphs under -trigraphs / -std=c89.
        out += prev == '?' ? "\\?" : "?";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          // Octal, always three digits, so a following digit cannot join it.
          char buf[8];
          snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += ch;  // UTF-8 passes through: the output has the input's encoding
        }
    }
    prev = ch;
  }
  out += '"';
  return out;
}

PrintingPolicy namingPolicy(const LangOptions &lang) {
  PrintingPolicy p(lang);
  p.SuppressTagKeyword = true;       // "S *", not "struct S *", like c++filt
  p.AnonymousTagLocations = false;   // no "(unnamed struct at /home/me/x.cpp:3:1)"
  p.SuppressTemplateArgsInCXXConstructors = true;  // "A<int>::A()", not "A<int>::A<int>()"
  return p;
}

bool nameDependsOnInstantiation(const FunctionDecl *fd) {
  return fd->isDependentContext();
}

namespace {

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A type as a demangler shows it. Clang prints the tag keyword of an
// elaborated type as written (`struct Pt *`) whatever SuppressTagKeyword
// says; a keyword can never be an identifier, so dropping every standalone
// "struct "/"class "/"union "/"enum " is safe.
std::string typeName(QualType t, const PrintingPolicy &policy) {
  std::string printed = t.getAsString(policy);
  std::string out;
  out.reserve(printed.size());
  for (size_t i = 0; i < printed.size();) {
    if (isIdentChar(printed[i])) {
      size_t j = i;
      while (j < printed.size() && isIdentChar(printed[j])) ++j;
      llvm::StringRef word(printed.data() + i, j - i);
      bool tag = word == "struct" || word == "class" || word == "union" || word == "enum";
      if (tag && j < printed.size() && printed[j] == ' ') {
        i = j + 1;
        continue;
      }
      out.append(word.begin(), word.end());
      i = j;
    } else {
      out += printed[i++];
    }
  }
  return out;
}

// Functions whose symbol is their plain identifier keep that as their name
// too: `main` and extern "C" functions, which a C build would show the same way.
bool usesPlainName(const FunctionDecl *fd) {
  if (!fd->getASTContext().getLangOpts().CPlusPlus) return true;
  return fd->getIdentifier() && (fd->isMain() || fd->isExternC());
}

// "(int *, int)" and the method's qualifiers: the function type's
// parameters, not the declared ones (top-level const is dropped and arrays
// decay), which is the signature a demangler shows.
void printParameters(llvm::raw_ostream &os, const FunctionDecl *fd, const PrintingPolicy &policy) {
  os << '(';
  if (const auto *proto = fd->getType()->getAs<FunctionProtoType>()) {
    bool first = true;
    for (QualType t : proto->getParamTypes()) {
      if (!first) os << ", ";
      first = false;
      os << typeName(t, policy);
    }
    if (proto->isVariadic()) os << (first ? "..." : ", ...");
    // C's "int f(void)" (a prototype without parameters), as TAU writes it.
    if (first && !proto->isVariadic() && !fd->getASTContext().getLangOpts().CPlusPlus) os << "void";
    os << ')';
    if (const auto *md = dyn_cast<CXXMethodDecl>(fd); md && md->isInstance()) {
      Qualifiers q = proto->getMethodQuals();
      if (q.hasConst()) os << " const";
      if (q.hasVolatile()) os << " volatile";
      if (proto->getRefQualifier() == RQ_LValue) os << " &";
      if (proto->getRefQualifier() == RQ_RValue) os << " &&";
    }
  } else {
    os << ')';  // C's "int f()": no prototype
  }
}

}  // namespace

std::string readableName(const FunctionDecl *fd, const PrintingPolicy &policy) {
  if (usesPlainName(fd)) return fd->getNameAsString();

  std::string out;
  llvm::raw_string_ostream os(out);
  // Qualified, with template arguments for explicit specializations
  // ("ns::max<int>").
  fd->getNameForDiagnostic(os, policy, /*Qualified=*/true);
  printParameters(os, fd, policy);
  return os.str();
}

std::string tauSignature(const FunctionDecl *fd, const PrintingPolicy &policy) {
  std::string out;
  llvm::raw_string_ostream os(out);
  // Constructors, destructors and conversion functions have no return type.
  if (!isa<CXXConstructorDecl>(fd) && !isa<CXXDestructorDecl>(fd) && !isa<CXXConversionDecl>(fd))
    os << typeName(fd->getReturnType(), policy) << ' ';
  if (usesPlainName(fd)) {
    os << fd->getName();
    printParameters(os, fd, policy);
  } else {
    os << readableName(fd, policy);
  }
  return os.str();
}

std::string functionNameExpr(const FunctionDecl *fd, const PrintingPolicy &policy) {
  // The compiler knows each instantiation's arguments; we only see the
  // pattern. __PRETTY_FUNCTION__ is a static array, so its address is a
  // constant and the descriptor stays constant-initialized.
  if (nameDependsOnInstantiation(fd)) return "__PRETTY_FUNCTION__";
  return quoteCString(readableName(fd, policy));
}

std::string linkerName(const FunctionDecl *fd, MangleContext &mangler) {
  if (const auto *label = fd->getAttr<AsmLabelAttr>()) return label->getLabel().str();
  if (!fd->getASTContext().getLangOpts().CPlusPlus) return fd->getNameAsString();
  if (fd->isDependentContext()) return "";
  if (!mangler.shouldMangleDeclName(fd)) {
    return fd->getIdentifier() ? fd->getName().str() : std::string();
  }

  // Constructors and destructors have several symbols (C1/C2, D0/D1/D2); the
  // complete-object one is what callers outside the class hierarchy call.
  GlobalDecl gd;
  if (const auto *ctor = dyn_cast<CXXConstructorDecl>(fd))
    gd = GlobalDecl(ctor, Ctor_Complete);
  else if (const auto *dtor = dyn_cast<CXXDestructorDecl>(fd))
    gd = GlobalDecl(dtor, Dtor_Complete);
  else
    gd = GlobalDecl(fd);

  std::string out;
  llvm::raw_string_ostream os(out);
  mangler.mangleName(gd, os);
  return os.str();
}

std::string lambdaName(llvm::StringRef file, unsigned line) {
  // The base name: the descriptor's file field has the full name, and build
  // directories would make the same program's profiles differ by machine.
  return "lambda at " + llvm::sys::path::filename(file).str() + ":" + std::to_string(line);
}

std::string shortName(const FunctionDecl *fd) {
  return fd->getQualifiedNameAsString();
}

}  // namespace hcc::rewriter
