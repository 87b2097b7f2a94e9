// ad/rev_save.c: saving the array elements that a statement overwrites while an earlier (or
// the same) parallel loop's reverse still reads them (papers/nested-parallel-ad.md §3:
// redundant execution needs the values the loop read).
//
//   P reads a[lo:hi); S overwrites it    =>  forward: save = a[lo:hi) before S
//                                            reverse: swap a[lo:hi) and save before P's
//                                            reverse; swapped back in the epilogue
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// ---- saving overwritten elements ----

void loop_regions(Rev *R, const Block *b, const unsigned char *inside, Val *memo,
                         Region *reg, int *nreg, Val cond);

static WalkNext alloc_of(Node *n, void *ctx) {
  Rev *R = ctx;
  if (n->kind == IR_ALLOC && !n->u.alloc.tape) R->arrays[R->narrays++] = n->out;
  return n->kind == IR_PAR ? WALK_SKIP : WALK_INTO;
}

// The arrays of the function: its pointer parameters and the arrays it allocates.
const Val *user_arrays(Rev *R, int *n) {
  if (!R->arrays) {
    R->arrays = SCRATCH(Val, R->pf->nvals + 1);
    for (int i = 0; i < R->pf->nparams; i++)
      if (R->pf->params[i].is_array) R->arrays[R->narrays++] = R->pf->params[i].val;
    ir_walk(R->pf->body, &(Walker){.pre = alloc_of, .ctx = R});
  }
  *n = R->narrays;
  return R->arrays;
}

// Before statement k of a host-level block: which arrays does it overwrite that a parallel
// loop at or before k reads (and so re-reads in the reverse sweep)?  A sequential loop's
// reverse leaves what it overwrote as before the loop; at the function's level its
// elements are saved too, to be the outputs again at the end.
void plan_saves(Rev *R, const Block *body, int k, bool top, Save *out, int *nout) {
  const Node *n = body->stmts[k];
  *nout = 0;
  if (n->kind == IR_LOOP) {
    if (!top) return;
    Region reg[MAX_REGIONS];
    int nreg = regions_of(R, n, reg);
    for (int r = 0; r < nreg; r++)
      out[(*nout)++] = (Save){reg[r].arr, 0, 0, 0, reg[r].vlo, reg[r].vn, reg[r].moving, 0, 0};
    return;
  }
  int narr;
  const Val *arrays = user_arrays(R, &narr);
  for (int pi = 0; pi < narr; pi++) {
    Val arr = arrays[pi];
    if (!ir_writes(&(Block){(Node **)&body->stmts[k], 1, 1}, arr)) continue;
    bool needed = false;
    for (int j = 0; j <= k && !needed; j++)
      needed = node_reads_in_par(body->stmts[j], arr, false);
    if (!needed) continue;
    Val vlo, vn;
    if (n->kind == IR_PAR && !writes_at_index(n->u.par.body, arr, n->u.par.idx)) {
      if (!par_write_span(R, n, arr, &vlo, &vn))
        diag_error(n->loc, "write the array at the loop index itself (y[i] = ...) or at a*i + b, "
                   "not in a nested loop, or write the new values to another array",
                   "this loop overwrites elements of '%s' that a parallel loop reads, at an "
                   "index that saving them does not follow", R->pf->vals[arr].hint);
      out[(*nout)++] = (Save){arr, 0, 0, 0, vlo, vn};
    } else if (n->kind == IR_PAR) {
      out[(*nout)++] = (Save){arr, n->u.par.lo, n->u.par.hi};
    } else if (n->kind == IR_WRITE) {
      out[(*nout)++] = (Save){arr, n->u.mem.idx, 0};
    } else { // an if: the sections its branches write, each saved where its branch runs
      Region reg[MAX_REGIONS];
      unsigned char *inside = SCRATCH(unsigned char, R->pf->nvals);
      ir_inside(&(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, inside);
      Val *memo = SCRATCH(Val, R->pf->nvals);
      int nreg = 0;
      loop_regions(R, &(Block){(Node **)&body->stmts[k], 1, 1, NULL, 0}, inside, memo, reg, &nreg, 0);
      for (int r = 0; r < nreg; r++)
        if (reg[r].arr == arr) out[(*nout)++] = (Save){arr, 0, 0, 0, reg[r].vlo, reg[r].vn};
    }
  }
}

void emit_save(Rev *R, Save *s) {
  if (s->moving) return; // (the loop's forward run keeps its outputs: moving_saved)
  Builder *b = &R->b;
  Type *it = &ty_long;
  if (!s->vn) s->vlo = b_cast(b, it, P(s->lo));
  if (s->vn) {
  } else if (s->hi) {
    Val n = b_binop(b, BIN_SUB, b_cast(b, it, P(s->hi)), s->vlo);
    Val pos = b_binop(b, BIN_GT, n, b_const_i(b, it, 0));
    s->vn = b_select(b, pos, n, b_const_i(b, it, 0));
  } else {
    s->vn = b_const_i(b, it, 1);
  }
  Node *al = node_new(R->a, IR_ALLOC, b->loc);
  al->u.alloc.n = s->vn;
  al->out = fn_val(R->f, ty_ptr(R->a, R->pf->vals[s->arr].type->elem, false),
                   arena_printf(R->a, "%s_saved", R->pf->vals[s->arr].hint));
  b_push(b, al);
  s->save = al->out;
  Node *cp = node_new(R->a, IR_COPY, b->loc); // save[0:n] = arr[lo:lo+n]
  cp->u.copy.dst = s->save;
  cp->u.copy.src = P(s->arr);
  cp->u.copy.n = s->vn;
  cp->u.copy.off = s->vlo;
  b_push(b, cp);
}

// After the forward run of the loop at statement k: where the moving sections' outputs are.
void moving_saved(Rev *R, const Node *loop, Save *saves, int n) {
  LoopAux *x = loop_aux_of(R, loop);
  for (int i = 0; i < n; i++) {
    if (!saves[i].moving) continue;
    for (int r = 0; r < x->nreg; r++)
      if (x->reg[r].moving && x->reg[r].arr == saves[i].arr) {
        saves[i].save = x->reg[r].post;
        saves[i].itape = x->reg[r].itape;
        saves[i].vn = x->reg[r].vn;
        saves[i].T = x->T;
      }
  }
}

// epilogue: the outputs go back (a moving section: only then; before the loop's reverse its
// elements are as the reverse expects them, the loop's own outputs)
void emit_swap(Rev *R, const Save *s, bool epilogue) {
  if (s->moving) {
    if (epilogue) {
      Region g = {.arr = s->arr, .vn = s->vn, .moving = true, .itape = s->itape, .post = s->save};
      moving_copies(R, &g, s->T, false);
    }
    return;
  }
  Node *sw = node_new(R->a, IR_COPY, R->b.loc); // arr[lo:lo+n] <-> save[0:n]
  sw->u.copy.dst = s->save;
  sw->u.copy.src = P(s->arr);
  sw->u.copy.n = s->vn;
  sw->u.copy.off = s->vlo;
  sw->u.copy.swap = true;
  b_push(&R->b, sw);
}
