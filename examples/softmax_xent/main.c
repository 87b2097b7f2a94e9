// examples/softmax_xent/main.c: a deterministic batch of 64 samples over 10 classes (one row
// with a tied maximum), calls the generated softmax_xent_vjp, and prints, for a few logits,
// the adjoint next to a central finite difference of the generated primal softmax_xent;
// then checks every entry against the closed form (softmax - onehot) / batch, and
// softmax_xent_jvp along one direction against the vjp.
#include <math.h>
#include <stdio.h>

#include "adsoac.h"

// the functions adsoac generates from softmax_xent.c (language.md §2.1, §2.2)
double softmax_xent(int batch, int nclass, const double *logits, const int *labels);
double softmax_xent_vjp(int batch, int nclass, const double *logits, double *logits_bar,
                        const int *labels, double ret_bar);
double softmax_xent_jvp(int batch, int nclass, const double *logits, const double *logits_dot,
                        const int *labels, double *ret_dot);

enum { B = 64, C = 10 };

static double logits[B * C];
static int labels[B];
static double worst = 0.0;

// |g - ref| relative to |ref|, or to 0.01 where |ref| is smaller (near-zero derivatives)
static double relerr(double g, double ref) { return fabs(g - ref) / fmax(fabs(ref), 1e-2); }

static void check(int r, int c, double g) {
  double *p = &logits[r * C + c];
  const double h = 1e-5, p0 = *p;
  *p = p0 + h;
  double fp = softmax_xent(B, C, logits, labels);
  *p = p0 - h;
  double fm = softmax_xent(B, C, logits, labels);
  *p = p0;
  double fd = (fp - fm) / (2 * h), err = relerr(g, fd);
  if (err > worst) worst = err;
  printf("  %3d %3d%s  %15.10f  %15.10f  %9.2e\n", r, c, c == labels[r] ? "*" : " ", g, fd, err);
}

int main(void) {
  for (int r = 0; r < B; r++) {
    labels[r] = (3 * r + 1) % C;
    for (int c = 0; c < C; c++) logits[r * C + c] = 2.5 * sin(0.7 * r + 1.3 * c) + 0.1 * c;
  }
  logits[5 * C + 2] = logits[5 * C + 7] = 4.0; // row 5: a tie for the maximum

  static double logits_bar[B * C]; // zero: the adjoints accumulate into it
  double loss = softmax_xent_vjp(B, C, logits, logits_bar, labels, 1.0);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  printf("softmax_xent: batch %d, %d classes, loss = %.12f (primal: %.12f)\n", B, C, loss,
         softmax_xent(B, C, logits, labels));

  printf("  row cls   d loss (vjp)     finite difference  rel.err   (* = the label)\n");
  const int rc[][2] = {{0, 0}, {0, 1}, {5, 2}, {5, 7}, {5, 6}, {17, 2}, {40, 9}, {63, 0}};
  for (unsigned k = 0; k < sizeof rc / sizeof rc[0]; k++)
    check(rc[k][0], rc[k][1], logits_bar[rc[k][0] * C + rc[k][1]]);

  // every entry against the closed form (softmax(row) - onehot(label)) / batch
  double cerr = 0.0;
  for (int r = 0; r < B; r++) {
    double m = -INFINITY, s = 0.0;
    for (int c = 0; c < C; c++) m = fmax(m, logits[r * C + c]);
    for (int c = 0; c < C; c++) s += exp(logits[r * C + c] - m);
    for (int c = 0; c < C; c++) {
      double g = (exp(logits[r * C + c] - m) / s - (c == labels[r])) / B;
      cerr = fmax(cerr, relerr(logits_bar[r * C + c], g));
    }
  }
  if (cerr > worst) worst = cerr;
  printf("closed form (softmax - onehot) / batch, all %d entries: rel.err %.2e\n", B * C, cerr);

  // forward mode along one direction: jvp must equal <gradient, direction>
  static double logits_dot[B * C];
  double ret_dot = 0.0, dir = 0.0;
  for (int i = 0; i < B * C; i++) dir += logits_bar[i] * (logits_dot[i] = cos(0.37 * i));
  softmax_xent_jvp(B, C, logits, logits_dot, labels, &ret_dot);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  double jerr = relerr(ret_dot, dir);
  if (jerr > worst) worst = jerr;
  printf("forward mode: jvp = %.10f, <vjp, dir> = %.10f, rel.err %.2e\n", ret_dot, dir, jerr);

  int ok = worst < 1e-6;
  printf("worst relative error %.2e\n", worst);
  printf("%s\n", ok ? "gradient check: ok" : "gradient check: FAILED");
  return ok ? 0 : 1;
}
