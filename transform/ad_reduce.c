// transform/ad_reduce.c: the pieces of the reduce rules shared by both modes
// (papers/reduce-scan-hist-rules.md §2.2-2.4).
//
//   reduce(+)        contribution's adjoint = y_bar                     (a broadcast)
//   reduce(*)        zero-safe: the loop also counts the zero factors (nz) and multiplies the
//                    others (p), the initial value being one more factor; then
//                      d y / d x = nz == 0 ? p / x : (nz == 1 && x == 0 ? p : 0)
//                    (exactly one zero: only it gets the product of the others; two or more:
//                    all get 0; never a division by zero, never NaN)
//   reduce(min/max)  the whole adjoint goes to one candidate (language.md §7): the initial
//                    value if it attains the extremum, else the earliest element attaining
//                    it, found by a second pass: k = min { i : x_i == y }
#include "transform.h"

// Adds reduce(+: nz) and reduce(*: p) over the contributions of reduction r to the loop c
// (the primal's loop in the derivative function), and returns, after c, the totals with the
// initial value counted as one more factor.
void lift_mul(Builder *host, Node *c, int r, Val *nz_out, Val *p_out) {
  Fn *f = host->fn;
  Arena *a = f->arena;
  Red *red = &c->u.par.reds[r];
  Type *t = val_type(f, red->out[0]);
  Builder bb = {f, c->u.par.body, c->loc};
  Val x = c->u.par.body->yields[red->slot];
  Val zero = b_const_f(&bb, t, 0), one = b_const_f(&bb, t, 1);
  Val isz = b_binop(&bb, BIN_EQ, x, zero);
  Val cnt = b_cast(&bb, &ty_long, isz);
  Val fac = b_select(&bb, isz, one, x);
  // the inits: constants defined before the loop
  Node *k0 = node_new(a, IR_CONST, c->loc), *k1 = node_new(a, IR_CONST, c->loc);
  k0->out = fn_val(f, &ty_long, NULL);
  k1->out = fn_val(f, t, NULL);
  k1->u.cst.f = 1;
  k1->u.cst.i = 1;
  Block *hb = host->blk;
  IR_ASSERT(hb->n && hb->stmts[hb->n - 1] == c);
  hb->stmts[hb->n - 1] = k0;
  block_push(a, hb, k1);
  block_push(a, hb, c);
  Red *reds = ARENA_ARRAY(a, Red, c->u.par.nreds + 2);
  for (int i = 0; i < c->u.par.nreds; i++) reds[i] = c->u.par.reds[i];
  Val srcs[2] = {cnt, fac}, inits[2] = {k0->out, k1->out};
  Val outs[2];
  for (int i = 0; i < 2; i++) {
    block_yield(a, c->u.par.body, srcs[i]);
    Red *n = &reds[c->u.par.nreds + i];
    *n = (Red){.op = i ? RED_MUL : RED_ADD, .nf = 1, .init = ARENA_ARRAY(a, Val, 1),
               .out = ARENA_ARRAY(a, Val, 1), .slot = c->u.par.body->nyields - 1,
               .var = i ? "nonzero_product" : "zeros"};
    n->init[0] = inits[i];
    n->out[0] = outs[i] = fn_val(f, i ? t : &ty_long, i ? "nonzero_product" : "zeros");
  }
  c->u.par.reds = reds;
  c->u.par.nreds += 2;
  // the initial value is a factor too
  Val init = red->init[0];
  Val iz = b_binop(host, BIN_EQ, init, b_const_f(host, t, 0));
  *nz_out = b_binop(host, BIN_ADD, outs[0], b_cast(host, &ty_long, iz));
  *p_out = b_binop(host, BIN_MUL, outs[1], b_select(host, iz, b_const_f(host, t, 1), init));
}

// d y / d x of a product y with nz zero factors and nonzero factors multiplying to p.
Val mul_partial(Builder *b, Val x, Val nz, Val p) {
  Type *t = val_type(b->fn, x);
  Val zero = b_const_f(b, t, 0);
  Val none = b_binop(b, BIN_EQ, nz, b_const_i(b, &ty_long, 0));
  Val one = b_binop(b, BIN_EQ, nz, b_const_i(b, &ty_long, 1));
  Val xz = b_binop(b, BIN_EQ, x, zero);
  Val only = b_select(b, xz, one, b_const_i(b, &ty_int, 0)); // nz == 1 && x == 0
  Val safe = b_select(b, xz, b_const_f(b, t, 1), x);          // no division by 0
  return b_select(b, none, b_binop(b, BIN_DIV, p, safe), b_select(b, only, p, zero));
}

// The loop that finds k = min { i : x_i == y } for reduction r of the primal loop n, with
// the body re-executed (no writes) to compute the x_i; hi where none.  Emitted at b.
Val argext_pass(Builder *b, const Fn *pf, const Node *n, int r, Val y, Val *pv) {
  Fn *f = b->fn;
  Arena *a = f->arena;
  Val lo = pv[n->u.par.lo], hi = pv[n->u.par.hi];
  Val none = b_cast(b, &ty_long, hi);
  Node *m = node_new(a, IR_PAR, n->loc);
  m->u.par.lo = lo;
  m->u.par.hi = hi;
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.idx = clone_val(f, pf, n->u.par.idx, pv);
  m->u.par.body = block_new(a);
  Builder bb = {f, m->u.par.body, n->loc};
  clone_block(&bb, pf, n->u.par.body, pv, true);
  Val x = pv[n->u.par.body->yields[n->u.par.reds[r].slot]];
  Val hit = b_binop(&bb, BIN_EQ, x, y);
  Val cand = b_select(&bb, hit, b_cast(&bb, &ty_long, m->u.par.idx), none);
  block_yield(a, m->u.par.body, cand);
  m->u.par.reds = ARENA_ARRAY(a, Red, 1);
  m->u.par.nreds = 1;
  m->u.par.reds[0] = (Red){.op = RED_MIN, .nf = 1, .init = ARENA_ARRAY(a, Val, 1),
                           .out = ARENA_ARRAY(a, Val, 1), .var = "first_extremum"};
  m->u.par.reds[0].init[0] = none;
  m->u.par.reds[0].out[0] = fn_val(f, &ty_long, "first_extremum");
  b_push(b, m);
  return m->u.par.reds[0].out[0];
}

// In a loop body: does this iteration hold the extremum's adjoint?  !init_wins && i == k
Val is_winner(Builder *b, Val idx, Val k, Val init_wins) {
  Val at = b_binop(b, BIN_EQ, b_cast(b, &ty_long, idx), k);
  return b_select(b, init_wins, b_const_i(b, &ty_int, 0), at);
}
