// emit/names.c: the naming scheme of generated code (see emit.h).
#include <ctype.h>
#include <string.h>

#include "emit.h"
#include "../ir/hash.h"

typedef struct {
  const char *name;
  UT_hash_handle hh;
} Ident;

struct Names {
  Arena *a;
  const Fn *f;
  const Prog *prog;
  const char **name; // name[v], made on first use
  Ident *idents;     // the file's identifiers, each once (uthash)
};

// (A table: a linear search made a function of n values in a file of n identifiers
// quadratic, 12,000 terms took seconds.)
static bool taken(const Names *nm, const char *s) {
  Ident *id;
  HASH_FIND_STR(nm->idents, s, id);
  return id != NULL;
}

// CUDA's built-in variables: a parameter of that name would hide them in a kernel.
static bool cuda_builtin(const char *s) {
  static const char *const v[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    if (!strcmp(v[i], s)) return true;
  return false;
}

Names *names_new(Arena *a, const Fn *f, const Prog *prog, bool cuda) {
  Names *nm = ARENA_NEW(a, Names);
  nm->a = a;
  nm->f = f;
  nm->prog = prog;
  nm->name = ARENA_ARRAY(a, const char *, f->nvals);
  for (int i = 0; i < prog->nidents; i++) {
    if (taken(nm, prog->idents[i])) continue;
    Ident *id = ARENA_NEW(a, Ident);
    id->name = prog->idents[i];
    TABLE_ADD(a, nm->idents, name, id);
  }
  for (int i = 0; i < f->nparams; i++) {
    Val v = f->params[i].val, par = f->vals[v].parent;
    const char *s = par ? f->vals[par].hint : f->params[i].name;
    if (cuda && cuda_builtin(s))
      for (s = arena_printf(a, "%s_", s); taken(nm, s);) s = arena_printf(a, "%s_", s);
    if (!par && f->vals[v].arows) { // an array of arrays: the body's flat alias (emit.c)
      for (s = arena_printf(a, "%s_flat", s); taken(nm, s);) s = arena_printf(a, "%s_", s);
      nm->name[v] = s;
      continue;
    }
    if (!par) {
      nm->name[v] = s;
      continue;
    }
    // a field of a struct parameter: p.f (by value; for an array of structs, p.f is no C
    // expression: its elements are written p[k].f, emit/out.c elem_at)
    const Type *pt = f->vals[par].type, *st = pt->kind == TY_PTR ? pt->elem : pt;
    nm->name[par] = s;
    nm->name[v] = arena_printf(a, "%s.%s", s, st->fnames[f->vals[v].field]);
  }
  return nm;
}

const char *names_get(Names *nm, Val v) {
  IR_ASSERT(v && (int)v < nm->f->nvals);
  if (nm->name[v]) return nm->name[v];
  const char *h = nm->f->vals[v].hint;
  char *s = arena_printf(nm->a, "%s_%u", h ? h : "t", v);
  for (char *p = s; *p; p++) // struct fields are hinted "l.a"
    if (!(isalnum((unsigned char)*p) || *p == '_')) *p = '_';
  while (taken(nm, s)) s = arena_printf(nm->a, "%s_", s);
  return nm->name[v] = s;
}
