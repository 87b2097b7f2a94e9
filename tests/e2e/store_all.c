// Store-all (ad/rev_loop.c keeps_all): a sequential loop nested in another one at the
// function's level whose body calls costly functions keeps each iteration's values and the
// state it leaves, and its reverse starts from them instead of running the iteration again.
// layers: an LSTM-like stack (a time loop around a layer loop whose maps call exp and tanh,
// a factor computed under an if, with a carried scalar and per-layer sections of the state); chain:
// a layer loop around a sequential scalar recurrence calling sin, with a local array; both
// with layer counts 0, 1 and odd, and steps 0 and 1.
// e2e: sizes T=0,1,3,2,1 L=1,2,3,0,1 H=1,2,3,2,1
// e2e: func layers
// e2e: array W[L*H*H] range(-0.7,0.7)
// e2e: array bias[L*H] range(-0.5,0.5)
// e2e: array x[T*H] range(-1,1)
// e2e: array st[L*H] range(-1,1)
// e2e: array g[2*H] range(-1,1)
// e2e: func chain
// e2e: array w[L*H] range(-1,1)
// e2e: array y[L] range(-1,1)
#include <math.h>

#define IN(j) (l == 0 ? x[t * H + (j)] : st[(l - 1) * H + (j)])

#pragma adsoac grad
double layers(int T, int L, int H, const double *W, const double *bias, const double *x,
              double *st, double *g) {
  double loss = 0.0;
  for (int t = 0; t < T; t++) {
    double carry = 0.0;
    for (int l = 0; l < L; l++) {
      // the layer's input IN(j): x at t for the first layer, the state of the one below after
#pragma adsoac map
      for (int r = 0; r < H; r++) {
        double z = bias[l * H + r] + carry;
        for (int j = 0; j < H; j++) z += W[(l * H + r) * H + j] * IN(j);
        g[r] = 1.0 / (1.0 + exp(-z));
      }
      double sc;
      if (l % 2 == 0)
        sc = tanh(carry + 0.5) * exp(-carry);
      else
        sc = cos(carry) * 0.5;
#pragma adsoac map
      for (int r = 0; r < H; r++) g[H + r] = tanh(st[l * H + r] * g[r] + IN(r)) * sc;
#pragma adsoac map
      for (int r = 0; r < H; r++) st[l * H + r] = g[H + r] + 0.5 * st[l * H + r];
      carry = 0.25 * tanh(carry + st[l * H]);
    }
    loss += carry * carry;
  }
  return loss;
}

#pragma adsoac grad
void chain(int T, int L, int H, const double *w, double *y) {
  for (int t = 0; t < T; t++) {
    for (int l = 0; l < L; l++) {
      double a[4];
      double s = y[l];
      for (int j = 0; j < H; j++) {
        s = sin(s * w[l * H + j]) + 0.5 * s;
        a[j % 4] = s;
      }
      y[l] = s + 0.1 * a[0] * (l > 0 ? y[l - 1] : 1.0);
    }
  }
}
