// parser/macro.h: the subset of the C preprocessor that the front end needs.
//
// macro_table_new() reads the input once, line by line: it evaluates the
// conditionals, records every #define and #undef of the active regions with
// the byte offset where it takes effect, and follows #include "file".  Then
//   - macro_active_text() is the input with the inactive regions and the
//     conditional directive lines blanked (same length, lines and columns),
//     which is what tree-sitter parses;
//   - macro_expand() expands one macro use as the preprocessor would, with
//     the definitions in force at that byte offset of the main file.
// System headers (#include <...>) are never read: the C compiler reads them.  Those of the
// C standard library define, from the #include on, the macros a marked function may use
// (INT_MAX, SIZE_MAX, M_PI, DBL_EPSILON, true, EXIT_SUCCESS...: pp_std.c); other ones (omp.h,
// mpi.h, a library's) define nothing here.
// Not supported: __FILE__/__LINE__ and other dynamic built-ins, __VA_OPT__, digraph
// directives (%:define).
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "../ir/ir.h"

typedef struct MacroTable MacroTable;

// What the target and the command line add to the input's own macros and headers.
typedef struct MacroOptions {
  // the target compiler's own macros besides C11's (_OPENMP, __CUDACC__), then the -D
  // arguments, each "NAME" (= 1), "NAME=VALUE" or "NAME(a,b)=a+b"; -D comes last, and wins
  const char *const *predefined, *const *defines;
  const char *const *incdirs; // -I, searched in order after the including file's directory
  int npredefined, ndefines, nincdirs;
} MacroOptions;

// Diagnoses malformed directives, #error in an active region, bad -D arguments, and an
// #include "..." whose header is found nowhere or cannot be read (src_read).
MacroTable *macro_table_new(Arena *a, const Src *src, const MacroOptions *opt);

// src->text with every inactive region and every #if/#ifdef/#ifndef/#elif/#else/#endif
// line replaced by spaces; newlines are kept, so offsets, lines and columns are unchanged.
char *macro_active_text(MacroTable *t);

// The expansion of the use of `name` at byte at_byte of the main file, or NULL if name is
// not a macro there.  args are the source texts of the arguments when call is true.  A
// function-like macro used without a call gives NULL; an object-like macro gives its
// expansion whatever call says (the caller applies the call to it).  The result may
// contain `name` itself (#define x x+1).  A wrong argument count is diagnosed at use_loc.
const char *macro_expand(MacroTable *t, const char *name, const char *const *args, int nargs,
                         bool call, uint32_t at_byte, Loc use_loc);

// The replacement list of macro name at byte at_byte of the main file, as written (NULL: not
// a macro there).
const char *macro_text(MacroTable *t, const char *name, uint32_t at_byte);

// Whether name is a macro at byte at_byte of the main file; *function_like (if not NULL)
// says which kind.
bool macro_defined(MacroTable *t, const char *name, uint32_t at_byte, bool *function_like);

// The #pragma directives of the main file that stand where C expects a statement that is
// not a block item (the unbraced body of for, while, if, else, do: `for (...)` then
// `#pragma adsoac map` then `for (...)`): valid C, which tree-sitter's grammar does not
// parse, so macro_active_text has them blanked.  ranges[k] = the bytes from '#' to the end of
// the directive, in order.
int macro_detached(const MacroTable *t, const uint32_t (**ranges)[2]);

// The files read through #include, in order, each once, as the paths that opened them.
int macro_deps(const MacroTable *t, const char *const **paths);
