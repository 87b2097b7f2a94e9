// ad/rev_hist.c: the reverse rules of hist, reduce-by-index (papers/reduce-scan-hist-rules.md
// §2.7-2.12, papers/histogram-ad.md).
//
//   h = hist OP h0 (k_i, v_i)     (h[b] = h0[b] OP the v_i with k_i = b)
//   +           v_i_bar += h_bar[k_i]; h0_bar = h_bar                          (§2.9)
//   *           v_i_bar += h_bar[k_i] * (the other factors of bin k_i: zero counts and
//               products, hist_mul_counts)                                    (§2.11)
//   min, max    v_i_bar += h_bar[k_i] where update i is the bin's winner (hist_winners);
//               h0_bar[b] = h_bar[b] where the initial contents won          (§2.10)
//   OP with inverse(fn): v_i_bar += h_bar[k_i] * d(b OP v_i)/dv_i, b = inv(h[k_i], v_i) (§2.12)
//   otherwise   the general rule: sort by bin, segmented scans from both ends (hist_general)
//                                                                             (§2.8)
// hist_rule (analysis/rules.c) classifies.
#include <stdlib.h>
#include <string.h>

#include "rev.h"

static Val user_hist_partial(Rev *R, const Hist *h, Val y, Val x, Val g);

const HistAux *hist_aux(Rev *R, const Node *par) {
  for (const HistAux *x = R->haux; x; x = x->next)
    if (x->par == par) return x;
  return NULL;
}

// An update h[k] OP= v of hist(OP: h[lo:len]) (language.md §3; papers' §2.9-2.12): where
// lo <= k < lo + len, v gets the bin's adjoint times d(bin)/dv: 1 for +; for min/max, all
// of it if this iteration is the bin's winner; for *, the product of the bin's other
// factors (zero count and nonzero product, the initial contents included); for a declared
// operator with an inverse, d(rest OP v)/dv with rest = inv(final, v).  Out of range: 0.
void rev_update(Rev *R, const Node *n) {
  int hi = n->u.mem.hist;
  const Hist *h = &R->par->u.par.hists[hi];
  Val abar = R->abar[n->u.mem.arr];
  if (!abar || !R->varied[n->u.mem.v]) return;
  Builder *b = &R->b;
  Type *t = R->pf->vals[n->u.mem.v].type;
  Val k = P(n->u.mem.idx), in = hist_bin(b, k, P(h->lo), P(h->len));
  Node *sel = node_new(R->a, IR_IF, n->loc);
  sel->u.ifs.cond = in;
  sel->u.ifs.then = block_new(R->a);
  sel->u.ifs.els = block_new(R->a);
  Block *outer = b->blk;
  b->blk = sel->u.ifs.then;
  Val g = b_read(b, abar, k), j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, P(h->lo)));
  const HistAux *x = hist_aux(R, R->par);
  IR_ASSERT(h->op == RED_ADD || x); // (check_reductions)
  bool general = x && x->D[hi]; // (hist_prepare: no inverse, or --general-rule)
  switch (general ? RED_USER : h->op) {
  case RED_ADD: break;
  case RED_MIN: case RED_MAX: {
    Val key = hist_win_key(b, R->par, hi, n, P(R->par->u.par.idx), P(R->par->u.par.lo));
    Val mine = b_binop(b, BIN_EQ, b_read(b, x->win[hi], j), key);
    g = b_select(b, mine, g, b_const_f(b, t, 0));
    break;
  }
  case RED_MUL:
    g = b_mul(b, g, hist_mul_partial(b, x->h0[hi], x->nz[hi], x->pr[hi], j, P(n->u.mem.v)));
    break;
  case RED_USER:
    if (!general) {
      g = user_hist_partial(R, h, b_read(b, x->h1[hi], j), P(n->u.mem.v), g);
    } else { // the general rule: the partial of this iteration's update
      Val it = b_binop(b, BIN_SUB, b_cast(b, &ty_long, P(R->par->u.par.idx)),
                       b_cast(b, &ty_long, P(R->par->u.par.lo)));
      g = b_mul(b, g, b_read(b, x->D[hi], it));
    }
    break;
  }
  block_yield(R->a, sel->u.ifs.then, g);
  b->blk = sel->u.ifs.els;
  block_yield(R->a, sel->u.ifs.els, b_const_f(b, t, 0));
  b->blk = outer;
  sel->u.ifs.nouts = 1;
  sel->u.ifs.outs = ARENA_ARRAY(R->a, Val, 1);
  sel->u.ifs.outs[0] = fn_val(R->f, t, NULL);
  b_push(b, sel);
  adj_add(R, n->u.mem.v, sel->u.ifs.outs[0]);
}
void user_partial(Rev *R, const Red *red, const Val *y, const Val *x, const Val *g,
                         Val *dx);

// g * d(b OP x)/dx with b = inv(y, x), for the declared operator of hist clause h.
static Val user_hist_partial(Rev *R, const Hist *h, Val y, Val x, Val g) {
  Red red = {.op = RED_USER, .nf = 1, .lam = h->lam, .inv = h->inv, .commutative = true,
             .user_fn = h->user_fn, .var = h->var};
  Val dx = 0;
  user_partial(R, &red, &y, &x, &g, &dx);
  return dx ? dx : b_const_f(&R->b, val_type(R->f, x), 0);
}

// Does clause h of loop n need the section before and after it (hist(*/min/max/declared))?
static bool hist_needs_aux(Rev *R, const Node *n, int h) {
  const Hist *hc = &n->u.par.hists[h];
  return (hc->op != RED_ADD || R->general) && R->varied[hc->arr];
}

// Is clause hc differentiated by the general rule (no inverse, or --general-rule)?
static bool hist_by_general(const Rev *R, const Hist *hc) {
  return hist_rule(hc, R->general) == RULE_GENERAL;
}

typedef struct {
  Rev *R;
  const Hist *hc;
} RevOp;

// d(a OP x)/dx (left: /da) for hist_general, by the reverse mode of the operator's body.
static Val rev_dop(void *ctx, Builder *b, Val a, Val x, bool left) {
  RevOp *o = ctx;
  Rev *R = o->R;
  Builder saved = R->b;
  R->b = *b;
  Scan sc = {.op = o->hc->op, .nf = 1, .lam = o->hc->lam, .user_fn = o->hc->user_fn};
  Val ja[1], jb[1];
  scan_jacobian(R, &sc, &a, &x, ja, jb);
  Val d = left ? ja[0] : jb[0];
  if (!d) d = b_const_f(&R->b, val_type(R->f, x), 0);
  R->b = saved;
  return d;
}

typedef struct {
  Rev *R;
  Val hist; // the clause's array (its updates are the ones meant)
} OtherWrite;

static WalkNext other_write(Node *n, void *ctx) {
  const OtherWrite *o = ctx;
  Val dst = n->kind == IR_WRITE || n->kind == IR_ACC ? n->u.mem.arr
            : n->kind == IR_UPDATE && n->u.mem.arr != o->hist ? n->u.mem.arr // (an inner loop's hist)
            : n->kind == IR_COPY || n->kind == IR_SORT ? n->u.copy.dst
            : n->kind == IR_COLL ? coll_writes(n) : 0;
  return dst && !o->R->in_par[dst] ? WALK_STOP : WALK_INTO;
}

// Does b (the body of the parallel loop being reversed, whose histogram is hist) write an
// array other than its iterations' own?
static bool writes_other_arrays(Rev *R, const Block *b, Val hist) {
  return ir_walk(b, &(Walker){.pre = other_write, .ctx = &(OtherWrite){R, hist}}) != NULL;
}

// Does only the winners' reverse matter in loop n?  Its one clause is min or max by the
// winner rule, updated at one site, and it has no reduction, scan or other histogram and
// writes no array but its iterations' own: every other iteration's reverse adds zeros.
// Then the reverse loop runs over the bins, the iteration of each bin's winner alone
// (rev_par; the winners of different bins are different iterations).  Returns the clause,
// or -1.
int hist_winners_only(Rev *R, const Node *n) {
  const HistAux *x = hist_aux(R, n);
  if (!x || n->u.par.nhists != 1 || n->u.par.nreds || n->u.par.nscans || !x->win[0] ||
      hist_sites(n, 0) != 1 || !R->abar[n->u.par.hists[0].arr])
    return -1;
  return writes_other_arrays(R, n->u.par.body, n->u.par.hists[0].arr) ? -1 : 0;
}

// Forward sweep, top-level loop n: the sections of its histograms before it (after: true,
// after it), for the reverse rules of hist(*/min/max/declared).
void hist_save(Rev *R, const Node *n, bool after) {
  if (n->kind != IR_PAR || !n->u.par.nhists) return;
  HistAux *x = after ? (HistAux *)hist_aux(R, n) : NULL;
  for (int h = 0; h < n->u.par.nhists; h++) {
    if (!hist_needs_aux(R, n, h)) continue;
    const Hist *hc = &n->u.par.hists[h];
    if (after && hist_by_general(R, hc)) continue; // the general rule needs the initial only
    if (after && x && x->win[h]) continue;         // (the loop recorded its winners)
    if (!x) {
      x = SCRATCH(HistAux, 1);
      int nh = n->u.par.nhists;
      *x = (HistAux){n, SCRATCH(Val, nh), SCRATCH(Val, nh), SCRATCH(Val, nh), SCRATCH(Val, nh),
                     SCRATCH(Val, nh), SCRATCH(Val, nh), SCRATCH(Val, nh), R->haux};
      R->haux = x;
    }
    Val c = hist_copy(&R->b, P(hc->arr), P(hc->lo), P(hc->len),
                      arena_printf(R->a, "%s_%s", hc->var, after ? "after" : "before"));
    if (after) x->h1[h] = c;
    else x->h0[h] = c;
    if (!after && hist_rule(hc, R->general) == RULE_MINMAX && !R->cx->cuda)
      x->win[h] = hist_win_alloc(&R->b, n, h, P(hc->len));
  }
}

// Forward sweep: clone, the copy of loop n just made, records the winners hist_save set up.
void hist_win_record(Rev *R, const Node *n, Node *clone) {
  const HistAux *x = n->kind == IR_PAR ? hist_aux(R, n) : NULL;
  for (int h = 0; x && h < n->u.par.nhists; h++)
    if (x->win[h]) hist_win_inline(clone, n, h, x->win[h]);
}

// The passes the reverse of loop n's histograms needs before its reverse loop.
void hist_prepare(Rev *R, const Node *n) {
  HistAux *x = (HistAux *)hist_aux(R, n);
  for (int h = 0; x && h < n->u.par.nhists; h++) {
    if (!hist_needs_aux(R, n, h)) continue;
    RedOp op = n->u.par.hists[h].op;
    if (hist_by_general(R, &n->u.par.hists[h])) {
      RevOp o = {R, &n->u.par.hists[h]};
      hist_general(&R->b, R->pf, n, R->pv, h, x->h0[h], rev_dop, &o, &x->D[h], &x->DI[h],
                   R->cx->cuda);
    } else if ((op == RED_MIN || op == RED_MAX) && !x->win[h]) { // (else: hist_win_record)
      x->win[h] = hist_winners(&R->b, R->pf, n, R->pv, h, x->h0[h], x->h1[h]);
    } else if (op == RED_MUL) {
      hist_mul_counts(&R->b, R->pf, n, R->pv, h, &x->nz[h], &x->pr[h]);
    }
  }
}

// After loop n's reverse loop: the adjoint of each section's initial contents (per bin, the
// bin's adjoint times d(final)/d(initial)), and the temporaries freed.
void hist_finish(Rev *R, const Node *n) {
  HistAux *x = (HistAux *)hist_aux(R, n);
  Builder *b = &R->b;
  for (int h = 0; x && h < n->u.par.nhists; h++) {
    if (!hist_needs_aux(R, n, h)) continue;
    const Hist *hc = &n->u.par.hists[h];
    Val abar = R->abar[hc->arr], len = P(hc->len);
    Type *t = R->pf->vals[hc->arr].type->elem;
    Block *outer;
    Node *m = rev_loop(R, n, len, &outer);
    Val j = m->u.par.idx, at = b_binop(b, BIN_ADD, b_cast(b, &ty_long, P(hc->lo)), b_cast(b, &ty_long, j));
    Val g = b_read(b, abar, at), d = 0;
    switch (hist_rule(hc, R->general)) {
    case RULE_MINMAX: {
      Val init = b_binop(b, BIN_EQ, b_read(b, x->win[h], j), b_const_i(b, &ty_long, -1));
      d = b_select(b, init, g, b_const_f(b, t, 0));
      break;
    }
    case RULE_MUL: d = b_mul(b, g, hist_mul_partial(b, x->h0[h], x->nz[h], x->pr[h], j, 0)); break;
    case RULE_INVERTIBLE:
      d = user_hist_partial(R, hc, b_read(b, x->h1[h], j), b_read(b, x->h0[h], j), g);
      break;
    case RULE_GENERAL: d = b_mul(b, g, b_read(b, x->DI[h], j)); break;
    case RULE_ADD: UNREACHABLE(); // (hist_needs_aux)
    }
    b_write(b, abar, at, d);
    rev_loop_end(R, m, outer);
    Val tmp[7] = {x->h0[h], x->h1[h], x->win[h], x->nz[h], x->pr[h], x->D[h], x->DI[h]};
    for (int k = 0; k < 7; k++)
      if (tmp[k]) scan_free(b, tmp[k]);
  }
}
