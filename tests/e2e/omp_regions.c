// OpenMP parallel regions in a marked function, read as their one-thread execution
// (language.md 11): `omp for` loops in them are maps; a partial private to the region's
// threads (declared in it) accumulated in an `omp for` and merged after it under `atomic` or
// `critical` is a reduction (the hand-written form of the clause); `single`, `master` blocks
// run once, `barrier` is the order of the statements; region clauses private, firstprivate,
// reduction. And an orphaned step (its `omp for` loops bind to a caller's region, their
// partials are the function's locals): the shape of a CG solver's step.
// e2e: func sumsq
// e2e: sizes n=0,1,5,11
// e2e: array x[n] range(-1,1)
// e2e: array out[2] range(-1,1)
// e2e: func step
// e2e: sizes n=0,1,4,9
// e2e: array p[n] range(-1,1)
// e2e: array q[n] range(-1,1)
// e2e: array r[n] range(-1,1)
// e2e: array z[n] range(-1,1)
// e2e: array res[3] range(-1,1)
#include <math.h>

#pragma adsoac grad
void sumsq(int n, const double *x, double *out) {
  double s = 0.0, m = -1e300, c = 0.5;
#pragma omp parallel firstprivate(c)
  {
    double local = 0.0, lmax = -1e300;
#pragma omp for nowait
    for (int i = 0; i < n; i++) {
      local += c * x[i] * x[i];
      lmax = fmax(lmax, x[i]);
    }
#pragma omp atomic
    s += local;
#pragma omp critical
    {
      if (lmax > m) m = lmax;
    }
#pragma omp barrier
#pragma omp single
    out[1] = n > 0 ? m : 0.0;
  }
  out[0] = s;
}

// a CG step as an OpenMP code writes it when every thread of a region in its caller calls
// it: work-sharing loops accumulate into the thread's locals, merged into shared elements
// under atomic, barriers, a master block
#pragma adsoac grad
void step(int n, double *p, const double *q, double *r, double *z, double *res) {
  double d = 0.0, rho = 0.0, alpha;
#pragma omp for
  for (int j = 0; j < n; j++) d += p[j] * q[j];
#pragma omp atomic
  res[0] += d;
#pragma omp barrier
  alpha = 1.0 / (1.0 + res[0] * res[0]);
#pragma omp for
  for (int j = 0; j < n; j++) {
    z[j] = z[j] + alpha * p[j];
    r[j] = r[j] - alpha * q[j];
    rho += r[j] * r[j];
  }
#pragma omp atomic
  res[1] += rho;
#pragma omp barrier
#pragma omp for
  for (int j = 0; j < n; j++) p[j] = r[j] + res[1] * p[j];
#pragma omp master
  res[2] = sqrt(res[1] + 1.0);
}
