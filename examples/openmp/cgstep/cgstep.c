// One step of a conjugate-gradient solver as OpenMP codes write it when the function is
// called by every thread of a parallel region in the caller: its work-sharing loops are
// orphaned `omp for` loops; each thread accumulates its dot products in locals and merges
// them into shared elements under `omp atomic`, with barriers before the totals are read;
// only `#pragma adsoac grad` added. dots[0] holds r.r on entry; dots[1] and dots[2] receive
// the step's p.q and the new r.r (zero on entry).
#pragma adsoac grad
void cg_step(int n, const double *a, const int *col, const int *row, double *p, double *q,
             double *r, double *z, double *dots) {
  double d = 0.0, rho = 0.0, alpha, beta;
#pragma omp for
  for (int j = 0; j < n; j++) {
    double sum = 0.0;
    for (int k = row[j]; k < row[j + 1]; k++) sum += a[k] * p[col[k]];
    q[j] = sum;
  }
#pragma omp for nowait
  for (int j = 0; j < n; j++) d += p[j] * q[j];
#pragma omp atomic
  dots[1] += d;
#pragma omp barrier
  alpha = dots[0] / dots[1];
#pragma omp for nowait
  for (int j = 0; j < n; j++) {
    z[j] = z[j] + alpha * p[j];
    r[j] = r[j] - alpha * q[j];
    rho += r[j] * r[j];
  }
#pragma omp atomic
  dots[2] += rho;
#pragma omp barrier
  beta = dots[2] / dots[0];
#pragma omp for
  for (int j = 0; j < n; j++) p[j] = r[j] + beta * p[j];
}
