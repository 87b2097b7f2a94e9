// tests/unit/test_runtime_host.c: the host runtime embedded into C-target output: the error
// state (first error wins, clear, per-thread) and checked allocation.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

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
  adsoac_host_free(NULL);
  adsoac_clear_error();
  assert_int_equal(adsoac_host_alloc(&p, (size_t)-1 / 2, "f"), 1); // cannot succeed
  assert_null(p);
  assert_non_null(adsoac_last_error());
  adsoac_clear_error();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_error_state),
      cmocka_unit_test(test_host_alloc),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
