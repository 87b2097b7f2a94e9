// ad/rev_skip.c: the statements of a sequential loop's body that the reverse of an iteration
// need not run again.
//
// The reverse of iteration t of a host-level sequential loop restores the state before it
// (the loop's checkpoints), runs the body forward, saving what each statement overwrites,
// then runs the statements' reverses in the opposite order, each from the state before it.
// A map (a parallel loop without reductions, scans or histograms) defines no scalar: where no
// statement after it that does run reads or writes what it writes, and no reverse after it
// needs those values, running it only to undo it before its own reverse is wasted.  Such
// statements are skipped, from the end of the body backwards: heat's `u[i] = tmp[i]` (its
// reverse needs no value of tmp), then the stencil map whose only reader it was.  Three
// passes of the grid per step and the saves are gone.
//
// Which arrays' values the reverse of a map needs (rev_needs): those of the reads whose
// values reach a derivative: an index, a condition, a factor beside an active one, a
// quotient's denominator, an argument of a math function, anything not arithmetic.  Not a
// sum, a difference, a negation, a product with a passive factor, a value written or added.
//
// A wrong answer there would be a wrong derivative; so the reverse of each statement after a
// skipped one reads the skipped one's arrays through an alias (stale_begin), which the
// derivative's dead-code elimination must remove: ad_check_stale makes a remaining read an
// internal error instead.
#include "rev.h"

typedef struct {
  unsigned char *rd, *wr; // arrays read, written (indexed by primal value)
} ArrSets;

static void access_mark(unsigned char *set, Val v) {
  if (v) set[v] = 1;
}

static WalkNext access_visit(Node *n, void *ctx) {
  ArrSets *a = ctx;
  switch (n->kind) {
  case IR_READ: access_mark(a->rd, n->u.mem.arr); break;
  case IR_WRITE: access_mark(a->wr, n->u.mem.arr); break;
  case IR_ACC: case IR_UPDATE:
    access_mark(a->rd, n->u.mem.arr);
    access_mark(a->wr, n->u.mem.arr);
    break;
  case IR_COPY: case IR_SORT:
    access_mark(a->rd, n->u.copy.src);
    access_mark(a->wr, n->u.copy.dst);
    if (n->u.copy.swap) access_mark(a->rd, n->u.copy.dst), access_mark(a->wr, n->u.copy.src);
    break;
  case IR_COLL:
    access_mark(a->rd, n->u.coll.in), access_mark(a->rd, n->u.coll.out_d);
    access_mark(a->rd, n->u.coll.in_d), access_mark(a->wr, coll_writes(n));
    break;
  case IR_PAR:
    for (int h = 0; h < n->u.par.nhists; h++) {
      access_mark(a->rd, n->u.par.hists[h].arr);
      access_mark(a->wr, n->u.par.hists[h].arr);
    }
    break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST:
  case IR_IF: case IR_LOOP: case IR_ALLOC: case IR_FREE: case IR_RETURN:
    break;
  }
  return WALK_INTO;
}

static void accesses(const Node *n, ArrSets *a) {
  ir_walk_node(n, &(Walker){.pre = access_visit, .ctx = a});
}

// A map: no reductions, scans or histograms (and so no scalar results).
static bool is_map(const Node *n) {
  return n->kind == IR_PAR && !n->u.par.nreds && !n->u.par.nscans && !n->u.par.nhists;
}

typedef struct {
  Rev *R;
  unsigned char *need; // values the reverse needs
  Val *work;           // needed values whose operands are not marked yet
  int nwork;
  bool all;            // something not analysed: every read is needed
} Need;

static void need_val(Val *v, void *ctx) {
  Need *c = ctx;
  if (!*v || c->need[*v]) return;
  c->need[*v] = 1;
  c->work[c->nwork++] = *v;
}

static void need_yields(Need *c, Block *b) {
  for (int i = 0; i < b->nyields; i++) need_val(&b->yields[i], c);
}

// The uses that a statement's reverse makes of values, whatever it defines.
static WalkNext need_visit(Node *n, void *ctx) {
  Need *c = ctx;
  const unsigned char *varied = c->R->varied;
  switch (n->kind) {
  case IR_CONST: break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: need_val(&n->u.mem.idx, c); break;
  case IR_BINOP: {
    Val *a = &n->u.bin.a, *b = &n->u.bin.b;
    switch (n->u.bin.op) {
    case BIN_ADD: case BIN_SUB: break;
    case BIN_MUL:
      if (varied[*a]) need_val(b, c);
      if (varied[*b]) need_val(a, c);
      break;
    case BIN_DIV:
      if (varied[*a] || varied[*b]) need_val(b, c);
      if (varied[*b]) need_val(a, c);
      break;
    case BIN_MOD: case BIN_LT: case BIN_LE: case BIN_GT: case BIN_GE: case BIN_EQ: case BIN_NE:
    case BIN_LAND: case BIN_LOR: case BIN_BAND: case BIN_BOR: case BIN_BXOR: case BIN_SHL:
    case BIN_SHR:
      need_val(a, c), need_val(b, c);
      break;
    }
    break;
  }
  case IR_UNOP:
    if (n->u.un.op != UN_NEG) need_val(&n->u.un.a, c);
    break;
  case IR_CAST:
    if (!ty_is_float(c->R->pf->vals[n->out].type) || !ty_is_float(c->R->pf->vals[n->u.cast.a].type))
      need_val(&n->u.cast.a, c);
    break;
  case IR_IF:
    need_val(&n->u.ifs.cond, c);
    need_yields(c, n->u.ifs.then);
    need_yields(c, n->u.ifs.els);
    break;
  case IR_PAR:
    if (!is_map(n)) c->all = true;
    need_val(&n->u.par.lo, c);
    need_val(&n->u.par.hi, c);
    break;
  case IR_CALL: case IR_EXT: case IR_ALLOC:
    if (n->out) need_val(&n->out, c); // (a math function's derivative reads its result)
    ir_node_uses(n, need_val, c);
    break;
  case IR_LOOP: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    c->all = true; // (not analysed)
    break;
  }
  return c->all ? WALK_STOP : WALK_INTO;
}

typedef struct {
  const unsigned char *need;
  unsigned char *rd;
} NeedReads;

static WalkNext needed_read(Node *n, void *ctx) {
  NeedReads *c = ctx;
  if (n->kind == IR_READ && c->need[n->out]) c->rd[n->u.mem.arr] = 1;
  return WALK_INTO;
}

// rd[arr] = 1 for each array whose values (before it runs) the reverse of map n reads.
static void rev_needs(Rev *R, const Node *n, unsigned char *rd) {
  int nv = R->pf->nvals;
  Need c = {R, SCRATCH(unsigned char, nv), SCRATCH(Val, nv), 0, false};
  ir_walk_node(n, &(Walker){.pre = need_visit, .ctx = &c});
  while (!c.all && c.nwork) { // a needed value needs the operands it is computed from
    Node *d = R->def[c.work[--c.nwork]];
    if (d && d->kind != IR_PAR && d->kind != IR_LOOP) ir_node_uses(d, need_val, &c);
  }
  if (c.all) {
    accesses(n, &(ArrSets){rd, SCRATCH(unsigned char, nv)});
    return;
  }
  ir_walk_node(n, &(Walker){.pre = needed_read, .ctx = &(NeedReads){c.need, rd}});
}

Skips *rev_skips(Rev *R, const Block *body) {
  int nv = R->pf->nvals;
  Skips *s = SCRATCH(Skips, 1);
  s->skip = SCRATCH(bool, body->n + 1);
  unsigned char *live = SCRATCH(unsigned char, nv); // read or written by what comes after
  int *first = SCRATCH(int, nv); // per array: 1 + the first skipped statement writing it
  for (int k = body->n - 1; k >= 0; k--) {
    const Node *n = body->stmts[k];
    ArrSets a = {SCRATCH(unsigned char, nv), SCRATCH(unsigned char, nv)};
    accesses(n, &a);
    unsigned char *inside = SCRATCH(unsigned char, nv); // (an iteration's own arrays)
    ir_inside(&(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, inside);
    for (int v = 1; v < nv; v++) a.wr[v] &= !inside[v];
    bool dead = is_map(n);
    for (int v = 1; v < nv && dead; v++) dead = !(a.wr[v] && live[v]);
    if (dead) {
      diag_remark(n->loc, "the reverse of each iteration of the sequential loop does not run "
                  "this loop again (nothing after it reads what it writes, and the reverses "
                  "after it need none of those values)");
      s->skip[k] = true;
      for (int v = 1; v < nv; v++)
        if (a.wr[v]) first[v] = k + 1;
      rev_needs(R, n, live); // its reverse reads these as they were before it
    } else {
      for (int v = 1; v < nv; v++) live[v] |= a.rd[v] | a.wr[v];
    }
  }
  for (int v = 1; v < nv; v++) s->n += first[v] != 0;
  s->arr = SCRATCH(Val, s->n + 1);
  s->from = SCRATCH(int, s->n + 1);
  s->saved = SCRATCH(Val, s->n + 1);
  for (int v = 1, i = 0; v < nv; v++)
    if (first[v]) s->arr[i] = v, s->from[i++] = first[v] - 1;
  return s;
}

// Before the reverse of statement k: the arrays of the skipped statements before it read
// through aliases (stale_end puts the real ones back).
void stale_begin(Rev *R, Skips *s, int k) {
  AdCtx *cx = R->cx;
  for (int i = 0; i < s->n; i++) {
    Val v = s->arr[i];
    s->saved[i] = s->from[i] < k ? P(v) : 0;
    if (!s->saved[i]) continue;
    P(v) = b_cast(&R->b, val_type(R->f, s->saved[i]), s->saved[i]);
    if (cx->nstale == cx->capstale) {
      cx->capstale = cx->capstale ? 2 * cx->capstale : 16;
      Val *grown = ARENA_ARRAY(cx->scratch, Val, cx->capstale);
      for (int j = 0; j < cx->nstale; j++) grown[j] = cx->stale[j];
      cx->stale = grown;
    }
    cx->stale[cx->nstale++] = P(v);
  }
}

void stale_end(Rev *R, const Skips *s) {
  for (int i = 0; i < s->n; i++)
    if (s->saved[i]) P(s->arr[i]) = s->saved[i];
}

static WalkNext stale_visit(Node *n, void *ctx) {
  const unsigned char *stale = ctx;
  return n->kind == IR_CAST && stale[n->out] ? WALK_STOP : WALK_INTO;
}

void ad_check_stale(const AdCtx *cx, const Fn *vjp) {
  if (!cx->nstale) return;
  unsigned char *stale = ARENA_ARRAY(cx->scratch, unsigned char, vjp->nvals);
  for (int i = 0; i < cx->nstale; i++) stale[cx->stale[i]] = 1;
  const Node *n = ir_walk(vjp->body, &(Walker){.pre = stale_visit, .ctx = stale});
  if (n) // (rev_needs missed a use)
    diag_internal(__FILE__, __LINE__, "the reverse of a loop's iteration reads an array that the "
                  "statements it skipped would have written");
}
