// parser/lower_call.c: calls to functions defined in the same file are inlined (language.md
// §6): the arguments are lowered in the caller, the body in a scope of its own that sees only
// its parameters, and its return value comes back through the hidden variable $ret.
#include <string.h>

#include "lower.h"

typedef struct {
  const char *name;
  Type *type; // scalar, or pointer (arrays)
  Loc loc;
  int ndim;   // an array of arrays: the extents of its rows, read in the function's scope
  TSNode size[MAX_DIMS];
} FormalParam;

static FormalParam formal(Lower *L, TSNode pd) {
  TSNode d = ts_field(pd, "declarator");
  bool is_const = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(pd); i++) {
    TSNode q = ts_node_named_child(pd, i);
    if (ts_is(q, "type_qualifier") && !strcmp(node_text(L, q), "const")) is_const = true;
  }
  Type *t = lower_type(L, ts_field(pd, "type"));
  if (ts_node_is_null(d)) diag_error(node_loc(L, pd), "name every parameter", "unnamed parameter");
  DeclDims dd;
  declarator_dims(L, d, &dd); // (double A[][M], double A[n][m], double (*A)[M]: rows)
  if (dd.n > 1 && t->kind == TY_STRUCT)
    diag_error(node_loc(L, pd), "pass an array of structs (T *p) indexed p[i*m + j]",
               "arrays of arrays of structs are not supported");
  FormalParam fp = {node_text(L, dd.ident), dd.n ? ty_ptr(L->a, t, is_const) : t,
                    node_loc(L, dd.ident), dd.n > 1 ? dd.n - 1 : 0};
  for (int k = 0; k < fp.ndim; k++) fp.size[k] = dd.size[k + 1];
  return fp;
}

static int formals(Lower *L, TSNode def, FormalParam **fpp, const char **name) {
  TSNode fdecl = ts_field(def, "declarator");
  while (ts_is(fdecl, "pointer_declarator")) fdecl = ts_field(fdecl, "declarator");
  const Src *caller_src = L->src;
  L->src = def_src(L, def);
  *name = node_text(L, ts_field(fdecl, "declarator"));
  TSNode params = ts_field(fdecl, "parameters");
  int np = 0;
  uint32_t k = ts_node_named_child_count(params);
  FormalParam *fp = *fpp = ARENA_ARRAY(L->a, FormalParam, k + 1);
  for (uint32_t i = 0; i < k; i++) {
    TSNode pd = ts_node_named_child(params, i);
    if (!ts_is(pd, "parameter_declaration")) continue;
    if (k == 1 && !strcmp(node_text(L, pd), "void")) break;
    fp[np++] = formal(L, pd);
  }
  L->src = caller_src;
  return np;
}

// The body of def, in a scope of its own with the parameters bound to av[] (scalars),
// sv[] (the fields of structs) or arrays[] (pointers).  A struct result goes to out[].
static Val inline_body(Lower *L, TSNode def, const char *name, FormalParam *fp, int np,
                       const Val *av, Val *const *sv, View *const *arrays, Loc loc, Val *out) {
  for (int i = 0; i < L->inline_depth; i++)
    if (!strcmp(L->inline_stack[i], name))
      diag_error(loc, "rewrite the recursion as a loop", "recursive call to '%s'", name);
  if (L->inline_depth == 32) diag_error(loc, NULL, "calls nested too deeply");
  const Src *caller_src = L->src;
  int nvars = L->nvars, floor = L->var_floor;
  bool returned = L->returned, expanded = L->in_expansion;
  LoopCtx *loop = L->loop; // (a break in the body belongs to the body's own loops)
  L->loop = NULL;
  L->var_floor = L->nvars;
  L->src = def_src(L, def);
  L->in_expansion = false;
  TSNode body = ts_field(def, "body"), fn_body = L->fn_body;
  L->fn_body = body;
  for (int i = 0; i < np; i++) {
    if (arrays[i]) { // a pointer: the caller's view, under the parameter's name and type
      Type *t = arrays[i]->ref >= 0 ? arrays[i]->type : fp[i].type;
      View v = *arrays[i];
      for (int k = 0; k < fp[i].ndim; k++) { // rows as the function declares them
        L->b.loc = node_loc(L, fp[i].size[k]);
        v.dims[k] = L->expr(L, fp[i].size[k]);
        if (!ty_is_int(val_type(L->fn, v.dims[k])))
          diag_error(node_loc(L, fp[i].size[k]), NULL, "an array extent is not an integer");
        const Node *p = L->fn->defs[v.dims[k]], *a = L->fn->defs[arrays[i]->dims[k]];
        if (p && a && p->kind == IR_CONST && a->kind == IR_CONST && p->u.cst.i != a->u.cst.i)
          diag_error(loc, "declare the parameter with the argument's extents",
                     "argument %d of '%s' has rows of %lld elements, the parameter rows of %lld "
                     "(incompatible pointer types in C)", i + 1, name, a->u.cst.i, p->u.cst.i);
      }
      ptr_var_push(L, fp[i].name, t, &v, assigned_in(L, body, fp[i].name), fp[i].loc);
    } else if (fp[i].type->kind == TY_STRUCT) {
      struct_var_push(L, fp[i].name, fp[i].type, sv[i], fp[i].loc);
    } else {
      var_push(L, (Var){fp[i].name, fp[i].type, VAR_SCALAR, av[i], fp[i].loc});
    }
  }
  Type *rt = lower_type(L, ts_field(def, "type"));
  int ri = rt->kind == TY_STRUCT ? struct_var_push(L, "$ret", rt, NULL, loc)
                                 : var_push(L, (Var){"$ret", rt, VAR_SCALAR, 0, loc});
  L->inline_stack[L->inline_depth++] = name;
  L->returned = false;
  L->block(L, ts_field(def, "body"));
  Val ret = L->vars[ri]->val;
  if (rt->kind == TY_STRUCT) {
    for (int i = 0; i < rt->nfields; i++) out[i] = L->vars[ri + 1 + i]->val;
    ret = out[0];
  }
  if (rt->kind != TY_VOID && !ret)
    diag_error(node_loc(L, def), "end every path of the function with a return",
               "'%s' does not return a value", name);
  L->inline_depth--;
  L->returned = returned;
  L->fn_body = fn_body;
  L->loop = loop;
  var_pop(L, nvars);
  L->var_floor = floor;
  L->src = caller_src;
  L->in_expansion = expanded;
  return rt->kind == TY_VOID ? 0 : ret;
}

// A call with values: args[i] points at the fields of argument i (one for a scalar); a struct
// result goes to out[], a scalar one to out[0].
void lower_call_fields(Lower *L, TSNode def, Val *const *args, Loc loc, Val *out) {
  FormalParam *fp;
  const char *name;
  int np = formals(L, def, &fp, &name);
  Val *av = ARENA_ARRAY(L->a, Val, np + 1), **sv = ARENA_ARRAY(L->a, Val *, np + 1);
  View **arrays = ARENA_ARRAY(L->a, View *, np + 1);
  for (int i = 0; i < np; i++) {
    if (fp[i].type->kind == TY_STRUCT)
      sv[i] = args[i];
    else
      av[i] = convert(L, args[i][0], fp[i].type);
  }
  Val r = inline_body(L, def, name, fp, np, av, sv, arrays, loc, out);
  const Src *s = L->src;
  L->src = def_src(L, def);
  if (lower_type(L, ts_field(def, "type"))->kind != TY_STRUCT) out[0] = r;
  L->src = s;
}

Val lower_call_vals(Lower *L, TSNode def, const Val *args, int nargs, Loc loc) {
  FormalParam *fp;
  const char *name;
  int np = formals(L, def, &fp, &name);
  IR_ASSERT(np == nargs);
  Val *av = ARENA_ARRAY(L->a, Val, np + 1), **sv = ARENA_ARRAY(L->a, Val *, np + 1);
  View **arrays = ARENA_ARRAY(L->a, View *, np + 1);
  for (int i = 0; i < np; i++) av[i] = convert(L, args[i], fp[i].type);
  return inline_body(L, def, name, fp, np, av, sv, arrays, loc, NULL);
}

static Val call_inline(Lower *L, TSNode call, TSNode def, Val *out) {
  FormalParam *fp;
  const char *name;
  int np = formals(L, def, &fp, &name);
  Loc loc = node_loc(L, call);
  TSNode args = ts_field(call, "arguments");
  Val *av = ARENA_ARRAY(L->a, Val, np + 1), **sv = ARENA_ARRAY(L->a, Val *, np + 1);
  View **arrays = ARENA_ARRAY(L->a, View *, np + 1);
  if ((int)ts_node_named_child_count(args) != np)
    diag_error(loc, NULL, "'%s' takes %d argument%s", name, np, np == 1 ? "" : "s");
  for (int i = 0; i < np; i++) {
    TSNode a = ts_node_named_child(args, (uint32_t)i);
    arrays[i] = NULL;
    if (fp[i].type->kind == TY_PTR) {
      View *v = arrays[i] = ARENA_NEW(L->a, View);
      if (!ptr_view(L, a, v))
        diag_error(node_loc(L, a), "pass an array, a pointer into one (x + k, &x[k]) or the "
                   "address of a local variable (&s)",
                   "argument %d of '%s' must be a pointer", i + 1, name);
      if (v->ndim != fp[i].ndim)
        diag_error(node_loc(L, a),
                   fp[i].ndim ? arena_printf(L->a, "pass an array of arrays with %d dimension%s after "
                                             "the first, as the parameter declares", fp[i].ndim,
                                             fp[i].ndim == 1 ? "" : "s")
                              : "pass a row (A[i]) or the first element's address (&A[0][0])",
                   "argument %d of '%s' is %s, the parameter %s", i + 1, name,
                   v->ndim ? "an array of arrays" : "not an array of arrays",
                   fp[i].ndim ? "an array of arrays" : "a flat array");
      Type *want = fp[i].type->elem, *got = v->ref >= 0 ? L->vars[v->ref]->type : v->type->elem;
      if (got->kind != want->kind || (got->kind == TY_STRUCT && got != want))
        diag_error(node_loc(L, a), NULL, "argument %d of '%s' has the wrong element type", i + 1,
                   name);
      if (v->ref < 0 && v->type->elem_const && !fp[i].type->elem_const)
        diag_error(node_loc(L, a), arena_printf(L->a, "declare the parameter const %s *",
                                                ty_c_name(L->a, want)),
                   "argument %d of '%s' points to const elements", i + 1, name);
    } else if (fp[i].type->kind == TY_STRUCT) {
      sv[i] = ARENA_ARRAY(L->a, Val, fp[i].type->nfields);
      L->struct_expr(L, a, fp[i].type, sv[i]);
    } else {
      av[i] = convert(L, L->expr(L, a), fp[i].type);
    }
  }
  return inline_body(L, def, name, fp, np, av, sv, arrays, loc, out);
}

static TSNode def_of(Lower *L, TSNode call) {
  const char *name = node_text(L, ts_field(call, "function"));
  TSNode def = fn_def(L->fndefs, name);
  if (ts_node_is_null(def))
    diag_error(node_loc(L, call), NULL, "call to '%s', whose body is not in this file", name);
  return def;
}

Type *call_result_type(Lower *L, TSNode call) {
  TSNode def = def_of(L, call);
  const Src *s = L->src;
  L->src = def_src(L, def);
  Type *t = lower_type(L, ts_field(def, "type"));
  L->src = s;
  return t;
}

Val lower_user_call(Lower *L, TSNode call, TSNode def) {
  const Src *s = L->src;
  L->src = def_src(L, def);
  Type *t = lower_type(L, ts_field(def, "type"));
  L->src = s;
  if (t->kind == TY_STRUCT)
    diag_error(node_loc(L, call), "use a field of the result, or assign it to a struct variable",
               "a struct used as a number");
  return call_inline(L, call, def, NULL);
}

void lower_struct_call(Lower *L, TSNode call, Type *t, Val *out) {
  TSNode def = def_of(L, call);
  if (call_result_type(L, call) != t)
    diag_error(node_loc(L, call), NULL, "'%s' does not return a '%s'",
               node_text(L, ts_field(call, "function")), t->name);
  call_inline(L, call, def, out);
}

Val lower_ext_call(Lower *L, TSNode call, const ExtFn *x) {
  Loc loc = node_loc(L, call);
  if (x->decl_end > L->fn_start)
    diag_error(loc, arena_printf(L->a, "declare %s%s%s before this function", x->vjp ? x->vjp : "",
                                 x->vjp && x->jvp ? " and " : "", x->jvp ? x->jvp : ""),
               "the derivatives of '%s' are declared after the function that calls it", x->name);
  TSNode args = ts_field(call, "arguments");
  int n = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(args); i++)
    n += !ts_is(ts_node_named_child(args, i), "comment");
  if (n != x->nparams)
    diag_error(loc, NULL, "'%s' takes %d argument%s", x->name, x->nparams, x->nparams == 1 ? "" : "s");
  Val *av = ARENA_ARRAY(L->a, Val, n + 1);
  for (int i = 0, k = 0; k < n; i++) {
    TSNode a = ts_node_named_child(args, (uint32_t)i);
    if (ts_is(a, "comment")) continue;
    av[k] = convert(L, L->expr(L, a), x->ptypes[k]);
    k++;
  }
  L->b.loc = loc;
  return b_ext(&L->b, x, EXT_CALL, av, n, 0)->out;
}
