// tests/unit/test_ir.c: arena, buffers, operator tables, builder, printer, verifier.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ir/ir.h"
#include "transform/transform.h"

static void test_arena(void **state) {
  (void)state;
  Arena *a = arena_new(64); // tiny blocks: many chunks
  char *prev = NULL;
  for (int i = 0; i < 1000; i++) {
    char *s = arena_printf(a, "value %d", i);
    assert_int_equal(strncmp(s, "value ", 6), 0);
    assert_true(s != prev);
    prev = s;
  }
  int *big = ARENA_ARRAY(a, int, 10000);
  for (int i = 0; i < 10000; i++) assert_int_equal(big[i], 0); // zeroed
  arena_free(a);
}

static void test_buf(void **state) {
  (void)state;
  Buf b = {0};
  for (int i = 0; i < 5000; i++) buf_printf(&b, "%d,", i % 10);
  assert_int_equal(b.len, 10000);
  assert_memory_equal(b.data, "0,1,2,", 6);
  buf_free(&b);
  assert_null(b.data);
}

static void test_math_lookup(void **state) {
  (void)state;
  MathFn fn;
  bool f32;
  assert_true(math_lookup("sqrt", &fn, &f32));
  assert_int_equal(fn, M_SQRT);
  assert_false(f32);
  assert_true(math_lookup("atan2f", &fn, &f32));
  assert_int_equal(fn, M_ATAN2);
  assert_true(f32);
  assert_int_equal(math_arity(M_ATAN2), 2);
  assert_false(math_lookup("sqr", &fn, &f32));
  assert_false(math_lookup("expf2", &fn, &f32));
  assert_string_equal(math_name(M_EXP, &ty_float), "expf");
  assert_string_equal(math_name(M_EXP, &ty_double), "exp");
  assert_true(math_lookup("fmaf", &fn, &f32));
  assert_true(fn == M_FMA && f32 && math_arity(M_FMA) == 3);
  assert_true(math_lookup("lgamma", &fn, &f32));
  assert_true(fn == M_LGAMMA && !f32);
  assert_true(math_lookup("copysignf", &fn, &f32));
  assert_true(fn == M_COPYSIGN && f32);
  // the runtime's digamma is for derivatives only: a program's digamma is its own function
  assert_false(math_lookup("adsoac_digamma", &fn, &f32));
  assert_false(math_lookup("adsoac_digammaf", &fn, &f32));
  assert_string_equal(math_name(M_DIGAMMA, &ty_float), "adsoac_digammaf");
}

// fn f(x: double) -> double { t = x * x; if t > 1 { yield t } else { yield 1 }; return }
static void test_build_print_verify(void **state) {
  (void)state;
  Arena *a = arena_new(0);
  Fn *f = fn_new(a, "f", (Loc){"f.c", 1, 1});
  f->ret = &ty_double;
  f->params = ARENA_ARRAY(a, Param, 1);
  f->nparams = 1;
  f->params[0] = (Param){"x", &ty_double, fn_val(f, &ty_double, "x"), {0}, true, false, false, true};
  Builder b = {f, f->body, f->loc};
  Val x = f->params[0].val;
  Val t = b_mul(&b, x, x);
  assert_int_equal(b_mul(&b, t, 0), 0); // a zero adjoint stays zero
  assert_int_equal(b_add(&b, 0, t), t);
  Val one = b_const_f(&b, &ty_double, 1.0);
  Val c = b_binop(&b, BIN_GT, t, one);
  assert_ptr_equal(val_type(f, c), &ty_int);
  Node *n = node_new(a, IR_IF, f->loc);
  n->u.ifs.cond = c;
  n->u.ifs.then = block_new(a);
  n->u.ifs.els = block_new(a);
  block_yield(a, n->u.ifs.then, t);
  block_yield(a, n->u.ifs.els, one);
  n->u.ifs.nouts = 1;
  n->u.ifs.outs = ARENA_ARRAY(a, Val, 1);
  n->u.ifs.outs[0] = fn_val(f, &ty_double, "r");
  b_push(&b, n);
  Node *r = node_new(a, IR_RETURN, f->loc);
  r->u.ret.v = n->u.ifs.outs[0];
  b_push(&b, r);
  ir_verify(f, "unit"); // exits on failure
  Buf out = {0};
  ir_print_fn(f, &out);
  assert_non_null(strstr(out.data, "fn f(x.1: double) -> double {"));
  assert_non_null(strstr(out.data, "t.2: double = x.1 * x.1"));
  assert_non_null(strstr(out.data, "r.5 = if t.4 {"));
  assert_non_null(strstr(out.data, "return r.5"));
  buf_free(&out);
  arena_free(a);
}

// simplify_fold: a comparison of a value with itself is constant (c < c: 0, c == c: 1), a
// logical and/or of a value with itself is not (c && c is c != 0: it was folded to 0)
static void test_fold_self(void **state) {
  (void)state;
  Arena *a = arena_new(0);
  Fn *f = fn_new(a, "g", (Loc){"g.c", 1, 1});
  f->ret = &ty_int;
  f->params = ARENA_ARRAY(a, Param, 1);
  f->nparams = 1;
  f->params[0] = (Param){"x", &ty_int, fn_val(f, &ty_int, "x"), {0}, false, false, false, false};
  Builder b = {f, f->body, f->loc};
  Val c = b_binop(&b, BIN_LT, f->params[0].val, b_const_i(&b, &ty_int, 1));
  Val lt = b_binop(&b, BIN_LT, c, c), eq = b_binop(&b, BIN_EQ, c, c);
  Val land = b_binop(&b, BIN_LAND, c, c), lor = b_binop(&b, BIN_LOR, c, c);
  Val s = b_add(&b, b_add(&b, lt, eq), b_add(&b, land, lor));
  Node *r = node_new(a, IR_RETURN, f->loc);
  r->u.ret.v = s;
  b_push(&b, r);
  simplify_fold(f);
  Node *def[64] = {0};
  for (int i = 0; i < f->body->n; i++)
    if (f->body->stmts[i]->out) def[f->body->stmts[i]->out] = f->body->stmts[i];
  assert_int_equal(def[lt]->kind, IR_CONST);
  assert_int_equal(def[lt]->u.cst.i, 0);
  assert_int_equal(def[eq]->kind, IR_CONST);
  assert_int_equal(def[eq]->u.cst.i, 1);
  assert_int_equal(def[land]->kind, IR_BINOP);
  assert_int_equal(def[lor]->kind, IR_BINOP);
  arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arena),
      cmocka_unit_test(test_buf),
      cmocka_unit_test(test_math_lookup),
      cmocka_unit_test(test_build_print_verify),
      cmocka_unit_test(test_fold_self),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
