// Reads the symbol table with the structures of <elf.h>: the format is
// fixed and small, and libhcc then needs no libelf in every measured program.
#include "elf_symbols.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hcc::rt {

namespace {

struct Mapping {
  const unsigned char *data = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (data) munmap(const_cast<unsigned char *>(data), size);
  }
};

bool inside(const Mapping &m, uint64_t off, uint64_t len) { return off <= m.size && len <= m.size - off; }

}  // namespace

std::vector<ElfFunction> read_elf_functions(const std::string &path, std::string &error) {
  std::vector<ElfFunction> out;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return out;
  }
  struct stat st;
  Mapping m;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    void *p = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      m.data = static_cast<const unsigned char *>(p);
      m.size = size_t(st.st_size);
    }
  }
  close(fd);
  if (!m.data || !inside(m, 0, sizeof(Elf64_Ehdr))) {
    error = path + ": cannot read it";
    return out;
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, m.data, sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr)) {
    error = path + ": not a 64-bit little-endian ELF file";
    return out;
  }
  if (!inside(m, eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr))) {
    error = path + ": section headers outside the file";
    return out;
  }
  auto section = [&](size_t i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, m.data + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof sh);
    return sh;
  };
  // .symtab has every function (static ones too); .dynsym only the exported.
  for (uint32_t want : {uint32_t(SHT_SYMTAB), uint32_t(SHT_DYNSYM)}) {
    for (size_t i = 0; i < eh.e_shnum; ++i) {
      const Elf64_Shdr sh = section(i);
      if (sh.sh_type != want || sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh.e_shnum) continue;
      const Elf64_Shdr strtab = section(sh.sh_link);
      if (!inside(m, sh.sh_offset, sh.sh_size) || !inside(m, strtab.sh_offset, strtab.sh_size)) continue;
      const char *strings = reinterpret_cast<const char *>(m.data + strtab.sh_offset);
      auto name_at = [&](uint32_t off) -> std::string {
        if (off >= strtab.sh_size) return "";
        return std::string(strings + off, strnlen(strings + off, strtab.sh_size - off));
      };
      std::string file;
      for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); ++k) {
        Elf64_Sym s;
        std::memcpy(&s, m.data + sh.sh_offset + k * sizeof(Elf64_Sym), sizeof s);
        const unsigned type = ELF64_ST_TYPE(s.st_info);
        if (type == STT_FILE) file = name_at(s.st_name);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || s.st_value == 0)
          continue;
        const bool local = ELF64_ST_BIND(s.st_info) == STB_LOCAL;
        out.push_back({name_at(s.st_name), s.st_value, s.st_size, local ? file : "", local});
      }
    }
    if (!out.empty()) return out;
  }
  error = path + ": no function symbols";
  return out;
}

}  // namespace hcc::rt
