// parser/lower.c: statements and declarations of a marked function -> IR.
//
// Scalars become SSA values: Lower.vars maps each C variable to its current Val, and an
// `if` merges the variables its branches assign into the outs of an IR_IF.
#include <ctype.h>
#include <string.h>

#include "lower.h"
#include "macro.h"

static void lower_stmts(Lower *L, TSNode first);

// ---- declarations ----

// declaration: type declarator (',' declarator)* ';'   declarator: identifier | init_declarator
// A pointer variable: `T *p = e;` (a view of an array, or an allocation), or `T *p;`.
static void lower_ptr_decl(Lower *L, TSNode decl, TSNode name, TSNode value, Type *t) {
  bool is_const = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(decl); i++) {
    TSNode q = ts_node_named_child(decl, i);
    if (ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const")) is_const = true;
  }
  TSNode id = ts_field(name, "declarator");
  if (!ts_is(id, "identifier"))
    diag_error(node_loc(L, name), "index one array with computed indices instead",
               "pointers to pointers and arrays of pointers are not supported");
  check_not_macro(L, id);
  const char *s = node_text(L, id);
  Type *pt = ty_ptr(L->a, t, is_const);
  Loc loc = node_loc(L, id);
  L->b.loc = loc;
  // the rest of the block: does the pointer move later (p++, p = q + k)?
  TSNode parent = ts_node_parent(decl);
  bool moves = assigned_in(L, ts_is(parent, "compound_statement") ? parent : decl, s);
  View v;
  Val cands[MAX_BASES];
  int nc = moves ? ptr_candidates(L, ts_is(parent, "compound_statement") ? parent : decl, s, cands) : 0;
  if (ts_node_is_null(value)) {
    ptr_var_push_bases(L, s, pt, NULL, true, cands, nc, loc);
    return;
  }
  L->decl_ptr = s, L->decl_elem = t;
  bool alloc = lower_alloc(L, value, t, &v);
  L->decl_ptr = NULL;
  if (alloc) L->fn->vals[v.arr].hint = s; // (the array's name: the pointer's)
  if (!alloc) v = view_expr(L, value, "the initial value");
  if (v.ref < 0 && v.type->elem->kind != t->kind)
    diag_error(node_loc(L, value), NULL, "'%s' points to '%s', not to '%s'", s,
               ty_c_name(L->a, t), ty_c_name(L->a, v.type->elem));
  if (v.ref < 0 && v.type->elem_const && !is_const)
    diag_error(node_loc(L, value), "declare the pointer const T *", "'%s' points to const elements",
               s);
  ptr_var_push_bases(L, s, v.ref >= 0 ? v.type : pt, &v, moves, cands, nc, loc);
}

static void lower_declaration(Lower *L, TSNode decl) {
  Type *t = lower_type(L, ts_field(decl, "type"));
  uint32_t k = ts_node_named_child_count(decl);
  for (uint32_t i = 0; i < k; i++) {
    TSNode d = ts_node_named_child(decl, i);
    if (ts_node_eq(d, ts_field(decl, "type")) || ts_is(d, "type_qualifier") ||
        ts_is(d, "storage_class_specifier"))
      continue;
    TSNode name = d, value = {0};
    if (ts_is(d, "init_declarator")) {
      name = ts_field(d, "declarator");
      value = ts_field(d, "value");
    }
    if (ts_is(name, "pointer_declarator")) {
      lower_ptr_decl(L, decl, name, value, t);
      continue;
    }
    if (ts_is(name, "array_declarator")) {
      lower_array_decl(L, decl, name, value, t);
      continue;
    }
    if (!ts_is(name, "identifier"))
      diag_error(node_loc(L, name), "declare local scalars and structs only (no pointers or "
                 "arrays yet)", "unsupported declaration");
    check_not_macro(L, name);
    if (t->kind == TY_VOID) diag_error(node_loc(L, d), NULL, "variable of type void");
    L->b.loc = node_loc(L, d);
    if (t->kind == TY_STRUCT) {
      Val fields[64];
      if (!ts_node_is_null(value)) lower_struct_expr(L, value, t, fields);
      struct_var_push(L, node_text(L, name), t, ts_node_is_null(value) ? NULL : fields,
                      node_loc(L, name));
      continue;
    }
    Val v = 0;
    if (!ts_node_is_null(value)) {
      if (ts_is(value, "initializer_list"))
        diag_error(node_loc(L, value), NULL, "initializer lists are not supported yet");
      v = convert(L, lower_expr(L, value), t);
    }
    var_push(L, (Var){node_text(L, name), t, VAR_SCALAR, v, node_loc(L, name)});
    if (v && !L->fn->vals[v].hint) L->fn->vals[v].hint = node_text(L, name);
  }
}

// ---- assignments ----

static BinOp compound_op(Lower *L, TSNode e, const char *op) {
  static const struct {
    const char *s;
    BinOp op;
  } ops[] = {{"+=", BIN_ADD}, {"-=", BIN_SUB}, {"*=", BIN_MUL}, {"/=", BIN_DIV},
             {"%=", BIN_MOD}, {"&=", BIN_BAND}, {"|=", BIN_BOR}, {"^=", BIN_BXOR},
             {"<<=", BIN_SHL}, {">>=", BIN_SHR}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(op, ops[i].s)) return ops[i].op;
  diag_error(node_loc(L, e), NULL, "unsupported assignment operator '%s'", op);
}

// A reduction or scan variable gets the contribution x.
static void update_scalar_val(Lower *L, Var *v, Val x, Loc loc) {
  x = convert(L, x, v->type);
  L->b.loc = loc;
  Var *c = v->kind == VAR_SCAN ? L->vars[v->contrib] : v;
  c->val = c->val == c->neutral ? x : red_combine(L, c->red_op, c->red_user, c->val, x);
  if (v->kind == VAR_SCAN) v->val = red_combine(L, v->red_op, v->red_user, v->val, x);
}

// ... the contribution e.
static void update_scalar(Lower *L, Var *v, TSNode e, Loc loc) {
  update_scalar_val(L, v, lower_expr(L, e), loc);
}

// A struct reduction or scan variable gets the contribution e (a struct expression).
static void update_struct(Lower *L, Var *v, TSNode e, Loc loc) {
  Type *t = v->type;
  int nf = t->nfields;
  Val x[64], cur[64], out[64];
  lower_struct_expr(L, e, t, x);
  L->b.loc = loc;
  Var *c = v->red == VAR_SCAN ? L->vars[v->contrib] : v;
  int ck = c->idx, vk = v->idx;
  bool neutral = true;
  for (int f = 0; f < nf; f++) {
    cur[f] = L->vars[ck + 1 + f]->val;
    neutral &= cur[f] == c->neutral_fields[f];
  }
  if (neutral) {
    memcpy(out, x, sizeof(Val) * (size_t)nf);
  } else {
    red_combine_fields(L, c->red_user, cur, x, out);
  }
  for (int f = 0; f < nf; f++) L->vars[ck + 1 + f]->val = out[f];
  if (v->red == VAR_SCAN) {
    for (int f = 0; f < nf; f++) cur[f] = L->vars[vk + 1 + f]->val;
    red_combine_fields(L, v->red_user, cur, x, out);
    for (int f = 0; f < nf; f++) L->vars[vk + 1 + f]->val = out[f];
  }
}

// A hist target: h[k] OP= e and the other forms.  -1 if arr is not one.
static int hist_of(Lower *L, Val arr) {
  if (!L->par) return -1;
  for (int i = 0; i < L->par->nhists; i++)
    if (L->par->hists[i].arr == arr) return i;
  return -1;
}

// h[k] OP= e (e null: the contribution x, from h[k]++)
static void update_hist(Lower *L, int h, TSNode lhs, TSNode e, Val x, Loc loc) {
  ParCtx *p = L->par;
  Val idx = lower_expr(L, ts_field(lhs, "index"));
  if (!ty_is_int(val_type(L->fn, idx)))
    diag_error(node_loc(L, ts_field(lhs, "index")), "a histogram bin is an integer expression",
               "hist index is not an integer");
  Type *et = val_type(L->fn, p->hists[h].arr)->elem;
  x = convert(L, ts_node_is_null(e) ? x : lower_expr(L, e), et);
  L->b.loc = loc;
  Node *n = node_new(L->a, IR_UPDATE, loc);
  n->u.mem.arr = p->hists[h].arr;
  n->u.mem.idx = idx;
  n->u.mem.v = x;
  n->u.mem.hist = h;
  b_push(&L->b, n);
}

// e = ((v + a) - b) + ...: a chain of + and - whose leftmost operand is v, a + reduction's
// update by the rest; *out = a - b + ... (false: e is not one, or only v)
static bool add_chain(Lower *L, Var *v, TSNode e, Val *out) {
  while (ts_is(e, "parenthesized_expression")) e = ts_node_named_child(e, 0);
  if (!ts_is(e, "binary_expression")) return false;
  const char *o = node_text(L, ts_field(e, "operator"));
  if (strcmp(o, "+") && strcmp(o, "-")) return false;
  TSNode l = ts_field(e, "left");
  while (ts_is(l, "parenthesized_expression")) l = ts_node_named_child(l, 0);
  Val left;
  if (ts_is(l, "identifier") && !strcmp(node_text(L, l), v->name))
    left = 0;
  else if (!add_chain(L, v, l, &left))
    return false;
  Val r = convert(L, lower_expr(L, ts_field(e, "right")), v->type);
  L->b.loc = node_loc(L, e);
  if (!left)
    *out = o[0] == '+' ? r : b_neg(&L->b, r);
  else
    *out = b_binop(&L->b, o[0] == '+' ? BIN_ADD : BIN_SUB, left, r);
  return true;
}

static void assign_scalar(Lower *L, Var *v, TSNode asg, const char *op) {
  if (v->kind == VAR_INDEX)
    diag_error(node_loc(L, asg), "loop indices may not be assigned in the loop body",
               "assignment to loop index '%s'", v->name);
  if (v->kind == VAR_RED || v->kind == VAR_SCAN) {
    TSNode d = v->red_op == RED_ADD ? sub_operand(L, v->name, asg, op) : (TSNode){0};
    if (!ts_node_is_null(d)) { // s -= e: s += -e
      Val x = convert(L, lower_expr(L, d), v->type);
      L->b.loc = node_loc(L, asg);
      update_scalar_val(L, v, b_neg(&L->b, x), node_loc(L, asg));
      return;
    }
    Val x;
    if (v->red_op == RED_ADD && !strcmp(op, "=") && add_chain(L, v, ts_field(asg, "right"), &x)) {
      update_scalar_val(L, v, x, node_loc(L, asg)); // s = s + a - b + c: a - b + c
      return;
    }
    TSNode e = update_operand(L, v->name, v->red_op, v->red_user, asg, op);
    update_scalar(L, v, e, node_loc(L, asg));
    return;
  }
  if (L->par && v->idx < L->par->var_base && L->par->pragma && strstr(L->par->pragma, "#pragma omp"))
    diag_error(node_loc(L, asg), arena_printf(L->a, "add reduction(+: %s) (or the operator it "
               "accumulates with) to the directive, or private(%s)", v->name, v->name),
               "the OpenMP loop assigns '%s', shared by its iterations, without a reduction or "
               "private clause (a race in the original)", v->name);
  if (L->par && v->idx < L->par->var_base)
    diag_error(node_loc(L, asg), "a parallel loop may assign only variables declared inside it; "
               "list the variable in a reduce(...) clause if it accumulates a result",
               "parallel loop assigns variable '%s' declared outside it", v->name);
  Val rhs = lower_expr(L, ts_field(asg, "right"));
  L->b.loc = node_loc(L, asg);
  if (strcmp(op, "=")) {
    if (!v->val) diag_error(node_loc(L, asg), NULL, "'%s' is used before it is assigned", v->name);
    Type *ct = common_type(v->type, val_type(L->fn, rhs));
    rhs = b_binop(&L->b, compound_op(L, asg, op), convert(L, v->val, ct), convert(L, rhs, ct));
  }
  v->val = convert(L, rhs, v->type);
  if (!L->fn->vals[v->val].hint) L->fn->vals[v->val].hint = v->name;
}

static void assign_view(Lower *L, const View *w, Val idx, TSNode lhs, TSNode asg,
                        const char *op, Val one, const char *what, bool field);

// x[k] = e, p[k] = e, *p = e (x a pointer parameter, p a pointer variable or expression), and
// the compound forms.  Through a reference (&s passed to an inlined function) *p is s.
// one: the statement is lhs++ or lhs-- (asg the update, op "+=" or "-="), one the value 1
static void assign_element(Lower *L, TSNode lhs, TSNode asg, const char *op, Val one) {
  bool deref = ts_is(lhs, "pointer_expression");
  TSNode an = ts_field(lhs, "argument");
  Var *named = !deref && ts_is(an, "identifier") ? var_find(L, node_text(L, an)) : NULL;
  int h = named && named->kind == VAR_ARRAY && !named->off ? hist_of(L, named->val) : -1;
  if (h >= 0) {
    const Hist *hc = &L->par->hists[h];
    if (one) { // h[k]++: h[k] += 1
      if (hc->op != RED_ADD)
        diag_error(node_loc(L, asg), "use the clause's operator: h[k] OP= e",
                   "'%s' on a histogram of another operator than +", op[0] == '+' ? "++" : "--");
      L->b.loc = node_loc(L, asg);
      update_hist(L, h, lhs, (TSNode){0}, op[0] == '+' ? one : b_unop(&L->b, UN_NEG, one),
                  node_loc(L, asg));
      return;
    }
    TSNode d = hc->op == RED_ADD ? sub_operand(L, node_text(L, lhs), asg, op) : (TSNode){0};
    if (!ts_node_is_null(d)) { // h[k] -= e: h[k] += -e
      Val x = lower_expr(L, d);
      L->b.loc = node_loc(L, asg);
      update_hist(L, h, lhs, (TSNode){0}, b_neg(&L->b, x), node_loc(L, asg));
      return;
    }
    TSNode e = update_operand(L, node_text(L, lhs), hc->op, L->par->hist_user[h], asg, op);
    update_hist(L, h, lhs, e, 0, node_loc(L, asg));
    return;
  }
  View w = view_expr(L, an, arena_printf(L->a, "'%s'", node_text(L, an)));
  if (w.ndim > 0)
    diag_error(node_loc(L, lhs), "index every dimension: q[i][j] = e", "assignment to a row of "
               "an array of arrays");
  Val idx = deref ? b_const_i(&L->b, &ty_int, 0) : lower_expr(L, ts_field(lhs, "index"));
  if (!ty_is_int(val_type(L->fn, idx)))
    diag_error(node_loc(L, ts_field(lhs, "index")), "cast the index to an integer type",
               "array index is not an integer");
  if (w.ref >= 0) { // *p = e, p = &s: s = e
    Var *s = L->vars[w.ref];
    const Node *d = L->fn->defs[idx];
    if (!d || d->kind != IR_CONST || d->u.cst.i != 0)
      diag_error(node_loc(L, lhs), NULL, "an element other than [0] of the scalar variable '%s'",
                 s->name);
    if (s->kind != VAR_SCALAR)
      diag_error(node_loc(L, lhs), "assign the fields with p->f = e", "'%s' is a struct", s->name);
    if (L->par && w.ref < L->par->var_base)
      diag_error(node_loc(L, asg), "a parallel loop may assign only variables declared inside it",
                 "parallel loop assigns variable '%s' declared outside it", s->name);
    Val rhs = one ? one : lower_expr(L, ts_field(asg, "right"));
    L->b.loc = node_loc(L, asg);
    if (strcmp(op, "=")) {
      if (!s->val) diag_error(node_loc(L, asg), NULL, "'%s' is used before it is assigned", s->name);
      Type *ct = common_type(s->type, val_type(L->fn, rhs));
      rhs = b_binop(&L->b, compound_op(L, asg, op), convert(L, s->val, ct), convert(L, rhs, ct));
    }
    s->val = convert(L, rhs, s->type);
    return;
  }
  if (struct_view(&w)) { // p[k] = s: every field
    if (w.type->elem_const)
      diag_error(node_loc(L, lhs), NULL, "write to '%s', which points to const structs",
                 node_text(L, an));
    if (strcmp(op, "=") || one)
      diag_error(node_loc(L, asg), "update the fields one by one", "'%s' on a struct", op);
    Type *st = w.type->elem;
    Val vals[64];
    L->struct_expr(L, ts_field(asg, "right"), st, vals);
    for (int k = 0; k < st->nfields; k++) {
      View fv = field_view(L, &w, k);
      assign_view(L, &fv, idx, lhs, asg, op, vals[k], node_text(L, an), true);
    }
    return;
  }
  assign_view(L, &w, idx, lhs, asg, op, one, node_text(L, an), false);
}

// w[idx] = e (the right side of asg), or w[idx] op= e; one: the value of e (lhs++: 1, a
// field of a struct: its value).  what: the array, for messages; field: w is a field of an
// array of structs.
static void assign_view(Lower *L, const View *wp, Val idx, TSNode lhs, TSNode asg,
                        const char *op, Val one, const char *what, bool field) {
  View w = *wp;
  for (int k = 0; k < (w.nbase > 1 ? w.nbase : 1); k++)
    refuse_global_array(L, w.nbase > 1 ? w.bases[k] : w.arr, node_loc(L, lhs));
  if (w.type->elem_const)
    diag_error(node_loc(L, lhs), NULL, field ? "write to '%s', a field of a const struct"
                                              : "write to '%s', which points to const elements",
               what);
  if (hist_of(L, w.arr) >= 0)
    diag_error(node_loc(L, lhs), "update the histogram as h[k] OP= e, h named as in the clause",
               "histogram written through another pointer");
  Val rhs = one ? one : lower_expr(L, ts_field(asg, "right"));
  Type *et = w.type->elem;
  L->b.loc = node_loc(L, asg);
  if (strcmp(op, "=")) {
    Val old = view_read(L, &w, idx, node_loc(L, lhs));
    Type *ct = common_type(et, val_type(L->fn, rhs));
    rhs = b_binop(&L->b, compound_op(L, asg, op), convert(L, old, ct), convert(L, rhs, ct));
  }
  view_write(L, &w, idx, convert(L, rhs, et), node_loc(L, lhs));
}

// p = e, p += k, p -= k for a pointer variable p.
static void assign_pointer(Lower *L, Var *p, TSNode asg, const char *op) {
  TSNode rhs = ts_field(asg, "right");
  Loc loc = node_loc(L, asg);
  View v;
  if (!strcmp(op, "=")) {
    if (lower_alloc(L, rhs, p->type->elem, &v))
      L->fn->vals[v.arr].hint = p->name;
    else
      v = view_expr(L, rhs, "the value");
  } else if (!strcmp(op, "+=") || !strcmp(op, "-=")) {
    v = var_view(L, p, loc);
    Val k = lower_expr(L, rhs);
    if (!ty_is_int(val_type(L->fn, k)))
      diag_error(node_loc(L, rhs), NULL, "pointer arithmetic with a value that is not an integer");
    L->b.loc = loc;
    Val o = v.off ? v.off : b_const_i(&L->b, val_type(L->fn, k), 0);
    Type *t = common_type(val_type(L->fn, o), val_type(L->fn, k));
    v.off = b_binop(&L->b, op[0] == '+' ? BIN_ADD : BIN_SUB, convert(L, o, t), convert(L, k, t));
  } else {
    diag_error(loc, NULL, "'%s' on a pointer", op);
  }
  ptr_assign(L, p, &v, loc);
}

// An assignment to name, not a variable of the function: a file-scope one is refused by name
// (language.md 6: floating-point ones; integer ones in a function the marked one calls).
static void refuse_global_write(Lower *L, TSNode name) {
  GlobalDef *g;
  HASH_FIND_STR(L->globals, node_text(L, name), g);
  if (!g) return;
  for (int k = 0; k < L->ngvar; k++)
    if (!strcmp(L->gvar[k].name, g->name))
      diag_error(node_loc(L, name), "assign it in the marked function itself (return the new "
                 "value from the function that computes it)", "a function called from a marked "
                 "function writes the file-scope variable '%s' (the marked function's own body "
                 "may)", g->name);
  diag_error(node_loc(L, name), "pass it as a parameter (a pointer to it, for a result)",
             "a marked function writes the file-scope variable '%s' (file-scope variables "
             "are passive: floating-point ones are read-only, integer ones may be assigned in "
             "the marked function's own body)", g->name);
}

// ---- file-scope integers the function assigns (language.md 6) ----

typedef struct {
  Lower *L;
  const char **set, **decl; // names assigned, names declared in the function
  int nset, ndecl, cap;
} GlobalScan;

static void scan_add(GlobalScan *w, const char ***list, int *n, const char *name) {
  for (int k = 0; k < *n; k++)
    if (!strcmp((*list)[k], name)) return;
  if (*n == w->cap) return; // (past it: not bound, refused where assigned)
  (*list)[(*n)++] = name;
}

static bool scan_global_writes(void *ctx, TSNode n, int depth) {
  (void)depth;
  GlobalScan *w = ctx;
  TSNode target = {0};
  if (ts_is(n, "assignment_expression")) target = ts_field(n, "left");
  if (ts_is(n, "update_expression")) target = ts_field(n, "argument");
  while (ts_is(target, "parenthesized_expression")) target = ts_node_named_child(target, 0);
  if (ts_is(target, "identifier")) scan_add(w, &w->set, &w->nset, node_text(w->L, target));
  if (ts_is(n, "declaration") || ts_is(n, "parameter_declaration")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode d = ts_node_named_child(n, i);
      while (ts_is(d, "init_declarator") || ts_is(d, "pointer_declarator") ||
             ts_is(d, "array_declarator") || ts_is(d, "parenthesized_declarator"))
        d = ts_is(d, "parenthesized_declarator") ? ts_node_named_child(d, 0)
                                                 : ts_field(d, "declarator");
      if (ts_is(d, "identifier")) scan_add(w, &w->decl, &w->ndecl, node_text(w->L, d));
    }
  }
  return true;
}

// The integer file-scope scalars that the marked function's body assigns (and declares no
// variable of that name) become variables of the function, from their values where it starts;
// their values where it returns are stored back (global_stores).  Reads see the variable;
// functions it calls read the variable's value at the call, and may not assign it.
void bind_global_writes(Lower *L, TSNode body) {
  GlobalScan w = {L, NULL, NULL, 0, 0, 256};
  w.set = ARENA_ARRAY(L->a, const char *, w.cap);
  w.decl = ARENA_ARRAY(L->a, const char *, w.cap);
  ts_walk(body, scan_global_writes, &w);
  L->gvar = ARENA_ARRAY(L->a, struct GlobalVar, w.nset + 1);
  for (int k = 0; k < w.nset; k++) {
    bool local = var_find(L, w.set[k]) != NULL; // (a parameter of the name)
    for (int j = 0; j < w.ndecl && !local; j++) local = !strcmp(w.decl[j], w.set[k]);
    GlobalDef *g;
    HASH_FIND_STR(L->globals, w.set[k], g);
    if (local || !g) continue;
    TSNode d = g->declarator;
    if (ts_is(d, "init_declarator")) d = ts_field(d, "declarator");
    if (!ts_is(d, "identifier") || !ty_is_int(lower_type(L, ts_field(g->decl, "type"))))
      continue; // (refused where assigned)
    for (uint32_t i = 0; i < ts_node_named_child_count(g->decl); i++) {
      TSNode q = ts_node_named_child(g->decl, i);
      if (ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const"))
        diag_error(node_loc(L, d), NULL, "'%s' is const", g->name);
    }
    Val v = global_scalar(L, d, g->name);
    Type *t = val_type(L->fn, v);
    int idx = var_push(L, (Var){g->name, t, VAR_SCALAR, v, L->fn->loc});
    L->gvar[L->ngvar++] = (struct GlobalVar){g->name, idx, v};
  }
}

Node *global_stores(Lower *L) {
  Node *ret = node_new(L->a, IR_RETURN, L->b.loc);
  ret->u.ret.gv = ARENA_ARRAY(L->a, Val, L->ngvar + 1);
  ret->u.ret.gname = ARENA_ARRAY(L->a, const char *, L->ngvar + 1);
  for (int k = 0; k < L->ngvar; k++) {
    Val v = L->vars[L->gvar[k].var]->val;
    if (!v || v == L->gvar[k].entry) continue; // (no path assigned it)
    ret->u.ret.gname[ret->u.ret.ng] = L->gvar[k].name;
    ret->u.ret.gv[ret->u.ret.ng++] = v;
  }
  return ret;
}

static void lower_assignment(Lower *L, TSNode asg) {
  TSNode lhs = ts_field(asg, "left");
  const char *op = node_text(L, ts_field(asg, "operator"));
  while (ts_is(lhs, "parenthesized_expression")) lhs = ts_node_named_child(lhs, 0);
  if (ts_is(lhs, "identifier")) {
    Var *v = var_find(L, node_text(L, lhs));
    if (!v) refuse_global_write(L, lhs);
    if (!v) diag_error(node_loc(L, lhs), NULL, "unknown variable '%s'", node_text(L, lhs));
    if (v->kind == VAR_ARRAY || v->kind == VAR_REF) {
      assign_pointer(L, v, asg, op);
      return;
    }
    if (v->kind == VAR_STRUCT && v->red) {
      update_struct(L, v, update_operand(L, v->name, v->red_op, v->red_user, asg, op),
                    node_loc(L, asg));
      return;
    }
    if (v->kind == VAR_STRUCT) {
      if (strcmp(op, "="))
        diag_error(node_loc(L, asg), "assign the fields one by one", "'%s' on a struct", op);
      assign_struct(L, v, ts_field(asg, "right"));
      return;
    }
    assign_scalar(L, v, asg, op);
    return;
  }
  View fv;
  Val idx;
  if (ts_is(lhs, "field_expression") && field_elem(L, lhs, &fv, &idx)) { // p[k].f = e
    assign_view(L, &fv, idx, lhs, asg, op, 0, node_text(L, lhs), true);
    return;
  }
  if (ts_is(lhs, "field_expression")) {
    assign_scalar(L, field_target(L, lhs), asg, op);
    return;
  }
  if (ts_is(lhs, "subscript_expression") ||
      (ts_is(lhs, "pointer_expression") && !strcmp(node_text(L, ts_field(lhs, "operator")), "*"))) {
    assign_element(L, lhs, asg, op, 0);
    return;
  }
  diag_error(node_loc(L, lhs), "assign to scalar variables and array elements",
             "unsupported assignment target");
}

// `x++;` and friends, as statements: x += 1 (a scalar, a reduction variable, an element, a
// field, a pointer).
static void lower_update(Lower *L, TSNode e) {
  TSNode arg = ts_field(e, "argument");
  while (ts_is(arg, "parenthesized_expression")) arg = ts_node_named_child(arg, 0);
  const char *op = node_text(L, ts_field(e, "operator"));
  const char *aop = op[0] == '+' ? "+=" : "-=";
  Loc loc = node_loc(L, e);
  L->b.loc = loc;
  if (ts_is(arg, "subscript_expression") ||
      (ts_is(arg, "pointer_expression") && !strcmp(node_text(L, ts_field(arg, "operator")), "*"))) {
    assign_element(L, arg, e, aop, b_const_i(&L->b, &ty_int, 1));
    return;
  }
  View fv;
  Val idx;
  if (ts_is(arg, "field_expression") && field_elem(L, arg, &fv, &idx)) { // p[k].f++
    assign_view(L, &fv, idx, arg, e, aop, b_const_i(&L->b, &ty_int, 1), node_text(L, arg), true);
    return;
  }
  Var *v = ts_is(arg, "identifier") ? var_find(L, node_text(L, arg))
           : ts_is(arg, "field_expression") ? field_target(L, arg) : NULL;
  if (v && (v->kind == VAR_ARRAY || v->kind == VAR_REF)) { // p++
    View w = var_view(L, v, loc);
    Val one = b_const_i(&L->b, &ty_int, 1);
    w.off = w.off ? b_binop(&L->b, op[0] == '+' ? BIN_ADD : BIN_SUB, w.off,
                            convert(L, one, val_type(L->fn, w.off)))
                  : (op[0] == '+' ? one : b_unop(&L->b, UN_NEG, one));
    ptr_assign(L, v, &w, loc);
    return;
  }
  if (v && (v->kind == VAR_RED || v->kind == VAR_SCAN) && v->red_op == RED_ADD) { // n++ counting
    Val one = b_const_i(&L->b, &ty_int, 1);
    update_scalar_val(L, v, op[0] == '+' ? one : b_unop(&L->b, UN_NEG, one), loc);
    return;
  }
  if (!v && ts_is(arg, "identifier")) refuse_global_write(L, arg);
  if (!v || v->kind != VAR_SCALAR || !v->val)
    diag_error(loc, "use ++ and -- on assigned variables, elements and pointers",
               "unsupported increment");
  if (L->par && v->idx < L->par->var_base)
    diag_error(loc, NULL, "parallel loop assigns variable '%s' declared outside it", v->name);
  Val one = b_const_i(&L->b, &ty_int, 1);
  Type *ct = common_type(v->type, &ty_int);
  v->val = convert(L, b_binop(&L->b, op[0] == '+' ? BIN_ADD : BIN_SUB, convert(L, v->val, ct),
                              convert(L, one, ct)), v->type);
}

// free, memcpy, memmove, memset as statements (unless a macro or the file defines the name).
static bool lower_lib_call(Lower *L, TSNode call) {
  TSNode fn = ts_field(call, "function");
  if (!ts_is(fn, "identifier")) return false;
  const char *name = node_text(L, fn);
  if ((L->macros && !L->in_expansion && macro_defined(L->macros, name, use_byte(L, call), NULL)) ||
      !ts_node_is_null(fn_def(L->fndefs, name)))
    return false;
  L->b.loc = node_loc(L, call);
  if (!strcmp(name, "free")) {
    lower_free(L, call);
    return true;
  }
  return lower_mpi_call(L, call) || lower_mem_call(L, call);
}

// ---- if / else: SSA merge of the variables the branches assign ----

// The elements this iteration wrote in a branch of if n (tf, ef: each side's entries): after
// the if, arr[idx] reads as the if's out, the value of the side that ran.  A side that did
// not write the element yields its value from before the if (written earlier in the
// iteration; or at the loop index, the element as the iteration found it, read before the
// if); where that would be a read at another index (which need not be valid where the branch
// that wrote it ran), it yields nothing, and a flag out says where the value holds: a later
// read takes the element from memory there.  An element a side may have written at another
// index expression is merged as unknown (a later read is refused).  Unused outs and reads go
// with dead code.
static void merge_elements(Lower *L, Node *n, const Fwd *tf, const Fwd *ef) {
  ParCtx *p = L->par;
  if (!p) return;
  const Fwd *side[2] = {tf, ef};
  FwdEntry *merged = ARENA_ARRAY(L->a, FwdEntry, tf->n + ef->n + 1);
  int nm = 0;
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < side[s]->n; k++) {
      const FwdEntry *w = &side[s]->e[k];
      bool seen = false; // (an element both sides wrote, or one side twice: merged once)
      for (int j = 0; j < nm && !seen; j++)
        seen = merged[j].arr == w->arr &&
               index_here(L->fn, L->fn->defs, merged[j].idx, w->idx, p->idx, p->lo, p->hi) ==
                   HERE_SAME;
      if (seen) continue;
      FwdEntry got[2] = {{0}, {0}}, m = {w->arr, w->idx, 0, 0, false, false};
      FwdLook look[2];
      bool unknown = false;
      for (int q = 0; q < 2; q++) {
        look[q] = fwd_look(L, side[q]->e, side[q]->n, p->fwd, p->nfwd, w->arr, w->idx, &got[q]);
        unknown |= look[q] == FWD_BLOCKED || (look[q] == FWD_FOUND && !got[q].val);
      }
      merged[nm++] = m;
      if (unknown) continue;
      Type *ty = val_type(L->fn, look[0] == FWD_FOUND ? got[0].val : got[1].val);
      bool at_i = index_here(L->fn, L->fn->defs, w->idx, p->idx, p->idx, p->lo, p->hi) == HERE_SAME;
      bool flagged = false;
      Val y[2], f[2];
      for (int q = 0; q < 2; q++) {
        if (look[q] == FWD_FOUND) {
          y[q] = got[q].val;
          m.initial |= got[q].initial;
          m.stale |= got[q].stale;
          flagged |= got[q].flag != 0;
        } else if (at_i) { // the element at the loop index, read before the if
          y[q] = b_read(&L->b, w->arr, p->idx);
          if (fwd_lost(p, w->arr)) // (a nested loop's write may have reached it)
            m.stale = true;
          else
            m.initial = true;
        } else {
          y[q] = ty_is_float(ty) ? b_const_f(&L->b, ty, 0) : b_const_i(&L->b, ty, 0);
          flagged = true;
        }
      }
      for (int q = 0; q < 2 && flagged; q++)
        f[q] = look[q] == FWD_FOUND && got[q].flag ? got[q].flag
               : b_const_i(&L->b, &ty_int, look[q] == FWD_FOUND || at_i);
      block_yield(L->a, n->u.ifs.then, y[0]);
      block_yield(L->a, n->u.ifs.els, y[1]);
      m.val = n->u.ifs.outs[n->u.ifs.nouts++] = fn_val(L->fn, ty, NULL);
      if (flagged) {
        block_yield(L->a, n->u.ifs.then, f[0]);
        block_yield(L->a, n->u.ifs.els, f[1]);
        m.flag = n->u.ifs.outs[n->u.ifs.nouts++] = fn_val(L->fn, &ty_int, NULL);
      }
      merged[nm - 1] = m;
    }
  for (int j = 0; j < nm; j++) fwd_push(L, merged[j]);
}

// Lowers one branch: the statement stmt, or (rest) stmt and every statement after it in its
// block.  Afterwards the variables hold their values from before the branch again, and saved[]
// their values at the end of the branch; *returned says whether the branch returned.
static Block *lower_branch(Lower *L, TSNode stmt, bool rest, Val *saved, int nvars,
                           bool *returned, Fwd *fw) {
  Block *outer = L->b.blk, *blk = block_new(L->a);
  L->b.blk = blk;
  int nfwd = L->par ? L->par->nfwd : 0;
  L->returned = false;
  if (rest)
    lower_stmts(L, stmt);
  else if (!ts_node_is_null(stmt))
    lower_stmt(L, stmt);
  *returned = L->returned;
  L->returned = false;
  L->b.blk = outer;
  if (L->par) { // the elements the branch wrote, for lower_if to merge
    ParCtx *p = L->par;
    fw->n = p->nfwd - nfwd;
    fw->e = ARENA_ARRAY(L->a, FwdEntry, fw->n + 1);
    if (fw->n) memcpy(fw->e, p->fwd + nfwd, sizeof(FwdEntry) * (size_t)fw->n);
    p->nfwd = nfwd;
  }
  var_pop(L, nvars); // drop the branch's declarations
  for (int i = 0; i < nvars; i++) {
    Val v = L->vars[i]->val;
    L->vars[i]->val = saved[i];
    saved[i] = v; // now the branch's final values
  }
  return blk;
}

// Does this statement end in a return on every path?
static bool always_returns(TSNode s) {
  if (ts_is(s, "return_statement")) return true;
  if (ts_is(s, "compound_statement")) {
    uint32_t k = ts_node_named_child_count(s);
    for (uint32_t i = k; i > 0; i--) {
      TSNode c = ts_node_named_child(s, i - 1);
      if (!ts_is(c, "comment")) return always_returns(c);
    }
    return false;
  }
  if (ts_is(s, "if_statement")) {
    TSNode alt = ts_field(s, "alternative");
    if (ts_is(alt, "else_clause")) alt = ts_node_named_child(alt, 0);
    return !ts_node_is_null(alt) && always_returns(ts_field(s, "consequence")) &&
           always_returns(alt);
  }
  return false;
}

// The first return statement in s (the one a diagnostic about s's returns points at).
static TSNode first_return(TSNode s) {
  if (ts_is(s, "return_statement")) return s;
  uint32_t k = ts_node_named_child_count(s);
  for (uint32_t i = 0; i < k; i++) {
    TSNode r = first_return(ts_node_named_child(s, i));
    if (!ts_node_is_null(r)) return r;
  }
  return (TSNode){0};
}

// if (c) A else B.  In a function body, `if (c) return x; REST` is lowered as
// `if (c) return x; else { REST }`, so that a return may stand inside an if.
// Returns true if it consumed the statements after s.
// `if (e > v) v = e;` for a min/max reduction, scan or hist target: an update.
static bool lower_if_update(Lower *L, TSNode s) {
  if (!L->par) return false;
  TSNode e, asg;
  for (int i = L->nvars - 1; i >= L->var_floor; i--) {
    Var *v = L->vars[i];
    if ((v->kind != VAR_RED && v->kind != VAR_SCAN) || v->name[0] == '$') continue;
    if (var_find(L, v->name) != v) continue;
    asg = if_update(L, s, v->name, v->red_op, &e);
    if (!ts_node_is_null(asg)) {
      update_scalar(L, v, e, node_loc(L, s));
      return true;
    }
  }
  TSNode body = ts_field(s, "consequence");
  if (ts_is(body, "compound_statement") && ts_node_named_child_count(body) == 1)
    body = ts_node_named_child(body, 0);
  TSNode lhs = ts_field(ts_node_named_child(body, 0), "left");
  TSNode an = ts_field(lhs, "argument");
  Var *arr = ts_is(lhs, "subscript_expression") && ts_is(an, "identifier") ? var_find(L, node_text(L, an)) : NULL;
  int h = arr && arr->kind == VAR_ARRAY ? hist_of(L, arr->val) : -1;
  if (h < 0) return false;
  asg = if_update(L, s, node_text(L, lhs), L->par->hists[h].op, &e);
  if (ts_node_is_null(asg)) return false;
  update_hist(L, h, lhs, e, 0, node_loc(L, s));
  return true;
}

// if (cond) then_stmt else alt (with then_rest, alt_rest: that statement and the ones after it
// in its block), the variables the branches assign merged into the if's outs.
static void lower_if_parts(Lower *L, Loc loc, Val cond, TSNode then_stmt, bool then_rest,
                           TSNode alt, bool alt_rest, bool at_end) {
  int nv = L->nvars;
  Val *before = ARENA_ARRAY(L->a, Val, nv), *tv = ARENA_ARRAY(L->a, Val, nv),
      *ev = ARENA_ARRAY(L->a, Val, nv);
  // (and Var.pval, each side's: a branch's own if defines it only there)
  Val *pbefore = ARENA_ARRAY(L->a, Val, nv), *tp = ARENA_ARRAY(L->a, Val, nv),
      *ep = ARENA_ARRAY(L->a, Val, nv);
  for (int i = 0; i < nv; i++) before[i] = tv[i] = ev[i] = L->vars[i]->val;
  for (int i = 0; i < nv; i++) pbefore[i] = L->vars[i]->pval;
  bool then_ret, else_ret;
  Fwd tf = {0}, ef = {0};
  Block *then = lower_branch(L, then_stmt, then_rest, tv, nv, &then_ret, &tf);
  for (int i = 0; i < nv; i++) tp[i] = L->vars[i]->pval, L->vars[i]->pval = pbefore[i];
  Block *els = lower_branch(L, alt, alt_rest, ev, nv, &else_ret, &ef);
  for (int i = 0; i < nv; i++) ep[i] = L->vars[i]->pval, L->vars[i]->pval = pbefore[i];
  if (then_ret != else_ret && !at_end)
    diag_error(loc, "return on every path of the if, or only after it",
               "only one branch of this if returns");
  L->returned = then_ret || else_ret; // (at the end: the other branch ends the function)
  Node *n = node_new(L->a, IR_IF, loc);
  n->u.ifs.cond = cond;
  n->u.ifs.then = then;
  n->u.ifs.els = els;
  n->u.ifs.outs = ARENA_ARRAY(L->a, Val, nv + 2 * (tf.n + ef.n)); // (merge_elements: value, flag)
  for (int i = 0; i < nv; i++) {
    if (tv[i] == before[i] && ev[i] == before[i] &&
        (before[i] || (tp[i] == pbefore[i] && ep[i] == pbefore[i])))
      continue;
    Var *v = L->vars[i];
    if (v->kind == VAR_ARRAY) { // the array a pointer points into (its offset is a scalar)
      if (tv[i] && ev[i] && tv[i] != ev[i])
        diag_error(loc, NULL, "pointer '%s' points into different arrays after the branches",
                   v->name);
      v->val = tv[i] ? tv[i] : ev[i];
      continue;
    }
    if (!tv[i] || !ev[i]) { // (C: it has a value after the if only where that branch ran)
      v->val = 0;           // reading it later is refused as a read before assignment
      v->partial = loc;
      // ... but the root of an MPI_Bcast sends it (lower_mpi.c): the value where a branch
      // assigned it (also in an if of its own: that if's pval), else 0 (unused outs go
      // with dead code)
      Val ts = tv[i] ? tv[i] : tp[i], es = ev[i] ? ev[i] : ep[i];
      if (ts == PVAL_LOST || es == PVAL_LOST) { // (a side whose value a loop took away)
        v->pval = PVAL_LOST;
      } else if (!L->par && v->kind == VAR_SCALAR && v->name[0] != '$' &&
                 (ty_is_float(v->type) || ty_is_int(v->type))) {
        Val z = ty_is_float(v->type) ? b_const_f(&L->b, v->type, 0) : b_const_i(&L->b, v->type, 0);
        block_yield(L->a, then, ts ? ts : z);
        block_yield(L->a, els, es ? es : z);
        v->pval = n->u.ifs.outs[n->u.ifs.nouts++] = fn_val(L->fn, v->type, v->name);
      }
      continue;
    }
    block_yield(L->a, then, tv[i]);
    block_yield(L->a, els, ev[i]);
    Val out = fn_val(L->fn, v->type, v->kind == VAR_RED || v->name[0] == '$' ? NULL : v->name);
    n->u.ifs.outs[n->u.ifs.nouts++] = out;
    v->val = out;
  }
  merge_elements(L, n, &tf, &ef);
  b_push(&L->b, n);
}

static bool lower_if_(Lower *L, TSNode s) {
  if (L->returned) diag_error(node_loc(L, s), NULL, "statement after return");
  if (lower_if_update(L, s)) return false;
  Val cond = lower_cond(L, ts_field(s, "condition"));
  Loc loc = node_loc(L, s);
  TSNode alt = ts_field(s, "alternative");
  if (ts_is(alt, "else_clause")) alt = ts_node_named_child(alt, 0);
  bool rest = false;
  if (ts_node_is_null(alt) && always_returns(ts_field(s, "consequence"))) {
    alt = ts_node_next_named_sibling(s);
    while (ts_is(alt, "comment")) alt = ts_node_next_named_sibling(alt);
    rest = !ts_node_is_null(alt);
  }
  if (L->par && L->inline_depth <= L->par->inline_base) {
    TSNode ret = always_returns(ts_field(s, "consequence")) ? ts_field(s, "consequence")
                 : !rest && !ts_node_is_null(alt) && always_returns(alt) ? alt
                                                                        : (TSNode){0};
    if (!ts_node_is_null(ret))
      diag_error(node_loc(L, first_return(ret)), NULL, "return inside a parallel loop");
  }
  // the last statement of the function's body (or the rest of it taken as the else): a
  // branch that does not return falls off the end, which returns too ($ret keeps no value
  // there, which the function's end refuses unless it returns void)
  TSNode after = ts_node_next_named_sibling(s);
  while (ts_is(after, "comment")) after = ts_node_next_named_sibling(after);
  bool at_end = (rest || ts_node_is_null(after)) && ts_node_eq(ts_node_parent(s), L->fn_body);
  lower_if_parts(L, loc, cond, ts_field(s, "consequence"), false, alt, rest, at_end);
  return rest;
}

// The flags of the innermost loop that a break or continue may have set: the value of
// !(brk | cont) (brk_only: !brk), 0 when the loop has none.
static Val jump_guard(Lower *L, bool brk_only) {
  LoopCtx *c = L->loop;
  Val f = 0;
  const char *names[2] = {c->brk, brk_only ? NULL : c->cont};
  for (int k = 0; k < 2; k++) {
    Var *v = names[k] ? var_find(L, names[k]) : NULL;
    if (!v) continue;
    f = f ? b_binop(&L->b, BIN_BOR, f, v->val) : v->val;
  }
  return f ? b_binop(&L->b, BIN_EQ, f, b_const_i(&L->b, &ty_int, 0)) : 0;
}

void lower_guarded(Lower *L, TSNode stmt, bool rest, bool brk_only) {
  Val g = jump_guard(L, brk_only);
  if (!g) {
    if (rest)
      lower_stmts(L, stmt);
    else
      lower_stmt(L, stmt);
    return;
  }
  nest_enter(L, stmt);
  lower_if_parts(L, node_loc(L, stmt), g, stmt, rest, (TSNode){0}, false, false);
  nest_leave(L);
}

// An if nests one level (its branches, and when it returns, the rest of its block).
static bool lower_if(Lower *L, TSNode s) {
  nest_enter(L, s);
  bool rest = lower_if_(L, s);
  nest_leave(L);
  return rest;
}

static void lower_for_nested(Lower *L, TSNode s, const Pragma *pr) {
  nest_enter(L, s);
  lower_for(L, s, pr);
  nest_leave(L);
}

// ---- statements ----

void lower_block(Lower *L, TSNode compound) {
  int nv = L->nvars;
  lower_stmts(L, ts_node_named_child(compound, 0));
  // leaving the block: its declarations go out of scope, assignments to outer ones stay
  var_pop(L, nv);
}

// break; continue;  (language.md §6): the innermost loop's flag is set; lower_stmts skips the
// rest of the block, and guards what follows the statements around (guard_rest).
static void lower_jump(Lower *L, TSNode s, bool brk) {
  LoopCtx *c = L->loop;
  const char *what = brk ? "break" : "continue";
  if (!c)
    diag_error(node_loc(L, s), NULL, "'%s' outside a loop", what);
  if (brk && c->parallel)
    diag_error(node_loc(L, s), "a parallel loop runs all its iterations, in any order: compute "
               "a flag and guard the rest of the body with it, or drop the loop's pragma to run "
               "it sequentially", "'break' in a parallel loop");
  Var *f = var_find(L, brk ? c->brk : c->cont);
  IR_ASSERT(f); // (the loop set up the flags its body uses: has_jump)
  L->b.loc = node_loc(L, s);
  f->val = b_const_i(&L->b, &ty_int, 1);
  if (brk && c->ibrk) var_find(L, c->ibrk)->val = c->index;
}

// After s, which may have broken out of the innermost loop or continued it: the statements
// after s run only if it did neither.  Returns whether it lowered them.
static bool guard_rest(Lower *L, TSNode s) {
  if (!L->loop || (!has_jump(s, true) && !has_jump(s, false))) return false;
  TSNode next = ts_node_next_named_sibling(s);
  while (ts_is(next, "comment")) next = ts_node_next_named_sibling(next);
  if (!ts_node_is_null(next)) lower_guarded(L, next, true, false);
  return true;
}

// An OpenMP directive read as an annotation (omp.c): a loop's, a region's, ...
static OmpRead omp_kind(Lower *L, TSNode s, Pragma *pr) {
  TSNode dir = ts_field(s, "directive"), arg = ts_field(s, "argument");
  if (strcmp(node_text(L, dir), "#pragma") || ts_node_is_null(arg)) return OMP_NOT;
  OmpRead r = omp_read(L, node_loc(L, s), node_text(L, arg), pr);
  return r == OMP_LOOP || r == OMP_REGION ? r : OMP_NOT; // (the rest: lower_stmt)
}

// Both an OpenMP directive and an adsoac pragma on one loop: the adsoac pragma is the
// annotation; a reduction one names that the other does not is a warning (language.md 11;
// adsoac's hist clauses are what OpenMP says with atomic updates in the body).
static void omp_compare(Lower *L, const Pragma *omp, const Pragma *ours) {
  for (int side = 0; side < 2; side++) {
    const Pragma *a = side ? ours : omp, *b = side ? omp : ours;
    for (int c = 0; c < a->nclauses; c++)
      for (int v = 0; v < a->clauses[c].nvars && !(side && a->clauses[c].kind == CL_HIST); v++) {
        bool seen = false;
        for (int d = 0; d < b->nclauses && !seen; d++)
          for (int w = 0; w < b->clauses[d].nvars && !seen; w++)
            seen = b->clauses[d].kind == a->clauses[c].kind &&
                   !strcmp(b->clauses[d].vars[w], a->clauses[c].vars[v]) &&
                   !strcmp(b->clauses[d].op, a->clauses[c].op);
        if (!seen)
          diag_warn(omp->loc, "make the two say the same, or drop one",
                    "the OpenMP directive and the adsoac pragma on this loop disagree about '%s' "
                    "(%s has %s(%s: %s)): adsoac's pragma is the annotation",
                    a->clauses[c].vars[v], side ? "adsoac" : "OpenMP",
                    a->clauses[c].kind == CL_REDUCE ? "reduce" : a->clauses[c].kind == CL_SCAN ? "scan" : "hist",
                    a->clauses[c].op, a->clauses[c].vars[v]);
      }
  }
  (void)L;
}

// Lowers first and the statements after it in the same block.
static void lower_stmts(Lower *L, TSNode first) {
  for (TSNode s = first; !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
    if (ts_is(s, "comment")) continue;
    Pragma pr;
    OmpRead omp = ts_is(s, "preproc_call") ? omp_kind(L, s, &pr) : OMP_NOT;
    if (omp == OMP_REGION) { // (language.md 11: its one-thread execution)
      TSNode next = ts_node_next_named_sibling(s);
      while (ts_is(next, "comment")) next = ts_node_next_named_sibling(next);
      if (ts_node_is_null(next) || ts_is(next, "preproc_call"))
        diag_error(pr.loc, "put the region's block after it", "'#pragma omp parallel' is not "
                   "followed by a statement");
      diag_remark(pr.loc, "OpenMP parallel region read as one thread's execution: its "
                  "work-sharing loops are parallel loops, its single, master, masked and "
                  "critical blocks run once, its barriers are the loops' order");
      int nv = L->nvars, base = L->omp_base, nred = L->nomp_red;
      const char **red = L->omp_red;
      L->omp_base = nv;
      L->omp_red = ARENA_ARRAY(L->a, const char *, 64);
      L->nomp_red = 0;
      for (int c = 0; c < pr.nclauses; c++)
        for (int v = 0; v < pr.clauses[c].nvars && L->nomp_red < 64; v++)
          L->omp_red[L->nomp_red++] = pr.clauses[c].vars[v];
      omp_region_private(L, &pr);
      lower_stmt(L, next);
      var_pop(L, nv);
      L->omp_base = base, L->omp_red = red, L->nomp_red = nred;
      s = next;
      if (guard_rest(L, s)) return;
      continue;
    }
    if (omp == OMP_LOOP) { // (language.md 11)
      TSNode next = ts_node_next_named_sibling(s);
      while (ts_is(next, "comment")) next = ts_node_next_named_sibling(next);
      Pragma ours;
      if (ts_is(next, "preproc_call") && pragma_parse(L->a, L->src, next, &ours)) {
        omp_compare(L, &pr, &ours); // (the adsoac pragma is the annotation)
        continue;
      }
      if (!ts_is(next, "for_statement"))
        diag_error(pr.loc, "put the directive directly before a for loop",
                   "'#pragma %s' is not followed by a for loop", node_text(L, ts_field(s, "argument")));
      if (L->returned) diag_error(node_loc(L, next), NULL, "statement after return");
      lower_for_nested(L, next, &pr);
      s = next;
      if (guard_rest(L, s)) return;
      continue;
    }
    if (ts_is(s, "preproc_call") && pragma_parse(L->a, L->src, s, &pr)) {
      if (pr.kind != PR_MAP && pr.kind != PR_CLAUSES && pr.kind != PR_STRIPMINE)
        diag_error(pr.loc, "inside a function use map, reduce, scan, hist or stripmine",
                   "'#pragma adsoac %s' is not allowed here", pr.text);
      TSNode next = ts_node_next_named_sibling(s);
      while (ts_is(next, "comment")) next = ts_node_next_named_sibling(next);
      if (!ts_is(next, "for_statement"))
        diag_error(pr.loc, "put the pragma directly before a for loop",
                   "'#pragma adsoac %s' is not followed by a for loop", pr.text);
      if (L->returned) diag_error(node_loc(L, next), NULL, "statement after return");
      lower_for_nested(L, next, &pr);
      s = next;
      if (guard_rest(L, s)) return;
      continue;
    }
    if (ts_is(s, "if_statement")) {
      if (L->returned) diag_error(node_loc(L, s), "put a single return at the end of the function",
                                  "statement after return");
      L->b.loc = node_loc(L, s);
      if (lower_if(L, s)) return; // it took the rest of the block as its else branch
      if (guard_rest(L, s)) return;
      continue;
    }
    if (ts_is(s, "compound_statement")) { // a block inside a block
      nest_enter(L, s);
      lower_stmt(L, s);
      nest_leave(L);
      if (guard_rest(L, s)) return;
      continue;
    }
    lower_stmt(L, s);
    if (ts_is(s, "break_statement") || ts_is(s, "continue_statement"))
      return; // (what follows in the block never runs)
    if (guard_rest(L, s)) return;
  }
}

static void lower_stmt_(Lower *L, TSNode s);

// A loop pragma of a compiler that still applies to the primal's sequential loop: a
// vectorization or unrolling hint.
static bool loop_hint(const char *text, int n) {
  static const char *const hints[] = {"GCC ivdep", "GCC unroll", "GCC novector", "unroll",
                                      "nounroll", "clang loop", "ivdep", "loop_count"};
  for (size_t k = 0; k < sizeof hints / sizeof *hints; k++) {
    int m = (int)strlen(hints[k]);
    if (n >= m && !strncmp(text, hints[k], (size_t)m) && (n == m || strchr(" \t(", text[m])))
      return true;
  }
  return false;
}

// Another tool's pragma in a marked function (language.md 11: never ignored in silence).
// Before a sequential loop (next), a compiler's loop hint is kept for it (lower_seq_loop).
static void warn_foreign_pragma(Lower *L, Loc loc, const char *text, TSNode next) {
  int n = (int)strcspn(text, "\r\n");
  while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\\')) n--;
  while (ts_is(next, "comment")) next = ts_node_next_named_sibling(next);
  if (loop_hint(text, n) && (ts_is(next, "for_statement") || ts_is(next, "while_statement") ||
                             ts_is(next, "do_statement"))) {
    L->hints = L->hints ? arena_printf(L->a, "%s\n%.*s", L->hints, n, text)
                        : arena_printf(L->a, "%.*s", n, text);
    diag_warn(loc, "the derivatives' loops differ from the source's: a hint of the source loop "
                   "may not hold for them",
              "'#pragma %.*s' is kept before this loop in f; f_vjp and f_jvp leave it out", n,
              text);
    return;
  }
  bool omp = !strncmp(text, "omp", 3) && (!text[3] || strchr(" \t", text[3]));
  diag_warn(loc,
            omp ? "mark the loop with '#pragma adsoac map', 'reduce', 'scan' or 'hist' "
                  "(of OpenMP, only the loop directives are read yet: language.md 11)"
                : "the input's functions that are not marked keep it",
            "'#pragma %.*s' is not read by adsoac: the generated functions leave it out", n, text);
}

// Where byte k of src is.
static Loc byte_loc(const Src *src, uint32_t k) {
  unsigned line = 1;
  uint32_t start = 0;
  for (uint32_t i = 0; i < k; i++)
    if (src->text[i] == '\n') line++, start = i + 1;
  return (Loc){src->path, line, k - start + 1};
}

// The pragmas that stood right before s as the unbraced body of a for, while, if, else or do
// (parser/macro.c blanked them for tree-sitter): another tool's is warned about; an adsoac one
// is returned in *pr.
static bool detached_pragma(Lower *L, TSNode s, Pragma *pr) {
  if (!L->macros || L->src->text != L->prog->text.text) return false; // (the main file's)
  const uint32_t(*r)[2];
  int n = macro_detached(L->macros, &r);
  uint32_t at = ts_node_start_byte(s);
  int last = -1;
  for (int k = 0; k < n && r[k][1] <= at; k++) last = k;
  const Src *src = &L->prog->src;
  int first = last + 1;
  for (int k = last; k >= 0; k--, first--) { // (the pragmas right before s: r[first..last])
    uint32_t q = r[k][1];
    while (q < at && isspace((unsigned char)L->src->text[q])) q++;
    if (q != at) break;
    at = r[k][0];
  }
  Pragma *ps = ARENA_ARRAY(L->a, Pragma, last - first + 2);
  bool *ours = ARENA_ARRAY(L->a, bool, last - first + 2), any = false;
  for (int k = first; k <= last; k++) {
    uint32_t a = r[k][0] + 1, e = r[k][1];
    while (a < e && isspace((unsigned char)src->text[a])) a++;
    a += 6; // ("pragma")
    while (a < e && isspace((unsigned char)src->text[a])) a++;
    any |= ours[k - first] = pragma_parse_text(L->a, src, a, e, byte_loc(src, a), &ps[k - first]);
    if (!ours[k - first]) // (its text)
      ps[k - first].text = arena_strndup(L->a, src->text + a, e - a), ps[k - first].loc = byte_loc(src, r[k][0]);
  }
  bool found = false;
  for (int k = first; k <= last; k++) {
    Pragma p = ps[k - first];
    if (!ours[k - first]) { // (a hint before a loop that is parallel is not kept)
      Pragma o;
      if (!any && !found && omp_read(L, p.loc, p.text, &o) == OMP_LOOP) { // (language.md 11)
        *pr = o;
        found = true;
        continue;
      }
      warn_foreign_pragma(L, p.loc, p.text, any ? (TSNode){0} : s);
      continue;
    }
    if (found)
      diag_error(p.loc, "keep one adsoac pragma per loop (clauses combine on one line)",
                 "two adsoac pragmas before one loop");
    if (p.kind != PR_MAP && p.kind != PR_CLAUSES && p.kind != PR_STRIPMINE)
      diag_error(p.loc, "inside a function use map, reduce, scan, hist or stripmine",
                 "'#pragma adsoac %s' is not allowed here", p.text);
    *pr = p;
    found = true;
  }
  return found;
}

// A statement starts whole expressions (see lower_expr), also inside an inlined call.
void lower_stmt(Lower *L, TSNode s) {
  int depth = L->expr_depth;
  L->expr_depth = 0;
  lower_stmt_(L, s);
  L->expr_depth = depth;
}

static void lower_stmt_(Lower *L, TSNode s) {
  if (L->returned && !ts_is(s, "comment"))
    diag_error(node_loc(L, s), "put a single return at the end of the function",
               "statement after return");
  L->b.loc = node_loc(L, s);
  if (!ts_node_is_null(L->do_cond) && ts_node_eq(s, L->do_cond)) { // (lower_seq_loop)
    Var *f = var_find(L, L->do_brk);
    f->val = b_binop(&L->b, BIN_EQ, lower_cond(L, s), b_const_i(&L->b, &ty_int, 0));
    return;
  }
  const char *t = ts_node_type(s);
  Pragma dp;
  bool det = detached_pragma(L, s, &dp);
  if (strcmp(t, "for_statement") && strcmp(t, "while_statement") && strcmp(t, "do_statement") &&
      strcmp(t, "preproc_call"))
    L->hints = NULL; // (kept only for the loop right after them)
  if (det && strcmp(t, "for_statement") && strcmp(t, "while_statement") && strcmp(t, "do_statement"))
    diag_error(dp.loc, "put the pragma directly before a for loop",
               "'#pragma adsoac %s' is not followed by a for loop", dp.text);
  if (!strcmp(t, "compound_statement")) {
    lower_block(L, s);
  } else if (!strcmp(t, "declaration")) {
    lower_declaration(L, s);
  } else if (!strcmp(t, "expression_statement") || !strcmp(t, "assignment_expression") ||
             !strcmp(t, "update_expression") || !strcmp(t, "comma_expression")) {
    // (an expression itself: a for loop's init or update)
    TSNode e = strcmp(t, "expression_statement") ? s : ts_node_named_child(s, 0);
    while (ts_is(e, "comma_expression")) { // a, b: a, then b
      lower_stmt(L, ts_field(e, "left"));
      e = ts_field(e, "right");
    }
    while (ts_is(e, "parenthesized_expression")) e = ts_node_named_child(e, 0);
    if (ts_node_is_null(e)) return; // ';'
    if (ts_is(e, "assignment_expression"))
      lower_assignment(L, e);
    else if (ts_is(e, "update_expression"))
      lower_update(L, e);
    else if (ts_is(e, "call_expression")) {
      if (!lower_lib_call(L, e)) lower_expr(L, e); // an inlined function called for its effects
    }
    else if (ts_is(e, "cast_expression") && !strcmp(node_text(L, ts_field(e, "type")), "void"))
      lower_expr(L, ts_field(e, "value")); // (void)x; the value is dropped
    else
      diag_error(node_loc(L, e), "a statement must assign something", "expression has no effect");
  } else if (!strcmp(t, "if_statement")) {
    lower_if(L, s);
  } else if (!strcmp(t, "for_statement") || !strcmp(t, "while_statement") ||
             !strcmp(t, "do_statement")) {
    if (!det && !ts_node_is_null(L->collapse_node) && ts_node_eq(s, L->collapse_node)) {
      dp = L->collapse_pr; // (an OpenMP collapse(n) of the loop around)
      det = true;
    }
    L->collapse_node = (TSNode){0};
    lower_for_nested(L, s, det ? &dp : NULL);
  } else if (!strcmp(t, "return_statement")) {
    if (L->par && L->par->inline_base >= L->inline_depth)
      diag_error(node_loc(L, s), NULL, "return inside a parallel loop");
    TSNode e = ts_node_named_child(s, 0);
    // the value goes to the hidden variable $ret: the function (the marked one or an
    // inlined one) returns once, at its end (parse.c lower_function, lower_call.c)
    Var *r = var_find(L, "$ret");
    if (!ts_node_is_null(e) && r->type->kind == TY_VOID)
      diag_error(node_loc(L, e), NULL, "void function returns a value");
    if (ts_node_is_null(e) && r->type->kind != TY_VOID)
      diag_error(node_loc(L, s), NULL, "return without a value");
    if (!ts_node_is_null(e) && r->kind == VAR_STRUCT) assign_struct(L, r, e);
    else if (!ts_node_is_null(e)) r->val = convert(L, lower_expr(L, e), r->type);
    L->returned = true;
  } else if (!strcmp(t, "preproc_call")) {
    TSNode dir = ts_field(s, "directive"), arg = ts_field(s, "argument");
    Pragma o;
    OmpRead r = strcmp(node_text(L, dir), "#pragma") || ts_node_is_null(arg)
                    ? OMP_NOT : omp_read(L, node_loc(L, s), node_text(L, arg), &o);
    if (r == OMP_SCAN) {
      if (!L->par || !L->par->pragma || !strstr(L->par->pragma, "scan("))
        diag_error(node_loc(L, s), "put it in a loop with reduction(inscan, op: v)",
                   "'#pragma omp scan' outside a loop with an inscan reduction");
      return; // (the scan's reads before and after the updates say the same)
    }
    if (r == OMP_ATOMIC && L->par) return; // (the update is a hist's or a reduction's: omp.c)
    if (r == OMP_SKIP && L->par && strstr(node_text(L, arg), "barrier")) // (OpenMP forbids it
      diag_error(node_loc(L, s), "put the barrier between the loops (an omp for ends with one)",
                 "'#pragma omp barrier' inside a parallel loop has no reading as an annotation "
                 "(language.md 11)"); // there too; between loops, in a time loop: as written
    if (r == OMP_ATOMIC || r == OMP_ONCE || r == OMP_SKIP) return; // (one thread: as written)
    if (!strcmp(node_text(L, dir), "#pragma") && !ts_node_is_null(arg))
      warn_foreign_pragma(L, node_loc(L, s), node_text(L, arg), ts_node_next_named_sibling(s));
  } else if (!strcmp(t, "goto_statement") || !strcmp(t, "labeled_statement")) {
    diag_error(node_loc(L, s), "use structured control flow (if, for)", "goto is not supported");
  } else if (!strcmp(t, "break_statement") || !strcmp(t, "continue_statement")) {
    lower_jump(L, s, !strcmp(t, "break_statement"));
  } else if (!strcmp(t, "switch_statement")) {
    diag_error(node_loc(L, s), "use if/else", "switch is not supported");
  } else {
    diag_error(node_loc(L, s), NULL, "unsupported statement (%s)", t);
  }
}
