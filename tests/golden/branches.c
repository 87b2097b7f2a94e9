// Branches: ?: and if/else in a map body (branches), and guarded functions whose untaken
// side would give NaN or infinite derivatives (safelog: x holds exact zeros and negative
// values; the derivatives must be finite, 0 where the guard fails).
// e2e: sizes n=0,1,2,7,33
// e2e: func branches
// e2e: array x[n] range(-1.5,1.5)
// e2e: array y[n] range(-1,1)
// e2e: array z[n] range(-1,1)
// e2e: func safelog
// e2e: array x[n] range(-1,1) fill(i % 3 == 0 ? 0.0 : r)
// e2e: array y[n] range(-1,1)
// e2e: array z[n] range(-1,1)

#include <math.h>

#pragma adsoac grad
void branches(int n, const double *x, double *y, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = x[i] > 0 ? x[i] * x[i] : -x[i];
    double t;
    if (x[i] < 0.5) {
      t = sin(x[i]);
    } else {
      t = 3.0 * x[i];
    }
    z[i] = t * y[i];
  }
}

#pragma adsoac grad
void safelog(int n, const double *x, double *y, double *z) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    y[i] = x[i] > 0 ? log(x[i]) : 0.0;
    double s = 0.0;
    if (x[i] > 0.0) s = sqrt(x[i]);
    z[i] = s;
  }
}
