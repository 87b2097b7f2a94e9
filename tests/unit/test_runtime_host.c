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
  free(p);
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
