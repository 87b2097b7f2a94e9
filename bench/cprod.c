// cprod: z = (c + 0.5i) * prod_i (re[i] + i im[i]), f = Re z + 2 Im z. A reduction
// with a declared struct operator (complex multiply) that has an inverse
// (complex divide): differentiated with the invertible-operator rule.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed cprod_seq) and through adsoac (cprod, cprod_vjp, cprod_jvp).

typedef struct { double re, im; } Cx;

static Cx cdiv(Cx p, Cx q) {
  double d = q.re * q.re + q.im * q.im;
  return (Cx){(p.re * q.re + p.im * q.im) / d, (p.im * q.re - p.re * q.im) / d};
}
#pragma adsoac operator neutral((Cx){1.0, 0.0}) commutative inverse(cdiv)
static Cx cmul(Cx p, Cx q) { return (Cx){p.re * q.re - p.im * q.im, p.re * q.im + p.im * q.re}; }

#pragma adsoac grad
double cprod(int n, double c, const double *re, const double *im) {
  Cx z = {c, 0.5};
#pragma adsoac reduce(cmul: z)
  for (int i = 0; i < n; i++)
    z = cmul(z, (Cx){re[i], im[i]});
  return z.re + 2.0 * z.im;
}
