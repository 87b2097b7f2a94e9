// language.md 6: a file-scope array declared without its length cannot be copied to the
// device: the CUDA target refuses it, naming it (the C target reads it in place)
extern const double table[];
#pragma adsoac grad
void f(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = table[i % 4] * x[i];
}
