// parser/lower_loop.c: canonical for loops (language.md §3) -> IR_PAR.
//
//   for_statement: 'for' '(' initializer ';' condition ';' update ')' body
//   canonical:     for (T i = lo; i < hi; i++)   (also <=, ++i, i += 1, i = i + 1)
#include <math.h>
#include <stdlib.h>
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

// ---- the loop bound: `i < x` as C compares (its usual arithmetic conversions) ----
//
// The loop runs the indices lo, lo+1, ... while (CT)i < (CT)x, CT the common type of the
// index and the bound; the IR wants the first index hi where that fails (as the index type),
// computed before the loop without branches (a checkpointed loop recomputes it, and arithmetic
// is what it can recompute) and without overflow.

typedef struct {
  int bits;
  bool sign;
} IntInfo;

// An integer type's width and signedness from its C name (LP64; plain char signed).
static IntInfo int_info(const Type *t) {
  if (t->kind == TY_BOOL) return (IntInfo){32, true}; // comparison results are C ints
  const char *s = t->name;
  if (!strcmp(s, "_Bool") || !strcmp(s, "bool")) return (IntInfo){1, false};
  if (!strcmp(s, "size_t") || !strcmp(s, "uintptr_t")) return (IntInfo){64, false};
  if (!strcmp(s, "ssize_t") || !strcmp(s, "ptrdiff_t") || !strcmp(s, "intptr_t"))
    return (IntInfo){64, true};
  if (!strncmp(s, "int", 3) && s[3] >= '1' && s[3] <= '9') return (IntInfo){atoi(s + 3), true};
  if (!strncmp(s, "uint", 4) && s[4] >= '1' && s[4] <= '9') return (IntInfo){atoi(s + 4), false};
  int bits = strstr(s, "char") ? 8 : strstr(s, "short") ? 16 : strstr(s, "long") ? 64 : 32;
  return (IntInfo){bits, !strstr(s, "unsigned")};
}

static IntInfo int_promote(IntInfo a) {
  return a.bits < 32 ? (IntInfo){32, true} : a;
}

// C's usual arithmetic conversions of two promoted integer types.
static IntInfo int_common(IntInfo a, IntInfo b) {
  if (a.sign == b.sign) return (IntInfo){a.bits > b.bits ? a.bits : b.bits, a.sign};
  IntInfo u = a.sign ? b : a, sg = a.sign ? a : b;
  return u.bits >= sg.bits ? u : sg;
}

static bool int_same(IntInfo a, IntInfo b) {
  return a.bits == b.bits && a.sign == b.sign;
}

// A type with that width and signedness: one of the operands' when it has it.
static Type *int_type_of(Lower *L, IntInfo k, Type *x, Type *y) {
  if (int_same(int_info(x), k) && x->kind == TY_INT) return x;
  if (int_same(int_info(y), k) && y->kind == TY_INT) return y;
  if (k.sign) return k.bits == 64 ? &ty_long : &ty_int;
  Type *t = ARENA_NEW(L->a, Type);
  *t = (Type){TY_INT, k.bits == 64 ? "unsigned long" : "unsigned"};
  return t;
}

static long long int_min(IntInfo k) {
  return k.sign ? -(long long)((1ULL << (k.bits - 1)) - 1) - 1 : 0;
}

static unsigned long long int_max(IntInfo k) {
  return k.sign ? (1ULL << (k.bits - 1)) - 1 : k.bits == 64 ? ~0ULL : (1ULL << k.bits) - 1;
}

// c ? a : b for integers of type t, without a branch: a * c + b * !c (no overflow: one
// product is 0).
static Val int_pick(Lower *L, Val c, Val a, Val b, Type *t) {
  Val ct = convert(L, c, t), nc = convert(L, b_unop(&L->b, UN_NOT, c), t);
  return b_binop(&L->b, BIN_ADD, b_binop(&L->b, BIN_MUL, a, ct), b_binop(&L->b, BIN_MUL, b, nc));
}

// The minimum of an integer type as a value (-max - 1 for 64 bits: C has no literal for it).
static Val int_min_val(Lower *L, Type *it, IntInfo k) {
  if (!k.sign || k.bits < 64) return b_const_i(&L->b, it, int_min(k));
  Val m = b_unop(&L->b, UN_NEG, b_const_i(&L->b, it, (long long)int_max(k)));
  return b_binop(&L->b, BIN_SUB, m, b_const_i(&L->b, it, 1));
}

// The bound of `i < x` (le: `i <= x`) for a floating x: the first index for which C's
// comparison (FT)i < x fails (the index converted to x's type, which rounds where the index
// type has more bits than FT's significand).  The indices i with (FT)i < x are those below
// the midpoint mid of x's predecessor p in FT and x (ties as the conversion rounds them), so
// the bound is mid + ((FT)mid < x) with mid = (T)p + (T)((x - p) / 2); where FT holds every
// integer near x this is ceil(x).  For <=, (FT)i <= x fails from the midpoint of x and its
// successor s on: mid + ((FT)mid <= x) with mid = (T)x + (T)((s - x) / 2).  NaN fails every
// comparison: no iteration.  x is first clamped to [min, 2^bits) of the index type in floating
// point (fmax(NaN, lo) is lo; for <=, below 2^bits); p (s) is x -(+) |x| * 2^-mant where that
// goes toward zero and |x| * 1.5 * 2^-mant away from it, which rounds to the neighbour
// exactly.  A loop that would run past the index type's maximum overflows its index in C
// (undefined): its bound is the maximum.
static Val float_bound(Lower *L, Val x, Type *it, bool le) {
  Builder *b = &L->b;
  Type *ft = val_type(L->fn, x);
  IntInfo k = int_info(it);
  bool f32 = ft->kind == TY_FLOAT;
  int mant = f32 ? 24 : 53;
  double top = ldexp(1.0, k.bits - k.sign); // the power of two above the index type
  if (le) top = f32 ? (double)nextafterf((float)top, 0.0f) : nextafter(top, 0.0);
  Val lo = b_const_f(b, ft, (double)int_min(k)), hi = b_const_f(b, ft, top);
  Val xc = b_call(b, M_FMIN, b_call(b, M_FMAX, x, lo), hi);
  Val zero = b_const_f(b, ft, 0.0), half = b_const_f(b, ft, 0.5);
  Val away = b_const_f(b, ft, 1.5 * ldexp(1.0, -mant)), diff = b_const_f(b, ft, 0.5 * ldexp(1.0, -mant));
  // the step's factor: away from zero (1.5 * 2^-mant) unless it goes toward zero (2^-mant)
  Val toward = b_cast(b, ft, b_binop(b, le ? BIN_LT : BIN_GT, xc, zero));
  Val step = b_binop(b, BIN_MUL, b_call(b, M_FABS, xc, 0),
                     b_binop(b, BIN_SUB, away, b_binop(b, BIN_MUL, diff, toward)));
  Val nb = le ? b_binop(b, BIN_ADD, xc, step) : b_call(b, M_FMAX, b_binop(b, BIN_SUB, xc, step), lo);
  Val base = b_cast(b, it, le ? xc : nb); // the lower of the two neighbours
  Val gap = b_binop(b, BIN_MUL, le ? b_binop(b, BIN_SUB, nb, xc) : b_binop(b, BIN_SUB, xc, nb), half);
  Val mid = b_binop(b, BIN_ADD, base, b_cast(b, it, gap));
  Val in = b_binop(b, le ? BIN_LE : BIN_LT, b_cast(b, ft, mid), xc);
  Val below = b_binop(b, BIN_LT, mid, b_const_i(b, it, (long long)int_max(k)));
  Val h = b_binop(b, BIN_ADD, mid, convert(L, b_binop(b, BIN_LAND, in, below), it));
  if (!le) return h;
  // no index satisfies i <= x where x is below the index type (or NaN)
  return int_pick(L, b_binop(b, BIN_GE, x, lo), h, int_min_val(L, it, k), it);
}

// The bound of `i < x` (`i <= x`) for an integer x whose type is not the index type's.
static Val int_bound(Lower *L, Val x, Val lo, Type *it, bool le) {
  Type *xt = val_type(L->fn, x);
  IntInfo ti = int_info(it), ci = int_common(int_promote(ti), int_promote(int_info(xt)));
  if (int_same(ci, ti)) { // C compares in the index type itself
    Val h = convert(L, x, it);
    return le ? b_binop(&L->b, BIN_ADD, h, b_const_i(&L->b, it, 1)) : h;
  }
  Type *ct = int_type_of(L, ci, it, xt);
  Val xc = convert(L, x, ct);
  Val tmax = b_const_i(&L->b, ct, (long long)int_max(ti));
  if (!ti.sign || ci.sign) { // (CT)i == i: the index runs up to x, clamped to its type
    if (le) // i <= x is i < x + 1 (x + 1 taken only below the index type's maximum)
      xc = b_binop(&L->b, BIN_ADD, xc, convert(L, b_binop(&L->b, BIN_LT, xc, tmax), ct));
    Val tmin = int_min_val(L, ct, ti);
    Val up = b_binop(&L->b, BIN_LT, xc, tmax);
    Val h = int_pick(L, up, xc, tmax, ct);
    h = int_pick(L, b_binop(&L->b, BIN_GT, h, tmin), h, tmin, ct);
    return convert(L, h, it);
  }
  // a signed index against an unsigned common type: a negative index compares as i + 2^N,
  // so from a negative lo the loop runs while i + 2^N < x (to hi = x - 2^N, the index type's
  // value of x), or not at all when x <= (CT)lo; from lo >= 0 up to x, clamped to the maximum
  if (le) { // i <= x is i < x + 1, x + 1 taken below the maximum of CT (x + 1 > x)
    Val one = b_const_i(&L->b, ct, 1);
    Val grows = b_binop(&L->b, BIN_GT, b_binop(&L->b, BIN_ADD, xc, one), xc);
    xc = b_binop(&L->b, BIN_ADD, xc, convert(L, grows, ct));
  }
  Val wrapped = convert(L, xc, it); // x - 2^N where it matters: x > (CT)lo > 2^(N-1)
  Val from_neg = int_pick(L, b_binop(&L->b, BIN_GT, xc, convert(L, lo, ct)), wrapped, lo, it);
  Val below = b_binop(&L->b, BIN_LT, xc, tmax);
  Val from_pos = convert(L, int_pick(L, below, xc, tmax, ct), it);
  Val neg = b_binop(&L->b, BIN_LT, lo, b_const_i(&L->b, it, 0));
  return int_pick(L, neg, from_neg, from_pos, it);
}

static void canon_cond(Lower *L, TSNode s, Canon *c) {
  TSNode cond = ts_field(s, "condition");
  const char *op = ts_is(cond, "binary_expression") ? node_text(L, ts_field(cond, "operator")) : "";
  if ((strcmp(op, "<") && strcmp(op, "<=")) || !is_var(L, ts_field(cond, "left"), c->name))
    diag_error(node_loc(L, ts_node_is_null(cond) ? s : cond), canon_hint,
               "loop condition must be '%s < hi' or '%s <= hi'", c->name, c->name);
  Val x = lower_expr(L, ts_field(cond, "right"));
  Type *xt = val_type(L->fn, x);
  L->b.loc = node_loc(L, cond);
  bool le = !strcmp(op, "<=");
  if (ty_is_float(xt))
    c->hi = float_bound(L, x, c->type, le);
  else if (ty_is_int(xt))
    c->hi = int_bound(L, x, c->lo, c->type, le);
  else
    c->hi = convert(L, x, c->type); // (an error)
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

// A scan's contribution may not depend on a scan's running value (acc += x[i] * acc, or
// through a local or an element written from it): that is a recurrence, not a scan.  Nor on
// another scan's of the same loop (b += a * x[i] with scan(+: a)), which this version would
// compute in one pass: refused too.
static void check_scan_contributions(Lower *L, const Pragma *pr, const Node *n) {
  for (int j = 0; j < n->u.par.nscans; j++) {
    const Scan *src = &n->u.par.scans[j];
    unsigned char *t = ARENA_ARRAY(L->a, unsigned char, L->fn->nvals);
    for (int f = 0; f < src->nf; f++) t[src->excl[f]] = 1;
    ir_taint(n->u.par.body, t);
    for (int k = 0; k < n->u.par.nscans; k++) {
      const Scan *sc = &n->u.par.scans[k];
      for (int f = 0; f < sc->nf; f++) {
        Val y = n->u.par.body->yields[sc->slot + f];
        if (!y || !t[y]) continue;
        const Node *d = L->fn->defs[y];
        if (j == k)
          diag_error(d ? d->loc : pr->loc, "a scan adds values that do not depend on it: write "
                     "the recurrence as a sequential loop, or as a scan of a declared operator "
                     "(an affine map, like the Lin operator of language.md §4)",
                     "the value added to scan variable '%s' depends on its running value", sc->var);
        diag_error(d ? d->loc : pr->loc, arena_printf(L->a, "split the loop in two: the first "
                   "computes the scan of '%s' into an array, the second scans with its elements",
                   src->var), "the value added to scan variable '%s' depends on the running value of scan "
                   "variable '%s' in the same loop (not supported yet)", sc->var, src->var);
      }
    }
  }
}

// The map promise (language.md §3), checked by map_dependence (analysis/depend.c); a
// dependence is an error at the access that shows it, with a note at the other one.
static void check_map_accesses(Lower *L, ParCtx *p, Block *body, const Node *par) {
  Node **def = L->fn->defs;
  unsigned char *inside = ARENA_ARRAY(L->a, unsigned char, L->fn->nvals);
  ir_inside(body, inside); // nested loops' indices and results vary too
  inside[p->idx] = 1;
  for (int k = 0; k < par->u.par.nscans; k++) // (so does a scan's exclusive value)
    for (int f = 0; f < par->u.par.scans[k].nf; f++) inside[par->u.par.scans[k].excl[f]] = 1;
  IndexLoop lp;
  index_loop(&lp, L->a, L->fn, def, inside, body, p->idx, par->u.par.lo, par->u.par.hi);
  Dep d = map_dependence(&lp, body, p->acc, p->nacc, par->u.par.injective,
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
  case DEP_ACROSS: {
    diag_note(w->loc, "'%s' is written here", name);
    const char *i = L->fn->vals[p->idx].hint ? L->fn->vals[p->idx].hint : "i";
    const char *how = d.ov.meet ? arena_printf(L->a, "iterations %s and %s + %lld touch the "
                                               "same element", i, i, d.ov.dist)
                                : "the dependence test cannot show that they never do";
    if (d.ov.meet)
      diag_error(r->loc, "split the loop in two, or write the new values to another array",
                 "iterations of the parallel loop depend on each other: this %s of '%s' "
                 "reaches an element that another iteration writes at %u:%u (%s)",
                 r->write ? "write" : "read", name, w->loc.line, w->loc.col, how);
    diag_error(r->loc, arena_printf(L->a, "if no element of '%s' that one iteration reads or "
               "writes is written by another, say so with injective(%s) on the pragma; or "
               "split the loop in two", name, name),
               "iterations of the parallel loop may depend on each other: this %s of '%s' may "
               "reach an element that another iteration writes at %u:%u (%s)",
               r->write ? "write" : "read", name, w->loc.line, w->loc.col, how);
  }
  case DEP_READ_BACK:
    if (index_same(def, w->idx, r->idx))
      diag_error(r->loc, "keep the value in a local variable, and write the element once "
                 "at the end of the body", "reading '%s[...]' back after writing it in the "
                 "same iteration is not supported here", name);
    diag_note(w->loc, "'%s' is written here", name);
    diag_error(r->loc, "keep the value in a local variable, and write the element once "
               "at the end of the body; or read it before the write",
               "reading '%s[...]' after a write in the same iteration that may reach the same "
               "element (at %u:%u) is not supported here", name, w->loc.line, w->loc.col);
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
  // no forwarding of element values into the loop (a later iteration sees the writes of an
  // earlier one); after it, only of the arrays it does not write
  ParCtx *p = L->par;
  int nfwd = p ? p->nfwd : 0;
  FwdEntry *before = NULL;
  if (p) {
    before = ARENA_ARRAY(L->a, FwdEntry, nfwd + 1);
    if (nfwd) memcpy(before, p->fwd, sizeof(FwdEntry) * (size_t)nfwd);
    for (int i = 0; i < nfwd; i++) // read inside: not the value before the loop
      fwd_lose(L, p, p->fwd[i].arr);
    p->nfwd = 0;
  }
  L->stmt(L, ts_field(s, "body"));
  if (p) {
    p->nfwd = 0;
    for (int i = 0; i < nfwd; i++)
      if (ir_writes(n->u.loop.body, before[i].arr)) fwd_lose(L, p, before[i].arr);
      else fwd_push(L, before[i]);
    for (int i = 0; i < p->nacc; i++)
      if (p->acc[i].write && ir_writes(n->u.loop.body, p->acc[i].arr)) fwd_lose(L, p, p->acc[i].arr);
  }
  L->b.blk = outer;
  var_pop(L, nv);
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

typedef struct {
  int h, count;
  bool renumber;
} HistUpdates;

static WalkNext hist_update(Node *n, void *ctx) {
  HistUpdates *u = ctx;
  if (n->kind == IR_UPDATE) {
    u->count += n->u.mem.hist == u->h;
    if (u->renumber && n->u.mem.hist > u->h) n->u.mem.hist--;
  }
  return n->kind == IR_PAR ? WALK_SKIP : WALK_INTO;
}

// How many IR_UPDATEs of b (outside nested parallel loops, whose updates are their own
// clauses') update hist clause h; with renumber, those of clauses after h are renumbered
// as if h were gone.
static int hist_updates(Block *b, int h, bool renumber) {
  HistUpdates u = {h, 0, renumber};
  ir_walk(b, &(Walker){.pre = hist_update, .ctx = &u});
  return u.count;
}

// A hist clause whose loop never updates its histogram: the loop does nothing to the array
// (it is not written, language.md §2), so the clause is dropped with a warning and the loop is
// what remains (a map, or its other clauses).
static void drop_unused_hists(Lower *L, const Pragma *pr, Node *n) {
  int k = 0;
  for (int i = 0; pr && i < pr->nclauses; i++) {
    const Clause *c = &pr->clauses[i];
    if (c->kind != CL_HIST) continue;
    for (int j = 0; j < c->nvars; j++) {
      if (hist_updates(n->u.par.body, k, false)) {
        k++;
        continue;
      }
      diag_warn(c->var_locs[j], "update the histogram in the loop (h[k] += e), or remove the "
                "clause", "the loop never updates histogram '%s': hist(%s: ...) has no effect, "
                "and '%s' is not written", c->vars[j], c->op, c->vars[j]);
      hist_updates(n->u.par.body, k, true);
      for (int m = k + 1; m < n->u.par.nhists; m++) n->u.par.hists[m - 1] = n->u.par.hists[m];
      n->u.par.nhists--;
    }
  }
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
  ParCtx ctx = {L->par, n->u.par.idx, 0, c.lo, c.hi};
  ctx.inline_base = L->inline_depth;
  ctx.pragma = pr->text;
  Block *outer = L->b.blk;
  n->u.par.body = L->b.blk = block_new(L->a);
  int nv_before_reds = L->nvars;
  setup_clauses(L, pr, n, &ctx, outer);
  ctx.var_base = L->nvars; // outer variables and the clauses' running values
  var_push(L, (Var){c.name, c.type, VAR_INDEX, n->u.par.idx, loc});
  L->par = &ctx;
  L->stmt(L, ts_field(s, "body"));
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
  check_scan_contributions(L, pr, n);
  drop_unused_hists(L, pr, n);
  set_injective(L, pr, n, &ctx);
  check_map_accesses(L, &ctx, n->u.par.body, n);
  b_push(&L->b, n);

  // after the loop, each reduction or scan variable holds the total
  var_pop(L, nv_outer);
  for (int r = 0; r < n->u.par.nreds; r++) {
    Red *red = &n->u.par.reds[r];
    red->out = set_results(L, var_find(L, red->var));
  }
  for (int k = 0; k < n->u.par.nscans; k++) {
    Scan *sc = &n->u.par.scans[k];
    sc->out = set_results(L, var_find(L, sc->var));
  }
}
