// parser/lower_access.c: the array accesses of the parallel loops being lowered: each noted
// for the map check (lower_loop.c), and the element an iteration wrote at its own index
// forwarded to the reads after the write (store to load).
#include <string.h>

#include "lower.h"

Val fwd_find(const Fwd *w, Val arr) {
  for (int k = 0; k < w->n; k++)
    if (w->arr[k] == arr) return w->val[k];
  return 0;
}

void fwd_lose(Lower *L, ParCtx *p, Val arr) {
  for (int i = 0; i < p->nlost; i++)
    if (p->lost[i] == arr) return;
  if (p->nlost == p->caplost) {
    int cap = p->caplost ? 2 * p->caplost : 8;
    Val *v = ARENA_ARRAY(L->a, Val, cap);
    for (int i = 0; i < p->nlost; i++) v[i] = p->lost[i];
    p->lost = v, p->caplost = cap;
  }
  p->lost[p->nlost++] = arr;
}

static bool fwd_lost(const ParCtx *p, Val arr) {
  for (int i = 0; i < p->nlost; i++)
    if (p->lost[i] == arr) return true;
  return false;
}

// Records that this iteration's arr[i] now holds v.
void fwd_push(Lower *L, Val arr, Val v, bool initial, Loc loc) {
  ParCtx *p = L->par;
  (void)loc;
  if (p->nfwd == p->capfwd) {
    int cap = p->capfwd ? 2 * p->capfwd : 16;
    Val *a = ARENA_ARRAY(L->a, Val, cap), *w = ARENA_ARRAY(L->a, Val, cap);
    bool *in = ARENA_ARRAY(L->a, bool, cap);
    for (int i = 0; i < p->nfwd; i++) a[i] = p->fwd_arr[i], w[i] = p->fwd_val[i], in[i] = p->fwd_initial[i];
    p->fwd_arr = a, p->fwd_val = w, p->fwd_initial = in, p->capfwd = cap;
  }
  p->fwd_arr[p->nfwd] = arr;
  p->fwd_val[p->nfwd] = v;
  p->fwd_initial[p->nfwd++] = initial;
}

static void note_access(Lower *L, ParCtx *p, Val arr, Val idx, bool write, bool initial, Loc loc) {
  if (p->nacc == p->capacc) {
    int cap = p->capacc ? p->capacc * 2 : 16;
    Access *a = ARENA_ARRAY(L->a, Access, cap);
    if (p->nacc) memcpy(a, p->acc, sizeof(Access) * (size_t)p->nacc);
    p->acc = a;
    p->capacc = cap;
  }
  p->acc[p->nacc++] = (Access){arr, idx, write, loc, initial};
}

void par_note_access(Lower *L, Val arr, Val idx, bool write, Loc loc) {
  for (ParCtx *p = L->par; p; p = p->up) {
    note_access(L, p, arr, idx, write, false, loc);
    if (write && p != L->par) fwd_lose(L, p, arr); // a write from a nested loop: not forwarded
  }
}

void par_note_initial(Lower *L, Val arr, Val idx, Loc loc) {
  note_access(L, L->par, arr, idx, false, true, loc);
  for (ParCtx *p = L->par->up; p; p = p->up) note_access(L, p, arr, idx, false, false, loc);
}

// arr[idx]; inside a parallel loop, an element this iteration wrote is its written value.
Val read_element(Lower *L, Val arr, Val idx, Loc loc) {
  for (ParCtx *q = L->par; q; q = q->up)
    for (int i = 0; i < q->nhists; i++)
      if (q->hists[i].arr == arr)
        diag_error(loc, "a histogram may only be updated in its loop (h[k] OP= e)",
                   "histogram '%s' is read in the loop body", L->fn->vals[arr].hint);
  ParCtx *p = L->par;
  if (p && idx == p->idx) {
    for (int i = p->nfwd - 1; i >= 0; i--)
      if (p->fwd_arr[i] == arr) {
        if (p->fwd_initial[i]) par_note_initial(L, arr, idx, loc);
        return p->fwd_val[i];
      }
  }
  L->b.loc = loc;
  Val v = b_read(&L->b, arr, idx);
  if (p && idx == p->idx && !fwd_lost(p, arr)) // no write on this path: the element as found
    par_note_initial(L, arr, idx, loc); // (one in the other branch of an if is not on it)
  else
    par_note_access(L, arr, idx, false, loc);
  return v;
}
