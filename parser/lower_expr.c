// parser/lower_expr.c: C expressions -> SSA scalar IR, with C's usual conversions made
// explicit as IR_CAST, and `?:`, `&&`, `||` lowered to IR_IF so that only the side C
// evaluates is evaluated (and differentiated).
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "macro.h"

static Val lower_expr_node(Lower *L, TSNode e);

static Type *unsigned_type(Lower *L, const char *name) {
  Type *t = ARENA_NEW(L->a, Type);
  *t = (Type){TY_INT, name};
  return t;
}

// number_literal: 1, 1u, 10L, 0x1f, 1.5, 1e-3, 2.f, 0x1p-3; tree-sitter puts a minus sign
// before the digits into the literal (-1): the constant's type is its digits', negated.
static Val lower_number(Lower *L, TSNode e) {
  const char *s = node_text(L, e);
  bool neg = s[0] == '-';
  if (neg || s[0] == '+') s++;
  size_t n = strlen(s);
  bool is_hex = n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  bool is_float = is_hex ? strpbrk(s, ".pP") != NULL : strpbrk(s, ".eE") != NULL;
  if (is_float) {
    bool f32 = s[n - 1] == 'f' || s[n - 1] == 'F';
    errno = 0;
    double v = f32 ? strtof(s, NULL) : strtod(s, NULL); // (rounded once, as C rounds it)
    if (errno == ERANGE) diag_error(node_loc(L, e), NULL, "floating constant out of range");
    return b_const_f(&L->b, f32 ? &ty_float : &ty_double, neg ? -v : v);
  }
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  bool has_u = strpbrk(end, "uU") != NULL, has_l = strpbrk(end, "lL") != NULL;
  bool decimal = s[0] != '0'; // hexadecimal and octal constants may be unsigned unsuffixed
  // the first type of C11 6.4.4.1p5's list that holds the value (LP64: long long is long)
  Type *t = NULL;
  unsigned long long wrap = ~0ULL; // the type's values, for the negation
  if (!has_u && !has_l && v <= 2147483647ULL)
    t = &ty_int;
  else if (!has_l && v <= 4294967295ULL && (has_u || !decimal))
    t = unsigned_type(L, "unsigned"), wrap = 4294967295ULL;
  else if (!has_u && v <= 9223372036854775807ULL)
    t = &ty_long;
  else if (has_u || !decimal)
    t = unsigned_type(L, "unsigned long");
  if (errno == ERANGE || !t) diag_error(node_loc(L, e), NULL, "integer constant out of range");
  return b_const_i(&L->b, t, (long long)((neg ? 0 - v : v) & wrap));
}

// Constants of <math.h> and <float.h> (system headers are not read).
static bool builtin_constant(Lower *L, const char *name, Val *out) {
  static const struct {
    const char *name;
    double v;
    bool f32;
  } k[] = {{"INFINITY", INFINITY, true},   {"HUGE_VAL", HUGE_VAL, false},
           {"HUGE_VALF", HUGE_VALF, true}, {"NAN", NAN, true},
           {"M_PI", 3.14159265358979323846, false}, {"M_E", 2.7182818284590452354, false},
           {"M_SQRT2", 1.41421356237309504880, false}, {"M_LN2", 0.69314718055994530942, false},
           {"M_PI_2", 1.57079632679489661923, false},       {"DBL_MAX", DBL_MAX, false},
           {"FLT_MAX", FLT_MAX, true},      {"DBL_MIN", DBL_MIN, false},
           {"FLT_MIN", FLT_MIN, true},      {"DBL_EPSILON", DBL_EPSILON, false},
           {"FLT_EPSILON", FLT_EPSILON, true}};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (!strcmp(name, k[i].name)) {
      *out = b_const_f(&L->b, k[i].f32 ? &ty_float : &ty_double, k[i].v);
      return true;
    }
  return false;
}

static Val lower_identifier(Lower *L, TSNode e) {
  const char *name = node_text(L, e);
  if (!L->in_expansion && L->macros) { // the preprocessor runs first
    const char *x = macro_expand(L->macros, name, NULL, 0, false, use_byte(L, e), node_loc(L, e));
    if (x) return lower_expr_text(L, x, node_loc(L, e), true);
  }
  Var *v = var_find(L, name);
  Val k;
  if (!v && builtin_constant(L, name, &k)) return k;
  if (!v && (k = mpi_comm_constant(L, e))) return k;
  if (!v && !strcmp(name, "MPI_SUCCESS")) return b_const_i(&L->b, &ty_int, 0);
  if (!v && global_read(L, e, name, &k)) return k;
  if (!v)
    diag_error(node_loc(L, e), "define it in this file or in a header included with "
               "#include \"...\", or pass it as a parameter (adsoac does not read <...> "
               "headers; it knows the macros of the C standard headers)",
               "unknown identifier '%s'", name);
  if (v->kind == VAR_ARRAY || v->kind == VAR_REF)
    diag_error(node_loc(L, e), "index the array, e.g. x[i]", "pointer '%s' used as a value", name);
  if (v->kind == VAR_RED)
    diag_error(node_loc(L, e), "a reduction variable may only be updated in its loop "
               "(reading a running value needs scan(...), not reduce)",
               "reduction variable '%s' is read in the loop body", name);
  if (!v->val && v->partial.line)
    diag_error(node_loc(L, e), "assign the variable before the if, or in both branches",
               "'%s' has a value only where one branch of the if at %u:%u assigned it", name,
               v->partial.line, v->partial.col);
  if (!v->val && v->priv.line)
    diag_error(node_loc(L, e), "assign it after the loop before reading it, or declare it "
               "inside the loop", "'%s' was private to each iteration of the parallel loop at "
               "%u:%u (assigned there before it is read): its value after the loop is the last "
               "iteration's, which adsoac does not keep", name, v->priv.line, v->priv.col);
  if (!v->val) diag_error(node_loc(L, e), NULL, "'%s' is used before it is assigned", name);
  return v->val; // a scan variable reads its running value
}

// x[k], p[k], (p + 1)[k]: an element of the array the pointer views.
static Val lower_subscript(Lower *L, TSNode e) {
  TSNode an = ts_field(e, "argument");
  View v;
  if (!ptr_view(L, an, &v))
    diag_error(node_loc(L, an), "index arrays and pointers into them",
               "'%s' is not an array or a pointer", node_text(L, an));
  Val idx = lower_expr(L, ts_field(e, "index"));
  if (!ty_is_int(val_type(L->fn, idx)))
    diag_error(node_loc(L, ts_field(e, "index")), "cast the index to an integer type",
               "array index is not an integer");
  return view_read(L, &v, idx, node_loc(L, e));
}

// *p: p[0].
static Val lower_deref(Lower *L, TSNode e) {
  if (strcmp(node_text(L, ts_field(e, "operator")), "*"))
    diag_error(node_loc(L, e), "pass pointers to functions, or use them as p[k]",
               "a pointer used as a number");
  View v;
  if (!ptr_view(L, ts_field(e, "argument"), &v))
    diag_error(node_loc(L, e), NULL, "'*' of something that is not a pointer");
  return view_read(L, &v, b_const_i(&L->b, &ty_int, 0), node_loc(L, e));
}

// An assignment or ++/-- inside an expression (x[k++], if (++n > 3), a = b = 0): the
// assignment is made where C's evaluation makes it, and the expression's value is the
// variable's new value (++x, x = e) or its old one (x++).  Not in an operand of ?:, && or ||,
// which runs in a branch of its own (its assignments would need merging).
static Val lower_side_effect(Lower *L, TSNode e) {
  TSNode tg = ts_is(e, "update_expression") ? ts_field(e, "argument") : ts_field(e, "left");
  while (ts_is(tg, "parenthesized_expression")) tg = ts_node_named_child(tg, 0);
  if (L->choice_depth && !ts_is(tg, "identifier"))
    diag_error(node_loc(L, e), "make the assignment a statement of its own before the "
               "expression", "assignment to an array element inside an operand of '?:', '&&' "
               "or '||' is not supported");
  bool post = ts_is(e, "update_expression") &&
              ts_node_start_byte(ts_field(e, "argument")) < ts_node_start_byte(ts_field(e, "operator"));
  TSNode target = ts_is(e, "update_expression") ? ts_field(e, "argument") : ts_field(e, "left");
  while (ts_is(target, "parenthesized_expression")) target = ts_node_named_child(target, 0);
  Val old = post ? lower_expr(L, target) : 0;
  L->stmt(L, e);
  return post ? old : lower_expr(L, target);
}

// The scalar variables an operand of ?:, && or || assigned (x[k++] > 0 && ...): n's sides
// yield their values, merged into outs as an if statement's are.  before: the values before
// the if; side[0], side[1]: at the end of each side (the variables hold the else side's).
static void choice_merge(Lower *L, Node *n, const Val *before, const Val *then_vals, int nv) {
  for (int i = 0; i < nv; i++) {
    Var *v = L->vars[i];
    Val t = then_vals[i], e = v->val;
    if (t == before[i] && e == before[i]) continue;
    if (!t || !e) diag_error(n->loc, NULL, "'%s' is assigned in only one operand", v->name);
    if (n->u.ifs.nouts == 1 && n->u.ifs.outs) { // make room (the expression's value is first)
      Val *o = ARENA_ARRAY(L->a, Val, nv + 1);
      o[0] = n->u.ifs.outs[0];
      n->u.ifs.outs = o;
    }
    block_yield(L->a, n->u.ifs.then, t);
    block_yield(L->a, n->u.ifs.els, e);
    Val out = fn_val(L->fn, v->type, v->kind == VAR_RED || v->name[0] == '$' ? NULL : v->name);
    n->u.ifs.outs[n->u.ifs.nouts++] = out;
    v->val = out;
  }
}

static Val *var_vals(Lower *L, int nv) {
  Val *v = ARENA_ARRAY(L->a, Val, nv + 1);
  for (int i = 0; i < nv; i++) v[i] = L->vars[i]->val;
  return v;
}

// An IR_IF with one out: out = c ? (then-side) : (else-side).  The sides are lowered by
// callbacks into their own blocks, so only the side C evaluates runs.
typedef Val SideFn(Lower *L, TSNode n, Type *t);

static Val lower_choice(Lower *L, Val c, Loc loc, Type *t, SideFn *tf, TSNode tn, SideFn *ef,
                       TSNode en) {
  Node *n = node_new(L->a, IR_IF, loc);
  Block *outer = L->b.blk;
  int nv = L->nvars;
  Val *before = var_vals(L, nv);
  nest_enter(L, tn);
  L->choice_depth++;
  n->u.ifs.cond = c;
  n->u.ifs.then = L->b.blk = block_new(L->a);
  block_yield(L->a, n->u.ifs.then, tf(L, tn, t));
  Val *then_vals = var_vals(L, nv);
  for (int i = 0; i < nv; i++) L->vars[i]->val = before[i];
  n->u.ifs.els = L->b.blk = block_new(L->a);
  block_yield(L->a, n->u.ifs.els, ef(L, en, t));
  L->choice_depth--;
  nest_leave(L);
  L->b.blk = outer;
  n->u.ifs.nouts = 1;
  n->u.ifs.outs = ARENA_ARRAY(L->a, Val, 1);
  n->out = 0;
  n->u.ifs.outs[0] = fn_val(L->fn, t, NULL);
  choice_merge(L, n, before, then_vals, nv);
  b_push(&L->b, n);
  return n->u.ifs.outs[0];
}

static Val side_truth(Lower *L, TSNode n, Type *t) {
  return lower_cond(L, n);
}

static Val side_const0(Lower *L, TSNode n, Type *t) {
  return b_const_i(&L->b, t, 0);
}

static Val side_const1(Lower *L, TSNode n, Type *t) {
  return b_const_i(&L->b, t, 1);
}

// c ? x : y, with both sides lowered into their own blocks first so that the result type
// is C's common type of the two.
static Val lower_conditional(Lower *L, TSNode e) {
  if (ts_node_is_null(ts_field(e, "consequence")))
    diag_error(node_loc(L, e), "write c ? a : b", "the GNU shorthand 'a ?: b' is not supported");
  Val c = lower_cond(L, ts_field(e, "condition"));
  Block *outer = L->b.blk, *tb = block_new(L->a), *eb = block_new(L->a);
  int nv = L->nvars;
  Val *before = var_vals(L, nv);
  nest_enter(L, ts_field(e, "consequence"));
  L->choice_depth++;
  L->b.blk = tb;
  Val tv = lower_expr(L, ts_field(e, "consequence"));
  Val *then_vals = var_vals(L, nv);
  for (int i = 0; i < nv; i++) L->vars[i]->val = before[i];
  L->b.blk = eb;
  Val ev = lower_expr(L, ts_field(e, "alternative"));
  L->choice_depth--;
  nest_leave(L);
  Type *t = common_type(val_type(L->fn, tv), val_type(L->fn, ev));
  L->b.loc = node_loc(L, e);
  L->b.blk = tb;
  block_yield(L->a, tb, convert(L, tv, t));
  L->b.blk = eb;
  block_yield(L->a, eb, convert(L, ev, t));
  L->b.blk = outer;
  Node *n = node_new(L->a, IR_IF, node_loc(L, e));
  n->u.ifs.cond = c;
  n->u.ifs.then = tb;
  n->u.ifs.els = eb;
  n->u.ifs.nouts = 1;
  n->u.ifs.outs = ARENA_ARRAY(L->a, Val, 1);
  n->u.ifs.outs[0] = fn_val(L->fn, t, NULL);
  choice_merge(L, n, before, then_vals, nv);
  b_push(&L->b, n);
  return n->u.ifs.outs[0];
}

static const struct {
  const char *s;
  BinOp op;
} binops[] = {{"+", BIN_ADD}, {"-", BIN_SUB}, {"*", BIN_MUL},   {"/", BIN_DIV},  {"%", BIN_MOD},
              {"<", BIN_LT},  {"<=", BIN_LE}, {">", BIN_GT},    {">=", BIN_GE},  {"==", BIN_EQ},
              {"!=", BIN_NE}, {"&", BIN_BAND}, {"|", BIN_BOR},  {"^", BIN_BXOR}, {"<<", BIN_SHL},
              {">>", BIN_SHR}};

static Val lower_binary(Lower *L, TSNode e) {
  const char *op = node_text(L, ts_field(e, "operator"));
  TSNode ln = ts_field(e, "left"), rn = ts_field(e, "right");
  if (!strcmp(op, "&&")) {
    Val c = lower_cond(L, ln);
    return lower_choice(L, c, node_loc(L, e), &ty_int, side_truth, rn, side_const0, rn);
  }
  if (!strcmp(op, "||")) {
    Val c = lower_cond(L, ln);
    return lower_choice(L, c, node_loc(L, e), &ty_int, side_const1, rn, side_truth, rn);
  }
  Val a = lower_expr(L, ln), b = lower_expr(L, rn);
  for (size_t i = 0; i < sizeof binops / sizeof *binops; i++) {
    if (strcmp(op, binops[i].s)) continue;
    BinOp bop = binops[i].op;
    Type *ta = val_type(L->fn, a), *tb = val_type(L->fn, b);
    bool int_only = bop == BIN_MOD || bop >= BIN_BAND;
    if (int_only && (!ty_is_int(ta) || !ty_is_int(tb)))
      diag_error(node_loc(L, e), NULL, "operator '%s' needs integer operands", op);
    L->b.loc = node_loc(L, e);
    if (bop == BIN_SHL || bop == BIN_SHR) return b_binop(&L->b, bop, a, b);
    Type *ct = common_type(ta, tb);
    return b_binop(&L->b, bop, convert(L, a, ct), convert(L, b, ct));
  }
  diag_error(node_loc(L, e), NULL, "unsupported operator '%s'", op);
}

static Val lower_unary(Lower *L, TSNode e) {
  const char *op = node_text(L, ts_field(e, "operator"));
  Val a = lower_expr(L, ts_field(e, "argument"));
  L->b.loc = node_loc(L, e);
  if (!strcmp(op, "+")) return a;
  if (!strcmp(op, "-")) return b_unop(&L->b, UN_NEG, a);
  if (!strcmp(op, "!")) return b_unop(&L->b, UN_NOT, a);
  if (!strcmp(op, "~")) {
    if (!ty_is_int(val_type(L->fn, a))) diag_error(node_loc(L, e), NULL, "'~' on a non-integer");
    return b_unop(&L->b, UN_BITNOT, a);
  }
  diag_error(node_loc(L, e), NULL, "unsupported unary operator '%s'", op);
}

// NAME(args) where NAME is a macro: the expansion, with a call applied to an object-like
// macro's expansion (#define SQRT sqrt), lowered as an expression.
static Val lower_macro_call(Lower *L, TSNode e, const char *name) {
  TSNode args = ts_field(e, "arguments");
  uint32_t n = ts_node_named_child_count(args);
  const char **av = ARENA_ARRAY(L->a, const char *, n + 1);
  Buf joined = {.arena = L->a};
  int k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (ts_is(a, "comment")) continue;
    av[k] = node_text(L, a);
    buf_printf(&joined, "%s%s", k ? ", " : "", av[k]);
    k++;
  }
  bool fl = false;
  macro_defined(L->macros, name, use_byte(L, e), &fl);
  const char *x = macro_expand(L->macros, name, av, k, true, use_byte(L, e), node_loc(L, e));
  if (!fl) x = arena_printf(L->a, "%s(%s)", x, joined.data ? joined.data : "");
  buf_free(&joined);
  return lower_expr_text(L, x, node_loc(L, e), !fl ? false : true);
}

static Val lower_call(Lower *L, TSNode e) {
  TSNode fnode = ts_field(e, "function"), args = ts_field(e, "arguments");
  const char *name = node_text(L, fnode);
  MathFn fn;
  bool f32;
  if (!ts_is(fnode, "identifier"))
    diag_error(node_loc(L, fnode), NULL, "calls through expressions are not supported");
  if (!L->in_expansion && L->macros && macro_defined(L->macros, name, use_byte(L, e), NULL))
    return lower_macro_call(L, e, name);
  ExtDef *x;
  HASH_FIND_STR(L->exts, name, x);
  if (x) return lower_ext_call(L, e, x->fn);
  if (!math_lookup(name, &fn, &f32)) {
    TSNode def = fn_def(L->fndefs, name);
    if (ts_node_is_null(def) && is_mpi_name(name)) { // (its result: MPI_SUCCESS, see lower_mpi.c)
      if (L->choice_depth)
        diag_error(node_loc(L, e), "call it as a statement of its own",
                   "'%s' in an operand of ?:, && or ||", name);
      lower_mpi_call(L, e);
      return b_const_i(&L->b, &ty_int, 0);
    }
    if (ts_node_is_null(def) && !strncmp(name, "omp_", 4))
      diag_error(node_loc(L, fnode), strstr(name, "lock")
                     ? "update shared variables under #pragma omp atomic, or with a reduction "
                       "clause"
                     : strstr(name, "thread")
                     ? "write per-thread partials as a reduction clause (reduction(+: s)), or "
                       "as a private partial merged under atomic after the loop"
                     : "call it outside the marked function",
                 "the OpenMP runtime call '%s' has no reading as an annotation (language.md 11)",
                 name);
    if (ts_node_is_null(def))
      diag_error(node_loc(L, fnode), "adsoac differentiates only code it can see: define the "
                 "function (static) in this file, use a math function of language.md §6, or "
                 "declare its derivatives: #pragma adsoac derivative(f) vjp(f_vjp) jvp(f_jvp)",
                 "call to '%s', whose body is not in this file", name);
    return lower_user_call(L, e, def);
  }
  int nargs = (int)ts_node_named_child_count(args);
  if (nargs != math_arity(fn))
    diag_error(node_loc(L, e), NULL, "'%s' takes %d argument%s", name, math_arity(fn),
               math_arity(fn) == 1 ? "" : "s");
  Type *t = f32 ? &ty_float : &ty_double;
  Val v[3] = {0, 0, 0};
  for (int i = 0; i < nargs; i++) v[i] = convert(L, lower_expr(L, ts_node_named_child(args, i)), t);
  L->b.loc = node_loc(L, e);
  return b_call3(&L->b, fn, v[0], v[1], v[2]);
}

// C's grammar is ambiguous without knowing the type names: `(x) - y` is a cast of -y to the
// type x, or a subtraction.  tree-sitter, which knows no typedefs, guesses a cast; macro
// expansions are full of such parentheses.  A "cast" to a name that is a variable in scope
// is the other reading: the expression is parsed again with those parentheses blanked.
static bool cast_to_variable(Lower *L, TSNode n) {
  if (!ts_is(n, "cast_expression")) return false;
  TSNode td = ts_field(n, "type"), tn = ts_field(td, "type");
  if (!ts_node_is_null(ts_field(td, "declarator")) || !ts_is(tn, "type_identifier")) return false;
  Var *v = var_find(L, node_text(L, tn));
  return v && v->kind != VAR_ARRAY;
}

// (The walks over an expression's subtree go without recursion: ts_walk.)
typedef struct {
  Lower *L;
  bool found;
  char *text; // blank_cast: the expression's text, its first byte at base
  uint32_t base;
} CastWalk;

static bool find_cast(void *ctx, TSNode n, int depth) {
  CastWalk *w = ctx;
  w->found |= cast_to_variable(w->L, n);
  return !w->found;
}

static bool has_cast_to_variable(Lower *L, TSNode n) {
  CastWalk w = {L};
  ts_walk(n, find_cast, &w);
  return w.found;
}

static bool blank_cast(void *ctx, TSNode n, int depth) {
  CastWalk *w = ctx;
  if (cast_to_variable(w->L, n)) {
    uint32_t open = ts_node_start_byte(n) - w->base;
    uint32_t close = ts_node_end_byte(ts_field(n, "type")) - w->base;
    w->text[open] = ' ';
    while (w->text[close] != ')') close++;
    w->text[close] = ' ';
  }
  return true;
}

static Val reparse_without_casts(Lower *L, TSNode e) {
  CastWalk w = {L, false, (char *)node_text(L, e), ts_node_start_byte(e)};
  ts_walk(e, blank_cast, &w);
  return lower_expr_text(L, w.text, node_loc(L, e), L->in_expansion);
}

static Val lower_cast(Lower *L, TSNode e) {
  TSNode td = ts_field(e, "type");
  if (!ts_node_is_null(ts_field(td, "declarator")))
    diag_error(node_loc(L, td), NULL, "casts to pointer types are not supported");
  Type *t = lower_type(L, ts_field(td, "type"));
  Val a = lower_expr(L, ts_field(e, "value"));
  L->b.loc = node_loc(L, e);
  return convert(L, a, t);
}

Val lower_expr(Lower *L, TSNode e) {
  if (ts_node_is_null(e)) diag_error(L->b.loc, NULL, "expected an expression here");
  L->b.loc = node_loc(L, e);
  if (!L->expr_depth && has_cast_to_variable(L, e)) return reparse_without_casts(L, e);
  if (++L->expr_nesting > max_tree_depth) // (the file's tree is checked: inlined calls, macros)
    diag_error(node_loc(L, e), "split the expression into several statements",
               "expression nested more than %d levels deep, counting the calls inlined and "
               "the macros expanded in it", max_tree_depth);
  L->expr_depth++;
  Val v = lower_expr_node(L, e);
  L->expr_depth--;
  L->expr_nesting--;
  return v;
}

static Val lower_expr_node(Lower *L, TSNode e) {
  const char *t = ts_node_type(e);
  if (!strcmp(t, "number_literal")) return lower_number(L, e);
  if (!strcmp(t, "identifier")) return lower_identifier(L, e);
  if (!strcmp(t, "parenthesized_expression")) return lower_expr(L, ts_node_named_child(e, 0));
  if (!strcmp(t, "subscript_expression")) return lower_subscript(L, e);
  if (!strcmp(t, "binary_expression")) return lower_binary(L, e);
  if (!strcmp(t, "unary_expression")) return lower_unary(L, e);
  if (!strcmp(t, "conditional_expression")) return lower_conditional(L, e);
  if (!strcmp(t, "call_expression")) return lower_call(L, e);
  if (!strcmp(t, "cast_expression")) return lower_cast(L, e);
  if (!strcmp(t, "true") || !strcmp(t, "false"))
    return b_const_i(&L->b, &ty_int, !strcmp(t, "true"));
  if (!strcmp(t, "assignment_expression") || !strcmp(t, "update_expression"))
    return lower_side_effect(L, e);
  if (!strcmp(t, "pointer_expression")) return lower_deref(L, e);
  if (!strcmp(t, "sizeof_expression"))
    diag_error(node_loc(L, e), NULL, "sizeof is not supported here");
  if (!strcmp(t, "field_expression")) return lower_field(L, e);
  if (!strcmp(t, "compound_literal_expression"))
    diag_error(node_loc(L, e), "use a field of it, or assign it to a struct variable",
               "a struct used as a number");
  diag_error(node_loc(L, e), NULL, "unsupported expression (%s)", t);
}

Val lower_cond(Lower *L, TSNode e) {
  Val v = lower_expr(L, e);
  Type *t = val_type(L->fn, v);
  if (t->kind == TY_INT && !strcmp(t->name, "int")) return v;
  L->b.loc = node_loc(L, e);
  Val zero = ty_is_float(t) ? b_const_f(&L->b, t, 0) : b_const_i(&L->b, t, 0);
  return b_binop(&L->b, BIN_NE, v, zero);
}
