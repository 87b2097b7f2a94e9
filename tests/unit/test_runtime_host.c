// tests/unit/test_runtime_host.c: the host runtime embedded into C-target output: the error
// state (first error wins, clear, per-thread), checked allocation, adjoint windows.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include <cmocka.h>

#define ADSOAC_WINDOW_MAX 200 // (small: the window stops growing in test_windows)
#include "runtime/src/rt_common.h"
#include "runtime/src/rt_host.h"
#include "runtime/include/adsoac.h"

static void test_error_state(void **state) {
  (void)state;
  adsoac_clear_error();
  assert_null(adsoac_last_error());
  assert_int_equal(adsoac_fail_("f_vjp", "out of %s", "memory"), 1);
  assert_string_equal(adsoac_last_error(), "f_vjp: out of memory");
  adsoac_fail_("g", "second");
  assert_string_equal(adsoac_last_error(), "f_vjp: out of memory"); // the first one stays
  adsoac_clear_error();
  assert_null(adsoac_last_error());
}

static void test_host_alloc(void **state) {
  (void)state;
  void *p = NULL;
  assert_int_equal(adsoac_host_alloc(&p, 64, "f"), 0);
  for (int i = 0; i < 64; i++) assert_int_equal(((unsigned char *)p)[i], 0);
  adsoac_host_free(p);
  // a large block comes back from the cache, zeroed again
  size_t big = (size_t)3 << 20;
  void *q = NULL;
  assert_int_equal(adsoac_host_alloc(&q, big, "f"), 0);
  memset(q, 0xab, big);
  adsoac_host_free(q);
  void *r = NULL;
  assert_int_equal(adsoac_host_alloc(&r, big - 100, "f"), 0);
  assert_ptr_equal(r, q);
  for (size_t i = 0; i < big - 100; i += 4093) assert_int_equal(((unsigned char *)r)[i], 0);
  assert_int_equal(((unsigned char *)r)[big - 101], 0);
  void *s = NULL; // a second one while the first is in use: fresh memory
  assert_int_equal(adsoac_host_alloc(&s, big, "f"), 0);
  assert_ptr_not_equal(s, r);
  adsoac_host_free(r);
  adsoac_host_free(s);
  // an unzeroed block (transform/zero.c) goes back to the cache dirty and comes out of it
  // zeroed for a zeroing allocation, small or large
  for (int k = 0; k < 2; k++) {
    size_t n = k ? big : 48;
    void *u = NULL, *z = NULL;
    assert_int_equal(adsoac_host_alloc_raw(&u, n, "f"), 0);
    assert_non_null(u);
    memset(u, 0xcd, n);
    adsoac_host_free(u);
    assert_int_equal(adsoac_host_alloc(&z, n, "f"), 0);
    assert_ptr_equal(z, u);
    for (size_t i = 0; i < n; i += k ? 4093 : 1) assert_int_equal(((unsigned char *)z)[i], 0);
    assert_int_equal(((unsigned char *)z)[n - 1], 0);
    adsoac_host_free(z);
  }
  adsoac_host_free(NULL);
  adsoac_clear_error();
  assert_int_equal(adsoac_host_alloc(&p, (size_t)-1 / 2, "f"), 1); // cannot succeed
  assert_null(p);
  assert_non_null(adsoac_last_error());
  adsoac_clear_error();
}

// A thread's window of an adjoint array (rt_host.h): it grows down and up, and far, up to
// ADSOAC_WINDOW_MAX elements; beyond, adding fails (the caller adds atomically); the merge
// adds only the elements updates reached, into a plain array and into a field of structs.
static void test_windows(void **state) {
  (void)state;
  AdsoacWins *ws = adsoac_wins_new();
  assert_non_null(ws);
  assert_int_equal(ws->nt, 1); // (no OpenMP here)
  AdsoacWin *w = adsoac_win_mine(ws);
  double a[400] = {0};
  assert_true(adsoac_win_add_d(w, 100, 1.0));
  assert_true(adsoac_win_add_d(w, 100, 0.5));
  assert_true(adsoac_win_add_d(w, 60, 2.0));  // below the first window
  assert_true(adsoac_win_add_d(w, 150, 3.0)); // above it
  assert_true(w->n <= ADSOAC_WINDOW_MAX);
  assert_false(adsoac_win_add_d(w, 399, 4.0)); // beyond what the window may hold
  assert_true(w->full);
  assert_true(adsoac_win_add_d(w, 101, -1.0)); // inside: still added
  assert_true(adsoac_win_add_d(w, 102, 1.0));
  assert_true(adsoac_win_add_d(w, 102, -1.0)); // a total of 0: not merged
  assert_false(adsoac_win_add_d(NULL, 5, 1.0)); // no window (allocation failed)
  for (int k = 0; k < 400; k++) a[k] = -0.0;
  adsoac_wins_merge_d(ws, a, sizeof *a);
  for (int k = 0; k < 400; k++) {
    double want = k == 100 ? 1.5 : k == 60 ? 2.0 : k == 150 ? 3.0 : k == 101 ? -1.0 : 0.0;
    assert_true(a[k] == want);
    if (want == 0.0) assert_true(signbit(a[k])); // never touched
  }
  adsoac_wins_free(ws);
  struct S { int tag; float x; double y; } s[50];
  for (int k = 0; k < 50; k++) s[k] = (struct S){7, 1.0f, 2.0};
  AdsoacWins *wf = adsoac_wins_new();
  assert_true(adsoac_win_add_f(adsoac_win_mine(wf), 3, 0.25f));
  assert_true(adsoac_win_add_f(adsoac_win_mine(wf), 49, 0.5f));
  adsoac_wins_merge_f(wf, &s[0].x, sizeof *s);
  adsoac_wins_free(wf);
  for (int k = 0; k < 50; k++) {
    assert_int_equal(s[k].tag, 7);
    assert_true(s[k].y == 2.0);
    assert_true(s[k].x == (k == 3 ? 1.25f : k == 49 ? 1.5f : 1.0f));
  }
}

// The iterations' scratch: zeroed arrays, freed in any order, the memory reused; a request
// that does not fit is calloc'd, and the block grows to the peak once it is empty.
static void test_scratch_stack(void **state) {
  (void)state;
  AdsoacStk s = {0};
  for (int it = 0; it < 3; it++) { // three "iterations" of the same demand
    double *a = adsoac_stk_calloc(&s, 10, sizeof *a);
    int *b = adsoac_stk_calloc(&s, 3, sizeof *b);
    double *c = adsoac_stk_calloc(&s, 7, sizeof *c);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    for (int k = 0; k < 10; k++) assert_true(a[k] == 0.0);
    for (int k = 0; k < 3; k++) assert_int_equal(b[k], 0);
    for (int k = 0; k < 7; k++) assert_true(c[k] == 0.0);
    assert_int_equal((uintptr_t)a % 16, 0);
    assert_int_equal((uintptr_t)c % 16, 0);
    for (int k = 0; k < 10; k++) a[k] = 1.0 + k;
    for (int k = 0; k < 7; k++) c[k] = -1.0;
    b[2] = 5;
    for (int k = 0; k < 10; k++) assert_true(a[k] == 1.0 + k); // (no overlap)
    if (it) { // the block holds all three from the second iteration on
      assert_true((char *)a >= s.base && (char *)c < s.base + s.cap);
      assert_true(s.top > 0);
    }
    adsoac_stk_free(&s, a); // out of order: a waits under b and c
    assert_true(!it || s.top > 0);
    adsoac_stk_free(&s, c);
    adsoac_stk_free(&s, b);
    adsoac_stk_free(&s, NULL);
    assert_int_equal(s.top, 0);
    assert_int_equal(s.need, 0);
  }
  size_t cap = s.cap;
  double *small = adsoac_stk_calloc(&s, 4, sizeof *small);
  size_t top = s.top;
  double *big = adsoac_stk_calloc(&s, 100000, sizeof *big); // more than it holds: calloc'd
  assert_non_null(big);
  assert_int_equal(s.top, top);
  assert_int_equal(s.cap, cap);
  big[99999] = 1.0;
  adsoac_stk_free(&s, big);
  adsoac_stk_free(&s, small);
  assert_int_equal(s.top, 0);
  double *again = adsoac_stk_calloc(&s, 100000, sizeof *again); // grown (it was empty)
  assert_true(s.cap > cap);
  assert_true((char *)again >= s.base && (char *)again < s.base + s.cap);
  assert_true(again[99999] == 0.0);
  adsoac_stk_free(&s, again);
  assert_null(adsoac_stk_calloc(&s, (size_t)-1 / 4, 8)); // (too large: NULL, as calloc)
  assert_int_equal(s.need, 0);
  adsoac_stk_release(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_error_state),
      cmocka_unit_test(test_host_alloc),
      cmocka_unit_test(test_windows),
      cmocka_unit_test(test_scratch_stack),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
