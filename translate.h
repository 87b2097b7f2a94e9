// translate.h: the whole pipeline as a library call (driver.c and the fuzz target use it).
#pragma once
#include "emit/emit.h"

typedef struct {
  Target target;
  bool emit_ir;          // --emit=ir instead of code
  bool emit_dot;         // --emit=dot: the SOAC dataflow graph
  bool line_directives;  // #line directives in the output
  const char *output_name; // for #line after the user's code; NULL: none
  const char *version;
  const char *const *defines, *const *incdirs; // -D, -I
  int ndefines, nincdirs;
  int stripmine; // --stripmine=L (0: default)
  bool general_rule; // --general-rule: every reduction by the general rule in forward mode
  bool no_fuse;      // --no-fuse: the loops stay as distributed
  bool check_sched;  // --check-schedules: two-phase loops check their plain updates at run time
  bool deterministic; // --deterministic: the same bits whatever the threads (C target)
  const char *dump_after; // --dump-after=PASS: the IR after that pass, instead of code
  bool emit_check;        // --emit=check: the validation program (with --target=c's code)
  bool emit_header;       // --emit=header: the generated functions' prototypes
  // out: the headers the translation read (for -MD)
  const char *const *deps;
  int ndeps;
} TranslateOptions;

typedef enum {
  TRANSLATE_OK,
  TRANSLATE_REFUSED, // --emit=ir printed the primal IR, but a derivative was refused
  TRANSLATE_ERROR,   // an error in the input (diagnosed), or no thread could be started
} TranslateResult;

// Translates src into out.  Errors are diagnosed (ir/diag, to stderr or diag_set_stream's
// stream) and returned: the translation runs on a thread of its own with a large stack
// (diag_try), which an error ends; the process goes on, and may translate again.
TranslateResult adsoac_translate(Arena *a, TranslateOptions *o, const Src *src, Buf *out);

// The pipeline (translate.c): every pass by name, in order, with its file and what it does.
void adsoac_print_passes(FILE *out);
bool adsoac_pass_known(const char *name); // a name --dump-after takes
