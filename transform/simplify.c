// transform/simplify.c: dead-code elimination.  The reverse sweep re-executes whole loop
// bodies; what the adjoint code does not use is removed here.
#include <stdlib.h>

#include "transform.h"

static void count_block(const Block *b, int *uses);

static void use(int *uses, Val v) {
  if (v) uses[v]++;
}

static void count_node(const Node *n, int *uses) {
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: use(uses, n->u.un.a); break;
  case IR_BINOP: use(uses, n->u.bin.a), use(uses, n->u.bin.b); break;
  case IR_CALL: use(uses, n->u.call.a), use(uses, n->u.call.b); break;
  case IR_CAST: use(uses, n->u.cast.a); break;
  case IR_READ: case IR_WRITE: case IR_ACC:
    use(uses, n->u.mem.arr), use(uses, n->u.mem.idx), use(uses, n->u.mem.v);
    break;
  case IR_IF:
    use(uses, n->u.ifs.cond);
    count_block(n->u.ifs.then, uses);
    count_block(n->u.ifs.els, uses);
    break;
  case IR_LOOP:
    use(uses, n->u.loop.lo), use(uses, n->u.loop.hi);
    for (int i = 0; i < n->u.loop.ncarry; i++) use(uses, n->u.loop.init[i]);
    count_block(n->u.loop.body, uses);
    break;
  case IR_PAR:
    use(uses, n->u.par.lo), use(uses, n->u.par.hi);
    for (int r = 0; r < n->u.par.nreds; r++) use(uses, n->u.par.reds[r].init);
    count_block(n->u.par.body, uses);
    break;
  case IR_ALLOC: use(uses, n->u.alloc.n); break;
  case IR_COPY: case IR_FREE:
    use(uses, n->u.copy.dst), use(uses, n->u.copy.src), use(uses, n->u.copy.n);
    use(uses, n->u.copy.off);
    break;
  case IR_RETURN: use(uses, n->u.ret.v); break;
  }
}

static void count_block(const Block *b, int *uses) {
  for (int i = 0; i < b->n; i++) count_node(b->stmts[i], uses);
  for (int i = 0; i < b->nyields; i++) use(uses, b->yields[i]);
}

static bool block_has_effects(const Block *b);

// Is any value defined in b (or in blocks nested in it) still used?
static bool block_defs_used(const Block *b, const int *uses) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->out && uses[n->out]) return true;
    if (n->kind == IR_IF && (block_defs_used(n->u.ifs.then, uses) ||
                             block_defs_used(n->u.ifs.els, uses)))
      return true;
  }
  return false;
}

static bool removable(const Node *n, const int *uses) {
  switch (n->kind) {
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
    return !uses[n->out];
  case IR_IF:
    for (int i = 0; i < n->u.ifs.nouts; i++)
      if (uses[n->u.ifs.outs[i]]) return false;
    // the reverse sweep reads values a branch defined: keep the branch while they are used
    return !block_has_effects(n->u.ifs.then) && !block_has_effects(n->u.ifs.els) &&
           !block_defs_used(n->u.ifs.then, uses) && !block_defs_used(n->u.ifs.els, uses);
  case IR_WRITE: case IR_ACC: case IR_LOOP: case IR_PAR: case IR_ALLOC: case IR_COPY:
  case IR_FREE: case IR_RETURN: return false;
  }
  return false;
}

static bool block_has_effects(const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->kind == IR_IF ? block_has_effects(n->u.ifs.then) || block_has_effects(n->u.ifs.els)
                         : !(n->kind <= IR_READ))
      return true;
  }
  return false;
}

// Removes dead statements of b (and of nested blocks); returns whether anything changed.
static bool sweep(Block *b, const int *uses) {
  bool changed = false;
  int k = 0;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (removable(n, uses)) {
      changed = true;
      continue;
    }
    if (n->kind == IR_IF) changed |= sweep(n->u.ifs.then, uses) | sweep(n->u.ifs.els, uses);
    if (n->kind == IR_PAR) changed |= sweep(n->u.par.body, uses);
    if (n->kind == IR_LOOP) changed |= sweep(n->u.loop.body, uses);
    b->stmts[k++] = n;
  }
  b->n = k;
  return changed;
}

// Unused outs of an if are dropped with their yields.
static bool prune_if_outs(Block *b, const int *uses) {
  bool changed = false;
  for (int i = 0; i < b->n; i++) {
    Node *n = b->stmts[i];
    if (n->kind == IR_IF) {
      int k = 0;
      for (int j = 0; j < n->u.ifs.nouts; j++) {
        if (!uses[n->u.ifs.outs[j]]) {
          changed = true;
          continue;
        }
        n->u.ifs.outs[k] = n->u.ifs.outs[j];
        n->u.ifs.then->yields[k] = n->u.ifs.then->yields[j];
        n->u.ifs.els->yields[k] = n->u.ifs.els->yields[j];
        k++;
      }
      n->u.ifs.nouts = n->u.ifs.then->nyields = n->u.ifs.els->nyields = k;
      changed |= prune_if_outs(n->u.ifs.then, uses) | prune_if_outs(n->u.ifs.els, uses);
    }
    if (n->kind == IR_PAR) changed |= prune_if_outs(n->u.par.body, uses);
  }
  return changed;
}

void simplify_dce(Fn *f) {
  int *uses = calloc((size_t)f->nvals, sizeof(int));
  for (bool changed = true; changed;) {
    for (int i = 0; i < f->nvals; i++) uses[i] = 0;
    count_block(f->body, uses);
    changed = prune_if_outs(f->body, uses);
    for (int i = 0; i < f->nvals; i++) uses[i] = 0;
    count_block(f->body, uses);
    changed |= sweep(f->body, uses);
  }
  free(uses);
}
