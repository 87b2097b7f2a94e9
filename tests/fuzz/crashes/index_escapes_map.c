// Fuzzer find (2026-11-27, from e2e md_unbraced with one pragma garbled): a map over i whose
// body is a map over j, j declared at the top, then a sequential loop over i around a map over
// j, in a time loop: the inner loop set j (an index declared outside) to its final value
// inside the outer map's body, the value escaped that body, and the sequential loop carried
// it: "IR verifier after lower: loop".
#pragma adsoac grad
void k(int tsteps, int n, double *A, double *B) {
  int t, i, j;
  for (t = 1; t < tsteps; t++) {
#pragma adsoac map
      for (i = 1; i < n - 1; i++)
#pragma adsoac map
	for (j = 1; j < n - 1; j++)
	  B[i*n+j] = 0.2 * (A[i*n+j] + A[i*n+j-1]);
      for (i = 1; i < n - 1; i++)
#pragma adsoac map
	for (j = 1; j < n - 1; j++)
	  A[i*n+j] = 0.2 * B[i*n+j];
  }
}
