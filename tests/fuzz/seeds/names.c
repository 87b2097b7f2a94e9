// fuzz seed: identifiers that clash with the names adsoac invents; static helpers kept
static double helper(double v) { return v * 2; }
double x_bar, ret_bar, t_1, s_2, adsoac_r0, adsoac_k0_clash;

#pragma adsoac grad
double clash(int n, const double *x, double *x_dot, double *t_3) {
  double s_1 = 0;
#pragma adsoac reduce(+: s_1)
  for (int i = 0; i < n; i++) {
    double t_4 = x[i] * x_dot[i];
    t_3[i] = t_4;
    s_1 += t_4;
  }
  return s_1;
}

/* a comment between */
#pragma adsoac grad
void clash2(int n, double *adsoac_part0) {
#pragma adsoac map
  for (int adsoac_r1 = 0; adsoac_r1 < n; adsoac_r1++)
    adsoac_part0[adsoac_r1] = adsoac_part0[adsoac_r1] * adsoac_part0[adsoac_r1];
}
