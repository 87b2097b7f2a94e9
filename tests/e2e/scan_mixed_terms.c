// A struct-valued scan whose terms are partly computed (1 + p00[i], 1 + p11[i]) and partly
// input arrays read in place (p01[i], p10[i]): on the C target the map before the scan
// computes the former in the scan's passes, the latter stay array reads (emit_par.c
// producer, ScanGroup.made), and the loop after the scan hands its own updated matrix to
// the second pass (find_incl).  bench/matscan's kernel; n = 0, 1 and odd sizes, several
// chunks (the e2e build sets ADSOAC_SCAN_GRAIN=1).
// e2e: sizes n=0,1,2,7,33,100
// e2e: array p00[n] range(-0.3,0.3)
// e2e: array p01[n] range(-0.3,0.3)
// e2e: array p10[n] range(-0.3,0.3)
// e2e: array p11[n] range(-0.3,0.3)
// e2e: array w[n] range(-1,1)
// e2e: array out[n] range(-1,1)
typedef struct { double m00, m01, m10, m11; } M2;

#pragma adsoac operator neutral((M2){1.0, 0.0, 0.0, 1.0})
static M2 mat_mul(M2 x, M2 y) {
  return (M2){x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11,
              x.m10 * y.m00 + x.m11 * y.m10, x.m10 * y.m01 + x.m11 * y.m11};
}

#pragma adsoac grad
double mixed(int n, const double *p00, const double *p01, const double *p10,
             const double *p11, const double *w, double *out) {
  M2 acc = (M2){1.0, 0.0, 0.0, 1.0};
  double s = 0.0;
#pragma adsoac scan(mat_mul: acc) reduce(+: s)
  for (int i = 0; i < n; i++) {
    acc = mat_mul(acc, (M2){1.0 + p00[i], p01[i], p10[i], 1.0 + p11[i]});
    out[i] = acc.m01 - acc.m10;
    s += w[i] * (acc.m00 + 2.0 * acc.m01 - acc.m10 + 0.5 * acc.m11);
  }
  return s;
}
