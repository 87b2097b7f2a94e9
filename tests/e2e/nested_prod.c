// reduce(*) where the reverse sweep re-executes its loop: nested in a map (row products, with
// rows holding no, one and two zeros), nested in a reduce, and inside a function-level if.
// The zero count and the nonzero product come from a pass before each reverse loop.
// e2e: sizes n=1,2,3,5 m=1,2,4,7
// e2e: array a[n*m] range(-1.5,1.5) fill(i % 7 == 3 || i % 11 == 5 ? 0.0 : r)
// e2e: array rows[n] range(-1,1)
// e2e: written rows
// e2e: scalar c range(0.5,1.5)
// e2e: scalar t range(-1,1)

#pragma adsoac grad
void row_prods(int n, int m, double c, const double *a, double *rows) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double p = c;
#pragma adsoac reduce(*: p)
    for (int j = 0; j < m; j++)
      p *= a[i * m + j];
    rows[i] = p;
  }
}

#pragma adsoac grad
double sum_of_prods(int n, int m, double c, const double *a) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    double p = 1.0;
#pragma adsoac reduce(*: p)
    for (int j = 0; j < m; j++)
      p *= a[i * m + j] + c;
    s += p * a[i * m];
  }
  return s;
}

#pragma adsoac grad
double prod_if(int n, int m, double t, double c, const double *a) {
  double p = c;
  if (t > 0.0) {
#pragma adsoac reduce(*: p)
    for (int i = 0; i < n * m; i++)
      p *= a[i];
  }
  return p * t;
}
