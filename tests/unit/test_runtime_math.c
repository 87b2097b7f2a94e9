// tests/unit/test_runtime_math.c: the math functions of the runtime (rt_math.h) that the
// derivatives of lgamma and tgamma call: digamma against values computed with mpmath at 40
// digits (mpmath.digamma of the double nearest each x).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "runtime/src/rt_math.h"

static const struct {
  double x, psi;
} ref[] = {
    {1, -0.5772156649015329},
    {0.5, -1.9635100260214235},
    {10, 2.251752589066721},
    {-0.5, 0.03648997397857652},
    {1e-8, -100000000.57721564},
    {0.1, -10.423754940411076},
    {1.25, -0.22745353337626542},
    {1.4, -0.06138454458511624},
    {1.4616321449683622, -9.241265521729427e-17}, // the double nearest the positive root
    {1.5, 0.03648997397857652},
    {2, 0.42278433509846713},
    {3.7, 1.1671535393615113},
    {5.9, 1.6878194259079582},
    {6, 1.7061176684318005},
    {9.99, 2.250700372831201},
    {12.5, 2.4851956512749123},
    {100, 4.600161852738087},
    {1e6, 13.815510057964191},
    {1e15, 34.538776394910684},
    {-0.25, 2.9141391202135276},
    {-1.5, 0.7031566406452432},
    {-2.75, -1.959055264977997},
    {-10.3, 4.662403493582087},
    {-1e-8, 99999999.42278431},
    {-1000.125, 14.492855717113763},
};

static void test_digamma(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof ref / sizeof *ref; i++) {
    double got = adsoac_digamma(ref[i].x), err = fabs(got - ref[i].psi) / fabs(ref[i].psi);
    if (err > 1e-14) fail_msg("digamma(%.17g) = %.17g, expected %.17g (relative error %.2g)", ref[i].x, got, ref[i].psi, err);
  }
}

// The float form against the double one at the same (float) argument.
static void test_digammaf(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof ref / sizeof *ref; i++) {
    float x = (float)ref[i].x;
    double want = adsoac_digamma(x), got = adsoac_digammaf(x);
    if (fabs(got - want) > 2e-6 * fabs(want) + 1e-7)
      fail_msg("digammaf(%.9g) = %.9g, expected %.9g", x, got, want);
  }
}

// The poles: the limit from the side of the zero's sign at 0, NaN at the negative integers.
static void test_digamma_poles(void **state) {
  (void)state;
  assert_true(isinf(adsoac_digamma(0.0)) && adsoac_digamma(0.0) < 0);
  assert_true(isinf(adsoac_digamma(-0.0)) && adsoac_digamma(-0.0) > 0);
  assert_true(isnan(adsoac_digamma(-1.0)) && isnan(adsoac_digamma(-7.0)));
  assert_true(isnan(adsoac_digamma(NAN)) && isnan(adsoac_digamma(-INFINITY)));
  assert_true(isinf(adsoac_digamma(INFINITY)));
  assert_true(isnan(adsoac_digammaf(-3.0f)) && isinf(adsoac_digammaf(0.0f)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_digamma),
      cmocka_unit_test(test_digammaf),
      cmocka_unit_test(test_digamma_poles),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
