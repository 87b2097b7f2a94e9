// ad/reduce.c: the pieces of the reduce rules shared by both modes
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
#include <limits.h>
#include <math.h>

#include "ad_internal.h"

// Moves the statements pushed at the end of b since position `from` to just before c.
static void move_before(Block *b, Node *c, int from) {
  int at = 0;
  while (at < from && b->stmts[at] != c) at++;
  IR_ASSERT(at < from);
  int k = b->n - from;
  Node *tmp[16];
  IR_ASSERT(k <= 16);
  for (int i = 0; i < k; i++) tmp[i] = b->stmts[from + i];
  for (int i = from - 1; i >= at; i--) b->stmts[i + k] = b->stmts[i];
  for (int i = 0; i < k; i++) b->stmts[at + i] = tmp[i];
}

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
  Block *hb = host->blk;
  int from = hb->n;
  Val k0 = b_const_i(host, &ty_long, 0), k1 = b_const_f(host, t, 1);
  move_before(hb, c, from);
  Red *reds = ARENA_ARRAY(a, Red, c->u.par.nreds + 2);
  for (int i = 0; i < c->u.par.nreds; i++) reds[i] = c->u.par.reds[i];
  Val srcs[2] = {cnt, fac}, inits[2] = {k0, k1};
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

// reduce(*) not lifted into its primal loop (the loop is nested in another loop or in an if,
// so the reverse sweep re-executes it): the zero count nz and the nonzero product p of
// reduction r of n by a pass over the same loop, placed with b before the reverse loop.
void mul_pass(Builder *b, const Fn *pf, const Node *n, int r, Val *pv, Val *nz, Val *p) {
  Fn *f = b->fn;
  Arena *a = f->arena;
  const Red *red = &n->u.par.reds[r];
  Node *m = node_new(a, IR_PAR, n->loc);
  m->u.par.lo = pv[n->u.par.lo];
  m->u.par.hi = pv[n->u.par.hi];
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.idx = clone_val(f, pf, n->u.par.idx, pv);
  m->u.par.body = block_new(a);
  Builder bb = {f, m->u.par.body, n->loc};
  clone_block(&bb, pf, n->u.par.body, pv, true);
  block_yield(a, m->u.par.body, pv[n->u.par.body->yields[red->slot]]);
  m->u.par.reds = ARENA_ARRAY(a, Red, 1);
  m->u.par.nreds = 1;
  m->u.par.reds[0] = (Red){.op = RED_MUL, .nf = 1, .init = ARENA_ARRAY(a, Val, 1),
                           .out = ARENA_ARRAY(a, Val, 1), .var = red->var};
  m->u.par.reds[0].init[0] = pv[red->init[0]];
  m->u.par.reds[0].out[0] = fn_val(f, val_type(f, pv[red->out[0]]), NULL); // unused: pruned
  b_push(b, m);
  lift_mul(b, m, 0, nz, p);
}

// The invertible-operator rule's first step, for both modes: b = inv(y, x), cloned with bld
// (y and x are values of the new function, nf fields each); then the operator's parameters
// map to (b, x) in pv, ready for its body to be differentiated.
void user_invert(Builder *bld, const Fn *pf, const Red *red, Val *pv, const Val *y, const Val *x) {
  const Lambda *inv = red->inv, *op = red->lam;
  for (int f = 0; f < red->nf; f++) {
    pv[inv->pa[f]] = y[f];
    pv[inv->pb[f]] = x[f];
  }
  clone_block(bld, pf, inv->body, pv, false);
  for (int f = 0; f < red->nf; f++) {
    pv[op->pa[f]] = pv[inv->body->yields[f]];
    pv[op->pb[f]] = x[f];
  }
}

// In a loop body: does this iteration hold the extremum's adjoint?  !init_wins && i == k
Val is_winner(Builder *b, Val idx, Val k, Val init_wins) {
  Val at = b_binop(b, BIN_EQ, b_cast(b, &ty_long, idx), k);
  return b_select(b, init_wins, b_const_i(b, &ty_int, 0), at);
}

// min/max lifted to (value, index) (papers/reduce-scan-hist-rules.md §2.3): the loop c also
// reduces (x_i, i) with the operator that keeps the extremum and, on a tie, the smaller
// index; the initial value enters as (init, -1), so it wins its ties.  Returns, after c, the
// winner's index: -1 for the initial value.  The second pass of argext_pass is then not needed.
// The argmin/argmax operator on (value, index) pairs a and b: does b win? It wins with a
// better value or, on a tie, a smaller index.
Val argext_take(Builder *b, bool is_max, const Val *a, const Val *c) {
  Val better = b_binop(b, is_max ? BIN_GT : BIN_LT, c[0], a[0]);
  Val tie = b_binop(b, BIN_EQ, c[0], a[0]);
  Val earlier = b_binop(b, BIN_LT, c[1], a[1]);
  return b_binop(b, BIN_LOR, better, b_binop(b, BIN_LAND, tie, earlier));
}

Val lift_argext(Builder *host, Node *c, int r) {
  Fn *f = host->fn;
  Arena *a = f->arena;
  const Red *red = &c->u.par.reds[r];
  Type *t = val_type(f, red->out[0]);
  bool is_max = red->op == RED_MAX;
  // the operator, as a lambda over (value, index) pairs
  Lambda *l = ARENA_NEW(a, Lambda);
  l->nf = 2;
  l->pa = ARENA_ARRAY(a, Val, 2);
  l->pb = ARENA_ARRAY(a, Val, 2);
  l->pa[0] = fn_val(f, t, "a"), l->pa[1] = fn_val(f, &ty_long, "ka");
  l->pb[0] = fn_val(f, t, "b"), l->pb[1] = fn_val(f, &ty_long, "kb");
  l->body = block_new(a);
  Builder lb = {f, l->body, c->loc};
  Val take = argext_take(&lb, is_max, l->pa, l->pb);
  block_yield(a, l->body, b_select(&lb, take, l->pb[0], l->pa[0]));
  block_yield(a, l->body, b_select(&lb, take, l->pb[1], l->pa[1]));
  // the contributions (x_i, i)
  Builder bb = {f, c->u.par.body, c->loc};
  Val x = c->u.par.body->yields[red->slot];
  Val i = b_cast(&bb, &ty_long, c->u.par.idx);
  block_yield(a, c->u.par.body, x);
  block_yield(a, c->u.par.body, i);
  // neutral and initial pairs, defined before the loop
  Block *hb = host->blk;
  int from = hb->n;
  Val ne0 = b_const_f(host, t, is_max ? -INFINITY : INFINITY);
  Val ne1 = b_const_i(host, &ty_long, LLONG_MAX);
  Val m1 = b_const_i(host, &ty_long, -1);
  move_before(hb, c, from);
  Red *reds = ARENA_ARRAY(a, Red, c->u.par.nreds + 1);
  for (int k = 0; k < c->u.par.nreds; k++) reds[k] = c->u.par.reds[k];
  Red *n = &reds[c->u.par.nreds];
  *n = (Red){.op = RED_USER, .nf = 2, .init = ARENA_ARRAY(a, Val, 2), .out = ARENA_ARRAY(a, Val, 2),
             .ne = ARENA_ARRAY(a, Val, 2), .slot = c->u.par.body->nyields - 2, .lam = l,
             .commutative = true, .argext = is_max ? 1 : -1, .user_fn = is_max ? "argmax" : "argmin",
             .var = "winner"};
  n->init[0] = red->init[0], n->init[1] = m1;
  n->ne[0] = ne0, n->ne[1] = ne1;
  n->out[0] = fn_val(f, t, NULL);
  n->out[1] = fn_val(f, &ty_long, "winner");
  c->u.par.reds = reds;
  c->u.par.nreds++;
  return n->out[1];
}
