// Functions whose bodies adsoac does not see, with declared derivatives (language.md §6):
// a vjp only, a jvp only, both; at function level, in a parallel loop (map and reduce), in
// a time loop, under a branch; integer parameters passive; a float function; a function
// defined in the file whose declared derivative replaces its own; a macro that expands to
// CUDA's annotations (HD) before the derivatives.
// e2e: link lib/ext_lib.c
// e2e: nvcc -rdc=true
// e2e: sizes n=0,1,5,8
#include <math.h>
#include <stddef.h>

#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

// (on the CUDA target the library's functions run in kernels: declared __device__)
HD double softplus_lib(double x, double beta);
HD double powi_lib(int k, double x);
HD double blend_lib(double a, double b, double t);
HD float scalef_lib(float x, int s);

HD static double softplus_vjp(double x, double *x_bar, double beta, double *beta_bar,
                              double ret_bar) {
  double z = beta * x, s = 1.0 / (1.0 + exp(-z)), r = log1p(exp(z)) / beta;
  *x_bar += ret_bar * s;
  *beta_bar += ret_bar * (x * s - r) / beta;
  return r;
}

HD static double powi_jvp(int k, double x, double x_dot, double *ret_dot) {
  double r = 1.0, d = 0.0;
  for (int i = 0; i < k; i++) {
    d = d * x + r;
    r *= x;
  }
  *ret_dot = d * x_dot;
  return r;
}

HD static double blend_vjp(double a, double *a_bar, double b, double *b_bar, double t,
                           double *t_bar, double ret_bar) {
  *a_bar += ret_bar * (cos(t) + b);
  *b_bar += ret_bar * (sin(t) + a);
  *t_bar += ret_bar * (-a * sin(t) + b * cos(t));
  return a * cos(t) + b * sin(t) + a * b;
}

HD static double blend_jvp(double a, double a_dot, double b, double b_dot, double t,
                           double t_dot, double *ret_dot) {
  *ret_dot = a_dot * (cos(t) + b) + b_dot * (sin(t) + a) + t_dot * (-a * sin(t) + b * cos(t));
  return a * cos(t) + b * sin(t) + a * b;
}

HD static float scalef_vjp(float x, float *x_bar, int s, float ret_bar) {
  *x_bar += ret_bar * ((float)s + cosf(x));
  return x * (float)s + sinf(x);
}

// in the file, with a derivative of its own declared (the kink at 0 taken as 0)
HD static double absq(double x) {
  return x < 0 ? -x * x : x * x;
}

HD static double absq_jvp(double x, double x_dot, double *ret_dot) {
  *ret_dot = 2.0 * fabs(x) * x_dot;
  return x < 0 ? -x * x : x * x;
}

#pragma adsoac derivative(softplus_lib) vjp(softplus_vjp)
#pragma adsoac derivative(powi_lib) jvp(powi_jvp)
#pragma adsoac derivative(blend_lib) vjp(blend_vjp) jvp(blend_jvp)
#pragma adsoac derivative(scalef_lib) vjp(scalef_vjp)
#pragma adsoac derivative(absq) jvp(absq_jvp)

// e2e: func ext_loss
// e2e: scalar beta range(0.5,2)
// e2e: array x[n] fill(i % 4 == 2 ? 0.0 : r)
// e2e: array y[n]
#pragma adsoac grad
double ext_loss(size_t n, const double *x, double beta, double *y) {
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (size_t i = 0; i < n; i++) s += softplus_lib(x[i], beta) * powi_lib(3, x[i]);
#pragma adsoac map
  for (size_t i = 0; i < n; i++)
    y[i] = x[i] > 0.0 ? blend_lib(x[i], y[i], beta) : absq(y[i]) + powi_lib((int)i % 4, beta);
  return s + blend_lib(beta, s, 0.5);
}

// e2e: func ext_time
// e2e: int steps = n
// e2e: array u[n]
// e2e: array w[n]
#pragma adsoac grad
void ext_time(int steps, size_t n, double *u, const double *w) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (size_t i = 0; i < n; i++) u[i] = blend_lib(u[i], w[i], 0.1 * (double)t) * 0.5;
  }
}

// e2e: func ext_float
// e2e: array x[n]
// e2e: array y[n]
#pragma adsoac grad
void ext_float(size_t n, const float *x, float *y) {
#pragma adsoac map
  for (size_t i = 0; i < n; i++) y[i] = scalef_lib(x[i], (int)(i % 3) + 1);
}
