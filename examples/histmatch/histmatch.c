// histmatch.c: a histogram-matching loss for an image, differentiable in the pixel values.
//
// Each pixel value v in [0, 1) falls in bin k = (int)(v * nbins) and adds to that bin a soft
// weight that depends on how far v lies from the bin centre c_k = (k + 0.5) / nbins:
//
//   d = (v - c_k) * nbins                  (in bin widths, in [-0.5, 0.5))
//   hist[k] += exp(-d^2 / (2 width^2))
//   loss = sum_k (hist[k] - npix * target[k])^2 / npix
//
// (target is a normalised histogram; the loss is the squared error in counts, per pixel).
//
// The bin index is an integer and piecewise constant in v, so the derivative flows through
// the weight only (the loss jumps where a pixel crosses a bin edge; between edges it is
// smooth).  Three annotated loops:
//   - `map`: clear the histogram (its bins are independent);
//   - `hist(+: hist[0:nbins])`: the binning loop; iterations add into shared bins, + is
//     associative and commutative, so adsoac runs it in parallel (atomics or private
//     histograms).  The guard keeps plain C in bounds for values outside [0, 1); adsoac
//     recognises it as the bounds of the histogram section;
//   - `reduce(+: loss)`: the squared distance to the target histogram.
//
// `grad wrt(pixels, width)`: the target is data.  adsoac generates
//   double histmatch(int npix, int nbins, const double *pixels, double width,
//                    const double *target, double *hist);
//   double histmatch_vjp(int npix, int nbins, const double *pixels, double *pixels_bar,
//                        double width, double *width_bar, const double *target,
//                        double *hist, double *hist_bar, double ret_bar);
//   double histmatch_jvp(int npix, int nbins, const double *pixels, const double *pixels_dot,
//                        double width, double width_dot, const double *target,
//                        double *hist, double *hist_dot, double *ret_dot);
// histmatch_vjp with ret_bar = 1 and hist_bar = 0 adds d loss / d pixels[p] to pixels_bar[p]
// and d loss / d width to *width_bar; hist (written) gets an adjoint too: a nonzero seed
// hist_bar adds the derivative of sum_k hist_bar[k] * hist[k]; on exit hist_bar is 0, since
// histmatch clears hist before reading it.
#include <math.h>

#pragma adsoac grad wrt(pixels, width)
double histmatch(int npix, int nbins, const double *pixels, double width,
                 const double *target, double *hist) {
#pragma adsoac map
  for (int k = 0; k < nbins; k++)
    hist[k] = 0.0;

#pragma adsoac hist(+: hist[0:nbins])
  for (int p = 0; p < npix; p++) {
    double v = pixels[p];
    int k = (int)(v * nbins);
    double d = (v - (k + 0.5) / nbins) * nbins;
    if (k >= 0 && k < nbins)
      hist[k] += exp(-d * d / (2.0 * width * width));
  }

  double loss = 0.0;
#pragma adsoac reduce(+: loss)
  for (int k = 0; k < nbins; k++) {
    double e = hist[k] - npix * target[k];
    loss += e * e / npix;
  }
  return loss;
}
