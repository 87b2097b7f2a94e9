// analysis/index.c: index analysis (affine forms in a loop index, invariance, structural
// equality of index expressions).
#include <limits.h>

#include "analysis.h"

static WalkNext def_at(Node *n, void *def) {
  Node **d = def;
  if (n->out) d[n->out] = n;
  for (int k = 0; n->kind == IR_IF && k < n->u.ifs.nouts; k++) d[n->u.ifs.outs[k]] = n;
  return WALK_INTO;
}

void ir_defs(const Block *b, Node **def) {
  ir_walk(b, &(Walker){.pre = def_at, .ctx = def});
}

static void mark_inside(Val *v, void *inside) {
  ((unsigned char *)inside)[*v] = 1;
}

static WalkNext inside_at(Node *n, void *inside) {
  ir_node_defs(n, mark_inside, inside);
  return WALK_INTO;
}

void ir_inside(const Block *b, unsigned char *inside) {
  ir_walk(b, &(Walker){.pre = inside_at, .ctx = inside});
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
    case BIN_DIV: case BIN_MOD: case BIN_LT: case BIN_LE: case BIN_GT: case BIN_GE: case BIN_EQ:
    case BIN_NE: case BIN_LAND: case BIN_LOR: case BIN_BAND: case BIN_BOR: case BIN_BXOR:
    case BIN_SHL: case BIN_SHR:
      return none;
    }
    return none;
  }
  case IR_CALL: case IR_EXT: case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
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
           (x->u.call.b == y->u.call.b || same(def, x->u.call.b, y->u.call.b, budget)) &&
           (x->u.call.c == y->u.call.c || same(def, x->u.call.c, y->u.call.c, budget));
  case IR_EXT: // (not compared: an index an external function computes is rare)
  case IR_READ: // reads are not compared: the array may have changed
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR: case IR_ALLOC:
  case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    return false;
  }
  UNREACHABLE();
}

bool index_same(Node *const *def, Val a, Val b) {
  int budget = INDEX_BUDGET;
  return same(def, a, b, &budget);
}

Val index_clamped(Node *const *def, Val v) {
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
  Val ca = index_clamped(def, hi_a), cb = index_clamped(def, hi_b);
  return (ca && index_same(def, ca, hi_b)) || (cb && index_same(def, hi_a, cb));
}
