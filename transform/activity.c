// transform/activity.c: which values vary with the active parameters (forward dataflow).
// Only varied floating-point values get tangents or adjoints.
#include <stdlib.h>

#include "transform.h"

typedef struct {
  const Fn *f;
  unsigned char *v;
} Act;

static bool any(Act *a, Val x, Val y) {
  return (x && a->v[x]) || (y && a->v[y]);
}

static void mark(Act *a, Val out, bool varied) {
  if (out && varied && ty_is_float(a->f->vals[out].type)) a->v[out] = 1;
}

static void act_block(Act *a, const Block *b);

static void act_node(Act *a, const Node *n) {
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: mark(a, n->out, any(a, n->u.un.a, 0)); break;
  case IR_BINOP: mark(a, n->out, any(a, n->u.bin.a, n->u.bin.b)); break;
  case IR_CALL: mark(a, n->out, any(a, n->u.call.a, n->u.call.b)); break;
  case IR_CAST: mark(a, n->out, any(a, n->u.cast.a, 0)); break;
  case IR_READ: mark(a, n->out, a->v[n->u.mem.arr]); break;
  case IR_WRITE: case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_FREE: case IR_RETURN: break;
  case IR_IF:
    act_block(a, n->u.ifs.then);
    act_block(a, n->u.ifs.els);
    for (int i = 0; i < n->u.ifs.nouts; i++)
      mark(a, n->u.ifs.outs[i], any(a, n->u.ifs.then->yields[i], n->u.ifs.els->yields[i]));
    break;
  case IR_LOOP:
    // carried values: iterate to a fixed point (at most ncarry + 1 rounds)
    for (int round = 0; round <= n->u.loop.ncarry; round++) {
      for (int i = 0; i < n->u.loop.ncarry; i++)
        mark(a, n->u.loop.params[i], any(a, n->u.loop.init[i], n->u.loop.body->yields[i]));
      act_block(a, n->u.loop.body);
    }
    for (int i = 0; i < n->u.loop.ncarry; i++) mark(a, n->u.loop.outs[i], a->v[n->u.loop.params[i]]);
    break;
  case IR_PAR:
    act_block(a, n->u.par.body);
    for (int r = 0; r < n->u.par.nreds; r++) {
      const Red *red = &n->u.par.reds[r];
      mark(a, red->out, any(a, red->init, n->u.par.body->yields[red->slot]));
    }
    break;
  }
}

static void act_block(Act *a, const Block *b) {
  for (int i = 0; i < b->n; i++) act_node(a, b->stmts[i]);
}

unsigned char *activity_varied(const Fn *f) {
  Act a = {f, calloc((size_t)f->nvals, 1)};
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].active) a.v[f->params[i].val] = 1; // arrays too: their reads vary
  act_block(&a, f->body);
  return a.v;
}
