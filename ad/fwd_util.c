// ad/fwd_util.c: what every forward rule uses: tangents of fields, zeros, casts.  The bottom
// of ad/fwd*.c: it calls no rule (a rule recurses into statements through F->block).
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

Val *map_fields(Fwd *F, const Val *vs, int nf) {
  Val *p = ARENA_ARRAY(F->a, Val, nf);
  for (int f = 0; f < nf; f++) p[f] = F->pv[vs[f]];
  return p;
}

Val *one_val(Fwd *F, Val v) {
  Val *p = ARENA_ARRAY(F->a, Val, 1);
  p[0] = v;
  return p;
}

Val fwd_zero(Fwd *F, Type *t) {
  return b_const_f(&F->b, t, 0);
}

Val as_type(Fwd *F, Val x, Type *t) {
  return x && val_type(F->f, x) != t ? b_cast(&F->b, t, x) : x;
}

// Forgets the tangents of b's values (an operator's body, differentiated again).
void clear_tangents(Fwd *F, const Block *b) {
  for (int i = 0; i < b->n; i++) {
    const Node *n = b->stmts[i];
    if (n->out) F->tan[n->out] = 0;
    if (n->kind == IR_IF) {
      for (int k = 0; k < n->u.ifs.nouts; k++) F->tan[n->u.ifs.outs[k]] = 0;
      clear_tangents(F, n->u.ifs.then);
      clear_tangents(F, n->u.ifs.els);
    }
  }
}

// Zeroed room for one value per field of a reduction.
Val *fields(Fwd *F, const Red *red) { return ARENA_ARRAY(F->a, Val, red->nf); }
