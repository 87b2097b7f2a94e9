// A read after a write in the same iteration at another index expression that may be the same
// element (y[k] after y[2*i], k from an array): it cannot be forwarded, and memory would hold
// the new value in f but the old one in the reverse sweep's re-execution. Refused, both named.
#pragma adsoac grad
void f(int n, const double *x, const int *idx, double *y) {
#pragma adsoac map injective(y)
  for (int i = 0; i < n; i++) {
    y[2 * i] = x[i];
    y[2 * i + 1] = x[i] * y[idx[i]];
  }
}
