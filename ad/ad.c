// ad/ad.c: the differentiation context.
#include "ad_internal.h"

#include <stdio.h>
#include <stdlib.h>

void ad_target_cuda(AdCtx *cx, bool cuda) {
  cx->cuda = cuda;
}

AdCtx *ad_new(Arena *a, bool general) {
  AdCtx *cx = calloc(1, sizeof *cx);
  if (!cx) {
    fputs("adsoac: out of memory\n", stderr);
    exit(2);
  }
  cx->a = a;
  cx->general = general;
  cx->scratch = arena_new(0);
  return cx;
}

void ad_free(AdCtx *cx) {
  if (!cx) return;
  while (cx->nif_tmp > 0) arena_free(cx->if_tmp[--cx->nif_tmp]);
  arena_free(cx->scratch);
  free(cx);
}

Val ad_param_val(Fn *f, const Fn *pf, Val v, Type *t, const char *name, Val *map, Type *ptype,
                 const char *pname) {
  Val par = pf->vals[v].parent;
  if (!par) {
    Val x = fn_val(f, t, name);
    f->vals[x].adecl = pf->vals[v].adecl; // (the derivatives have the primal's type)
    f->vals[x].adecl_num = pf->vals[v].adecl_num;
    f->vals[x].avla = pf->vals[v].avla;
    f->vals[x].arows = pf->vals[v].arows;
    return x;
  }
  if (!map[par])
    map[par] = fn_val(f, ptype ? ptype : pf->vals[par].type, pname ? pname : pf->vals[par].hint);
  return fn_field_val(f, map[par], pf->vals[v].field);
}

void ret_globals(Arena *a, Node *rn, const Block *primal, const Val *pv) {
  const Node *last = primal->n ? primal->stmts[primal->n - 1] : NULL;
  if (!last || last->kind != IR_RETURN || !last->u.ret.ng) return;
  int ng = rn->u.ret.ng = last->u.ret.ng;
  rn->u.ret.gname = last->u.ret.gname;
  rn->u.ret.gv = ARENA_ARRAY(a, Val, ng);
  for (int k = 0; k < ng; k++) {
    IR_ASSERT(pv[last->u.ret.gv[k]]);
    rn->u.ret.gv[k] = pv[last->u.ret.gv[k]];
  }
}
