// Arrays the gradient does not flow through (int indices, inactive doubles) that the program
// overwrites while a later part reads them: the reverse sweep runs iterations again from
// their states, so those arrays need their checkpoints like active ones.  Until 2026-11-27
// a sequential loop checkpointed only active arrays: the reverse of a time loop that moves
// an index array each step read it as the last step left it (silently wrong gradients), and
// f_vjp left such an array as the first iteration had written it (a wrong output).
// e2e: sizes n=0,1,2,5,9 steps=0,1,2,6,3
// e2e: array u[n] range(-1,1)
// e2e: array v[n] range(-1,1)
// e2e: array w[n] range(-1,1)
// e2e: array p[n] range(0,1)
// e2e: array q[n] range(-1,1)

// a time loop moves the index array p, which the next map reads
#pragma adsoac grad
void time_index(int n, int steps, double *u, double *v, int *p) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      p[i] = (p[i] + i + 1) % n;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = u[p[i]] * u[i];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = 0.75 * v[i] + 0.1;
  }
}

// a time loop updates an inactive double array that scales the active one
// func time_scale
#pragma adsoac grad wrt(u, v)
void time_scale(int n, int steps, double *u, double *v, double *q) {
  for (int t = 0; t < steps; t++) {
#pragma adsoac map
    for (int i = 0; i < n; i++)
      q[i] = q[i] * 0.5 + 0.25;
#pragma adsoac map
    for (int i = 0; i < n; i++)
      v[i] = q[i] * u[i] * u[i];
#pragma adsoac map
    for (int i = 0; i < n; i++)
      u[i] = v[i] - 0.3 * q[i];
  }
}

// without a loop around: p read, then moved, then read again
// func top_index
// e2e: sizes n=0,1,2,5,9 steps=0,0,0,0,0
#pragma adsoac grad
void top_index(int n, int steps, const double *u, double *v, double *w, int *p) {
  (void)steps;
#pragma adsoac map
  for (int i = 0; i < n; i++)
    v[i] = u[p[i]] * u[i];
#pragma adsoac map
  for (int i = 0; i < n; i++)
    p[i] = (p[i] + i + 1) % n;
#pragma adsoac map
  for (int i = 0; i < n; i++)
    w[i] = u[p[i]] * v[i];
}

// a local index array of the iteration that a sequential loop in the body moves
// func local_index
// e2e: sizes n=1,2,5,9,4 steps=0,1,2,6,3
#pragma adsoac grad
void local_index(int n, int steps, const double *u, double *v) {
#pragma adsoac map
  for (int i = 0; i < n; i++) {
    int at[3];
    for (int k = 0; k < 3; k++) at[k] = (i + k) % n;
    double acc = 1.0;
    for (int t = 0; t < steps; t++) {
      for (int k = 0; k < 3; k++) at[k] = (at[k] + k + 1) % n;
      acc = acc * (0.5 + u[at[t % 3]] * u[at[(t + 1) % 3]]);
    }
    v[i] = acc;
  }
}
