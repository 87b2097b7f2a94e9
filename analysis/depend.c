// analysis/depend.c: the dependence check of a map: can its iterations run in any order?
#include "analysis.h"

bool ir_writes(const Block *b, Val arr) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_WRITE && n->u.mem.arr == arr) return true;
    if (n->kind == IR_IF && (ir_writes(n->u.ifs.then, arr) || ir_writes(n->u.ifs.els, arr)))
      return true;
    if (n->kind == IR_PAR && ir_writes(n->u.par.body, arr)) return true;
    if (n->kind == IR_LOOP && ir_writes(n->u.loop.body, arr)) return true;
  }
  return false;
}

static bool reads_written(const Block *top, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_READ && ir_writes(top, n->u.mem.arr)) return true;
    if (n->kind == IR_IF && (reads_written(top, n->u.ifs.then) || reads_written(top, n->u.ifs.els)))
      return true;
    if (n->kind == IR_PAR && reads_written(top, n->u.par.body)) return true;
    if (n->kind == IR_LOOP && reads_written(top, n->u.loop.body)) return true;
  }
  return false;
}

bool ir_updates_in_place(const Block *b) {
  return reads_written(b, b);
}

static bool asserted(Val arr, const Val *injective, int n) {
  for (int k = 0; k < n; k++)
    if (injective[k] == arr) return true;
  return false;
}

static Val strip_casts(Node *const *def, Val v) {
  while (v && def[v] && def[v]->kind == IR_CAST) v = def[v]->u.cast.a;
  return v;
}

// The loop in b (recursively) whose index is j, or NULL.
static const Node *loop_of(const Block *b, Val j) {
  for (int k = 0; k < b->n; k++) {
    const Node *n = b->stmts[k], *in = NULL;
    if ((n->kind == IR_PAR && n->u.par.idx == j) || (n->kind == IR_LOOP && n->u.loop.idx == j))
      return n;
    if (n->kind == IR_PAR) in = loop_of(n->u.par.body, j);
    if (n->kind == IR_IF && !(in = loop_of(n->u.ifs.then, j))) in = loop_of(n->u.ifs.els, j);
    if (n->kind == IR_LOOP) in = loop_of(n->u.loop.body, j);
    if (in) return in;
  }
  return NULL;
}

// i*M + j (or j + M*i, ...) with j the index of a loop (parallel or sequential) nested in the
// body running over [0, M), M the same in every iteration of i: row i of a row-major matrix,
// so distinct (i, j) give distinct elements.
bool index_row_major(Node *const *def, const unsigned char *inside, const Block *body, Val idx,
                     Val i) {
  const Node *d = def[strip_casts(def, idx)];
  if (!d || d->kind != IR_BINOP || d->u.bin.op != BIN_ADD) return false;
  for (int side = 0; side < 2; side++) {
    Val row = strip_casts(def, side ? d->u.bin.b : d->u.bin.a);
    Val j = strip_casts(def, side ? d->u.bin.a : d->u.bin.b);
    const Node *inner = loop_of(body, j), *mul = def[row];
    if (!inner || !mul || mul->kind != IR_BINOP || mul->u.bin.op != BIN_MUL) continue;
    Val ilo = inner->kind == IR_PAR ? inner->u.par.lo : inner->u.loop.lo;
    Val ihi = inner->kind == IR_PAR ? inner->u.par.hi : inner->u.loop.hi;
    const Node *lo = def[strip_casts(def, ilo)];
    if (!lo || lo->kind != IR_CONST || lo->u.cst.i != 0) continue;
    Val a = strip_casts(def, mul->u.bin.a), b = strip_casts(def, mul->u.bin.b);
    Val m = a == i ? b : b == i ? a : 0;
    if (m && index_invariant(def, inside, m, i) &&
        index_same(def, m, strip_casts(def, ihi)))
      return true;
  }
  return false;
}

Dep map_dependence(Node *const *def, const unsigned char *inside, const Block *body, Val i,
                   const Access *acc, int nacc, const Val *injective, int ninjective) {
  for (int w = 0; w < nacc; w++) {
    if (!acc[w].write) continue;
    IndexForm f = index_form(def, inside, acc[w].idx, i);
    if ((!f.affine || !f.coef) && !index_row_major(def, inside, body, acc[w].idx, i) &&
        !asserted(acc[w].arr, injective, ninjective))
      return (Dep){DEP_NOT_INJECTIVE, w, w};
    for (int r = 0; r < nacc; r++) {
      if (acc[r].arr != acc[w].arr || r == w) continue;
      if (!index_same(def, acc[r].idx, acc[w].idx)) return (Dep){DEP_OTHER_INDEX, w, r};
      if (!acc[r].write && !acc[r].initial && r > w) return (Dep){DEP_READ_BACK, w, r};
    }
  }
  return (Dep){DEP_NONE, -1, -1};
}
