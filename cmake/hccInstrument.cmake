# hcc_instrument(<target> [FILTER <file>] [FLAGS <--hcc-option>…])
#
# Instruments the C and C++ sources of <target> only: the target's
# C_COMPILER_LAUNCHER/CXX_COMPILER_LAUNCHER become hcc in prefix mode
# (`hcc <the real compiler> <args>`), and the target links hcc::runtime.
# Configure checks, other targets and the compiler CMake identified are
# untouched. A launcher the target already had (ccache) runs behind hcc.
#
#   FILTER <file>  passed as --hcc-filter=<file> (TAU, Score-P or hcc syntax):
#                  excluded functions of this target get no instrumentation.
#   FLAGS …        further --hcc-* options for this target's compiles, after
#                  the global HCC_FLAGS cache variable.
#
# Included by hccConfig.cmake, which defines HCC_EXECUTABLE and hcc::runtime.
include_guard(GLOBAL)

set(HCC_FLAGS "" CACHE STRING
  "Extra --hcc-* options for every instrumented compile (e.g. --hcc-verbose)")

# hcc takes HCC_COMPILER from the environment before its first argument;
# under a launcher the first argument IS the compiler CMake chose, so the
# variable is cleared for the launcher (a user who exported it for configure
# would otherwise break the build).
function(_hcc_launcher_prefix out)
  find_program(HCC_ENV_PROGRAM env)
  mark_as_advanced(HCC_ENV_PROGRAM)
  set(cmd "")
  if(HCC_ENV_PROGRAM)
    list(APPEND cmd "${HCC_ENV_PROGRAM}" -u HCC_COMPILER)
  endif()
  list(APPEND cmd "${HCC_EXECUTABLE}")
  set(${out} "${cmd}" PARENT_SCOPE)
endfunction()

function(hcc_instrument target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "FILTER" "FLAGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hcc_instrument(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "hcc_instrument: no target named '${target}'")
  endif()
  get_target_property(type ${target} TYPE)
  get_target_property(imported ${target} IMPORTED)
  if(imported OR NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "hcc_instrument: '${target}' is a ${type}${imported}; only targets "
                        "this project compiles can be instrumented")
  endif()

  separate_arguments(flags UNIX_COMMAND "${HCC_FLAGS}")
  list(APPEND flags ${ARG_FLAGS})
  if(DEFINED ARG_FILTER)
    get_filename_component(filter "${ARG_FILTER}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${filter}")
      message(FATAL_ERROR "hcc_instrument(${target}): filter file '${filter}' does not exist")
    endif()
    list(APPEND flags "--hcc-filter=${filter}")
    # A changed filter changes the instrumented code: rebuild the target.
    get_target_property(srcs ${target} SOURCES)
    get_target_property(srcdir ${target} SOURCE_DIR)
    if(srcs AND NOT CMAKE_VERSION VERSION_LESS 3.18)  # SOURCE … DIRECTORY: 3.18
      set_property(SOURCE ${srcs} DIRECTORY "${srcdir}" APPEND PROPERTY OBJECT_DEPENDS "${filter}")
    endif()
  endif()

  _hcc_launcher_prefix(hcc_cmd)
  foreach(lang C CXX)
    get_target_property(old ${target} ${lang}_COMPILER_LAUNCHER)
    if(NOT old)
      set(old "")
    endif()
    # hcc may be there already (the toolchain file, launcher variables, an
    # earlier hcc_instrument): drop it with its options, keep what ran behind
    # it (ccache), so hcc never becomes its own compiler.
    set(i 0)
    set(hcc_end -1)
    foreach(word IN LISTS old)
      get_filename_component(name "${word}" NAME)
      math(EXPR after_hcc "${hcc_end} + 1")
      if(name MATCHES "^hcc(-cc|-c\\+\\+)?$")
        set(hcc_end ${i})
      elseif(hcc_end GREATER_EQUAL 0 AND i EQUAL after_hcc AND word MATCHES "^--hcc-")
        set(hcc_end ${i})
      endif()
      math(EXPR i "${i} + 1")
    endforeach()
    if(hcc_end GREATER_EQUAL 0)
      math(EXPR keep_from "${hcc_end} + 1")
      list(LENGTH old n)
      if(keep_from LESS n)
        list(SUBLIST old ${keep_from} -1 old)
      else()
        set(old "")
      endif()
    endif()
    set_property(TARGET ${target} PROPERTY ${lang}_COMPILER_LAUNCHER ${hcc_cmd} ${flags} ${old})
  endforeach()
  get_target_property(done ${target} _HCC_INSTRUMENTED)
  if(NOT done)
    set_property(TARGET ${target} PROPERTY _HCC_INSTRUMENTED TRUE)
    # What target_link_libraries(PRIVATE) does, written out so it works
    # whichever signature (keyword or plain) the project already used for
    # this target. A static library passes the runtime on to what links it.
    set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES hcc::runtime)
    if(type STREQUAL "STATIC_LIBRARY")
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<LINK_ONLY:hcc::runtime>")
    elseif(type STREQUAL "OBJECT_LIBRARY")
      # Its objects end up in other targets; those need the runtime (when they
      # link the object library, not only $<TARGET_OBJECTS:…>).
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES hcc::runtime)
    endif()
  endif()
endfunction()
