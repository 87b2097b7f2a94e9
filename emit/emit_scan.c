// emit/emit_scan.c: canonical scans (transform/scan.c) on CUDA, with CUB's device-wide scan,
// and what the C target's scans (emit_par.c: a scan with the loops around it) share.
#include <string.h>

#include "emit_internal.h"

// A canonical scan (transform/scan.c) as a reduction clause, for the operator helpers.
Red scan_red(const Scan *s) {
  return (Red){.op = s->op, .nf = s->nf, .init = s->init, .out = s->out, .lam = s->lam,
               .user_fn = s->user_fn, .var = s->var};
}

void check_scan(Emit *e, const Node *n, Val *src, Val *dst) {
  if (!e->host || !scan_canonical(n, src, dst))
    diag_error(n->loc, NULL, "code generation for this scan(...) is not supported yet");
  for (int f = 0; f < n->u.par.scans[0].nf; f++) // (transform/scan.c copies those: in_place)
    IR_ASSERT(!e->f->vals[src[f]].parent && !(dst[f] && e->f->vals[dst[f]].parent));
}

// The total of a scan into its output values (those that are read).
void scan_total(Emit *e, const Red *r, const char *v) {
  for (int f = 0; f < r->nf; f++)
    if (e->uses[r->out[f]]) line(e, r->nf == 1 ? "%s = %s;" : "%s = %s.f%d;", ref(e, r->out[f]), v, f);
}

const char *scan_what(Emit *e, const Scan *s, const Val *src) {
  const char *op = s->user_fn ? s->user_fn : redop_name(s->op);
  return s->nf == 1 ? arena_printf(e->a, "%s exclusive scan of %s", op, ref(e, src[0]))
                    : arena_printf(e->a, "%s exclusive scan of (%s, ...)", op, ref(e, src[0]));
}

// CUDA: CUB's device-wide exclusive scan (runtime adsoac_scan); the fields of a struct value,
// kept in arrays of their own, through the functors of adsoac_scan_fields.
static void emit_scan_cuda(Emit *e, const Node *n) {
  Val src[n->u.par.scans[0].nf], dst[n->u.par.scans[0].nf];
  check_scan(e, n, src, dst);
  const Scan *s = &n->u.par.scans[0];
  Red r = scan_red(s);
  if (s->op == RED_USER) emit_user_op(e, n, &r);
  e->uses_fail = true;
  pragma_comment(e, n);
  if (s->nf == 1) {
    const char *ty = tname(e, e->f->vals[s->out[0]].type);
    // the total: to its cell (kept on the device: emit_dev.c), else to the host if read
    bool dev = on_dev(e, s->out[0]), read = e->uses[s->out[0]] && !dev;
    const char *none = arena_printf(e->a, "(%s *)NULL", ty);
    if (read) note_sync(e, n->loc, arena_printf(e->a, "reads the total of the scan at line %u", n->loc.line));
    line(e, "ADSOAC_CHECK(adsoac_scan(%s, %s, (long long)%s, %s, %s, %s, %s, %s(), %s));",
         ref(e, src[0]), dst[0] ? ref(e, dst[0]) : none, ref(e, n->u.par.hi), ref(e, s->init[0]),
         read ? arena_printf(e->a, "&%s", ref(e, s->out[0])) : none, dev ? dev_ref(e, s->out[0]) : none,
         s->reverse ? "true" : "false", cub_op(e, &r), where(e));
    return;
  }
  // the functors that gather and scatter the fields
  const char *t = red_ctype(e, &r), *fx = arena_printf(e->a, "AdsoacFields%u_%s", s->lam->pa[0], e->f->name);
  Buf *out = e->out;
  e->out = &e->helpers;
  buf_printf(e->out, "struct %sLoad {\n", fx);
  for (int f = 0; f < s->nf; f++)
    buf_printf(e->out, "  const %s *f%d;\n", tname(e, e->f->vals[s->out[f]].type), f);
  buf_printf(e->out, "  __device__ %s operator()(long long k) const { return %s_make(", t, t);
  for (int f = 0; f < s->nf; f++) buf_printf(e->out, "%sf%d[k]", f ? ", " : "", f);
  buf_printf(e->out, "); }\n};\nstruct %sStore {\n", fx);
  for (int f = 0; f < s->nf; f++)
    if (dst[f]) buf_printf(e->out, "  %s *f%d;\n", tname(e, e->f->vals[s->out[f]].type), f);
  buf_printf(e->out, "  __device__ void operator()(long long k, %s v) const {", t);
  for (int f = 0; f < s->nf; f++)
    if (dst[f]) buf_printf(e->out, " f%d[k] = v.f%d;", f, f);
  buf_puts(e->out, " }\n};\n");
  e->out = out;
  line(e, "// %s, in %s order", scan_what(e, s, src), s->reverse ? "reverse" : "index");
  line(e, "{");
  e->depth++;
  Buf b = {.arena = e->a};
  for (int f = 0; f < s->nf; f++) buf_printf(&b, "%s%s", f ? ", " : "", ref(e, src[f]));
  line(e, "%sLoad adsoac_ld = {%s};", fx, b.data);
  b.len = 0;
  b.data[0] = '\0';
  for (int f = 0; f < s->nf; f++)
    if (dst[f]) buf_printf(&b, "%s%s", b.len ? ", " : "", ref(e, dst[f]));
  line(e, "%sStore adsoac_st = {%s};", fx, b.data);
  buf_free(&b);
  bool keep = false, read = false;
  for (int f = 0; f < s->nf; f++) keep |= dst[f] != 0, read |= e->uses[s->out[f]] != 0;
  if (read) line(e, "%s adsoac_total;", t);
  if (read) note_sync(e, n->loc, arena_printf(e->a, "reads the total of the scan at line %u", n->loc.line));
  line(e, "ADSOAC_CHECK(adsoac_scan_fields(adsoac_ld, adsoac_st, %s, (long long)%s, %s, %s, %s, %s(), %s));",
       keep ? "true" : "false", ref(e, n->u.par.hi), tuple(e, &r, s->init),
       read ? "&adsoac_total" : arena_printf(e->a, "(%s *)NULL", t), s->reverse ? "true" : "false",
       cub_op(e, &r), where(e));
  if (read) scan_total(e, &r, "adsoac_total");
  e->depth--;
  line(e, "}");
}

void emit_scan(Emit *e, const Node *n) {
  emit_scan_cuda(e, n);
}
