// parser/lower_loop.c: canonical for loops (language.md §3) -> IR_PAR.
//
//   for_statement: 'for' '(' initializer ';' condition ';' update ')' body
//   canonical:     for (T i = lo; i < hi; i++)   (also <=, ++i, i += 1, i = i + 1)
#include <string.h>

#include "lower.h"
#include "../analysis/analysis.h"

typedef struct {
  const char *name;
  Type *type;
  Val lo, hi; // [lo, hi)
  Loc loc;
} Canon;

static const char *canon_hint = "write the loop as for (T i = lo; i < hi; i++) with an integer "
                                "index that the body does not assign";

static bool is_var(Lower *L, TSNode n, const char *name) {
  while (ts_is(n, "parenthesized_expression")) n = ts_node_named_child(n, 0);
  return ts_is(n, "identifier") && !strcmp(node_text(L, n), name);
}

static bool is_one(Lower *L, TSNode n) {
  return ts_is(n, "number_literal") && !strcmp(node_text(L, n), "1");
}

static void canon_init(Lower *L, TSNode s, Canon *c) {
  TSNode init = ts_field(s, "initializer");
  if (ts_is(init, "declaration")) {
    TSNode d = ts_field(init, "declarator");
    if (ts_node_named_child_count(init) != 2 || !ts_is(d, "init_declarator"))
      diag_error(node_loc(L, init), canon_hint, "loop must declare exactly one index");
    c->type = lower_type(L, ts_field(init, "type"));
    check_not_macro(L, ts_field(d, "declarator"));
    c->name = node_text(L, ts_field(d, "declarator"));
    c->lo = lower_expr(L, ts_field(d, "value"));
  } else if (ts_is(init, "assignment_expression") &&
             !strcmp(node_text(L, ts_field(init, "operator")), "=") &&
             ts_is(ts_field(init, "left"), "identifier")) {
    c->name = node_text(L, ts_field(init, "left"));
    Var *v = var_find(L, c->name);
    if (!v || v->kind != VAR_SCALAR)
      diag_error(node_loc(L, init), canon_hint, "unknown loop index '%s'", c->name);
    c->type = v->type;
    c->lo = lower_expr(L, ts_field(init, "right"));
  } else {
    diag_error(node_loc(L, ts_node_is_null(init) ? s : init), canon_hint,
               "loop has no index initialiser");
  }
  if (!ty_is_int(c->type))
    diag_error(node_loc(L, init), canon_hint, "loop index '%s' is not an integer", c->name);
  c->lo = convert(L, c->lo, c->type);
}

static void canon_cond(Lower *L, TSNode s, Canon *c) {
  TSNode cond = ts_field(s, "condition");
  const char *op = ts_is(cond, "binary_expression") ? node_text(L, ts_field(cond, "operator")) : "";
  if ((strcmp(op, "<") && strcmp(op, "<=")) || !is_var(L, ts_field(cond, "left"), c->name))
    diag_error(node_loc(L, ts_node_is_null(cond) ? s : cond), canon_hint,
               "loop condition must be '%s < hi' or '%s <= hi'", c->name, c->name);
  Val hi = convert(L, lower_expr(L, ts_field(cond, "right")), c->type);
  if (!strcmp(op, "<=")) hi = b_binop(&L->b, BIN_ADD, hi, b_const_i(&L->b, c->type, 1));
  c->hi = hi;
}

static void canon_update(Lower *L, TSNode s, Canon *c) {
  TSNode u = ts_field(s, "update");
  bool ok = false;
  if (ts_is(u, "update_expression"))
    ok = !strcmp(node_text(L, ts_field(u, "operator")), "++") &&
         is_var(L, ts_field(u, "argument"), c->name);
  else if (ts_is(u, "assignment_expression") && is_var(L, ts_field(u, "left"), c->name)) {
    const char *op = node_text(L, ts_field(u, "operator"));
    TSNode r = ts_field(u, "right");
    ok = (!strcmp(op, "+=") && is_one(L, r)) ||
         (!strcmp(op, "=") && ts_is(r, "binary_expression") &&
          !strcmp(node_text(L, ts_field(r, "operator")), "+") &&
          ((is_var(L, ts_field(r, "left"), c->name) && is_one(L, ts_field(r, "right"))) ||
           (is_var(L, ts_field(r, "right"), c->name) && is_one(L, ts_field(r, "left")))));
  }
  if (!ok)
    diag_error(node_loc(L, ts_node_is_null(u) ? s : u), canon_hint,
               "loop must step its index by one ('%s++')", c->name);
}

static void note_access(Lower *L, ParCtx *p, Val arr, Val idx, bool write, Loc loc) {
  if (p->nacc == p->capacc) {
    int cap = p->capacc ? p->capacc * 2 : 16;
    Access *a = ARENA_ARRAY(L->a, Access, cap);
    if (p->nacc) memcpy(a, p->acc, sizeof(Access) * (size_t)p->nacc);
    p->acc = a;
    p->capacc = cap;
  }
  p->acc[p->nacc++] = (Access){arr, idx, write, loc};
}

void par_note_access(Lower *L, Val arr, Val idx, bool write, Loc loc) {
  for (ParCtx *p = L->par; p; p = p->up) note_access(L, p, arr, idx, write, loc);
}

// The map promise (language.md §3), checked by map_dependence (analysis/depend.c); a
// dependence is an error at the access that shows it.
static void check_map_accesses(Lower *L, ParCtx *p, Block *body, const Node *par) {
  Node **def = L->fn->defs;
  unsigned char *inside = ARENA_ARRAY(L->a, unsigned char, L->fn->nvals);
  ir_inside(body, inside); // nested loops' indices and results vary too
  inside[p->idx] = 1;
  Dep d = map_dependence(def, inside, body, p->idx, p->acc, p->nacc, par->u.par.injective,
                         par->u.par.ninjective);
  if (d.kind == DEP_NONE) return;
  const Access *w = &p->acc[d.w], *r = &p->acc[d.other];
  const char *name = L->fn->vals[w->arr].hint;
  switch (d.kind) {
  case DEP_NOT_INJECTIVE:
    diag_error(w->loc, "write y[i], y[2*i + 1], y[i + k] (k the same in every iteration); "
               "other write patterns cannot be shown to give each iteration its own element; "
               "if yours does (y[perm[i]] with perm a permutation), say so with "
               "injective(y) on the pragma",
               "cannot show that the iterations write different elements of '%s'", name);
  case DEP_OTHER_INDEX:
    diag_note(w->loc, "'%s' is written here", name);
    diag_error(r->loc, "access the array with the same index expression everywhere in the "
               "loop, or split the loop in two",
               "iterations of the parallel loop may depend on each other: '%s' is %s at "
               "another index expression than the one it is written at (this version compares "
               "one index expression per array)", name, r->write ? "written again" : "read");
  case DEP_READ_BACK:
    diag_error(r->loc, "keep the value in a local variable, and write the element once "
               "at the end of the body", "reading '%s[...]' back after writing it in the "
               "same iteration is not supported here", name);
  case DEP_NONE: break;
  }
}

static int var_fields(Lower *L, Var *v, Val *out);

static Var *clause_var(Lower *L, const Clause *c, int j, Red *reds, int k) {
  for (int r = 0; r < k; r++)
    if (!strcmp(reds[r].var, c->vars[j]))
      diag_error(c->var_locs[j], "name each variable in one clause only",
                 "'%s' appears in two clauses", c->vars[j]);
  Var *v = var_find(L, c->vars[j]);
  if (!v || (v->kind != VAR_SCALAR && v->kind != VAR_STRUCT))
    diag_error(c->var_locs[j], "name a scalar or struct variable declared before the loop",
               "'%s' is not a scalar or struct variable", c->vars[j]);
  Val f0[64];
  int nf = var_fields(L, v, f0);
  for (int f = 0; f < nf; f++)
    if (!f0[f])
      diag_error(c->var_locs[j], "initialise the variable before the loop",
                 "'%s' has no value before the loop", c->vars[j]);
  if (v->kind == VAR_STRUCT) return v;
  if (!ty_is_float(v->type) && !ty_is_int(v->type))
    diag_error(c->var_locs[j], NULL, "'%s' has an unsupported type", c->vars[j]);
  return v;
}

static void setup_hist(Lower *L, const Clause *c, int j, RedOp op, const UserOp *u, Node *n,
                       ParCtx *ctx) {
  Var *v = var_find(L, c->vars[j]);
  if (!v || v->kind != VAR_ARRAY)
    diag_error(c->var_locs[j], "a histogram is an array parameter, e.g. hist(+: h[0:nbins])",
               "'%s' is not an array parameter", c->vars[j]);
  if (v->type->elem_const)
    diag_error(c->var_locs[j], NULL, "histogram '%s' is declared const", c->vars[j]);
  if (op == RED_USER && !u->commutative)
    diag_error(c->op_loc, "declare the operator with #pragma adsoac operator ... commutative",
               "operator '%s' is used in hist but is not declared commutative", u->name);
  if (op == RED_USER && u->type != v->type->elem)
    diag_error(c->op_loc, NULL, "operator '%s' does not work on the elements of '%s'", u->name,
               c->vars[j]);
  Hist *h = &n->u.par.hists[n->u.par.nhists++];
  *h = (Hist){.op = op, .arr = v->val, .user_fn = u ? u->name : NULL, .var = v->name};
  if (u) {
    Block *host = L->b.blk;
    h->lam = make_lambda(L, u);
    if (u->inverse) h->inv = make_inverse_lambda(L, u);
    L->b.blk = host;
  }
  h->lo = lower_expr_text(L, c->lo_text[j], c->lo_loc[j], false);
  h->len = lower_expr_text(L, c->len_text[j], c->len_loc[j], false);
  if (!ty_is_int(val_type(L->fn, h->lo)) || !ty_is_int(val_type(L->fn, h->len)))
    diag_error(c->lo_loc[j], NULL, "the section of a hist clause is [lo:len] with integer bounds");
  // a negative length is an empty section (every update skipped, as the guarded C loop
  // does): len * (len > 0), arithmetic that a checkpointed loop can recompute
  const Node *d = L->fn->defs[h->len];
  if (!d || d->kind != IR_CONST || d->u.cst.i < 0) {
    Type *lt = val_type(L->fn, h->len);
    Val pos = b_binop(&L->b, BIN_GT, h->len, b_const_i(&L->b, lt, 0));
    h->len = b_binop(&L->b, BIN_MUL, h->len, convert(L, pos, lt));
  }
  ctx->hist_user[ctx->nhists] = u;
  ctx->hists = n->u.par.hists;
  ctx->nhists = n->u.par.nhists;
}

// The fields of a clause variable's current value (one for a scalar).
static int var_fields(Lower *L, Var *v, Val *out) {
  if (v->kind != VAR_STRUCT) {
    out[0] = v->val;
    return 1;
  }
  int k = (int)(v - L->vars);
  for (int f = 0; f < v->type->nfields; f++) out[f] = L->vars[k + 1 + f].val;
  return v->type->nfields;
}

static Val *copy_vals(Lower *L, const Val *v, int n) {
  Val *p = ARENA_ARRAY(L->a, Val, n);
  memcpy(p, v, sizeof(Val) * (size_t)n);
  return p;
}

// A clause variable's running value in the body: a scalar of kind `kind`, or a struct whose
// field variables follow it.  Returns its index.
static int push_running(Lower *L, const char *name, Type *t, VarKind kind, const Val *vals,
                        const Val *neutral, RedOp op, const UserOp *u, Loc loc) {
  if (t->kind != TY_STRUCT)
    return var_push(L, (Var){name, t, kind, vals[0], loc, 0, op, neutral ? neutral[0] : 0, u});
  int k = struct_var_push(L, name, t, vals, loc);
  Var *v = &L->vars[k];
  v->red_op = op;
  v->red_user = u;
  v->red = kind;
  v->neutral_fields = neutral ? copy_vals(L, neutral, t->nfields) : NULL;
  return k;
}

// Sets up the clauses of a loop.  A reduction's variable becomes, in the body, its running
// contribution, starting at the operator's neutral element; a scan's variable its running
// value (starting at the exclusive prefix the loop provides) plus a hidden contribution.
static void setup_clauses(Lower *L, const Pragma *pr, Node *n, ParCtx *ctx, Block *host) {
  int total = 0;
  for (int i = 0; pr && i < pr->nclauses; i++) total += pr->clauses[i].nvars;
  n->u.par.reds = ARENA_ARRAY(L->a, Red, total + 1);
  n->u.par.scans = ARENA_ARRAY(L->a, Scan, total + 1);
  n->u.par.hists = ARENA_ARRAY(L->a, Hist, total + 1);
  ctx->hist_user = ARENA_ARRAY(L->a, const UserOp *, total + 1);
  Red *names = ARENA_ARRAY(L->a, Red, total + 1);
  int k = 0;
  for (int i = 0; pr && i < pr->nclauses; i++) {
    const Clause *c = &pr->clauses[i];
    const UserOp *u;
    RedOp op = clause_op(L, c->op, c->op_loc, &u);
    for (int j = 0; j < c->nvars; j++) {
      L->b.loc = c->var_locs[j];
      if (c->kind == CL_HIST) {
        Block *body = L->b.blk;
        L->b.blk = host; // lo and len are computed before the loop
        setup_hist(L, c, j, op, u, n, ctx);
        L->b.blk = body;
        continue;
      }
      Var *v = clause_var(L, c, j, names, k);
      names[k++] = (Red){.op = op, .var = v->name};
      if (u && u->type != v->type)
        diag_error(c->op_loc, NULL, "operator '%s' does not work on '%s'", u->name, v->name);
      if (!u && v->type->kind == TY_STRUCT)
        diag_error(c->op_loc, "declare an operator for the struct type", "'%s' on struct '%s'",
                   redop_name(op), v->name);
      Val init[64], ne[64];
      int nf = var_fields(L, v, init);
      Type *t = v->type;
      const char *name = v->name;
      Block *body_blk = L->b.blk;
      L->b.blk = host; // the neutral element is computed before the loop
      red_neutral(L, op, u, t, ne);
      L->b.blk = body_blk;
      Lambda *lam = u ? make_lambda(L, u) : NULL;
      if (c->kind == CL_REDUCE) {
        Red *r = &n->u.par.reds[n->u.par.nreds++];
        *r = (Red){.op = op, .nf = nf, .init = copy_vals(L, init, nf), .ne = copy_vals(L, ne, nf),
                   .lam = lam,
                   .inv = u && u->inverse ? make_inverse_lambda(L, u) : NULL,
                   .commutative = u && u->commutative, .user_fn = u ? u->name : NULL, .var = name};
        push_running(L, name, t, VAR_RED, ne, ne, op, u, c->var_locs[j]);
      } else {
        Scan *sc = &n->u.par.scans[n->u.par.nscans++];
        Val excl[64];
        for (int f = 0; f < nf; f++)
          excl[f] = fn_val(L->fn, nf > 1 ? t->ftypes[f] : t, nf > 1 ? arena_printf(L->a, "%s_%s", name, t->fnames[f]) : name);
        *sc = (Scan){op, nf, copy_vals(L, init, nf), copy_vals(L, excl, nf), NULL, 0, lam,
                     u ? u->name : NULL, name};
        int ci = push_running(L, arena_printf(L->a, "$c:%s", name), t, VAR_RED, ne, ne, op, u,
                              c->var_locs[j]);
        int si = push_running(L, name, t, VAR_SCAN, excl, NULL, op, u, c->var_locs[j]);
        L->vars[si].contrib = ci;
      }
    }
  }
}

// A sequential loop: every scalar variable of the enclosing scopes is first made a carried
// value; those the body leaves unchanged are then replaced by their initial value again.
static void lower_seq_loop(Lower *L, TSNode s, int stripmine) {
  Loc loc = node_loc(L, s);
  L->b.loc = loc;
  Canon c = {0};
  canon_init(L, s, &c);
  canon_cond(L, s, &c);
  canon_update(L, s, &c);
  int nv = L->nvars;
  Node *n = node_new(L->a, IR_LOOP, loc);
  n->u.loop.lo = c.lo;
  n->u.loop.hi = c.hi;
  n->u.loop.stripmine = stripmine;
  n->u.loop.idx = fn_val(L->fn, c.type, c.name);
  Val *init = ARENA_ARRAY(L->a, Val, nv + 1), *param = ARENA_ARRAY(L->a, Val, nv + 1);
  for (int i = L->var_floor; i < nv; i++) {
    Var *v = &L->vars[i];
    if ((v->kind != VAR_SCALAR && v->kind != VAR_RED) || !v->val) continue;
    init[i] = v->val;
    v->val = param[i] = fn_val(L->fn, v->type, v->kind == VAR_RED || v->name[0] == '$' ? NULL : v->name);
  }
  Block *outer = L->b.blk;
  n->u.loop.body = L->b.blk = block_new(L->a);
  var_push(L, (Var){c.name, c.type, VAR_INDEX, n->u.loop.idx, loc});
  if (L->par) L->par->nfwd = 0; // no forwarding of element values into or out of the loop
  lower_stmt(L, ts_field(s, "body"));
  L->b.blk = outer;
  L->nvars = nv;
  n->u.loop.init = ARENA_ARRAY(L->a, Val, nv + 1);
  n->u.loop.params = ARENA_ARRAY(L->a, Val, nv + 1);
  n->u.loop.outs = ARENA_ARRAY(L->a, Val, nv + 1);
  for (int i = L->var_floor; i < nv; i++) {
    Var *v = &L->vars[i];
    if (!param[i]) {
      if ((v->kind == VAR_SCALAR || v->kind == VAR_RED) && v->val)
        diag_error(v->loc, "initialise the variable before the loop",
                   "'%s' is assigned in a loop but has no value before it", v->name);
      continue;
    }
    if (v->val == param[i]) { // not carried
      ir_replace_uses(n->u.loop.body, param[i], init[i]);
      v->val = init[i];
      continue;
    }
    int k = n->u.loop.ncarry++;
    n->u.loop.init[k] = init[i];
    n->u.loop.params[k] = param[i];
    block_yield(L->a, n->u.loop.body, v->val);
    v->val = n->u.loop.outs[k] = fn_val(L->fn, v->type, v->kind == VAR_RED || v->name[0] == '$' ? NULL : v->name);
  }
  b_push(&L->b, n);
}

// After a loop: a clause variable (its fields) gets fresh values, the loop's results.
static Val *set_results(Lower *L, Var *v) {
  if (v->kind != VAR_STRUCT) {
    Val *o = ARENA_ARRAY(L->a, Val, 1);
    o[0] = v->val = fn_val(L->fn, v->type, v->name);
    return o;
  }
  int k = (int)(v - L->vars), nf = v->type->nfields;
  Val *o = ARENA_ARRAY(L->a, Val, nf);
  for (int f = 0; f < nf; f++)
    o[f] = L->vars[k + 1 + f].val = fn_val(L->fn, v->type->ftypes[f],
                                           arena_printf(L->a, "%s_%s", v->name, v->type->fnames[f]));
  return o;
}

// injective(y, ...): arrays of the function that the loop writes.
static void set_injective(Lower *L, const Pragma *pr, Node *n, ParCtx *ctx) {
  n->u.par.ninjective = pr->ninjective;
  n->u.par.injective = ARENA_ARRAY(L->a, Val, pr->ninjective + 1);
  for (int i = 0; i < pr->ninjective; i++) {
    Var *v = var_find(L, pr->injective[i]);
    bool written = false;
    for (int k = 0; v && k < ctx->nacc; k++) written |= ctx->acc[k].write && ctx->acc[k].arr == v->val;
    if (!v || v->kind != VAR_ARRAY || !written)
      diag_error(pr->inj_loc, "name arrays the loop writes", "'%s' in injective(...) is not an "
                 "array this loop writes", pr->injective[i]);
    n->u.par.injective[i] = v->val;
  }
}

void lower_for(Lower *L, TSNode s, const Pragma *pr) {
  Loc loc = node_loc(L, s);
  if (!pr || pr->kind == PR_STRIPMINE) {
    if (pr && L->par)
      diag_warn(loc, "strip-mine the sequential loops at the function's level (time steps)",
                "stripmine(%d) has no effect inside a parallel loop's body: its reverse saves "
                "no states there (it recomputes)", pr->stripmine);
    lower_seq_loop(L, s, pr ? pr->stripmine : 0);
    return;
  }
  L->b.loc = loc;
  int nv_outer = L->nvars;
  Canon c = {0};
  canon_init(L, s, &c);
  canon_cond(L, s, &c);
  canon_update(L, s, &c);

  Node *n = node_new(L->a, IR_PAR, loc);
  n->u.par.lo = c.lo;
  n->u.par.hi = c.hi;
  n->u.par.pragma = pr->text;
  n->u.par.idx = fn_val(L->fn, c.type, c.name);
  ParCtx ctx = {L->par, n->u.par.idx, 0};
  ctx.inline_base = L->inline_depth;
  ctx.pragma = pr->text;
  Block *outer = L->b.blk;
  n->u.par.body = L->b.blk = block_new(L->a);
  int nv_before_reds = L->nvars;
  setup_clauses(L, pr, n, &ctx, outer);
  ctx.var_base = L->nvars; // outer variables and the clauses' running values
  var_push(L, (Var){c.name, c.type, VAR_INDEX, n->u.par.idx, loc});
  L->par = &ctx;
  lower_stmt(L, ts_field(s, "body"));
  L->par = ctx.up;
  // the body yields each reduction's and each scan's contribution (all fields of a struct)
  int slot = 0;
  for (int i = nv_before_reds; i < ctx.var_base; i++) {
    Var *v = &L->vars[i];
    bool contrib = v->kind == VAR_RED || (v->kind == VAR_STRUCT && v->red == VAR_RED);
    if (!contrib) continue;
    Val vals[64];
    int nf = var_fields(L, v, vals);
    for (int f = 0; f < nf; f++) block_yield(L->a, n->u.par.body, vals[f]);
    if (v->name[0] == '$') {
      for (int k = 0; k < n->u.par.nscans; k++)
        if (!strcmp(n->u.par.scans[k].var, v->name + 3)) n->u.par.scans[k].slot = slot;
    } else {
      for (int k = 0; k < n->u.par.nreds; k++)
        if (!strcmp(n->u.par.reds[k].var, v->name)) n->u.par.reds[k].slot = slot;
    }
    slot += nf;
  }
  L->b.blk = outer;
  set_injective(L, pr, n, &ctx);
  check_map_accesses(L, &ctx, n->u.par.body, n);
  b_push(&L->b, n);

  // after the loop, each reduction or scan variable holds the total
  L->nvars = nv_outer;
  for (int r = 0; r < n->u.par.nreds; r++) {
    Red *red = &n->u.par.reds[r];
    red->out = set_results(L, var_find(L, red->var));
  }
  for (int k = 0; k < n->u.par.nscans; k++) {
    Scan *sc = &n->u.par.scans[k];
    sc->out = set_results(L, var_find(L, sc->var));
  }
}
