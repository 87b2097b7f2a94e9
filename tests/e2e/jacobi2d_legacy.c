// examples/legacy/jacobi2d: the PolyBench-style kernel, pragmas added and nothing else changed
// (a static kernel with arrays of arrays through the size macro N = 90, the file's own main)
// e2e: sizes n=0,1,3,6 tsteps=0,1,2,3
// e2e: seeds 1
// e2e: array A[8100] range(-1,1)
// e2e: array B[8100] range(-1,1)
// e2e: source ../../examples/legacy/jacobi2d/jacobi2d.c
