// analysis/scan_form.c: the canonical scan, the form transform/scan.c gives every scan and
// that the derivative rules and the emitter recognise.
#include "analysis.h"

bool scan_canonical(const Node *p, Val *src, Val *dst) {
  if (p->kind != IR_PAR || p->u.par.nscans != 1 || p->u.par.nreds || p->u.par.nhists) return false;
  const Scan *s = &p->u.par.scans[0];
  const Block *b = p->u.par.body;
  if (b->nyields != s->nf) return false;
  // reads at the index (one per field, or fewer: fields read from one array share it) ...
  int nr = 0;
  while (nr < b->n && b->stmts[nr]->kind == IR_READ && b->stmts[nr]->u.mem.idx == p->u.par.idx) nr++;
  if (!nr || nr > s->nf || b->n - nr > s->nf) return false;
  for (int k = 0; k < s->nf; k++) {
    int r = 0;
    while (r < nr && b->stmts[r]->out != b->yields[k]) r++;
    if (r == nr) return false;
    if (src) src[k] = b->stmts[r]->u.mem.arr;
    if (dst) dst[k] = 0;
  }
  // ... then the writes of the prefixes that are kept, in field order
  int k = 0;
  for (int i = nr; i < b->n; i++, k++) {
    const Node *w = b->stmts[i];
    while (k < s->nf && w->kind == IR_WRITE && w->u.mem.v != s->excl[k]) k++;
    if (k == s->nf || w->kind != IR_WRITE || w->u.mem.idx != p->u.par.idx) return false;
    if (dst) dst[k] = w->u.mem.arr;
  }
  return true;
}
