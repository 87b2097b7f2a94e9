// transform/scan.c: scans as SOACs of their own (loop distribution of a scan loop).
//
// A loop with a scan clause computes a contribution y_i in each iteration and reads the
// running value e_i = init OP y_0 OP ... OP y_{i-1} (the exclusive prefix; the inclusive
// one is e_i OP y_i, computed in the body).  Before differentiation it becomes
//
//   Y = alloc(n); E = alloc(n)                     (per field of the scanned value)
//   par i { ...; Y[i - lo] = y_i }                  the contributions (a map)
//   par k in [0, n) scan(OP: init <- Y[k], excl e => out) { E[k] = e }   (the scan itself)
//   par i { e_i = E[i - lo]; ... }                  the rest of the loop (a map, reductions)
//   free(Y); free(E)
//
// The middle loop is the canonical scan that code generation and the derivative rules
// handle: it reads Y[k], writes the exclusive prefix to E[k], and does nothing else.
#include <stdlib.h>

#include "transform.h"
#include "../analysis/analysis.h"

// i - lo (or i when lo is the constant 0), as an index into a buffer of the loop's length.
static Val rel_index(Builder *b, Node *const *def, Val i, Val lo) {
  const Node *d = lo ? def[lo] : NULL;
  if (d && d->kind == IR_CONST && d->u.cst.i == 0) return i;
  return b_binop(b, BIN_SUB, i, lo);
}

static WalkNext local_alloc(Node *n, void *ctx) {
  if (n->kind == IR_ALLOC) ((bool *)ctx)[n->out] = true;
  return WALK_INTO;
}

static void drop_effects_here(Block *b, void *ctx) {
  const bool *local = ctx;
  int k = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if ((n->kind != IR_WRITE && n->kind != IR_UPDATE) || local[n->u.mem.arr]) b->stmts[k++] = n;
  }
  b->n = k;
}

// Removes every write and histogram update of b (the contributions slice keeps none) but
// those to its own local arrays, which the contribution may read (a loop that fills one).
static void drop_effects(const Fn *f, Block *b) {
  bool *local = calloc((size_t)f->nvals, sizeof(bool));
  if (!local) diag_internal(__FILE__, __LINE__, "out of memory");
  ir_walk(b, &(Walker){.pre = local_alloc, .ctx = local});
  ir_walk(b, &(Walker){.block = drop_effects_here, .ctx = local});
  free(local);
}

Node *scan_build(Builder *b, const Fn *sf, const Scan *s, const Val *src, const Val *dst,
                 Val len, const Val *init, const Val *out, Loc loc, const char *pragma) {
  Fn *f = b->fn;
  Arena *a = f->arena;
  Node *p = node_new(a, IR_PAR, loc);
  p->u.par.lo = b_const_i(b, val_type(f, len), 0);
  p->u.par.hi = len;
  p->u.par.idx = fn_val(f, val_type(f, len), "k");
  p->u.par.pragma = pragma;
  Block *body = block_new(a);
  Builder in = {f, body, loc};
  Scan *ns = ARENA_NEW(a, Scan);
  *ns = *s;
  ns->slot = 0;
  ns->init = ARENA_ARRAY(a, Val, s->nf);
  ns->excl = ARENA_ARRAY(a, Val, s->nf);
  ns->out = ARENA_ARRAY(a, Val, s->nf);
  Val *yv = ARENA_ARRAY(a, Val, s->nf);
  for (int k = 0; k < s->nf; k++) {
    ns->init[k] = init[k];
    ns->out[k] = out[k];
    ns->excl[k] = fn_val(f, val_type(f, out[k]), "e");
    yv[k] = b_read(&in, src[k], p->u.par.idx);
  }
  for (int k = 0; k < s->nf; k++)
    if (dst[k]) b_write(&in, dst[k], p->u.par.idx, ns->excl[k]);
  for (int k = 0; k < s->nf; k++) block_yield(a, body, yv[k]);
  if (s->lam) {
    Val *map = calloc((size_t)sf->nvals + 1, sizeof(Val));
    ns->lam = clone_lambda(b, sf, s->lam, map);
    free(map);
  }
  p->u.par.body = body;
  p->u.par.scans = ns;
  p->u.par.nscans = 1;
  p->u.par.reds = ARENA_NEW(a, Red);
  p->u.par.hists = ARENA_NEW(a, Hist);
  b_push(b, p);
  return p;
}

static Val as_long(Builder *b, Val v) {
  return val_type(b->fn, v) == &ty_long ? v : b_cast(b, &ty_long, v);
}

Val b_trip(Builder *b, Val lo, Val hi) {
  Val zero = b_const_i(b, &ty_long, 0);
  const Node *d = b->fn->defs[lo];
  bool from0 = d && d->kind == IR_CONST && d->u.cst.i == 0;
  Val span = from0 ? as_long(b, hi) : b_binop(b, BIN_SUB, as_long(b, hi), as_long(b, lo));
  return b_select(b, b_binop(b, BIN_GT, span, zero), span, zero);
}

Val scan_alloc(Builder *b, Type *elem, Val len, const char *hint) {
  Node *al = node_new(b->fn->arena, IR_ALLOC, b->loc);
  al->u.alloc.n = len;
  al->out = fn_val(b->fn, ty_ptr(b->fn->arena, elem, false), hint);
  b_push(b, al);
  return al->out;
}

void scan_free(Builder *b, Val arr) {
  Node *fr = node_new(b->fn->arena, IR_FREE, b->loc);
  fr->u.copy.dst = arr;
  b_push(b, fr);
}

static WalkNext write_to(Node *n, void *ctx) {
  Val arr = *(Val *)ctx;
  switch (n->kind) {
  case IR_WRITE: case IR_ACC: case IR_UPDATE: return n->u.mem.arr == arr ? WALK_STOP : WALK_INTO;
  case IR_COPY: case IR_SORT:
    return n->u.copy.dst == arr || n->u.copy.src == arr ? WALK_STOP : WALK_INTO;
  case IR_COLL: return coll_writes(n) == arr || coll_reads(n, arr) ? WALK_STOP : WALK_INTO;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_READ: case IR_IF:
  case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_FREE: case IR_RETURN:
    return WALK_INTO;
  }
  UNREACHABLE();
}

// Does b (recursively) write, accumulate into or copy into array arr?
static bool writes_array(const Block *b, Val arr) {
  return ir_walk(b, &(Walker){.pre = write_to, .ctx = &arr});
}

// The array whose element i the contribution y is, when the scan can read it in place: a
// read at the loop index of a loop from 0, of an array the function never writes.
static Val in_place(const Fn *f, const Node *p, Node *const *def, Val y) {
  const Node *r = def[y], *lo = def[p->u.par.lo];
  if (!r || r->kind != IR_READ || r->u.mem.idx != p->u.par.idx || !lo || lo->kind != IR_CONST ||
      lo->u.cst.i || val_type(f, r->u.mem.arr)->elem != val_type(f, y) ||
      f->vals[r->u.mem.arr].parent || // (a field of an array of structs is strided)
      writes_array(f->body, r->u.mem.arr))
    return 0;
  for (int i = 0; i < p->u.par.body->n; i++)
    if (p->u.par.body->stmts[i] == r) return r->u.mem.arr; // read in every iteration
  return 0;
}

static void lower_loop(Fn *f, Block *out, Node *p, Node *const *def) {
  Arena *a = f->arena;
  Builder b = {f, out, p->loc};
  Val len = b_trip(&b, p->u.par.lo, p->u.par.hi); // the length, 0 for hi <= lo
  int ns = p->u.par.nscans;
  Val **ybuf = ARENA_ARRAY(a, Val *, ns), **ebuf = ARENA_ARRAY(a, Val *, ns);
  for (int s = 0; s < ns; s++) {
    const Scan *sc = &p->u.par.scans[s];
    ybuf[s] = ARENA_ARRAY(a, Val, sc->nf);
    ebuf[s] = ARENA_ARRAY(a, Val, sc->nf);
    for (int k = 0; k < sc->nf; k++) {
      Type *t = val_type(f, sc->excl[k]);
      ybuf[s][k] = in_place(f, p, def, p->u.par.body->yields[sc->slot + k]);
      if (!ybuf[s][k]) ybuf[s][k] = scan_alloc(&b, t, len, arena_printf(a, "%s_terms", sc->var));
      ebuf[s][k] = scan_alloc(&b, t, len, arena_printf(a, "%s_prefix", sc->var));
    }
  }
  // the contributions: a copy of the loop without its effects, writing y_i to Y
  Val *map = calloc((size_t)f->nvals, sizeof(Val)); // indexed by the loop's values only
  for (Val v = 1; v < (Val)f->nvals; v++) map[v] = v;
  clone_block(&b, f, &(Block){&p, 1, 1, NULL, 0}, map, false);
  free(map);
  Node *c = out->stmts[out->n - 1];
  Block *cb = c->u.par.body;
  drop_effects(f, cb);
  Builder in = {f, cb, p->loc};
  Val ci = rel_index(&in, def, c->u.par.idx, c->u.par.lo);
  for (int s = 0; s < ns; s++)
    for (int k = 0; k < c->u.par.scans[s].nf; k++)
      if (!in_place(f, p, def, p->u.par.body->yields[p->u.par.scans[s].slot + k]))
        b_write(&in, ybuf[s][k], ci, cb->yields[c->u.par.scans[s].slot + k]);
  // the copy's scan values: only dead code reads them (y_i does not depend on them)
  Block *nc = block_new(a);
  for (int s = 0; s < ns; s++)
    for (int k = 0; k < c->u.par.scans[s].nf; k++) {
      Node *z = node_new(a, IR_CONST, p->loc);
      z->out = c->u.par.scans[s].excl[k];
      block_push(a, nc, z);
    }
  for (int i = 0; i < cb->n; i++) block_push(a, nc, cb->stmts[i]);
  cb->stmts = nc->stmts, cb->n = nc->n, cb->cap = nc->cap;
  cb->nyields = 0;
  c->u.par.nreds = c->u.par.nscans = c->u.par.nhists = 0;
  c->u.par.ninjective = 0;
  // the scans
  for (int s = 0; s < ns; s++) {
    const Scan *sc = &p->u.par.scans[s];
    scan_build(&b, f, sc, ybuf[s], ebuf[s], len, sc->init, sc->out, p->loc, p->u.par.pragma);
  }
  // the rest of the loop reads e_i from E
  Block *body = p->u.par.body, *nb = block_new(a);
  Builder rb = {f, nb, p->loc};
  Val ri = rel_index(&rb, def, p->u.par.idx, p->u.par.lo);
  for (int s = 0; s < ns; s++)
    for (int k = 0; k < p->u.par.scans[s].nf; k++) {
      Node *rd = node_new(a, IR_READ, p->loc);
      rd->u.mem.arr = ebuf[s][k];
      rd->u.mem.idx = ri;
      rd->out = p->u.par.scans[s].excl[k];
      block_push(a, nb, rd);
    }
  for (int i = 0; i < body->n; i++) block_push(a, nb, body->stmts[i]);
  // its yields: the reductions' only
  Val *ys = ARENA_ARRAY(a, Val, body->nyields + 1);
  int ny = 0;
  for (int r = 0; r < p->u.par.nreds; r++) {
    Red *red = &p->u.par.reds[r];
    for (int k = 0; k < red->nf; k++) ys[ny + k] = body->yields[red->slot + k];
    red->slot = ny;
    ny += red->nf;
  }
  nb->yields = ys;
  nb->nyields = ny;
  p->u.par.body = nb;
  p->u.par.nscans = 0;
  block_push(a, out, p);
  for (int s = 0; s < ns; s++)
    for (int k = 0; k < p->u.par.scans[s].nf; k++) {
      if (!in_place(f, p, def, body->yields[p->u.par.scans[s].slot + k])) scan_free(&b, ybuf[s][k]);
      scan_free(&b, ebuf[s][k]);
    }
}

static WalkNext is_scan(Node *n, void *ctx) {
  return n->kind == IR_PAR && n->u.par.nscans ? WALK_STOP : WALK_INTO;
}

// The first loop with a scan clause in b (recursively), or NULL.
static const Node *find_scan(const Block *b) {
  return ir_walk(b, &(Walker){.pre = is_scan});
}

// Top-level reductions that the scan rules take over: those with a declared operator that the
// invertible-operator rule does not cover (not commutative, or without an inverse): an
// order-preserving scan computes them (its total) and the general scan rule differentiates
// them; with general (--general-rule) every top-level reduction, as a cross-check of the
// special rules.  A reduction's body never reads its variable, so its prefixes go unused
// except by the derivative rules.
static void reductions_as_scans(Fn *f, Block *body, bool general) {
  Arena *a = f->arena;
  for (int i = 0; i < body->n; i++) {
    Node *n = body->stmts[i];
    if (n->kind == IR_LOOP) reductions_as_scans(f, n->u.loop.body, general); // time steps
    if (n->kind != IR_PAR || !n->u.par.nreds) continue;
    int nr = n->u.par.nreds, keep = 0, ns = n->u.par.nscans;
    Scan *scans = ARENA_ARRAY(a, Scan, ns + nr);
    for (int k = 0; k < ns; k++) scans[k] = n->u.par.scans[k];
    for (int r = 0; r < nr; r++) {
      Red *red = &n->u.par.reds[r];
      if (reduce_rule(red, general) != RULE_GENERAL) { // reverse mode's general rule: a scan
        n->u.par.reds[keep++] = *red;
        continue;
      }
      Scan *sc = &scans[ns++];
      *sc = (Scan){.op = red->op, .nf = red->nf, .init = red->init, .out = red->out,
                   .slot = red->slot, .lam = red->lam, .user_fn = red->user_fn, .var = red->var};
      sc->excl = ARENA_ARRAY(a, Val, red->nf);
      for (int k = 0; k < red->nf; k++) sc->excl[k] = fn_val(f, val_type(f, red->out[k]), red->var);
    }
    n->u.par.nreds = keep;
    n->u.par.scans = scans;
    n->u.par.nscans = ns;
  }
}

// Is n a canonical scan that keeps all its prefixes (what lower_loop makes)?  (A loop that
// only reads its contributions, e.g. a reduction turned scan, is canonical but keeps none.)
static bool lowered(const Node *n) {
  if (n->u.par.nscans != 1) return false;
  Val dst[n->u.par.scans[0].nf];
  if (!scan_canonical(n, NULL, dst)) return false;
  for (int f = 0; f < n->u.par.scans[0].nf; f++)
    if (!dst[f]) return false;
  return true;
}

// The scans of a block at the function's level (its body, or a sequential loop's there).
static void lower_block(Fn *f, Block *body, Node **def) {
  Block *out = block_new(f->arena);
  for (int i = 0; i < body->n; i++) {
    Node *n = body->stmts[i];
    if (n->kind == IR_LOOP) lower_block(f, n->u.loop.body, def);
    const Node *inner = n->kind == IR_PAR ? find_scan(n->u.par.body)
                        : n->kind == IR_IF ? find_scan(&(Block){(Node **)&n, 1, 1, NULL, 0})
                                           : NULL;
    if (inner)
      diag_error(inner->loc, "a scan loop is supported at the function's level and in "
                 "sequential loops there", "a scan inside another parallel loop or an if is "
                 "not supported yet");
    if (n->kind == IR_PAR && n->u.par.nscans && !lowered(n)) {
      lower_loop(f, out, n, def);
      continue;
    }
    block_push(f->arena, out, n);
  }
  body->stmts = out->stmts;
  body->n = out->n;
  body->cap = out->cap;
}

static void lower_round(Fn *f) {
  Node **def = ARENA_ARRAY(f->arena, Node *, f->nvals); // (an error leaves it to the arena)
  ir_defs(f->body, def);
  lower_block(f, f->body, def);
  simplify_dce(f);
}

void lower_scans(Fn *f, bool general) {
  lower_round(f);
  // a reduction's contribution may read the loop's scans: lowered with the rest of its loop
  reductions_as_scans(f, f->body, general);
  lower_round(f);
}

// ---- prefixes nobody reads ----

// uses[arr]: accesses of arr other than a canonical scan's prefix writes and its free.
static WalkNext array_use(Node *n, void *ctx) {
  int *uses = ctx;
  switch (n->kind) {
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: uses[n->u.mem.arr]++; break;
  case IR_COPY: case IR_SORT: uses[n->u.copy.dst]++, uses[n->u.copy.src]++; break;
  case IR_COLL:
    uses[n->u.coll.in]++, uses[n->u.coll.out]++, uses[n->u.coll.in_d]++, uses[n->u.coll.out_d]++;
    break;
  case IR_PAR:
    if (n->u.par.nscans == 1 && scan_canonical(n, NULL, NULL)) {
      const Block *sb = n->u.par.body;
      for (int k = 0; k < sb->n; k++)
        if (sb->stmts[k]->kind == IR_READ) uses[sb->stmts[k]->u.mem.arr]++;
      return WALK_SKIP;
    }
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST: case IR_IF: case IR_LOOP:
  case IR_ALLOC: case IR_FREE: case IR_RETURN:
    break;
  }
  return WALK_INTO;
}

void scan_drop_unread(Fn *f) {
  int *uses = calloc((size_t)f->nvals, sizeof(int));
  ir_walk(f->body, &(Walker){.pre = array_use, .ctx = uses});
  Block *b = f->body;
  int k = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if ((n->kind == IR_ALLOC && !uses[n->out]) || (n->kind == IR_FREE && !uses[n->u.copy.dst]))
      continue;
    if (n->kind == IR_PAR && n->u.par.nscans == 1 && scan_canonical(n, NULL, NULL)) {
      Block *sb = n->u.par.body;
      int w = 0;
      for (int j = 0; j < sb->n; j++)
        if (sb->stmts[j]->kind != IR_WRITE || uses[sb->stmts[j]->u.mem.arr]) sb->stmts[w++] = sb->stmts[j];
      sb->n = w;
    }
    b->stmts[k++] = n;
  }
  b->n = k;
  free(uses);
}
