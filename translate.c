// translate.c: the pipeline, top to bottom (P1 of docs/style.md).
#include "translate.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool translate(Arena *a, TranslateOptions *o, const Src *src, Buf *out) {
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

// ---- the translation runs on a thread with a large stack ----
//
// The front end and the passes recurse over the nesting of the input (statements, expressions,
// the IR's blocks): the nesting limits (parser/parser.h, README "Limitations") are set so that
// the deepest accepted input fits in TRANSLATE_STACK with room to spare, also in the
// sanitizer build (whose frames are several times larger).  The stack is reserved, not
// committed: only what a deep input uses is touched.  Where the address space is limited
// (ulimit -v), a quarter of it is tried, and so on, with max_tree_depth scaled to match.
#define TRANSLATE_STACK ((size_t)1 << 30)
#define MIN_STACK ((size_t)16 << 20)

typedef struct {
  Arena *a;
  TranslateOptions *o;
  const Src *src;
  Buf *out;
  bool ok, failed;
} Job;

static jmp_buf job_failed;

static void on_job_error(void) {
  longjmp(job_failed, 1);
}

// Without a hook, an error exits here, on the worker (whose stack, alive until the process
// ends, still holds what the leak checker of the sanitizer build must find reachable).  With
// one (the fuzz target's longjmp), the error longjmps back here, and the caller's hook runs
// on the caller's thread after the join.
static void *run_job(void *arg) {
  Job *j = arg;
  void (*outer)(void) = diag_on_error(NULL);
  diag_on_error(outer ? on_job_error : NULL);
  if (!setjmp(job_failed))
    j->ok = translate(j->a, j->o, j->src, j->out);
  else
    j->failed = true;
  diag_on_error(outer);
  return NULL;
}

bool adsoac_translate(Arena *a, TranslateOptions *o, const Src *src, Buf *out) {
  Job j = {a, o, src, out, false, false};
  pthread_t t;
  int err = 0;
  for (size_t stack = TRANSLATE_STACK; stack >= MIN_STACK; stack /= 4) {
    max_tree_depth = (int)(MAX_TREE_DEPTH * (long long)(stack >> 20) / (TRANSLATE_STACK >> 20));
    pthread_attr_t attr;
    err = pthread_attr_init(&attr);
    if (err) break;
    err = pthread_attr_setstacksize(&attr, stack);
    if (!err) err = pthread_create(&t, &attr, run_job, &j);
    pthread_attr_destroy(&attr);
    if (err != EAGAIN && err != ENOMEM) break; // (EAGAIN: no room for the stack)
  }
  if (err) {
    fprintf(stderr, "adsoac: error: cannot start the translation (a thread with a stack of "
                    "%zu MiB or less): %s\n", TRANSLATE_STACK >> 20, strerror(err));
    exit(1);
  }
  pthread_join(t, NULL);
  if (j.failed) { // diagnosed: now what diag_error does after its report, on this thread
    void (*hook)(void) = diag_on_error(NULL);
    diag_on_error(hook);
    hook(); // must not return
    exit(1);
  }
  return j.ok;
}
