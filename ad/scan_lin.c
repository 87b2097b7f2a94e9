// ad/scan_lin.c: the pieces of the general scan rules that do not depend on the mode
// (papers/reduce-scan-hist-rules.md §2.16, §2.19-2.20).
//
// Reverse mode solves the backward linear recurrence  g_{k-1} = dst_bar[k] + J_k^T g_k  by a
// scan over affine maps v -> c + A v, composed by (A_p, c_p) o (A_q, c_q) = (A_p A_q,
// c_p + A_p c_q).  A is the transposed Jacobian of one step of the scan with respect to the
// running value.  When that Jacobian is block-diagonal (the fields fall into groups that
// only depend on each other: BDS), A is kept per block; blocks with equal entries share one
// matrix (RBDS).  So a scan of a linear function (a, b) carries one 1x1 matrix for both of
// its fields, a 2x2 matrix-product scan one 2x2 matrix for its two rows.
#include <stdlib.h>

#include "ad_internal.h"

static int find(int *parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

void lin_shape(const Fn *f, int d, const Val *ja, LinShape *sh) {
  int *parent = malloc(sizeof(int) * (size_t)d);
  for (int k = 0; k < d; k++) parent[k] = k;
  for (int k = 0; k < d; k++)
    for (int m = 0; m < d; m++)
      if (ja[k * d + m]) parent[find(parent, k)] = find(parent, m);
  // blocks in the order of their first field; fields ascending within a block
  sh->d = d;
  sh->nblocks = sh->ngroups = 0;
  for (int k = 0; k < d; k++) sh->block[k] = -1;
  for (int k = 0; k < d; k++) {
    if (sh->block[k] >= 0) continue;
    int b = sh->nblocks++, q = 0;
    for (int m = k; m < d; m++)
      if (find(parent, m) == find(parent, k)) {
        sh->block[m] = b;
        sh->pos[m] = q;
        sh->field[b][q++] = m;
      }
    sh->q[b] = q;
    // the group: the first earlier block of the same size with the same entries
    sh->group[b] = -1;
    for (int g = 0; g < sh->ngroups && sh->group[b] < 0; g++) {
      int r = sh->rep[g];
      if (sh->q[r] != q) continue;
      bool same = true;
      for (int i = 0; i < q && same; i++)
        for (int j = 0; j < q && same; j++)
          same = index_same(f->defs, ja[sh->field[r][i] * d + sh->field[r][j]],
                            ja[sh->field[b][i] * d + sh->field[b][j]]);
      if (same) sh->group[b] = g;
    }
    if (sh->group[b] < 0) {
      int g = sh->ngroups++;
      sh->rep[g] = b;
      sh->group[b] = g;
    }
  }
  sh->nmat = 0;
  for (int g = 0; g < sh->ngroups; g++) {
    sh->moff[g] = sh->nmat;
    sh->nmat += sh->q[sh->rep[g]] * sh->q[sh->rep[g]];
  }
  free(parent);
}

Val lin_entry(const LinShape *sh, const Val *ja, int g, int i, int j, bool transpose) {
  const int *fs = sh->field[sh->rep[g]];
  return transpose ? ja[fs[j] * sh->d + fs[i]] : ja[fs[i] * sh->d + fs[j]];
}

Lambda *lin_lambda(Fn *f, const LinShape *sh, Type *const *ftype, Loc loc) {
  Arena *a = f->arena;
  int d = sh->d, nf = sh->nmat + d;
  Lambda *l = ARENA_NEW(a, Lambda);
  l->nf = nf;
  l->pa = ARENA_ARRAY(a, Val, nf);
  l->pb = ARENA_ARRAY(a, Val, nf);
  l->body = block_new(a);
  Builder b = {f, l->body, loc};
  Type *mt = ftype[0]; // the matrices' entries (the fields share one type: lin_types_agree)
  for (int k = 0; k < nf; k++) {
    Type *t = k < sh->nmat ? mt : ftype[k - sh->nmat];
    l->pa[k] = fn_val(f, t, k < sh->nmat ? "pA" : "pc");
    l->pb[k] = fn_val(f, t, k < sh->nmat ? "qA" : "qc");
  }
  Val *y = ARENA_ARRAY(a, Val, nf);
  for (int g = 0; g < sh->ngroups; g++) { // A = A_p A_q
    int q = sh->q[sh->rep[g]], o = sh->moff[g];
    for (int i = 0; i < q; i++)
      for (int j = 0; j < q; j++) {
        Val s = 0;
        for (int m = 0; m < q; m++)
          s = b_add(&b, s, b_binop(&b, BIN_MUL, l->pa[o + i * q + m], l->pb[o + m * q + j]));
        y[o + i * q + j] = s;
      }
  }
  for (int k = 0; k < d; k++) { // c = c_p + A_p c_q
    int blk = sh->block[k], g = sh->group[blk], q = sh->q[blk], o = sh->moff[g], i = sh->pos[k];
    Val s = l->pa[sh->nmat + k];
    for (int j = 0; j < q; j++)
      s = b_add(&b, s, b_binop(&b, BIN_MUL, l->pa[o + i * q + j], l->pb[sh->nmat + sh->field[blk][j]]));
    y[sh->nmat + k] = s;
  }
  for (int k = 0; k < nf; k++) block_yield(a, l->body, y[k]);
  return l;
}
