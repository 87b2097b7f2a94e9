// matscan: R_i = M_0 M_1 ... M_i, the prefix products of the 2x2 matrices
// M_i = I + P_i, P_i = [[p00[i], p01[i]], [p10[i], p11[i]]], and
// s = sum_i w[i] * (R_i.m00 + 2 R_i.m01 - R_i.m10 + 0.5 R_i.m11).
// A scan with a declared struct operator (the 2x2 matrix product), associative,
// not commutative, without an inverse: differentiated with the general scan rule.
// Compiled two ways by bench/run.sh: directly by cc (pragmas ignored, function
// renamed matscan_seq) and through adsoac (matscan, matscan_vjp, matscan_jvp).

typedef struct { double m00, m01, m10, m11; } M2; // row-major 2x2 matrix

#pragma adsoac operator neutral((M2){1.0, 0.0, 0.0, 1.0})
static M2 mat_mul(M2 x, M2 y) {
  return (M2){x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
              x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11};
}

#pragma adsoac grad
double matscan(int n, const double *p00, const double *p01, const double *p10,
               const double *p11, const double *w) {
  M2 acc = (M2){1.0, 0.0, 0.0, 1.0};
  double s = 0.0;
#pragma adsoac scan(mat_mul: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = mat_mul(acc, (M2){1.0 + p00[i], p01[i], p10[i], 1.0 + p11[i]});
    s += w[i] * (acc.m00 + 2.0 * acc.m01 - acc.m10 + 0.5 * acc.m11);
  }
  return s;
}
