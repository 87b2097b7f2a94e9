# cmake/AdsoacGradient.cmake: adsoac as a custom compile step of a CMake build (installed with
# adsoac's package: find_package(adsoac) provides it; adsoac's own build includes it too).
#
#   adsoac_add_gradient(<target> <source.c>
#                       [TARGET cuda|c]          output target (default: cuda, as adsoac's)
#                       [STRIPMINE <L>]          --stripmine=L
#                       [OUTPUT_VAR <var>]       <var> = the generated file's path
#                       [OPTIONS <opt>...])      more adsoac options (-D..., -I..., --no-fuse)
#
# Translates <source.c> into <binary dir>/adsoac/<target>/<name>_grad.c (or .cu) and adds it
# to <target>'s sources, with <name>_grad.h beside it (adsoac --emit=header: the generated
# functions' prototypes; the directory is on <target>'s include path, so its sources
# #include "<name>_grad.h" instead of declaring them).  The custom command has a depfile (adsoac -MD -MF): editing the
# source or a header it includes re-runs adsoac, nothing else does.  TARGET c: the output is
# C11, compiled with OpenMP when CMake finds it, linked with libm.  TARGET cuda: the output is
# CUDA; CUDA is enabled if the project has not done so (enable_language must run at file
# scope: call adsoac_add_gradient there, not from inside a function, or enable CUDA first).
# The target also gets adsoac.h's include directory (adsoac_last_error(),
# adsoac_checkpoint_peak()).
cmake_minimum_required(VERSION 3.20) # DEPFILE with the Makefile generators

# A macro, so that enable_language(CUDA) runs in the caller's (file) scope.
macro(adsoac_add_gradient tgt src)
  set(_adsoac_cuda TRUE)
  set(_adsoac_a ${ARGN})
  list(FIND _adsoac_a TARGET _adsoac_i)
  if(_adsoac_i GREATER -1)
    math(EXPR _adsoac_i "${_adsoac_i} + 1")
    list(LENGTH _adsoac_a _adsoac_n)
    if(_adsoac_i LESS _adsoac_n)
      list(GET _adsoac_a ${_adsoac_i} _adsoac_t)
      if(NOT _adsoac_t STREQUAL "cuda")
        set(_adsoac_cuda FALSE)
      endif()
    endif()
  endif()
  if(_adsoac_cuda)
    get_property(_adsoac_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST _adsoac_langs)
      enable_language(CUDA)
    endif()
  endif()
  _adsoac_add_gradient(${tgt} ${src} ${ARGN})
endmacro()

function(_adsoac_add_gradient tgt src)
  cmake_parse_arguments(PARSE_ARGV 2 A "" "TARGET;STRIPMINE;OUTPUT_VAR" "OPTIONS")
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "adsoac_add_gradient: unknown arguments: ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${tgt})
    message(FATAL_ERROR "adsoac_add_gradient: '${tgt}' is not a target (add_executable or "
                        "add_library it first)")
  endif()
  if(NOT A_TARGET)
    set(A_TARGET cuda)
  endif()
  if(NOT A_TARGET MATCHES "^(c|cuda)$")
    message(FATAL_ERROR "adsoac_add_gradient: TARGET is c or cuda, not '${A_TARGET}'")
  endif()
  if(NOT TARGET adsoac::adsoac OR NOT TARGET adsoac::runtime)
    message(FATAL_ERROR "adsoac_add_gradient: adsoac::adsoac is not defined (use "
                        "find_package(adsoac))")
  endif()
  get_filename_component(in "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(stem "${src}" NAME_WE)
  if(A_TARGET STREQUAL "cuda")
    set(ext cu)
    get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST langs)
      message(FATAL_ERROR "adsoac_add_gradient(${tgt} ${src} TARGET cuda): CUDA could not be "
                          "enabled; add enable_language(CUDA) (or LANGUAGES CUDA in project()) "
                          "before the call, or use TARGET c")
    endif()
  else()
    set(ext c)
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/adsoac/${tgt}")
  set(out "${dir}/${stem}_grad.${ext}")
  set(hdr "${dir}/${stem}_grad.h")
  set(args --target=${A_TARGET})
  if(A_STRIPMINE)
    list(APPEND args --stripmine=${A_STRIPMINE})
  endif()
  # relative -I DIR of OPTIONS: from the calling directory, for adsoac as for the compiler (and
  # absolute in the depfile)
  set(next "")
  foreach(o IN LISTS A_OPTIONS)
    if(next)
      get_filename_component(o "${o}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(next "")
    elseif(o STREQUAL "-I")
      set(next 1)
    elseif(o MATCHES "^-I(.+)$")
      get_filename_component(o "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(o "-I${o}")
    endif()
    list(APPEND args "${o}")
  endforeach()
  add_custom_command(
    OUTPUT "${out}" "${hdr}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND adsoac::adsoac ${args} "${in}" -o "${out}" -MD -MF "${out}.d"
    COMMAND adsoac::adsoac ${args} --emit=header "${in}" -o "${hdr}"
    DEPENDS "${in}" adsoac::adsoac
    DEPFILE "${out}.d"
    COMMENT "adsoac ${src} -> ${stem}_grad.${ext}"
    VERBATIM)
  # the generated file passes the rest of the input through (its #include "..." lines
  # included): compiled with the source's directory and the -I and -D of OPTIONS
  get_filename_component(srcdir "${in}" DIRECTORY)
  set(incs "${srcdir}")
  set(defs "")
  set(next "")
  foreach(o IN LISTS A_OPTIONS)
    if(next STREQUAL "I")
      get_filename_component(o "${o}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND incs "${o}")
    elseif(next STREQUAL "D")
      list(APPEND defs "${o}")
    elseif(o STREQUAL "-I" OR o STREQUAL "-D")
      string(SUBSTRING "${o}" 1 1 next)
      continue()
    elseif(o MATCHES "^-I(.+)$")
      get_filename_component(d "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND incs "${d}")
    elseif(o MATCHES "^-D(.+)$")
      list(APPEND defs "${CMAKE_MATCH_1}")
    endif()
    set(next "")
  endforeach()
  set_source_files_properties("${out}" PROPERTIES INCLUDE_DIRECTORIES "${incs}"
                              COMPILE_DEFINITIONS "${defs}")
  target_sources(${tgt} PRIVATE "${out}" "${hdr}")
  target_include_directories(${tgt} PRIVATE "${dir}")
  target_link_libraries(${tgt} PRIVATE adsoac::runtime)
  if(A_TARGET STREQUAL "c")
    set_source_files_properties("${out}" PROPERTIES LANGUAGE C)
    target_compile_features(${tgt} PRIVATE c_std_11)
    find_package(OpenMP QUIET COMPONENTS C)
    if(OpenMP_C_FOUND)
      target_link_libraries(${tgt} PRIVATE OpenMP::OpenMP_C)
    endif()
    if(UNIX)
      target_link_libraries(${tgt} PRIVATE m)
    endif()
  else()
    set_source_files_properties("${out}" PROPERTIES LANGUAGE CUDA)
  endif()
  if(A_OUTPUT_VAR)
    set(${A_OUTPUT_VAR} "${out}" PARENT_SCOPE)
  endif()
endfunction()
