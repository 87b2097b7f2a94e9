// parser/lower_type.c: C types -> Type: the scalar types, the file's struct types of float and
// double fields and its typedefs (collect_types), and C's conversions made explicit.
//
//   type_definition: 'typedef' struct_specifier(body: field_declaration_list) type_identifier
//   struct_specifier: 'struct' name? field_declaration_list?
#include <string.h>

#include "lower.h"
#include "macro.h"

// ---- C types ----

static const char *refused(const TypeTable *tt, const char *name);

static Type *int_type(Arena *a, const char *name) {
  static const char *const ints[] = {"int",      "long",     "short",    "char",    "unsigned",
                                     "signed",   "size_t",   "ssize_t",  "ptrdiff_t",
                                     "int8_t",   "int16_t",  "int32_t",  "int64_t", "uint8_t",
                                     "uint16_t", "uint32_t", "uint64_t", "_Bool",   "bool",
                                     "intptr_t", "uintptr_t", "intmax_t", "uintmax_t"};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
    if (!strcmp(name, ints[i])) {
      if (!strcmp(name, "int")) return &ty_int;
      if (!strcmp(name, "long")) return &ty_long;
      Type *t = ARENA_NEW(a, Type);
      *t = (Type){TY_INT, arena_strdup(a, name)};
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
  Type *t = int_type(L->a, s);
  if (t) return t;
  if (!strcmp(s, "MPI_Comm")) return &ty_comm; // (language.md §10)
  if (ts_is(tn, "struct_specifier") && !ts_node_is_null(ts_field(tn, "name")))
    s = arena_printf(L->a, "struct %s", node_text(L, ts_field(tn, "name")));
  if ((ts_is(tn, "struct_specifier") || ts_is(tn, "type_identifier")) && (t = find_type(L, s)))
    return t;
  const char *x; // #define real double
  if (ts_is(tn, "type_identifier") && L->macros && !L->in_expansion &&
      (x = macro_expand(L->macros, s, NULL, 0, false, use_byte(L, tn), node_loc(L, tn)))) {
    if (!strcmp(x, "double")) return &ty_double;
    if (!strcmp(x, "float")) return &ty_float;
    if ((t = int_type(L->a, x)) || (t = find_type(L, x))) return t;
  }
  const char *why = L->types ? refused(L->types, s) : NULL;
  if (why)
    diag_error(node_loc(L, tn), "a struct adsoac differentiates has scalar fields (float, double, "
               "integers); nested structs, array, pointer and bit-fields are not supported",
               "type '%s' is not supported: it has %s", s, why);
  if (!strncmp(s, "omp_", 4) && strstr(s, "lock"))
    diag_error(node_loc(L, tn), "update shared variables under #pragma omp atomic, or with a "
               "reduction clause", "OpenMP locks ('%s') have no reading as an annotation "
               "(language.md 11)", s);
  if (ts_is(tn, "struct_specifier") || ts_is(tn, "type_identifier"))
    diag_error(node_loc(L, tn), "define the struct (at most 64 scalar fields) or the typedef in "
               "this file or in a header included with #include \"...\"",
               "type '%s' is not supported", s);
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

static Type *type_named(const TypeTable *tt, const char *name);

// The type of a struct's field: a float, double or integer type, or a typedef of one; NULL
// for anything else (a nested struct, a union, an enum, long double).
static Type *field_type(Arena *a, const Src *src, const TypeTable *tt, TSNode tn) {
  const char *s = ts_text(a, src, tn);
  if (!strcmp(s, "double")) return &ty_double;
  if (!strcmp(s, "float")) return &ty_float;
  if (ts_is(tn, "sized_type_specifier")) {
    if (strstr(s, "double")) return NULL;
    Type *t = ARENA_NEW(a, Type);
    *t = (Type){TY_INT, s};
    return t;
  }
  if (!ts_is(tn, "primitive_type") && !ts_is(tn, "type_identifier")) return NULL;
  Type *t = int_type(a, s);
  if (!t && ts_is(tn, "type_identifier")) t = type_named(tt, s);
  return t && (ty_is_float(t) || ty_is_int(t)) ? t : NULL;
}

// A struct type of scalar fields (float, double, integers: language.md §2); NULL with *why
// set when it has another kind of field, or none.
static Type *struct_type(Arena *a, const Src *src, const TypeTable *tt, TSNode spec,
                         const char *name, const char **why) {
  TSNode body = ts_field(spec, "body");
  const char *fnames[64];
  Type *ftypes[64];
  int n = 0;
  *why = NULL;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode fd = ts_node_named_child(body, i);
    if (!ts_is(fd, "field_declaration")) continue;
    TSNode tn = ts_field(fd, "type");
    Type *ft = field_type(a, src, tt, tn);
    bool named = false;
    for (uint32_t j = 0; j < ts_node_named_child_count(fd); j++) {
      TSNode d = ts_node_named_child(fd, j);
      if (ts_node_eq(d, tn) || ts_is(d, "type_qualifier") || ts_is(d, "comment")) continue;
      named = true;
      TSNode id = d;
      while (!ts_node_is_null(ts_field(id, "declarator"))) id = ts_field(id, "declarator");
      const char *fname = ts_text(a, src, id);
      if (ts_is(d, "array_declarator"))
        *why = arena_printf(a, "an array field '%s'", fname);
      else if (ts_is(d, "pointer_declarator"))
        *why = arena_printf(a, "a pointer field '%s'", fname);
      else if (ts_is(d, "bitfield_clause"))
        *why = "a bit-field";
      else if (!ts_is(d, "field_identifier"))
        *why = arena_printf(a, "a field '%s' adsoac cannot read", fname);
      else if (!ft)
        *why = arena_printf(a, "a field '%s' of type '%s'", fname, ts_text(a, src, tn));
      else if (n == 64)
        *why = "more than 64 fields";
      if (*why) return NULL;
      fnames[n] = fname;
      ftypes[n++] = ft;
    }
    if (!named) { // an anonymous struct or union member
      *why = arena_printf(a, "a member of type '%s'", ts_text(a, src, tn));
      return NULL;
    }
  }
  if (!n) {
    *why = "no fields";
    return NULL;
  }
  Type *t = ARENA_NEW(a, Type);
  *t = (Type){TY_STRUCT, name};
  t->nfields = n;
  t->fnames = ARENA_ARRAY(a, const char *, n);
  t->ftypes = ARENA_ARRAY(a, Type *, n);
  memcpy(t->fnames, fnames, sizeof(char *) * (size_t)n);
  memcpy(t->ftypes, ftypes, sizeof(Type *) * (size_t)n);
  return t;
}

// A later definition of a name replaces the earlier one (t NULL: a refused struct, why).
static void add_type(Arena *a, TypeTable *tt, const char *name, Type *t, const char *why) {
  TypeDef *d;
  HASH_FIND_STR(tt->byname, name, d);
  if (!d) {
    d = ARENA_NEW(a, TypeDef);
    d->name = name;
    TABLE_ADD(a, tt->byname, name, d);
  }
  d->type = t;
  d->why = why;
  d->alias = NULL;
}

static const TypeDef *type_def(const TypeTable *tt, const char *name) {
  TypeDef *d;
  HASH_FIND_STR(tt->byname, name, d);
  if (d && !d->type && !d->why && d->alias) {
    const char *tag = d->alias; // (HASH_FIND_STR clears its output first)
    HASH_FIND_STR(tt->byname, tag, d);
  }
  return d;
}

static Type *type_named(const TypeTable *tt, const char *name) {
  const TypeDef *d = type_def(tt, name);
  return d ? d->type : NULL;
}

static const char *refused(const TypeTable *tt, const char *name) {
  const TypeDef *d = type_def(tt, name);
  return d ? d->why : NULL;
}

static void collect_node(Arena *a, const Src *src, TSNode n, TypeTable *tt);

// The definitions inside a preprocessor conditional of a header (its include guard), all of
// them: a header's text is read as it is, without evaluating its #if lines.
static void collect_list(Arena *a, const Src *src, TSNode parent, TypeTable *tt) {
  for (TSNode n = ts_node_named_child(parent, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n))
    collect_node(a, src, n, tt);
}

// Struct types of scalar fields, and typedefs of float, double, integer and struct types.
static void collect_node(Arena *a, const Src *src, TSNode n, TypeTable *tt) {
  if (ts_is(n, "preproc_ifdef") || ts_is(n, "preproc_if") || ts_is(n, "preproc_else") ||
      ts_is(n, "preproc_elif")) {
    collect_list(a, src, n, tt);
    return;
  }
  TSNode spec = ts_is(n, "type_definition") ? ts_field(n, "type")
                : ts_is(n, "struct_specifier") ? n
                : ts_is(n, "declaration") ? ts_field(n, "type") : (TSNode){0};
  const char *tag = NULL, *why = NULL;
  Type *t = NULL;
  if (ts_is(spec, "struct_specifier")) {
    TSNode name = ts_field(spec, "name");
    if (!ts_node_is_null(name)) tag = arena_printf(a, "struct %s", ts_text(a, src, name));
    if (!ts_node_is_null(ts_field(spec, "body"))) {
      t = struct_type(a, src, tt, spec, tag, &why);
      if (tag) add_type(a, tt, tag, t, why);
    } else if (tag) {
      t = type_named(tt, tag);
      why = refused(tt, tag);
    }
  }
  if (!ts_is(n, "type_definition")) return;
  TSNode d = ts_field(n, "declarator");
  if (!ts_is(d, "type_identifier")) return;
  const char *name = ts_text(a, src, d);
  if (t) {
    if (!t->name) t->name = name;
    add_type(a, tt, name, t, NULL);
  } else if (why) {
    add_type(a, tt, name, NULL, why);
  } else if (tag) { // typedef struct P P; with struct P's body later
    add_type(a, tt, name, NULL, NULL);
    TypeDef *td;
    HASH_FIND_STR(tt->byname, name, td);
    td->alias = tag;
  } else if (!ts_is(spec, "struct_specifier")) {
    Lower L = {a, src};
    L.types = tt;
    const char *s = ts_text(a, src, spec);
    if (!strcmp(s, "double") || !strcmp(s, "float") || ts_is(spec, "primitive_type") ||
        (ts_is(spec, "sized_type_specifier") && !strstr(s, "double")))
      add_type(a, tt, name, lower_type(&L, spec), NULL);
    else if (ts_is(spec, "type_identifier") && type_named(tt, s)) // typedef real real2;
      add_type(a, tt, name, type_named(tt, s), NULL);
  }
}

void collect_types(Arena *a, const Src *src, TSNode root, TypeTable *tt) {
  for (TSNode n = ts_node_named_child(root, 0); !ts_node_is_null(n);
       n = ts_node_next_named_sibling(n))
    collect_node(a, src, n, tt);
}

Type *find_type(const Lower *L, const char *name) {
  return L->types ? type_named(L->types, name) : NULL;
}

void declarator_dims(Lower *L, TSNode d, DeclDims *out) {
  TSNode decl = d, rev[MAX_DIMS + 2];
  bool ptr[MAX_DIMS + 2];
  int n = 0;
  *out = (DeclDims){0};
  while (!ts_node_is_null(d) && !ts_is(d, "identifier")) {
    if (ts_is(d, "array_declarator") || ts_is(d, "pointer_declarator")) {
      if (n == MAX_DIMS + 1)
        diag_error(node_loc(L, decl), NULL, "arrays of more than %d dimensions", MAX_DIMS + 1);
      bool is_ptr = ts_is(d, "pointer_declarator");
      ptr[n] = is_ptr;
      rev[n++] = is_ptr ? (TSNode){0} : ts_field(d, "size");
      d = ts_field(d, "declarator");
    } else if (ts_is(d, "parenthesized_declarator")) {
      d = ts_node_named_child(d, 0);
    } else {
      diag_error(node_loc(L, d), NULL, "unsupported parameter declarator");
    }
  }
  if (ts_node_is_null(d)) diag_error(node_loc(L, decl), "name every parameter", "unnamed parameter");
  out->n = n;
  out->ident = d;
  out->array = n && !ptr[n - 1];
  for (int k = 0; k < n; k++) { // (rev: from the outermost declarator in)
    out->size[k] = rev[n - 1 - k];
    if (k == 0) continue;
    if (ptr[n - 1 - k])
      diag_error(node_loc(L, decl), "pass a flat array (double *x, indexed x[i*m + j]) or an "
                 "array of arrays (double A[][M], double A[n][m], double (*A)[M])",
                 "pointers to pointers and arrays of pointers are not supported");
    if (ts_node_is_null(out->size[k]))
      diag_error(node_loc(L, decl), "give every dimension after the first its extent",
                 "an array of arrays of unknown extent (only the first dimension may be [])");
  }
  // the declarator as C text, the extents as written, without qualifiers (C++ has no
  // double x[restrict n]); a % of the text doubled
  Buf b = {.arena = L->a};
  buf_puts(&b, n && ptr[n - 1] ? "(*%s)" : "%s");
  for (int k = 0; k < n; k++) {
    if (k == 0 && ptr[n - 1]) continue;
    buf_puts(&b, "[");
    if (!ts_node_is_null(out->size[k]))
      for (const char *t = node_text(L, out->size[k]); *t; t++)
        buf_puts(&b, *t == '%' ? "%%" : *t == '\n' || *t == '\r' || *t == '\t' ? " " : (char[]){*t, 0});
    buf_puts(&b, "]");
  }
  out->fmt = arena_strdup(L->a, b.data);
  buf_free(&b);
}
