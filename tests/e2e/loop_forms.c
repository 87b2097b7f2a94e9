// Loops as legacy C writes them (language.md §3, §6): counted loops with other steps,
// counting down, tested with <=, >, >=, != or with the bound on the left, the index declared
// before the loop (and read after it, as C leaves it), no initialiser; while and do loops;
// break and continue in sequential loops, continue in parallel ones; parallel loops stepping
// by 2 and counting down.
// e2e: sizes n=0,1,2,7,10
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

#pragma adsoac grad
double counted(int n, const double *x) {
  int i = 7;
  double s = 0;
  for (i = 0; i < n; i++) s += x[i];            // i is n afterwards (0 when n <= 0)
  double t = 0;
  for (int j = n - 1; j >= 0; j -= 2) t += x[j] * j;
  for (int j = 1; j <= n; j += 3) t += x[j - 1] * x[j - 1];
  for (int j = n; j > 0; j--) t += 0.5 * x[j - 1];
  for (int j = 0; j != n; ++j) t += x[j] * 0.25;
  for (int j = n - 1; 0 <= j; --j) t -= 0.125 * x[j];
  int k = 0;
  for (; k < n / 2; k++) t += x[k] * x[n - 1 - k];
  long m;
  for (m = 2; m < n; m = m + 2) t += x[m];      // m: the first even index >= n (or 2)
  for (unsigned u = 1; u < (unsigned)n; u += 2) t += x[u] * x[u - 1];
  return s + i + t + k + m;
}

#pragma adsoac grad
double whiles(int n, const double *x) {
  double t = 0;
  int k = 0;
  while (k < n && x[k] > -0.5) {               // stops at the first x[k] <= -0.5
    t += x[k] * x[k];
    k++;
  }
  do {
    t *= 1.01;
    k--;
  } while (k > 0);
  int steps = 0;
  double z = 1.0;
  for (;;) {                                    // a for with no condition: ends at a break
    z = 0.5 * (z + (t + 1.0) / z);
    if (++steps > 3) break;
  }
  return t + k + z;
}

#pragma adsoac grad
double jumps(int n, const double *x) {
  double t = 0;
  int j;
  for (j = 0; j < n; j++) {
    if (x[j] > 0.8) break;                      // j is the index of the break afterwards
    if (x[j] < 0) continue;
    t += x[j];
  }
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      if (b > a) break;                         // breaks the inner loop only
      t += x[a] * x[b] * 0.1;
    }
    if (a % 3 == 2) continue;
    t += 0.01 * x[a];
  }
  return t + j;
}

// Newton's method for sqrt(1 + x[i]^2), with a cap on the iterations: a while loop whose
// carried values are active, in a parallel loop
#pragma adsoac grad
void newton(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double a = 1.0 + x[i] * x[i], z = a;
    int it = 0;
    while (fabs(z * z - a) > 1e-14 * a && it < 60) {
      z = 0.5 * (z + a / z);
      it++;
    }
    y[i] = z;
  }
}

// A binary search (integers only) in a sorted table, then an interpolation
#pragma adsoac grad
double lookup(int n, const double *x, const double *y) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double q = 0.5 * (x[i] + 1.0) * (n - 1);   // in [0, n - 1)
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      int mid = lo + (hi - lo) / 2;
      if (mid > q) hi = mid;
      else lo = mid;
    }
    s += y[lo] * (hi - q) + y[hi] * (q - lo);
  }
  return s;
}

#pragma adsoac grad
void strided(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i += 2) y[i] = x[i] * x[i];
#pragma adsoac map
  for (int i = n - 1; i >= 0; i -= 2) y[i] = 2.0 * x[i];
}

#pragma adsoac grad
double skips(int n, const double *x) {
  double s = 0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    if (x[i] < -0.3) continue;
    s += x[i] * x[i];
  }
  double p = 1;
#pragma adsoac reduce(*: p)
  for (int i = n - 1; i >= 0; i--) {
    if (i % 2 == 1) continue;
    p *= 1.0 + x[i];
  }
  return s + p;
}

// Assignments inside expressions, where C evaluates them
#pragma adsoac grad
double side_effects(int n, const double *x) {
  int k = 0;
  double s, t;
  s = t = 0.5;
  while (k < n && x[k++] > -0.9) s += x[k - 1] * t;
  int j = 0;
  double u = 0;
  while (j < n) u += x[j++] * 0.5;
  int m = 0;
  t = n > 2 ? x[m++] : 0.0;
  t += n > 2 ? x[m++] * 3.0 : 0.0;
  return s + t + u + k + m;
}
