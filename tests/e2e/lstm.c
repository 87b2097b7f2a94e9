// An LSTM cell run over time steps, written as legacy C (language.md §5): a plain sequential
// loop over t around two maps.  The first map computes the 4H gate rows (input, forget, output
// gates through a sigmoid, the candidate through tanh): the input part of each row is a plain
// sequential inner loop over D, the recurrent part a nested reduce(+) over H (lstm) or a
// second sequential loop (lstm_seq).  Then maps update the cell state c and the hidden state
// h elementwise from the gates.  h and c are carried across steps (in/out), gates (and hnew)
// are scratch arrays the reverse sweep restores per step.  The loss is the squared norm of the
// final h (returned) or of h and c (written to *loss).  T = 0 leaves h, c and gates untouched.
// e2e: sizes T=0,1,3,6,2 H=1,2,3,2,1 D=1,2,1,2,2
// e2e: array W[4*H*(D+H)] range(-0.5,0.5)
// e2e: array b[4*H] range(-0.5,0.5)
// e2e: array x[T*D] range(-1,1)
// e2e: array h[H] range(-1,1)
// e2e: array c[H] range(-1,1)
// e2e: array gates[4*H] range(-1,1)
// e2e: func lstm_seq
// e2e: array hnew[H] range(-1,1)
// e2e: array loss[1] range(-1,1)
#include <math.h>

static double sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

// gate rows: [0,H) input, [H,2H) forget, [2H,3H) output, [3H,4H) candidate;
// row r of W holds D input weights then H recurrent weights
#pragma adsoac grad
double lstm(int T, int H, int D, const double *W, const double *b, const double *x,
            double *h, double *c, double *gates) {
  int K = D + H;
  for (int t = 0; t < T; t++) {
#pragma adsoac map
    for (int r = 0; r < 4 * H; r++) {
      double z = b[r];
      for (int j = 0; j < D; j++)
        z += W[r * K + j] * x[t * D + j];
      double u = 0.0;
#pragma adsoac reduce(+: u)
      for (int j = 0; j < H; j++)
        u += W[r * K + D + j] * h[j];
      z += u;
      gates[r] = r < 3 * H ? sigmoid(z) : tanh(z);
    }
#pragma adsoac map
    for (int j = 0; j < H; j++) {
      double cn = gates[H + j] * c[j] + gates[j] * gates[3 * H + j];
      c[j] = cn;
      h[j] = gates[2 * H + j] * tanh(cn);
    }
  }
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int j = 0; j < H; j++)
    s += h[j] * h[j];
  return s;
}

// the same cell with sequential inner loops only and an if/else for the gate activation; the
// new hidden state goes through a scratch array hnew and is copied back into h by a separate
// map (ping-pong by copying); the loss is written to loss[0]
#pragma adsoac grad
void lstm_seq(int T, int H, int D, const double *W, const double *b, const double *x,
              double *h, double *c, double *gates, double *hnew, double *loss) {
  for (int t = 0; t < T; t++) {
#pragma adsoac map
    for (int r = 0; r < 4 * H; r++) {
      double z = b[r];
      for (int j = 0; j < D; j++)
        z += W[r * (D + H) + j] * x[t * D + j];
      for (int j = 0; j < H; j++)
        z += W[r * (D + H) + D + j] * h[j];
      if (r < 3 * H)
        gates[r] = 1.0 / (1.0 + exp(-z));
      else
        gates[r] = tanh(z);
    }
#pragma adsoac map
    for (int j = 0; j < H; j++) {
      c[j] = gates[H + j] * c[j] + gates[j] * gates[3 * H + j];
      hnew[j] = gates[2 * H + j] * tanh(c[j]);
    }
#pragma adsoac map
    for (int j = 0; j < H; j++)
      h[j] = hnew[j];
  }
  double s = 0.0;
#pragma adsoac reduce(+: s)
  for (int j = 0; j < H; j++)
    s += h[j] * h[j] + 0.5 * c[j] * c[j];
  loss[0] = s;
}
