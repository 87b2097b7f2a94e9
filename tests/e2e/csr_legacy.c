// examples/legacy/csr: the legacy kernel, pragmas added and nothing else changed (its README)
// e2e: sizes nrows=0,1,4,7 ncols=3,2,5,6
// e2e: array rowptr[nrows+1] fill(i * 2 - (i > 0 ? i % 2 : 0))
// e2e: array colidx[2*nrows+1] fill((i * 5 + 1) % ncols)
// e2e: array vals[2*nrows+1] range(-1,1)
// e2e: array x[ncols] range(-1,1)
// e2e: array b[nrows+1] range(-1,1)
// e2e: array y[nrows+1] range(-1,1)
// e2e: source ../../examples/legacy/csr/csr.c
