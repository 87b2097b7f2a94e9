// translate.c: the pipeline, top to bottom (P1 of docs/style.md).
#include "translate.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/macro.h"
#include "parser/parser.h"
#include "ad/ad.h"
#include "transform/transform.h"

// ---- the pipeline ----
//
// Every pass by name, in order (adsoac --passes prints this table).  A pass runs on the
// functions of one marked function (Unit); the IR verifier (ir/ir_verify.c) checks every
// function it changed after it.  --dump-after=NAME prints the IR as it is after NAME and
// stops; --emit=ir is the IR after the last pass.

typedef struct {
  Marked *m;
  Fn *mined; // reverse mode's copy of the primal, its sequential loops strip-mined (or NULL)
  AdCtx *cx;
} Unit;

typedef struct {
  Arena *a;
  const TranslateOptions *o;
} Pipe;

typedef struct {
  const char *name;  // --dump-after=NAME
  const char *where; // the file (or layer) of the pass
  const char *what;
  void (*run)(const Pipe *p, Unit *u);
  int changes;        // the functions it changes: CH_PRIMAL, CH_MINED, CH_VJP, CH_JVP
  bool derivative;    // a differentiation pass (after parse, activity and lowering)
} Pass;

enum { CH_PRIMAL = 1, CH_MINED = 2, CH_VJP = 4, CH_JVP = 8, CH_ALL = 15 };

static void pass_fold(const Pipe *p, Unit *u) {
  (void)p;
  simplify_fold(u->m->primal); // (double)0 -> 0.0
}
static void pass_dce(const Pipe *p, Unit *u) {
  (void)p;
  simplify_dce(u->m->primal);
}
static void pass_activity(const Pipe *p, Unit *u) {
  (void)p;
  activity_warnings(u->m->primal);
}
static void pass_distribute(const Pipe *p, Unit *u) {
  (void)p;
  distribute_loops(u->m->primal);
}
static void pass_lower_scans(const Pipe *p, Unit *u) {
  lower_scans(u->m->primal, p->o->general_rule);
}

// Reverse mode differentiates a copy of the primal whose sequential loops are strip-mined
// (stripmine(L) on the loop, else --stripmine=L, else 1: one saved state per iteration).
static void pass_stripmine(const Pipe *p, Unit *u) {
  const Fn *primal = u->m->primal;
  bool loops = false, exits = has_exit_loops(primal);
  for (int k = 0; k < primal->body->n; k++) loops |= primal->body->stmts[k]->kind == IR_LOOP;
  if (!loops && !exits) return;
  u->mined = fn_copy(p->a, primal);
  if (exits) count_exit_loops(u->mined);
  stripmine_loops(u->mined, p->o->stripmine);
}
static void pass_vjp(const Pipe *p, Unit *u) {
  (void)p;
  u->m->vjp = ad_vjp(u->cx, u->mined ? u->mined : u->m->primal);
}
static void fold_dce(Fn *f) {
  simplify_fold(f);
  simplify_dce(f);
}
static void pass_vjp_simplify(const Pipe *p, Unit *u) {
  (void)p;
  promote_accs(u->m->vjp);
  fold_dce(u->m->vjp);
  ad_check_stale(u->cx, u->m->vjp);
}
static void pass_jvp(const Pipe *p, Unit *u) {
  (void)p;
  u->m->jvp = ad_jvp(u->cx, u->m->primal);
}
static void pass_jvp_simplify(const Pipe *p, Unit *u) {
  (void)p;
  fold_dce(u->m->jvp);
}
// The prefixes of a reduction computed as a scan are read by its derivative only.
static void pass_drop_unread(const Pipe *p, Unit *u) {
  (void)p;
  scan_drop_unread(u->m->primal);
  scan_drop_unread(u->m->vjp);
  scan_drop_unread(u->m->jvp);
}
// After differentiation, the distributed loops (and each primal loop with its reverse loop)
// are fused again; the primal last, since differentiation read it.
static void pass_fuse(const Pipe *p, Unit *u) {
  if (p->o->no_fuse) return;
  fuse_loops(u->m->vjp);
  fuse_loops(u->m->jvp);
  fuse_loops(u->m->primal);
}
// CUDA: a loop's updates that the C target makes plain in two phases of chunks, or into
// per-thread windows, are atomic (one thread per iteration); the chunks' width goes.
static WalkNext uncolor(Node *n, void *ctx) {
  (void)ctx;
  if (n->kind == IR_PAR) n->u.par.color = 0, n->u.par.nwins = 0;
  if (n->kind == IR_ACC && (n->u.mem.mode == ACC_COLOR || n->u.mem.mode == ACC_WINDOW))
    n->u.mem.mode = ACC_ATOMIC;
  return WALK_INTO;
}

// What fusion made constant or unused goes (no set-but-unused variables in the output).
static void pass_simplify(const Pipe *p, Unit *u) {
  Fn *fns[3] = {u->m->primal, u->m->vjp, u->m->jvp};
  for (int k = 0; k < 3; k++) {
    if (p->o->target == TARGET_CUDA) ir_walk(fns[k]->body, &(Walker){.pre = uncolor});
    fold_dce(fns[k]);
    simplify_dead_arrays(fns[k]); // (a local array whose reads were all forwarded)
  }
}

static void pass_unzeroed(const Pipe *p, Unit *u) {
  (void)p;
  Fn *fns[3] = {u->m->primal, u->m->vjp, u->m->jvp};
  for (int k = 0; k < 3; k++)
    if (fns[k]) zero_unneeded(fns[k]), fold_dce(fns[k]); // (a loop left with nothing to do)
}

static const Pass passes[] = {
  {"fold", "transform/simplify.c", "casts of constants become constants, i < i becomes 0",
   pass_fold, CH_PRIMAL, false},
  {"dce", "transform/simplify.c", "pure statements whose results are unused go", pass_dce,
   CH_PRIMAL, false},
  {"activity", "analysis/activity.c",
   "warnings: derivatives through non-differentiable constructs (language.md 7)",
   pass_activity, 0, false},
  {"distribute", "transform/distribute.c",
   "one loop per reduction, histogram and elementwise part, as dependences allow",
   pass_distribute, CH_PRIMAL, false},
  {"lower-scans", "transform/scan.c",
   "a scan loop becomes map, canonical scan, map; reductions the special rules do not cover "
   "become scans", pass_lower_scans, CH_PRIMAL, false},
  {"stripmine", "transform/stripmine.c",
   "reverse mode's copy of the primal: loops that end on a flag counted (counted.c), "
   "sequential loops strip-mined", pass_stripmine,
   CH_MINED, true},
  {"vjp", "ad/rev*.c", "reverse mode: f -> f_vjp", pass_vjp, CH_VJP, true},
  {"vjp-simplify", "transform/promote.c, simplify.c",
   "sums into one element across a loop kept in a register; fold and dce on f_vjp",
   pass_vjp_simplify, CH_VJP, true},
  {"jvp", "ad/fwd*.c", "forward mode: f -> f_jvp", pass_jvp, CH_JVP, true},
  {"jvp-simplify", "transform/simplify.c", "fold and dce on f_jvp", pass_jvp_simplify, CH_JVP,
   true},
  {"drop-unread-scans", "transform/scan.c", "prefix arrays nothing reads go",
   pass_drop_unread, CH_ALL & ~CH_MINED, true},
  {"fuse", "transform/fuse.c",
   "adjacent loops over one index space fuse, loop bodies share subexpressions "
   "(off with --no-fuse)", pass_fuse, CH_ALL & ~CH_MINED, true},
  {"simplify", "transform/simplify.c", "fold and dce on f, f_vjp and f_jvp", pass_simplify,
   CH_ALL & ~CH_MINED, true},
  {"unzeroed", "transform/zero.c",
   "temporaries written in full before they are read are not zeroed; a first accumulation "
   "into one becomes a write", pass_unzeroed, CH_ALL & ~CH_MINED, true},
};
enum { NPASSES = sizeof passes / sizeof *passes };

void adsoac_print_passes(FILE *out) {
  fprintf(out, "%-18s %-24s %s\n", "parse", "parser/", "C and pragmas -> the IR of each "
          "marked function (also after each pass below: the IR verifier, ir/ir_verify.c)");
  for (int i = 0; i < NPASSES; i++)
    fprintf(out, "%-18s %-24s %s\n", passes[i].name, passes[i].where, passes[i].what);
  fprintf(out, "%-18s %-24s %s\n", "emit", "emit/", "CUDA C with CUB, or C11 with OpenMP");
}

bool adsoac_pass_known(const char *name) {
  if (!strcmp(name, "parse")) return true;
  for (int i = 0; i < NPASSES; i++)
    if (!strcmp(passes[i].name, name)) return true;
  return false;
}

static void run_pass(const Pipe *p, const Pass *ps, Unit *u) {
  ps->run(p, u);
  Fn *fns[4] = {u->m->primal, u->mined, u->m->vjp, u->m->jvp};
  for (int k = 0; k < 4; k++)
    if ((ps->changes >> k & 1) && fns[k]) ir_verify(fns[k], ps->name);
}

// The IR of a unit as it stands: f, then reverse mode's strip-mined copy (only before it is
// differentiated), f_vjp and f_jvp as far as they exist.
static void print_unit(const Unit *u, bool with_mined, Buf *out) {
  ir_print_fn(u->m->primal, out);
  if (with_mined && u->mined) ir_print_fn(u->mined, out);
  if (u->m->vjp) ir_print_fn(u->m->vjp, out);
  if (u->m->jvp) ir_print_fn(u->m->jvp, out);
}

// The derivative passes of one unit, on a thread of their own (diag_try): a derivative that
// this version refuses ends that thread only.
typedef struct {
  const Pipe *p;
  Unit *u;
  int first;
} Derive;

static void derive(void *arg) {
  Derive *d = arg;
  for (int k = d->first; k < NPASSES; k++) run_pass(d->p, &passes[k], d->u);
}

static size_t job_stack; // the stack the translation's thread got (adsoac_translate)

// --emit=ir: the IR of every marked function after the derivative passes.  A derivative
// that this version refuses is diagnosed, and the primal IR is still printed (the caller
// exits 1).
static bool print_ir(const Pipe *p, Unit *units, int nunits, int first, Buf *out) {
  bool ok = true;
  for (int i = 0; i < nunits; i++) {
    Unit *u = &units[i];
    Derive d = {p, u, first};
    int err;
    DiagTry r = diag_try(derive, &d, job_stack, &err);
    if (r == DIAG_NO_THREAD) {
      fprintf(stderr, "adsoac: error: cannot start a thread: %s\n", strerror(err));
      exit(1);
    }
    if (r == DIAG_OK) {
      print_unit(u, false, out); // as emitted
    } else {
      ok = false;
      if (!p->o->no_fuse) fuse_loops(u->m->primal);
      ir_print_fn(u->m->primal, out); // as written (a refused derivative)
    }
  }
  return ok;
}

typedef struct {
  Unit *u;
  int n;
} Units;

static void free_units(void *arg) {
  Units *us = arg;
  for (int i = 0; i < us->n; i++) ad_free(us->u[i].cx);
}

static bool translate(Arena *a, TranslateOptions *o, const Src *src, Buf *out) {
  diag_set_source(src);
  // the target compiler's macros: -fopenmp's (the C target's code is OpenMP), nvcc's
  static const char *const c_macros[] = {"_OPENMP=201511"},
                           *const cuda_macros[] = {"__CUDACC__", "__NVCC__"};
  MacroOptions mo = {o->target == TARGET_C ? c_macros : cuda_macros, o->defines, o->incdirs,
                     o->target == TARGET_C ? 1 : 2, o->ndefines, o->nincdirs};
  Prog *prog = parse_program(a, src, &mo);
  o->deps = prog->deps;
  o->ndeps = prog->ndeps;
  Pipe p = {a, o};
  Units us = {ARENA_ARRAY(a, Unit, prog->nmarked + 1), prog->nmarked};
  Unit *units = us.u;
  bool ok = true;
  pthread_cleanup_push(free_units, &us); // (also when an error ends the thread)
  for (int i = 0; i < prog->nmarked; i++) {
    units[i].m = &prog->marked[i];
    units[i].cx = ad_new(a, o->general_rule);
    ad_target_cuda(units[i].cx, o->target == TARGET_CUDA);
    ir_verify(units[i].m->primal, "parse");
  }
  // --emit=ir and --emit=dot: the passes before differentiation here, the rest in print_ir
  bool dump = o->dump_after != NULL, ir = o->emit_ir && !dump, dot = o->emit_dot && !dump;
  bool stop = dump && !strcmp(o->dump_after, "parse");
  int k = 0;
  for (; k < NPASSES && !stop && !(passes[k].derivative && (ir || dot)); k++) {
    for (int i = 0; i < prog->nmarked; i++) run_pass(&p, &passes[k], &units[i]);
    stop = dump && !strcmp(o->dump_after, passes[k].name);
  }
  if (ir) {
    ok = print_ir(&p, units, prog->nmarked, k, out);
  } else if (dot) {
    emit_dot(prog, out);
  } else if (dump) {
    for (int i = 0; i < prog->nmarked; i++) print_unit(&units[i], true, out);
  } else {
    EmitOptions eo = {.target = o->target, .line_directives = o->line_directives,
                      .input_name = src->path, .output_name = o->output_name,
                      .version = o->version, .check = o->emit_check,
                      .no_fuse = o->no_fuse, .check_sched = o->check_sched,
                      .deterministic = o->deterministic};
    if (o->emit_header) {
      emit_header(prog, &eo, out);
    } else {
      emit_program(prog, &eo, out);
      if (o->emit_check) emit_check(prog, &eo, out);
    }
  }
  pthread_cleanup_pop(1); // free_units
  return ok;
}

// ---- the translation runs on a thread with a large stack ----
//
// The front end and the passes recurse over the nesting of the input (statements, expressions,
// the IR's blocks): the nesting limits (parser/parser.h, README "Limitations") are set so that
// the deepest accepted input fits in TRANSLATE_STACK with room to spare, also in the
// sanitizer build (whose frames are several times larger).  The stack is reserved, not
// committed: only what a deep input uses is touched.  Where the address space is limited
// (ulimit -v), a quarter of it is tried, and so on, with max_tree_depth scaled to match.
#define TRANSLATE_STACK ((size_t)1 << 30)
#define MIN_STACK ((size_t)16 << 20)

typedef struct {
  Arena *a;
  TranslateOptions *o;
  const Src *src;
  Buf *out;
  bool ok;
} Job;

static void run_job(void *arg) {
  Job *j = arg;
  j->ok = translate(j->a, j->o, j->src, j->out);
}

TranslateResult adsoac_translate(Arena *a, TranslateOptions *o, const Src *src, Buf *out) {
  Job j = {a, o, src, out, false};
  DiagTry r = DIAG_NO_THREAD;
  int err = 0;
  for (size_t stack = TRANSLATE_STACK; stack >= MIN_STACK && r == DIAG_NO_THREAD; stack /= 4) {
    max_tree_depth = (int)(MAX_TREE_DEPTH * (long long)(stack >> 20) / (TRANSLATE_STACK >> 20));
    job_stack = stack;
    r = diag_try(run_job, &j, stack, &err);
    if (r == DIAG_NO_THREAD && err != EAGAIN && err != ENOMEM) break; // (EAGAIN: no room)
  }
  if (r == DIAG_NO_THREAD) {
    fprintf(stderr, "adsoac: error: cannot start the translation (a thread with a stack of "
                    "%zu MiB or less): %s\n", TRANSLATE_STACK >> 20, strerror(err));
    return TRANSLATE_ERROR;
  }
  if (r == DIAG_FAILED) return TRANSLATE_ERROR;
  return j.ok ? TRANSLATE_OK : TRANSLATE_REFUSED;
}
