// A local array of a parallel loop's body written under an if and updated in place by a
// sequential loop under another if, or under an if nested in the writing one (GMM's Qtimesx
// with its running counter li; a helper's loop, written through a pointer): the loop's writes
// make the elements forwarded before it unknown inside the branch only, and the ifs merge
// what each side wrote (found by tests/difftest/difftest.py, seeds 5-7: the lowering lost
// the branch's bookkeeping and ended in an internal error or a crash).
// e2e: sizes n=0,1,5
// e2e: scalar a range(-1,1)
// e2e: array x[n] range(-1,1)
// e2e: array p[8] range(-1,1)
// e2e: array y[n] range(-1,1)

static void ptri(int m, const double *l, double *v) {
  for (int a = 0; a < m; a++)
    for (int b = a + 1; b < m; b++) v[b] = v[b] + 0.5 * l[a] * v[a];
}

// the same update through a pointer stepping over l
static void qtimes(int m, const double *l, double *v) {
  const double *lp = l;
  for (int a = 0; a < m; a++)
    for (int b = a + 1; b < m; b++) {
      v[b] = v[b] + *lp * v[a];
      lp++;
    }
}

// an element written under an if, then the update under a later if
#pragma adsoac grad
void if_write_then_update(int n, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[3] = {1.0, 2.0, 3.0};
    if (x[i] > 0.0) {
      v[1] = x[i];
    }
    if (i % 2 == 0) {
      int li = 0;
      for (int a = 0; a < 3; a++) {
        for (int b = a + 1; b < 3; b++) {
          v[b] = v[b] + p[li] * v[a];
          li++;
        }
      }
    }
    y[i] = v[2];
  }
}

// ... written through a pointer, updated by a helper, read at every element after
#pragma adsoac grad
void if_write_then_helper(int n, const double *x, const double *p, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[3] = {1.0, 2.0, 3.0};
    if (x[i] > 0.0) {
      double *q = &v[1];
      *q = x[i];
    }
    if (i % 2 == 0) {
      qtimes(3, p, v);
    }
    y[i] = v[2] * v[1] + v[0];
  }
}

// the update in an if nested in the writing one
#pragma adsoac grad
void nested_if_inplace(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[2] = {1.0, 2.0};
    if (a > 0.1) {
      v[0] = x[i];
      if (a > 0.5) {
        for (int b = 1; b < 2; b++) v[b] = v[b] + v[0];
      }
    }
    y[i] = v[1];
  }
}

// ... with else branches that write the element the other side's loop updates, and scalars
// read after the loop in the branch
#pragma adsoac grad
void nested_if_else_inplace(int n, double a, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[2] = {1.0, 2.0};
    double w = 0.0;
    if (a > 0.1) {
      v[0] = x[i];
      if (a > 0.5) {
        for (int b = 1; b < 2; b++) v[b] = v[b] + v[0];
        w = v[0] * v[1];
      } else {
        v[1] = 3.0 * x[i];
        w = v[1] + v[0];
      }
      w += v[1];
    } else {
      v[1] = x[i] * x[i];
    }
    y[i] = v[1] + w * v[0];
  }
}

// a write through a pointer in the outer if, the helper's update in the nested one (and an
// element written under an earlier if)
#pragma adsoac grad
void nested_if_helper(int n, double a, const double *p, const double *x, double *y) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    double v[3] = {1.0, 2.0, 3.0};
    if (p[1] >= 0.1) {
      v[2] = x[i];
    }
    if (a > 0.1) {
      double *q = v;
      *q = x[i];
      if (a > -0.05) {
        ptri(3, p, v);
      }
    }
    y[i] = v[2];
  }
}
