// emit/emit_internal.h: the emitter's state, private to emit/.
#pragma once
#include <stdarg.h>

#include "emit.h"
#include "../analysis/analysis.h"

// A canonical scan on the C target (transform/scan.c) with the loops it was made from, run in
// its passes (emit_par.c plan_scans): the map before it that computes its terms (p, or NULL)
// and the loop after it that reads its prefixes (c, or NULL).
typedef struct {
  const Node *p, *s, *c;
  const Block *b;
  int first, last;       // b->stmts[first..last]: p (or s) to c (or s)
  Val *src, *dst;        // the scan's terms and prefixes (scan_canonical)
  Val *made;             // with p: per field, src where p computes it, else 0 (an input array
                         // the passes read in place: a field of a struct-valued scan)
  bool elide_src, elide_dst; // arrays replaced by scalars of the passes (not allocated)
  Val *incl; // with c: per field, c's value that is the inclusive prefix op(e, y), which c
             // computes itself (pass 2 takes it instead of combining; NULL: not found)
} ScanGroup;

typedef struct Emit {
  Arena *a;
  const EmitOptions *opt;
  const Prog *prog;
  Buf *out;    // where line() writes
  Buf kernels; // CUDA: kernels of the current marked function
  Buf helpers; // declared operators and tuple types, before the kernels
  int depth;   // indentation
  const Fn *f;
  Names *nm;
  Node **def;    // def[v]: defining statement (constants are written inline)
  int *uses;     // uses[v]: how often v is used (a loop's unused results are not written)
  bool host;     // host-level code (not inside a loop body)
  bool primal;   // the function being written is a primal f (not f_vjp, f_jvp)
  int if_depth;  // ifs entered since the enclosing function or loop body
  bool uses_fail; // the function needs the adsoac_fail label
  const char **temps; // "T *name" of temporaries freed on the error path (emit_par.c add_temp)
  int ntemps, captemps;
  int nkernels;
  int par_depth; // parallel loops around the one being emitted (nested: sequential)
  const Node *par; // the innermost parallel loop whose body is being emitted
  const Node *hist_par; // the loop whose hist clauses the updates being emitted name: the
                        // innermost one with clauses (a nested loop without any updates the
                        // outer loop's histograms: the adjoints f_vjp accumulates per thread)
  const Node *private_par; // C: the loop whose small histograms are per-thread copies
  bool colored;            // C: in a loop run in two phases of chunks (its ACC_COLOR: plain)
  const Node *win_par;     // C: the loop whose threads keep windows of its `wins` (ACC_WINDOW)
  bool stk;                // C: in a parallel region whose threads allocate from adsoac_stk
  bool solo;               // C: adsoac_solo says whether the team has one thread (updates
                           // plain then, atomic otherwise)
  bool no_team;            // C: in the copy of a loop that runs on the calling thread alone
  bool header;             // --emit=header: array declarators with numbers, not the macros
  const Fn *ops_fn;        // the function whose declared operators ops_done marks
  unsigned char *ops_done; // [lambda's first parameter]: its operator emitted already
  int skip;      // the label (adsoac_skip_N) where an iteration whose arrays could not be
                 // allocated goes; 0: outside a parallel loop's body
  int nskips;
  bool uses_priv; // the function allocates arrays in parallel loops' bodies (adsoac_priv_check)
  const Node *shm_par;  // CUDA: the kernel whose hist clauses have shared-memory copies where
  unsigned char *shm;   // shm[h] (emit_par.c shared_hist), in the block's adsoac_shN
  int nsyncs;          // CUDA: the places where the host waits for the stream (a value it reads)
  unsigned char *on_dev; // CUDA: on_dev[v]: a host-level scalar kept on the device (emit_dev.c);
                         // NULL: none
  unsigned char *cell_used; // cell_used[v]: the code refers to its cell (dev_ref)
  int ncells;
  const char *sync_why; // the first of them, in words
  ScanGroup *groups; // C: the function's scans and the loops that run in their passes
  int ngroups;
  const char **redirect; // redirect[arr]: the scalar standing for the element of arr that the
                         // iteration reads or writes (a scan group's terms and prefixes)
  unsigned char *elide;  // elide[arr]: not allocated (a scan group's scalars stand for it)
  unsigned char *dead;   // dead[v]: not written (the place of a scan group's scalar)
  // emit.c's emit_block, for the loop bodies and operators the files below it write
  void (*block)(struct Emit *e, const Block *b);
} Emit;

// The files call each other one way only, down this list (tests/run-layers.sh):
//   emit.c > emit_par.c > emit_scan.c > emit_red.c > emit_dev.c > out.c > names.c
// and recurse into statements through Emit.block.

// ---- out.c ----
void line(Emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *tname(Emit *e, const Type *t);
const char *ref(Emit *e, Val v);
const char *where(Emit *e); // the runtime's last argument: the call's context or the name
void note_sync(Emit *e, Loc loc, const char *why); // CUDA: the host waits for the stream here
const char *elem_at(Emit *e, Val arr, const char *idx); // arr[idx], or p[idx].f
const char *elem_addr(Emit *e, Val arr, const char *off, const char **stride);
void note_defs(Emit *e, const Block *b); // e->def[v] for the values b defines (ref)
void declare_hoisted(Emit *e, const Block *b, bool all);
void pragma_comment(Emit *e, const Node *n);

// ---- emit_dev.c: the CUDA target's scalars kept on the device ----
void plan_dev(Emit *e);
bool on_dev(const Emit *e, Val v);
const char *dev_ref(Emit *e, Val v); // its cell, NAME_dev
bool dev_pure(const Emit *e, const Node *n);

// ---- emit_red.c ----
const char *zero(Emit *e, const Type *t);
// A reduction over a tuple (the fields of a struct value, or a value and an index) runs on a
// struct type of the generated code: tup_name.  red_ctype: the C type of r's values.
const char *tup_name(Emit *e, const Red *r);
const char *red_ctype(Emit *e, const Red *r);
const char *tuple(Emit *e, const Red *r, const Val *vs);
void check_red(const Node *n, const Red *r);
const char *neutral(Emit *e, const Red *r);
const char *combine(Emit *e, const Red *r, const char *a, const char *b);
void finish_red(Emit *e, const Red *r, const char *partial); // out = init OP partial
void emit_user_op(Emit *e, const Node *n, const Red *r);
bool has_user_op(const Node *n);
const char *omp_op(const Red *r);
const char *cub_op(Emit *e, const Red *r);

// ---- emit_scan.c ----
void emit_scan(Emit *e, const Node *n); // CUDA
Red scan_red(const Scan *s);            // a scan as a reduction clause, for the operators
void check_scan(Emit *e, const Node *n, Val *src, Val *dst);
const char *scan_what(Emit *e, const Scan *s, const Val *src);
void scan_total(Emit *e, const Red *r, const char *v);

// ---- emit_par.c ----
void emit_par(Emit *e, const Node *n);
void emit_acc(Emit *e, const Node *n);
void emit_update(Emit *e, const Node *n);
void emit_memory(Emit *e, const Node *n);
void add_temp(Emit *e, const char *decl); // "T *name": freed on the error path
void plan_scans(Emit *e); // C: e->groups, e->elide
int emit_scan_group(Emit *e, const Block *b, int i); // the statements written from b->stmts[i]
