// One step of a conjugate-gradient solver as OpenMP benchmark codes write it: the function is
// called by every thread of a parallel region in the caller, so its work-sharing loops are
// orphaned `omp for` loops with reductions into the thread's locals, separated by barriers,
// with a `single` block; only `#pragma adsoac grad` added.
#pragma adsoac grad
void cg_step(int n, const double *a, const int *col, const int *row, double *p, double *q,
             double *r, double *z, double *rr) {
  double d = 0.0, rho = 0.0, alpha, beta;
#pragma omp for
  for (int j = 0; j < n; j++) {
    double sum = 0.0;
    for (int k = row[j]; k < row[j + 1]; k++) sum += a[k] * p[col[k]];
    q[j] = sum;
  }
#pragma omp for reduction(+: d)
  for (int j = 0; j < n; j++) d += p[j] * q[j];
  alpha = rr[0] / d;
#pragma omp for reduction(+: rho)
  for (int j = 0; j < n; j++) {
    z[j] = z[j] + alpha * p[j];
    r[j] = r[j] - alpha * q[j];
    rho += r[j] * r[j];
  }
  beta = rho / rr[0];
#pragma omp for
  for (int j = 0; j < n; j++) p[j] = r[j] + beta * p[j];
#pragma omp barrier
#pragma omp single
  rr[0] = rho;
}
