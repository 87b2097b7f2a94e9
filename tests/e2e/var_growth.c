// A value assigned from an inlined call whose body declares many variables: the lowering held
// the assigned variable across the call while the table of variables grew (its old copy got
// the value: a silent wrong primal, found in a cross-section lookup).
// e2e: sizes n=0,1,3
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)

static double many(double v) {
  double h0 = v * 1.0;
  double h1 = v * 2.0;
  double h2 = v * 3.0;
  double h3 = v * 4.0;
  double h4 = v * 5.0;
  double h5 = v * 6.0;
  double h6 = v * 7.0;
  double h7 = v * 8.0;
  double h8 = v * 9.0;
  double h9 = v * 10.0;
  double h10 = v * 11.0;
  double h11 = v * 12.0;
  double h12 = v * 13.0;
  double h13 = v * 14.0;
  double h14 = v * 15.0;
  double h15 = v * 16.0;
  double h16 = v * 17.0;
  double h17 = v * 18.0;
  double h18 = v * 19.0;
  double h19 = v * 20.0;
  double h20 = v * 21.0;
  double h21 = v * 22.0;
  double h22 = v * 23.0;
  double h23 = v * 24.0;
  double h24 = v * 25.0;
  double h25 = v * 26.0;
  double h26 = v * 27.0;
  double h27 = v * 28.0;
  double h28 = v * 29.0;
  double h29 = v * 30.0;
  double h30 = v * 31.0;
  double h31 = v * 32.0;
  double h32 = v * 33.0;
  double h33 = v * 34.0;
  double h34 = v * 35.0;
  double h35 = v * 36.0;
  double h36 = v * 37.0;
  double h37 = v * 38.0;
  double h38 = v * 39.0;
  double h39 = v * 40.0;
  return 1e-3 * (h0 + h1 + h2 + h3 + h4 + h5 + h6 + h7 + h8 + h9 + h10 + h11 + h12 + h13 + h14 + h15 + h16 + h17 + h18 + h19 + h20 + h21 + h22 + h23 + h24 + h25 + h26 + h27 + h28 + h29 + h30 + h31 + h32 + h33 + h34 + h35 + h36 + h37 + h38 + h39);
}

#pragma adsoac grad
void var_growth(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
  double a0 = x[i] * 1.0;
  double a1 = x[i] * 2.0;
  double a2 = x[i] * 3.0;
  double a3 = x[i] * 4.0;
  double a4 = x[i] * 5.0;
  double a5 = x[i] * 6.0;
  double a6 = x[i] * 7.0;
  double a7 = x[i] * 8.0;
  double a8 = x[i] * 9.0;
  double a9 = x[i] * 10.0;
  double a10 = x[i] * 11.0;
  double a11 = x[i] * 12.0;
  double a12 = x[i] * 13.0;
  double a13 = x[i] * 14.0;
  double a14 = x[i] * 15.0;
  double a15 = x[i] * 16.0;
  double a16 = x[i] * 17.0;
  double a17 = x[i] * 18.0;
  double a18 = x[i] * 19.0;
  double a19 = x[i] * 20.0;
  double a20 = x[i] * 21.0;
  double a21 = x[i] * 22.0;
  double a22 = x[i] * 23.0;
  double a23 = x[i] * 24.0;
  double a24 = x[i] * 25.0;
  double a25 = x[i] * 26.0;
  double a26 = x[i] * 27.0;
  double a27 = x[i] * 28.0;
  double a28 = x[i] * 29.0;
  double a29 = x[i] * 30.0;
  double a30 = x[i] * 31.0;
  double a31 = x[i] * 32.0;
  double a32 = x[i] * 33.0;
  double a33 = x[i] * 34.0;
  double a34 = x[i] * 35.0;
  double a35 = x[i] * 36.0;
  double a36 = x[i] * 37.0;
  double a37 = x[i] * 38.0;
  double a38 = x[i] * 39.0;
  double a39 = x[i] * 40.0;
    double r = 0;
    r = many(x[i]) + many(r + x[i]);
    y[i] = r + 1e-3 * (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 + a31 + a32 + a33 + a34 + a35 + a36 + a37 + a38 + a39);
  }
}
