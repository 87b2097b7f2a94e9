// emit/names.c: the naming scheme of generated code (see emit.h).
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

struct Names {
  Arena *a;
  const Fn *f;
  const Prog *prog;
  const char **name;   // name[v], made on first use
  const char **idents; // the file's identifiers, sorted, each once
  int nidents;
};

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

// (A binary search: a linear one made a function of n values in a file of n identifiers
// quadratic, 12,000 terms took seconds.)
static bool taken(const Names *nm, const char *s) {
  return bsearch(&s, nm->idents, (size_t)nm->nidents, sizeof *nm->idents, cmp_str) != NULL;
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
  nm->idents = ARENA_ARRAY(a, const char *, prog->nidents + 1);
  if (prog->nidents) memcpy(nm->idents, prog->idents, sizeof(char *) * (size_t)prog->nidents);
  qsort(nm->idents, (size_t)prog->nidents, sizeof *nm->idents, cmp_str);
  for (int i = 0; i < prog->nidents; i++)
    if (!nm->nidents || strcmp(nm->idents[nm->nidents - 1], nm->idents[i]))
      nm->idents[nm->nidents++] = nm->idents[i];
  for (int i = 0; i < f->nparams; i++) {
    const char *s = f->params[i].name;
    if (cuda && cuda_builtin(s))
      for (s = arena_printf(a, "%s_", s); taken(nm, s);) s = arena_printf(a, "%s_", s);
    nm->name[f->params[i].val] = s;
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
