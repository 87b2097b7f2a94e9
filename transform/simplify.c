// transform/simplify.c: dead-code elimination.  The reverse sweep re-executes whole loop
// bodies; what the adjoint code does not use is removed here.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "transform.h"

// uses[v] += d (d = -1: the uses of a statement removed)
static void use_by(int *uses, int d, Val v) {
  if (v) uses[v] += d;
}

// The statement's result is used (the walk goes into ifs only).
static WalkNext def_used(Node *n, void *uses) {
  if (n->out && ((int *)uses)[n->out]) return WALK_STOP;
  return n->kind == IR_IF ? WALK_INTO : WALK_SKIP;
}

// Is any value defined in b (or in the ifs nested in it) still used?
static bool block_defs_used(const Block *b, const int *uses) {
  return ir_walk(b, &(Walker){.pre = def_used, .ctx = (int *)uses});
}

// A write, a loop or a memory statement (the walk goes into ifs only).
static WalkNext has_effect(Node *n, void *ctx) {
  if (n->kind == IR_IF) return WALK_INTO;
  return n->kind <= IR_READ ? WALK_SKIP : WALK_STOP;
}

static bool block_has_effects(const Block *b) {
  return ir_walk(b, &(Walker){.pre = has_effect});
}

static bool removable(const Node *n, const int *uses) {
  switch (n->kind) {
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
    return !uses[n->out];
  case IR_EXT: // (pure)
    for (int i = 0; i < n->u.ext.nouts; i++)
      if (uses[n->u.ext.outs[i]]) return false;
    return !n->out || !uses[n->out];
  case IR_IF:
    for (int i = 0; i < n->u.ifs.nouts; i++)
      if (uses[n->u.ifs.outs[i]]) return false;
    // the reverse sweep reads values a branch defined: keep the branch while they are used
    return !block_has_effects(n->u.ifs.then) && !block_has_effects(n->u.ifs.els) &&
           !block_defs_used(n->u.ifs.then, uses) && !block_defs_used(n->u.ifs.els, uses);
  case IR_PAR: // a loop whose results are unused and that writes nothing
    return !n->u.par.nreds && !n->u.par.nscans && !n->u.par.nhists &&
           !block_has_effects(n->u.par.body);
  case IR_COLL: // (a collective every rank makes: kept where the source has it)
    return n->out && !uses[n->out];
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_LOOP: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_RETURN: return false;
  }
  return false;
}

// Reductions whose results are all unused are dropped with their contributions.
static bool prune_reductions(Node *n, int *uses) {
  bool changed = false;
  int k = 0;
  for (int r = 0; r < n->u.par.nreds; r++) {
    Red *red = &n->u.par.reds[r];
    bool used = false;
    for (int f = 0; f < red->nf; f++) used |= uses[red->out[f]] > 0;
    if (!used) {
      // its yields become 0 (no value): the slots of the others stay as they are
      for (int f = 0; f < red->nf; f++) {
        use_by(uses, -1, n->u.par.body->yields[red->slot + f]);
        n->u.par.body->yields[red->slot + f] = 0;
      }
      changed = true;
      continue;
    }
    n->u.par.reds[k++] = *red;
  }
  n->u.par.nreds = k;
  if (!changed) return false;
  // the remaining contributions, renumbered
  Block *b = n->u.par.body;
  int m = 0;
  for (int y = 0; y < b->nyields; y++) {
    if (!b->yields[y]) continue;
    for (int r = 0; r < n->u.par.nreds; r++)
      if (n->u.par.reds[r].slot == y) n->u.par.reds[r].slot = m;
    for (int s = 0; s < n->u.par.nscans; s++)
      if (n->u.par.scans[s].slot == y) n->u.par.scans[s].slot = m;
    b->yields[m++] = b->yields[y];
  }
  b->nyields = m;
  return true;
}

// Carried values of a sequential loop that nothing reads (neither the body, but to hand it
// on unchanged, nor after the loop) are dropped with their initial values and yields.
static bool prune_carried(Node *n, int *uses) {
  int k = 0;
  for (int j = 0; j < n->u.loop.ncarry; j++) {
    Val p = n->u.loop.params[j];
    if (uses[p] == (n->u.loop.body->yields[j] == p) && !uses[n->u.loop.outs[j]] &&
        n->u.loop.params[j] != n->u.loop.exit) { // (the loop itself reads its exit flag)
      use_by(uses, -1, n->u.loop.init[j]), use_by(uses, -1, n->u.loop.body->yields[j]);
      continue;
    }
    n->u.loop.init[k] = n->u.loop.init[j];
    n->u.loop.params[k] = n->u.loop.params[j];
    n->u.loop.outs[k] = n->u.loop.outs[j];
    n->u.loop.body->yields[k] = n->u.loop.body->yields[j];
    k++;
  }
  bool changed = k != n->u.loop.ncarry;
  n->u.loop.ncarry = n->u.loop.body->nyields = k;
  return changed;
}

// Unused outs of an if are dropped with their yields, whose uses go.
static bool prune_outs(Node *n, int *uses) {
  int k = 0;
  for (int j = 0; j < n->u.ifs.nouts; j++) {
    if (!uses[n->u.ifs.outs[j]]) {
      use_by(uses, -1, n->u.ifs.then->yields[j]), use_by(uses, -1, n->u.ifs.els->yields[j]);
      continue;
    }
    n->u.ifs.outs[k] = n->u.ifs.outs[j];
    n->u.ifs.then->yields[k] = n->u.ifs.then->yields[j];
    n->u.ifs.els->yields[k] = n->u.ifs.els->yields[j];
    k++;
  }
  bool changed = k != n->u.ifs.nouts;
  n->u.ifs.nouts = n->u.ifs.then->nyields = n->u.ifs.els->nyields = k;
  return changed;
}

// Removes dead statements of b (and of nested blocks), and the unused outs of ifs, results
// of reductions and carried values with their yields; returns whether anything changed.
// Last to first, taking what goes away out of uses[]: a chain of dead values goes in one
// sweep, and so do the values that only a dropped yield used, inside the statement, and a
// loop or an if that its own sweep emptied (one sweep each made a dead sum of n terms cost n
// sweeps of the function, and 200 nested reductions 200).
static bool sweep(Block *b, int *uses) {
  bool changed = false;
  int k = b->n;
  for (int i = b->n - 1; i >= 0; i--) {
    Node *n = b->stmts[i];
    if (removable(n, uses)) {
      count_node(n, uses, -1);
      changed = true;
      continue;
    }
    if (n->kind == IR_IF) {
      changed |= prune_outs(n, uses);
      changed |= sweep(n->u.ifs.els, uses) | sweep(n->u.ifs.then, uses);
    }
    if (n->kind == IR_PAR) {
      changed |= prune_reductions(n, uses);
      changed |= sweep(n->u.par.body, uses);
    }
    if (n->kind == IR_LOOP) { // (a carried value the body alone used: after the body's sweep)
      changed |= prune_carried(n, uses);
      changed |= sweep(n->u.loop.body, uses);
      changed |= prune_carried(n, uses);
    }
    if ((n->kind == IR_IF || n->kind == IR_PAR) && removable(n, uses)) { // emptied by its sweep
      count_node(n, uses, -1);
      changed = true;
      continue;
    }
    b->stmts[--k] = n;
  }
  if (k) memmove(b->stmts, b->stmts + k, sizeof(Node *) * (size_t)(b->n - k));
  b->n -= k;
  return changed;
}

// ---- arrays written and never read: an allocation, its writes and its free go ----

typedef struct {
  unsigned char *alloc, *read; // alloc[v]: v is allocated here; read[v]: something reads it
} ArrayUse;

static WalkNext array_use(Node *n, void *ctx) {
  ArrayUse *u = ctx;
  switch (n->kind) {
  case IR_ALLOC: u->alloc[n->out] = 1; break;
  case IR_READ: u->read[n->u.mem.arr] = 1; break;
  case IR_WRITE: u->read[n->u.mem.v] = 1; break; // (an array kept on a tape: read through it)
  case IR_COPY:
    u->read[n->u.copy.src] = 1;
    if (n->u.copy.swap) u->read[n->u.copy.dst] = 1;
    break;
  case IR_SORT: u->read[n->u.copy.src] = 1, u->read[n->u.copy.dst] = 1; break;
  case IR_COLL: // (kept: what it writes stays allocated)
    u->read[n->u.coll.in] = u->read[n->u.coll.out] = 1;
    u->read[n->u.coll.in_d] = u->read[n->u.coll.out_d] = 1;
    break;
  case IR_PAR: // a histogram's section is read back after the loop
    for (int h = 0; h < n->u.par.nhists; h++)
      u->read[n->u.par.hists[h].arr] = u->read[n->u.par.hists[h].win] = 1;
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST:
  case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_FREE: case IR_RETURN: break;
  }
  return WALK_INTO;
}

// Does n only write (allocate, free) an array that nothing reads?
static bool dead_write(const Node *n, const ArrayUse *u) {
  Val a = 0;
  switch (n->kind) {
  case IR_WRITE: case IR_ACC: a = n->u.mem.arr; break;
  case IR_ALLOC: a = n->out; break;
  case IR_FREE: case IR_COPY: a = n->u.copy.dst; break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ:
  case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR: case IR_SORT: case IR_COLL:
  case IR_RETURN: break;
  }
  if (n->kind == IR_COPY && n->u.copy.swap) return false;
  return a && u->alloc[a] && !u->read[a];
}

static void drop_dead_writes(Block *b, void *ctx) {
  int k = 0;
  for (int i = 0; i < b->n; i++)
    if (!dead_write(b->stmts[i], ctx)) b->stmts[k++] = b->stmts[i];
  b->n = k;
}

// Removes the arrays that a function allocates and never reads (a local array whose
// elements were forwarded where they were read), with their writes; true if any went.
static bool dead_arrays(Fn *f) {
  ArrayUse u = {calloc((size_t)f->nvals, 1), calloc((size_t)f->nvals, 1)};
  ir_walk(f->body, &(Walker){.pre = array_use, .lambdas = true, .ctx = &u});
  bool any = false;
  for (int v = 1; v < f->nvals; v++) any |= u.alloc[v] && !u.read[v];
  if (any) ir_walk(f->body, &(Walker){.block = drop_dead_writes, .ctx = &u});
  free(u.alloc);
  free(u.read);
  return any;
}

void simplify_dce(Fn *f) {
  int *uses = calloc((size_t)f->nvals, sizeof(int));
  for (bool changed = true; changed;) {
    for (int i = 0; i < f->nvals; i++) uses[i] = 0;
    count_block(f->body, uses);
    changed = sweep(f->body, uses);
  }
  free(uses);
}

// After differentiation (the prefixes of a scan are read by its derivative only).
void simplify_dead_arrays(Fn *f) {
  while (dead_arrays(f)) simplify_dce(f);
}

// Casts of constants become constants: (double)0 -> 0.0; integer comparisons of a value
// with itself become 0 or 1.
typedef struct {
  Fn *f;
  Node **def;
} Fold;

// An integer constant of type t holds its value in cst.i as C holds it in t: wrapped to t's
// width (a 64-bit unsigned value above LLONG_MAX as its bit pattern).
static long long int_wrap(const Type *t, unsigned long long u) {
  IntInfo k = ty_int_info(t);
  if (k.bits == 1) return u != 0; // _Bool
  if (k.bits >= 64) return (long long)u;
  unsigned long long mask = (1ULL << k.bits) - 1;
  u &= mask;
  if (k.sign && (u >> (k.bits - 1))) u |= ~mask; // (gcc's conversion to a signed type)
  return (long long)u;
}

static bool is_u64(const Type *t) {
  IntInfo k = ty_int_info(t);
  return !k.sign && k.bits == 64;
}

// (T)c for a floating-point c, where C defines it (the truncated value fits T): *iv
static bool float_to_int(const Type *to, double v, long long *iv) {
  IntInfo k = ty_int_info(to);
  if (k.bits == 1) return *iv = v != 0, true;
  double w = trunc(v), hi = ldexp(1, k.sign ? k.bits - 1 : k.bits); // 2^63: exact
  if (!(w >= (k.sign ? -hi : 0) && w < hi)) return false; // (NaN too)
  *iv = k.sign ? (long long)w : (long long)(unsigned long long)w;
  return true;
}

static void fold_node(Node *n, void *ctx) {
  Fold *fo = ctx;
  Fn *f = fo->f;
  if (n->out) fo->def[n->out] = n;
  if (n->kind == IR_BINOP && binop_is_compare(n->u.bin.op) && n->u.bin.op != BIN_LAND &&
      n->u.bin.op != BIN_LOR && n->u.bin.a == n->u.bin.b &&
      !ty_is_float(f->vals[n->u.bin.a].type)) { // i < i (bounds that fusion made equal; not c && c)
    BinOp op = n->u.bin.op;
    n->kind = IR_CONST;
    n->u.cst.f = 0;
    n->u.cst.i = op == BIN_EQ || op == BIN_LE || op == BIN_GE;
    return;
  }
  if (n->kind != IR_CAST) return;
  Node *c = fo->def[n->u.cast.a];
  if (!c || c->kind != IR_CONST) return;
  const Type *from = f->vals[c->out].type, *to = f->vals[n->out].type;
  if (to->kind == TY_PTR || to->kind == TY_STRUCT || !(ty_is_float(to) || ty_is_int(to))) return;
  long long i = c->u.cst.i, iv = 0;
  double v;
  if (ty_is_float(from))
    v = to->kind == TY_FLOAT ? (double)(float)c->u.cst.f : c->u.cst.f;
  else if (to->kind == TY_FLOAT) // (rounded once, as C converts)
    v = is_u64(from) ? (float)(unsigned long long)i : (float)i;
  else
    v = is_u64(from) ? (double)(unsigned long long)i : (double)i;
  if (ty_is_int(to)) {
    if (!ty_is_float(from))
      iv = int_wrap(to, (unsigned long long)i);
    else if (!float_to_int(to, c->u.cst.f, &iv))
      return; // (out of the type's range, an infinity or NaN: left to the C compiler)
    v = is_u64(to) ? (double)(unsigned long long)iv : (double)iv;
  }
  n->kind = IR_CONST;
  n->u.cst.f = v;
  n->u.cst.i = ty_is_float(to) ? 0 : iv;
}

void simplify_fold(Fn *f) {
  Node **def = calloc((size_t)f->nvals, sizeof(Node *));
  ir_walk(f->body, &(Walker){.post = fold_node, .ctx = &(Fold){f, def}});
  free(def);
}
