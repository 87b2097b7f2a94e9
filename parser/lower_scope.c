// parser/lower_scope.c: what every lowering file uses: the variables in scope (a name's newest
// declaration hides the older ones), the file's functions, the text and location of a node,
// and the nesting limit.  Nothing here lowers anything.
#include <string.h>

#include "lower.h"
#include "macro.h"

// (The Vars themselves never move: the lowering holds Var pointers across the lowering of an
// expression that may declare more variables, an inlined call's.)
int var_push(Lower *L, Var v) {
  if (L->nvars == L->capvars) {
    int cap = L->capvars ? L->capvars * 2 : 32;
    Var **vs = ARENA_ARRAY(L->a, Var *, cap);
    if (L->nvars) memcpy(vs, L->vars, sizeof(Var *) * (size_t)L->nvars);
    L->vars = vs;
    L->capvars = cap;
  }
  v.par_level = 0;
  for (ParCtx *p = L->par; p; p = p->up) v.par_level++;
  VarName *n;
  HASH_FIND_STR(L->var_names, v.name, n);
  if (!n) {
    n = ARENA_NEW(L->a, VarName);
    n->name = v.name;
    n->newest = -1;
    TABLE_ADD(L->a, L->var_names, name, n);
  }
  v.shadow = n->newest;
  v.idx = L->nvars;
  n->newest = L->nvars;
  Var *slot = ARENA_NEW(L->a, Var);
  *slot = v;
  L->vars[L->nvars] = slot;
  return L->nvars++;
}

// The newest variable of the name, unless it is below var_floor (an inlined body sees its
// own scope only).
Var *var_find(Lower *L, const char *name) {
  VarName *n;
  HASH_FIND_STR(L->var_names, name, n);
  if (!n || n->newest < L->var_floor) return NULL;
  return L->vars[n->newest];
}

void var_pop(Lower *L, int n) {
  for (; L->nvars > n; L->nvars--) {
    Var *v = L->vars[L->nvars - 1];
    VarName *e;
    HASH_FIND_STR(L->var_names, v->name, e);
    e->newest = v->shadow;
  }
}

const Src *def_src(Lower *L, TSNode def) {
  for (int i = 0; i < L->prog->nh; i++)
    if (def.tree == L->prog->htree[i]) return L->prog->hsrc[i];
  return &L->prog->text;
}

TSNode fn_def(FnDef *fns, const char *name) {
  FnDef *f;
  HASH_FIND_STR(fns, name, f);
  return f ? f->def : (TSNode){0};
}

const char *field_name(Lower *L, const char *var, const char *field) {
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

const char *node_text(Lower *L, TSNode n) {
  return ts_text(L->a, L->src, n);
}

Loc node_loc(Lower *L, TSNode n) {
  return ts_loc(L->src, n);
}

// Where a node stands in the main file, for the macros in force there.
uint32_t use_byte(Lower *L, TSNode n) {
  if (L->src->header) return L->fn_start; // (a header's function, inlined)
  return L->src->at.line ? L->src->at_byte : ts_node_start_byte(n);
}

// One more level of nesting (if, for, a block in a block, a conditional operand): the IR's
// blocks nest as deep, and the passes recurse over them.
void nest_enter(Lower *L, TSNode n) {
  if (++L->nesting > MAX_NESTING)
    diag_error(node_loc(L, n), "use fewer levels (an inlined function's levels add to its "
               "caller's; a long else-if or ?: chain can be written as separate ifs)",
               "nested more than %d levels deep (if, for, { } blocks and the operands of ?:, && "
               "and ||, counting those of inlined calls)", MAX_NESTING);
}

void nest_leave(Lower *L) {
  L->nesting--;
}

// A name that is a macro would be expanded where the variable is read but not where it is
// declared (adsoac expands macros in expressions), so a use could silently mean another
// variable: refused.
void check_not_macro(Lower *L, TSNode name) {
  const char *s = node_text(L, name);
  if (!L->in_expansion && L->macros && macro_defined(L->macros, s, use_byte(L, name), NULL))
    diag_error(node_loc(L, name), "rename the variable, or #undef the macro before it",
               "'%s' is a macro here: adsoac expands macros in expressions, not in the names "
               "of the variables and parameters it declares", s);
}
