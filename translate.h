// translate.h: the whole pipeline as a library call (driver.c and the fuzz target use it).
#pragma once
#include "emit/emit.h"

typedef struct {
  Target target;
  bool emit_ir;          // --emit=ir instead of code
  bool line_directives;  // #line directives in the output
  const char *output_name; // for #line after the user's code; NULL: none
  const char *version;
} TranslateOptions;

// Translates src into out.  Diagnoses errors through ir/diag (which exits, or calls the hook
// set with diag_on_error).  Returns false when --emit=ir printed the primal IR but a
// derivative was refused (diagnosed).
bool adsoac_translate(Arena *a, const TranslateOptions *o, const Src *src, Buf *out);
