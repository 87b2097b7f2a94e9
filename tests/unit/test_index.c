// tests/unit/test_index.c: the index analysis (analysis/index.c): affine forms in a loop
// index, invariance, and structural sameness, on IR built by hand.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"

typedef struct {
  Arena *a;
  Fn *f;
  Builder b;
  Val i, m, n;          // loop index; invariant params
  Val x;                // an array
  unsigned char *inside;
  Node **def;
} T;

static T setup(void) {
  T t = {arena_new(0)};
  t.f = fn_new(t.a, "f", (Loc){0});
  t.m = fn_val(t.f, &ty_int, "m");
  t.n = fn_val(t.f, &ty_int, "n");
  t.x = fn_val(t.f, ty_ptr(t.a, &ty_int, true), "x");
  t.i = fn_val(t.f, &ty_int, "i");
  t.b = (Builder){t.f, t.f->body, (Loc){0}};
  return t;
}

// Everything built so far is "inside" the loop, except the parameters and i itself.
static void analyse(T *t) {
  t->def = ARENA_ARRAY(t->a, Node *, t->f->nvals);
  ir_defs(t->f->body, t->def);
  t->inside = ARENA_ARRAY(t->a, unsigned char, t->f->nvals);
  for (int v = 0; v < t->f->nvals; v++) t->inside[v] = t->def[v] != NULL;
  t->inside[t->i] = 1;
}

static Val k(T *t, long long c) {
  return b_const_i(&t->b, &ty_int, c);
}

static void test_affine(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  Val two_i_1 = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, k(&t, 2), t.i), k(&t, 1)); // 2*i + 1
  Val rev = b_binop(b, BIN_SUB, b_binop(b, BIN_SUB, t.n, k(&t, 1)), t.i);             // n-1-i
  Val shifted = b_binop(b, BIN_ADD, t.i, t.m);                                       // i + m
  Val i_times_m = b_binop(b, BIN_MUL, t.i, t.m);                                     // i*m
  Val same = b_binop(b, BIN_SUB, t.i, t.i);                                          // i - i
  Val indirect = b_read(b, t.x, t.i);                                                // x[i]
  Val widened = b_cast(b, &ty_long, two_i_1);
  analyse(&t);
  IndexForm f = index_form(t.def, t.inside, two_i_1, t.i);
  assert_true(f.affine);
  assert_int_equal(f.coef, 2);
  f = index_form(t.def, t.inside, rev, t.i);
  assert_true(f.affine);
  assert_int_equal(f.coef, -1);
  f = index_form(t.def, t.inside, shifted, t.i);
  assert_true(f.affine);
  assert_int_equal(f.coef, 1);
  assert_false(index_form(t.def, t.inside, i_times_m, t.i).affine); // coefficient not constant
  f = index_form(t.def, t.inside, same, t.i);
  assert_true(f.affine);
  assert_int_equal(f.coef, 0); // affine, but every iteration writes the same element
  assert_false(index_form(t.def, t.inside, indirect, t.i).affine);
  assert_int_equal(index_form(t.def, t.inside, widened, t.i).coef, 2);
  arena_free(t.a);
}

static void test_invariant(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  Val mm = b_binop(b, BIN_MUL, t.m, t.m);
  Val plus_i = b_binop(b, BIN_ADD, mm, t.i);
  Val read = b_read(b, t.x, k(&t, 0));
  analyse(&t);
  assert_true(index_invariant(t.def, t.inside, mm, t.i));
  assert_true(index_invariant(t.def, t.inside, t.n, t.i));
  assert_false(index_invariant(t.def, t.inside, plus_i, t.i));
  assert_false(index_invariant(t.def, t.inside, read, t.i)); // the array may change
  arena_free(t.a);
}

static void test_same(void **state) {
  (void)state;
  T t = setup();
  Builder *b = &t.b;
  Val a1 = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, k(&t, 2), t.i), k(&t, 1));
  Val a2 = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, k(&t, 2), t.i), k(&t, 1));
  Val a3 = b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, k(&t, 2), t.i), k(&t, 2));
  Val r1 = b_read(b, t.x, t.i), r2 = b_read(b, t.x, t.i);
  analyse(&t);
  assert_true(index_same(t.def, a1, a2));
  assert_false(index_same(t.def, a1, a3));
  assert_false(index_same(t.def, r1, r2)); // two reads: the array may change in between
  arena_free(t.a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_affine),
      cmocka_unit_test(test_invariant),
      cmocka_unit_test(test_same),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
