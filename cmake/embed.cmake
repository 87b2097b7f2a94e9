# cmake/embed.cmake: turns runtime sources into a C header of NUL-terminated char arrays,
# so that generated files can be self-contained.
#   cmake -DOUT=rt_embed.h -DINPUTS="a.h;b.cuh" -P embed.cmake
string(REPLACE "|" ";" INPUTS "${INPUTS}")
set(text "// Generated from runtime/src by cmake/embed.cmake. Do not edit.\n#pragma once\n")
foreach(in IN LISTS INPUTS)
  get_filename_component(name "${in}" NAME)
  string(MAKE_C_IDENTIFIER "${name}" id)
  file(READ "${in}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND text "static const char ${id}[] = {${bytes}0};\n")
endforeach()
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
