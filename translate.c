// translate.c: the pipeline, top to bottom (P1 of docs/style.md).
#include "translate.h"

#include "parser/parser.h"
#include "transform/transform.h"

void adsoac_translate(Arena *a, const TranslateOptions *o, const Src *src, Buf *out) {
  diag_set_source(src);
  Prog *p = parse_program(a, src);           // parser/     C -> SOAC IR
  for (int i = 0; i < p->nmarked; i++) {
    Marked *m = &p->marked[i];
    simplify_fold(m->primal);                // transform/  (double)0 -> 0.0
    simplify_dce(m->primal);
    m->vjp = ad_vjp(a, m->primal);           // transform/  reverse mode
    m->jvp = ad_jvp(a, m->primal);           // transform/  forward mode
  }
  if (o->emit_ir) {
    for (int i = 0; i < p->nmarked; i++) {
      ir_print_fn(p->marked[i].primal, out);
      ir_print_fn(p->marked[i].vjp, out);
      ir_print_fn(p->marked[i].jvp, out);
    }
    return;
  }
  EmitOptions eo = {o->target, o->line_directives, src->path, o->output_name, o->version};
  emit_program(p, &eo, out);                 // emit/       CUDA or C11
}
