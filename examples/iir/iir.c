// iir.c: a time-varying one-pole low-pass filter (an IIR smoother) and its fit to a target.
//
//   y[-1] = y0,   y[i] = a[i] * y[i-1] + (1 - a[i]) * x[i]        (0 < a[i] < 1: the pole)
//   loss  = sum_i (y[i] - target[i])^2
//
// As written in legacy code the recurrence is a sequential loop.  Here it is the same loop,
// annotated: each step is the affine map  v -> a[i]*v + (1 - a[i])*x[i],  and y[i] is the
// composition of the first i+1 of them applied to y0.  Composition of affine maps is
// associative, so it is declared as the operator `lin_then` (neutral element: the identity
// map {1, 0}) and the loop is a `scan(lin_then: acc)`: acc.b is y[i] after the update.  The
// loss is accumulated in the same loop by `reduce(+: loss)`; y[i] = acc.b is elementwise.
// Plain C ignores the pragmas and runs the loop sequentially: that is the reference meaning.
//
// `grad wrt(y0, a, x)`: the target is data, not a parameter.  adsoac generates
//   double iir(int n, double y0, const double *a, const double *x, const double *target,
//              double *y);
//   double iir_vjp(int n, double y0, double *y0_bar, const double *a, double *a_bar,
//                  const double *x, double *x_bar, const double *target,
//                  double *y, double *y_bar, double ret_bar);
//   double iir_jvp(int n, double y0, double y0_dot, const double *a, const double *a_dot,
//                  const double *x, const double *x_dot, const double *target,
//                  double *y, double *y_dot, double *ret_dot);
// iir_vjp with ret_bar = 1 and y_bar = 0 adds d loss / d y0, d loss / d a[i] and
// d loss / d x[i] to *y0_bar, a_bar[i] and x_bar[i] (y, written, always gets an adjoint:
// its seed y_bar lets a caller differentiate a loss of the filtered signal computed
// elsewhere; on exit y_bar is 0, since iir overwrites y without reading it).

typedef struct { double a, b; } Lin; // the affine map v -> a*v + b

// first f, then g: v -> g.a * (f.a * v + f.b) + g.b
#pragma adsoac operator neutral((Lin){1.0, 0.0})
static Lin lin_then(Lin f, Lin g) { return (Lin){ g.a * f.a, g.a * f.b + g.b }; }

#pragma adsoac grad wrt(y0, a, x)
double iir(int n, double y0, const double *a, const double *x, const double *target,
           double *y) {
  Lin acc = (Lin){1.0, y0}; // acc.b is the filter state y[i-1], starting from y0
  double loss = 0.0;
#pragma adsoac scan(lin_then: acc) reduce(+: loss)
  for (int i = 0; i < n; i++) {
    acc = lin_then(acc, (Lin){a[i], (1.0 - a[i]) * x[i]});
    y[i] = acc.b; // y[i] = a[i] * y[i-1] + (1 - a[i]) * x[i]
    double err = acc.b - target[i];
    loss += err * err;
  }
  return loss;
}
