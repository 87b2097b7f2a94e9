// parser/lower_update.c: the update forms of reduce, scan and hist (language.md §3) and the
// operators they combine with.
//
//   v OP= e;   v = v OP e;   v = e OP v;                  (OP: + or *)
//   v = fn(v, e);   v = fn(e, v) (fn commutative)          (fmin/fmax[f] for min/max, or the
//                                                           declared operator)
//   if (e > v) v = e;   v = e > v ? e : v;                 (max; < for min; >= and <= too)
// For hist the target v is an element h[k], written the same way on both sides.
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "lower.h"

RedOp clause_op(Lower *L, const char *op, Loc loc, const UserOp **user) {
  *user = NULL;
  if (!strcmp(op, "+")) return RED_ADD;
  if (!strcmp(op, "*")) return RED_MUL;
  if (!strcmp(op, "min")) return RED_MIN;
  if (!strcmp(op, "max")) return RED_MAX;
  UserOp *u;
  HASH_FIND_STR(L->ops, op, u);
  if (u && u->unread) diag_error(u->loc, u->unread_hint, "%s", u->unread);
  if (u && u->builtin) return clause_op(L, u->builtin, loc, user);
  *user = u;
  if (u) return RED_USER;
  diag_error(loc, "operators are +, *, min, max, or a function declared with "
             "#pragma adsoac operator before it", "unknown operator '%s'", op);
}

// The neutral element's fields (one for a scalar).
void red_neutral(Lower *L, RedOp op, const UserOp *u, Type *t, Val *out) {
  Builder *b = &L->b;
  switch (op) {
  case RED_ADD: out[0] = ty_is_float(t) ? b_const_f(b, t, 0) : b_const_i(b, t, 0); return;
  case RED_MUL: out[0] = ty_is_float(t) ? b_const_f(b, t, 1) : b_const_i(b, t, 1); return;
  case RED_MIN:
  case RED_MAX:
    if (!ty_is_float(t))
      diag_error(b->loc, "use a float or double variable", "min/max of integers is not supported yet");
    out[0] = b_const_f(b, t, op == RED_MIN ? INFINITY : -INFINITY);
    return;
  case RED_USER:
    if (t->kind == TY_STRUCT)
      lower_struct_text(L, u->neutral, u->neutral_loc, t, out);
    else
      out[0] = convert(L, lower_expr_text(L, u->neutral, u->neutral_loc, false), t);
    return;
  }
  UNREACHABLE();
}

// out = a OP b for a declared operator on structs (fields in a and b).
void red_combine_fields(Lower *L, const UserOp *u, const Val *a, const Val *b, Val *out) {
  Val *args[2] = {(Val *)a, (Val *)b};
  lower_call_fields(L, u->def, args, L->b.loc, out);
}

// The declared inverse as a lambda: its body computes inv(pa, pb).
Lambda *make_inverse_lambda(Lower *L, const UserOp *u) {
  UserOp inv = *u;
  inv.def = fn_def(L->fndefs, u->inverse); // (checked with the operator pragma)
  return make_lambda(L, &inv);
}

// The operator as a lambda: its body computes pa OP pb.
Lambda *make_lambda(Lower *L, const UserOp *u) {
  Type *t = u->type;
  int nf = t->kind == TY_STRUCT ? t->nfields : 1;
  Lambda *l = ARENA_NEW(L->a, Lambda);
  l->nf = nf;
  l->pa = ARENA_ARRAY(L->a, Val, nf);
  l->pb = ARENA_ARRAY(L->a, Val, nf);
  for (int f = 0; f < nf; f++) {
    Type *ft = nf > 1 ? t->ftypes[f] : t;
    l->pa[f] = fn_val(L->fn, ft, "a");
    l->pb[f] = fn_val(L->fn, ft, "b");
  }
  l->body = block_new(L->a);
  Block *outer = L->b.blk;
  L->b.blk = l->body;
  Val out[64];
  red_combine_fields(L, u, l->pa, l->pb, out);
  for (int f = 0; f < nf; f++) block_yield(L->a, l->body, out[f]);
  L->b.blk = outer;
  return l;
}

// a OP b; for min and max a tie keeps a (the earlier candidate).
Val red_combine(Lower *L, RedOp op, const UserOp *u, Val a, Val b) {
  Builder *bl = &L->b;
  switch (op) {
  case RED_ADD: return b_binop(bl, BIN_ADD, a, b);
  case RED_MUL: return b_binop(bl, BIN_MUL, a, b);
  case RED_MIN:
  case RED_MAX: {
    Val c = b_binop(bl, op == RED_MIN ? BIN_LT : BIN_GT, b, a);
    return b_select(bl, c, b, a);
  }
  case RED_USER: {
    Val out;
    red_combine_fields(L, u, &a, &b, &out);
    return out;
  }
  }
  UNREACHABLE();
}

// ---- recognising the forms ----

static TSNode strip(TSNode n) {
  while (ts_is(n, "parenthesized_expression")) n = ts_node_named_child(n, 0);
  return n;
}

// Source text without whitespace, for comparing a target with its use.
static const char *squeeze(Lower *L, const char *s) {
  char *o = arena_strdup(L->a, s), *q = o;
  for (const char *p = s; *p; p++)
    if (!isspace((unsigned char)*p)) *q++ = *p;
  *q = 0;
  return o;
}

static bool is_target(Lower *L, TSNode n, const char *tgt) {
  return !strcmp(squeeze(L, node_text(L, strip(n))), tgt);
}

static bool names_op(Lower *L, TSNode fn, RedOp op, const UserOp *u) {
  const char *s = node_text(L, fn);
  switch (op) {
  case RED_MIN: return !strcmp(s, "fmin") || !strcmp(s, "fminf");
  case RED_MAX: return !strcmp(s, "fmax") || !strcmp(s, "fmaxf");
  case RED_USER: return !strcmp(s, u->call);
  case RED_ADD: case RED_MUL: return false;
  }
  return false;
}

static bool commutative(RedOp op, const UserOp *u) {
  return op != RED_USER || u->commutative;
}

// In `a CMP b` with {a, b} = {target, e}: does the condition hold exactly when e is the new
// extremum (e > target for max, e < target for min)?  Sets *e to the candidate.
static bool selects_candidate(Lower *L, TSNode cond, const char *tgt, RedOp op, TSNode *e) {
  cond = strip(cond);
  if (!ts_is(cond, "binary_expression")) return false;
  const char *c = node_text(L, ts_field(cond, "operator"));
  bool greater = !strcmp(c, ">") || !strcmp(c, ">="), less = !strcmp(c, "<") || !strcmp(c, "<=");
  if (!greater && !less) return false;
  TSNode l = ts_field(cond, "left"), r = ts_field(cond, "right");
  bool e_left;
  if (is_target(L, r, tgt)) {
    e_left = true;
    *e = l;
  } else if (is_target(L, l, tgt)) {
    e_left = false;
    *e = r;
  } else {
    return false;
  }
  bool e_greater = e_left ? greater : less; // the condition says "e > target"
  return op == RED_MAX ? e_greater : !e_greater;
}

// `target = e > target ? e : target` and its variants; returns e or a null node.
static TSNode conditional_operand(Lower *L, TSNode rhs, const char *tgt, RedOp op) {
  TSNode e;
  if (!ts_is(rhs, "conditional_expression") ||
      !selects_candidate(L, ts_field(rhs, "condition"), tgt, op, &e))
    return (TSNode){0};
  const char *et = squeeze(L, node_text(L, strip(e)));
  if (is_target(L, ts_field(rhs, "alternative"), tgt) &&
      !strcmp(squeeze(L, node_text(L, strip(ts_field(rhs, "consequence")))), et))
    return e;
  return (TSNode){0};
}

TSNode update_operand(Lower *L, const char *target, RedOp op, const UserOp *u, TSNode asg,
                      const char *aop) {
  const char *tgt = squeeze(L, target);
  TSNode rhs = strip(ts_field(asg, "right"));
  const char *opc = op == RED_ADD ? "+" : op == RED_MUL ? "*" : NULL;
  const char *name = op == RED_USER ? u->call : op == RED_MIN ? "fmin" : op == RED_MAX ? "fmax" : opc;
  if (opc && !strcmp(aop, arena_printf(L->a, "%s=", opc))) return ts_field(asg, "right");
  if (!strcmp(aop, "=")) {
    if (opc && ts_is(rhs, "binary_expression") &&
        !strcmp(node_text(L, ts_field(rhs, "operator")), opc)) {
      if (is_target(L, ts_field(rhs, "left"), tgt)) return ts_field(rhs, "right");
      if (is_target(L, ts_field(rhs, "right"), tgt)) return ts_field(rhs, "left");
    }
    if (!opc && ts_is(rhs, "call_expression") && names_op(L, ts_field(rhs, "function"), op, u) &&
        ts_node_named_child_count(ts_field(rhs, "arguments")) == 2) {
      TSNode args = ts_field(rhs, "arguments");
      TSNode a0 = ts_node_named_child(args, 0), a1 = ts_node_named_child(args, 1);
      if (is_target(L, a0, tgt)) return a1;
      if (is_target(L, a1, tgt)) {
        if (!commutative(op, u))
          diag_error(node_loc(L, asg), arena_printf(L->a, "write %s = %s(%s, e)", target, name, target),
                     "operator '%s' is not declared commutative, so the accumulated value must be "
                     "its first argument", name);
        return a0;
      }
    }
    if (op == RED_MIN || op == RED_MAX) {
      TSNode e = conditional_operand(L, rhs, tgt, op);
      if (!ts_node_is_null(e)) return e;
    }
  }
  const char *hint = opc ? arena_printf(L->a, "write %s %s= e; or %s = %s %s e;", target, opc,
                                        target, target, opc)
                         : arena_printf(L->a, "write %s = %s(%s, e);%s", target, name, target,
                                        op == RED_USER ? "" : " or if (e > v) v = e;");
  diag_error(node_loc(L, asg), hint, "'%s' is updated in a form its %s clause does not allow",
             target, op == RED_USER ? u->name : redop_name(op));
}

// `target -= e;` or `target = target - e;` (a + reduction's update by -e, as OpenMP's - is):
// e, or a null node.
TSNode sub_operand(Lower *L, const char *target, TSNode asg, const char *aop) {
  if (!strcmp(aop, "-=")) return ts_field(asg, "right");
  TSNode rhs = strip(ts_field(asg, "right"));
  if (!strcmp(aop, "=") && ts_is(rhs, "binary_expression") &&
      !strcmp(node_text(L, ts_field(rhs, "operator")), "-") &&
      is_target(L, ts_field(rhs, "left"), squeeze(L, target)))
    return ts_field(rhs, "right");
  return (TSNode){0};
}

// `if (e > target) target = e;` (no else): returns the assignment, sets *e; or a null node.
TSNode if_update(Lower *L, TSNode s, const char *target, RedOp op, TSNode *e) {
  if (op != RED_MIN && op != RED_MAX) return (TSNode){0};
  TSNode alt = ts_field(s, "alternative"), body = ts_field(s, "consequence");
  if (!ts_node_is_null(alt)) return (TSNode){0};
  if (ts_is(body, "compound_statement")) {
    if (ts_node_named_child_count(body) != 1) return (TSNode){0};
    body = ts_node_named_child(body, 0);
  }
  TSNode asg = ts_node_named_child(body, 0);
  if (!ts_is(body, "expression_statement") || !ts_is(asg, "assignment_expression") ||
      strcmp(node_text(L, ts_field(asg, "operator")), "="))
    return (TSNode){0};
  const char *tgt = squeeze(L, target);
  if (!is_target(L, ts_field(asg, "left"), tgt) ||
      !selects_candidate(L, ts_field(s, "condition"), tgt, op, e))
    return (TSNode){0};
  if (strcmp(squeeze(L, node_text(L, strip(*e))),
             squeeze(L, node_text(L, strip(ts_field(asg, "right"))))))
    return (TSNode){0};
  return asg;
}
