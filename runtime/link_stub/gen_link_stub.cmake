# Writes the C source of a link stub (README.md) for one shared library:
#   cmake -DNM=<nm> -DLIBRARY=<lib.so> -DOUTPUT=<stub.c> -P gen_link_stub.cmake
# An empty function for every function the library exports, and a weak
# reference for every unversioned weak reference it makes. Anything else it
# exports (data, TLS, indirect functions, versioned names) a stub cannot stand
# in for: the script fails and names it. The file is rewritten only when its
# text changes, so a relinked library whose interface did not change does not
# relink the stub.
foreach(var NM LIBRARY OUTPUT)
  if(NOT ${var})
    message(FATAL_ERROR "gen_link_stub: -D${var}=... is required")
  endif()
endforeach()
get_filename_component(lib_name "${LIBRARY}" NAME)

function(run_nm out_var)
  execute_process(COMMAND "${NM}" -D ${ARGN} "${LIBRARY}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gen_link_stub: ${NM} -D ${ARGN} ${LIBRARY} failed (${rc}): ${err}")
  endif()
  string(REPLACE "\n" ";" out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# A name goes into a C string (an asm label): allow only what symbol names
# made by C and C++ compilers contain, so it needs no escaping.
function(check_name name line)
  if(NOT name MATCHES "^[A-Za-z0-9_.$]+$")
    message(FATAL_ERROR "gen_link_stub: ${lib_name}: cannot write the symbol of `${line}` into a stub")
  endif()
endfunction()

# `nm -D --defined-only`: "<value> <type> <name>". T: a function; W: a weak
# symbol that is not an object (nm says V for weak objects) — a weak function.
set(functions "")
set(weak_functions "")
set(refused "")
run_nm(defined --defined-only)
foreach(line IN LISTS defined)
  if(line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^[0-9a-fA-F]+ (.) (.+)$")
    message(FATAL_ERROR "gen_link_stub: ${lib_name}: unexpected nm line `${line}`")
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(name MATCHES "@")
    # A version the stub would not carry: the program would record an
    # unversioned reference where the real library's link records a version.
    list(APPEND refused "${name} (versioned)")
  elseif(type STREQUAL "T")
    check_name("${name}" "${line}")
    list(APPEND functions "${name}")
  elseif(type STREQUAL "W")
    check_name("${name}" "${line}")
    list(APPEND weak_functions "${name}")
  else()
    # D/B/R/G/S/V: data — a program referencing it gets a copy relocation
    # sized from the stub's symbol; i: an indirect function; A: absolute.
    list(APPEND refused "${name} (${type})")
  endif()
endforeach()
if(refused)
  list(LENGTH refused n)
  if(n GREATER 10)
    list(SUBLIST refused 0 10 refused)
    list(APPEND refused "... (${n} in all)")
  endif()
  list(JOIN refused ", " refused)
  message(FATAL_ERROR "gen_link_stub: ${lib_name} exports symbols a link stub of empty functions "
          "cannot stand in for: ${refused}. Export a function instead (data needs its size in the "
          "stub, from nm -S), or teach runtime/link_stub/gen_link_stub.cmake that kind of symbol.")
endif()
if(NOT functions AND NOT weak_functions)
  message(FATAL_ERROR "gen_link_stub: ${lib_name} exports no function: is it the right file?")
endif()

# `nm -D --undefined-only`: "<spaces> <type> <name>[@version]". A program
# symbol that a library refers to is exported by the linker only when a
# library at the link refers to it: libhcc's weak reference to
# __hcc_linked_by_hcc is what puts the driver's --defsym into the program's
# dynamic symbols (runtime/core/nothing_measured.cpp). Versioned references
# are to other libraries (libc, libstdc++ ...), never to the program.
set(weak_refs "")
run_nm(undefined --undefined-only)
foreach(line IN LISTS undefined)
  if(line MATCHES "^ *[wv] ([^@]+)$")
    check_name("${CMAKE_MATCH_1}" "${line}")
    list(APPEND weak_refs "${CMAKE_MATCH_1}")
  endif()
endforeach()

foreach(list functions weak_functions weak_refs)
  list(REMOVE_DUPLICATES ${list})
  list(SORT ${list})
endforeach()

string(CONCAT c "/* Link stub of ${lib_name}, generated from `nm -D` of the library by\n"
      " * runtime/link_stub/gen_link_stub.cmake: do not edit. Programs link against\n"
      " * it and load the real library at run time (same SONAME). */\n"
      "#define HCC_STUB(id, sym) \\\n"
      "  __attribute__((visibility(\"default\"))) void id(void) __asm__(sym); \\\n"
      "  void id(void) {}\n"
      "#define HCC_STUB_WEAK(id, sym) \\\n"
      "  __attribute__((weak, visibility(\"default\"))) void id(void) __asm__(sym); \\\n"
      "  void id(void) {}\n"
      "#define HCC_STUB_REF(id, sym) extern char id __asm__(sym) __attribute__((weak));\n\n")
set(n 0)
foreach(name IN LISTS functions)
  string(APPEND c "HCC_STUB(hcc_stub_${n}, \"${name}\")\n")
  math(EXPR n "${n} + 1")
endforeach()
foreach(name IN LISTS weak_functions)
  string(APPEND c "HCC_STUB_WEAK(hcc_stub_${n}, \"${name}\")\n")
  math(EXPR n "${n} + 1")
endforeach()
if(weak_refs)
  set(refs "")
  set(n 0)
  foreach(name IN LISTS weak_refs)
    string(APPEND c "HCC_STUB_REF(hcc_ref_${n}, \"${name}\")\n")
    string(APPEND refs "  &hcc_ref_${n},\n")
    math(EXPR n "${n} + 1")
  endforeach()
  # Used, so each reference lands in the stub's dynamic symbols.
  string(APPEND c "__attribute__((used)) static const void *const hcc_stub_refs[] = {\n${refs}};\n")
endif()

set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL c)
  file(WRITE "${OUTPUT}" "${c}")
endif()
