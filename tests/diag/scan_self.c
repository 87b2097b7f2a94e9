// a scan whose added value depends on the scan's running value is a recurrence, not a scan
// (it was translated as a scan: wrong results)
#pragma adsoac grad
void scanself(int n, const double *x, double *y) {
  double acc = 1.0;
#pragma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    acc += x[i] * acc;
    y[i] = acc;
  }
}
