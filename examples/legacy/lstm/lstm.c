// The ADBench LSTM objective as ADBench writes it in C (Tapenade version), with pragmas added:
// weights addressed through pointer views (&w[i*4]), the four gates in one malloc'd array at
// four offsets (inside a helper called in the loops), hidden and cell state as the two halves of
// each layer's slice of state, a time loop stepping by the batch size, xp pointing into x2 and
// then into the state (a pointer into one of two arrays), logsumexp, *loss = ...
#include <math.h>
#include <stdlib.h>

double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

double logsumexp(double const *vect, int sz) {
  double sum = 0.0;
  int i;
  for (i = 0; i < sz; i++) sum += exp(vect[i]);
  sum += 2;
  return log(sum);
}

void lstm_model(int hsize, double const *weight, double const *bias, double *hidden,
                double *cell, double const *input) {
  double *gates = (double *)malloc(4 * hsize * sizeof(double));
  double *forget = &(gates[0]);
  double *ingate = &(gates[hsize]);
  double *outgate = &(gates[2 * hsize]);
  double *change = &(gates[3 * hsize]);
  int i;
#pragma adsoac map
  for (i = 0; i < hsize; i++) {
    forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
    ingate[i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
    outgate[i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
    change[i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
  }
#pragma adsoac map
  for (i = 0; i < hsize; i++) cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
#pragma adsoac map
  for (i = 0; i < hsize; i++) hidden[i] = outgate[i] * tanh(cell[i]);
  free(gates);
}

void lstm_predict(int l, int b, double const *w, double const *w2, double *s, double const *x,
                  double *x2) {
  int i;
#pragma adsoac map
  for (i = 0; i < b; i++) x2[i] = x[i] * w2[i];
  double *xp = x2;
  for (i = 0; i <= 2 * l * b - 1; i += 2 * b) {
    lstm_model(b, &(w[i * 4]), &(w[(i + b) * 4]), &(s[i]), &(s[i + b]), xp);
    xp = &(s[i]);
  }
#pragma adsoac map
  for (i = 0; i < b; i++) x2[i] = xp[i] * w2[b + i] + w2[2 * b + i];
}

#pragma adsoac grad
void lstm_objective(int l, int c, int b, double const *main_params, double const *extra_params,
                    double *state, double const *sequence, double *loss) {
  int i, t;
  double total = 0.0;
  int count = 0;
  const double *input = &(sequence[0]);
  double *ypred = (double *)malloc(b * sizeof(double));
  double *ynorm = (double *)malloc(b * sizeof(double));
  const double *ygold;
  double lse;
  for (t = 0; t <= (c - 1) * b - 1; t += b) {
    lstm_predict(l, b, main_params, extra_params, state, input, ypred);
    lse = logsumexp(ypred, b);
#pragma adsoac map
    for (i = 0; i < b; i++) ynorm[i] = ypred[i] - lse;
    ygold = &(sequence[t + b]);
#pragma adsoac reduce(+: total)
    for (i = 0; i < b; i++) total += ygold[i] * ynorm[i];
    count += b;
    input = ygold;
  }
  *loss = -total / count;
  free(ypred);
  free(ynorm);
}
