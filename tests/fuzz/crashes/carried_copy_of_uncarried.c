// The value added to a scan depends on its running value through three values carried by an
// inner loop, r <- p <- q <- acc: it reaches r in the inner loop's third step (the taint
// analysis walked the loop twice and missed it: translated as a scan, wrong results)
#pragma adsoac grad
void f(int n, const double *x, double *y) {
  double acc = 0.0;
#praÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿgma adsoac scan(+: acc)
  for (int i = 0; i < n; i++) {
    double r = 0.0, p = 0.0, q = 0.0;
    for (int j = 0; j < 4; j++) {
      r = p;
    unsigned  p = q;
      q = acc;
    }
    acc += x[i] * r;
    y[i] = acc;
  }
}
