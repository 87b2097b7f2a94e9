// Several index expressions into one array in one parallel loop, shown disjoint by the
// dependence test (analysis/affine.c: GCD and bounds): interleaved writes y[2*i], y[2*i + 1];
// rows y[3*i + k] and y[nf*i + k] written by a nested sequential loop; LSTM-like gates g[i],
// g[h + i], g[2*h + i], g[3*h + i] read back in the same iteration (forwarded); a read after
// writes of the same element (forwarded) and of a neighbour no iteration writes; reads of a
// read-only array at 2*i and 2*i + 1, and at i and i + n (plain adjoint updates); a reduce
// that also writes two interleaved elements; writes under an if read after it (the element
// from memory where the branch did not write it); an in-place update at a stride (its section
// saved for an earlier loop's reverse); y[idx[i]] read with injective(y); a nested map writing
// rows y[i*m + j] besides y[n*m + i]; a reduce reading an element written under an if; a scan
// and a hist loop writing two interleaved elements; reads x[3*i + k] in a nested sequential
// loop (rows of their own: plain adjoint updates); in-place updates under an if and through a
// permutation (injective(y)), their old elements saved on tapes for the reverse sweep.
// e2e: sizes n=0,1,2,5,8
// e2e: func interleave
// e2e: array x[n]
// e2e: array y[2*n]
// e2e: func rows3
// e2e: array x[n]
// e2e: array w[3]
// e2e: array y[3*n]
// e2e: func rows_nf
// e2e: int nf = n % 3 + 1
// e2e: array x[n]
// e2e: array y[nf*n]
// e2e: func gates
// e2e: int h = n
// e2e: array x[h]
// e2e: array g[4*h]
// e2e: array c[h]
// e2e: func readback
// e2e: array a[n]
// e2e: array b[n]
// e2e: array y[2*n]
// e2e: array r[n]
// e2e: func reads_ro
// e2e: array x[2*n]
// e2e: array u[2*n]
// e2e: array z[n]
// e2e: func red_inter
// e2e: array x[n]
// e2e: array y[2*n]
// e2e: func cond_writes
// e2e: array x[n] range(-1,1) fill(i % 3 == 1 ? 0.5 : r)
// e2e: array y[2*n]
// e2e: array r[n]
// e2e: func inplace_strided
// e2e: array x[n]
// e2e: array y[2*n+1]
// e2e: array z[n]
// e2e: func asserted
// e2e: array x[n]
// e2e: array idx[n] fill(n + (i * 3) % (n > 0 ? n : 1))
// e2e: array y[2*n]
// e2e: func nested_rows
// e2e: int m = n % 3 + 1
// e2e: array x[n]
// e2e: array y[n*m + n]
// e2e: func cond_reduce
// e2e: array x[n] range(-1,1) fill(i % 3 == 1 ? 0.5 : r)
// e2e: array y[2*n]
// e2e: func scan_inter
// e2e: array x[n]
// e2e: array y[2*n]
// e2e: func hist_inter
// e2e: int k = 3
// e2e: array bin[n] range(0,3)
// e2e: array x[n]
// e2e: array h[k]
// e2e: array y[2*n]
// e2e: func rows_read
// e2e: array x[3*n]
// e2e: array z[n]
// e2e: func cond_inplace
// e2e: array x[n] range(-1,1) fill(i % 3 == 1 ? 0.5 : r)
// e2e: array y[2*n]
// e2e: array z[n]
// e2e: func perm_inplace
// e2e: array x[n]
// e2e: array perm[n] fill((i * 3) % (n > 0 ? n : 1))
// e2e: array y[n]
#include <math.h>

#pragma adsoac grad
void interleave(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[2 * i] = sin(x[i]) * x[i];
    y[2 * i + 1] = cos(x[i]) + x[i] * x[i];
  }
}

#pragma adsoac grad
void rows3(int n, const double *x, const double *w, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double e = exp(x[i]);
    for (int k = 0; k < 3; k++)
      y[3 * i + k] = w[k] * e + x[i] * k;
  }
}

#pragma adsoac grad
void rows_nf(int n, int nf, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    for (int k = 0; k < nf; k++)
      y[nf * i + k] = x[i] * (k + 1) + sin(x[i] * k);
}

#pragma adsoac grad
void gates(int h, const double *x, double *g, double *c) {
#pragma adsoac map
  for (int i = 0; i < h; i++) {
    g[i] = tanh(x[i]);
    g[h + i] = 1.0 / (1.0 + exp(-x[i]));
    g[2 * h + i] = x[i] * x[i];
    g[3 * h + i] = sin(x[i]);
    c[i] = g[i] * g[2 * h + i] + g[h + i] * g[3 * h + i];
  }
}

#pragma adsoac grad
void readback(int n, const double *a, const double *b, double *y, double *r) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[2 * i] = a[i];
    y[2 * i] = y[2 * i] * b[i];
    r[i] = y[2 * i] + y[2 * i + 1];
  }
}

#pragma adsoac grad
void reads_ro(int n, const double *x, const double *u, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = x[2 * i] * sin(x[2 * i + 1]);
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] += u[i] * cos(u[i + n]);
}

#pragma adsoac grad
double red_inter(int n, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
    y[2 * i] = v;
    y[2 * i + 1] = sin(v);
    s += v * x[i];
  }
  return s;
}

#pragma adsoac grad
void cond_writes(int n, const double *x, double *y, double *r) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0)
      y[2 * i] = x[i] * x[i];
    else
      y[2 * i + 1] = -x[i];
    r[i] = y[2 * i] * y[2 * i + 1] + x[i];
  }
}

#pragma adsoac grad
void inplace_strided(int n, const double *x, double *y, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = y[2 * i + 1] * y[2 * i];
#pragma adsoac map
  for (int i = 0; i < n; i++)
    y[2 * i] = y[2 * i] * x[i] + y[2 * i + 1];
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] += y[2 * i] * y[2 * i + 2];
}

#pragma adsoac grad
void asserted(int n, const double *x, const int *idx, double *y) {
#pragma adsoac map injective(y)
  for (int i = 0; i < n; i++)
    y[i] = x[i] * y[idx[i]];
}

#pragma adsoac grad
void nested_rows(int n, int m, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
#pragma adsoac map
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i] * (j + 1);
    y[n * m + i] = exp(x[i]);
  }
}

#pragma adsoac grad
double cond_reduce(int n, const double *x, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0)
      y[2 * i] = x[i] * 3.0;
    s += y[2 * i] * x[i];
    y[2 * i + 1] = y[2 * i] - x[i];
  }
  return s;
}

#pragma adsoac grad
void scan_inter(int n, const double *x, double *y) {
  double acc = 0.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    acc += x[i];
    y[2 * i] = acc;
    y[2 * i + 1] = x[i] * acc;
  }
}

#pragma adsoac grad
void hist_inter(int n, int k, const int *bin, const double *x, double *h, double *y) {
#pragma adsoac hist(+: h[0:k])
  for (int i = 0; i < n; i++) {
    h[bin[i]] += x[i];
    y[2 * i] = x[i] * x[i];
    y[2 * i + 1] = sin(x[i]);
  }
}

#pragma adsoac grad
void rows_read(int n, const double *x, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < 3; k++)
      s += x[3 * i + k] * x[3 * i + k];
    z[i] = s;
  }
}

#pragma adsoac grad
void cond_inplace(int n, const double *x, double *y, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] = y[2 * i] * y[2 * i + 1];
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0)
      y[2 * i] = y[2 * i] * x[i];
    else
      y[2 * i + 1] = y[2 * i + 1] + x[i] * x[i];
  }
#pragma adsoac map
  for (int i = 0; i < n; i++)
    z[i] += y[2 * i] * y[2 * i + 1];
}

#pragma adsoac grad
void perm_inplace(int n, const double *x, const int *perm, double *y) {
#pragma adsoac map injective(y)
  for (int i = 0; i < n; i++)
    y[perm[i]] = y[perm[i]] * x[i] + sin(y[perm[i]]);
}
