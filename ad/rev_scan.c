// ad/rev_scan.c: the reverse rules of scan (papers/reduce-scan-hist-rules.md §2.15-2.17).
//
//   y = scan OP e x    (y_i = e OP x_0 OP .. OP x_i, exclusive prefixes kept)
//   +          x_bar = reverse scan (+) of y_bar                              (§2.17)
//   otherwise  the general rule: with J_i = dy_i/dy_i-1 and the partials of x_i, the adjoints
//              r_i = y_bar_i + J_i+1^T r_i+1 are a linear recurrence, itself a scan of
//              affine maps (scan_lin.c; block-diagonal sparsity §2.19-2.20), then
//              x_bar_i = (dy_i/dx_i)^T r_i                                    (§2.16)
// scan_rule (analysis/rules.c) classifies.
#include <stdlib.h>
#include <string.h>

#include "rev.h"

// The reverse of a canonical scan dst = exclusive_scan(OP, init, src) over [0, len), out the
// total.  For +: src_bar[j] += out_bar + sum_{k > j} dst_bar[k] (a reverse exclusive scan of
// dst_bar from out_bar), init_bar += out_bar + sum_k dst_bar[k] (that scan's total).
void rev_scan(Rev *R, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  Builder *b = &R->b;
  Type *t = R->pf->vals[s->out[0]].type;
  Val gout = R->adj[s->out[0]] ? R->adj[s->out[0]] : zero_of(R, t);
  Val len = P(n->u.par.hi), sbar = R->abar[src[0]], dbar = R->abar[dst[0]];
  IR_ASSERT(dbar); // the prefixes vary whenever the scan does
  Val g = scan_alloc(b, t, len, arena_printf(R->a, "%s_suffix", s->var));
  Scan rs = *s;
  rs.reverse = true;
  rs.lam = NULL;
  Val total = fn_val(R->f, t, NULL); // out_bar + sum_k dst_bar[k]
  scan_build(b, R->pf, &rs, &dbar, &g, len, &gout, &total, n->loc, n->u.par.pragma);
  if (sbar) { // src_bar[j] += g[j]
    Block *outer;
    Node *m = rev_loop(R, n, len, &outer);
    b_acc(b, sbar, m->u.par.idx, b_read(b, g, m->u.par.idx), ACC_PLAIN);
    rev_loop_end(R, m, outer);
  }
  scan_free(b, g);
  if (R->varied[s->init[0]]) adj_add(R, s->init[0], total);
}

// x when v is 1 * x or x * 1 (what a seed of 1 leaves in a Jacobian entry), else v.
static Val times_one(const Fn *f, Val v) {
  const Node *d = v ? f->defs[v] : NULL;
  if (!d || d->kind != IR_BINOP || d->u.bin.op != BIN_MUL) return v;
  for (int side = 0; side < 2; side++) {
    const Node *c = f->defs[side ? d->u.bin.b : d->u.bin.a];
    if (c && c->kind == IR_CONST && c->u.cst.f == 1.0 && ty_is_float(val_type(f, v)))
      return side ? d->u.bin.a : d->u.bin.b;
  }
  return v;
}

// The Jacobians of one step x OP y of scan s at (x, y) (values of f): ja[k * nf + m] =
// d(x OP y)_k / dx_m, jb likewise for y (0: structurally zero; jb may be NULL).  For a
// declared operator, one reverse pass over its body per field of the result.  A tie of min
// or max keeps x, the earlier candidate (language.md §7).
void scan_jacobian(Rev *R, const Scan *s, const Val *x, const Val *y, Val *ja, Val *jb) {
  Builder *b = &R->b;
  int nf = s->nf;
  if (s->op != RED_USER) {
    Type *t = val_type(R->f, x[0]);
    Val one = b_const_f(b, t, 1), zero = b_const_f(b, t, 0), c = 0;
    switch (s->op) {
    case RED_ADD: ja[0] = one; if (jb) jb[0] = one; return;
    case RED_MUL: ja[0] = y[0]; if (jb) jb[0] = x[0]; return;
    case RED_MIN: c = b_binop(b, BIN_LT, y[0], x[0]); break;
    case RED_MAX: c = b_binop(b, BIN_GT, y[0], x[0]); break;
    case RED_USER: UNREACHABLE();
    }
    ja[0] = b_select(b, c, zero, one);
    if (jb) jb[0] = b_select(b, c, one, zero);
    return;
  }
  const Lambda *op = s->lam;
  for (int f = 0; f < nf; f++) R->pv[op->pa[f]] = x[f], R->pv[op->pb[f]] = y[f];
  clone_block(b, R->pf, op->body, R->pv, false);
  for (int k = 0; k < nf; k++) {
    for (int f = 0; f < nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
    clear_adj(R, op->body);
    adj_add(R, op->body->yields[k], b_const_f(b, val_type(R->f, x[k]), 1));
    R->block(R, op->body);
    for (int m = 0; m < nf; m++) {
      ja[k * nf + m] = times_one(R->f, R->adj[op->pa[m]]);
      if (jb) jb[k * nf + m] = times_one(R->f, R->adj[op->pb[m]]);
    }
  }
  clear_adj(R, op->body);
  for (int f = 0; f < nf; f++) R->adj[op->pa[f]] = R->adj[op->pb[f]] = 0;
}

// The general rule (papers/reduce-scan-hist-rules.md §2.16, §2.19-2.20) for a canonical scan
// dst = exclusive_scan(OP, init, src) with total out.  With E_k = dst[k] (E_n = out) and
// J_k = d(E_k OP src[k])/dE_k, the adjoints satisfy  Ebar_k = dst_bar[k] + J_k^T Ebar_{k+1},
// Ebar_n = out_bar;  so  g_k = Ebar_{k+1}  is a reverse exclusive scan of the affine maps
// (J_k^T, dst_bar[k]) from the constant out_bar (ad_scan.c), src_bar[k] += vjp_y(g_k) and
// init_bar += Ebar_0, the scan's total.  Exact with zeros (no division); min/max ties as the
// step's Jacobian decides them, to the earlier candidate.
void rev_scan_general(Rev *R, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  int d = s->nf;
  Builder *b = &R->b;
  Val len = P(n->u.par.hi);
  Type *ft[LIN_MAXF];
  if (d > LIN_MAXF)
    diag_error(n->loc, "scan fields that do not depend on each other in separate clauses",
               "reverse mode of scan(%s: ...) on a struct of more than %d fields is not supported",
               s->user_fn, LIN_MAXF);
  for (int f = 0; f < d; f++) {
    ft[f] = R->pf->vals[s->out[f]].type;
    IR_ASSERT(R->abar[dst[f]]); // the prefixes vary whenever the scan does
    if (ft[f] != ft[0])
      diag_error(n->loc, "make every field of the struct double (or every field float)",
                 "reverse mode of scan(%s: ...) over a struct of mixed float and double fields "
                 "is not supported", s->user_fn);
  }
  // 1. the steps' transposed Jacobians, per group of equal blocks
  Block *outer;
  Node *m1 = rev_loop(R, n, len, &outer);
  Val x[LIN_MAXF], y[LIN_MAXF], ja[LIN_MAXF * LIN_MAXF];
  for (int f = 0; f < d; f++) {
    x[f] = b_read(b, P(dst[f]), m1->u.par.idx);
    y[f] = b_read(b, P(src[f]), m1->u.par.idx);
  }
  scan_jacobian(R, s, x, y, ja, NULL);
  LinShape sh;
  lin_shape(R->f, d, ja, &sh);
  int nf = sh.nmat + d;
  Val *lsrc = ARENA_ARRAY(R->a, Val, nf), *ldst = ARENA_ARRAY(R->a, Val, nf),
      *linit = ARENA_ARRAY(R->a, Val, nf), *lout = ARENA_ARRAY(R->a, Val, nf);
  bool *lmine = ARENA_ARRAY(R->a, bool, nf); // lsrc[k] is an array of the rule's own
  Block *body = R->b.blk;
  R->b.blk = outer;
  for (int g = 0; g < sh.ngroups; g++) {
    int q = sh.q[sh.rep[g]], o = sh.moff[g];
    for (int i = 0; i < q; i++)
      for (int j = 0; j < q; j++) {
        Val e = lin_entry(&sh, ja, g, i, j, true);
        int k = o + i * q + j;
        linit[k] = b_const_f(b, ft[0], i == j);
        lout[k] = fn_val(R->f, ft[0], NULL);
        lsrc[k] = 0;
        for (int f = 0; f < d && !lsrc[k]; f++) // an element of the scan itself: no copy
          lsrc[k] = e == y[f] ? P(src[f]) : e == x[f] ? P(dst[f]) : 0;
        if (lsrc[k]) continue;
        lsrc[k] = scan_alloc(b, ft[0], len, arena_printf(R->a, "%s_jac", s->var));
        lmine[k] = true;
        R->b.blk = body;
        b_write(b, lsrc[k], m1->u.par.idx, e ? e : b_const_f(b, ft[0], 0));
        R->b.blk = outer;
      }
  }
  R->b.blk = body;
  bool copies = false;
  for (int k = 0; k < sh.nmat; k++) copies |= lmine[k];
  if (copies) rev_loop_end(R, m1, outer);
  else R->b.blk = outer;
  // 2. g_k: the reverse scan of the affine maps (J_k^T, dst_bar[k]) from out_bar
  for (int f = 0; f < d; f++) {
    int k = sh.nmat + f;
    lsrc[k] = R->abar[dst[f]];
    ldst[k] = scan_alloc(b, ft[f], len, arena_printf(R->a, "%s_suffix", s->var));
    linit[k] = R->adj[s->out[f]] ? R->adj[s->out[f]] : zero_of(R, ft[f]);
    lout[k] = fn_val(R->f, ft[f], NULL);
  }
  Scan ls = {.op = RED_USER, .nf = nf, .lam = lin_lambda(R->f, &sh, ft, n->loc), .reverse = true,
             .user_fn = arena_printf(R->a, "affine maps of %s", s->user_fn ? s->user_fn : redop_name(s->op)),
             .var = s->var};
  scan_build(b, R->f, &ls, lsrc, ldst, len, linit, lout, n->loc, n->u.par.pragma);
  // 3. src_bar[k] += dy(E_k OP y)^T g_k
  bool any = false;
  for (int f = 0; f < d; f++) any |= R->abar[src[f]] != 0;
  if (any) {
    Node *m3 = rev_loop(R, n, len, &outer);
    Val jb[LIN_MAXF * LIN_MAXF], gk[LIN_MAXF];
    for (int f = 0; f < d; f++) {
      x[f] = b_read(b, P(dst[f]), m3->u.par.idx);
      y[f] = b_read(b, P(src[f]), m3->u.par.idx);
      gk[f] = b_read(b, ldst[sh.nmat + f], m3->u.par.idx);
    }
    scan_jacobian(R, s, x, y, ja, jb);
    for (int f = 0; f < d; f++) {
      if (!R->abar[src[f]]) continue;
      Val sum = 0;
      for (int k = 0; k < d; k++)
        if (jb[k * d + f]) sum = b_add(b, sum, b_mul(b, jb[k * d + f], gk[k]));
      if (sum) b_acc(b, R->abar[src[f]], m3->u.par.idx, sum, ACC_PLAIN);
    }
    rev_loop_end(R, m3, outer);
  }
  for (int k = 0; k < nf; k++)
    if (k >= sh.nmat || lmine[k]) scan_free(b, k < sh.nmat ? lsrc[k] : ldst[k]);
  for (int f = 0; f < d; f++)
    if (R->varied[s->init[f]]) adj_add(R, s->init[f], lout[sh.nmat + f]);
}
