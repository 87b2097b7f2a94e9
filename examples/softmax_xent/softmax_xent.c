// softmax_xent.c: the softmax cross-entropy loss of a batch of classifier outputs.
//
//   logits[r*nclass + c]: the score of class c for sample r;  labels[r]: its true class
//   loss = (1/batch) * sum_r ( logsumexp(logits[r, :]) - logits[r, labels[r]] )
//
// logsumexp is computed the numerically safe way: m = max_c z_c, then m + log sum_c exp(z_c - m).
// Three annotated loops, two of them nested in the third:
//   - `reduce(+: total)` over the rows of the batch (rows are independent; the total is a sum);
//   - inside it, per row, `reduce(max: m)` over the classes, then `reduce(+: s)` of the
//     shifted exponentials.  adsoac runs these as nested parallel loops.
// The shift m cancels mathematically; its derivative through the max is exact (the adjoints
// of the two paths through m cancel), so the result is softmax(row) - onehot(label), / batch.
// labels is an integer array: never active; it only selects which logit is subtracted.
//
// adsoac generates
//   double softmax_xent(int batch, int nclass, const double *logits, const int *labels);
//   double softmax_xent_vjp(int batch, int nclass, const double *logits, double *logits_bar,
//                           const int *labels, double ret_bar);
//   double softmax_xent_jvp(int batch, int nclass, const double *logits,
//                           const double *logits_dot, const int *labels, double *ret_dot);
// softmax_xent_vjp with ret_bar = 1 adds d loss / d logits to logits_bar:
//   logits_bar[r*nclass + c] += (softmax(logits[r, :])_c - (c == labels[r])) / batch.
#include <math.h>

#pragma adsoac grad
double softmax_xent(int batch, int nclass, const double *logits, const int *labels) {
  double total = 0.0;
#pragma adsoac reduce(+: total)
  for (int r = 0; r < batch; r++) {
    double m = -INFINITY;
#pragma adsoac reduce(max: m)
    for (int c = 0; c < nclass; c++)
      if (logits[r * nclass + c] > m) m = logits[r * nclass + c];
    double s = 0.0;
#pragma adsoac reduce(+: s)
    for (int c = 0; c < nclass; c++)
      s += exp(logits[r * nclass + c] - m);
    total += m + log(s) - logits[r * nclass + labels[r]];
  }
  return total / batch;
}
