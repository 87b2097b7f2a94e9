// translate.c: the pipeline, top to bottom (P1 of docs/style.md).
#include "translate.h"

#include <setjmp.h>

#include "parser/parser.h"
#include "transform/transform.h"

static jmp_buf ad_failed;

// After differentiation, the distributed loops (and each primal loop with its reverse loop)
// are fused again; the primal last, since differentiation read it.
// Then what fusion made constant or unused goes (no set-but-unused variables in the output).
static void fuse(const TranslateOptions *o, Marked *m) {
  scan_drop_unread(m->primal);
  scan_drop_unread(m->vjp);
  scan_drop_unread(m->jvp);
  if (!o->no_fuse) {
    fuse_loops(m->vjp);
    fuse_loops(m->jvp);
    fuse_loops(m->primal);
  }
  Fn *fns[3] = {m->primal, m->vjp, m->jvp};
  for (int k = 0; k < 3; k++) {
    simplify_fold(fns[k]);
    simplify_dce(fns[k]);
    ir_verify(fns[k], "simplify");
  }
}

// Reverse mode differentiates a copy of the primal whose sequential loops are strip-mined
// (stripmine(L) on the loop, else --stripmine=L, else 1: one saved state per iteration).
static Fn *vjp_of(Arena *a, const TranslateOptions *o, const Fn *primal) {
  bool loops = false;
  for (int k = 0; k < primal->body->n; k++) loops |= primal->body->stmts[k]->kind == IR_LOOP;
  if (!loops) return ad_vjp(a, primal, o->general_rule);
  Fn *mined = fn_copy(a, primal);
  stripmine_loops(mined, o->stripmine);
  return ad_vjp(a, mined, o->general_rule);
}

static void on_ad_error(void) {
  longjmp(ad_failed, 1);
}

// --emit=ir: the primal IR of every marked function, then its derivatives.  A derivative that
// this version refuses is diagnosed, and the primal IR is still printed (the caller exits 1).
static bool print_ir(Arena *a, const TranslateOptions *o, Prog *p, Buf *out) {
  volatile bool ok = true;
  for (int i = 0; i < p->nmarked; i++) {
    Marked *m = &p->marked[i];
    void (*outer)(void) = diag_on_error(on_ad_error);
    if (!setjmp(ad_failed)) {
      m->vjp = vjp_of(a, o, m->primal);
      m->jvp = ad_jvp(a, m->primal, o->general_rule);
      fuse(o, m);
      ir_print_fn(m->primal, out); // as emitted
      ir_print_fn(m->vjp, out);
      ir_print_fn(m->jvp, out);
    } else {
      ok = false;
      ad_release_scratch();
      if (!o->no_fuse) fuse_loops(m->primal);
      ir_print_fn(m->primal, out); // as written (a refused derivative)
    }
    diag_on_error(outer);
  }
  return ok;
}

bool adsoac_translate(Arena *a, TranslateOptions *o, const Src *src, Buf *out) {
  diag_set_source(src);
  Prog *p = parse_program(a, src, o->defines, o->ndefines, o->incdirs, o->nincdirs); // parser/
  o->deps = p->deps;
  o->ndeps = p->ndeps;
  for (int i = 0; i < p->nmarked; i++) {
    simplify_fold(p->marked[i].primal);      // transform/  (double)0 -> 0.0
    simplify_dce(p->marked[i].primal);
    activity_warnings(p->marked[i].primal);
    distribute_loops(p->marked[i].primal);   //             one loop per reduction, hist, map
    lower_scans(p->marked[i].primal, o->general_rule); //    a scan loop: map, scan, map
  }
  if (o->emit_ir) return print_ir(a, o, p, out);
  if (o->emit_dot) {
    emit_dot(p, out);
    return true;
  }
  for (int i = 0; i < p->nmarked; i++) {
    Marked *m = &p->marked[i];
    m->vjp = vjp_of(a, o, m->primal);           // transform/  reverse mode
    m->jvp = ad_jvp(a, m->primal, o->general_rule);           // transform/  forward mode
    fuse(o, m);                              // transform/  the parts, and each reverse loop
  }
  EmitOptions eo = {o->target, o->line_directives, src->path, o->output_name, o->version};
  emit_program(p, &eo, out);                 // emit/       CUDA or C11
  return true;
}
