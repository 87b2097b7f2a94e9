// ad/fwd.c: forward mode.  f -> f_jvp (language.md §2.2).
//
// Dual numbers over the IR (papers/nested-parallel-ad.md §2): every statement is cloned and
// followed by its tangent statement; a parallel loop carries tangents in the same loop, and
// a +-reduction gets a second +-reduction of the contributions' tangents.  No tape, no
// re-execution, no accumulators.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

static void fwd_block(Fwd *F, const Block *b);

static Val fwd_binop(Fwd *F, const Node *n) {
  Val a = n->u.bin.a, c = n->u.bin.b, ta = T(a), tc = T(c);
  Builder *b = &F->b;
  switch (n->u.bin.op) {
  case BIN_ADD: return b_add(b, ta, tc);
  case BIN_SUB: return b_sub(b, ta, tc);
  case BIN_MUL: return b_add(b, b_mul(b, ta, P(c)), b_mul(b, P(a), tc));
  case BIN_DIV: // (ta - r*tc) / c
    if (!ta && !tc) return 0;
    return b_binop(b, BIN_DIV, b_sub(b, ta, b_mul(b, P(n->out), tc)), P(c));
  case BIN_MOD: case BIN_LT: case BIN_LE: case BIN_GT: case BIN_GE: case BIN_EQ: case BIN_NE:
  case BIN_LAND: case BIN_LOR: case BIN_BAND: case BIN_BOR: case BIN_BXOR: case BIN_SHL:
  case BIN_SHR: return 0; // integer and comparison operators carry no tangent
  }
  UNREACHABLE();
}

static Val fwd_call(Fwd *F, const Node *n) {
  Val t = 0;
  for (int k = 0; k < math_arity(n->u.call.fn); k++) {
    Val arg = k == 0 ? n->u.call.a : k == 1 ? n->u.call.b : n->u.call.c;
    if (!T(arg)) continue;
    Val d = deriv_call(&F->b, n->u.call.fn, k, P(n->u.call.a), n->u.call.b ? P(n->u.call.b) : 0,
                       n->u.call.c ? P(n->u.call.c) : 0, P(n->out));
    t = b_add(&F->b, t, b_mul(&F->b, d, T(arg)));
  }
  return t;
}

// r = fn(a1, ..., an), a function with declared derivatives: its jvp gives r and its
// tangent in one call (or, with only a vjp, the partial derivatives, one call).
static void fwd_ext(Fwd *F, const Node *n) {
  const ExtFn *e = n->u.ext.fn;
  int np = e->nparams, na = ext_nactive(e);
  bool varied = false;
  for (int k = 0; k < np; k++) varied |= T(n->u.ext.args[k]) != 0;
  if (!varied || !F->varied[n->out] || !e->jvp) {
    clone_block(&F->b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (!varied || !F->varied[n->out]) return;
  }
  Val *args = ARENA_ARRAY(F->a, Val, np + na + 1), *d = ARENA_ARRAY(F->a, Val, na + 1);
  for (int k = 0; k < np; k++) args[k] = P(n->u.ext.args[k]);
  Val t = 0;
  if (e->jvp) {
    for (int k = 0, j = 0; k < np; k++)
      if (ext_active(e, k)) {
        Val x = T(n->u.ext.args[k]);
        args[np + j++] = x ? as_type(F, x, e->ptypes[k]) : fwd_zero(F, e->ptypes[k]);
      }
    Node *m = b_ext(&F->b, e, EXT_JVP, args, np + na, 1);
    F->pv[n->out] = m->out;
    t = m->u.ext.outs[0];
  } else {
    deriv_ext(&F->b, e, args, d);
    for (int k = 0, j = 0; k < np; k++)
      if (ext_active(e, k)) {
        Val x = T(n->u.ext.args[k]);
        if (x) t = b_add(&F->b, t, b_mul(&F->b, d[j], x));
        j++;
      }
  }
  F->tan[n->out] = as_type(F, t, F->pf->vals[n->out].type);
}

// Tangents of the values a block yields: zero constants where a value has none.
static void yield_tangents(Fwd *F, Block *dst, const Block *src, int n) {
  Block *outer = F->b.blk;
  F->b.blk = dst;
  for (int i = 0; i < n; i++) {
    Val y = src->yields[i];
    Type *t = F->pf->vals[y].type;
    Val ty = T(y);
    block_yield(F->a, dst, ty ? as_type(F, ty, t) : fwd_zero(F, t));
  }
  F->b.blk = outer;
}

// outs = if c {A} else {B}  ->  (outs, outs_dot) = if c {A; A_dot} else {B; B_dot}
static void fwd_if(Fwd *F, const Node *n) {
  Node *m = node_new(F->a, IR_IF, n->loc);
  m->u.ifs.cond = P(n->u.ifs.cond);
  Block *outer = F->b.blk;
  const Block *src[2] = {n->u.ifs.then, n->u.ifs.els};
  Block *dst[2];
  int nt = 0;
  int *which = ARENA_ARRAY(F->cx->scratch, int, n->u.ifs.nouts + 1);
  for (int k = 0; k < n->u.ifs.nouts; k++)
    if (F->varied[n->u.ifs.outs[k]]) which[nt++] = k;
  for (int side = 0; side < 2; side++) {
    dst[side] = F->b.blk = block_new(F->a);
    fwd_block(F, src[side]);
    for (int k = 0; k < n->u.ifs.nouts; k++) block_yield(F->a, dst[side], P(src[side]->yields[k]));
  }
  for (int side = 0; side < 2; side++) {
    Block tmp = *src[side];
    Val *ys = ARENA_ARRAY(F->a, Val, nt + 1);
    for (int i = 0; i < nt; i++) ys[i] = src[side]->yields[which[i]];
    tmp.yields = ys;
    tmp.nyields = nt;
    yield_tangents(F, dst[side], &tmp, nt);
  }
  F->b.blk = outer;
  m->u.ifs.then = dst[0];
  m->u.ifs.els = dst[1];
  m->u.ifs.nouts = n->u.ifs.nouts + nt;
  m->u.ifs.outs = ARENA_ARRAY(F->a, Val, m->u.ifs.nouts + 1);
  for (int k = 0; k < n->u.ifs.nouts; k++)
    m->u.ifs.outs[k] = clone_val(F->f, F->pf, n->u.ifs.outs[k], F->pv);
  for (int i = 0; i < nt; i++) {
    Val o = n->u.ifs.outs[which[i]];
    F->tan[o] = m->u.ifs.outs[n->u.ifs.nouts + i] = fn_val(F->f, F->pf->vals[o].type, NULL);
  }
  b_push(&F->b, m);
}

static void fwd_par(Fwd *F, const Node *n) {
  int nf = n->u.par.nscans == 1 ? n->u.par.scans[0].nf : 1;
  Val src[nf], dst[nf];
  if (n->u.par.nscans == 1 && scan_canonical(n, src, dst)) {
    const Scan *s = &n->u.par.scans[0];
    bool varied = false;
    for (int f = 0; f < s->nf; f++) varied |= F->varied[s->out[f]];
    if (scan_rule(s, F->general) == RULE_ADD || !varied)
      fwd_scan(F, n, src, dst);
    else
      fwd_scan_general(F, n, src, dst);
    return;
  }
  if (n->u.par.nscans) diag_error(n->loc, NULL, "forward mode of scan(...) is not supported yet");

  Node *m = node_new(F->a, IR_PAR, n->loc);
  m->u.par.lo = P(n->u.par.lo);
  m->u.par.hi = P(n->u.par.hi);
  m->u.par.pragma = n->u.par.pragma;
  m->u.par.idx = clone_val(F->f, F->pf, n->u.par.idx, F->pv);
  Val *h0 = hist_before(F, n);
  int *hist_tan = F->hist_tan;
  F->hist_tan = tangent_hists(F, n, m);
  Block *outer = F->b.blk;
  m->u.par.body = F->b.blk = block_new(F->a);
  bool in_par = F->in_par;
  F->in_par = true;
  fwd_block(F, n->u.par.body);
  F->in_par = in_par;
  F->hist_tan = hist_tan;
  int nr = n->u.par.nreds, nt = 0;
  m->u.par.reds = ARENA_ARRAY(F->a, Red, 2 * nr + 1);
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    m->u.par.reds[r] = *red;
    if (dual_rule(F, n, red)) {
      if (red->op == RED_USER)
        dual_reduction(F, n, m, r, outer);
      else
        builtin_dual(F, n, m, r, outer);
      continue;
    }
    m->u.par.reds[r].slot = m->u.par.body->nyields;
    for (int f = 0; f < red->nf; f++)
      block_yield(F->a, m->u.par.body, P(n->u.par.body->yields[red->slot + f]));
    m->u.par.reds[r].init = map_fields(F, red->init, red->nf);
    if (red->ne) m->u.par.reds[r].ne = map_fields(F, red->ne, red->nf);
    m->u.par.reds[r].lam = clone_lambda(&F->b, F->pf, red->lam, F->pv);
    m->u.par.reds[r].inv = clone_lambda(&F->b, F->pf, red->inv, F->pv);
  }
  bool extra = false;
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (!F->varied[red->out[0]] || dual_rule(F, n, red)) continue;
    if (red->op != RED_ADD) { // tangent from a second loop (tangent_pass)
      extra = true;
      continue;
    }
    Type *t = F->pf->vals[red->out[0]].type;
    Val c = T(n->u.par.body->yields[red->slot]);
    block_yield(F->a, m->u.par.body, c ? as_type(F, c, t) : fwd_zero(F, t));
    F->b.blk = outer;
    Val init = T(red->init[0]) ? T(red->init[0]) : fwd_zero(F, t);
    F->b.blk = m->u.par.body;
    Red *tr = &m->u.par.reds[nr + nt++];
    *tr = *red;
    tr->ne = NULL; // a +-reduction: its neutral is 0
    tr->init = one_val(F, init);
    tr->slot = m->u.par.body->nyields - 1;
    tr->out = one_val(F, F->tan[red->out[0]] = fn_val(F->f, t, NULL));
  }
  m->u.par.nreds = nr + nt;
  F->b.blk = outer;
  for (int r = 0; r < nr; r++) {
    const Red *red = &n->u.par.reds[r];
    if (dual_rule(F, n, red)) continue; // its outputs are set
    Val *o = ARENA_ARRAY(F->a, Val, red->nf);
    for (int f = 0; f < red->nf; f++) o[f] = clone_val(F->f, F->pf, red->out[f], F->pv);
    m->u.par.reds[r].out = o;
  }
  b_push(&F->b, m);
  if (extra) tangent_pass(F, n, m);
  hist_tangents(F, n, h0);
}

// A sequential loop carries, besides its primal values, the tangents of the varied ones.
static void fwd_loop(Fwd *F, const Node *n) {
  Builder *b = &F->b;
  int nc = n->u.loop.ncarry, nt = 0;
  Node *m = node_new(F->a, IR_LOOP, n->loc);
  m->u.loop.lo = P(n->u.loop.lo);
  m->u.loop.hi = P(n->u.loop.hi);
  m->u.loop.stripmine = n->u.loop.stripmine;
  m->u.loop.strips = n->u.loop.strips;
  m->u.loop.init = ARENA_ARRAY(F->a, Val, 2 * nc + 1);
  m->u.loop.params = ARENA_ARRAY(F->a, Val, 2 * nc + 1);
  m->u.loop.outs = ARENA_ARRAY(F->a, Val, 2 * nc + 1);
  int *tk = ARENA_ARRAY(F->a, int, nc + 1); // carried value k -> its tangent's slot, or -1
  for (int k = 0; k < nc; k++) {
    m->u.loop.init[k] = P(n->u.loop.init[k]);
    m->u.loop.params[k] = clone_val(F->f, F->pf, n->u.loop.params[k], F->pv);
    tk[k] = -1;
  }
  for (int k = 0; k < nc; k++) {
    Val p = n->u.loop.params[k];
    if (!F->varied[p]) continue;
    Type *t = F->pf->vals[p].type;
    int s = tk[k] = nc + nt++;
    m->u.loop.init[s] = T(n->u.loop.init[k]) ? as_type(F, T(n->u.loop.init[k]), t) : fwd_zero(F, t);
    m->u.loop.params[s] = F->tan[p] = fn_val(F->f, t, NULL);
  }
  m->u.loop.ncarry = nc + nt;
  m->u.loop.exit = n->u.loop.exit ? P(n->u.loop.exit) : 0;
  m->u.loop.idx = clone_val(F->f, F->pf, n->u.loop.idx, F->pv);
  Block *outer = b->blk;
  m->u.loop.body = b->blk = block_new(F->a);
  fwd_block(F, n->u.loop.body);
  for (int k = 0; k < nc; k++) block_yield(F->a, m->u.loop.body, P(n->u.loop.body->yields[k]));
  for (int k = 0; k < nc; k++) {
    if (tk[k] < 0) continue;
    Type *t = F->pf->vals[n->u.loop.params[k]].type;
    Val y = T(n->u.loop.body->yields[k]);
    block_yield(F->a, m->u.loop.body, y ? as_type(F, y, t) : fwd_zero(F, t));
  }
  b->blk = outer;
  for (int k = 0; k < nc; k++) {
    m->u.loop.outs[k] = clone_val(F->f, F->pf, n->u.loop.outs[k], F->pv);
    if (tk[k] >= 0)
      m->u.loop.outs[tk[k]] = F->tan[n->u.loop.outs[k]] =
          fn_val(F->f, F->pf->vals[n->u.loop.outs[k]].type, NULL);
  }
  b_push(b, m);
}

static void fwd_node(Fwd *F, const Node *n) {
  Builder *b = &F->b;
  b->loc = n->loc;
  switch (n->kind) {
  case IR_IF: fwd_if(F, n); return;
  case IR_PAR: fwd_par(F, n); return;
  case IR_RETURN: return;
  case IR_LOOP: fwd_loop(F, n); return;
  case IR_UPDATE:
    if (F->htan && n->u.mem.hist == F->htan->h) hist_tangent(F, n);
    if (F->drop_writes && !F->local[n->u.mem.arr]) return;
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (F->hist_tan[n->u.mem.hist] >= 0 && T(n->u.mem.v)) {
      Node *u = node_new(F->a, IR_UPDATE, n->loc);
      u->u.mem.arr = F->adot[n->u.mem.arr];
      u->u.mem.idx = P(n->u.mem.idx);
      u->u.mem.v = as_type(F, T(n->u.mem.v), F->pf->vals[n->u.mem.arr].type->elem);
      u->u.mem.hist = F->hist_tan[n->u.mem.hist];
      b_push(b, u);
    }
    return;
  case IR_ALLOC: // a temporary, and its tangent
    if (F->drop_writes) F->local[n->out] = 1; // (a re-execution fills it again)
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (F->varied[n->out])
      F->adot[n->out] = scan_alloc(b, F->pf->vals[n->out].type->elem, P(n->u.alloc.n),
                                   arena_printf(F->a, "%s_dot", F->pf->vals[n->out].hint));
    return;
  case IR_FREE:
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (F->adot[n->u.copy.dst]) scan_free(b, F->adot[n->u.copy.dst]);
    return;
  case IR_EXT: fwd_ext(F, n); return;
  case IR_COLL: // the collective, then its tangent's (the same collective, or its rule)
    clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
    if (n->u.coll.out && F->adot[n->u.coll.in]) {
      IR_ASSERT(F->adot[n->u.coll.out]);
      deriv_coll(b, n, COLL_JVP, F->pv, F->adot[n->u.coll.in], F->adot[n->u.coll.out]);
    }
    return;
  case IR_ACC: case IR_COPY: case IR_SORT: UNREACHABLE();
  case IR_CONST: case IR_UNOP: case IR_BINOP: case IR_CALL: case IR_CAST: case IR_READ:
  case IR_WRITE: break;
  }
  if (n->kind == IR_WRITE && F->drop_writes && !F->local[n->u.mem.arr]) return;
  clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
  Val t = 0;
  switch (n->kind) {
  case IR_UNOP: t = n->u.un.op == UN_NEG ? b_neg(b, T(n->u.un.a)) : 0; break;
  case IR_BINOP: t = fwd_binop(F, n); break;
  case IR_CALL: t = fwd_call(F, n); break;
  case IR_CAST: t = ty_is_float(F->pf->vals[n->u.cast.a].type) ? T(n->u.cast.a) : 0; break;
  case IR_READ:
    if (F->adot[n->u.mem.arr]) t = b_read(b, F->adot[n->u.mem.arr], P(n->u.mem.idx));
    break;
  case IR_WRITE:
    if (F->adot[n->u.mem.arr]) {
      Type *et = F->pf->vals[n->u.mem.arr].type->elem;
      Val tv = T(n->u.mem.v);
      b_write(b, F->adot[n->u.mem.arr], P(n->u.mem.idx), tv ? as_type(F, tv, et) : fwd_zero(F, et));
    }
    break;
  case IR_CONST: case IR_EXT: case IR_ACC: case IR_UPDATE: case IR_IF: case IR_LOOP: case IR_PAR:
  case IR_ALLOC: case IR_COPY: case IR_SORT: case IR_FREE: case IR_COLL: case IR_RETURN: break;
  }
  if (n->out && F->varied[n->out] && t) F->tan[n->out] = as_type(F, t, F->pf->vals[n->out].type);
}

static void fwd_block(Fwd *F, const Block *b) {
  for (int i = 0; i < b->n; i++) fwd_node(F, b->stmts[i]);
}

static Fn *jvp_signature(Fwd *F) {
  const Fn *pf = F->pf;
  Fn *f = fn_new(F->a, arena_printf(F->a, "%s_jvp", pf->name), pf->loc);
  f->is_static = pf->is_static;
  f->ret = pf->ret;
  f->params = ARENA_ARRAY(F->a, Param, pf->nparams * 2 + 1);
  Val *dot = ARENA_ARRAY(F->cx->scratch, Val, pf->nvals); // a struct parameter's tangent
  for (int i = 0; i < pf->nparams; i++) {
    const Param *p = &pf->params[i];
    Param *q = &f->params[f->nparams++];
    *q = *p;
    q->val = F->pv[p->val] = ad_param_val(f, pf, p->val, p->type, p->name, F->pv, NULL, NULL);
    if (!p->active) continue;
    Param *d = &f->params[f->nparams++];
    *d = *p;
    d->name = arena_printf(F->a, "%s_dot", p->name);
    d->active = false;
    d->is_float = false;
    if (p->is_array) d->type = ty_ptr(F->a, p->type->elem, !p->written);
    Val par = pf->vals[p->val].parent;
    Type *pt = par ? pf->vals[par].type : NULL;
    if (pt && pt->kind == TY_PTR) { // const T *p_dot unless f writes a field of p
      bool written = false;
      for (int k = 0; k < pf->nparams; k++)
        written |= pf->vals[pf->params[k].val].parent == par && pf->params[k].written;
      pt = ty_ptr(F->a, pt->elem, !written);
    }
    d->val = ad_param_val(f, pf, p->val, d->type, d->name, dot, pt,
                          par ? arena_printf(F->a, "%s_dot", pf->vals[par].hint) : NULL);
    d->type = val_type(f, d->val);
    if (p->is_array)
      F->adot[p->val] = d->val;
    else
      F->tan[p->val] = d->val;
  }
  if (ty_is_float(pf->ret)) {
    Param *d = &f->params[f->nparams++];
    Type *t = ty_ptr(F->a, pf->ret, false);
    *d = (Param){"ret_dot", t, 0, pf->loc, true, true, true, false};
    d->val = fn_val(f, t, "ret_dot");
  }
  return f;
}

Fn *ad_jvp(AdCtx *cx, const Fn *pf) {
  Arena *a = cx->a;
  Fwd fw = {.a = a, .cx = cx, .pf = pf}, *F = &fw;
  F->cx = cx;
  F->general = cx->general;
  F->block = fwd_block;
  F->pv = ARENA_ARRAY(cx->scratch, Val, pf->nvals);
  F->tan = ARENA_ARRAY(cx->scratch, Val, pf->nvals);
  F->adot = ARENA_ARRAY(cx->scratch, Val, pf->nvals);
  F->varied = activity_varied(cx->scratch, pf);
  F->local = ARENA_ARRAY(cx->scratch, unsigned char, pf->nvals);
  F->f = jvp_signature(F);
  F->b = (Builder){F->f, F->f->body, pf->loc};
  fwd_block(F, pf->body);
  const Node *last = pf->body->n ? pf->body->stmts[pf->body->n - 1] : NULL;
  Val ret = last && last->kind == IR_RETURN ? last->u.ret.v : 0;
  if (ty_is_float(pf->ret)) {
    Val t = T(ret) ? T(ret) : fwd_zero(F, pf->ret);
    b_write(&F->b, F->f->params[F->f->nparams - 1].val, b_const_i(&F->b, &ty_int, 0), t);
  }
  Node *rn = node_new(a, IR_RETURN, pf->loc);
  rn->u.ret.v = ret ? P(ret) : 0;
  ret_globals(a, rn, pf->body, F->pv);
  b_push(&F->b, rn);
  return F->f;
}
