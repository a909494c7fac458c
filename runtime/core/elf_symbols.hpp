// hcc runtime — the function symbols of an ELF file, as GNU gprof sees them
// (gmon_out.cpp maps regions to them). Read once, at the end of a run that
// asked for gmon.out; never on a measured path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcc::rt {

struct ElfFunction {
  std::string name;  // linker name as in the symbol table ("_Z3foov", "main", "helper.isra.0")
  uint64_t addr;     // st_value: the address in the file, which is what gprof expects
                     // (for a PIE too: no load bias is involved)
  uint64_t size;     // st_size (0 when the symbol has none)
  std::string file;  // for a local symbol: the STT_FILE entry before it; "" for globals
  bool local;
};

// Function symbols (STT_FUNC, STT_GNU_IFUNC) defined in `path`: from .symtab,
// else from .dynsym (a stripped file). 64-bit little-endian ELF only; any
// other file gives an empty list and the reason in `error`.
std::vector<ElfFunction> read_elf_functions(const std::string &path, std::string &error);

}  // namespace hcc::rt
