// ad/rev_reduce.c: the reverse rules of reduce (papers/reduce-scan-hist-rules.md §2.1-2.6).
//
//   y = reduce OP e [x_0 .. x_n-1]      with y_bar given:
//   +           x_i_bar += y_bar                                              (§2.2)
//   *           x_i_bar += y_bar * prod_{j != i} x_j  (zero count and the product of the
//               nonzero factors: lift_mul / mul_pass, reduce.c)                  (§2.4)
//   min, max    x_k_bar += y_bar for the winner k only (argext_pass)          (§2.3)
//   OP with inverse(fn), commutative: x_i_bar += y_bar * d(b OP x_i)/dx_i where
//               b = inv(y, x_i) is the reduction of the others                (§2.6)
//   otherwise   the general rule: the reduction became a scan (transform/scan.c), rev_scan.c
// The initial value e is one more operand.  reduce_rule (analysis/rules.c) classifies.
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// ---- parallel loops ----

// The invertible-operator rule (papers/reduce-scan-hist-rules.md §2.6): for a commutative
// operator with an inverse, y = b OP x where b = inv(y, x) is the reduction of everything
// else; so x's adjoint is g * d(b OP x)/dx, the reverse mode of the operator's own body.
// y, x, g and the result dx have the reduction's nf fields (values of f; g[f] may be 0).

void user_partial(Rev *R, const Red *red, const Val *y, const Val *x, const Val *g,
                         Val *dx) {
  const Lambda *op = red->lam;
  user_invert(&R->b, R->pf, red, R->pv, y, x);
  clone_block(&R->b, R->pf, op->body, R->pv, false);
  for (int f = 0; f < red->nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
  clear_adj(R, op->body);
  for (int f = 0; f < red->nf; f++) adj_add(R, op->body->yields[f], g[f]);
  R->block(R, op->body);
  for (int f = 0; f < red->nf; f++) dx[f] = R->adj[op->pb[f]];
  clear_adj(R, op->body); // the operator's values are used again (the initial value)
  for (int f = 0; f < red->nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
}

// The seeds g of a user reduction's result, fields of the enclosing adjoint table; false if
// all are zero.
static bool user_seeds(const Red *red, const Val *adj, Val *g) {
  bool any = false;
  for (int f = 0; f < red->nf; f++) any |= (g[f] = adj[red->out[f]]) != 0;
  return any;
}

// A user reduction's operand (the contributions x, or the initial value) gets its adjoint.
void user_adjoint(Rev *R, const Red *red, const Val *host_adj, const Val *xs) {
  int nf = red->nf;
  Val *g = ARENA_ARRAY(R->a, Val, nf), *y = ARENA_ARRAY(R->a, Val, nf),
      *x = ARENA_ARRAY(R->a, Val, nf), *dx = ARENA_ARRAY(R->a, Val, nf);
  if (!user_seeds(red, host_adj, g)) return;
  for (int f = 0; f < red->nf; f++) y[f] = P(red->out[f]), x[f] = P(xs[f]);
  user_partial(R, red, y, x, g, dx);
  for (int f = 0; f < red->nf; f++) adj_add(R, xs[f], dx[f]);
}

// If the only adjoint entering loop n is that of one min/max reduction, only the winning
// iteration contributes anything: its index, else -1.
int single_seed(Rev *R, const Node *n, const Val *host_adj) {
  int only = -1;
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    if (!host_adj[red->out[0]]) continue;
    if ((red->op != RED_MIN && red->op != RED_MAX) || only >= 0) return -1;
    only = r;
  }
  return only >= 0 && !block_writes_active(R, n->u.par.body) ? only : -1;
}

// ---- the clauses of a parallel loop being reversed (rev_par) ----

// min/max: which element holds the extremum (a pass before the reverse loop, or the winner
// lifted into the primal loop); reduce(*) not lifted into a primal loop of f_vjp (nested in
// a loop or an if): the pass of its zero count and product.
void red_prepare(Rev *R, const Node *n, const Val *host_adj, RedRev *rr) {
  int nr = n->u.par.nreds;
  rr->k = SCRATCH(Val, nr + 1);
  rr->init_wins = SCRATCH(Val, nr + 1);
  rr->mul_passed = SCRATCH(bool, nr + 1);
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (reduce_rule(red, false) != RULE_MINMAX || !host_adj[red->out[0]]) continue;
    if (R->winner[red->out[0]]) {
      rr->k[r] = R->winner[red->out[0]];
      rr->init_wins[r] = b_binop(&R->b, BIN_EQ, rr->k[r], b_const_i(&R->b, &ty_long, -1));
      continue;
    }
    rr->init_wins[r] = b_binop(&R->b, BIN_EQ, P(red->init[0]), P(red->out[0]));
    rr->k[r] = argext_pass(&R->b, R->pf, n, r, P(red->out[0]), R->pv);
  }
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    Val y = red->out[0];
    if (reduce_rule(red, false) != RULE_MUL || !host_adj[y] || R->mul_nz[y]) continue;
    mul_pass(&R->b, R->pf, n, r, R->pv, &R->mul_nz[y], &R->mul_p[y]);
    rr->mul_passed[r] = true;
  }
}

// If one min/max reduction holds the only adjoint entering the loop, the reverse loop m runs
// the winning iteration only (or none: the initial value won).
void red_range(Rev *R, const Node *n, const Val *host_adj, const RedRev *rr, Node *m) {
  int only = single_seed(R, n, host_adj);
  if (only < 0) return;
  Type *it = R->pf->vals[n->u.par.idx].type;
  Val kk = b_cast(&R->b, it, rr->k[only]);
  m->u.par.lo = b_select(&R->b, rr->init_wins[only], P(n->u.par.hi), kk);
  m->u.par.hi = b_select(&R->b, rr->init_wins[only], P(n->u.par.hi),
                         b_binop(&R->b, BIN_ADD, kk, b_const_i(&R->b, it, 1)));
}

// In the reverse loop's body (index idx): each reduction's contribution x gets its adjoint.
void red_operands(Rev *R, const Node *n, const Val *host_adj, const RedRev *rr, Val idx) {
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    Rule rule = reduce_rule(red, false);
    if (rule == RULE_INVERTIBLE) {
      user_adjoint(R, red, host_adj, n->u.par.body->yields + red->slot);
      continue;
    }
    Val g = host_adj[red->out[0]], x = n->u.par.body->yields[red->slot];
    if (!g) continue;
    switch (rule) {
    case RULE_ADD: adj_add(R, x, g); break;
    case RULE_MUL:
      adj_add(R, x, b_mul(&R->b, g, mul_partial(&R->b, P(x), R->mul_nz[red->out[0]],
                                                  R->mul_p[red->out[0]])));
      break;
    case RULE_MINMAX: {
      Val win = is_winner(&R->b, idx, rr->k[r], rr->init_wins[r]);
      adj_add(R, x, b_select(&R->b, win, g, b_const_f(&R->b, val_type(R->f, g), 0)));
      break;
    }
    case RULE_INVERTIBLE: case RULE_GENERAL: UNREACHABLE(); // before the switch; check_reductions
    }
  }
}

// After the reverse loop: each reduction's initial value, one more operand, gets its adjoint.
void red_inits(Rev *R, const Node *n, const Val *host_adj, const RedRev *rr) {
  for (int r = 0; r < n->u.par.nreds; r++) {
    const Red *red = &n->u.par.reds[r];
    Rule rule = reduce_rule(red, false);
    if (rule == RULE_INVERTIBLE) {
      user_adjoint(R, red, host_adj, red->init);
      continue;
    }
    Val g = host_adj[red->out[0]], init = red->init[0];
    if (!g) continue;
    Builder *b = &R->b;
    switch (rule) {
    case RULE_ADD: adj_add(R, init, g); break;
    case RULE_MUL:
      adj_add(R, init, b_mul(b, g, mul_partial(b, P(init), R->mul_nz[red->out[0]],
                                               R->mul_p[red->out[0]])));
      break;
    case RULE_MINMAX:
      adj_add(R, init, b_select(b, rr->init_wins[r], g, b_const_f(b, val_type(R->f, g), 0)));
      break;
    case RULE_INVERTIBLE: case RULE_GENERAL: UNREACHABLE(); // before the switch; check_reductions
    }
  }
  for (int r = 0; r < n->u.par.nreds; r++) // the pass's values live in this block only
    if (rr->mul_passed[r]) R->mul_nz[n->u.par.reds[r].out[0]] = R->mul_p[n->u.par.reds[r].out[0]] = 0;
}
