// File-scope state as benchmark files keep it (language.md 6): integer counters the kernel
// assigns (ncalls++, last_n = n, work += n in a time loop, an update under an if), lookup
// tables it reads (const and not, 1-D and 2-D, an int table as indices). The translated
// program must print what the original prints (10 digits: a parallel sum may round
// differently); the translation's f_vjp and f_jvp must update the counters as f does
// (checked in the translated build only).
#include <stdio.h>
#include <stdlib.h>

static int ncalls;
int last_n = -1;
static long work;
static const double weights[3] = {0.25, 0.5, 0.25};
static int order[4] = {3, 1, 0, 2};
double mix[2][3] = {{1.0, 0.5, 0.25}, {-1.0, 2.0, 0.125}};

#pragma adsoac grad
double smooth(int n, const double *x, double *y) {
  ncalls++;
  last_n = n;
  double s = 0.0;
  for (int t = 0; t < 2; t++) {
#pragma adsoac map
    for (int i = 1; i < n - 1; i++)
      y[i] = weights[0] * x[i - 1] + weights[1] * x[i] + weights[2] * x[i + 1] * ncalls +
             mix[t][i % 3] * y[i];
    work += n;
  }
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) s += y[i] * order[i % 4];
  if (n > 6) work = work + 1;
  return s + ncalls;
}

int main(void) {
  double x[8], y[8];
  for (int i = 0; i < 8; i++) x[i] = 0.1 * i - 0.3, y[i] = 0.05 * i;
  for (int c = 0; c < 3; c++) {
    double r = smooth(8 - c, x, y);
    printf("%d %d %ld %.10g %.10g\n", ncalls, last_n, work, r, y[3]);
  }
#ifdef ADSOAC_EXTERN_C // (the translation: its f_vjp and f_jvp count as f does)
  int c0 = ncalls;
  long w0 = work;
  double xb[8] = {0}, yb[8] = {0}, xd[8] = {0}, yd[8] = {0}, rd;
  smooth_vjp(8, x, xb, y, yb, 1.0);
  if (ncalls != c0 + 1 || last_n != 8 || work != w0 + 17) {
    fprintf(stderr, "f_vjp: ncalls %d last_n %d work %ld\n", ncalls, last_n, work);
    return 1;
  }
  smooth_jvp(5, x, xd, y, yd, &rd);
  if (ncalls != c0 + 2 || last_n != 5 || work != w0 + 27) {
    fprintf(stderr, "f_jvp: ncalls %d last_n %d work %ld\n", ncalls, last_n, work);
    return 1;
  }
#endif
  return 0;
}
