// language.md 11: a declared reduction whose combiner works through pointers is not read yet:
// refused, naming the reduction and its combiner
typedef struct { double s, q; } Mom;
static void mom_merge(Mom *out, const Mom *in) { out->s += in->s; out->q += in->q; }
#pragma omp declare reduction(mom : Mom : mom_merge(&omp_out, &omp_in)) initializer(omp_priv = (Mom){0, 0})

#pragma adsoac grad
double f(int n, const double *x) {
  Mom acc = {0.0, 0.0};
#pragma omp parallel for reduction(mom: acc)
  for (int i = 0; i < n; i++) {
    Mom one = {x[i], x[i] * x[i]};
    mom_merge(&acc, &one);
  }
  return acc.s + acc.q;
}
