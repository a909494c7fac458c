// hcc runtime — names of sampled functions, resolved at a profile build
// (never in the handler): libdw's Dwfl (elfutils) reads the process's
// modules from /proc/self/maps, names an address from the ELF symbol table
// (static functions included, which dladdr cannot name) and gives the
// DWARF line of the function's first instruction. C++ names are demangled
// with the C++ library's abi::__cxa_demangle.
//
// Why libdw (libdw-dev) and not libbacktrace or addr2line: it is a
// maintained Debian package, it covers symbol tables and DWARF in one
// interface (libbacktrace's Debian package is internal to GCC), and it runs
// in-process without spawning anything.
//
// libdw (and what it loads: libelf and four compressors) is opened with
// dlopen the first time sampling needs it, as OTF2, PAPI and the CUBE writer
// are: a program that does not sample never loads it. Only its headers are
// needed at build time; every function called is listed in HCC_LIBDW_FUNCTIONS.
#include <cxxabi.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <vector>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sampling/sampling.hpp"

namespace hcc::rt::sampling {

namespace {

#define HCC_LIBDW_FUNCTIONS(X)                                                                              \
  X(dwfl_begin) X(dwfl_report_begin) X(dwfl_linux_proc_report) X(dwfl_report_end) X(dwfl_addrmodule)       \
  X(dwfl_module_addrname) X(dwfl_module_addrdie) X(dwarf_getscopes) X(dwarf_tag) X(dwarf_decl_file)         \
  X(dwarf_decl_line) X(dwfl_module_getsrc) X(dwfl_lineinfo) X(dwfl_module_info) X(dwfl_module_getsymtab)    \
  X(dwfl_module_getsym_info) X(dwfl_getmodules) X(dwfl_linux_proc_find_elf) X(dwfl_build_id_find_debuginfo)   \
  X(dwfl_module_getelf) X(dwarf_attr_integrate) X(dwarf_formstring) HCC_LIBELF_FUNCTIONS(X)
// libelf's, found through libdw's handle (libdw depends on it): PLT stubs'
// names come from section headers and relocations.
#define HCC_LIBELF_FUNCTIONS(X)                                                                              \
  X(elf_nextscn) X(elf_getscn) X(elf_getdata) X(elf_strptr) X(elf_getshdrstrndx) X(gelf_getshdr)            \
  X(gelf_getrela) X(gelf_getsym)

struct LibDw {
#define HCC_LIBDW_MEMBER(name) decltype(&::name) name = nullptr;
  HCC_LIBDW_FUNCTIONS(HCC_LIBDW_MEMBER)
#undef HCC_LIBDW_MEMBER
};

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;  // guards everything below
const LibDw *g_dw = nullptr;
bool g_dw_tried = false;
Dwfl *g_dwfl = nullptr;
char *g_debuginfo_path = nullptr;
Dwfl_Callbacks g_callbacks{};

// libdw's functions, loaded once; nullptr (said once on stderr) when libdw
// cannot be loaded: sampled functions are then named by address.
const LibDw *libdw() {
  if (g_dw_tried) return g_dw;
  g_dw_tried = true;
  void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    std::fprintf(stderr, "hcc: warning: HCC_SAMPLING: cannot load libdw (%s; Debian: apt-get install libdw1); "
                 "sampled functions are named by address\n", e ? e : "dlopen failed");
    return nullptr;
  }
  auto *dw = new LibDw();
  std::string missing;
#define HCC_LIBDW_RESOLVE(name)                                        \
  dw->name = reinterpret_cast<decltype(&::name)>(dlsym(h, #name));     \
  if (!dw->name) missing += std::string(missing.empty() ? "" : ", ") + #name;
  HCC_LIBDW_FUNCTIONS(HCC_LIBDW_RESOLVE)
#undef HCC_LIBDW_RESOLVE
  if (!missing.empty()) {
    std::fprintf(stderr, "hcc: warning: HCC_SAMPLING: libdw.so.1 lacks %s; sampled functions are named by address\n",
                 missing.c_str());
    delete dw;
    return nullptr;
  }
  // Separate debug files by build ID only (/usr/lib/debug/.build-id/…, where
  // Debian's -dbg and -dbgsym packages put them), not the standard search:
  // when that finds nothing local it asks debuginfod, whose client libdw
  // dlopens with curl, GnuTLS, Kerberos and LDAP (~20 libraries, 5 ms of
  // every sampled run here) and which would query the servers named in
  // DEBUGINFOD_URLS at the end of the user's run.
  g_callbacks = Dwfl_Callbacks{dw->dwfl_linux_proc_find_elf, dw->dwfl_build_id_find_debuginfo, nullptr,
                               &g_debuginfo_path};
  g_dw = dw;
  return g_dw;
}

// (Re)reads the module list: once, and again when an address is in a module
// loaded since.
bool report_modules() {
  const LibDw *dw = libdw();
  if (!dw) return false;
  if (!g_dwfl) g_dwfl = dw->dwfl_begin(&g_callbacks);
  if (!g_dwfl) return false;
  dw->dwfl_report_begin(g_dwfl);
  int rc = dw->dwfl_linux_proc_report(g_dwfl, getpid());
  dw->dwfl_report_end(g_dwfl, nullptr, nullptr);
  return rc == 0;
}

Dwfl_Module *module_of(uintptr_t addr) {
  if (!g_dwfl && !report_modules()) return nullptr;
  Dwfl_Module *m = g_dw->dwfl_addrmodule(g_dwfl, Dwarf_Addr(addr));
  if (!m && report_modules()) m = g_dw->dwfl_addrmodule(g_dwfl, Dwarf_Addr(addr));
  return m;
}

std::string demangle(const char *name) {
  int status = 0;
  char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string out = d;
  std::free(d);
  return out;
}

// A PLT stub's target, "qsort@plt": the stub's jump goes through a GOT
// slot (`jmp *disp(%rip)`, after an `endbr64` and a `bnd` prefix where
// present); the relocation that fills that slot names the symbol. "" for
// the lazy-binding stub at the head of .plt, or anything else.
std::string plt_target(Dwfl_Module *m, uintptr_t stub) {
  const auto *p = reinterpret_cast<const unsigned char *>(stub);
  if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa) p += 4;  // endbr64
  if (p[0] == 0xf2) ++p;                                                     // bnd
  if (p[0] != 0xff || p[1] != 0x25) return "";
  int32_t disp;
  std::memcpy(&disp, p + 2, sizeof disp);
  const uintptr_t slot = uintptr_t(p + 6) + intptr_t(disp);
  GElf_Addr bias = 0;
  Elf *elf = g_dw->dwfl_module_getelf(m, &bias);
  if (!elf) return "";
  for (Elf_Scn *scn = g_dw->elf_nextscn(elf, nullptr); scn; scn = g_dw->elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!g_dw->gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_entsize == 0) continue;
    Elf_Data *data = g_dw->elf_getdata(scn, nullptr);
    Elf_Scn *symscn = g_dw->elf_getscn(elf, sh.sh_link);
    GElf_Shdr symsh;
    if (!data || !symscn || !g_dw->gelf_getshdr(symscn, &symsh)) continue;
    Elf_Data *syms = g_dw->elf_getdata(symscn, nullptr);
    const size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; ++i) {
      GElf_Rela r;
      if (!g_dw->gelf_getrela(data, int(i), &r) || uintptr_t(r.r_offset + bias) != slot) continue;
      GElf_Sym sym;
      if (!syms || GELF_R_SYM(r.r_info) == 0 || !g_dw->gelf_getsym(syms, int(GELF_R_SYM(r.r_info)), &sym))
        return "";
      const char *name = g_dw->elf_strptr(elf, symsh.sh_link, sym.st_name);
      return name && *name ? std::string(name) + "@plt" : "";
    }
  }
  return "";
}

int plt_sections(Dwfl_Module *m, void **, const char *, Dwarf_Addr, void *arg) {
  auto add = reinterpret_cast<void (*)(uintptr_t, uintptr_t, unsigned)>(arg);
  GElf_Addr bias = 0;
  Elf *elf = g_dw->dwfl_module_getelf(m, &bias);
  size_t strndx = 0;
  if (!elf || g_dw->elf_getshdrstrndx(elf, &strndx) != 0) return DWARF_CB_OK;
  for (Elf_Scn *scn = g_dw->elf_nextscn(elf, nullptr); scn; scn = g_dw->elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!g_dw->gelf_getshdr(scn, &sh) || sh.sh_size == 0) continue;
    const char *name = g_dw->elf_strptr(elf, strndx, sh.sh_name);
    if (!name || (std::strcmp(name, ".plt") != 0 && std::strcmp(name, ".plt.sec") != 0 &&
                  std::strcmp(name, ".plt.got") != 0))
      continue;
    const unsigned entry = sh.sh_entsize ? unsigned(sh.sh_entsize) : 16;
    add(uintptr_t(sh.sh_addr + bias), uintptr_t(sh.sh_addr + bias + sh.sh_size), entry);
  }
  return DWARF_CB_OK;
}

}  // namespace

void for_each_plt_section(void (*add)(uintptr_t lo, uintptr_t hi, unsigned entry_size)) {
  pthread_mutex_lock(&g_lock);
  if (g_dwfl || report_modules()) g_dw->dwfl_getmodules(g_dwfl, plt_sections, reinterpret_cast<void *>(add), 0);
  pthread_mutex_unlock(&g_lock);
}

namespace {

// A library of the system (under /lib, /usr/lib): its frames are named from
// its symbol table only. Its DWARF, when a debug package is installed, is a
// separate file whose compressed sections libdw inflates whole on the first
// lookup: glibc's (libc6-dbg) cost 45 ms of CPU at the end of every sampled
// run that had a frame in qsort, for a file:line in glibc's sources.
bool system_library(Dwfl_Module *m) {
  const char *path = g_dw->dwfl_module_info(m, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  return path && system_path(path);
}

// The DWARF scopes at `addr` in module `m`, innermost first (dwarf_getscopes;
// the caller frees *scopes): none for a system library or without -g.
int scopes_at(Dwfl_Module *m, uintptr_t addr, Dwarf_Die **scopes) {
  Dwarf_Addr bias = 0;
  Dwarf_Die *cu = m && !system_library(m) ? g_dw->dwfl_module_addrdie(m, Dwarf_Addr(addr), &bias) : nullptr;
  return cu ? g_dw->dwarf_getscopes(cu, Dwarf_Addr(addr) - bias, scopes) : 0;
}

// A function's declaration (DW_AT_decl_file/line, following a specification
// or abstract origin) into s.file and s.line, when it has one.
void set_declaration(Dwarf_Die *die, Symbol &s) {
  int lineno = 0;
  const char *file = g_dw->dwarf_decl_file(die);
  if (file && g_dw->dwarf_decl_line(die, &lineno) == 0) {
    s.file = file;
    s.line = lineno;
  }
}

}  // namespace

bool system_path(const char *path) {
  for (const char *dir : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"})
    if (std::strncmp(path, dir, std::strlen(dir)) == 0) return true;
  return false;
}

Symbol symbolize(uintptr_t func) {
  Symbol s;
  pthread_mutex_lock(&g_lock);
  Dwfl_Module *m = module_of(func);
  const bool with_dwarf = m && !system_library(m);
  if (m && in_plt(func)) {
    s.name = plt_target(m, func);
    if (!s.name.empty()) {
      const char *mainfile = nullptr;
      g_dw->dwfl_module_info(m, nullptr, nullptr, nullptr, nullptr, nullptr, &mainfile, nullptr);
      if (mainfile) s.file = mainfile;
    }
  }
  if (m && s.name.empty()) {
    if (const char *name = g_dw->dwfl_module_addrname(m, Dwarf_Addr(func))) {
      s.mangled = name;
      s.name = demangle(name);
    }
    // The function's declaration (of its subprogram); else the line table
    // at its first instruction, which after optimisation is often a later line.
    Dwarf_Die *scopes = nullptr;
    const int n = scopes_at(m, func, &scopes);
    for (int i = 0; i < n; ++i)
      if (g_dw->dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
        set_declaration(&scopes[i], s);
        break;
      }
    std::free(scopes);
    Dwfl_Line *line = s.file.empty() && with_dwarf ? g_dw->dwfl_module_getsrc(m, Dwarf_Addr(func)) : nullptr;
    if (line) {
      int lineno = 0;
      if (const char *file = g_dw->dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr)) {
        s.file = file;
        s.line = lineno;
      }
    }
    if (s.file.empty()) {
      const char *mainfile = nullptr;
      g_dw->dwfl_module_info(m, nullptr, nullptr, nullptr, nullptr, nullptr, &mainfile, nullptr);
      if (mainfile) s.file = mainfile;
    }
  }
  // No symbol names it (a stripped library's local function): the module's
  // file name and the offset from where it is loaded, which stays the same
  // from run to run (an address does not, so --diff could not match it).
  if (s.name.empty() && m) {
    Dwarf_Addr start = 0;
    const char *path = g_dw->dwfl_module_info(m, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (path && *path) {
      const char *base = std::strrchr(path, '/');
      char buf[64];
      std::snprintf(buf, sizeof buf, "+0x%lx", static_cast<unsigned long>(func - uintptr_t(start)));
      s.name = std::string(base ? base + 1 : path) + buf;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (s.name.empty()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%lx", static_cast<unsigned long>(func));
    s.name = buf;
  }
  return s;
}

std::vector<Symbol> inlined_at(uintptr_t ip) {
  std::vector<Symbol> chain;
  pthread_mutex_lock(&g_lock);
  Dwarf_Die *scopes = nullptr;
  const int n = scopes_at(module_of(ip), ip, &scopes);
  // Innermost first, up to the function the machine code belongs to.
  for (int i = 0; i < n && g_dw->dwarf_tag(&scopes[i]) != DW_TAG_subprogram; ++i) {
    if (g_dw->dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;  // a lexical block
    Symbol s;
    // The abstract origin's linkage name (a C++ function's full name once
    // demangled, as its out-of-line copies are named), else its plain name.
    Dwarf_Attribute attr;
    const char *name = nullptr;
    for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name})
      if (!name && g_dw->dwarf_attr_integrate(&scopes[i], at, &attr)) name = g_dw->dwarf_formstring(&attr);
    if (!name) continue;
    s.mangled = name;
    s.name = demangle(name);
    set_declaration(&scopes[i], s);
    chain.push_back(std::move(s));
  }
  std::free(scopes);
  pthread_mutex_unlock(&g_lock);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

namespace {

int trampoline_block(Dwfl_Module *m, void **, const char *, Dwarf_Addr, void *arg) {
  auto add = reinterpret_cast<void (*)(uintptr_t, uintptr_t)>(arg);
  // hcc builds no library of the system's; reading one's symbol table would
  // look for it in its separate debug file, when installed.
  if (system_library(m)) return DWARF_CB_OK;
  const int n = g_dw->dwfl_module_getsymtab(m);
  std::vector<std::pair<uintptr_t, uintptr_t>> spans;
  for (int i = 1; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr addr = 0;
    const char *name = g_dw->dwfl_module_getsym_info(m, i, &sym, &addr, nullptr, nullptr, nullptr);
    if (!name || std::strncmp(name, "__hcc_", 6) != 0 || GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
    spans.emplace_back(uintptr_t(addr), uintptr_t(addr + (sym.st_size ? sym.st_size : 1)));
  }
  // Adjacent trampolines (16-byte aligned 6-byte jumps) make one block; a
  // user function between two hcc symbols splits it.
  std::sort(spans.begin(), spans.end());
  for (size_t i = 0; i < spans.size();) {
    uintptr_t lo = spans[i].first, hi = spans[i].second;
    for (++i; i < spans.size() && spans[i].first <= hi + 16; ++i) hi = std::max(hi, spans[i].second);
    add(lo, hi);
  }
  return DWARF_CB_OK;
}

}  // namespace

void for_each_trampoline_block(void (*add)(uintptr_t lo, uintptr_t hi)) {
  pthread_mutex_lock(&g_lock);
  if (g_dwfl || report_modules()) g_dw->dwfl_getmodules(g_dwfl, trampoline_block, reinterpret_cast<void *>(add), 0);
  pthread_mutex_unlock(&g_lock);
}

}  // namespace hcc::rt::sampling
