// examples/histmatch/main.c: builds a deterministic 64x64 test image and a target
// histogram, calls the generated histmatch_vjp, and prints, for a few pixels and for the
// width, the adjoint next to a central finite difference of the generated primal histmatch
// (pixels within 1e-3 bin widths of a bin edge are passed over: the loss jumps there); then
// checks histmatch_jvp along one direction against the vjp.
#include <math.h>
#include <stdio.h>

#include "adsoac.h"

// the functions adsoac generates from histmatch.c (language.md §2.1, §2.2)
double histmatch(int npix, int nbins, const double *pixels, double width,
                 const double *target, double *hist);
double histmatch_vjp(int npix, int nbins, const double *pixels, double *pixels_bar,
                     double width, double *width_bar, const double *target, double *hist,
                     double *hist_bar, double ret_bar);
double histmatch_jvp(int npix, int nbins, const double *pixels, const double *pixels_dot,
                     double width, double width_dot, const double *target, double *hist,
                     double *hist_dot, double *ret_dot);

enum { W = 64, H = 64, NPIX = W * H, NBINS = 16 };

static double pixels[NPIX], target[NBINS], width;

// the loss at the current inputs, through the generated primal (hist is scratch output)
static double loss_now(void) {
  double hist[NBINS];
  return histmatch(NPIX, NBINS, pixels, width, target, hist);
}

static double worst = 0.0;

// |g - ref| relative to |ref|, or to 0.01 where |ref| is smaller (near-zero derivatives)
static double relerr(double g, double ref) { return fabs(g - ref) / fmax(fabs(ref), 1e-2); }

static void check(const char *name, int idx, double *p, double g) {
  const double h = 1e-6, p0 = *p;
  *p = p0 + h;
  double fp = loss_now();
  *p = p0 - h;
  double fm = loss_now();
  *p = p0;
  double fd = (fp - fm) / (2 * h), err = relerr(g, fd);
  if (err > worst) worst = err;
  printf("  %-6s %5d  %17.10f  %17.10f  %9.2e\n", name, idx, g, fd, err);
}

int main(void) {
  // a smooth synthetic image with values in (0.05, 0.95)
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++)
      pixels[r * W + c] = 0.5 + 0.45 * sin(0.21 * c + 0.5 * sin(0.13 * r)) * cos(0.11 * r);
  // target: a bell-shaped histogram with the mass of the average soft weight
  double z = 0.0;
  for (int k = 0; k < NBINS; k++) z += target[k] = exp(-(k - 7.5) * (k - 7.5) / 20.0);
  for (int k = 0; k < NBINS; k++) target[k] *= 0.75 / z;
  width = 0.35; // in bin widths

  double hist[NBINS], hist_bar[NBINS] = {0}, width_bar = 0.0;
  static double pixels_bar[NPIX]; // zero: the adjoints accumulate into it
  double loss = histmatch_vjp(NPIX, NBINS, pixels, pixels_bar, width, &width_bar, target, hist,
                              hist_bar, 1.0);
  if (adsoac_last_error()) {
    printf("error: %s\n", adsoac_last_error());
    return 1;
  }
  printf("histmatch: %d pixels, %d bins, loss = %.12f (primal: %.12f)\n", NPIX, NBINS, loss,
         loss_now());
  printf("  hist / npix:");
  for (int k = 0; k < NBINS; k++) printf(" %.3f", hist[k] / NPIX);
  printf("\n  target:     ");
  for (int k = 0; k < NBINS; k++) printf(" %.3f", target[k]);
  printf("\n");

  printf("  in      index   d loss (vjp)       finite difference  rel.err\n");
  check("width", 0, &width, width_bar);
  const int start[] = {0, 5, 700, 1500, NPIX / 2 + 31, 3333, NPIX - 9};
  for (unsigned s = 0; s < sizeof start / sizeof start[0]; s++) {
    int p = start[s];
    for (;;) { // the next pixel away from a bin edge
      double t = pixels[p] * NBINS;
      if (fabs(t - floor(t + 0.5)) > 1e-3) break;
      p = (p + 1) % NPIX;
    }
    check("pixel", p, &pixels[p], pixels_bar[p]);
  }

  // forward mode along one direction: jvp must equal <gradient, direction>
  static double pixels_dot[NPIX];
  double hist_dot[NBINS] = {0}, width_dot = 0.2, ret_dot = 0.0, dir = width_bar * width_dot;
  for (int p = 0; p < NPIX; p++) {
    pixels_dot[p] = 0.01 * sin(0.37 * p);
    dir += pixels_bar[p] * pixels_dot[p];
  }
  histmatch_jvp(NPIX, NBINS, pixels, pixels_dot, width, width_dot, target, hist, hist_dot,
                &ret_dot);
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
