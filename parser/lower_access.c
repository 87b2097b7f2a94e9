// parser/lower_access.c: the array accesses of the parallel loops being lowered: each noted
// for the map check (lower_loop.c), and the elements an iteration wrote forwarded to the reads
// of the same element after the write (store to load), at any index expression.
#include <string.h>

#include "lower.h"

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

bool fwd_lost(const ParCtx *p, Val arr) {
  for (int i = 0; i < p->nlost; i++)
    if (p->lost[i] == arr) return true;
  return false;
}

// Records what this iteration's element e.arr[e.idx] now holds.
void fwd_push(Lower *L, FwdEntry e) {
  ParCtx *p = L->par;
  if (p->nfwd == p->capfwd) {
    int cap = p->capfwd ? 2 * p->capfwd : 16;
    FwdEntry *a = ARENA_ARRAY(L->a, FwdEntry, cap);
    if (p->nfwd) memcpy(a, p->fwd, sizeof(FwdEntry) * (size_t)p->nfwd);
    p->fwd = a, p->capfwd = cap;
  }
  p->fwd[p->nfwd++] = e;
}

// Two index expressions of the iteration being lowered, at one point of it.
static IndexHere here(Lower *L, Val a, Val b) {
  const ParCtx *p = L->par;
  return index_here(L->fn, L->fn->defs, a, b, p->idx, p->lo, p->hi);
}

FwdLook fwd_look(Lower *L, const FwdEntry *e, int n, const FwdEntry *base, int nbase, Val arr,
                 Val idx, FwdEntry *found) {
  for (int seg = 0; seg < 2; seg++) {
    const FwdEntry *s = seg ? base : e;
    for (int k = (seg ? nbase : n) - 1; k >= 0; k--) {
      if (s[k].arr != arr) continue;
      switch (here(L, s[k].idx, idx)) {
      case HERE_SAME: *found = s[k]; return FWD_FOUND;
      case HERE_MAYBE: return FWD_BLOCKED; // (a write that may be this element comes later)
      case HERE_DIFFER: break;
      }
    }
  }
  return FWD_NONE;
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
  FwdEntry e = {0};
  FwdLook look = p ? fwd_look(L, p->fwd, p->nfwd, NULL, 0, arr, idx, &e) : FWD_NONE;
  L->b.loc = loc;
  if (look == FWD_FOUND && e.val) {
    if (e.initial) par_note_initial(L, arr, idx, loc);
    if (e.stale) par_note_access(L, arr, idx, false, loc); // (read after a nested loop's write)
    if (!e.flag) return e.val;
    // the value where a write on the path reached the element, else the element in memory
    // (no write of the iteration reached it: as the iteration found it)
    Node *n = node_new(L->a, IR_IF, loc);
    n->u.ifs.cond = e.flag;
    n->u.ifs.then = block_new(L->a);
    n->u.ifs.els = block_new(L->a);
    block_yield(L->a, n->u.ifs.then, e.val);
    Block *outer = L->b.blk;
    L->b.blk = n->u.ifs.els;
    Val m = b_read(&L->b, arr, idx);
    L->b.blk = outer;
    block_yield(L->a, n->u.ifs.els, m);
    n->u.ifs.nouts = 1;
    n->u.ifs.outs = ARENA_ARRAY(L->a, Val, 1);
    n->u.ifs.outs[0] = fn_val(L->fn, val_type(L->fn, m), NULL);
    b_push(&L->b, n);
    if (fwd_lost(p, arr))
      par_note_access(L, arr, idx, false, loc);
    else
      par_note_initial(L, arr, idx, loc);
    return n->u.ifs.outs[0];
  }
  Val v = b_read(&L->b, arr, idx);
  if (p && look == FWD_NONE && !fwd_lost(p, arr)) // no write on this path: the element as found
    par_note_initial(L, arr, idx, loc); // (one in the other branch of an if is not on it)
  else // after a write that may be this element, and that forwarding cannot follow
    par_note_access(L, arr, idx, false, loc);
  return v;
}
