# cmake/grammar.cmake: the tree-sitter C grammar, from the npm package tree-sitter-c at a
# pinned version, fetched at configure time with `npm pack` and checked against a pinned
# SHA-256.  Its generated parser.c is never committed.  ADSOAC_GRAMMAR_DIR points at a local
# copy (a directory holding src/parser.c) instead.
set(ADSOAC_GRAMMAR_VERSION "0.23.6")  # language ABI 14, which Debian's tree-sitter 0.20 loads
set(ADSOAC_GRAMMAR_SHA256 "88175d4425037ec0026233a44f82064a676573b1fd748fc709ae607332151243")
set(ADSOAC_GRAMMAR_DIR "" CACHE PATH "local copy of the tree-sitter-c package (with src/parser.c)")

if(ADSOAC_GRAMMAR_DIR)
  set(grammar_dir "${ADSOAC_GRAMMAR_DIR}")
else()
  set(dl "${CMAKE_BINARY_DIR}/_grammar")
  set(tgz "${dl}/tree-sitter-c-${ADSOAC_GRAMMAR_VERSION}.tgz")
  if(NOT EXISTS "${tgz}")
    find_program(NPM npm REQUIRED)
    file(MAKE_DIRECTORY "${dl}")
    message(STATUS "Fetching tree-sitter-c@${ADSOAC_GRAMMAR_VERSION} with npm pack")
    execute_process(COMMAND "${NPM}" pack "tree-sitter-c@${ADSOAC_GRAMMAR_VERSION}" --silent
                    WORKING_DIRECTORY "${dl}" RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${tgz}")
      message(FATAL_ERROR "npm pack tree-sitter-c@${ADSOAC_GRAMMAR_VERSION} failed (${rc}); "
                          "set ADSOAC_GRAMMAR_DIR to a local copy of the package")
    endif()
  endif()
  file(SHA256 "${tgz}" got)
  if(NOT got STREQUAL ADSOAC_GRAMMAR_SHA256)
    file(REMOVE "${tgz}")
    message(FATAL_ERROR "tree-sitter-c package checksum mismatch: got ${got}, "
                        "expected ${ADSOAC_GRAMMAR_SHA256}")
  endif()
  set(grammar_dir "${dl}/package")
  if(NOT EXISTS "${grammar_dir}/src/parser.c")
    file(ARCHIVE_EXTRACT INPUT "${tgz}" DESTINATION "${dl}" PATTERNS package/src)
  endif()
endif()
if(NOT EXISTS "${grammar_dir}/src/parser.c")
  message(FATAL_ERROR "no src/parser.c in ${grammar_dir}")
endif()

add_library(tree_sitter_c STATIC "${grammar_dir}/src/parser.c")
target_include_directories(tree_sitter_c PRIVATE "${grammar_dir}/src")
set_target_properties(tree_sitter_c PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_c PRIVATE -w -O1)  # generated code, not ours
