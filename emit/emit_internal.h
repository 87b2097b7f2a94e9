// emit/emit_internal.h: the emitter's state, private to emit/.
#pragma once
#include <stdarg.h>

#include "emit.h"
#include "../analysis/analysis.h"

typedef struct {
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
} Emit;

// ---- emit.c ----
void line(Emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *tname(Emit *e, const Type *t);
const char *ref(Emit *e, Val v);
void emit_stmt(Emit *e, const Node *n);
void emit_block(Emit *e, const Block *b);
void declare_hoisted(Emit *e, const Block *b, bool all);

// ---- emit_par.c ----
void emit_par(Emit *e, const Node *n);
void emit_acc(Emit *e, const Node *n);
void emit_update(Emit *e, const Node *n);
void emit_memory(Emit *e, const Node *n);
