// emit/check.c: --emit=check, a standalone validation program (README "Validating a
// translation"): the C target's translation, the original marked functions renamed NAME_ref
// (sequential: their adsoac and OpenMP pragmas blanked), the driver (runtime/src/rt_check.h),
// and per marked function a table of its parameters and adapters that call f_ref, f,
// f_vjp and f_jvp on arrays of any type through void pointers.
#include <string.h>

#include "emit_internal.h"
#include "rt_embed.h"

static bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The original definition of m (after its grad pragma), its name made NAME_ref, the pragmas
// of its body (adsoac's, OpenMP's) blanked: the sequential original.
static void emit_ref(const Prog *p, const Marked *m, const EmitOptions *opt, Buf *out) {
  const char *src = p->src.text, *act = p->text.text, *name = m->primal->name;
  uint32_t s = m->start_byte, e = m->end_byte, line = 1;
  while (s < e && src[s] != '\n') s++; // (past the grad pragma)
  for (uint32_t k = 0; k < s; k++) line += src[k] == '\n';
  size_t n = strlen(name);
  uint32_t at = s;
  while (at + n <= e && !(!memcmp(act + at, name, n) && !ident_char(act[at - 1]) &&
                          !ident_char(act[at + n])))
    at++;
  if (opt->line_directives) buf_printf(out, "#line %u \"%s\"\n", line, opt->input_name);
  bool line_start = true;
  for (uint32_t k = s; k < e; k++) {
    if (k == at) {
      buf_printf(out, "%s_ref", name);
      k += (uint32_t)n - 1;
      continue;
    }
    char c = src[k];
    if (line_start && c == '#') { // a directive in the body: #pragma adsoac, #pragma omp
      uint32_t j = k + 1;
      while (j < e && (act[j] == ' ' || act[j] == '\t')) j++;
      if (!strncmp(act + j, "pragma", 6)) {
        while (k < e && (src[k] != '\n' || src[k - 1] == '\\')) {
          if (src[k] == '\n') buf_puts(out, "\n");
          k++;
        }
        buf_puts(out, "\n");
        continue;
      }
    }
    if (c == '\n') line_start = true;
    else if (c != ' ' && c != '\t') line_start = false;
    buf_printf(out, "%c", c);
  }
  buf_puts(out, "\n");
}

static const char *elem_kind(const Type *t) {
  return t->kind == TY_FLOAT ? "ADSOAC_CK_FLOAT" : t->kind == TY_DOUBLE ? "ADSOAC_CK_DOUBLE" : "ADSOAC_CK_INT";
}

// Argument k of a call, from the void pointers a[] (a scalar is stored where a[k] points).
static const char *arg(Arena *a, const Type *t, const char *arr, int k) {
  return t->kind == TY_PTR ? arena_printf(a, "(%s)%s[%d]", ty_c_name(a, t), arr, k)
                           : arena_printf(a, "*(%s *)%s[%d]", ty_c_name(a, t), arr, k);
}

static void emit_adapters(Arena *a, const Marked *m, int idx, Buf *out) {
  const Fn *f = m->primal;
  const Type *r = f->ret;
  bool fret = ty_is_float(r);
  const char *ret = r->kind == TY_VOID ? "" : "return (double)";
  Buf call = {.arena = a}, vjp = {.arena = a}, jvp = {.arena = a};
  for (int k = 0; k < f->nparams; k++) {
    const Param *p = &f->params[k];
    const char *sep = k ? ", " : "";
    const char *x = arg(a, p->type, "a", k);
    buf_printf(&call, "%s%s", sep, x);
    buf_printf(&vjp, "%s%s", sep, x);
    buf_printf(&jvp, "%s%s", sep, x);
    if (!p->active) continue;
    Type *el = p->type->kind == TY_PTR ? p->type->elem : p->type;
    buf_printf(&vjp, ", (%s *)bar[%d]", ty_c_name(a, el), k);
    if (p->type->kind == TY_PTR)
      buf_printf(&jvp, ", (%s%s *)dot[%d]", p->written ? "" : "const ", ty_c_name(a, el), k);
    else
      buf_printf(&jvp, ", *(%s *)dot[%d]", ty_c_name(a, el), k);
  }
  if (fret) {
    buf_printf(&vjp, "%s(%s)ret_bar", f->nparams ? ", " : "", ty_c_name(a, r));
    buf_printf(&jvp, "%s&rd", f->nparams ? ", " : "");
  }
  const char *c = call.data ? call.data : "";
  buf_printf(out, "\nstatic double adsoac_ck_ref%d(void *const *a) {\n  %s%s_ref(%s);%s\n}\n", idx,
             ret, f->name, c, r->kind == TY_VOID ? "\n  return 0;" : "");
  buf_printf(out, "static double adsoac_ck_f%d(void *const *a) {\n  %s%s(%s);%s\n}\n", idx, ret,
             f->name, c, r->kind == TY_VOID ? "\n  return 0;" : "");
  buf_printf(out, "static double adsoac_ck_vjp%d(void *const *a, void *const *bar, double ret_bar) {\n"
                  "  (void)a, (void)bar, (void)ret_bar;\n  %s%s(%s);%s\n}\n",
             idx, ret, m->vjp->name, vjp.data ? vjp.data : "", r->kind == TY_VOID ? "\n  return 0;" : "");
  buf_printf(out, "static double adsoac_ck_jvp%d(void *const *a, void *const *dot, double *ret_dot) {\n"
                  "  (void)a, (void)dot;\n", idx);
  if (fret)
    buf_printf(out, "  %s rd = 0;\n  double r = (double)%s(%s);\n  *ret_dot = (double)rd;\n  return r;\n}\n",
               ty_c_name(a, r), m->jvp->name, jvp.data ? jvp.data : "");
  else
    buf_printf(out, "  *ret_dot = 0;\n  %s%s(%s);%s\n}\n", ret, m->jvp->name,
               jvp.data ? jvp.data : "", r->kind == TY_VOID ? "\n  return 0;" : "");
  buf_free(&call), buf_free(&vjp), buf_free(&jvp);
  // the parameters
  buf_printf(out, "static const AdsoacCkParam adsoac_ck_params%d[] = {\n", idx);
  for (int k = 0; k < f->nparams; k++) {
    const Param *p = &f->params[k];
    const Type *el = p->type->kind == TY_PTR ? p->type->elem : p->type;
    const char *cn = ty_c_name(a, el);
    buf_printf(out, "  {\"%s\", %d, %s, (int)sizeof(%s), ((%s)-1 < (%s)1), %d, %d},\n", p->name,
               p->type->kind == TY_PTR, elem_kind(el), cn, cn, cn, p->written, p->active);
  }
  if (!f->nparams) buf_puts(out, "  {\"\", 0, ADSOAC_CK_INT, 1, 0, 0, 0},\n");
  buf_puts(out, "};\n");
}

static const char *proto(Arena *a, const Fn *f) {
  Buf b = {.arena = a};
  buf_printf(&b, "%s %s(", ty_c_name(a, f->ret), f->name);
  for (int k = 0; k < f->nparams; k++) {
    const Type *t = f->params[k].type;
    buf_printf(&b, "%s%s%s%s", k ? ", " : "", ty_c_name(a, t), t->kind == TY_PTR ? "" : " ",
               f->params[k].name);
  }
  buf_puts(&b, f->nparams ? ")" : "void)");
  const char *s = arena_strdup(a, b.data);
  buf_free(&b);
  return s;
}

void emit_check(const Prog *prog, const EmitOptions *opt, Buf *out) {
  if (prog_uses_mpi(prog))
    diag_error(prog->marked[0].loc, "run f, f_vjp and f_jvp under mpirun against finite "
               "differences of the whole multi-rank program (README: MPI programs)",
               "--emit=check: a program that calls MPI is not validated by one process");
  for (int i = 0; i < prog->nmarked; i++) {
    const Fn *f = prog->marked[i].primal;
    for (int k = 0; k < f->nparams; k++)
      if (f->vals[f->params[k].val].parent)
        diag_error(prog->marked[i].loc, "validate it with a function of arrays and scalars that "
                   "calls it, marked instead", "--emit=check: '%s' takes a struct ('%s'), which "
                   "the validation program does not fill yet", f->name,
                   val_struct_param(f, f->params[k].val));
    if (f->ret->kind == TY_STRUCT || f->ret->kind == TY_PTR)
      diag_error(prog->marked[i].loc, NULL, "--emit=check: '%s' returns a '%s'", f->name, f->ret->name);
  }
  Arena *a = arena_new(0); // (after the diagnostics: an error ends the thread)
  buf_puts(out, "#undef main\n\n// ---- the original functions, sequential, renamed NAME_ref ----\n");
  for (int i = 0; i < prog->nmarked; i++) emit_ref(prog, &prog->marked[i], opt, out);
  if (opt->line_directives && opt->output_name) {
    int lines = 2;
    for (size_t k = 0; k < out->len; k++) lines += out->data[k] == '\n';
    buf_printf(out, "#line %d \"%s\"\n", lines, opt->output_name);
  }
  buf_puts(out, "\n");
  buf_puts(out, rt_check_h);
  for (int i = 0; i < prog->nmarked; i++) emit_adapters(a, &prog->marked[i], i, out);
  buf_puts(out, "\nstatic const AdsoacCkFn adsoac_ck_fns[] = {\n");
  for (int i = 0; i < prog->nmarked; i++) {
    const Fn *f = prog->marked[i].primal;
    const Type *r = f->ret;
    buf_printf(out, "  {\"%s\", \"%s\", %d, adsoac_ck_params%d, %s, %d, %d, adsoac_ck_ref%d, "
                    "adsoac_ck_f%d, adsoac_ck_vjp%d, adsoac_ck_jvp%d},\n",
               f->name, proto(a, f), f->nparams, i, ty_is_float(r) ? elem_kind(r) : "ADSOAC_CK_INT",
               ty_is_float(r), r->kind == TY_INT, i, i, i, i);
  }
  buf_puts(out, "};\n\n");
  buf_printf(out, "// ./check [NAME=VALUE ...]: see the README (\"Validating a translation\").\n"
                  "int main(int argc, char **argv) {\n"
                  "  return adsoac_ck_main(argc, argv, adsoac_ck_fns, %d);\n}\n", prog->nmarked);
  arena_free(a);
}
