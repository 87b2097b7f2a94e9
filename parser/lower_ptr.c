// parser/lower_ptr.c: pointers as legacy C uses them (language.md §6).
//
// A pointer is a view: an array of the IR and an offset into it.  `const double *row =
// A + i*n;`, `double *g = &gates[4*h];`, `x + k` and `&x[k]` passed to a function, `*p`,
// `p[k]`, `p++`, `p += d`: all are reads and writes of the array at offset + index.  A pointer
// variable is a VAR_ARRAY whose offset is a hidden scalar variable (Var.off), so that a
// reassignment in a branch or a loop is merged and carried like any scalar.  `&s` of a local
// scalar or struct, passed to an inlined function, is a reference (VAR_REF): `*p` reads and
// assigns the variable itself.  The arrays a function starts with are its pointer parameters
// and what it allocates (malloc, calloc); a pointer that two different arrays are assigned to
// is refused (the IR names each array by one value).
#include <string.h>

#include "lower.h"

static TSNode strip_parens(TSNode e) {
  while (ts_is(e, "parenthesized_expression")) e = ts_node_named_child(e, 0);
  return e;
}

static Val offset_of(Lower *L, const Var *v) {
  Var *o = v->off ? var_find(L, v->off) : NULL;
  return o ? o->val : 0;
}

Val view_index(Lower *L, const View *v, Val idx) {
  if (!v->off) return idx;
  // element 0 (*p, p->f) is at the offset itself: for a view &x[i] at the loop's index, the
  // iteration's own element, whose writes are forwarded to the reads after them
  const Node *d = L->fn->defs[idx];
  if (d && d->kind == IR_CONST && !d->u.cst.i && ty_is_int(val_type(L->fn, v->off))) return v->off;
  Type *t = common_type(val_type(L->fn, v->off), val_type(L->fn, idx));
  return b_binop(&L->b, BIN_ADD, convert(L, v->off, t), convert(L, idx, t));
}

static Val add_offset(Lower *L, Val off, Val k, bool minus) {
  if (!off && !minus) return k;
  if (!off) off = b_const_i(&L->b, val_type(L->fn, k), 0);
  Type *t = common_type(val_type(L->fn, off), val_type(L->fn, k));
  return b_binop(&L->b, minus ? BIN_SUB : BIN_ADD, convert(L, off, t), convert(L, k, t));
}

// The view a variable holds now.
View var_view(Lower *L, Var *v, Loc loc) {
  if (v->kind == VAR_REF) return (View){0, v->type, 0, v->ref};
  if (!v->val)
    diag_error(loc, NULL, "pointer '%s' is used before it is assigned", v->name);
  return (View){v->val, v->type, offset_of(L, v), -1};
}

// (a cast to a pointer type: its type, or NULL)
static Type *pointer_cast_type(Lower *L, TSNode e) {
  TSNode td = ts_field(e, "type");
  TSNode d = ts_field(td, "declarator");
  if (!ts_is(d, "abstract_pointer_declarator")) return NULL;
  if (!ts_node_is_null(ts_field(d, "declarator")))
    diag_error(node_loc(L, td), NULL, "casts to pointers to pointers are not supported");
  bool is_const = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(td); i++) {
    TSNode q = ts_node_named_child(td, i);
    if (ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const")) is_const = true;
  }
  return ty_ptr(L->a, lower_type(L, ts_field(td, "type")), is_const);
}

static bool same_elem(const Type *a, const Type *b) {
  return a == b || (a->kind == b->kind && a->name && b->name && !strcmp(a->name, b->name));
}

bool ptr_view(Lower *L, TSNode e, View *out) {
  e = strip_parens(e);
  if (ts_is(e, "identifier")) {
    Var *v = var_find(L, node_text(L, e));
    if (!v || (v->kind != VAR_ARRAY && v->kind != VAR_REF)) return false;
    *out = var_view(L, v, node_loc(L, e));
    return true;
  }
  if (ts_is(e, "cast_expression")) {
    Type *t = pointer_cast_type(L, e);
    if (!t || !ptr_view(L, ts_field(e, "value"), out)) return false;
    if (!same_elem(t->elem, out->type->elem))
      diag_error(node_loc(L, e), "keep the element type of the array",
                 "a cast of a pointer to '%s' elements to one to '%s' elements",
                 ty_c_name(L->a, out->type->elem), ty_c_name(L->a, t->elem));
    if (!t->elem_const && out->type->elem_const)
      diag_error(node_loc(L, e), NULL, "a cast drops the const of the elements");
    out->type = t;
    return true;
  }
  if (ts_is(e, "binary_expression")) {
    const char *op = node_text(L, ts_field(e, "operator"));
    if (strcmp(op, "+") && strcmp(op, "-")) return false;
    TSNode l = ts_field(e, "left"), r = ts_field(e, "right");
    bool left = ptr_view(L, l, out);
    if (!left && (!strcmp(op, "-") || !ptr_view(L, r, out))) return false;
    if (out->ref >= 0)
      diag_error(node_loc(L, e), NULL, "pointer arithmetic on the address of a variable");
    Val k = L->expr(L, left ? r : l);
    if (!ty_is_int(val_type(L->fn, k)))
      diag_error(node_loc(L, e), NULL, "pointer arithmetic with a value that is not an integer");
    L->b.loc = node_loc(L, e);
    out->off = add_offset(L, out->off, k, !strcmp(op, "-"));
    return true;
  }
  if (ts_is(e, "pointer_expression") && !strcmp(node_text(L, ts_field(e, "operator")), "&")) {
    TSNode a = strip_parens(ts_field(e, "argument"));
    if (ts_is(a, "subscript_expression")) { // &x[k]
      if (!ptr_view(L, ts_field(a, "argument"), out)) return false;
      Val k = L->expr(L, ts_field(a, "index"));
      if (!ty_is_int(val_type(L->fn, k)))
        diag_error(node_loc(L, ts_field(a, "index")), "cast the index to an integer type",
                   "array index is not an integer");
      if (out->ref >= 0) {
        const Node *d = L->fn->defs[k];
        if (!d || d->kind != IR_CONST || d->u.cst.i != 0)
          diag_error(node_loc(L, a), NULL, "an element other than [0] of a scalar variable");
        return true;
      }
      L->b.loc = node_loc(L, e);
      out->off = add_offset(L, out->off, k, false);
      return true;
    }
    if (ts_is(a, "field_expression")) // (a field is no array: p + 1 would not be the next one)
      diag_error(node_loc(L, e), "pass the struct (&s, &p[k], p + k) or the field's value",
                 "the address of a struct field is not supported");
    if (ts_is(a, "identifier")) { // &s: a reference to a local variable
      Var *v = var_find(L, node_text(L, a));
      if (!v || (v->kind != VAR_SCALAR && v->kind != VAR_STRUCT)) return false;
      *out = (View){0, ty_ptr(L->a, v->type, false), 0, (int)(v - L->vars)};
      return true;
    }
    return false;
  }
  return false;
}

View view_expr(Lower *L, TSNode e, const char *what) {
  View v;
  if (!ptr_view(L, e, &v))
    diag_error(node_loc(L, e), "use a pointer parameter, a pointer variable, x + k or &x[k]",
               "%s is not a pointer into an array", what);
  return v;
}

// ---- reading and writing through a view ----

bool struct_view(const View *v) {
  return v->ref < 0 && v->type->elem->kind == TY_STRUCT;
}

// Field k of the structs a view of an array of structs sees: the field's array (one per field:
// ValInfo.fields), at the same offset.
View field_view(Lower *L, const View *v, int k) {
  Type *st = v->type->elem;
  IR_ASSERT(struct_view(v) && L->fn->vals[v->arr].fields && k < st->nfields);
  return (View){L->fn->vals[v->arr].fields[k], ty_ptr(L->a, st->ftypes[k], v->type->elem_const),
                v->off, -1};
}

Val view_read(Lower *L, const View *v, Val idx, Loc loc) {
  if (struct_view(v))
    diag_error(loc, "read its fields, p[k].f",
               "an element of an array of structs used as a number");
  if (v->ref >= 0) {
    Var *s = &L->vars[v->ref];
    const Node *d = L->fn->defs[idx];
    if (!d || d->kind != IR_CONST || d->u.cst.i != 0)
      diag_error(loc, NULL, "an element other than [0] of the scalar variable '%s'", s->name);
    if (s->kind != VAR_SCALAR)
      diag_error(loc, "access the fields with p->f", "'%s' is a struct", s->name);
    if (!s->val) diag_error(loc, NULL, "'%s' is used before it is assigned", s->name);
    return s->val;
  }
  return read_element(L, v->arr, view_index(L, v, idx), loc);
}

// ---- pointer variables ----

// A new pointer variable name of type t holding view v (v.arr 0: not assigned yet).  It gets
// an offset variable when v has an offset or when `assigned` (it may move later).
int ptr_var_push(Lower *L, const char *name, Type *t, const View *v, bool assigned, Loc loc) {
  if (v && v->ref >= 0) {
    int k = var_push(L, (Var){name, t, VAR_REF, 0, loc});
    L->vars[k].ref = v->ref;
    return k;
  }
  const char *off = NULL;
  if ((v && v->off) || assigned) {
    Val o = v ? v->off : 0;
    if (!o && v && v->arr) o = b_const_i(&L->b, &ty_long, 0);
    off = arena_printf(L->a, "$off:%s:%d", name, L->nvars);
    var_push(L, (Var){off, o ? val_type(L->fn, o) : &ty_long, VAR_SCALAR, o, loc});
  }
  int k = var_push(L, (Var){name, t, VAR_ARRAY, v ? v->arr : 0, loc});
  L->vars[k].off = off;
  return k;
}

// p = v: the view's array must be the one p points into (or p was not assigned yet).
void ptr_assign(Lower *L, Var *p, const View *v, Loc loc) {
  if (p->kind == VAR_REF || v->ref >= 0)
    diag_error(loc, "pass the variable's address to the function directly",
               "a pointer to a local variable is assigned");
  if (L->par && (int)(p - L->vars) < L->par->var_base)
    diag_error(loc, "declare the pointer inside the loop",
               "parallel loop assigns pointer '%s' declared outside it", p->name);
  if (!same_elem(p->type->elem, v->type->elem))
    diag_error(loc, NULL, "'%s' points to '%s', not to '%s'", p->name,
               ty_c_name(L->a, p->type->elem), ty_c_name(L->a, v->type->elem));
  if (!p->type->elem_const && v->type->elem_const)
    diag_error(loc, NULL, "'%s' is assigned a pointer to const elements", p->name);
  if (p->val && p->val != v->arr)
    diag_error(loc, "give each array its own pointer variable (to ping-pong two buffers in a "
               "time loop, write the new values to one and copy them back)",
               "pointer '%s' is assigned a view of another array than the one it points into",
               p->name);
  Var *o = p->off ? var_find(L, p->off) : NULL;
  if (!o) {
    const Node *d = v->off ? L->fn->defs[v->off] : NULL;
    if (v->off && !(d && d->kind == IR_CONST && d->u.cst.i == 0))
      diag_error(loc, NULL, "internal: pointer '%s' moves but has no offset variable", p->name);
    p->val = v->arr;
    return;
  }
  p->val = v->arr;
  Val off = v->off ? v->off : b_const_i(&L->b, o->type, 0);
  o->val = convert(L, off, o->type);
}

// Is name assigned (=, +=, -=, ++, --) anywhere in the subtree n?  A pointer that is gets an
// offset variable (its view moves).
typedef struct {
  Lower *L;
  const char *name;
  bool found;
} AssignWalk;

static bool assign_of(void *ctx, TSNode n, int depth) {
  AssignWalk *w = ctx;
  (void)depth;
  TSNode t = {0};
  if (ts_is(n, "assignment_expression")) t = ts_field(n, "left");
  if (ts_is(n, "update_expression")) t = ts_field(n, "argument");
  t = strip_parens(t);
  if (!ts_node_is_null(t) && ts_is(t, "identifier") && !strcmp(node_text(w->L, t), w->name))
    w->found = true;
  return !w->found;
}

bool assigned_in(Lower *L, TSNode n, const char *name) {
  AssignWalk w = {L, name, false};
  if (!ts_node_is_null(n)) ts_walk(n, assign_of, &w);
  return w.found;
}

// ---- allocation: malloc, calloc ----

static bool is_sizeof(TSNode e) {
  return ts_is(strip_parens(e), "sizeof_expression");
}

// sizeof(T), sizeof *p, sizeof p[0], sizeof(x): is it the size of an element of type t?
static void check_sizeof(Lower *L, TSNode s, Type *t) {
  s = strip_parens(s);
  TSNode ty = ts_field(s, "type");
  Type *u = NULL;
  if (!ts_node_is_null(ty)) {
    if (ts_node_is_null(ts_field(ty, "declarator"))) u = lower_type(L, ts_field(ty, "type"));
  } else {
    TSNode v = strip_parens(ts_field(s, "value"));
    View w;
    bool deref = ts_is(v, "pointer_expression") && !strcmp(node_text(L, ts_field(v, "operator")), "*");
    TSNode p = deref || ts_is(v, "subscript_expression") ? strip_parens(ts_field(v, "argument"))
                                                          : (TSNode){0};
    Var *var = ts_is(v, "identifier") ? var_find(L, node_text(L, v)) : NULL;
    if (ts_is(v, "identifier") && !var) // sizeof(T) of a typedef name T parses as an expression
      u = find_type(L, node_text(L, v));
    else if (!ts_node_is_null(p) && L->decl_ptr && ts_is(p, "identifier") &&
        !strcmp(node_text(L, p), L->decl_ptr)) // sizeof *z in z's own initializer
      u = L->decl_elem;
    else if (!ts_node_is_null(p) && ptr_view(L, p, &w))
      u = w.type->elem;
  }
  if (!u || !same_elem(u, t))
    diag_error(node_loc(L, s), arena_printf(L->a, "allocate n * sizeof(%s)", ty_c_name(L->a, t)),
               "cannot tell the number of '%s' elements of this size", ty_c_name(L->a, t));
}

// The number of elements of type t in `bytes` (n * sizeof(T), sizeof(T) * n * m, ...).
static Val elem_count(Lower *L, TSNode bytes, Type *t) {
  TSNode e = strip_parens(bytes);
  if (is_sizeof(e)) {
    check_sizeof(L, e, t);
    return b_const_i(&L->b, &ty_long, 1);
  }
  if (ts_is(e, "cast_expression") && ts_node_is_null(ts_field(ts_field(e, "type"), "declarator")))
    return elem_count(L, ts_field(e, "value"), t);
  if (ts_is(e, "binary_expression") && !strcmp(node_text(L, ts_field(e, "operator")), "*")) {
    TSNode l = ts_field(e, "left"), r = ts_field(e, "right");
    if (is_sizeof(r)) {
      check_sizeof(L, r, t);
      return convert(L, L->expr(L, l), &ty_long);
    }
    if (is_sizeof(l)) {
      check_sizeof(L, l, t);
      return convert(L, L->expr(L, r), &ty_long);
    }
    Val a = elem_count(L, l, t); // (the sizeof deeper on the left: (n * sizeof(T)) * m)
    return b_binop(&L->b, BIN_MUL, a, convert(L, L->expr(L, r), &ty_long));
  }
  diag_error(node_loc(L, bytes), arena_printf(L->a, "write the size as n * sizeof(%s)",
                                              ty_c_name(L->a, t)),
             "cannot tell the number of elements of this allocation");
}

// malloc(bytes) or calloc(n, size), possibly cast: an array of t (zeroed: adsoac's temporaries
// always are).  Returns false when e is not an allocation.
bool lower_alloc(Lower *L, TSNode e, Type *t, View *out) {
  e = strip_parens(e);
  if (ts_is(e, "cast_expression") && pointer_cast_type(L, e))
    e = strip_parens(ts_field(e, "value"));
  if (!ts_is(e, "call_expression")) return false;
  const char *fn = node_text(L, ts_field(e, "function"));
  if (strcmp(fn, "malloc") && strcmp(fn, "calloc")) return false;
  TSNode args = ts_field(e, "arguments");
  uint32_t na = ts_node_named_child_count(args);
  if (na != (!strcmp(fn, "malloc") ? 1u : 2u))
    diag_error(node_loc(L, e), NULL, "'%s' takes %d argument%s", fn, !strcmp(fn, "malloc") ? 1 : 2,
               !strcmp(fn, "malloc") ? "" : "s");
  if (L->par)
    diag_error(node_loc(L, e), "allocate the scratch array before the parallel loop (adsoac "
               "gives each iteration its own copy when every iteration writes it before reading "
               "it)", "allocation inside a parallel loop");
  Val n;
  if (na == 1) {
    n = elem_count(L, ts_node_named_child(args, 0), t);
  } else {
    Val k = elem_count(L, ts_node_named_child(args, 1), t);
    n = b_binop(&L->b, BIN_MUL, convert(L, L->expr(L, ts_node_named_child(args, 0)), &ty_long), k);
  }
  L->b.loc = node_loc(L, e);
  if (t->kind == TY_STRUCT) { // an array of structs: an array per field (ValInfo.fields)
    Val par = fn_val(L->fn, ty_ptr(L->a, t, false), L->decl_ptr);
    Val *fields = L->fn->vals[par].fields = ARENA_ARRAY(L->a, Val, t->nfields);
    for (int k = 0; k < t->nfields; k++) {
      Node *a = node_new(L->a, IR_ALLOC, node_loc(L, e));
      a->u.alloc.n = n;
      a->out = fields[k] = fn_val(L->fn, ty_ptr(L->a, t->ftypes[k], false),
                                  L->decl_ptr ? field_name(L, L->decl_ptr, t->fnames[k]) : NULL);
      b_push(&L->b, a);
    }
    *out = (View){par, ty_ptr(L->a, t, false), 0, -1};
    return true;
  }
  Node *a = node_new(L->a, IR_ALLOC, node_loc(L, e));
  a->u.alloc.n = n;
  a->out = fn_val(L->fn, ty_ptr(L->a, t, false), NULL);
  b_push(&L->b, a);
  *out = (View){a->out, ty_ptr(L->a, t, false), 0, -1};
  return true;
}

// free(p) of an allocation.
void lower_free(Lower *L, TSNode call) {
  TSNode args = ts_field(call, "arguments");
  if (ts_node_named_child_count(args) != 1)
    diag_error(node_loc(L, call), NULL, "'free' takes 1 argument");
  View v = view_expr(L, ts_node_named_child(args, 0), "the argument of free");
  bool st = struct_view(&v); // (an array of structs: its fields' arrays)
  int nf = st ? v.type->elem->nfields : 1;
  for (int k = 0; k < nf; k++) {
    Val arr = st ? L->fn->vals[v.arr].fields[k] : v.arr;
    const Node *d = arr ? L->fn->defs[arr] : NULL;
    if (!d || d->kind != IR_ALLOC)
      diag_error(node_loc(L, call), NULL, "free of an array that this function did not allocate");
  }
  if (L->par || L->loop)
    diag_error(node_loc(L, call), "free the array after the loop", "free inside a loop");
  for (int k = 0; k < nf; k++) {
    Node *n = node_new(L->a, IR_FREE, node_loc(L, call));
    n->u.copy.dst = st ? L->fn->vals[v.arr].fields[k] : v.arr;
    b_push(&L->b, n);
  }
}

// ---- memcpy, memset: a map over the elements ----

// dst[0:n] = src[0:n] (src NULL: = value)
static void copy_loop(Lower *L, const View *dst, const View *src, Val value, Val n, Loc loc,
                      const char *what) {
  Node *p = node_new(L->a, IR_PAR, loc);
  p->u.par.lo = b_const_i(&L->b, &ty_long, 0);
  p->u.par.hi = n;
  p->u.par.idx = fn_val(L->fn, &ty_long, "k");
  p->u.par.pragma = what;
  p->u.par.reds = ARENA_ARRAY(L->a, Red, 1);
  p->u.par.scans = ARENA_ARRAY(L->a, Scan, 1);
  p->u.par.hists = ARENA_ARRAY(L->a, Hist, 1);
  p->u.par.injective = ARENA_ARRAY(L->a, Val, 1);
  Block *outer = L->b.blk;
  p->u.par.body = L->b.blk = block_new(L->a);
  L->b.loc = loc;
  bool st = struct_view(dst); // (arrays of structs: every field)
  for (int k = 0; k < (st ? dst->type->elem->nfields : 1); k++) {
    View d = st ? field_view(L, dst, k) : *dst;
    View s = st && src ? field_view(L, src, k) : src ? *src : d;
    Type *et = d.type->elem;
    Val v = src ? b_read(&L->b, s.arr, view_index(L, &s, p->u.par.idx))
                : st ? (ty_is_float(et) ? b_const_f(&L->b, et, 0) : b_const_i(&L->b, et, 0))
                     : convert(L, value, et);
    b_write(&L->b, d.arr, view_index(L, &d, p->u.par.idx), v);
  }
  L->b.blk = outer;
  b_push(&L->b, p);
}

static void check_writable(Lower *L, const View *v, Loc loc, const char *what) {
  if (v->ref >= 0 || !v->arr) diag_error(loc, NULL, "%s of something that is not an array", what);
  if (v->type->elem_const) diag_error(loc, NULL, "%s writes a const array", what);
}

// memcpy(dst, src, bytes), memmove likewise, memset(dst, 0, bytes); false: not one of them.
bool lower_mem_call(Lower *L, TSNode call) {
  const char *fn = node_text(L, ts_field(call, "function"));
  bool cpy = !strcmp(fn, "memcpy") || !strcmp(fn, "memmove"), set = !strcmp(fn, "memset");
  if (!cpy && !set) return false;
  TSNode args = ts_field(call, "arguments");
  Loc loc = node_loc(L, call);
  if (ts_node_named_child_count(args) != 3) diag_error(loc, NULL, "'%s' takes 3 arguments", fn);
  if (L->par)
    diag_error(loc, "write the copy as a loop", "'%s' inside a parallel loop is not supported", fn);
  View dst = view_expr(L, ts_node_named_child(args, 0), "the destination");
  check_writable(L, &dst, loc, fn);
  if (cpy) {
    View src = view_expr(L, ts_node_named_child(args, 1), "the source");
    if (src.ref >= 0) diag_error(loc, NULL, "%s from something that is not an array", fn);
    if (!same_elem(src.type->elem, dst.type->elem))
      diag_error(loc, NULL, "%s between arrays of different element types", fn);
    if (src.arr == dst.arr && !strcmp(fn, "memcpy"))
      diag_error(loc, "use memmove, or copy through a second array",
                 "memcpy within one array (the parts may overlap)");
    if (src.arr == dst.arr)
      diag_error(loc, "copy through a second array", "memmove within one array is not supported");
    Val n = elem_count(L, ts_node_named_child(args, 2), dst.type->elem);
    copy_loop(L, &dst, &src, 0, n, loc, fn);
    return true;
  }
  Val byte = L->expr(L, ts_node_named_child(args, 1));
  const Node *d = L->fn->defs[byte];
  if (!d || d->kind != IR_CONST || d->u.cst.i != 0)
    diag_error(node_loc(L, ts_node_named_child(args, 1)), "set the elements in a loop",
               "memset to a value other than 0");
  Val n = elem_count(L, ts_node_named_child(args, 2), dst.type->elem);
  Val zero = struct_view(&dst)               ? 0 // (copy_loop: each field's zero)
             : ty_is_float(dst.type->elem) ? b_const_f(&L->b, dst.type->elem, 0)
                                           : b_const_i(&L->b, dst.type->elem, 0);
  copy_loop(L, &dst, NULL, zero, n, loc, fn);
  return true;
}
