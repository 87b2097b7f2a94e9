// parser/lower_struct.c: structs of scalar fields as values, and arrays of them (language.md §6).
//
// Structs are scalarised here: a struct variable `l` of type Lin {a, b} is a marker variable
// (VAR_STRUCT) followed by one scalar variable per field, named "l.a" and "l.b".  Member
// access, compound literals (Lin){x, y} and {.a = x}, struct assignment, struct parameters
// and results of inlined functions all become operations on the fields, so the rest of
// adsoac only ever sees scalars.  An array of structs (a parameter T *p) is one array per
// field: p[k].f, (p + k)->f and p->f read and write field f's array (ValInfo.fields).  (The
// struct types themselves: lower_type.c; struct parameters: parse.c.)
#include <string.h>

#include "lower.h"

static int field_index(Lower *L, Type *t, const char *f, Loc loc) {
  for (int i = 0; i < t->nfields; i++)
    if (!strcmp(t->fnames[i], f)) return i;
  diag_error(loc, NULL, "'%s' has no field '%s'", t->name ? t->name : "struct", f);
}

// initializer_list: { e, e, ... } or { .f = e, ... }
static void lower_initializer(Lower *L, TSNode list, Type *t, Val *out) {
  for (int i = 0; i < t->nfields; i++) out[i] = 0;
  int pos = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(list); i++) {
    TSNode e = ts_node_named_child(list, i);
    if (ts_is(e, "comment")) continue;
    int k = pos;
    if (ts_is(e, "initializer_pair")) {
      TSNode d = ts_node_named_child(ts_field(e, "designator"), 0);
      k = field_index(L, t, node_text(L, d), node_loc(L, e));
      e = ts_field(e, "value");
    }
    if (k >= t->nfields) diag_error(node_loc(L, e), NULL, "too many initialisers for '%s'", t->name);
    out[k] = convert(L, L->expr(L, e), t->ftypes[k]);
    pos = k + 1;
  }
  for (int i = 0; i < t->nfields; i++) // C: fields not named are zero
    if (!out[i])
      out[i] = ty_is_float(t->ftypes[i]) ? b_const_f(&L->b, t->ftypes[i], 0)
                                         : b_const_i(&L->b, t->ftypes[i], 0);
}

// The struct variable that x.f (dot) or p->f names: x a struct variable, p a reference to one
// (&s passed to an inlined function; also (*p).f); NULL when it names none.
static Var *struct_of(Lower *L, TSNode arg, bool dot) {
  while (ts_is(arg, "parenthesized_expression")) arg = ts_node_named_child(arg, 0);
  if (dot && ts_is(arg, "pointer_expression") &&
      !strcmp(node_text(L, ts_field(arg, "operator")), "*")) {
    arg = ts_field(arg, "argument");
    dot = false;
    while (ts_is(arg, "parenthesized_expression")) arg = ts_node_named_child(arg, 0);
  }
  if (!ts_is(arg, "identifier")) return NULL;
  Var *v = var_find(L, node_text(L, arg));
  if (!v) return NULL;
  if (!dot) return v->kind == VAR_REF && L->vars[v->ref]->kind == VAR_STRUCT ? L->vars[v->ref] : NULL;
  return v->kind == VAR_STRUCT ? v : NULL;
}

// The element of an array of structs that x names in x.f (dot) or p in p->f: p[k] and *p
// (dot), p (->), p a view of an array of structs (a parameter T *p, p + k, &p[k], a pointer
// variable holding one).  False when it names none.
static bool struct_elem(Lower *L, TSNode arg, bool dot, View *v, Val *idx) {
  while (ts_is(arg, "parenthesized_expression")) arg = ts_node_named_child(arg, 0);
  if (dot && ts_is(arg, "subscript_expression")) {
    if (!ptr_view(L, ts_field(arg, "argument"), v) || !struct_view(v)) return false;
    TSNode in = ts_field(arg, "index");
    *idx = L->expr(L, in);
    if (!ty_is_int(val_type(L->fn, *idx)))
      diag_error(node_loc(L, in), "cast the index to an integer type",
                 "array index is not an integer");
    return true;
  }
  if (dot && ts_is(arg, "pointer_expression") &&
      !strcmp(node_text(L, ts_field(arg, "operator")), "*")) {
    arg = ts_field(arg, "argument");
    dot = false;
  }
  if (dot || !ptr_view(L, arg, v) || !struct_view(v)) return false;
  *idx = b_const_i(&L->b, &ty_int, 0);
  return true;
}

// x.f or p->f of an element of an array of structs: field f's array, and the index.
bool field_elem(Lower *L, TSNode e, View *fv, Val *idx) {
  TSNode f = ts_field(e, "field");
  bool dot = !strcmp(node_text(L, ts_field(e, "operator")), ".");
  View v;
  TSNode arg = ts_field(e, "argument");
  if (struct_of(L, arg, dot) || !struct_elem(L, arg, dot, &v, idx)) return false;
  *fv = field_view(L, &v, field_index(L, v.type->elem, node_text(L, f), node_loc(L, f)));
  return true;
}

void lower_struct_expr(Lower *L, TSNode e, Type *t, Val *out) {
  while (ts_is(e, "parenthesized_expression")) e = ts_node_named_child(e, 0);
  L->b.loc = node_loc(L, e);
  View sv;
  Val si;
  bool deref = ts_is(e, "pointer_expression") &&
               !strcmp(node_text(L, ts_field(e, "operator")), "*");
  if ((ts_is(e, "subscript_expression") || (deref && !struct_of(L, e, true))) &&
      struct_elem(L, e, true, &sv, &si)) { // p[k], *p: every field of the element
    if (sv.type->elem != t)
      diag_error(node_loc(L, e), NULL, "'%s' is not a struct of type '%s'", node_text(L, e),
                 t->name);
    for (int i = 0; i < t->nfields; i++) {
      View fv = field_view(L, &sv, i);
      out[i] = view_read(L, &fv, si, node_loc(L, e));
    }
    return;
  }
  if (ts_is(e, "identifier") || ts_is(e, "pointer_expression")) {
    Var *v = ts_is(e, "identifier") ? var_find(L, node_text(L, e)) : struct_of(L, e, true);
    if (!v || v->kind != VAR_STRUCT || v->type != t)
      diag_error(node_loc(L, e), NULL, "'%s' is not a struct of type '%s'", node_text(L, e), t->name);
    if (v->red == VAR_RED)
      diag_error(node_loc(L, e), "a reduction variable may only be updated in its loop",
                 "reduction variable '%s' is read in the loop body", v->name);
    for (int i = 0; i < t->nfields; i++) {
      out[i] = L->vars[v->idx + 1 + i]->val; // (the field variables follow the struct's: struct_var_push)
      if (!out[i]) diag_error(node_loc(L, e), NULL, "'%s.%s' is used before it is assigned", v->name, t->fnames[i]);
    }
    return;
  }
  if (ts_is(e, "compound_literal_expression")) {
    Type *lt = lower_type(L, ts_field(ts_field(e, "type"), "type"));
    if (lt != t) diag_error(node_loc(L, e), NULL, "compound literal of the wrong type");
    lower_initializer(L, ts_field(e, "value"), t, out);
    return;
  }
  if (ts_is(e, "initializer_list")) {
    lower_initializer(L, e, t, out);
    return;
  }
  if (ts_is(e, "call_expression")) {
    lower_struct_call(L, e, t, out);
    return;
  }
  if (ts_is(e, "conditional_expression"))
    diag_error(node_loc(L, e), "assign the struct in an if and its else",
               "a struct-valued '?:' is not supported");
  diag_error(node_loc(L, e), "use a struct variable, a compound literal (T){...}, or a call",
             "unsupported struct expression");
}

// x.f where x is a struct variable or a struct-valued call, p->f where p refers to one.
Val lower_field(Lower *L, TSNode e) {
  TSNode arg = ts_field(e, "argument"), f = ts_field(e, "field");
  bool dot = !strcmp(node_text(L, ts_field(e, "operator")), ".");
  Var *sv = struct_of(L, arg, dot);
  View fv;
  Val idx;
  if (!sv && field_elem(L, e, &fv, &idx)) return view_read(L, &fv, idx, node_loc(L, e));
  if (!dot && !sv)
    diag_error(node_loc(L, e), NULL, "'->' on something that is not a pointer to a struct");
  if (sv || ts_is(arg, "identifier")) {
    Var *v = sv ? sv : var_find(L, node_text(L, arg));
    if (!v || v->kind != VAR_STRUCT)
      diag_error(node_loc(L, arg), NULL, "'%s' is not a struct variable", node_text(L, arg));
    if (v->red == VAR_RED)
      diag_error(node_loc(L, e), "a reduction variable may only be updated in its loop",
                 "reduction variable '%s' is read in the loop body", v->name);
    Var *fv = L->vars[v->idx + 1 + field_index(L, v->type, node_text(L, f), node_loc(L, f))];
    if (!fv->val) diag_error(node_loc(L, e), NULL, "'%s' is used before it is assigned", fv->name);
    return fv->val;
  }
  if (ts_is(arg, "subscript_expression"))
    diag_error(node_loc(L, e), "index an array of structs (a pointer to them) defined in this file",
               "member access on an element of something that is not an array of structs");
  Type *t = NULL;
  if (ts_is(arg, "call_expression")) t = call_result_type(L, arg);
  if (!t || t->kind != TY_STRUCT)
    diag_error(node_loc(L, e), NULL, "member access on something that is not a struct");
  Val vals[64];
  lower_struct_expr(L, arg, t, vals);
  return vals[field_index(L, t, node_text(L, f), node_loc(L, f))];
}

// The variable a field assignment l.f = e (p->f = e) assigns.
Var *field_target(Lower *L, TSNode lhs) {
  TSNode arg = ts_field(lhs, "argument");
  Var *v = struct_of(L, arg, !strcmp(node_text(L, ts_field(lhs, "operator")), "."));
  if (!v)
    diag_error(node_loc(L, lhs), "assign fields of local struct variables", "unsupported assignment target");

  if (v->red)
    diag_error(node_loc(L, lhs), "update the whole value: v = op(v, e)",
               "a field of clause variable '%s' is assigned", v->name);
  return L->vars[v->idx + 1 + field_index(L, v->type, node_text(L, ts_field(lhs, "field")), node_loc(L, lhs))];
}

// l = e for a struct variable l.
void assign_struct(Lower *L, Var *v, TSNode rhs) {
  if (L->par && v->idx < L->par->var_base)
    diag_error(node_loc(L, rhs), NULL, "parallel loop assigns variable '%s' declared outside it", v->name);
  Val vals[64];
  lower_struct_expr(L, rhs, v->type, vals);
  for (int i = 0; i < v->type->nfields; i++) L->vars[v->idx + 1 + i]->val = vals[i];
}
