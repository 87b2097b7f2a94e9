// tests/unit/test_depend.c: the map dependence check (analysis/depend.c) on IR built by hand:
// which access patterns a map may have, and which access shows the dependence otherwise.
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
  Val i, k, n; // loop index; invariant params
  Val x, y, perm;
  Access acc[16];
  int nacc;
  Val inj[4];
  int ninj;
} T;

static T setup(void) {
  T t = {arena_new(0)};
  t.f = fn_new(t.a, "f", (Loc){0});
  t.k = fn_val(t.f, &ty_int, "k");
  t.n = fn_val(t.f, &ty_int, "n");
  t.x = fn_val(t.f, ty_ptr(t.a, &ty_double, true), "x");
  t.y = fn_val(t.f, ty_ptr(t.a, &ty_double, false), "y");
  t.perm = fn_val(t.f, ty_ptr(t.a, &ty_int, true), "perm");
  t.i = fn_val(t.f, &ty_int, "i");
  t.b = (Builder){t.f, t.f->body, (Loc){0}};
  return t;
}

static Val c(T *t, long long v) {
  return b_const_i(&t->b, &ty_int, v);
}

static void access(T *t, Val arr, Val idx, bool write) {
  t->acc[t->nacc] = (Access){arr, idx, write, (Loc){.line = (unsigned)t->nacc + 1}};
  t->nacc++;
}

// Everything built so far is inside the loop, except the parameters; then the check.
static Dep check(T *t) {
  Node **def = ARENA_ARRAY(t->a, Node *, t->f->nvals);
  ir_defs(t->f->body, def);
  unsigned char *inside = ARENA_ARRAY(t->a, unsigned char, t->f->nvals);
  ir_inside(t->f->body, inside);
  inside[t->i] = 1;
  return map_dependence(def, inside, t->f->body, t->i, t->acc, t->nacc, t->inj, t->ninj);
}

#define assert_dep(d, k, wi, oi)                                                                   \
  do {                                                                                             \
    Dep d_ = (d);                                                                                  \
    assert_int_equal(d_.kind, (k));                                                                \
    assert_int_equal(d_.w, (wi));                                                                  \
    assert_int_equal(d_.other, (oi));                                                              \
  } while (0)

// The index forms of test_independent, built afresh on each call.
static Val form_index(T *t, int form) {
  Builder *b = &t->b;
  switch (form) {
  case 0: return t->i;
  case 1: return b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, c(t, 2), t->i), c(t, 1));
  case 2: return b_binop(b, BIN_SUB, b_binop(b, BIN_SUB, t->n, c(t, 1)), t->i);
  default: return b_binop(b, BIN_ADD, t->i, t->k);
  }
}

// y[i], y[2*i + 1], y[n - 1 - i], y[i + k] read and then written, each access through its own
// copy of the expression, and reads of another array at any index: independent.
static void test_independent(void **state) {
  (void)state;
  const char *names[] = {"i", "2*i + 1", "n - 1 - i", "i + k"};
  for (int form = 0; form < 4; form++) {
    T t = setup();
    access(&t, t.x, b_binop(&t.b, BIN_ADD, t.i, c(&t, 7)), false); // another array
    access(&t, t.y, form_index(&t, form), false); // read before the write, same element
    access(&t, t.y, form_index(&t, form), true);
    if (check(&t).kind != DEP_NONE) fail_msg("y[%s] should be independent", names[form]);
    arena_free(t.a);
  }
}

// y[0] = ... (every iteration the same element), y[i*k], y[perm[i]]: not shown injective.
static void test_not_injective(void **state) {
  (void)state;
  for (int form = 0; form < 3; form++) {
    T t = setup();
    Builder *b = &t.b;
    Val idx = form == 0   ? c(&t, 0)
              : form == 1 ? b_binop(b, BIN_MUL, t.i, t.k)
                          : b_read(b, t.perm, t.i);
    access(&t, t.x, t.i, false);
    access(&t, t.y, idx, true);
    assert_dep(check(&t), DEP_NOT_INJECTIVE, 1, 1);
    arena_free(t.a);
  }
}

// injective(y) admits y[perm[i]], but every access of y must still use that expression.
static void test_asserted(void **state) {
  (void)state;
  T t = setup();
  Val p = b_read(&t.b, t.perm, t.i);
  access(&t, t.y, p, true);
  t.inj[t.ninj++] = t.y;
  assert_dep(check(&t), DEP_NONE, -1, -1);
  access(&t, t.y, t.i, false); // y[i] read besides y[perm[i]] written
  assert_dep(check(&t), DEP_OTHER_INDEX, 0, 1);
  t.inj[0] = t.x; // an assertion about another array does not help y
  t.nacc = 1;
  assert_dep(check(&t), DEP_NOT_INJECTIVE, 0, 0);
  arena_free(t.a);
}

// y[i] written and y[i + 1] read (a neighbour), or written twice at different elements.
static void test_other_index(void **state) {
  (void)state;
  T t = setup();
  Val next = b_binop(&t.b, BIN_ADD, t.i, c(&t, 1));
  access(&t, t.y, next, false);
  access(&t, t.y, t.i, true);
  assert_dep(check(&t), DEP_OTHER_INDEX, 1, 0);
  T u = setup();
  Builder *b = &u.b;
  Val two_i = b_binop(b, BIN_MUL, c(&u, 2), u.i);
  access(&u, u.y, two_i, true);
  access(&u, u.y, b_binop(b, BIN_ADD, two_i, c(&u, 1)), true); // independent, yet refused
  assert_dep(check(&u), DEP_OTHER_INDEX, 0, 1);
  arena_free(t.a);
  arena_free(u.a);
}

// A read of the element after it was written in the same iteration (not forwarded); a read
// before the write is fine.
static void test_read_back(void **state) {
  (void)state;
  T t = setup();
  access(&t, t.y, t.i, true);
  access(&t, t.x, t.i, false);
  access(&t, t.y, t.i, false);
  assert_dep(check(&t), DEP_READ_BACK, 0, 2);
  t.acc[0].write = false;
  t.acc[2].write = true;
  assert_dep(check(&t), DEP_NONE, -1, -1);
  arena_free(t.a);
}

// No accesses, only reads, the first of several problems.
static void test_edges(void **state) {
  (void)state;
  T t = setup();
  assert_dep(check(&t), DEP_NONE, -1, -1);
  access(&t, t.x, c(&t, 0), false);
  access(&t, t.x, t.i, false);
  assert_dep(check(&t), DEP_NONE, -1, -1); // reads alone never conflict
  access(&t, t.y, c(&t, 3), true);
  access(&t, t.x, t.i, true); // x read at 0 and written at i: reported after y's problem
  assert_dep(check(&t), DEP_NOT_INJECTIVE, 2, 2);
  t.nacc = 2;
  access(&t, t.x, t.i, true);
  assert_dep(check(&t), DEP_OTHER_INDEX, 2, 0);
  arena_free(t.a);
}

// A parallel loop over [lo, hi) in the body; returns its index.
static Val nested(T *t, Val lo, Val hi) {
  Node *p = node_new(t->a, IR_PAR, (Loc){0});
  p->u.par.lo = lo;
  p->u.par.hi = hi;
  p->u.par.idx = fn_val(t->f, &ty_int, "j");
  p->u.par.body = block_new(t->a);
  b_push(&t->b, p);
  return p->u.par.idx;
}

// A[i*k + j] and A[j + k*i] with j over [0, k) in a nested loop: rows of a matrix, proved
// independent; with j over [0, n), from 1, A[i + j] or A[i*n + j]: not.
static void test_row_major(void **state) {
  (void)state;
  for (int form = 0; form < 6; form++) {
    T t = setup();
    Builder *b = &t.b;
    Val zero = c(&t, 0);
    Val j = nested(&t, form == 3 ? c(&t, 1) : zero, form == 2 ? t.n : t.k);
    Val idx = form == 1   ? b_binop(b, BIN_ADD, j, b_binop(b, BIN_MUL, t.k, t.i))
              : form == 4 ? b_binop(b, BIN_ADD, t.i, j)
              : form == 5 ? b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, t.i, t.n), j)
                          : b_binop(b, BIN_ADD, b_binop(b, BIN_MUL, t.i, t.k), j);
    access(&t, t.y, idx, true);
    DepKind want = form <= 1 ? DEP_NONE : DEP_NOT_INJECTIVE;
    if (check(&t).kind != want) fail_msg("row-major form %d: wrong verdict", form);
    arena_free(t.a);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_independent), cmocka_unit_test(test_not_injective),
      cmocka_unit_test(test_asserted),    cmocka_unit_test(test_other_index),
      cmocka_unit_test(test_read_back),   cmocka_unit_test(test_edges),
      cmocka_unit_test(test_row_major),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
