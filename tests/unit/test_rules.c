// tests/unit/test_rules.c: each derivative rule on its own (issue 17).  A small marked
// function goes through the front end and the lowering before differentiation (distribute,
// lower-scans); then the classifier's choice is checked, and one mode (ad_vjp or ad_jvp) runs
// alone, its IR compared with tests/unit/rules/NAME.{vjp,jvp}.ir.  Numbers are checked end to
// end (tests/e2e); this shows what each rule builds, and a change to it, in a few lines.
//
//   test_rules DIR           compare with the files in DIR
//   ADSOAC_UPDATE_GOLDEN=1   rewrite them instead (then read the diff)
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ad/ad.h"
#include "analysis/analysis.h"
#include "parser/parser.h"
#include "transform/transform.h"

static const char *golden_dir;

// The marked function of text after the passes that precede differentiation.
static Fn *primal_of(Arena *a, const char *name, const char *text) {
  Src *src = ARENA_NEW(a, Src);
  src->path = arena_printf(a, "%s.c", name);
  src->text = text;
  src->len = strlen(text);
  diag_set_source(src);
  Prog *p = parse_program(a, src, NULL);
  assert_int_equal(p->nmarked, 1);
  Fn *f = p->marked[0].primal;
  simplify_fold(f);
  simplify_dce(f);
  distribute_loops(f);
  lower_scans(f, false);
  ir_verify(f, "test");
  return f;
}

// Reverse mode's copy of f, its sequential loops strip-mined (as the pipeline does).
static Fn *mined(Arena *a, Fn *f) {
  bool loops = false;
  for (int k = 0; k < f->body->n; k++) loops |= f->body->stmts[k]->kind == IR_LOOP;
  if (!loops) return f;
  Fn *g = fn_copy(a, f);
  stripmine_loops(g, 0);
  return g;
}

// The first parallel loop of f's body with a clause (reduce, scan or hist).
static const Node *first_clause_loop(const Fn *f) {
  for (int i = 0; i < f->body->n; i++) {
    const Node *n = f->body->stmts[i];
    if (n->kind == IR_PAR && (n->u.par.nreds || n->u.par.nscans || n->u.par.nhists)) return n;
  }
  return NULL;
}

static char *read_all(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  rewind(fp);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, fp);
  s[got] = 0;
  fclose(fp);
  return s;
}

static void check_golden(const char *name, const char *mode, const Buf *out) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%s.ir", golden_dir, name, mode);
  const char *update = getenv("ADSOAC_UPDATE_GOLDEN");
  if (update && *update == '1') {
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fwrite(out->data, 1, out->len, fp);
    fclose(fp);
    return;
  }
  char *want = read_all(path);
  if (!want) fail_msg("no %s (ADSOAC_UPDATE_GOLDEN=1 writes it)", path);
  if (strlen(want) != out->len || memcmp(want, out->data, out->len)) {
    fprintf(stderr, "---- %s: expected\n%s---- got\n%.*s----\n", path, want, (int)out->len,
            out->data);
    free(want);
    fail_msg("%s differs", path);
  }
  free(want);
}

// One rule: its source, what its first clause loop's classifier must say (-1: no clause),
// and which modes run.
typedef struct {
  const char *name, *text;
  int rule; // Rule of the first clause, or -1
} Case;

static Rule classify(const Node *n) {
  if (n->u.par.nreds) return reduce_rule(&n->u.par.reds[0], false);
  if (n->u.par.nscans) return scan_rule(&n->u.par.scans[0], false);
  return hist_rule(&n->u.par.hists[0], false);
}

static void run_case(const Case *c) {
  Arena *a = arena_new(0);
  Fn *f = primal_of(a, c->name, c->text);
  const Node *loop = first_clause_loop(f);
  if (c->rule < 0) {
    assert_null(loop);
  } else {
    assert_non_null(loop);
    assert_int_equal(classify(loop), c->rule);
  }
  const char *modes[2] = {"vjp", "jvp"};
  for (int m = 0; m < 2; m++) {
    AdCtx *cx = ad_new(a, false);
    Fn *d = m == 0 ? ad_vjp(cx, mined(a, f)) : ad_jvp(cx, f);
    ad_free(cx);
    ir_verify(d, modes[m]);
    Buf out = {0};
    ir_print_fn(d, &out);
    check_golden(c->name, modes[m], &out);
    free(out.data);
  }
  arena_free(a);
}

#define CASE(NAME, RULE, ...)                                                                \
  static void test_##NAME(void **state) {                                                    \
    (void)state;                                                                             \
    static const Case c = {#NAME, __VA_ARGS__, RULE};                                        \
    run_case(&c);                                                                            \
  }

// map: reads at the loop index are plain updates of their adjoints; the read of w[0], the
// same element in every iteration, is summed by a reduction of the reverse loop.
CASE(map, -1,
     "#pragma adsoac grad\n"
     "void f(int n, const double *x, const double *w, double *y) {\n"
     "#pragma adsoac map\n"
     "  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] + w[0];\n"
     "}\n")

CASE(map_gather, -1, // a read at another index: an atomic update (a scatter-add)
     "#pragma adsoac grad\n"
     "void f(int n, const double *x, const int *p, double *y) {\n"
     "#pragma adsoac map\n"
     "  for (int i = 0; i < n; i++) y[i] = x[p[i]];\n"
     "}\n")

CASE(reduce_add, RULE_ADD,
     "#pragma adsoac grad\n"
     "double f(int n, const double *x) {\n"
     "  double s = 0.0;\n"
     "#pragma adsoac reduce(+: s)\n"
     "  for (int i = 0; i < n; i++) s += x[i];\n"
     "  return s;\n"
     "}\n")

CASE(reduce_mul, RULE_MUL,
     "#pragma adsoac grad\n"
     "double f(int n, const double *x) {\n"
     "  double p = 1.0;\n"
     "#pragma adsoac reduce(*: p)\n"
     "  for (int i = 0; i < n; i++) p *= x[i];\n"
     "  return p;\n"
     "}\n")

CASE(reduce_max, RULE_MINMAX,
     "#include <math.h>\n"
     "#pragma adsoac grad\n"
     "double f(int n, const double *x) {\n"
     "  double m = -INFINITY;\n"
     "#pragma adsoac reduce(max: m)\n"
     "  for (int i = 0; i < n; i++) m = fmax(m, x[i]);\n"
     "  return m;\n"
     "}\n")

#define LSE                                                                                  \
  "#include <math.h>\n"                                                                      \
  "static double lse_inv(double a, double b) { return a + log1p(-exp(b - a)); }\n"           \
  "#pragma adsoac operator neutral(-INFINITY) commutative inverse(lse_inv)\n"                \
  "static double lse(double a, double b) {\n"                                                \
  "  double m = fmax(a, b);\n"                                                               \
  "  return m + log(exp(a - m) + exp(b - m));\n"                                             \
  "}\n"
#define NORM2                                                                                \
  "#include <math.h>\n"                                                                      \
  "#pragma adsoac operator neutral(0.0) commutative\n"                                       \
  "static double norm2(double a, double b) { return sqrt(a * a + b * b); }\n"

CASE(reduce_invertible, RULE_INVERTIBLE,
     LSE "#pragma adsoac grad\n"
     "double f(int n, const double *x) {\n"
     "  double s = -INFINITY;\n"
     "#pragma adsoac reduce(lse: s)\n"
     "  for (int i = 0; i < n; i++) s = lse(s, x[i]);\n"
     "  return s;\n"
     "}\n")

// no inverse: the general rule, a scan (lower-scans made it one before differentiation)
CASE(reduce_general, RULE_GENERAL,
     NORM2 "#pragma adsoac grad\n"
     "double f(int n, const double *x) {\n"
     "  double s = 0.0;\n"
     "#pragma adsoac reduce(norm2: s)\n"
     "  for (int i = 0; i < n; i++) s = norm2(s, x[i]);\n"
     "  return s;\n"
     "}\n")

CASE(scan_add, RULE_ADD,
     "#pragma adsoac grad\n"
     "double f(int n, const double *x, double *y) {\n"
     "  double s = 0.0;\n"
     "#pragma adsoac scan(+: s)\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    y[i] = s;\n"
     "    s += x[i];\n"
     "  }\n"
     "  return s;\n"
     "}\n")

CASE(scan_general, RULE_GENERAL,
     "#pragma adsoac grad\n"
     "double f(int n, const double *x, double *y) {\n"
     "  double p = 1.0;\n"
     "#pragma adsoac scan(*: p)\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    y[i] = p;\n"
     "    p *= x[i];\n"
     "  }\n"
     "  return p;\n"
     "}\n")

#define HIST(OP, INIT, UPDATE, ...)                                                          \
  __VA_ARGS__ "#pragma adsoac grad\n"                                                        \
              "void f(int n, int k, const int *b, const double *x, double *h) {\n"           \
              "#pragma adsoac hist(" OP ": h[0:k])\n"                                        \
              "  for (int i = 0; i < n; i++) " UPDATE ";\n"                                  \
              "}\n"

CASE(hist_add, RULE_ADD, HIST("+", "", "h[b[i]] += x[i]", ""))
CASE(hist_mul, RULE_MUL, HIST("*", "", "h[b[i]] *= x[i]", ""))
CASE(hist_min, RULE_MINMAX, HIST("min", "", "h[b[i]] = fmin(h[b[i]], x[i])", "#include <math.h>\n"))
CASE(hist_invertible, RULE_INVERTIBLE, HIST("lse", "", "h[b[i]] = lse(h[b[i]], x[i])", LSE))
CASE(hist_general, RULE_GENERAL, HIST("norm2", "", "h[b[i]] = norm2(h[b[i]], x[i])", NORM2))

// a sequential loop: checkpoints of what each step overwrites, the steps reversed
CASE(loop, -1,
     "#pragma adsoac grad\n"
     "void f(int n, int steps, double *u, double *v) {\n"
     "  for (int t = 0; t < steps; t++) {\n"
     "#pragma adsoac map\n"
     "    for (int i = 1; i < n - 1; i++) v[i] = u[i - 1] * u[i + 1];\n"
     "#pragma adsoac map\n"
     "    for (int i = 1; i < n - 1; i++) u[i] = v[i];\n"
     "  }\n"
     "}\n")

// the classifier under --general-rule: every combinator by its general rule
static void test_general_flag(void **state) {
  (void)state;
  Red red = {.op = RED_MUL, .nf = 1};
  Scan sc = {.op = RED_ADD, .nf = 1};
  Hist h = {.op = RED_MIN};
  assert_int_equal(reduce_rule(&red, true), RULE_GENERAL);
  assert_int_equal(scan_rule(&sc, true), RULE_GENERAL);
  assert_int_equal(hist_rule(&h, true), RULE_GENERAL);
  Red user = {.op = RED_USER, .nf = 1, .commutative = false};
  assert_int_equal(reduce_rule(&user, false), RULE_GENERAL); // not commutative, no inverse
}

int main(int argc, char **argv) {
  golden_dir = argc > 1 ? argv[1] : "tests/unit/rules";
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_map),          cmocka_unit_test(test_map_gather),
      cmocka_unit_test(test_reduce_add),   cmocka_unit_test(test_reduce_mul),
      cmocka_unit_test(test_reduce_max),   cmocka_unit_test(test_reduce_invertible),
      cmocka_unit_test(test_reduce_general), cmocka_unit_test(test_scan_add),
      cmocka_unit_test(test_scan_general), cmocka_unit_test(test_hist_add),
      cmocka_unit_test(test_hist_mul),     cmocka_unit_test(test_hist_min),
      cmocka_unit_test(test_hist_invertible), cmocka_unit_test(test_hist_general),
      cmocka_unit_test(test_loop),         cmocka_unit_test(test_general_flag),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
