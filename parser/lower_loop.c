// parser/lower_loop.c: canonical for loops (language.md §3) -> IR_PAR.
//
//   for_statement: 'for' '(' initializer ';' condition ';' update ')' body
//   canonical:     for (T i = lo; i < hi; i++)   (also <=, ++i, i += 1, i = i + 1)
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "macro.h"
#include "../analysis/analysis.h"

// A counted loop (language.md §3): for (T i = lo; i < hi; i += s) and its other forms.  The
// IR's loops run an index over [lo, hi) by one; a loop with another step, or counting down,
// runs k over [0, count) and computes i = start + k*step (start - k*step) in its body.
typedef struct {
  const char *name;
  Type *type;
  Var *outer; // the index variable when declared before the loop: after it, it holds the
              // first index that failed the condition (or the one at a break), as in C
  bool plain; // i runs lo, lo+1, ..., hi-1: the IR loop's own index
  Val lo, hi; // plain: [lo, hi)
  Val start, step, count; // otherwise (count: long; step > 0 in the counting type)
  bool down;
  Loc loc;
} Canon;

static const char *canon_hint = "write the loop as for (T i = lo; i < hi; i += s) (or counting "
                                "down: i > lo; i -= s) with an integer index that the body does "
                                "not assign";

static bool is_var(Lower *L, TSNode n, const char *name) {
  while (ts_is(n, "parenthesized_expression")) n = ts_node_named_child(n, 0);
  return ts_is(n, "identifier") && !strcmp(node_text(L, n), name);
}

static bool is_one(Lower *L, TSNode n) {
  return ts_is(n, "number_literal") && !strcmp(node_text(L, n), "1");
}

// ---- the loop bound: `i < x` as C compares (its usual arithmetic conversions) ----
//
// The loop runs the indices lo, lo+1, ... while (CT)i < (CT)x, CT the common type of the
// index and the bound; the IR wants the first index hi where that fails (as the index type),
// computed before the loop without branches (a checkpointed loop recomputes it, and arithmetic
// is what it can recompute) and without overflow.

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
  if (int_same(ty_int_info(x), k) && x->kind == TY_INT) return x;
  if (int_same(ty_int_info(y), k) && y->kind == TY_INT) return y;
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
  IntInfo k = ty_int_info(it);
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
  IntInfo ti = ty_int_info(it), ci = int_common(int_promote(ti), int_promote(ty_int_info(xt)));
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

// ---- the shape of a counted loop, read before anything is lowered ----

typedef struct {
  const char *name;  // the index
  TSNode decl_type;  // for (T i = lo; ...): T (null when the index is declared before)
  TSNode lo;         // the initial value (null: the index's value before the loop)
  TSNode bound;      // x of i < x (i <= x, i > x, i >= x, i != x)
  const char *op;    // the comparison, with the index on the left
  TSNode step;       // e of i += e, i -= e, i = i + e, ... (null: one)
  int sign;          // +1: the index grows by step, -1: it shrinks
  TSNode at;         // where a diagnostic points
} Shape;

static TSNode unparen(TSNode n) {
  while (ts_is(n, "parenthesized_expression")) n = ts_node_named_child(n, 0);
  return n;
}

// The comparison `left op right` with the index on the left (i < n, also n > i).
static bool shape_cond(Lower *L, TSNode cond, Shape *h) {
  static const char *const ops[][2] = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="},
                                        {"!=", "!="}};
  cond = unparen(cond);
  if (!ts_is(cond, "binary_expression")) return false;
  const char *op = node_text(L, ts_field(cond, "operator"));
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    if (strcmp(op, ops[k][0])) continue;
    if (is_var(L, ts_field(cond, "left"), h->name)) {
      h->op = ops[k][0], h->bound = ts_field(cond, "right");
      return true;
    }
    if (is_var(L, ts_field(cond, "right"), h->name)) {
      h->op = ops[k][1], h->bound = ts_field(cond, "left");
      return true;
    }
  }
  return false;
}

// The update: i++, ++i, i--, --i, i += e, i -= e, i = i + e, i = e + i, i = i - e.
static bool shape_update(Lower *L, TSNode u, Shape *h) {
  u = unparen(u);
  h->step = (TSNode){0};
  if (ts_is(u, "update_expression")) {
    if (!is_var(L, ts_field(u, "argument"), h->name)) return false;
    h->sign = !strcmp(node_text(L, ts_field(u, "operator")), "++") ? 1 : -1;
    return true;
  }
  if (!ts_is(u, "assignment_expression") || !is_var(L, ts_field(u, "left"), h->name)) return false;
  const char *op = node_text(L, ts_field(u, "operator"));
  TSNode r = ts_field(u, "right");
  if (!strcmp(op, "+=") || !strcmp(op, "-=")) {
    h->step = r, h->sign = op[0] == '+' ? 1 : -1;
    return true;
  }
  r = unparen(r);
  if (strcmp(op, "=") || !ts_is(r, "binary_expression")) return false;
  const char *bop = node_text(L, ts_field(r, "operator"));
  if (!strcmp(bop, "+") && is_var(L, ts_field(r, "left"), h->name))
    h->step = ts_field(r, "right"), h->sign = 1;
  else if (!strcmp(bop, "+") && is_var(L, ts_field(r, "right"), h->name))
    h->step = ts_field(r, "left"), h->sign = 1;
  else if (!strcmp(bop, "-") && is_var(L, ts_field(r, "left"), h->name))
    h->step = ts_field(r, "right"), h->sign = -1;
  else
    return false;
  return true;
}

// Does the subtree n mention the identifier name?
typedef struct {
  Lower *L;
  const char *name;
  bool found;
} Mention;

static bool mention_of(void *ctx, TSNode n, int depth) {
  Mention *m = ctx;
  (void)depth;
  if (ts_is(n, "identifier") && !strcmp(node_text(m->L, n), m->name)) m->found = true;
  return !m->found;
}

static bool mentions(Lower *L, TSNode n, const char *name) {
  Mention m = {L, name, false};
  if (!ts_node_is_null(n)) ts_walk(n, mention_of, &m);
  return m.found;
}

// Is the for statement s a counted loop (OpenMP's canonical form)?  Fills h; nothing is
// lowered.  why: what is missing, for a diagnostic.
static bool loop_shape(Lower *L, TSNode s, Shape *h, const char **why, TSNode *where) {
  *h = (Shape){0};
  TSNode init = ts_field(s, "initializer"), cond = ts_field(s, "condition");
  *where = s;
  if (ts_is(init, "declaration")) {
    TSNode d = ts_field(init, "declarator");
    *where = init;
    *why = "loop must declare exactly one index";
    if (ts_node_named_child_count(init) != 2 || !ts_is(d, "init_declarator")) return false;
    if (!ts_is(ts_field(d, "declarator"), "identifier")) return false;
    h->decl_type = ts_field(init, "type");
    h->name = node_text(L, ts_field(d, "declarator"));
    h->lo = ts_field(d, "value");
  } else if (ts_is(init, "assignment_expression")) {
    *where = init;
    *why = "loop has no index initialiser";
    if (strcmp(node_text(L, ts_field(init, "operator")), "=") ||
        !ts_is(ts_field(init, "left"), "identifier"))
      return false;
    h->name = node_text(L, ts_field(init, "left"));
    h->lo = ts_field(init, "right");
  } else if (ts_node_is_null(init)) { // for (; i < n; i++): the index as it is
    TSNode c = unparen(cond);
    *why = "loop has no index initialiser";
    if (!ts_is(c, "binary_expression")) return false;
    TSNode l = unparen(ts_field(c, "left")), r = unparen(ts_field(c, "right"));
    if (ts_is(l, "identifier")) h->name = node_text(L, l);
    else if (ts_is(r, "identifier")) h->name = node_text(L, r);
    else return false;
  } else {
    *where = init;
    *why = "loop has no index initialiser";
    return false;
  }
  *why = arena_printf(L->a, "loop condition must compare '%s' with a bound ('%s < hi', "
                      "'%s >= lo', ...)", h->name, h->name, h->name);
  *where = ts_node_is_null(cond) ? s : cond;
  if (ts_node_is_null(cond) || !shape_cond(L, cond, h) || mentions(L, h->bound, h->name))
    return false;
  TSNode u = ts_field(s, "update");
  *why = arena_printf(L->a, "loop must step its index by a fixed amount ('%s++', '%s += s', "
                      "'%s--')", h->name, h->name, h->name);
  *where = ts_node_is_null(u) ? s : u;
  if (ts_node_is_null(u) || !shape_update(L, u, h) || mentions(L, h->step, h->name)) return false;
  bool up = h->op[0] == '<';
  if (!strcmp(h->op, "!=")) {
    *why = arena_printf(L->a, "a loop tested with '!=' must step by one ('%s++' or '%s--')",
                        h->name, h->name);
    if (!ts_node_is_null(h->step) && !is_one(L, unparen(h->step))) return false;
    up = h->sign > 0;
    h->op = up ? "<" : ">";
  }
  *why = arena_printf(L->a, "the loop's step goes away from its bound ('%s' with '%s %s ...')",
                      node_text(L, u), h->name, h->op);
  if (ts_node_is_null(h->step) || ts_is(unparen(h->step), "number_literal"))
    if ((h->sign > 0) != up) return false;
  return true;
}

// ---- the loop's index sequence, lowered before the loop ----

// The type the iterations are counted in: long for an index of at most 32 bits (exact), else
// unsigned long (the differences of two 64-bit indices, modulo 2^64).
static Type *count_type(Lower *L, Type *it) {
  IntInfo k = ty_int_info(it);
  return k.bits <= 32 ? &ty_long : int_type_of(L, (IntInfo){64, false}, &ty_long, &ty_long);
}

// i = start + k*step (down: start - k*step) as the index type, for k (long) in [0, count].
static Val canon_index(Lower *L, const Canon *c, Val k) {
  Type *ct = count_type(L, c->type);
  Val off = b_binop(&L->b, BIN_MUL, convert(L, k, ct), c->step);
  Val i = b_binop(&L->b, c->down ? BIN_SUB : BIN_ADD, convert(L, c->start, ct), off);
  return convert(L, i, c->type);
}

// The number of iterations of `start, start ± step, ...` before the bound h (up: i < h; down:
// i > h, or with inclusive i >= h), as long: with d = |h - start|, (d - 1) / step + 1 where
// d > 0 (inclusive: d / step + 1 where d >= 0), else 0.
static Val canon_count(Lower *L, Canon *c, Val h, bool inclusive) {
  Type *ct = count_type(L, c->type);
  Val a = c->down ? h : c->start, z = c->down ? c->start : h;
  Val pos = b_binop(&L->b, inclusive ? BIN_LE : BIN_LT, a, z); // (in the index type)
  Val d = b_binop(&L->b, BIN_SUB, convert(L, z, ct), convert(L, a, ct));
  Val one = b_const_i(&L->b, ct, 1);
  if (!inclusive) d = b_binop(&L->b, BIN_SUB, d, one);
  Val n = b_binop(&L->b, BIN_ADD, b_binop(&L->b, BIN_DIV, d, c->step), one);
  return convert(L, b_binop(&L->b, BIN_MUL, n, convert(L, pos, ct)), &ty_long);
}

// Lowers the shape h of for statement s into c (in the block before the loop).
static void canon_lower(Lower *L, TSNode s, const Shape *h, Canon *c) {
  TSNode cond = ts_field(s, "condition");
  c->name = h->name;
  c->loc = node_loc(L, s);
  if (!ts_node_is_null(h->decl_type)) {
    c->type = lower_type(L, h->decl_type);
  } else {
    Var *v = var_find(L, h->name);
    if (!v || v->kind != VAR_SCALAR)
      diag_error(node_loc(L, ts_field(s, "initializer")), canon_hint, "unknown loop index '%s'",
                 h->name);
    c->type = v->type;
    c->outer = v;
    if (ts_node_is_null(h->lo) && !v->val)
      diag_error(node_loc(L, s), NULL, "'%s' is used before it is assigned", h->name);
  }
  if (!ty_is_int(c->type))
    diag_error(node_loc(L, s), canon_hint, "loop index '%s' is not an integer", c->name);
  c->start = convert(L, ts_node_is_null(h->lo) ? c->outer->val : lower_expr(L, h->lo), c->type);
  c->lo = c->start;
  Val x = lower_expr(L, h->bound);
  Type *xt = val_type(L->fn, x);
  L->b.loc = node_loc(L, cond);
  bool up = h->op[0] == '<', le = !strcmp(h->op, "<=") || !strcmp(h->op, ">=");
  c->down = !up;
  bool unit = ts_node_is_null(h->step) || is_one(L, unparen(h->step));
  if (!up || !unit) {
    Type *ct = count_type(L, c->type);
    if (unit) {
      c->step = b_const_i(&L->b, ct, 1);
    } else {
      Val st = lower_expr(L, h->step);
      if (!ty_is_int(val_type(L->fn, st)))
        diag_error(node_loc(L, h->step), canon_hint, "the step of '%s' is not an integer", c->name);
      if ((h->sign > 0) != up) st = b_unop(&L->b, UN_NEG, st); // i += -2 counting down
      c->step = convert(L, st, ct);
    }
  }
  if (up) {
    Val hi = !ty_is_int(xt) && !ty_is_float(xt) ? convert(L, x, c->type) // (an error)
             : ty_is_float(xt) ? float_bound(L, x, c->type, le)
                               : int_bound(L, x, c->start, c->type, le);
    if (unit) {
      c->plain = true;
      c->hi = hi;
      return;
    }
    c->count = canon_count(L, c, hi, false);
    return;
  }
  // counting down: i > x (i >= x) compared in the index type
  IntInfo ti = ty_int_info(c->type);
  if (!ty_is_int(xt) ||
      !int_same(int_common(int_promote(ti), int_promote(ty_int_info(xt))), int_promote(ti)))
    diag_error(node_loc(L, h->bound), "compare the index with a bound of its own type",
               "a loop counting down compares '%s' with a bound of another type", c->name);
  if (le && !ti.sign) {
    const Node *xd = L->fn->defs[x];
    if (xd && xd->kind == IR_CONST && xd->u.cst.i == 0)
      diag_error(node_loc(L, cond), arena_printf(L->a, "count down with '%s > 0' and use "
                 "'%s - 1' in the body, or use a signed index", c->name, c->name),
                 "'%s >= 0' is always true for an unsigned index: the loop never ends", c->name);
  }
  Val bound = convert(L, x, c->type);
  c->count = canon_count(L, c, bound, le);
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
// --remarks: how each array the loop writes was shown to be written at elements of each
// iteration's own.
static void remark_writes(Lower *L, const IndexLoop *lp, const Block *body, const ParCtx *p,
                          const Node *par) {
  if (!diag_remarks()) return;
  static const char *const how[] = {
      [PROOF_NONE] = "not shown", [PROOF_GCD] = "the GCD test",
      [PROOF_BOUNDS] = "the bounds of the indices over the loops' ranges",
      [PROOF_ROW_MAJOR] = "rows i*M + j of a matrix",
      [PROOF_ASSERTED] = "taken on the user's word: injective(...)"};
  for (int k = 0; k < p->nacc; k++) {
    const Access *w = &p->acc[k];
    bool first = w->write;
    for (int j = 0; j < k && first; j++) first = !(p->acc[j].write && p->acc[j].arr == w->arr);
    if (!first) continue;
    int nidx = 0;
    for (int j = 0; j < p->nacc; j++)
      if (p->acc[j].arr == w->arr) {
        bool seen = false;
        for (int i = 0; i < j && !seen; i++)
          seen = p->acc[i].arr == w->arr && index_same(L->fn->defs, p->acc[i].idx, p->acc[j].idx);
        nidx += !seen;
      }
    IndexProof pr = write_proof(lp, body, w, par->u.par.injective, par->u.par.ninjective);
    diag_remark(par->loc, "each iteration writes elements of '%s' of its own (%s)%s",
                L->fn->vals[w->arr].hint ? L->fn->vals[w->arr].hint : "?", how[pr],
                nidx > 1 ? arena_printf(L->a, "; its %d index expressions shown never to meet "
                                        "across iterations", nidx) : "");
  }
}

// The map check again with the accesses of each array of arrays indexed from its start taken
// by their rows (A[i][j] as row i), when every access of that array has one: C keeps every
// subscript within its extent, so two iterations that touch different rows touch different
// elements (language.md 2; the flat test cannot see it when the extents are not constants,
// which may be 0 for it).  True if that shows the iterations independent.
static bool rows_independent(Lower *L, IndexLoop *lp, Block *body, ParCtx *p, const Node *par) {
  Access *acc = ARENA_ARRAY(L->a, Access, p->nacc + 1);
  bool any = false;
  for (int k = 0; k < p->nacc; k++) {
    acc[k] = p->acc[k];
    bool all = L->fn->vals[acc[k].arr].arows;
    for (int j = 0; j < p->nacc && all; j++)
      if (p->acc[j].arr == acc[k].arr)
        all = (int)p->acc[j].idx < L->caprowof && L->rowof[p->acc[j].idx];
    if (!all) continue;
    acc[k].idx = L->rowof[acc[k].idx];
    any = true;
  }
  return any && map_dependence(lp, body, acc, p->nacc, par->u.par.injective,
                               par->u.par.ninjective).kind == DEP_NONE;
}

static void check_map_accesses(Lower *L, ParCtx *p, Block *body, const Node *par) {
  Node **def = L->fn->defs;
  unsigned char *inside = ARENA_ARRAY(L->a, unsigned char, L->fn->nvals);
  ir_inside(body, inside); // nested loops' indices and results vary too
  inside[p->idx] = 1;
  // the arrays of an iteration (local arrays of the body) are its own: no dependence
  int n = 0;
  for (int k = 0; k < p->nacc; k++)
    if (!inside[p->acc[k].arr]) p->acc[n++] = p->acc[k];
  p->nacc = n;
  for (int k = 0; k < par->u.par.nscans; k++) // (so does a scan's exclusive value)
    for (int f = 0; f < par->u.par.scans[k].nf; f++) inside[par->u.par.scans[k].excl[f]] = 1;
  IndexLoop lp;
  index_loop(&lp, L->a, L->fn, def, inside, body, p->idx, par->u.par.lo, par->u.par.hi);
  Dep d;
  for (;;) {
    d = map_dependence(&lp, body, p->acc, p->nacc, par->u.par.injective, par->u.par.ninjective);
    if (d.kind == DEP_NONE) {
      remark_writes(L, &lp, body, p, par);
      return;
    }
    if (rows_independent(L, &lp, body, p, par)) {
      diag_remark(par->loc, "each iteration reads and writes rows of its own of the arrays of "
                  "arrays it writes (subscripts within their extents, as C requires)");
      return;
    }
    // an array the function allocated: each iteration may have its own (privatize, later)
    Val arr = p->acc[d.w].arr;
    const Node *a = def[arr];
    if (!a || a->kind != IR_ALLOC) break;
    pending_private(L, (Node *)par, arr, p->acc[d.w].loc,
                    d.kind == DEP_NOT_INJECTIVE ? (Loc){0} : p->acc[d.other].loc,
                    d.kind == DEP_ACROSS && d.ov.meet);
    int m = 0;
    for (int k = 0; k < p->nacc; k++)
      if (p->acc[k].arr != arr) p->acc[m++] = p->acc[k];
    p->nacc = m;
  }
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
  if (v->type->elem->kind == TY_STRUCT)
    diag_error(c->var_locs[j], "keep the bins in an array of float, double or integer elements",
               "histogram '%s' is an array of structs", c->vars[j]);
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
  h->lo = c->probe_len ? c->probe_lo : lower_expr_text(L, c->lo_text[j], c->lo_loc[j], false);
  h->len = c->probe_len ? c->probe_len : lower_expr_text(L, c->len_text[j], c->len_loc[j], false);
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
  int k = v->idx;
  for (int f = 0; f < v->type->nfields; f++) out[f] = L->vars[k + 1 + f]->val;
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
  Var *v = L->vars[k];
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
        L->vars[si]->contrib = ci;
      }
    }
  }
}

// A hidden scalar variable (a flag, the index at a break), unique to this loop.
static const char *push_hidden(Lower *L, const char *what, Type *t, Val v, Loc loc) {
  const char *name = arena_printf(L->a, "$%s%d", what, L->nvars);
  var_push(L, (Var){name, t, VAR_SCALAR, v, loc});
  return name;
}

// ---- sequential loops ----
//
// A sequential loop carries every scalar variable of the enclosing scopes: each is first
// made a carried value; those the body leaves unchanged are then replaced by their initial
// value again.  A counted for loop runs its iterations; any other loop (while, do, a for
// that is not counted) runs until its break flag is set (IR_LOOP's exit), its condition
// setting the flag.

typedef struct {
  Node *n;
  int nv;           // variables in scope at the loop: the candidates for carrying
  Val *init, *param;
  Val *pval;        // the variables' Var.pval before the loop
  int nfwd;         // the parallel loop's forwarded elements before this loop
  FwdEntry *before; // (their values before the loop)
} Seq;

// What a loop statement may assign, from one walk of it: the names it assigns (x = e, x++),
// takes the address of (&x) or passes to a function-like macro, and the texts of the macros
// it uses (a name in one may be assigned by it).
typedef struct {
  Lower *L;
  const char **names, **texts;
  int nnames, capnames, ntexts, captexts;
} MayAssign;

static void may_push(Lower *L, const char ***list, int *n, int *cap, const char *s) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    const char **g = ARENA_ARRAY(L->a, const char *, *cap);
    if (*n) memcpy(g, *list, sizeof *g * (size_t)*n);
    *list = g;
  }
  (*list)[(*n)++] = s;
}

static bool may_assign_of(void *ctx, TSNode n, int depth) {
  (void)depth;
  MayAssign *w = ctx;
  Lower *L = w->L;
  TSNode t = {0};
  if (ts_is(n, "assignment_expression")) t = ts_field(n, "left");
  if (ts_is(n, "update_expression")) t = ts_field(n, "argument");
  if (ts_is(n, "pointer_expression") && !strcmp(node_text(L, ts_field(n, "operator")), "&"))
    t = ts_field(n, "argument");
  while (ts_is(t, "parenthesized_expression")) t = ts_node_named_child(t, 0);
  if (ts_is(t, "identifier")) may_push(L, &w->names, &w->nnames, &w->capnames, node_text(L, t));
  bool fl;
  if (ts_is(n, "identifier") && L->macros &&
      macro_defined(L->macros, node_text(L, n), use_byte(L, n), &fl)) {
    const char *x = macro_text(L->macros, node_text(L, n), use_byte(L, n));
    if (x) may_push(L, &w->texts, &w->ntexts, &w->captexts, x);
    TSNode call = ts_node_parent(n); // (a function-like macro's arguments)
    if (fl && ts_is(call, "call_expression") && ts_node_eq(ts_field(call, "function"), n))
      may_push(L, &w->texts, &w->ntexts, &w->captexts,
               node_text(L, ts_field(call, "arguments")));
  }
  return true;
}

// Might the loop (w: its walk) assign variable name?
static bool may_assign(const MayAssign *w, const char *name) {
  for (int k = 0; k < w->nnames; k++)
    if (!strcmp(w->names[k], name)) return true;
  size_t len = strlen(name);
  for (int k = 0; k < w->ntexts; k++) // (the name as a word of the text)
    for (const char *x = w->texts[k], *p = strstr(x, name); p; p = strstr(p + 1, name))
      if ((p == x || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
          !(isalnum((unsigned char)p[len]) || p[len] == '_'))
        return true;
  return false;
}

static void seq_begin(Lower *L, Seq *q, Loc loc, Val lo, Val hi, Val idx, int stripmine,
                      TSNode s) {
  q->nv = L->nvars;
  Node *n = q->n = node_new(L->a, IR_LOOP, loc);
  n->u.loop.lo = lo;
  n->u.loop.hi = hi;
  n->u.loop.stripmine = stripmine;
  n->u.loop.idx = idx;
  q->init = ARENA_ARRAY(L->a, Val, q->nv + 1), q->param = ARENA_ARRAY(L->a, Val, q->nv + 1);
  q->pval = ARENA_ARRAY(L->a, Val, q->nv + 1);
  for (int i = 0; i < q->nv; i++) q->pval[i] = L->vars[i]->pval;
  MayAssign w = {L};
  if (!ts_node_is_null(s)) ts_walk(s, may_assign_of, &w);
  for (int i = L->var_floor; i < q->nv; i++) {
    Var *v = L->vars[i];
    if ((v->kind != VAR_SCALAR && v->kind != VAR_RED) || !v->val) continue;
    q->init[i] = v->val;
    v->val = q->param[i] = fn_val(L->fn, v->type, v->kind == VAR_RED || v->name[0] == '$' ? NULL : v->name);
    if (v->kind == VAR_SCALAR && v->name[0] != '$' && !strchr(v->name, '.') && // (a field:
        !ts_node_is_null(s) && !may_assign(&w, v->name))                     // s.f, p->f)
      L->fn->vals[q->param[i]].same = q->init[i];
  }
  n->u.loop.body = L->b.blk = block_new(L->a);
  // no forwarding of element values into the loop (a later iteration sees the writes of an
  // earlier one); after it, only of the arrays it does not write
  ParCtx *p = L->par;
  q->nfwd = p ? p->nfwd : 0;
  if (p) {
    q->before = ARENA_ARRAY(L->a, FwdEntry, q->nfwd + 1);
    if (q->nfwd) memcpy(q->before, p->fwd, sizeof(FwdEntry) * (size_t)q->nfwd);
    for (int i = 0; i < q->nfwd; i++) // read inside: not the value before the loop
      fwd_lose(L, p, p->fwd[i].arr);
    p->nfwd = 0;
  }
}

// After the body: the carried values, and the loop pushed into outer.  exit_var: the
// variable whose carried value is the loop's exit flag (NULL: none).
static void seq_end(Lower *L, Seq *q, Block *outer, Loc loc, const char *exit_var) {
  Node *n = q->n;
  ParCtx *p = L->par;
  if (p) {
    // the entries from before the loop as they were (the body's go with it), and on top of
    // them, for each element the loop may have written, an unknown one (a later read takes
    // it from memory): the entries below stay those an enclosing branch began with, which
    // lower_branch takes for the branch's own writes what was pushed above
    if (q->nfwd) memcpy(p->fwd, q->before, sizeof(FwdEntry) * (size_t)q->nfwd);
    p->nfwd = q->nfwd;
    for (int i = 0; i < q->nfwd; i++)
      if (ir_writes(n->u.loop.body, q->before[i].arr)) {
        fwd_lose(L, p, q->before[i].arr);
        if (q->before[i].val) // (one already unknown stays so)
          fwd_push(L, (FwdEntry){q->before[i].arr, q->before[i].idx, 0, 0, false, false});
      }
    for (int i = 0; i < p->nacc; i++)
      if (p->acc[i].write && ir_writes(n->u.loop.body, p->acc[i].arr)) fwd_lose(L, p, p->acc[i].arr);
  }
  L->b.blk = outer;
  var_pop(L, q->nv);
  int nv = q->nv;
  n->u.loop.init = ARENA_ARRAY(L->a, Val, nv + 1);
  n->u.loop.params = ARENA_ARRAY(L->a, Val, nv + 1);
  n->u.loop.outs = ARENA_ARRAY(L->a, Val, nv + 1);
  Var *ev = exit_var ? var_find(L, exit_var) : NULL;
  bool *uncarried = ARENA_ARRAY(L->a, bool, nv + 1);
  for (int i = L->var_floor; i < nv; i++) {
    Var *v = L->vars[i];
    if (!q->param[i]) {
      // assigned in the body but without a value before the loop: the body reads it only after
      // it assigned it (an earlier read was refused), so no iteration sees another's value
      // (C's `int j; for (...) for (j = 0; ...)`); after the loop it has none either
      // (its pval, where the body assigned it, was the body's own: none after the loop)
      if (v->val || v->pval != q->pval[i]) v->pval = PVAL_LOST;
      if ((v->kind == VAR_SCALAR || v->kind == VAR_RED) && v->val) v->val = 0;
      continue;
    }
    if (!v->val && v->priv.line && v != ev) { // (private to a parallel loop of the body)
      if (ir_uses_val(n->u.loop.body, q->param[i]))
        diag_error(v->priv, "assign it in each iteration before reading it, or declare it "
                   "inside the loop", "'%s' is read in the next iteration of the loop at "
                   "%u:%u after this parallel loop, whose iterations it was private to",
                   v->name, loc.line, loc.col);
      continue; // (no value after the loop either)
    }
    if (L->fn->vals[q->param[i]].same && v->val != q->param[i])
      diag_error(loc, "assign it outside the loop, or write the assignment out (not through a "
                 "macro)", "'%s' is assigned in this loop where adsoac did not see it (a macro "
                 "or a pointer): the dependence test took it for unchanged", v->name);
    L->fn->vals[q->param[i]].same = 0;
    if (v->val == q->param[i] && v != ev) { // not carried (its uses: below)
      uncarried[i] = true;
      v->val = q->init[i];
      continue;
    }
    int k = n->u.loop.ncarry++;
    n->u.loop.init[k] = q->init[i];
    n->u.loop.params[k] = q->param[i];
    if (v == ev) n->u.loop.exit = q->param[i];
    block_yield(L->a, n->u.loop.body, v->val);
    v->val = n->u.loop.outs[k] = fn_val(L->fn, v->type, v->kind == VAR_RED || v->name[0] == '$' ? NULL : v->name);
  }
  // an uncarried variable's value in the body is its value before the loop, also where a
  // carried one took it (q = acc: q's result, yielded after acc was found uncarried)
  for (int i = L->var_floor; i < nv; i++)
    if (uncarried[i]) ir_replace_uses(n->u.loop.body, q->param[i], q->init[i]);
  b_push(&L->b, n);
}

// The index variable declared before a counted loop holds, after it, the first index that
// failed the condition, or the index at a break (ibrk, with the loop's break flag brk).
static void set_final_index(Lower *L, const Canon *c, const char *brk, const char *ibrk) {
  if (!c->outer) return;
  Val last;
  if (c->plain)
    last = int_pick(L, b_binop(&L->b, BIN_GT, c->hi, c->lo), c->hi, c->lo, c->type);
  else
    last = canon_index(L, c, c->count);
  if (ibrk) {
    Val broke = b_binop(&L->b, BIN_NE, var_find(L, brk)->val, b_const_i(&L->b, &ty_int, 0));
    last = int_pick(L, broke, var_find(L, ibrk)->val, last, c->type);
  }
  c->outer->val = last;
  if (!L->fn->vals[last].hint) L->fn->vals[last].hint = c->name;
}

static void lower_seq_loop(Lower *L, TSNode s, int stripmine, const char *hints) {
  Loc loc = node_loc(L, s);
  L->b.loc = loc;
  int nv0 = L->nvars;
  bool is_for = ts_is(s, "for_statement"), is_do = ts_is(s, "do_statement");
  Shape h;
  const char *why;
  TSNode where;
  bool counted = is_for && loop_shape(L, s, &h, &why, &where);
  if (stripmine && !counted)
    diag_error(loc, "strip-mine a counted loop (for (i = lo; i < hi; i++))", "stripmine(%d) on a "
               "loop whose number of iterations is not known before it runs", stripmine);
  TSNode body = ts_field(s, "body");
  Canon c = {0};
  int outer_k = -1;
  if (counted) {
    canon_lower(L, s, &h, &c);
    if (c.outer) outer_k = c.outer->idx;
  } else if (is_for && !ts_node_is_null(ts_field(s, "initializer"))) {
    L->stmt(L, ts_field(s, "initializer")); // for (init; cond; update): a while loop after init
  }
  bool brk = !counted || has_jump(body, true), cont = has_jump(body, false);
  Val zero = brk || cont ? b_const_i(&L->b, &ty_int, 0) : 0;
  LoopCtx ctx = {L->loop, false, NULL, NULL, NULL, 0};
  if (brk) ctx.brk = push_hidden(L, "brk", &ty_int, zero, loc);
  if (cont) ctx.cont = push_hidden(L, "cont", &ty_int, zero, loc);
  if (counted && c.outer && has_jump(body, true))
    ctx.ibrk = push_hidden(L, "ibrk", c.type, convert(L, zero, c.type), loc);
  Val lo, hi, idx;
  if (c.plain) {
    lo = c.lo, hi = c.hi, idx = fn_val(L->fn, c.type, c.name);
  } else {
    lo = b_const_i(&L->b, &ty_long, 0);
    hi = counted ? c.count : b_const_i(&L->b, &ty_long, 0x7fffffffffffffffLL);
    idx = fn_val(L->fn, &ty_long, counted ? "k" : "iter");
  }
  Block *outer = L->b.blk;
  Seq q = {0};
  seq_begin(L, &q, loc, lo, hi, idx, stripmine, s);
  L->loop = &ctx;
  if (cont) var_find(L, ctx.cont)->val = zero;
  if (counted) {
    ctx.index = c.plain ? idx : canon_index(L, &c, idx);
    var_push(L, (Var){c.name, c.type, VAR_INDEX, ctx.index, loc});
  }
  TSNode cond = ts_field(s, "condition");
  if (ts_is(cond, "parenthesized_expression")) cond = ts_node_named_child(cond, 0);
  if (!counted && !is_do && !ts_node_is_null(cond)) { // while (cond): the flag is !cond
    Var *f = var_find(L, ctx.brk);
    f->val = b_binop(&L->b, BIN_EQ, lower_cond(L, cond), zero);
  }
  L->guarded(L, body, false, false);
  if (!counted && is_for && !ts_node_is_null(ts_field(s, "update"))) // (a continue runs it)
    L->guarded(L, ts_field(s, "update"), false, true);
  if (is_do) { // do body while (cond): where no break ran, the flag is !cond (lower_stmt),
               // and the condition's side effects (while (++r < k)) happen
    TSNode up = L->do_cond;
    const char *up_brk = L->do_brk;
    L->do_cond = cond;
    L->do_brk = ctx.brk;
    L->guarded(L, cond, false, true);
    L->do_cond = up;
    L->do_brk = up_brk;
  }
  L->loop = ctx.up;
  seq_end(L, &q, outer, loc, ctx.brk);
  q.n->u.loop.hints = hints;
  if (outer_k >= 0) {
    c.outer = L->vars[outer_k];
    set_final_index(L, &c, ctx.brk, ctx.ibrk);
  }
  var_pop(L, nv0); // the hidden variables, and a for's declarations
}

// After a loop: a clause variable (its fields) gets fresh values, the loop's results.
static Val *set_results(Lower *L, Var *v) {
  if (v->kind != VAR_STRUCT) {
    Val *o = ARENA_ARRAY(L->a, Val, 1);
    o[0] = v->val = fn_val(L->fn, v->type, v->name);
    return o;
  }
  int k = v->idx, nf = v->type->nfields;
  Val *o = ARENA_ARRAY(L->a, Val, nf);
  for (int f = 0; f < nf; f++)
    o[f] = L->vars[k + 1 + f]->val = fn_val(L->fn, v->type->ftypes[f],
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

// injective(y, ...): arrays of the function that the loop writes (an array of structs: its
// fields' arrays).
static void set_injective(Lower *L, const Pragma *pr, Node *n, ParCtx *ctx) {
  int cap = pr->ninjective + 1;
  for (int i = 0; i < pr->ninjective; i++) {
    Var *v = var_find(L, pr->injective[i]);
    if (v && v->kind == VAR_ARRAY && v->type->elem->kind == TY_STRUCT)
      cap += v->type->elem->nfields;
  }
  n->u.par.ninjective = 0;
  n->u.par.injective = ARENA_ARRAY(L->a, Val, cap);
  for (int i = 0; i < pr->ninjective; i++) {
    Var *v = var_find(L, pr->injective[i]);
    const Val *fields = v && v->kind == VAR_ARRAY ? L->fn->vals[v->val].fields : NULL;
    int nf = fields ? v->type->elem->nfields : 1;
    bool written = false;
    for (int k = 0; v && k < ctx->nacc; k++)
      for (int f = 0; f < nf; f++)
        written |= ctx->acc[k].write && ctx->acc[k].arr == (fields ? fields[f] : v->val);
    if (!v || v->kind != VAR_ARRAY || !written)
      diag_error(pr->inj_loc, "name arrays the loop writes", "'%s' in injective(...) is not an "
                 "array this loop writes", pr->injective[i]);
    for (int f = 0; f < nf; f++)
      n->u.par.injective[n->u.par.ninjective++] = fields ? fields[f] : v->val;
  }
}

// ---- scalars private to a parallel loop's iterations ----

typedef struct {
  Lower *L;
  const char **seen;
  int n, cap;
} Seen;

static bool seen_has(const Seen *w, const char *name) {
  for (int k = 0; k < w->n; k++)
    if (!strcmp(w->seen[k], name)) return true;
  return false;
}

static bool note_ident(void *ctx, TSNode n, int depth) {
  (void)depth;
  Seen *w = ctx;
  if (ts_is(n, "identifier") && w->n < w->cap) {
    const char *s = node_text(w->L, n);
    if (!seen_has(w, s)) w->seen[w->n++] = s;
  }
  return true;
}

// The scalars declared outside parallel loop body that each iteration assigns before it reads
// them (OpenMP's private: `sum = 0.0;` as a statement of the body itself, before any other
// mention of sum, as serial codes reuse a function's scalars across loops) get a variable of
// the body each (pushed here, without a value); after the loop they have none (the caller
// marks them).  Returns their names.  var_base: the variables declared outside the loop.
static const char **privatize_scalars(Lower *L, TSNode body, int var_base, int *n) {
  *n = 0;
  if (!ts_is(body, "compound_statement")) return NULL;
  Seen w = {L, NULL, 0, 512};
  w.seen = ARENA_ARRAY(L->a, const char *, w.cap);
  const char **out = ARENA_ARRAY(L->a, const char *, ts_node_named_child_count(body) + 1);
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode st = ts_node_named_child(body, i), e = ts_node_named_child(st, 0);
    if (ts_is(st, "expression_statement") && ts_is(e, "assignment_expression") &&
        !strcmp(node_text(L, ts_field(e, "operator")), "=") &&
        ts_is(ts_field(e, "left"), "identifier")) {
      const char *name = node_text(L, ts_field(e, "left"));
      Seen rhs = {L, ARENA_ARRAY(L->a, const char *, 64), 0, 64};
      ts_walk(ts_field(e, "right"), note_ident, &rhs);
      Var *v = var_find(L, name);
      bool global = false;
      for (int k = 0; v && k < L->ngvar; k++) global |= L->vars[L->gvar[k].var] == v;
      if (v && v->idx < var_base && v->kind == VAR_SCALAR && v->name[0] != '$' && !global &&
          !seen_has(&w, name) && !seen_has(&rhs, name) && rhs.n < rhs.cap) {
        var_push(L, (Var){name, v->type, VAR_SCALAR, 0, node_loc(L, st)});
        out[(*n)++] = name;
      }
    }
    ts_walk(st, note_ident, &w);
    if (w.n == w.cap) break; // (past it: the rest stay shared, refused where assigned)
  }
  return out;
}

// The sections of the histograms an OpenMP loop updates atomically where their lengths are not
// known (Clause.probe, omp.c): a loop over the same iterations before it computes the least
// and the greatest index each update uses (as doubles: exact below 2^53), and the section is
// [least, greatest] (empty when the loop runs no iteration).
static void omp_probes(Lower *L, const Pragma *pr, const Canon *c, Loc loc) {
  for (int i = 0; i < pr->nclauses; i++) {
    Clause *cl = &pr->clauses[i];
    if (ts_node_is_null(cl->probe)) continue;
    Node *q = node_new(L->a, IR_PAR, cl->loc);
    q->u.par.lo = c->plain ? c->lo : b_const_i(&L->b, &ty_long, 0);
    q->u.par.hi = c->plain ? c->hi : c->count;
    q->u.par.idx = fn_val(L->fn, c->plain ? c->type : &ty_long, c->plain ? c->name : "k");
    q->u.par.pragma = arena_printf(L->a, "reduce(min, max) of the indices of '%s' the loop "
                                   "updates (its section)", cl->vars[0]);
    q->u.par.reds = ARENA_ARRAY(L->a, Red, 2);
    q->u.par.scans = ARENA_ARRAY(L->a, Scan, 1);
    q->u.par.hists = ARENA_ARRAY(L->a, Hist, 1);
    q->u.par.injective = ARENA_ARRAY(L->a, Val, 1);
    Val inf = b_const_f(&L->b, &ty_double, INFINITY), ninf = b_const_f(&L->b, &ty_double, -INFINITY);
    Block *outer = L->b.blk;
    q->u.par.body = L->b.blk = block_new(L->a);
    Val index = c->plain ? q->u.par.idx : canon_index(L, c, q->u.par.idx);
    int nv = L->nvars;
    var_push(L, (Var){c->name, c->type, VAR_INDEX, index, loc});
    for (int d = 0; d < cl->nprobe_decls; d++) { // (the body's locals the index reads)
      TSNode decl = cl->probe_decls[d], id = ts_field(decl, "declarator");
      Type *t = lower_type(L, ts_field(decl, "type"));
      Val v = convert(L, L->expr(L, ts_field(id, "value")), t);
      var_push(L, (Var){node_text(L, ts_field(id, "declarator")), t, VAR_SCALAR, v, loc});
    }
    Val k = convert(L, L->expr(L, cl->probe), &ty_double);
    var_pop(L, nv);
    block_yield(L->a, q->u.par.body, k);
    block_yield(L->a, q->u.par.body, k);
    L->b.blk = outer;
    Val *lo = ARENA_ARRAY(L->a, Val, 1), *hi = ARENA_ARRAY(L->a, Val, 1);
    lo[0] = fn_val(L->fn, &ty_double, NULL), hi[0] = fn_val(L->fn, &ty_double, NULL);
    q->u.par.reds[0] = (Red){.op = RED_MIN, .nf = 1, .init = copy_vals(L, &inf, 1),
                             .ne = copy_vals(L, &inf, 1), .out = lo, .slot = 0, .var = cl->vars[0]};
    q->u.par.reds[1] = (Red){.op = RED_MAX, .nf = 1, .init = copy_vals(L, &ninf, 1),
                             .ne = copy_vals(L, &ninf, 1), .out = hi, .slot = 1, .var = cl->vars[0]};
    q->u.par.nreds = 2;
    b_push(&L->b, q);
    Builder *b = &L->b;
    b->loc = cl->loc;
    Val runs = b_binop(b, BIN_LE, lo[0], hi[0]), zero = b_const_f(b, &ty_double, 0);
    Val first = b_cast(b, &ty_long, b_select(b, runs, lo[0], zero)),
        last = b_cast(b, &ty_long, b_select(b, runs, hi[0], zero));
    cl->probe_lo = first;
    cl->probe_len = b_select(b, runs, b_binop(b, BIN_ADD, b_binop(b, BIN_SUB, last, first),
                                              b_const_i(b, &ty_long, 1)),
                             b_const_i(b, &ty_long, 0));
    diag_remark(cl->loc, "the section of '%s' (its length not known here): the least and the "
                "greatest index this update uses, found by a loop before this one", cl->vars[0]);
  }
}

// An OpenMP loop's schedule, num_threads, if and proc_bind clauses (language.md 11: kept as
// hints on the C target), for its loop in f: each identifier in them a parameter the function
// has not assigned (the generated f has it, by its own name), an object-like macro, or a word
// of the clause; a clause naming anything else (a local: f may name it otherwise, or compute
// it elsewhere) is left out with a warning.
static void loop_hints(Lower *L, const Pragma *pr, TSNode loop, Node *n) {
  static const char *const words[] = {"static", "dynamic", "guided", "auto", "runtime",
                                      "monotonic", "nonmonotonic", "simd", "parallel", "close",
                                      "spread", "master", "primary", "schedule", "num_threads",
                                      "if", "proc_bind", "sizeof", "int", "long", "unsigned",
                                      "double", NULL};
  const char **kept = ARENA_ARRAY(L->a, const char *, pr->nomp_hints + 1), **names = NULL;
  Val *vals = NULL;
  int nk = 0, nv = 0;
  for (int h = 0; h < pr->nomp_hints; h++) {
    const char *t = pr->omp_hints[h], *bad = NULL;
    for (const char *p = t; *p && !bad;) {
      if (!isalpha((unsigned char)*p) && *p != '_') {
        p += isdigit((unsigned char)*p) ? strspn(p, "0123456789abcdefxABCDEFXuUlL.") : 1;
        continue;
      }
      size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
      const char *id = arena_strndup(L->a, p, len);
      p += len;
      bool word = false;
      for (int k = 0; words[k] && !word; k++) word = !strcmp(words[k], id);
      bool fl = false;
      if (word || (L->macros && macro_defined(L->macros, id, use_byte(L, loop), &fl) && !fl))
        continue;
      Var *v = var_find(L, id);
      int k = 0;
      while (v && k < L->fn->nparams && L->fn->params[k].val != v->val) k++;
      if (!v || v->kind != VAR_SCALAR || k == L->fn->nparams) {
        bad = id;
        break;
      }
      names = names ? names : ARENA_ARRAY(L->a, const char *, 64);
      vals = vals ? vals : ARENA_ARRAY(L->a, Val, 64);
      if (nv < 64) names[nv] = id, vals[nv++] = v->val;
    }
    if (bad)
      diag_warn(pr->loc, "write it with the function's parameters and constants",
                "'%s' of the OpenMP loop is left out of f: '%s' is not a parameter the "
                "function keeps", t, bad);
    else
      kept[nk++] = t;
  }
  n->u.par.hints = kept;
  n->u.par.nhints = nk;
  n->u.par.hint_names = names;
  n->u.par.hint_vals = vals;
  n->u.par.nhint_vals = nv;
}

// lastprivate(x) (language.md 11): after the loop, x holds what the iteration that runs last
// in C left in it.  Each iteration stores its x at its place in an array (a map's output, which
// the derivatives read as any other), and the loop's last place is read back after it; a loop
// that runs no iteration leaves x as it was.
typedef struct {
  const char *name;
  Val arr, trip, before; // before: x's value before the loop (0: none)
} LastPriv;

static int last_store(Lower *L, const Pragma *pr, Node *par, Block *outer, LastPriv *out) {
  int n = 0;
  for (int k = 0; pr->omp && k < pr->npriv; k++) {
    if (!pr->lastpriv[k]) continue;
    Var *v = var_find(L, pr->priv[k]);
    if (v->kind == VAR_INDEX) continue; // (the loop's index: C's value after it already)
    if (!v->val)
      diag_error(pr->loc, "assign it in every iteration", "lastprivate(%s): the loop's last "
                 "iteration may leave '%s' without a value", pr->priv[k], pr->priv[k]);
    Builder ob = {L->fn, outer, pr->loc};
    Val lo = b_cast(&ob, &ty_long, par->u.par.lo), hi = b_cast(&ob, &ty_long, par->u.par.hi);
    Val runs = b_binop(&ob, BIN_LT, lo, hi), one = b_const_i(&ob, &ty_long, 1);
    Val trip = b_select(&ob, runs, b_binop(&ob, BIN_SUB, hi, lo), b_const_i(&ob, &ty_long, 0));
    Node *al = node_new(L->a, IR_ALLOC, pr->loc);
    al->u.alloc.n = b_select(&ob, runs, trip, one); // (one element at least: read below)
    al->out = fn_val(L->fn, ty_ptr(L->a, v->type, false), pr->priv[k]);
    b_push(&ob, al);
    Builder bb = {L->fn, par->u.par.body, pr->loc};
    Val at = b_binop(&bb, BIN_SUB, b_cast(&bb, &ty_long, par->u.par.idx),
                     b_cast(&bb, &ty_long, par->u.par.lo));
    b_write(&bb, al->out, at, v->val);
    Val before = v->shadow >= 0 ? L->vars[v->shadow]->val : 0;
    out[n++] = (LastPriv){pr->priv[k], al->out, trip, before};
  }
  return n;
}

static void last_load(Lower *L, const LastPriv *lp, int n, Loc loc) {
  for (int k = 0; k < n; k++) {
    Var *v = var_find(L, lp[k].name);
    Builder *b = &L->b;
    b->loc = loc;
    Val runs = b_binop(b, BIN_GT, lp[k].trip, b_const_i(b, &ty_long, 0));
    Val at = b_select(b, runs, b_binop(b, BIN_SUB, lp[k].trip, b_const_i(b, &ty_long, 1)),
                      b_const_i(b, &ty_long, 0));
    Val before = lp[k].before ? lp[k].before
                 : ty_is_float(v->type) ? b_const_f(b, v->type, 0) : b_const_i(b, v->type, 0);
    v->val = b_select(b, runs, b_read(b, lp[k].arr, at), before);
    v->priv = (Loc){0};
    Node *fr = node_new(L->a, IR_FREE, loc);
    fr->u.copy.dst = lp[k].arr;
    b_push(b, fr);
  }
}

// An OpenMP loop's private(...), firstprivate(...) and lastprivate(...) scalars (language.md
// 11): variables of the body (firstprivate: from the value before the loop), added to
// priv[0 .. *n) (the names with no value after the loop; lastprivate's get one: last_store); collapse(n): the loop nested in the body is a map too,
// collapse(n - 1) (lower_stmt), where the loop has no reduction (else it stays sequential in
// each iteration, the parallel loop's contributions).
static const char **omp_private(Lower *L, const Pragma *pr, TSNode body, const char **priv,
                                int *n) {
  const char **out = ARENA_ARRAY(L->a, const char *, *n + pr->npriv + 1);
  if (*n) memcpy(out, priv, sizeof *out * (size_t)*n);
  for (int k = 0; k < pr->npriv; k++) {
    bool done = false;
    for (int j = 0; j < *n && !done; j++) done = !strcmp(out[j], pr->priv[k]);
    Var *v = var_find(L, pr->priv[k]);
    if (!v)
      diag_error(pr->loc, NULL, "%s(%s) names no variable in scope", omp_priv_clause(pr, k),
                 pr->priv[k]);
    if (v->kind == VAR_INDEX) continue; // (the loop's index: its own in each iteration, and
                                        // after the loop C's value, as lastprivate says)
    if (v->kind != VAR_SCALAR)
      diag_error(pr->loc, "declare the scratch inside the loop body (each iteration its own)",
                 "%s(%s) of a pointer, an array or a struct is not read yet",
                 omp_priv_clause(pr, k), pr->priv[k]);
    if (pr->lastpriv[k] && pr->collapse > 1)
      diag_error(pr->loc, "assign the variable after the loops from the last indices",
                 "lastprivate(%s) with collapse(%d) is not read yet", pr->priv[k], pr->collapse);
    if (done) continue;
    Val init = pr->firstpriv[k] ? v->val : 0;
    if (pr->firstpriv[k] && !init)
      diag_error(pr->loc, NULL, "firstprivate(%s): '%s' has no value before the loop",
                 pr->priv[k], pr->priv[k]);
    var_push(L, (Var){pr->priv[k], v->type, VAR_SCALAR, init, pr->loc});
    out[(*n)++] = pr->priv[k];
  }
  if (pr->collapse > 1) {
    TSNode in = body;
    if (ts_is(in, "compound_statement")) {
      TSNode only = {0};
      int count = 0;
      for (uint32_t i = 0; i < ts_node_named_child_count(in); i++)
        if (!ts_is(ts_node_named_child(in, i), "comment"))
          only = ts_node_named_child(in, i), count++;
      in = count == 1 ? only : (TSNode){0};
    }
    if (!ts_is(in, "for_statement"))
      diag_error(pr->loc, "nest the loops perfectly (the inner for the outer's only statement)",
                 "collapse(%d) needs %d perfectly nested for loops", pr->collapse, pr->collapse);
    if (!pr->nclauses) { // (with reductions the inner loops stay sequential: their updates
      L->collapse_node = in; // are the outer loop's contributions)
      L->collapse_pr = *pr;
      L->collapse_pr.collapse--;
      L->collapse_pr.npriv = 0;
      L->collapse_pr.nomp_hints = 0;
    }
  }
  return out;
}

void lower_for(Lower *L, TSNode s, const Pragma *pr) {
  Loc loc = node_loc(L, s);
  const char *hints = L->hints; // (another tool's pragmas before it: a sequential loop's)
  L->hints = NULL;
  if (!pr || pr->kind == PR_STRIPMINE) {
    if (pr && L->par)
      diag_warn(loc, "strip-mine the sequential loops at the function's level (time steps)",
                "stripmine(%d) has no effect inside a parallel loop's body: its reverse saves "
                "no states there (it recomputes)", pr->stripmine);
    lower_seq_loop(L, s, pr ? pr->stripmine : 0, hints);
    return;
  }
  L->b.loc = loc;
  if (!ts_is(s, "for_statement"))
    diag_error(pr->loc, "put the pragma directly before a for loop",
               "'#pragma adsoac %s' is not followed by a for loop", pr->text);
  Pragma with_atomics;
  if (pr->omp) pr = omp_atomics(L, pr, ts_field(s, "body"), &with_atomics);
  int nv_outer = L->nvars;
  Shape h;
  const char *why;
  TSNode where;
  if (!loop_shape(L, s, &h, &why, &where)) diag_error(node_loc(L, where), canon_hint, "%s", why);
  Canon c = {0};
  canon_lower(L, s, &h, &c);
  if (pr->omp) omp_probes(L, pr, &c, loc);
  int outer_k = c.outer ? c.outer->idx : -1;

  Node *n = node_new(L->a, IR_PAR, loc);
  n->u.par.lo = c.plain ? c.lo : b_const_i(&L->b, &ty_long, 0);
  n->u.par.hi = c.plain ? c.hi : c.count;
  n->u.par.pragma = pr->text;
  if (pr->omp) loop_hints(L, pr, s, n);
  n->u.par.idx = fn_val(L->fn, c.plain ? c.type : &ty_long, c.plain ? c.name : "k");
  Block *outer = L->b.blk;
  n->u.par.body = L->b.blk = block_new(L->a);
  Val index = c.plain ? n->u.par.idx : canon_index(L, &c, n->u.par.idx);
  ParCtx ctx = {L->par, n->u.par.idx, 0, n->u.par.lo, n->u.par.hi};
  ctx.inline_base = L->inline_depth;
  ctx.pragma = pr->text;
  int nv_before_reds = L->nvars;
  setup_clauses(L, pr, n, &ctx, outer);
  ctx.var_base = L->nvars; // outer variables and the clauses' running values
  var_push(L, (Var){c.name, c.type, VAR_INDEX, index, loc});
  TSNode body = ts_field(s, "body");
  int npriv;
  const char **priv = privatize_scalars(L, body, ctx.var_base, &npriv);
  if (pr->omp) priv = omp_private(L, pr, body, priv, &npriv);
  LoopCtx lc = {L->loop, true, NULL, NULL, NULL, index};
  if (has_jump(body, false))
    lc.cont = push_hidden(L, "cont", &ty_int, b_const_i(&L->b, &ty_int, 0), loc);
  L->par = &ctx;
  L->loop = &lc;
  Block *alloc_blk = L->alloc_blk;
  int alloc_pos = L->alloc_pos, nallocs = L->nallocs;
  L->alloc_blk = n->u.par.body, L->alloc_pos = 0;
  Val *before = ARENA_ARRAY(L->a, Val, nv_before_reds + 1);
  for (int k = 0; k < nv_before_reds; k++) before[k] = L->vars[k]->val;
  L->guarded(L, body, false, false);
  // a variable of the function that the body assigned can only be the index of a loop in it
  // declared outside (int i, j; ... for (j = 0; ...)): C's value after such a loop is an
  // iteration's own, and after this loop the variable has none (as a privatized scalar)
  for (int k = 0; k < nv_before_reds; k++)
    if (L->vars[k]->kind == VAR_SCALAR && L->vars[k]->val != before[k])
      L->vars[k]->val = 0, L->vars[k]->pval = PVAL_LOST, L->vars[k]->priv = loc;
  for (int k = ctx.var_base; pr->omp && k < L->nvars; k++) { // (an OpenMP firstprivate assigned)
    Var *v = L->vars[k];
    for (int j = 0; j < pr->npriv; j++)
      if (pr->firstpriv[j] && !strcmp(v->name, pr->priv[j]) && v->shadow >= 0 &&
          v->val != L->vars[v->shadow]->val)
        diag_warn(pr->loc, "assign it to a variable of the body instead (double s = x;)",
                  "firstprivate(%s) is assigned in the loop: here every iteration starts from "
                  "its value before the loop (in OpenMP, each thread's first iteration does)",
                  v->name);
  }
  LastPriv last[64];
  int nlast = last_store(L, pr, n, outer, last);
  free_allocs(L, nallocs); // (each iteration's arrays)
  L->nallocs = nallocs;
  L->alloc_blk = alloc_blk, L->alloc_pos = alloc_pos;
  L->loop = lc.up;
  L->par = ctx.up;
  // the body yields each reduction's and each scan's contribution (all fields of a struct)
  int slot = 0;
  for (int i = nv_before_reds; i < ctx.var_base; i++) {
    Var *v = L->vars[i];
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

  // after the loop, each reduction or scan variable holds the total; a privatized one has no
  // value (C's: the last iteration's)
  var_pop(L, nv_outer);
  for (int k = 0; k < npriv; k++) {
    Var *v = var_find(L, priv[k]);
    v->val = 0, v->pval = PVAL_LOST;
    v->priv = loc;
  }
  last_load(L, last, nlast, loc);
  for (int r = 0; r < n->u.par.nreds; r++) {
    Red *red = &n->u.par.reds[r];
    red->out = set_results(L, var_find(L, red->var));
  }
  for (int k = 0; k < n->u.par.nscans; k++) {
    Scan *sc = &n->u.par.scans[k];
    sc->out = set_results(L, var_find(L, sc->var));
  }
  if (outer_k >= 0) {
    c.outer = L->vars[outer_k];
    set_final_index(L, &c, NULL, NULL);
  }
}
