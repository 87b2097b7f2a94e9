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

// (the row of element at, for the map check's per-dimension test: C keeps every subscript of
// an array of arrays within its extent, so elements of different rows differ)
static Val note_row(Lower *L, const View *v, Val at) {
  if (!v->row || !at) return at;
  if ((int)at >= L->caprowof) {
    int cap = L->fn->nvals + 64;
    Val *r = ARENA_ARRAY(L->a, Val, cap);
    if (L->caprowof) memcpy(r, L->rowof, sizeof(Val) * (size_t)L->caprowof);
    L->rowof = r;
    L->caprowof = cap;
  }
  L->rowof[at] = v->row;
  return at;
}

Val view_index(Lower *L, const View *v, Val idx) {
  if (!v->off) return note_row(L, v, idx);
  // element 0 (*p, p->f) is at the offset itself: for a view &x[i] at the loop's index, the
  // iteration's own element, whose writes are forwarded to the reads after them
  const Node *d = L->fn->defs[idx];
  if (d && d->kind == IR_CONST && !d->u.cst.i && ty_is_int(val_type(L->fn, v->off)))
    return note_row(L, v, v->off);
  Type *t = common_type(val_type(L->fn, v->off), val_type(L->fn, idx));
  return note_row(L, v, b_binop(&L->b, BIN_ADD, convert(L, v->off, t), convert(L, idx, t)));
}

static Val add_offset(Lower *L, Val off, Val k, bool minus);

// v moves by k elements (minus: back), whichever array it points into.
static void view_move(Lower *L, View *v, Val k, bool minus) {
  v->row = 0; // (a moved pointer: the per-dimension test is not taken)
  if (v->nbase > 1)
    for (int b = 0; b < v->nbase; b++) v->offs[b] = add_offset(L, v->offs[b], k, minus);
  else
    v->off = add_offset(L, v->off, k, minus);
}

static Val add_offset(Lower *L, Val off, Val k, bool minus) {
  const Node *kd = L->fn->defs[k];
  if (kd && kd->kind == IR_CONST && kd->u.cst.i == 0) return off; // (&x[0], p + 0)
  if (!off && !minus) return k;
  if (!off) off = b_const_i(&L->b, val_type(L->fn, k), 0);
  Type *t = common_type(val_type(L->fn, off), val_type(L->fn, k));
  return b_binop(&L->b, minus ? BIN_SUB : BIN_ADD, convert(L, off, t), convert(L, k, t));
}

// The view a variable holds now.
View var_view(Lower *L, Var *v, Loc loc) {
  if (v->kind == VAR_REF) return (View){0, v->type, 0, v->ref};
  Var *sel = v->nbase > 1 ? var_find(L, v->sel) : NULL;
  if (v->nbase > 1 ? !sel || !sel->val : !v->val)
    diag_error(loc, NULL, "pointer '%s' is used before it is assigned", v->name);
  View w = {v->val, v->type, offset_of(L, v), -1, v->ndim};
  for (int k = 0; k < v->ndim; k++) w.dims[k] = v->dims[k];
  if (v->nbase > 1) {
    w.arr = 0;
    w.nbase = v->nbase;
    for (int k = 0; k < v->nbase; k++) {
      w.bases[k] = v->bases[k];
      Var *o = var_find(L, v->offs[k]);
      w.offs[k] = o ? o->val : 0;
    }
    w.sel = sel->val;
  }
  return w;
}

// The arrays a view may point into (one, or its bases).
static int view_bases(const View *v, Val *out) {
  if (v->nbase > 1) {
    for (int k = 0; k < v->nbase; k++) out[k] = v->bases[k];
    return v->nbase;
  }
  out[0] = v->arr;
  return v->arr ? 1 : 0;
}

// The number of elements in one of the arrays v points to (the product of its extents).
static Val row_size(Lower *L, const View *v) {
  Val n = 0;
  for (int k = 0; k < v->ndim; k++) {
    Val d = convert(L, v->dims[k], &ty_long);
    n = n ? b_binop(&L->b, BIN_MUL, n, d) : d;
  }
  return n;
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
  if (ts_is(e, "subscript_expression")) { // q[i] of an array of arrays: a row
    if (!ptr_view(L, ts_field(e, "argument"), out) || out->ndim == 0) return false;
    Val k = L->expr(L, ts_field(e, "index"));
    if (!ty_is_int(val_type(L->fn, k)))
      diag_error(node_loc(L, ts_field(e, "index")), "cast the index to an integer type",
                 "array index is not an integer");
    L->b.loc = node_loc(L, e);
    if (!out->off && !out->row && out->arr && out->nbase <= 1) out->row = convert(L, k, &ty_long);
    out->off = add_offset(L, out->off, b_binop(&L->b, BIN_MUL, convert(L, k, &ty_long),
                                               row_size(L, out)), false);
    out->ndim--;
    for (int d = 0; d < out->ndim; d++) out->dims[d] = out->dims[d + 1];
    return true;
  }
  if (ts_is(e, "identifier")) {
    Var *v = var_find(L, node_text(L, e));
    if (!v) return global_array_view(L, e, out);
    if (v->kind != VAR_ARRAY && v->kind != VAR_REF) return false;
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
    view_move(L, out, k, !strcmp(op, "-"));
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
      view_move(L, out, k, false);
      return true;
    }
    if (ts_is(a, "field_expression")) // (a field is no array: p + 1 would not be the next one)
      diag_error(node_loc(L, e), "pass the struct (&s, &p[k], p + k) or the field's value",
                 "the address of a struct field is not supported");
    if (ts_is(a, "identifier")) { // &s: a reference to a local variable
      Var *v = var_find(L, node_text(L, a));
      if (!v || (v->kind != VAR_SCALAR && v->kind != VAR_STRUCT)) return false;
      *out = (View){0, ty_ptr(L->a, v->type, false), 0, v->idx};
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

// In a branch on sel == k, for each base k of a view that may point into several arrays: the
// read (x 0) or the write of x of element idx (at that base's offset).  Returns the read's.
static Val base_chain(Lower *L, const View *v, int k, Val idx, Val x, Loc loc) {
  if (k == v->nbase - 1) { // (the last: sel can only be k)
    View one = {v->bases[k], v->type, v->offs[k], -1};
    Val at = view_index(L, &one, idx);
    if (!x) return read_element(L, v->bases[k], at, loc);
    b_write(&L->b, v->bases[k], at, x);
    par_note_access(L, v->bases[k], at, true, loc);
    return 0;
  }
  L->b.loc = loc;
  Node *n = node_new(L->a, IR_IF, loc);
  n->u.ifs.cond = b_binop(&L->b, BIN_EQ, v->sel, b_const_i(&L->b, &ty_int, k));
  Block *outer = L->b.blk;
  n->u.ifs.then = L->b.blk = block_new(L->a);
  View one = {.type = v->type, .nbase = 1, .bases = {v->bases[k]}, .offs = {v->offs[k]}};
  Val t = base_chain(L, &one, 0, idx, x, loc);
  n->u.ifs.els = L->b.blk = block_new(L->a);
  Val e = base_chain(L, v, k + 1, idx, x, loc);
  L->b.blk = outer;
  if (!x) {
    block_yield(L->a, n->u.ifs.then, t);
    block_yield(L->a, n->u.ifs.els, e);
    n->u.ifs.nouts = 1;
    n->u.ifs.outs = ARENA_ARRAY(L->a, Val, 1);
    n->u.ifs.outs[0] = fn_val(L->fn, val_type(L->fn, t), NULL);
  }
  b_push(&L->b, n);
  return x ? 0 : n->u.ifs.outs[0];
}

// ---- file-scope variables (language.md 6) ----

// The value of a file-scope variable where the marked function starts: a call of an ExtFn
// marked global at the start of the body (after the reads before it), which the emitter
// writes as the variable's name (an array: its elements' address; on the CUDA target, a
// device copy's), read once per function.
static Val global_value(Lower *L, const char *name, Type *t, Loc loc, bool sized) {
  for (int i = 0; i < L->ngread; i++)
    if (!strcmp(L->gread[i].name, name)) return L->gread[i].v;
  ExtFn *x = ARENA_NEW(L->a, ExtFn);
  *x = (ExtFn){.name = name, .ret = t, .global = true, .loc = loc, .unsized = !sized};
  Block *body = L->fn->body, *at = L->b.blk;
  L->b.blk = body;
  Val none = 0;
  Node *n = b_ext(&L->b, x, EXT_CALL, &none, 0, 0);
  L->b.blk = at;
  L->fn->vals[n->out].hint = name;
  for (int i = body->n - 1; i > L->ngread; i--) body->stmts[i] = body->stmts[i - 1];
  body->stmts[L->ngread] = n; // (after the reads before it, ahead of the rest)
  if (L->ngread % 16 == 0) {
    struct GlobalRead *g2 = ARENA_ARRAY(L->a, struct GlobalRead, L->ngread + 16);
    if (L->ngread) memcpy(g2, L->gread, sizeof *g2 * (size_t)L->ngread);
    L->gread = g2;
  }
  L->gread[L->ngread++] = (struct GlobalRead){name, n->out};
  return n->out;
}

Val lower_global_value(Lower *L, const char *name, Type *t, Loc loc) {
  return global_value(L, name, t, loc, true);
}

// A file-scope scalar (language.md 6): passive, its value read once where the marked function
// starts (its code cannot change it: writes are refused, or kept in a variable of the
// function: lower.c), so that kernels take it as an argument.
bool global_read(Lower *L, TSNode e, const char *name, Val *out) {
  GlobalDef *g;
  HASH_FIND_STR(L->globals, name, g);
  if (!g) return false;
  for (int k = 0; k < L->ngvar; k++) // (assigned by the function: in a function it calls)
    if (!strcmp(L->gvar[k].name, name)) return *out = L->vars[L->gvar[k].var]->val, true;
  TSNode d = g->declarator;
  if (ts_is(d, "init_declarator")) d = ts_field(d, "declarator");
  if (ts_is(d, "array_declarator"))
    diag_error(node_loc(L, e), "index it (tab[i])", "file-scope array '%s' used as a value",
               name);
  if (!ts_is(d, "identifier"))
    diag_error(node_loc(L, e), "pass it to the function as a parameter",
               "file-scope pointer '%s' is not supported (file-scope scalars and arrays are: "
               "the array a pointer points to is not known where the function starts)", name);
  Type *t = lower_type(L, ts_field(g->decl, "type"));
  if (!ty_is_int(t) && !ty_is_float(t))
    diag_error(node_loc(L, e), "pass it to the function as a parameter",
               "file-scope variable '%s' is not a number (file-scope scalars of integer and "
               "floating-point types are supported)", name);
  return *out = global_value(L, name, t, node_loc(L, e), true), true;
}

Val global_scalar(Lower *L, TSNode e, const char *name) {
  Val v;
  return global_read(L, e, name, &v) ? v : 0;
}

// A file-scope array (a lookup table, coefficients): passive, read through a view of its
// elements (an array of arrays by rows, as a parameter is).
bool global_array_view(Lower *L, TSNode e, View *out) {
  const char *name = node_text(L, e);
  GlobalDef *g;
  HASH_FIND_STR(L->globals, name, g);
  if (!g) return false;
  TSNode d = g->declarator;
  if (ts_is(d, "init_declarator")) d = ts_field(d, "declarator");
  if (!ts_is(d, "array_declarator")) {
    Val v;
    if (!ts_is(d, "identifier")) global_read(L, e, name, &v); // (a pointer: refused)
    return false;
  }
  bool init = ts_is(ts_node_parent(d), "init_declarator"); // (double t[] = {...}: sized)
  DeclDims dd;
  declarator_dims(L, d, &dd);
  Type *t = lower_type(L, ts_field(g->decl, "type"));
  if (!ty_is_int(t) && !ty_is_float(t))
    diag_error(node_loc(L, e), "pass it to the function as a parameter",
               "file-scope array '%s' is not an array of numbers (arrays of integer and "
               "floating-point types are supported)", name);
  bool is_const = false; // (as declared: a helper may take it as double *, and only read it)
  for (uint32_t i = 0; i < ts_node_named_child_count(g->decl); i++) {
    TSNode q = ts_node_named_child(g->decl, i);
    is_const |= ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const");
  }
  Type *pt = ty_ptr(L->a, t, is_const);
  Val v = global_value(L, name, ty_ptr(L->a, t, true), node_loc(L, e),
                       !ts_node_is_null(dd.size[0]) || init);
  *out = (View){v, pt, 0, -1, dd.n - 1};
  for (int k = 1; k < dd.n; k++) { // (the extents: constants)
    out->dims[k - 1] = L->expr(L, dd.size[k]);
    const Node *c = L->fn->defs[out->dims[k - 1]];
    if (!c || c->kind != IR_CONST || !ty_is_int(val_type(L->fn, out->dims[k - 1])))
      diag_error(node_loc(L, dd.size[k]), NULL, "the extent of file-scope array '%s' is not an "
                 "integer constant", name);
  }
  L->fn->vals[v].arows = dd.n > 1;
  return true;
}

// A write into a file-scope array (language.md 6: passive) is refused.
void refuse_global_array(Lower *L, Val arr, Loc loc) {
  const Node *d = arr ? L->fn->defs[arr] : NULL;
  if (d && d->kind == IR_EXT && d->u.ext.fn->global)
    diag_error(loc, "pass it as a parameter (double *t), or copy it to a local array first",
               "a marked function writes the file-scope array '%s' (file-scope variables are "
               "read-only constants to adsoac)", d->u.ext.fn->name);
}

void view_write(Lower *L, const View *v, Val idx, Val x, Loc loc) {
  for (int k = 0; k < (v->nbase > 1 ? v->nbase : 1); k++)
    refuse_global_array(L, v->nbase > 1 ? v->bases[k] : v->arr, loc);
  if (v->nbase > 1) {
    if (L->par)
      diag_error(loc, "write the new values to one buffer and copy them back in a map (u[i] = "
                 "tmp[i]) instead of swapping pointers", "a write in a parallel loop through a "
                 "pointer that points into one of several arrays (a pointer swap)");
    base_chain(L, v, 0, idx, x, loc);
    return;
  }
  Val at = view_index(L, v, idx);
  b_write(&L->b, v->arr, at, x);
  par_note_access(L, v->arr, at, true, loc);
  if (L->par) fwd_push(L, (FwdEntry){v->arr, at, x, 0, false, false});
}

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
  if (v->ndim > 0)
    diag_error(loc, "index every dimension: q[i][j]", "a row of an array of arrays used as a "
               "number");
  if (v->nbase > 1) return base_chain(L, v, 0, idx, 0, loc);
  if (struct_view(v))
    diag_error(loc, "read its fields, p[k].f",
               "an element of an array of structs used as a number");
  if (v->ref >= 0) {
    Var *s = L->vars[v->ref];
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
// The index of array a in bases (-1: none).
static int base_index(const Val *bases, int n, Val a) {
  for (int k = 0; k < n; k++)
    if (bases[k] == a) return k;
  return -1;
}

// sel of view v as an index into bases (v's arrays among them): a constant for one array.
static Val map_sel(Lower *L, const View *v, const Val *bases, int n, Loc loc) {
  Val vb[MAX_BASES];
  int nv = view_bases(v, vb);
  int first = base_index(bases, n, vb[0]);
  Val sel = b_const_i(&L->b, &ty_int, first);
  for (int k = 1; k < nv; k++) { // sel = v.sel == k ? (index of its k-th base) : sel
    Val is = b_binop(&L->b, BIN_EQ, v->sel, b_const_i(&L->b, &ty_int, k));
    Val to = b_const_i(&L->b, &ty_int, base_index(bases, n, vb[k]));
    sel = b_binop(&L->b, BIN_ADD, b_binop(&L->b, BIN_MUL, is, to),
                  b_binop(&L->b, BIN_MUL, b_unop(&L->b, UN_NOT, is), sel));
  }
  (void)loc;
  return sel;
}

int ptr_var_push(Lower *L, const char *name, Type *t, const View *v, bool assigned, Loc loc) {
  return ptr_var_push_bases(L, name, t, v, assigned, NULL, 0, loc);
}

int ptr_var_push_bases(Lower *L, const char *name, Type *t, const View *v, bool assigned,
                       const Val *cands, int ncands, Loc loc) {
  if (v && v->ref >= 0) {
    int k = var_push(L, (Var){name, t, VAR_REF, 0, loc});
    L->vars[k]->ref = v->ref;
    return k;
  }
  Val bases[MAX_BASES];
  int nb = v ? view_bases(v, bases) : 0;
  for (int k = 0; k < ncands; k++)
    if (base_index(bases, nb, cands[k]) < 0) {
      if (nb == MAX_BASES)
        diag_error(loc, "use one pointer variable per array", "pointer '%s' points into more "
                   "than %d different arrays", name, MAX_BASES);
      bases[nb++] = cands[k];
    }
  if (nb > 1) { // one of several arrays: which one, and the offset, are variables
    const char *sel = arena_printf(L->a, "$sel:%s:%d", name, L->nvars);
    bool known = v && (v->arr || v->nbase > 1);
    Val s0 = known ? map_sel(L, v, bases, nb, loc) : 0;
    var_push(L, (Var){sel, &ty_int, VAR_SCALAR, s0, loc});
    const char *offs[MAX_BASES];
    for (int b = 0; b < nb; b++) { // the offset into each array (0 into those it does not)
      offs[b] = arena_printf(L->a, "$off%d:%s:%d", b, name, L->nvars);
      Val o = known ? b_const_i(&L->b, &ty_long, 0) : 0;
      if (known && v->nbase > 1) {
        for (int j = 0; j < v->nbase; j++)
          if (v->bases[j] == bases[b] && v->offs[j]) o = convert(L, v->offs[j], &ty_long);
      } else if (known && v->arr == bases[b] && v->off) {
        o = convert(L, v->off, &ty_long);
      }
      var_push(L, (Var){offs[b], &ty_long, VAR_SCALAR, o, loc});
    }
    int k = var_push(L, (Var){name, t, VAR_ARRAY, 0, loc});
    Var *p = L->vars[k];
    p->sel = sel, p->nbase = nb;
    for (int b = 0; b < nb; b++) p->bases[b] = bases[b], p->offs[b] = offs[b];
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
  L->vars[k]->off = off;
  if (v) {
    L->vars[k]->ndim = v->ndim;
    for (int d = 0; d < v->ndim; d++) L->vars[k]->dims[d] = v->dims[d];
  }
  return k;
}

// p = v: the view's array must be the one p points into (or p was not assigned yet).
void ptr_assign(Lower *L, Var *p, const View *v, Loc loc) {
  if (p->kind == VAR_REF || v->ref >= 0)
    diag_error(loc, "pass the variable's address to the function directly",
               "a pointer to a local variable is assigned");
  if (L->par && p->idx < L->par->var_base)
    diag_error(loc, "declare the pointer inside the loop",
               "parallel loop assigns pointer '%s' declared outside it", p->name);
  if (!same_elem(p->type->elem, v->type->elem))
    diag_error(loc, NULL, "'%s' points to '%s', not to '%s'", p->name,
               ty_c_name(L->a, p->type->elem), ty_c_name(L->a, v->type->elem));
  if (!p->type->elem_const && v->type->elem_const)
    diag_error(loc, NULL, "'%s' is assigned a pointer to const elements", p->name);
  if (p->nbase > 1) { // one of several arrays: which one (among p's), and the offset
    Val vb[MAX_BASES];
    int nv = view_bases(v, vb);
    for (int k = 0; k < nv; k++)
      if (base_index(p->bases, p->nbase, vb[k]) < 0)
        diag_error(loc, NULL, "pointer '%s' is assigned a view of an array it was not found to "
                   "point into (an assignment adsoac could not follow)", p->name);
    var_find(L, p->sel)->val = map_sel(L, v, p->bases, p->nbase, loc);
    for (int k = 0; k < nv; k++) { // the offsets into the arrays v may point into
      Val off = v->nbase > 1 ? v->offs[k] : v->off;
      Var *o = var_find(L, p->offs[base_index(p->bases, p->nbase, vb[k])]);
      o->val = convert(L, off ? off : b_const_i(&L->b, o->type, 0), o->type);
    }
    return;
  }
  if (v->nbase > 1)
    diag_error(loc, NULL, "pointer '%s' is assigned a pointer into one of several arrays",
               p->name);
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

// ---- the arrays a pointer variable may point into, read from the code before lowering ----

typedef struct {
  Lower *L;
  const char *name;
  TSNode rhs[16];
  int n;
} RhsWalk;

static bool rhs_of(void *ctx, TSNode n, int depth) {
  RhsWalk *w = ctx;
  (void)depth;
  if (ts_is(n, "assignment_expression") && !strcmp(node_text(w->L, ts_field(n, "operator")), "=")) {
    TSNode l = strip_parens(ts_field(n, "left"));
    if (ts_is(l, "identifier") && !strcmp(node_text(w->L, l), w->name) && w->n < 16)
      w->rhs[w->n++] = ts_field(n, "right");
  }
  if (ts_is(n, "init_declarator")) {
    TSNode d = ts_field(n, "declarator");
    while (ts_is(d, "pointer_declarator")) d = ts_field(d, "declarator");
    if (ts_is(d, "identifier") && !strcmp(node_text(w->L, d), w->name) && w->n < 16)
      w->rhs[w->n++] = ts_field(n, "value");
  }
  return true;
}

static int scan_bases(Lower *L, TSNode scope, const char *name, Val *out, int n, int depth);

// The arrays a pointer expression may point into (added to out[0 .. n)): through &x[k], x + k,
// casts and parentheses to its root variable: a pointer in scope with its arrays, or else one
// whose assignments in scope say (depth: a chain of such, bounded).
static int expr_bases(Lower *L, TSNode scope, TSNode e, Val *out, int n, int depth) {
  e = strip_parens(e);
  while (ts_is(e, "cast_expression") || ts_is(e, "pointer_expression") ||
         ts_is(e, "subscript_expression") || ts_is(e, "binary_expression") ||
         ts_is(e, "parenthesized_expression")) {
    if (ts_is(e, "binary_expression")) {
      TSNode l = strip_parens(ts_field(e, "left"));
      e = ts_is(l, "number_literal") ? ts_field(e, "right") : ts_field(e, "left");
    } else if (ts_is(e, "cast_expression")) {
      e = ts_field(e, "value");
    } else if (ts_is(e, "parenthesized_expression")) {
      e = ts_node_named_child(e, 0);
    } else {
      e = ts_field(e, "argument");
    }
  }
  if (!ts_is(e, "identifier")) return n;
  const char *x = node_text(L, e);
  Var *v = var_find(L, x);
  if (v && v->kind == VAR_ARRAY && (v->val || v->nbase > 1)) {
    Val b[MAX_BASES];
    View w = {v->val, v->type, 0, -1, 0, {0}, v->nbase};
    for (int k = 0; k < v->nbase; k++) w.bases[k] = v->bases[k];
    int nb = view_bases(&w, b);
    for (int k = 0; k < nb && n < MAX_BASES; k++)
      if (base_index(out, n, b[k]) < 0) out[n++] = b[k];
    return n;
  }
  return depth < 4 ? scan_bases(L, scope, x, out, n, depth + 1) : n;
}

static int scan_bases(Lower *L, TSNode scope, const char *name, Val *out, int n, int depth) {
  RhsWalk w = {.L = L, .name = name};
  ts_walk(scope, rhs_of, &w);
  for (int k = 0; k < w.n; k++)
    if (!ts_node_is_null(w.rhs[k])) n = expr_bases(L, scope, w.rhs[k], out, n, depth);
  return n;
}

int ptr_candidates(Lower *L, TSNode scope, const char *name, Val *out) {
  return scan_bases(L, scope, name, out, 0, 0);
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
  if (L->par)
    diag_error(node_loc(L, call), "free the array after the parallel loop",
               "free inside a parallel loop");
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

void lower_copy(Lower *L, const View *dst, const View *src, Val n, Loc loc, const char *what) {
  copy_loop(L, dst, src, 0, n, loc, what);
}

static void check_writable(Lower *L, const View *v, Loc loc, const char *what) {
  if (v->ref >= 0 || !v->arr) diag_error(loc, NULL, "%s of something that is not an array", what);
  refuse_global_array(L, v->arr, loc);
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

// ---- local arrays: T a[N], T a[N][M], T a[] = {...} ----

// The extent of one dimension: a constant (or, a VLA, a value computed here); 0: `[]`.
static Val array_extent(Lower *L, TSNode size) {
  if (ts_node_is_null(size)) return 0;
  Val n = L->expr(L, size);
  if (!ty_is_int(val_type(L->fn, n)))
    diag_error(node_loc(L, size), NULL, "the size of an array is not an integer");
  const Node *d = L->fn->defs[n];
  if (d && d->kind == IR_CONST) {
    if (d->u.cst.i <= 0) diag_error(node_loc(L, size), NULL, "an array of size %lld", d->u.cst.i);
    return b_const_i(&L->b, &ty_long, d->u.cst.i);
  }
  return convert(L, n, &ty_long);
}

static long long const_of(Lower *L, Val v) {
  const Node *d = v ? L->fn->defs[v] : NULL;
  return d && d->kind == IR_CONST ? d->u.cst.i : -1;
}

// Writes the initializer list's values (nested braces: rows) from element *pos on.
static void init_elems(Lower *L, TSNode list, Val arr, Type *t, const long long *ext, int nd,
                       long long *pos, long long limit) {
  long long row = 1;
  for (int k = 1; k < nd; k++) row *= ext[k];
  for (uint32_t i = 0; i < ts_node_named_child_count(list); i++) {
    TSNode e = ts_node_named_child(list, i);
    if (ts_is(e, "comment")) continue;
    if (ts_is(e, "initializer_pair"))
      diag_error(node_loc(L, e), "list the values in order", "designated initialisers of arrays "
                 "are not supported");
    if (ts_is(e, "initializer_list")) { // { {a, b}, {c, d} }: one row
      if (nd < 2) diag_error(node_loc(L, e), NULL, "braces around a scalar initialiser");
      long long start = *pos % row ? *pos + row - *pos % row : *pos;
      *pos = start;
      init_elems(L, e, arr, t, ext + 1, nd - 1, pos, start + row);
      *pos = start + row;
      continue;
    }
    if (*pos >= limit) diag_error(node_loc(L, e), NULL, "too many initialisers");
    Val v = convert(L, L->expr(L, e), t);
    L->b.loc = node_loc(L, e);
    b_write(&L->b, arr, b_const_i(&L->b, &ty_long, *pos), v);
    (*pos)++;
  }
}

// A local array: an allocation of its elements (zeroed, then the initialiser's values), a
// VAR_ARRAY of its extents after the first.  Inside a parallel loop each iteration has its
// own; a helper's local array is one per call.
void lower_array_decl(Lower *L, TSNode decl, TSNode name, TSNode value, Type *t) {
  TSNode sizes[MAX_DIMS + 2];
  int nd = 0;
  TSNode d = name;
  while (ts_is(d, "array_declarator")) {
    if (nd == MAX_DIMS + 1)
      diag_error(node_loc(L, name), NULL, "arrays of more than %d dimensions", MAX_DIMS + 1);
    sizes[nd++] = ts_field(d, "size");
    d = ts_field(d, "declarator");
  }
  if (!ts_is(d, "identifier"))
    diag_error(node_loc(L, name), "declare an array of numbers or structs",
               "arrays of pointers are not supported");
  check_not_macro(L, d);
  const char *s = node_text(L, d);
  // the declarator nests the last dimension outermost: a[2][3] is ((a[2])[3])
  Val ext[MAX_DIMS + 1] = {0};
  long long cext[MAX_DIMS + 1] = {0};
  for (int k = 0; k < nd; k++) {
    ext[k] = array_extent(L, sizes[nd - 1 - k]);
    cext[k] = const_of(L, ext[k]);
    if (!ext[k] && k > 0)
      diag_error(node_loc(L, name), NULL, "only the first extent of an array may be left out");
  }
  if (!ext[0]) { // double a[] = {1, 2, 3}
    if (!ts_is(value, "initializer_list"))
      diag_error(node_loc(L, name), NULL, "an array of unknown size needs an initialiser");
    long long n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(value); i++)
      if (!ts_is(ts_node_named_child(value, i), "comment")) n++;
    if (nd > 1) {
      long long row = 1;
      for (int k = 1; k < nd; k++) row *= cext[k];
      bool rows = false;
      for (uint32_t i = 0; i < ts_node_named_child_count(value); i++)
        rows |= ts_is(ts_node_named_child(value, i), "initializer_list");
      n = rows ? n : (n + row - 1) / row;
    }
    ext[0] = b_const_i(&L->b, &ty_long, n);
    cext[0] = n;
  }
  Loc loc = node_loc(L, d);
  L->b.loc = loc;
  bool fixed = true;
  long long total = 1;
  for (int k = 0; k < nd; k++) fixed &= cext[k] > 0, total *= cext[k] > 0 ? cext[k] : 1;
  Node *a = node_new(L->a, IR_ALLOC, loc);
  a->out = fn_val(L->fn, ty_ptr(L->a, t, false), s);
  if (fixed) { // at the start of the iteration's (the function's) body, its size with it
    Node *c = node_new(L->a, IR_CONST, loc);
    c->out = fn_val(L->fn, &ty_long, NULL);
    c->u.cst.i = total;
    L->fn->defs[c->out] = c;
    block_insert(L->a, L->alloc_blk, L->alloc_pos++, c);
    a->u.alloc.n = c->out;
    block_insert(L->a, L->alloc_blk, L->alloc_pos++, a);
  } else { // a variable-length array, where its size is known
    if (L->b.blk != L->alloc_blk)
      diag_error(loc, "declare it at the start of the parallel loop's body or of the function, "
                 "or give it a constant size", "a variable-length array inside a loop or an if");
    Val n = ext[0];
    for (int k = 1; k < nd; k++) n = b_binop(&L->b, BIN_MUL, n, ext[k]);
    a->u.alloc.n = n;
    b_push(&L->b, a);
  }
  L->fn->defs[a->out] = a;
  if (L->nallocs == L->capallocs) {
    L->capallocs = L->capallocs ? 2 * L->capallocs : 16;
    Val *m = ARENA_ARRAY(L->a, Val, L->capallocs);
    for (int k = 0; k < L->nallocs; k++) m[k] = L->allocs[k];
    L->allocs = m;
  }
  L->allocs[L->nallocs++] = a->out;
  View v = {a->out, ty_ptr(L->a, t, false), 0, -1, nd - 1};
  for (int k = 1; k < nd; k++) v.dims[k - 1] = ext[k];
  bool is_const = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(decl); i++) {
    TSNode q = ts_node_named_child(decl, i);
    if (ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const")) is_const = true;
  }
  if (!ts_node_is_null(value)) {
    if (!ts_is(value, "initializer_list"))
      diag_error(node_loc(L, value), NULL, "an array is initialised with a list {...}");
    bool known = true;
    for (int k = 0; k < nd; k++) known &= cext[k] >= 0;
    if (!known) diag_error(node_loc(L, value), NULL, "a variable-length array cannot be initialised");
    long long total = 1, pos = 0;
    for (int k = 0; k < nd; k++) total *= cext[k];
    init_elems(L, value, a->out, t, cext, nd, &pos, total);
  }
  ptr_var_push(L, s, ty_ptr(L->a, t, is_const), &v, false, loc);
}

// The arrays allocated for the scope since allocs[from], freed (the end of a parallel loop's
// body, the function's returns).
void free_allocs(Lower *L, int from) {
  for (int k = L->nallocs - 1; k >= from; k--) {
    Node *n = node_new(L->a, IR_FREE, L->b.loc);
    n->u.copy.dst = L->allocs[k];
    b_push(&L->b, n);
  }
}
