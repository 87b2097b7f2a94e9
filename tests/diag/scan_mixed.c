// the reverse of a scan over a struct of float and double fields is refused
typedef struct { float a; double b; } Mix;

#pragma adsoac operator neutral((Mix){1.0f, 0.0})
static Mix mix_then(Mix f, Mix g) { return (Mix){ g.a * f.a, g.a * f.b + g.b }; }

#pragma adsoac grad
double mixed(int n, const float *a, const double *b) {
  Mix acc = (Mix){1.0f, 0.0};
  double s = 0.0;
#pragma adsoac scan(mix_then: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = mix_then(acc, (Mix){a[i], b[i]});
    s += acc.b;
  }
  return s;
}
