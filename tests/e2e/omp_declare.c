// OpenMP's declared reductions (language.md 11): `#pragma omp declare reduction(ID : T :
// COMBINER) initializer(omp_priv = E)` read as a declared operator, so reduction(ID: v) is
// reduce(ID: v).  A combiner calling a function of the file (a max written as a function, a
// log-sum-exp, on a struct of moments, with the arguments in either order), and combiners that
// are +, fmax and the ?: form of min (the built-in operators, with their tie rules); no
// initializer (OpenMP's default: zero).  n = 0 gives the initial values; ties in the max.  A
// declared reduction adsoac does not read (its combiner works through pointers) is no error
// where only an unmarked function uses it.
// e2e: func stats
// e2e: sizes n=0,1,2,7
// e2e: array x[n] range(-1,1)
// e2e: func tied
// e2e: sizes n=0,1,3,6
// e2e: array x[n] range(-1,1) fill(i % 2 ? 0.25 : -0.5)
// e2e: array out[2] range(-1,1)
// e2e: func moments
// e2e: sizes n=0,1,4,9
// e2e: array x[n] range(-1,1)
// e2e: array w[n] range(0.5,1.5)
#include <math.h>

typedef struct {
  double s, q;
} Mom;

static double smax(double a, double b) { return a > b ? a : b; }
static double lse(double a, double b) {
  double m = fmax(a, b);
  return m + log(exp(a - m) + exp(b - m));
}
static Mom mom_add(Mom a, Mom b) { return (Mom){a.s + b.s, a.q + b.q}; }

#pragma omp declare reduction(mx : double : omp_out = smax(omp_out, omp_in)) \
    initializer(omp_priv = -INFINITY)
#pragma omp declare reduction(lse : double : omp_out = lse(omp_in, omp_out)) initializer(omp_priv = -INFINITY)
#pragma omp declare reduction(plus : double : omp_out += omp_in)
#pragma omp declare reduction(mymin : double : omp_out = omp_in < omp_out ? omp_in : omp_out) initializer(omp_priv = INFINITY)
#pragma omp declare reduction(hi : double : omp_out = fmax(omp_out, omp_in)) initializer(omp_priv = -INFINITY)
#pragma omp declare reduction(mom : Mom : omp_out = mom_add(omp_out, omp_in)) initializer(omp_priv = (Mom){0.0, 0.0})

static void mom_merge(Mom *out, const Mom *in) {
  out->s += in->s;
  out->q += in->q;
}
#pragma omp declare reduction(momp : Mom : mom_merge(&omp_out, &omp_in)) initializer(omp_priv = (Mom){0.0, 0.0})

double unmarked_mean(int n, const double *x) {
  Mom acc = {0.0, 0.0};
#pragma omp parallel for reduction(momp: acc)
  for (int i = 0; i < n; i++) {
    Mom one = {x[i], x[i] * x[i]};
    mom_merge(&acc, &one);
  }
  return n ? acc.s / n : 0.0;
}

#pragma adsoac grad
double stats(int n, const double *x) {
  double m = -1e300, l = -1e300, s = 0.5, lo = 1e300;
#pragma omp parallel for reduction(mx: m) reduction(lse: l) reduction(plus: s) reduction(mymin: lo)
  for (int i = 0; i < n; i++) {
    m = smax(m, x[i] * x[i]);
    l = lse(l, 2.0 * x[i]);
    s += sin(x[i]);
    lo = x[i] < lo ? x[i] : lo;
  }
  return (n > 0 ? m + l + 2.0 * lo : 0.0) + s;
}

#pragma adsoac grad
void tied(int n, const double *x, double *out) {
  double m = -1.0, h = -1.0;
#pragma omp parallel for reduction(mx: m) reduction(hi: h)
  for (int i = 0; i < n; i++) {
    m = smax(m, x[i]);
    h = fmax(h, 3.0 * x[i]);
  }
  out[0] = m;
  out[1] = h;
}

#pragma adsoac grad
double moments(int n, const double *x, const double *w) {
  Mom acc = {0.0, 0.0};
#pragma omp parallel for reduction(mom: acc)
  for (int i = 0; i < n; i++) acc = mom_add(acc, (Mom){w[i] * x[i], w[i] * x[i] * x[i]});
  return acc.s * acc.s + acc.q;
}
