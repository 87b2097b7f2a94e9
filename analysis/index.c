// analysis/index.c: index analysis (affine forms in a loop index, invariance, structural
// equality of index expressions).
#include <limits.h>

#include "analysis.h"

static void defs_node(Node *n, Node **def);

void ir_defs(const Block *b, Node **def) {
  for (int i = 0; i < b->n; i++) defs_node(b->stmts[i], def);
}

static void defs_node(Node *n, Node **def) {
  if (n->out) def[n->out] = n;
  switch (n->kind) {
  case IR_IF:
    ir_defs(n->u.ifs.then, def);
    ir_defs(n->u.ifs.els, def);
    for (int k = 0; k < n->u.ifs.nouts; k++) def[n->u.ifs.outs[k]] = n;
    break;
  case IR_LOOP: ir_defs(n->u.loop.body, def); break;
  case IR_PAR: ir_defs(n->u.par.body, def); break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_RETURN: break;
  }
}

static void inside_node(const Node *n, unsigned char *inside);

void ir_inside(const Block *b, unsigned char *inside) {
  for (int i = 0; i < b->n; i++) inside_node(b->stmts[i], inside);
}

static void inside_node(const Node *n, unsigned char *inside) {
  if (n->out) inside[n->out] = 1;
  switch (n->kind) {
  case IR_IF:
    ir_inside(n->u.ifs.then, inside);
    ir_inside(n->u.ifs.els, inside);
    for (int k = 0; k < n->u.ifs.nouts; k++) inside[n->u.ifs.outs[k]] = 1;
    break;
  case IR_LOOP:
    inside[n->u.loop.idx] = 1;
    for (int k = 0; k < n->u.loop.ncarry; k++)
      inside[n->u.loop.params[k]] = inside[n->u.loop.outs[k]] = 1;
    ir_inside(n->u.loop.body, inside);
    break;
  case IR_PAR:
    inside[n->u.par.idx] = 1;
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) inside[n->u.par.reds[r].out[f]] = 1;
    for (int s = 0; s < n->u.par.nscans; s++)
      for (int f = 0; f < n->u.par.scans[s].nf; f++)
        inside[n->u.par.scans[s].out[f]] = inside[n->u.par.scans[s].excl[f]] = 1;
    ir_inside(n->u.par.body, inside);
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE:
  case IR_RETURN: break;
  }
}

// The walks below follow an index expression's definitions through at most INDEX_BUDGET
// statements.  A longer expression (or one whose shared parts add up to more: a DAG walked
// as a tree) is treated as unknown: not invariant, not affine, not the same as another.
// Those answers only make the callers refuse a map, use atomics, save or recompute more:
// never a wrong result.  (Unbounded, a chain of 30,000 statements k = k + 0 took 14 s,
// quadratic, and recursed 30,000 deep.)
#define INDEX_BUDGET 10000

typedef struct {
  bool inv;    // depends on nothing that changes from one iteration to the next
  bool affine; // coef * i + an invariant part
  long long coef;
} Form;

static bool const_int(Node *const *def, Val v, long long *k) {
  const Node *d = v ? def[v] : NULL;
  if (d && d->kind == IR_CONST) {
    *k = d->u.cst.i;
    return true;
  }
  return false;
}

static Form form_of(Node *const *def, const unsigned char *inside, Val v, Val i, int *budget) {
  const Form none = {false, false, 0}, inv = {true, true, 0};
  if (v && v == i) return (Form){false, true, 1};
  if (!v || !inside[v]) return inv;
  const Node *d = def[v];
  if (!d || --*budget < 0) return none;
  long long k, c;
  switch (d->kind) {
  case IR_CONST: return inv;
  case IR_CAST: return form_of(def, inside, d->u.cast.a, i, budget); // integer widening
  case IR_UNOP: {
    Form a = form_of(def, inside, d->u.un.a, i, budget);
    if (a.inv) return inv;
    if (d->u.un.op != UN_NEG || a.coef == LLONG_MIN) return none;
    return (Form){false, a.affine, -a.coef};
  }
  case IR_BINOP: {
    Form a = form_of(def, inside, d->u.bin.a, i, budget);
    Form b = form_of(def, inside, d->u.bin.b, i, budget);
    if (a.inv && b.inv) return inv;
    bool affine = a.affine && b.affine;
    switch (d->u.bin.op) {
    case BIN_ADD:
      if (__builtin_add_overflow(a.coef, b.coef, &c)) return none;
      return (Form){false, affine, c};
    case BIN_SUB:
      if (__builtin_sub_overflow(a.coef, b.coef, &c)) return none;
      return (Form){false, affine, c};
    case BIN_MUL:
      if (affine && !b.coef && const_int(def, d->u.bin.b, &k) && !__builtin_mul_overflow(a.coef, k, &c))
        return (Form){false, true, c};
      if (affine && !a.coef && const_int(def, d->u.bin.a, &k) && !__builtin_mul_overflow(b.coef, k, &c))
        return (Form){false, true, c};
      return none;
    default: return none;
    }
  }
  case IR_CALL: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_RETURN:
    return none; // (a read: the array may change)
  }
  return none;
}

// v depends on nothing that changes from one iteration to the next: values from outside the
// loop, constants, and arithmetic on them (no reads: the array may change).
bool index_invariant(Node *const *def, const unsigned char *inside, Val v, Val i) {
  int budget = INDEX_BUDGET;
  return form_of(def, inside, v, i, &budget).inv;
}

IndexForm index_form(Node *const *def, const unsigned char *inside, Val v, Val i) {
  int budget = INDEX_BUDGET;
  Form f = form_of(def, inside, v, i, &budget);
  return (IndexForm){f.affine, f.coef};
}

static bool same(Node *const *def, Val a, Val b, int *budget) {
  if (a == b) return true;
  if (!a || !b || --*budget < 0) return false;
  const Node *x = def[a], *y = def[b];
  if (!x || !y || x->kind != y->kind) return false;
  switch (x->kind) {
  case IR_CONST: return x->u.cst.i == y->u.cst.i && x->u.cst.f == y->u.cst.f;
  case IR_UNOP: return x->u.un.op == y->u.un.op && same(def, x->u.un.a, y->u.un.a, budget);
  case IR_BINOP:
    return x->u.bin.op == y->u.bin.op && same(def, x->u.bin.a, y->u.bin.a, budget) &&
           same(def, x->u.bin.b, y->u.bin.b, budget);
  case IR_CAST: return same(def, x->u.cast.a, y->u.cast.a, budget);
  case IR_CALL:
    return x->u.call.fn == y->u.call.fn && same(def, x->u.call.a, y->u.call.a, budget) &&
           (x->u.call.b == y->u.call.b || same(def, x->u.call.b, y->u.call.b, budget));
  default: return false; // reads are not compared: the array may have changed
  }
}

bool index_same(Node *const *def, Val a, Val b) {
  int budget = INDEX_BUDGET;
  return same(def, a, b, &budget);
}

// x when v is max(x, 0), written as the select `x > 0 ? x : 0` (a loop's length), else 0.
static Val clamped(Node *const *def, Val v) {
  const Node *n = v ? def[v] : NULL;
  if (!n || n->kind != IR_IF || n->u.ifs.nouts != 1 || n->u.ifs.then->n || n->u.ifs.els->n) return 0;
  const Node *c = def[n->u.ifs.cond], *z = def[n->u.ifs.els->yields[0]];
  if (!c || c->kind != IR_BINOP || c->u.bin.op != BIN_GT || !z || z->kind != IR_CONST ||
      z->u.cst.i || z->u.cst.f || !index_same(def, c->u.bin.b, n->u.ifs.els->yields[0]) ||
      c->u.bin.a != n->u.ifs.then->yields[0])
    return 0;
  return c->u.bin.a;
}

bool range_same(Node *const *def, Val lo_a, Val hi_a, Val lo_b, Val hi_b) {
  if (!index_same(def, lo_a, lo_b)) return false;
  if (index_same(def, hi_a, hi_b)) return true;
  const Node *lo = def[lo_a];
  if (!lo || lo->kind != IR_CONST || lo->u.cst.i) return false; // [0, max(x, 0)) == [0, x)
  Val ca = clamped(def, hi_a), cb = clamped(def, hi_b);
  return (ca && index_same(def, ca, hi_b)) || (cb && index_same(def, hi_a, cb));
}
