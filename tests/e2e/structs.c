// Structs of doubles as values: a typedef'd struct and a tagged one, compound literals
// (positional and designated, missing fields zero), member access and assignment, struct
// assignment, helpers taking and returning structs, struct fields merged across an if, a
// scalar typedef.
// e2e: sizes n=0,1,2,7,33
// e2e: scalar c range(-1,1)
// e2e: array a[n] range(-1,1)
// e2e: array b[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

typedef double real;
typedef struct { double a, b; } Lin; // x -> a*x + b
struct Pt { double x; double y; };

static Lin compose(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }
static real apply(Lin f, real x) { return f.a * x + f.b; }

#pragma adsoac grad
double structs(int n, double c, const double *a, const double *b, double *y) {
  real s = 0.0;
#pragma adsoac reduce(+: s)
  for (int i = 0; i < n; i++) {
    Lin f = (Lin){a[i], b[i]};
    Lin g = {.b = c};
    g.a = sin(a[i]);
    Lin h = compose(f, g);
    struct Pt p = {apply(h, 0.5), 0.0};
    if (h.a > 0) {
      p.y = p.x * h.b;
      f = h;
    } else {
      p.y = -p.x;
    }
    y[i] = p.y + f.a;
    s += apply(f, p.x);
  }
  return s;
}
