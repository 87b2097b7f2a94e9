// transform/promote.c: adjoints summed into one element across a sequential loop's
// iterations kept in a register (f_vjp, after differentiation).
//
//   for (...) { ... abar[i] += v; ... }        (i the same in every iteration, abar
//                                                touched nowhere else in the loop)
//   =>  c = 0; for (...) { ... c = c + v; ... }; if (the loop ran) abar[i] += c;
//
// (+= in any of its modes: plain, atomic, into a thread's window, in two phases; or a
// contribution to a hist(+) clause of the enclosing parallel loop: the one after the loop
// is the same kind, at the same element.)
//
// The reverse of a loop that reads one element many times (ADBench GMM's xcentered[i] in
// Qtimesx's inner loop, a matrix row's x[j] in a dot product) adds into that element's
// adjoint in every iteration: a load and a store the next iteration waits for.  And
//
//   g = abar[i]; abar[i] = 0; ...; abar[i] += g     =>  g = abar[i]; ...
//
// the adjoint of an in-place update a[j] = a[j] + e (the write's rule takes the element's
// adjoint, the read's gives it back), where nothing else touches abar in between.
#include "transform.h"

// Does any statement of b (nested blocks too) touch array a, other than the accumulations
// acc[0 .. nacc)?
typedef struct {
  Val a;
  Node *const *acc;
  int nacc;
} Touch;

static WalkNext touches(Node *n, void *ctx) {
  const Touch *t = ctx;
  for (int k = 0; k < t->nacc; k++)
    if (n == t->acc[k]) return WALK_SKIP;
  switch (n->kind) {
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    return n->u.mem.arr == t->a ? WALK_STOP : WALK_INTO;
  case IR_COPY: case IR_SORT: case IR_FREE:
    return n->u.copy.dst == t->a || n->u.copy.src == t->a ? WALK_STOP : WALK_INTO;
  case IR_COLL: return coll_writes(n) == t->a || coll_reads(n, t->a) ? WALK_STOP : WALK_INTO;
  case IR_EXT:
    for (int k = 0; k < n->u.ext.nargs; k++)
      if (n->u.ext.args[k] == t->a) return WALK_STOP;
    return WALK_INTO;
  case IR_PAR: // (its hists' arrays)
    for (int k = 0; k < n->u.par.nhists; k++)
      if (n->u.par.hists[k].arr == t->a || n->u.par.hists[k].win == t->a) return WALK_STOP;
    return WALK_INTO;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_IF:
  case IR_LOOP: case IR_ALLOC: case IR_RETURN: return WALK_INTO;
  }
  UNREACHABLE();
}

static bool touched(const Block *b, Val a, Node *const *acc, int nacc) {
  return ir_walk(b, &(Walker){.pre = touches, .ctx = &(Touch){a, acc, nacc}}) != NULL;
}

static Val *grow(Arena *a, const Val *v, int n) {
  Val *w = ARENA_ARRAY(a, Val, n + 1);
  for (int k = 0; k < n; k++) w[k] = v[k];
  return w;
}

// Is o a sum into an element: += in any mode, or a contribution to a hist(+) clause of par?
static bool is_sum(const Fn *f, const Node *o, const Node *par) {
  return (o->kind == IR_ACC ||
          (o->kind == IR_UPDATE && par && o->u.mem.hist < par->u.par.nhists &&
           par->u.par.hists[o->u.mem.hist].arr == o->u.mem.arr &&
           par->u.par.hists[o->u.mem.hist].op == RED_ADD)) &&
         ty_is_float(val_type(f, o->u.mem.v));
}

// An index the loop does not change: defined before it, or a constant.
static bool invariant(const Fn *f, const unsigned char *inside, Val v) {
  return !inside[v] || (f->defs[v] && f->defs[v]->kind == IR_CONST);
}

static bool same_index(const Fn *f, Val i, Val j) {
  const Node *a = f->defs[i], *b = f->defs[j];
  return i == j || (a && b && a->kind == IR_CONST && b->kind == IR_CONST && a->u.cst.i == b->u.cst.i &&
                    val_type(f, i) == val_type(f, j));
}

// Do o and acc add into the same element the same way (the same mode, or the same clause)?
static bool same_acc(const Fn *f, const Node *o, const Node *acc) {
  return o->kind == acc->kind && o->u.mem.arr == acc->u.mem.arr && same_index(f, o->u.mem.idx, acc->u.mem.idx) &&
         (o->kind == IR_ACC ? o->u.mem.mode == acc->u.mem.mode : o->u.mem.hist == acc->u.mem.hist) &&
         val_type(f, o->u.mem.v) == val_type(f, acc->u.mem.v);
}

// The sums accs[0 .. nacc) of loop l (of the same element, the same way) into one carried
// value, added after the loop where it ran; statement *at of block b, which moves past what
// goes before the loop.
static void promote_sums(Fn *f, Block *b, int *at, Node *l, Node **accs, int nacc,
                         const unsigned char *inside) {
  Node proto = *accs[0]; // (the sum after the loop: its kind, mode or clause)
  Type *t = val_type(f, proto.u.mem.v);
  Block pre = {0};
  Builder pb = {f, &pre, l->loc};
  Val zero = b_const_f(&pb, t, 0);
  for (int k = 0; k < pre.n; k++) block_insert(f->arena, b, (*at)++, pre.stmts[k]);
  int nc = l->u.loop.ncarry;
  l->u.loop.init = grow(f->arena, l->u.loop.init, nc);
  l->u.loop.params = grow(f->arena, l->u.loop.params, nc);
  l->u.loop.outs = grow(f->arena, l->u.loop.outs, nc);
  Val c = fn_val(f, t, NULL), cur = c;
  l->u.loop.init[nc] = zero;
  l->u.loop.params[nc] = c;
  l->u.loop.outs[nc] = fn_val(f, t, NULL);
  for (int k = 0; k < nacc; k++) { // each sum: c' = c + v
    Node *o = accs[k];
    Val v = o->u.mem.v;
    o->kind = IR_BINOP;
    o->u.bin.op = BIN_ADD;
    o->u.bin.a = cur;
    o->u.bin.b = v;
    o->out = cur = fn_val(f, t, NULL);
    f->defs[cur] = o;
  }
  block_yield(f->arena, l->u.loop.body, cur);
  l->u.loop.ncarry = nc + 1;
  Block post = {0}; // after the loop, where it ran: abar[i] += c
  Builder ab = {f, &post, l->loc};
  Node *ran = node_new(f->arena, IR_IF, l->loc);
  ran->u.ifs.cond = b_binop(&ab, BIN_LT, l->u.loop.lo, l->u.loop.hi);
  ran->u.ifs.then = block_new(f->arena);
  ran->u.ifs.els = block_new(f->arena);
  b_push(&ab, ran);
  ab.blk = ran->u.ifs.then;
  Node *after = node_new(f->arena, proto.kind, l->loc);
  after->u.mem = proto.u.mem;
  after->u.mem.v = l->u.loop.outs[nc];
  if (inside[proto.u.mem.idx]) // a constant of the loop's body: again, after it
    after->u.mem.idx = b_const_i(&ab, val_type(f, proto.u.mem.idx), f->defs[proto.u.mem.idx]->u.cst.i);
  b_push(&ab, after);
  for (int k = 0; k < post.n; k++) block_insert(f->arena, b, *at + 1 + k, post.stmts[k]);
}

// Loop l (statement *at of block b; par: the nearest parallel loop around it with hist
// clauses, or none): each array that its body
// only adds into, at the top of the body and at indices the loop does not change, gets its
// sums per element in carried values.
static void promote_loop(Fn *f, Block *b, int *at, Node *l, const Node *par) {
  enum { MAX = 16 };
  Block *body = l->u.loop.body;
  if (l->u.loop.exit) return; // (it may run no iteration where lo < hi: the element may not exist)
  unsigned char *inside = ARENA_ARRAY(f->arena, unsigned char, f->nvals);
  ir_inside(&(Block){&l, 1, 1, NULL, 0}, inside);
  for (int s = 0; s < body->n; s++) {
    Node *first = body->stmts[s];
    if (!is_sum(f, first, par) || inside[first->u.mem.arr]) continue;
    Val a = first->u.mem.arr;
    Node *sums[MAX];
    int nsum = 0;
    bool ok = true;
    for (int k = s; k < body->n && ok; k++) {
      Node *o = body->stmts[k];
      if ((o->kind != IR_ACC && o->kind != IR_UPDATE) || o->u.mem.arr != a) continue;
      ok = nsum < MAX && is_sum(f, o, par) && invariant(f, inside, o->u.mem.idx);
      if (ok) sums[nsum++] = o;
    }
    for (int k = 0; k < s && ok; k++) // (nothing of a before: s is its first)
      ok = !touched(&(Block){&body->stmts[k], 1, 1, NULL, 0}, a, NULL, 0);
    if (!ok || touched(body, a, sums, nsum)) continue;
    bool *done = ARENA_ARRAY(f->arena, bool, nsum);
    for (int g = 0; g < nsum; g++) { // per element and way of adding
      if (done[g]) continue;
      Node *grp[MAX] = {0};
      int n = 0;
      for (int k = g; k < nsum; k++)
        if (!done[k] && same_acc(f, sums[k], sums[g])) grp[n++] = sums[k], done[k] = true;
      promote_sums(f, b, at, l, grp, n, inside);
    }
  }
}

// g = a[i]; ...; a[i] = 0; ...; a[i] += g with nothing else touching a in between: the
// write and the accumulation go.
static int next_touch(Block *b, int from, Val a) {
  while (from < b->n && !touched(&(Block){&b->stmts[from], 1, 1, NULL, 0}, a, NULL, 0)) from++;
  return from;
}

static void remove_at(Block *b, int k) {
  for (; k + 1 < b->n; k++) b->stmts[k] = b->stmts[k + 1];
  b->n--;
}

static void give_back(Fn *f, Block *b) {
  for (int r = 0; r < b->n; r++) {
    Node *rd = b->stmts[r];
    if (rd->kind != IR_READ || !ty_is_float(val_type(f, rd->out))) continue;
    Val a = rd->u.mem.arr, i = rd->u.mem.idx;
    int w = next_touch(b, r + 1, a);
    if (w == b->n) continue;
    Node *wr = b->stmts[w];
    const Node *z = wr->kind == IR_WRITE ? f->defs[wr->u.mem.v] : NULL;
    if (wr->kind != IR_WRITE || wr->u.mem.arr != a || wr->u.mem.idx != i || !z ||
        z->kind != IR_CONST || z->u.cst.f != 0)
      continue;
    int c = next_touch(b, w + 1, a);
    if (c == b->n) continue;
    Node *ac = b->stmts[c];
    if (ac->kind != IR_ACC || ac->u.mem.arr != a || ac->u.mem.idx != i || ac->u.mem.v != rd->out ||
        ac->u.mem.mode != ACC_PLAIN)
      continue;
    remove_at(b, c);
    remove_at(b, w);
  }
}

static void promote_block(Fn *f, Block *b, const Node *par) {
  give_back(f, b);
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    switch (n->kind) {
    case IR_IF: promote_block(f, n->u.ifs.then, par), promote_block(f, n->u.ifs.els, par); break;
    case IR_PAR: promote_block(f, n->u.par.body, n->u.par.nhists ? n : par); break;
    case IR_LOOP:
      promote_block(f, n->u.loop.body, par);
      promote_loop(f, b, &i, n, par);
      break;
    case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST:
    case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY:
    case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN: break;
    }
  }
}

void promote_accs(Fn *f) {
  promote_block(f, f->body, NULL);
}
