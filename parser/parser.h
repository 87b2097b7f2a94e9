// parser/parser.h: C source (tree-sitter CST) -> SOAC IR.
#pragma once
#include <tree_sitter/api.h>

#include "../ir/ir.h"

// ---- parse.c ----
// Parses src, lowers every function marked `#pragma adsoac grad` into prog->marked.
// opt: the target's predefined macros, -D and -I (parser/macro.h).
typedef struct MacroOptions MacroOptions;
Prog *parse_program(Arena *a, const Src *src, const MacroOptions *opt);

// ---- pragma.c ----
typedef enum {
  PR_NONE, PR_GRAD, PR_MAP, PR_CLAUSES, PR_OPERATOR, PR_STRIPMINE, PR_DERIVATIVE
} PragmaKind;
typedef enum { CL_REDUCE, CL_SCAN, CL_HIST } ClauseKind;

typedef struct {
  ClauseKind kind;
  Loc loc, op_loc;
  const char *op; // "+", "*", "min", "max" or an operator function name
  const char **vars;
  Loc *var_locs;
  int nvars;
  const char **lo_text, **len_text; // CL_HIST: the section [lo:len] of each variable
  Loc *lo_loc, *len_loc;
  // CL_HIST read from an omp atomic update of an array of unknown length (one variable): the
  // update's index expression, whose range over the loop's iterations is the section (a loop
  // before it computes probe_lo, probe_len: lower_loop.c omp_probes)
  TSNode probe;
  const TSNode *probe_decls; // the body's locals it reads (declarations, in order)
  int nprobe_decls;
  Val probe_lo, probe_len;
} Clause;

typedef struct {
  PragmaKind kind;
  Loc loc;          // of the word after "adsoac"
  const char *text; // "reduce(+: s)"
  const char **wrt; // PR_GRAD
  Loc *wrt_locs;
  int nwrt;
  bool has_wrt;
  Clause *clauses; // PR_CLAUSES
  int nclauses;
  int stripmine; // PR_STRIPMINE
  const char *neutral; // PR_OPERATOR: neutral(...) text, inverse(...) name
  Loc neutral_loc, inverse_loc;
  bool commutative;
  const char *inverse;
  const char *deriv, *vjp, *jvp; // PR_DERIVATIVE: derivative(f) vjp(g) jvp(h)
  Loc deriv_loc, vjp_loc, jvp_loc;
  const char **injective; // map/clauses: injective(y, ...)
  int ninjective;
  Loc inj_loc;
  // read from an OpenMP loop directive (parser/omp.c): its private(...), firstprivate(...)
  // and lastprivate(...) variables (firstpriv, lastpriv: which), collapse(n)
  bool omp;
  const char **priv;
  bool *firstpriv, *lastpriv;
  int npriv, collapse;
  bool omp_bound; // omp for / for simd / loop: binds to the team of a region around
  const char **omp_hints; // its schedule(...), num_threads(...), if(...), proc_bind(...)
  int nomp_hints;
} Pragma;

// Returns false if node is not a `#pragma adsoac` line; diagnoses malformed ones.
bool pragma_parse(Arena *a, const Src *src, TSNode node, Pragma *out);
// The same for the text of a pragma's arguments, src->text[start, end), which starts at loc.
bool pragma_parse_text(Arena *a, const Src *src, uint32_t start, uint32_t end, Loc loc,
                       Pragma *out);

// ---- nesting limits (README "Limitations"; deeper input is refused with a diagnostic) ----
// The front end recurses over the syntax tree, the passes over the IR's nested blocks; the
// translation runs on a thread whose stack (translate.c) holds the deepest accepted input.
// MAX_TREE_DEPTH: the syntax tree of the file (and of a macro's expansion), and the
// expressions being lowered at once (across inlined calls and macro expansions); a chain
// a + b + ... of n terms nests n - 1 deep.  max_tree_depth is the limit in force: scaled
// down where the thread could not get its full stack (a low ulimit -v; translate.c).
#define MAX_TREE_DEPTH 50000
extern int max_tree_depth;
// MAX_NESTING: what nests blocks in the IR, in marked functions and the functions they
// inline: if (an if that returns early takes the rest of its block as its else), for, a
// { } block inside a block, and the operands of ?:, && and || that C evaluates conditionally.
#define MAX_NESTING 256

// ---- ts_util.c ----
Loc ts_loc(const Src *src, TSNode n);
char *ts_text(Arena *a, const Src *src, TSNode n);
bool ts_is(TSNode n, const char *type);
TSNode ts_field(TSNode n, const char *field);
void ts_check_errors(const Src *src, TSNode root);
// Visits the nodes under root (root included, at depth 0) in pre-order without recursion;
// where visit returns false, not the node's children.
void ts_walk(TSNode root, bool (*visit)(void *ctx, TSNode n, int depth), void *ctx);
// Whether statement s has a break (brk) or a continue of its own (not of a loop nested in it).
bool has_jump(TSNode s, bool brk);
// Refuses a tree deeper than max_tree_depth (without recursion), so that the walks over it
// need not count.
void ts_check_depth(const Src *src, TSNode root);
// A parser and its tree, deleted by ts_release: pushed with pthread_cleanup_push where they
// are made, so that an error (which ends the translation's thread, diag_try) deletes them too.
typedef struct {
  TSParser *parser;
  TSTree *tree;
} TsOwned;
void ts_release(void *owned);
