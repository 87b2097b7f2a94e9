// emit/emit_scan.c: canonical scans (transform/scan.c): C in chunks with OpenMP, CUDA with
// CUB's device-wide scan.
#include <string.h>

#include "emit_internal.h"

// A canonical scan (transform/scan.c) as a reduction clause, for the operator helpers.
static Red scan_red(const Scan *s) {
  return (Red){.op = s->op, .nf = s->nf, .init = s->init, .out = s->out, .lam = s->lam,
               .user_fn = s->user_fn, .var = s->var};
}

static void check_scan(Emit *e, const Node *n, Val *src, Val *dst) {
  if (!e->host || !scan_canonical(n, src, dst))
    diag_error(n->loc, NULL, "code generation for this scan(...) is not supported yet");
  for (int f = 0; f < n->u.par.scans[0].nf; f++) // (transform/scan.c copies those: in_place)
    IR_ASSERT(!e->f->vals[src[f]].parent && !(dst[f] && e->f->vals[dst[f]].parent));
}

// Element k of the scanned arrays src (one per field) as a value of the scan's type.
static const char *scan_load(Emit *e, const Red *r, const Val *src, const char *k) {
  Buf b = {.arena = e->a};
  if (r->nf > 1) buf_printf(&b, "%s_make(", tup_name(e, r));
  for (int f = 0; f < r->nf; f++) buf_printf(&b, "%s%s", f ? ", " : "", elem_at(e, src[f], k));
  if (r->nf > 1) buf_puts(&b, ")");
  const char *s = arena_strdup(e->a, b.data);
  buf_free(&b);
  return s;
}

// Stores the value v (a variable of the scan's type) as prefix k of the kept fields.
static void scan_store(Emit *e, const Red *r, const Val *dst, const char *k, const char *v) {
  for (int f = 0; f < r->nf; f++) {
    if (!dst[f]) continue;
    if (r->nf == 1)
      line(e, "%s = %s;", elem_at(e, dst[f], k), v);
    else
      line(e, "%s = %s.f%d;", elem_at(e, dst[f], k), v, f);
  }
}

// The total of a scan into its output values (those that are read).
static void scan_total(Emit *e, const Red *r, const char *v) {
  for (int f = 0; f < r->nf; f++)
    if (e->uses[r->out[f]]) line(e, r->nf == 1 ? "%s = %s;" : "%s = %s.f%d;", ref(e, r->out[f]), v, f);
}

static const char *scan_what(Emit *e, const Scan *s, const Val *src) {
  const char *op = s->user_fn ? s->user_fn : redop_name(s->op);
  return s->nf == 1 ? arena_printf(e->a, "%s exclusive scan of %s", op, ref(e, src[0]))
                    : arena_printf(e->a, "%s exclusive scan of (%s, ...)", op, ref(e, src[0]));
}

// C: the loop cut into ADSOAC_CHUNKS contiguous chunks; each chunk's total in parallel, the
// chunks' prefixes in order, then each chunk's elements in parallel (two passes over src).
static void emit_scan_c(Emit *e, const Node *n) {
  Val src[n->u.par.scans[0].nf], dst[n->u.par.scans[0].nf];
  check_scan(e, n, src, dst);
  const Scan *s = &n->u.par.scans[0];
  Red r = scan_red(s);
  if (s->op == RED_USER) emit_user_op(e, n, &r);
  const char *t = red_ctype(e, &r), *xk = scan_load(e, &r, src, "adsoac_k");
  bool rev = s->reverse;
  pragma_comment(e, n);
  bool kept = false;
  for (int f = 0; f < s->nf; f++) kept |= dst[f] != 0;
  line(e, "// %s%s, in %s order", scan_what(e, s, src), kept ? "" : " (its total only)",
       rev ? "reverse" : "index");
  line(e, "{");
  e->depth++;
  line(e, "long long adsoac_n = %s > 0 ? (long long)%s : 0;", ref(e, n->u.par.hi), ref(e, n->u.par.hi));
  line(e, "%s adsoac_part[ADSOAC_CHUNKS];", t);
  line(e, "int adsoac_have[ADSOAC_CHUNKS];");
  buf_puts(e->out, "#pragma omp parallel for\n");
  line(e, "for (int adsoac_c = 0; adsoac_c < ADSOAC_CHUNKS; adsoac_c++) {");
  line(e, "  long long adsoac_a = adsoac_n * adsoac_c / ADSOAC_CHUNKS, adsoac_b = adsoac_n * (adsoac_c + 1) / ADSOAC_CHUNKS;");
  line(e, "  adsoac_have[adsoac_c] = adsoac_a < adsoac_b;");
  line(e, "  if (adsoac_a == adsoac_b) continue;");
  if (!rev) {
    line(e, "  %s adsoac_s = %s;", t, scan_load(e, &r, src, "adsoac_a"));
    line(e, "  for (long long adsoac_k = adsoac_a + 1; adsoac_k < adsoac_b; adsoac_k++)");
    line(e, "    adsoac_s = %s;", combine(e, &r, "adsoac_s", xk));
  } else {
    line(e, "  %s adsoac_s = %s;", t, scan_load(e, &r, src, "adsoac_b - 1"));
    line(e, "  for (long long adsoac_k = adsoac_b - 2; adsoac_k >= adsoac_a; adsoac_k--)");
    line(e, "    adsoac_s = %s;", combine(e, &r, xk, "adsoac_s"));
  }
  line(e, "  adsoac_part[adsoac_c] = adsoac_s;");
  line(e, "}");
  line(e, "%s adsoac_acc = %s;", t, tuple(e, &r, s->init));
  line(e, "for (int adsoac_d = 0; adsoac_d < ADSOAC_CHUNKS; adsoac_d++) {");
  line(e, "  int adsoac_c = %s;", rev ? "ADSOAC_CHUNKS - 1 - adsoac_d" : "adsoac_d");
  line(e, "  %s adsoac_p = adsoac_part[adsoac_c];", t);
  line(e, "  adsoac_part[adsoac_c] = adsoac_acc;");
  line(e, "  if (adsoac_have[adsoac_c]) adsoac_acc = %s;",
       rev ? combine(e, &r, "adsoac_p", "adsoac_acc") : combine(e, &r, "adsoac_acc", "adsoac_p"));
  line(e, "}");
  scan_total(e, &r, "adsoac_acc");
  bool keep = false;
  for (int f = 0; f < s->nf; f++) keep |= dst[f] != 0;
  if (!keep) { // only the total
    e->depth--;
    line(e, "}");
    return;
  }
  buf_puts(e->out, "#pragma omp parallel for\n");
  line(e, "for (int adsoac_c = 0; adsoac_c < ADSOAC_CHUNKS; adsoac_c++) {");
  line(e, "  long long adsoac_a = adsoac_n * adsoac_c / ADSOAC_CHUNKS, adsoac_b = adsoac_n * (adsoac_c + 1) / ADSOAC_CHUNKS;");
  line(e, "  %s adsoac_s = adsoac_part[adsoac_c];", t);
  if (!rev)
    line(e, "  for (long long adsoac_k = adsoac_a; adsoac_k < adsoac_b; adsoac_k++) {");
  else
    line(e, "  for (long long adsoac_k = adsoac_b - 1; adsoac_k >= adsoac_a; adsoac_k--) {");
  e->depth += 2;
  scan_store(e, &r, dst, "adsoac_k", "adsoac_s");
  line(e, "adsoac_s = %s;", rev ? combine(e, &r, xk, "adsoac_s") : combine(e, &r, "adsoac_s", xk));
  e->depth -= 2;
  line(e, "  }");
  line(e, "}");
  e->depth--;
  line(e, "}");
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
    bool read = e->uses[s->out[0]]; // an unread total is not declared: a local receives it
    if (!read) line(e, "{");
    if (!read) line(e, "  %s adsoac_total;", ty);
    line(e, "%sADSOAC_CHECK(adsoac_scan(%s, %s, (long long)%s, %s, &%s, %s, %s(), \"%s\"));",
         read ? "" : "  ", ref(e, src[0]), dst[0] ? ref(e, dst[0]) : arena_printf(e->a, "(%s *)NULL", ty),
         ref(e, n->u.par.hi), ref(e, s->init[0]), read ? ref(e, s->out[0]) : "adsoac_total",
         s->reverse ? "true" : "false", cub_op(e, &r), e->f->name);
    if (!read) line(e, "}");
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
  line(e, "%s adsoac_total;", t);
  bool keep = false;
  for (int f = 0; f < s->nf; f++) keep |= dst[f] != 0;
  line(e, "ADSOAC_CHECK(adsoac_scan_fields(adsoac_ld, adsoac_st, %s, (long long)%s, %s, &adsoac_total, %s, %s(), \"%s\"));",
       keep ? "true" : "false", ref(e, n->u.par.hi), tuple(e, &r, s->init),
       s->reverse ? "true" : "false", cub_op(e, &r), e->f->name);
  scan_total(e, &r, "adsoac_total");
  e->depth--;
  line(e, "}");
}

void emit_scan(Emit *e, const Node *n) {
  if (e->opt->target == TARGET_CUDA)
    emit_scan_cuda(e, n);
  else
    emit_scan_c(e, n);
}
