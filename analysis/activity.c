// analysis/activity.c: which values vary with the active parameters (forward dataflow).
// Only varied floating-point values get tangents or adjoints.
#include <stdlib.h>

#include "analysis.h"

typedef struct {
  const Fn *f;
  unsigned char *v;
  bool changed; // an array became varied: another round
  long marks;   // values marked so far: a round of a loop's body that marks none is the last
} Act;

static bool any(Act *a, Val x, Val y) {
  return (x && a->v[x]) || (y && a->v[y]);
}

static void mark(Act *a, Val out, bool varied) {
  if (out && varied && !a->v[out] && ty_is_float(a->f->vals[out].type)) a->v[out] = 1, a->marks++;
}

static void act_block(Act *a, const Block *b);

// An operator's values are differentiated wherever its reduction is (all of them, as floats).
static void act_lambda(Act *a, const Lambda *l) {
  if (!l) return;
  for (int f = 0; f < l->nf; f++) mark(a, l->pa[f], true), mark(a, l->pb[f], true);
  for (int i = 0; i < l->body->n; i++) mark(a, l->body->stmts[i]->out, true);
  act_block(a, l->body);
}

static void act_node(Act *a, const Node *n) {
  switch (n->kind) {
  case IR_CONST: break;
  case IR_UNOP: mark(a, n->out, any(a, n->u.un.a, 0)); break;
  case IR_BINOP: mark(a, n->out, any(a, n->u.bin.a, n->u.bin.b)); break;
  case IR_CALL:
    mark(a, n->out, any(a, n->u.call.a, n->u.call.b) || any(a, n->u.call.c, 0));
    break;
  case IR_EXT: {
    bool v = false;
    for (int k = 0; k < n->u.ext.nargs; k++) v |= a->v[n->u.ext.args[k]];
    mark(a, n->out, v);
    for (int k = 0; k < n->u.ext.nouts; k++) mark(a, n->u.ext.outs[k], v);
    break;
  }
  case IR_CAST: mark(a, n->out, any(a, n->u.cast.a, 0)); break;
  case IR_READ: mark(a, n->out, a->v[n->u.mem.arr]); break;
  case IR_WRITE: case IR_UPDATE: // an array holding varied values varies
    if (a->v[n->u.mem.v] && !a->v[n->u.mem.arr]) a->v[n->u.mem.arr] = 1, a->changed = true, a->marks++;
    break;
  case IR_ACC: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_RETURN: break;
  case IR_COLL: { // what it receives varies with what the ranks send
    Val o = n->u.coll.out;
    if (o && a->v[n->u.coll.in] && !a->v[o]) a->v[o] = 1, a->changed = true, a->marks++;
    break;
  }
  case IR_IF:
    act_block(a, n->u.ifs.then);
    act_block(a, n->u.ifs.els);
    for (int i = 0; i < n->u.ifs.nouts; i++)
      mark(a, n->u.ifs.outs[i], any(a, n->u.ifs.then->yields[i], n->u.ifs.els->yields[i]));
    break;
  case IR_LOOP:
    // carried values: rounds over the body until one marks nothing new (a fixed number of
    // rounds per loop, ncarry + 1, made nested loops exponential: 2^30 walks of the
    // innermost body for 30 loops carrying one value)
    for (long before = -1; before != a->marks;) {
      before = a->marks;
      for (int i = 0; i < n->u.loop.ncarry; i++)
        mark(a, n->u.loop.params[i], any(a, n->u.loop.init[i], n->u.loop.body->yields[i]));
      act_block(a, n->u.loop.body);
    }
    for (int i = 0; i < n->u.loop.ncarry; i++) mark(a, n->u.loop.outs[i], a->v[n->u.loop.params[i]]);
    break;
  case IR_PAR: {
    long before = a->marks;
    act_block(a, n->u.par.body);
    for (int k = 0; k < n->u.par.nscans; k++) { // later iterations see earlier contributions
      const Scan *sc = &n->u.par.scans[k];
      bool v = false;
      for (int f = 0; f < sc->nf; f++) v |= any(a, sc->init[f], n->u.par.body->yields[sc->slot + f]);
      for (int f = 0; f < sc->nf; f++) mark(a, sc->excl[f], v);
    }
    if (n->u.par.nscans && a->marks != before) act_block(a, n->u.par.body);
    for (int r = 0; r < n->u.par.nreds; r++) {
      act_lambda(a, n->u.par.reds[r].lam);
      act_lambda(a, n->u.par.reds[r].inv);
    }
    for (int k = 0; k < n->u.par.nscans; k++) act_lambda(a, n->u.par.scans[k].lam);
    for (int k = 0; k < n->u.par.nhists; k++) {
      act_lambda(a, n->u.par.hists[k].lam);
      act_lambda(a, n->u.par.hists[k].inv);
    }
    for (int r = 0; r < n->u.par.nreds; r++) {
      const Red *red = &n->u.par.reds[r];
      bool v = false; // the fields of a tuple vary together
      for (int f = 0; f < red->nf; f++) v |= any(a, red->init[f], n->u.par.body->yields[red->slot + f]);
      for (int f = 0; f < red->nf; f++) mark(a, red->out[f], v);
    }
    for (int k = 0; k < n->u.par.nscans; k++) {
      const Scan *sc = &n->u.par.scans[k];
      bool v = false;
      for (int f = 0; f < sc->nf; f++) v |= any(a, sc->init[f], n->u.par.body->yields[sc->slot + f]);
      for (int f = 0; f < sc->nf; f++) mark(a, sc->out[f], v), mark(a, sc->excl[f], v);
    }
    break;
  }
  }
}

static void act_block(Act *a, const Block *b) {
  for (int i = 0; i < b->n; i++) act_node(a, b->stmts[i]);
}

unsigned char *activity_varied(Arena *scratch, const Fn *f) {
  Act a = {f, ARENA_ARRAY(scratch, unsigned char, f->nvals), true};
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].active) a.v[f->params[i].val] = 1; // arrays too: their reads vary
  while (a.changed) {
    a.changed = false;
    act_block(&a, f->body);
  }
  return a.v;
}

// ---- warnings ----

static void warn_block(const Fn *f, const Block *b, const unsigned char *varied);

static void warn_node(const Fn *f, const Node *n, const unsigned char *varied) {
  switch (n->kind) {
  case IR_CALL:
    if ((n->u.call.fn == M_FLOOR || n->u.call.fn == M_CEIL || n->u.call.fn == M_ROUND ||
         n->u.call.fn == M_TRUNC) && varied[n->u.call.a])
      diag_warn(n->loc, "the derivative is 0 almost everywhere and undefined at the steps; "
                "adsoac uses 0", "'%s' of a value that depends on the active inputs",
                math_name(n->u.call.fn, f->vals[n->out].type));
    break;
  case IR_CAST:
    if (varied[n->u.cast.a] && ty_is_int(f->vals[n->out].type))
      diag_warn(n->loc, "no derivative flows through a conversion to an integer",
                "conversion of a value that depends on the active inputs to '%s'",
                f->vals[n->out].type->name);
    break;
  case IR_IF:
    warn_block(f, n->u.ifs.then, varied);
    warn_block(f, n->u.ifs.els, varied);
    break;
  case IR_LOOP: warn_block(f, n->u.loop.body, varied); break;
  case IR_PAR: warn_block(f, n->u.par.body, varied); break;
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_EXT: case IR_READ: case IR_WRITE:
  case IR_ACC: case IR_UPDATE: case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN: break;
  }
}

static void warn_block(const Fn *f, const Block *b, const unsigned char *varied) {
  for (int i = 0; i < b->n; i++) warn_node(f, b->stmts[i], varied);
}

void activity_warnings(const Fn *f) {
  Arena *scratch = arena_new(0);
  warn_block(f, f->body, activity_varied(scratch, f));
  arena_free(scratch);
}
