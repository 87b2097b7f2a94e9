// examples/lstm/lstm.c: an LSTM cell run over a sequence, as legacy C annotated for adsoac.
//
// T time steps of D inputs x[T*D]; hidden state h[H] and cell state c[H], both carried from
// step to step (in/out arrays); the weights W[4H * (D+H)] (row r: D input weights, then H
// recurrent weights) and biases b[4H].  Per step, the 4H gate pre-activations
//   z_r = b_r + sum_j W[r][j] x_t[j] + sum_j W[r][D+j] h[j]
// go through a sigmoid (rows [0,H) input gate, [H,2H) forget gate, [2H,3H) output gate) or a
// tanh (rows [3H,4H) candidate) into gates[4H] (a scratch array), then
//   c_j = forget_j * c_j + input_j * candidate_j,   h_j = output_j * tanh(c_j).
// The function returns the squared norm of the final hidden state, sum_j h_j^2.
//
// Annotations:
//   - grad: every floating-point parameter is active: W, b, x (read) and h, c, gates
//     (written; their adjoints follow the in/out rule of language.md 2.1).
//   - the time loop is a plain sequential loop (each step needs the previous h and c): adsoac
//     runs it forward and, in the reverse sweep, restores what each step overwrote (5).
//   - map over the 4H gate rows: rows are independent.  Inside, the input part is a plain
//     sequential loop over D; the recurrent part a nested reduce(+: u) over H.
//   - map over the H units: the elementwise cell and hidden-state update (each unit reads
//     and writes only its own c[j], h[j]).
// f_vjp (lstm_vjp) returns the loss, adds into W_bar, b_bar, x_bar, and turns the seeds in
// h_bar, c_bar (adjoints of the final states) into the adjoints of the initial states.
#include <math.h>

static double sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

#pragma adsoac grad
double lstm(int T, int H, int D, const double *W, const double *b, const double *x,
            double *h, double *c, double *gates) {
  int K = D + H; // row length of W
  for (int t = 0; t < T; t++) {
    // gate pre-activations and activations
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
    // cell and hidden state update
#pragma adsoac map
    for (int j = 0; j < H; j++) {
      double cn = gates[H + j] * c[j] + gates[j] * gates[3 * H + j];
      c[j] = cn;
      h[j] = gates[2 * H + j] * tanh(cn);
    }
  }
  double loss = 0.0;
#pragma adsoac reduce(+: loss)
  for (int j = 0; j < H; j++)
    loss += h[j] * h[j];
  return loss;
}
