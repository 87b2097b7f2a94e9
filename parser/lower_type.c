// parser/lower_type.c: C types -> Type: the scalar types, the file's struct types of float and
// double fields and its typedefs (collect_types), and C's conversions made explicit.
//
//   type_definition: 'typedef' struct_specifier(body: field_declaration_list) type_identifier
//   struct_specifier: 'struct' name? field_declaration_list?
#include <string.h>

#include "lower.h"
#include "macro.h"

// ---- C types ----

static Type *int_type(Lower *L, const char *name) {
  static const char *const ints[] = {"int",      "long",     "short",    "char",    "unsigned",
                                     "signed",   "size_t",   "ssize_t",  "ptrdiff_t",
                                     "int8_t",   "int16_t",  "int32_t",  "int64_t", "uint8_t",
                                     "uint16_t", "uint32_t", "uint64_t", "_Bool",   "bool",
                                     "intptr_t", "uintptr_t", "intmax_t", "uintmax_t"};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
    if (!strcmp(name, ints[i])) {
      if (!strcmp(name, "int")) return &ty_int;
      if (!strcmp(name, "long")) return &ty_long;
      Type *t = ARENA_NEW(L->a, Type);
      *t = (Type){TY_INT, arena_strdup(L->a, name)};
      return t;
    }
  return NULL;
}

// primitive_type | sized_type_specifier | type_identifier -> Type
Type *lower_type(Lower *L, TSNode tn) {
  const char *s = node_text(L, tn);
  if (!strcmp(s, "double")) return &ty_double;
  if (!strcmp(s, "float")) return &ty_float;
  if (!strcmp(s, "void")) return &ty_void;
  if (ts_is(tn, "sized_type_specifier")) {
    if (strstr(s, "double"))
      diag_error(node_loc(L, tn), "use double", "long double is not supported");
    Type *t = ARENA_NEW(L->a, Type);
    *t = (Type){TY_INT, s};
    return t;
  }
  Type *t = int_type(L, s);
  if (t) return t;
  if (ts_is(tn, "struct_specifier") && !ts_node_is_null(ts_field(tn, "name")))
    s = arena_printf(L->a, "struct %s", node_text(L, ts_field(tn, "name")));
  if ((ts_is(tn, "struct_specifier") || ts_is(tn, "type_identifier")) && (t = find_type(L, s)))
    return t;
  const char *x; // #define real double
  if (ts_is(tn, "type_identifier") && L->macros && !L->in_expansion &&
      (x = macro_expand(L->macros, s, NULL, 0, false, use_byte(L, tn), node_loc(L, tn)))) {
    if (!strcmp(x, "double")) return &ty_double;
    if (!strcmp(x, "float")) return &ty_float;
    if ((t = int_type(L, x)) || (t = find_type(L, x))) return t;
  }
  if (ts_is(tn, "struct_specifier") || ts_is(tn, "type_identifier"))
    diag_error(node_loc(L, tn), "structs must have only float and double fields (at most 64), and be "
               "defined in this file", "type '%s' is not supported", s);
  diag_error(node_loc(L, tn), NULL, "type '%s' is not supported", s);
}

Val convert(Lower *L, Val v, Type *to) {
  Type *from = val_type(L->fn, v);
  if (from == to || (from->kind == to->kind && !strcmp(from->name, to->name))) return v;
  if (to->kind == TY_VOID || to->kind == TY_PTR || from->kind == TY_PTR)
    diag_error(L->b.loc, NULL, "cannot convert '%s' to '%s' here", from->name ? from->name : "?",
               to->name ? to->name : "?");
  return b_cast(&L->b, to, v);
}

Type *common_type(Type *x, Type *y) {
  if (x->kind == TY_DOUBLE || y->kind == TY_DOUBLE) return &ty_double;
  if (x->kind == TY_FLOAT || y->kind == TY_FLOAT) return &ty_float;
  if (x->kind == TY_INT && strcmp(x->name, "int")) return x;
  if (y->kind == TY_INT && strcmp(y->name, "int")) return y;
  return &ty_int;
}

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
