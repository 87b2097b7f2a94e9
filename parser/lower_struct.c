// parser/lower_struct.c: structs of float/double fields as values (language.md §6).
//
// Structs are scalarised here: a struct variable `l` of type Lin {a, b} is a marker variable
// (VAR_STRUCT) followed by one scalar variable per field, named "l.a" and "l.b".  Member
// access, compound literals (Lin){x, y} and {.a = x}, struct assignment, struct parameters
// and results of inlined functions all become operations on the fields, so the rest of
// adsoac only ever sees scalars.
//
//   type_definition: 'typedef' struct_specifier(body: field_declaration_list) type_identifier
//   struct_specifier: 'struct' name? field_declaration_list?
#include <string.h>

#include "lower.h"

// ---- the file's types ----

static Type *struct_type(Arena *a, const Src *src, TSNode spec, const char *name) {
  TSNode body = ts_field(spec, "body");
  const char *fnames[64];
  Type *ftypes[64];
  int n = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode fd = ts_node_named_child(body, i);
    if (!ts_is(fd, "field_declaration")) continue;
    TSNode tn = ts_field(fd, "type");
    const char *ts = ts_text(a, src, tn);
    Type *ft = !strcmp(ts, "double") ? &ty_double : !strcmp(ts, "float") ? &ty_float : NULL;
    for (uint32_t j = 0; j < ts_node_named_child_count(fd); j++) {
      TSNode d = ts_node_named_child(fd, j);
      if (ts_node_eq(d, tn)) continue;
      if (!ts_is(d, "field_identifier") || !ft || n == 64) return NULL; // not a struct of floats
      fnames[n] = ts_text(a, src, d);
      ftypes[n++] = ft;
    }
  }
  if (!n) return NULL;
  Type *t = ARENA_NEW(a, Type);
  *t = (Type){TY_STRUCT, name};
  t->nfields = n;
  t->fnames = ARENA_ARRAY(a, const char *, n);
  t->ftypes = ARENA_ARRAY(a, Type *, n);
  memcpy(t->fnames, fnames, sizeof(char *) * (size_t)n);
  memcpy(t->ftypes, ftypes, sizeof(Type *) * (size_t)n);
  return t;
}

// A later definition of a name replaces the earlier one.
static void add_type(Arena *a, TypeTable *tt, const char *name, Type *t) {
  TypeDef *d;
  HASH_FIND_STR(tt->byname, name, d);
  if (!d) {
    d = ARENA_NEW(a, TypeDef);
    d->name = name;
    TABLE_ADD(a, tt->byname, name, d);
  }
  d->type = t;
}

static Type *type_named(const TypeTable *tt, const char *name) {
  TypeDef *d;
  HASH_FIND_STR(tt->byname, name, d);
  return d ? d->type : NULL;
}

// Struct types of float/double fields, and typedefs of float, double and integer types.
void collect_types(Arena *a, const Src *src, TSNode root, TypeTable *tt) {
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n)) {
    TSNode spec = ts_is(n, "type_definition") ? ts_field(n, "type")
                  : ts_is(n, "struct_specifier") ? n
                  : ts_is(n, "declaration") ? ts_field(n, "type") : (TSNode){0};
    const char *tag = NULL;
    Type *t = NULL;
    if (ts_is(spec, "struct_specifier")) {
      TSNode name = ts_field(spec, "name");
      if (!ts_node_is_null(name)) tag = arena_printf(a, "struct %s", ts_text(a, src, name));
      if (!ts_node_is_null(ts_field(spec, "body"))) {
        t = struct_type(a, src, spec, tag);
        if (t && tag) add_type(a, tt, tag, t);
      } else if (tag) {
        t = type_named(tt, tag);
      }
    }
    if (!ts_is(n, "type_definition")) continue;
    TSNode d = ts_field(n, "declarator");
    if (!ts_is(d, "type_identifier")) continue;
    const char *name = ts_text(a, src, d);
    if (t) {
      if (!t->name) t->name = name;
      add_type(a, tt, name, t);
    } else if (!ts_is(spec, "struct_specifier")) {
      Lower L = {a, src};
      const char *s = ts_text(a, src, spec);
      if (!strcmp(s, "double") || !strcmp(s, "float") || ts_is(spec, "sized_type_specifier") ||
          ts_is(spec, "primitive_type"))
        add_type(a, tt, name, lower_type(&L, spec));
    }
  }
}

Type *find_type(const Lower *L, const char *name) {
  return L->types ? type_named(L->types, name) : NULL;
}

// ---- struct variables and values ----

static const char *field_name(Lower *L, const char *var, const char *field) {
  return arena_printf(L->a, "%s.%s", var, field);
}

int struct_var_push(Lower *L, const char *name, Type *t, const Val *fields, Loc loc) {
  int k = var_push(L, (Var){name, t, VAR_STRUCT, 0, loc});
  for (int i = 0; i < t->nfields; i++) {
    var_push(L, (Var){field_name(L, name, t->fnames[i]), t->ftypes[i], VAR_SCALAR,
                      fields ? fields[i] : 0, loc});
    Val v = fields ? fields[i] : 0;
    if (v && !L->fn->vals[v].hint) L->fn->vals[v].hint = arena_printf(L->a, "%s_%s", name, t->fnames[i]);
  }
  return k;
}

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
    out[k] = convert(L, lower_expr(L, e), t->ftypes[k]);
    pos = k + 1;
  }
  for (int i = 0; i < t->nfields; i++) // C: fields not named are zero
    if (!out[i]) out[i] = b_const_f(&L->b, t->ftypes[i], 0);
}

void lower_struct_expr(Lower *L, TSNode e, Type *t, Val *out) {
  while (ts_is(e, "parenthesized_expression")) e = ts_node_named_child(e, 0);
  L->b.loc = node_loc(L, e);
  if (ts_is(e, "identifier")) {
    Var *v = var_find(L, node_text(L, e));
    if (!v || v->kind != VAR_STRUCT || v->type != t)
      diag_error(node_loc(L, e), NULL, "'%s' is not a struct of type '%s'", node_text(L, e), t->name);
    if (v->red == VAR_RED)
      diag_error(node_loc(L, e), "a reduction variable may only be updated in its loop",
                 "reduction variable '%s' is read in the loop body", v->name);
    for (int i = 0; i < t->nfields; i++) {
      out[i] = var_find(L, field_name(L, v->name, t->fnames[i]))->val;
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
  diag_error(node_loc(L, e), "use a struct variable, a compound literal (T){...}, or a call",
             "unsupported struct expression");
}

// x.f where x is a struct variable or a struct-valued call.
Val lower_field(Lower *L, TSNode e) {
  TSNode arg = ts_field(e, "argument"), f = ts_field(e, "field");
  if (!strcmp(node_text(L, ts_field(e, "operator")), "->"))
    diag_error(node_loc(L, e), "index the array, p[i].f", "'->' is not supported");
  if (ts_is(arg, "identifier")) {
    Var *v = var_find(L, node_text(L, arg));
    if (!v || v->kind != VAR_STRUCT)
      diag_error(node_loc(L, arg), NULL, "'%s' is not a struct variable", node_text(L, arg));
    if (v->red == VAR_RED)
      diag_error(node_loc(L, e), "a reduction variable may only be updated in its loop",
                 "reduction variable '%s' is read in the loop body", v->name);
    field_index(L, v->type, node_text(L, f), node_loc(L, f));
    Var *fv = var_find(L, field_name(L, v->name, node_text(L, f)));
    if (!fv->val) diag_error(node_loc(L, e), NULL, "'%s' is used before it is assigned", fv->name);
    return fv->val;
  }
  if (ts_is(arg, "subscript_expression"))
    diag_error(node_loc(L, e), "arrays of structs come in a later version; pass one array per field",
               "arrays of structs are not supported yet");
  Type *t = NULL;
  if (ts_is(arg, "call_expression")) t = call_result_type(L, arg);
  if (!t || t->kind != TY_STRUCT)
    diag_error(node_loc(L, e), NULL, "member access on something that is not a struct");
  Val vals[64];
  lower_struct_expr(L, arg, t, vals);
  return vals[field_index(L, t, node_text(L, f), node_loc(L, f))];
}

// The variable a field assignment l.f = e assigns.
Var *field_target(Lower *L, TSNode lhs) {
  TSNode arg = ts_field(lhs, "argument");
  Var *v = ts_is(arg, "identifier") ? var_find(L, node_text(L, arg)) : NULL;
  if (!v || v->kind != VAR_STRUCT || strcmp(node_text(L, ts_field(lhs, "operator")), "."))
    diag_error(node_loc(L, lhs), "assign fields of local struct variables", "unsupported assignment target");
  if (v->red)
    diag_error(node_loc(L, lhs), "update the whole value: v = op(v, e)",
               "a field of clause variable '%s' is assigned", v->name);
  field_index(L, v->type, node_text(L, ts_field(lhs, "field")), node_loc(L, lhs));
  return var_find(L, field_name(L, v->name, node_text(L, ts_field(lhs, "field"))));
}

// l = e for a struct variable l.
void assign_struct(Lower *L, Var *v, TSNode rhs) {
  if (L->par && (int)(v - L->vars) < L->par->var_base)
    diag_error(node_loc(L, rhs), NULL, "parallel loop assigns variable '%s' declared outside it", v->name);
  Val vals[64];
  lower_struct_expr(L, rhs, v->type, vals);
  for (int i = 0; i < v->type->nfields; i++) var_find(L, field_name(L, v->name, v->type->fnames[i]))->val = vals[i];
}
