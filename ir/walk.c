// ir/walk.c: the one walk over the IR's statements, and the values a statement uses and
// defines.  A pass that only needs to visit statements (find, count, mark, rename) says what
// it does at a statement and lets ir_walk descend; the nesting of blocks is written here once.
#include "ir.h"

static Node *walk_block(Block *b, const Walker *w);

static Node *walk_lambda(Lambda *l, const Walker *w) {
  return l && w->lambdas ? walk_block(l->body, w) : NULL;
}

// The blocks nested in n, in program order; a parallel loop's operators first (they are
// defined before the loop runs, as the verifier scopes them).
static Node *walk_nested(Node *n, const Walker *w) {
  Node *stop = NULL;
  switch (n->kind) {
  case IR_IF:
    if (!(stop = walk_block(n->u.ifs.then, w))) stop = walk_block(n->u.ifs.els, w);
    return stop;
  case IR_LOOP: return walk_block(n->u.loop.body, w);
  case IR_PAR:
    for (int r = 0; !stop && r < n->u.par.nreds; r++)
      if (!(stop = walk_lambda(n->u.par.reds[r].lam, w))) stop = walk_lambda(n->u.par.reds[r].inv, w);
    for (int k = 0; !stop && k < n->u.par.nscans; k++) stop = walk_lambda(n->u.par.scans[k].lam, w);
    for (int k = 0; !stop && k < n->u.par.nhists; k++)
      if (!(stop = walk_lambda(n->u.par.hists[k].lam, w))) stop = walk_lambda(n->u.par.hists[k].inv, w);
    return stop ? stop : walk_block(n->u.par.body, w);
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_EXT: case IR_CAST:
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY:
  case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN:
    return NULL;
  }
  UNREACHABLE();
}

static Node *walk_node(Node *n, const Walker *w) {
  WalkNext next = w->pre ? w->pre(n, w->ctx) : WALK_INTO;
  if (next == WALK_STOP) return n;
  if (next == WALK_SKIP) return NULL;
  Node *stop = walk_nested(n, w);
  if (!stop && w->post) w->post(n, w->ctx);
  return stop;
}

static Node *walk_block(Block *b, const Walker *w) {
  for (int i = 0; i < b->n; i++) {
    Node *stop = walk_node(b->stmts[i], w);
    if (stop) return stop;
  }
  if (w->block) w->block(b, w->ctx);
  return NULL;
}

// (The walk itself changes nothing; the callbacks get the IR to change, as strchr does.)
Node *ir_walk(const Block *b, const Walker *w) {
  return walk_block((Block *)b, w);
}

Node *ir_walk_node(const Node *n, const Walker *w) {
  return walk_node((Node *)n, w);
}

// ---- the values of one statement ----

static void use(Val *v, IrValFn *fn, void *ctx) {
  if (*v) fn(v, ctx);
}

static void use_all(Val *vs, int n, IrValFn *fn, void *ctx) {
  for (int i = 0; vs && i < n; i++) use(&vs[i], fn, ctx);
}

void ir_node_uses(Node *n, IrValFn *fn, void *ctx) {
  switch (n->kind) {
  case IR_CONST: return;
  case IR_UNOP: use(&n->u.un.a, fn, ctx); return;
  case IR_BINOP: use(&n->u.bin.a, fn, ctx), use(&n->u.bin.b, fn, ctx); return;
  case IR_CALL:
    use(&n->u.call.a, fn, ctx), use(&n->u.call.b, fn, ctx), use(&n->u.call.c, fn, ctx);
    return;
  case IR_EXT: use_all(n->u.ext.args, n->u.ext.nargs, fn, ctx); return;
  case IR_CAST: use(&n->u.cast.a, fn, ctx); return;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    use(&n->u.mem.arr, fn, ctx), use(&n->u.mem.idx, fn, ctx), use(&n->u.mem.v, fn, ctx);
    return;
  case IR_IF: use(&n->u.ifs.cond, fn, ctx); return;
  case IR_LOOP:
    use(&n->u.loop.lo, fn, ctx), use(&n->u.loop.hi, fn, ctx);
    use_all(n->u.loop.init, n->u.loop.ncarry, fn, ctx);
    return;
  case IR_PAR:
    use(&n->u.par.lo, fn, ctx), use(&n->u.par.hi, fn, ctx), use(&n->u.par.color, fn, ctx);
    use_all(n->u.par.wins, n->u.par.nwins, fn, ctx);
    for (int r = 0; r < n->u.par.nreds; r++) {
      use_all(n->u.par.reds[r].init, n->u.par.reds[r].nf, fn, ctx);
      use_all(n->u.par.reds[r].ne, n->u.par.reds[r].nf, fn, ctx);
    }
    for (int k = 0; k < n->u.par.nscans; k++) use_all(n->u.par.scans[k].init, n->u.par.scans[k].nf, fn, ctx);
    for (int k = 0; k < n->u.par.nhists; k++) {
      use(&n->u.par.hists[k].arr, fn, ctx), use(&n->u.par.hists[k].lo, fn, ctx);
      use(&n->u.par.hists[k].len, fn, ctx);
      if (n->u.par.hists[k].win) use(&n->u.par.hists[k].win, fn, ctx);
    }
    return;
  case IR_ALLOC: use(&n->u.alloc.n, fn, ctx); return;
  case IR_COPY: case IR_SORT: case IR_FREE:
    use(&n->u.copy.dst, fn, ctx), use(&n->u.copy.src, fn, ctx), use(&n->u.copy.n, fn, ctx);
    use(&n->u.copy.off, fn, ctx), use(&n->u.copy.doff, fn, ctx);
    return;
  case IR_COLL:
    use(&n->u.coll.in, fn, ctx), use(&n->u.coll.out, fn, ctx), use(&n->u.coll.in_d, fn, ctx);
    use(&n->u.coll.out_d, fn, ctx), use(&n->u.coll.count, fn, ctx);
    use(&n->u.coll.root, fn, ctx), use(&n->u.coll.comm, fn, ctx);
    return;
  case IR_RETURN:
    use(&n->u.ret.v, fn, ctx);
    use_all(n->u.ret.gv, n->u.ret.ng, fn, ctx);
    return;
  }
  UNREACHABLE();
}

void ir_node_defs(Node *n, IrValFn *fn, void *ctx) {
  use(&n->out, fn, ctx);
  switch (n->kind) {
  case IR_IF: use_all(n->u.ifs.outs, n->u.ifs.nouts, fn, ctx); return;
  case IR_LOOP:
    use(&n->u.loop.idx, fn, ctx);
    use_all(n->u.loop.params, n->u.loop.ncarry, fn, ctx);
    use_all(n->u.loop.outs, n->u.loop.ncarry, fn, ctx);
    return;
  case IR_PAR:
    use(&n->u.par.idx, fn, ctx);
    for (int r = 0; r < n->u.par.nreds; r++) use_all(n->u.par.reds[r].out, n->u.par.reds[r].nf, fn, ctx);
    for (int k = 0; k < n->u.par.nscans; k++) {
      use_all(n->u.par.scans[k].excl, n->u.par.scans[k].nf, fn, ctx);
      use_all(n->u.par.scans[k].out, n->u.par.scans[k].nf, fn, ctx);
    }
    return;
  case IR_EXT: use_all(n->u.ext.outs, n->u.ext.nouts, fn, ctx); return;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT:
  case IR_FREE: case IR_COLL: case IR_RETURN:
    return;
  }
  UNREACHABLE();
}
