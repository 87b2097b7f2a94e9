// A helper function of 70 parameters (the inliner's parameter table grows; it stopped at
// 64 and said "'h' takes 64 arguments").
// e2e: sizes n=0,1,2,7
// e2e: array x[n] range(-1,1)
// e2e: array y[n] range(-1,1)
#include <math.h>

static double h(double a0, double a1, double a2, double a3, double a4, double a5, double a6, double a7, double a8, double a9, double a10, double a11, double a12, double a13, double a14, double a15, double a16, double a17, double a18, double a19, double a20, double a21, double a22, double a23, double a24, double a25, double a26, double a27, double a28, double a29, double a30, double a31, double a32, double a33, double a34, double a35, double a36, double a37, double a38, double a39, double a40, double a41, double a42, double a43, double a44, double a45, double a46, double a47, double a48, double a49, double a50, double a51, double a52, double a53, double a54, double a55, double a56, double a57, double a58, double a59, double a60, double a61, double a62, double a63, double a64, double a65, double a66, double a67, double a68, double a69) {
  return a0 * a0 + a1 * a7 + a2 * a14 + a3 * a21 + a4 * a28 + a5 * a35 + a6 * a42 + a7 * a49 + a8 * a56 + a9 * a63 + a10 * a0 + a11 * a7 + a12 * a14 + a13 * a21 + a14 * a28 + a15 * a35 + a16 * a42 + a17 * a49 + a18 * a56 + a19 * a63 + a20 * a0 + a21 * a7 + a22 * a14 + a23 * a21 + a24 * a28 + a25 * a35 + a26 * a42 + a27 * a49 + a28 * a56 + a29 * a63 + a30 * a0 + a31 * a7 + a32 * a14 + a33 * a21 + a34 * a28 + a35 * a35 + a36 * a42 + a37 * a49 + a38 * a56 + a39 * a63 + a40 * a0 + a41 * a7 + a42 * a14 + a43 * a21 + a44 * a28 + a45 * a35 + a46 * a42 + a47 * a49 + a48 * a56 + a49 * a63 + a50 * a0 + a51 * a7 + a52 * a14 + a53 * a21 + a54 * a28 + a55 * a35 + a56 * a42 + a57 * a49 + a58 * a56 + a59 * a63 + a60 * a0 + a61 * a7 + a62 * a14 + a63 * a21 + a64 * a28 + a65 * a35 + a66 * a42 + a67 * a49 + a68 * a56 + a69 * a63;
}

#pragma adsoac grad
void wide_helper(int n, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) y[i] = h(x[i], x[(i + 1) % n], x[(i + 2) % n], x[i], x[(i + 4) % n], x[(i + 5) % n], x[i], x[(i + 7) % n], x[(i + 8) % n], x[i], x[(i + 10) % n], x[(i + 11) % n], x[i], x[(i + 13) % n], x[(i + 14) % n], x[i], x[(i + 16) % n], x[(i + 17) % n], x[i], x[(i + 19) % n], x[(i + 20) % n], x[i], x[(i + 22) % n], x[(i + 23) % n], x[i], x[(i + 25) % n], x[(i + 26) % n], x[i], x[(i + 28) % n], x[(i + 29) % n], x[i], x[(i + 31) % n], x[(i + 32) % n], x[i], x[(i + 34) % n], x[(i + 35) % n], x[i], x[(i + 37) % n], x[(i + 38) % n], x[i], x[(i + 40) % n], x[(i + 41) % n], x[i], x[(i + 43) % n], x[(i + 44) % n], x[i], x[(i + 46) % n], x[(i + 47) % n], x[i], x[(i + 49) % n], x[(i + 50) % n], x[i], x[(i + 52) % n], x[(i + 53) % n], x[i], x[(i + 55) % n], x[(i + 56) % n], x[i], x[(i + 58) % n], x[(i + 59) % n], x[i], x[(i + 61) % n], x[(i + 62) % n], x[i], x[(i + 64) % n], x[(i + 65) % n], x[i], x[(i + 67) % n], x[(i + 68) % n], x[i]);
}
