// analysis/uses.c: how often each value is used (transform/simplify.c's dead-code elimination,
// the derivatives, and the emitter, which leaves out a loop's unused results).
#include "analysis.h"

static void count_block_by(const Block *b, int *uses, int d);

// uses[v] += d (d = -1: the uses of a statement removed)
static void use_by(int *uses, int d, Val v) {
  if (v) uses[v] += d;
}

void count_node(const Node *n, int *uses, int d) {
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: use_by(uses, d, n->u.un.a); break;
  case IR_BINOP: use_by(uses, d, n->u.bin.a), use_by(uses, d, n->u.bin.b); break;
  case IR_CALL: use_by(uses, d, n->u.call.a), use_by(uses, d, n->u.call.b); break;
  case IR_CAST: use_by(uses, d, n->u.cast.a); break;
  case IR_READ: case IR_WRITE: case IR_ACC: case IR_UPDATE:
    use_by(uses, d, n->u.mem.arr), use_by(uses, d, n->u.mem.idx), use_by(uses, d, n->u.mem.v);
    break;
  case IR_IF:
    use_by(uses, d, n->u.ifs.cond);
    count_block_by(n->u.ifs.then, uses, d);
    count_block_by(n->u.ifs.els, uses, d);
    break;
  case IR_LOOP:
    use_by(uses, d, n->u.loop.lo), use_by(uses, d, n->u.loop.hi);
    for (int i = 0; i < n->u.loop.ncarry; i++) use_by(uses, d, n->u.loop.init[i]);
    count_block_by(n->u.loop.body, uses, d);
    break;
  case IR_PAR:
    use_by(uses, d, n->u.par.lo), use_by(uses, d, n->u.par.hi);
    for (int r = 0; r < n->u.par.nreds; r++)
      for (int f = 0; f < n->u.par.reds[r].nf; f++) {
        use_by(uses, d, n->u.par.reds[r].init[f]);
        if (n->u.par.reds[r].ne) use_by(uses, d, n->u.par.reds[r].ne[f]);
      }
    for (int k = 0; k < n->u.par.nscans; k++)
      for (int f = 0; f < n->u.par.scans[k].nf; f++) use_by(uses, d, n->u.par.scans[k].init[f]);
    for (int k = 0; k < n->u.par.nhists; k++) {
      use_by(uses, d, n->u.par.hists[k].arr), use_by(uses, d, n->u.par.hists[k].lo);
      use_by(uses, d, n->u.par.hists[k].len);
    }
    count_block_by(n->u.par.body, uses, d);
    break;
  case IR_ALLOC: use_by(uses, d, n->u.alloc.n); break;
  case IR_COPY: case IR_SORT: case IR_FREE:
    use_by(uses, d, n->u.copy.dst), use_by(uses, d, n->u.copy.src), use_by(uses, d, n->u.copy.n);
    use_by(uses, d, n->u.copy.off), use_by(uses, d, n->u.copy.doff);
    break;
  case IR_RETURN: use_by(uses, d, n->u.ret.v); break;
  }
}

static void count_block_by(const Block *b, int *uses, int d) {
  for (int i = 0; i < b->n; i++) count_node(b->stmts[i], uses, d);
  for (int i = 0; i < b->nyields; i++) use_by(uses, d, b->yields[i]);
}

void count_block(const Block *b, int *uses) {
  count_block_by(b, uses, 1);
}

void count_uses(const Fn *f, int *uses) {
  count_block(f->body, uses);
}
