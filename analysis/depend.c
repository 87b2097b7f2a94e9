// analysis/depend.c: the dependence check of a map: can its iterations run in any order?
#include "analysis.h"

static WalkNext write_of(Node *n, void *arr) {
  return n->kind == IR_WRITE && n->u.mem.arr == *(Val *)arr ? WALK_STOP : WALK_INTO;
}

bool ir_writes(const Block *b, Val arr) {
  return ir_walk(b, &(Walker){.pre = write_of, .ctx = &arr});
}

// A read of an array that the block ctx writes.
static WalkNext read_of_written(Node *n, void *top) {
  return n->kind == IR_READ && ir_writes(top, n->u.mem.arr) ? WALK_STOP : WALK_INTO;
}

bool ir_updates_in_place(const Block *b) {
  return ir_walk(b, &(Walker){.pre = read_of_written, .ctx = (Block *)b});
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

static WalkNext loop_with_index(Node *n, void *ctx) {
  Val j = *(Val *)ctx;
  return (n->kind == IR_PAR && n->u.par.idx == j) || (n->kind == IR_LOOP && n->u.loop.idx == j)
             ? WALK_STOP
             : WALK_INTO;
}

// The loop in b (recursively) whose index is j, or NULL.
static const Node *loop_of(const Block *b, Val j) {
  return ir_walk(b, &(Walker){.pre = loop_with_index, .ctx = &j});
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

// Is write w of the loop shown to give each iteration its own elements?
static Overlap self_overlap(const IndexLoop *lp, const Block *body, const Access *w) {
  Overlap ov = index_overlap(lp, w->idx, w->idx, false);
  if (!ov.proof && index_row_major(lp->def, lp->inside, body, w->idx, lp->i))
    return (Overlap){PROOF_ROW_MAJOR, false, 0};
  return ov;
}

IndexProof write_proof(const IndexLoop *lp, const Block *body, const Access *w,
                       const Val *injective, int ninjective) {
  if (asserted(w->arr, injective, ninjective)) return PROOF_ASSERTED;
  return self_overlap(lp, body, w).proof;
}

Dep map_dependence(const IndexLoop *lp, const Block *body, const Access *acc, int nacc,
                   const Val *injective, int ninjective) {
  Node *const *def = lp->def;
  for (int w = 0; w < nacc; w++) {
    if (!acc[w].write) continue;
    bool user = asserted(acc[w].arr, injective, ninjective); // every access: the user's promise
    Overlap ov = user ? (Overlap){PROOF_ASSERTED, false, 0} : self_overlap(lp, body, &acc[w]);
    if (!ov.proof) return (Dep){DEP_NOT_INJECTIVE, w, w, ov};
    for (int r = 0; r < nacc; r++) {
      if (acc[r].arr != acc[w].arr || r == w) continue;
      bool same = index_same(def, acc[r].idx, acc[w].idx); // (then the write's own verdict)
      bool asked = acc[r].write && r < w; // (the pair of writes r, w was checked at r)
      if (!user && !same && !asked &&
          !(ov = index_overlap(lp, acc[w].idx, acc[r].idx, false)).proof)
        return (Dep){DEP_ACROSS, w, r, ov};
      if (acc[r].write || acc[r].initial || r < w) continue;
      // a read from memory after the write: not of the element the write may have reached
      ov = same ? (Overlap){PROOF_NONE, true, 0} : index_overlap(lp, acc[w].idx, acc[r].idx, true);
      if (!ov.proof) return (Dep){DEP_READ_BACK, w, r, ov};
    }
  }
  return (Dep){DEP_NONE, -1, -1, {PROOF_NONE, false, 0}};
}

// ---- data dependence: which values a block computes from given ones ----

static bool any_tainted(const unsigned char *t, const Val *v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i] && t[v[i]]) return true;
  return false;
}

static void taint_block(const Block *b, unsigned char *t, bool cond);

// t[out] for the values node n computes from tainted operands (a branch on a tainted condition
// taints everything the branch defines: control dependence).
static void taint_node(const Node *n, unsigned char *t, bool cond) {
  switch (n->kind) {
  case IR_CONST: t[n->out] = cond; return;
  case IR_UNOP: t[n->out] = cond || t[n->u.un.a]; return;
  case IR_BINOP: t[n->out] = cond || t[n->u.bin.a] || t[n->u.bin.b]; return;
  case IR_CALL:
    t[n->out] = cond || t[n->u.call.a] || (n->u.call.b && t[n->u.call.b]) ||
                (n->u.call.c && t[n->u.call.c]);
    return;
  case IR_EXT: {
    bool x = cond;
    for (int k = 0; k < n->u.ext.nargs; k++) x |= t[n->u.ext.args[k]];
    if (n->out) t[n->out] = x;
    for (int k = 0; k < n->u.ext.nouts; k++) t[n->u.ext.outs[k]] = x;
    return;
  }
  case IR_CAST: t[n->out] = cond || t[n->u.cast.a]; return;
  case IR_READ: if (n->out) t[n->out] = cond || t[n->u.mem.idx]; return;
  case IR_IF: {
    bool c = cond || t[n->u.ifs.cond];
    taint_block(n->u.ifs.then, t, c);
    taint_block(n->u.ifs.els, t, c);
    for (int k = 0; k < n->u.ifs.nouts; k++)
      t[n->u.ifs.outs[k]] = c || t[n->u.ifs.then->yields[k]] || t[n->u.ifs.els->yields[k]];
    return;
  }
  case IR_LOOP: {
    // A carried value tainted in the body taints the next iteration: walks until no carried
    // value changes (one per step of a chain of carried values: two walks missed the third
    // of r = p; p = q; q = acc;).  The taints only grow (|=), so a walk of this loop again,
    // from an enclosing loop's next walk, starts from its fixed point: a fixed number of walks
    // per loop made nested loops exponential (2^d walks of the innermost body).
    bool c = cond || t[n->u.loop.lo] || t[n->u.loop.hi];
    for (int k = 0; k < n->u.loop.ncarry; k++) t[n->u.loop.params[k]] |= c || t[n->u.loop.init[k]];
    for (bool again = true; again;) {
      taint_block(n->u.loop.body, t, c);
      again = false;
      for (int k = 0; k < n->u.loop.ncarry; k++)
        if (!t[n->u.loop.params[k]] && t[n->u.loop.body->yields[k]])
          t[n->u.loop.params[k]] = 1, again = true;
    }
    for (int k = 0; k < n->u.loop.ncarry; k++) t[n->u.loop.outs[k]] = t[n->u.loop.params[k]];
    return;
  }
  case IR_PAR: {
    bool c = cond || t[n->u.par.lo] || t[n->u.par.hi];
    taint_block(n->u.par.body, t, c);
    for (int r = 0; r < n->u.par.nreds; r++) {
      const Red *red = &n->u.par.reds[r];
      bool x = c || any_tainted(t, red->init, red->nf) ||
               any_tainted(t, n->u.par.body->yields + red->slot, red->nf);
      for (int f = 0; f < red->nf; f++) t[red->out[f]] = x;
    }
    for (int k = 0; k < n->u.par.nscans; k++) {
      const Scan *sc = &n->u.par.scans[k];
      bool x = c || any_tainted(t, sc->init, sc->nf) ||
               any_tainted(t, n->u.par.body->yields + sc->slot, sc->nf);
      for (int f = 0; f < sc->nf; f++) t[sc->out[f]] = x;
    }
    return;
  }
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN:
    if (n->out) t[n->out] = cond;
    return;
  }
}

static void taint_block(const Block *b, unsigned char *t, bool cond) {
  for (int i = 0; i < b->n; i++) taint_node(b->stmts[i], t, cond);
}

void ir_taint(const Block *b, unsigned char *t) {
  taint_block(b, t, false);
}
