// examples/legacy/stencil: the legacy kernel, pragmas added and nothing else changed (its README)
// e2e: sizes nx=3,3,4,5 ny=3,4,4,3 steps=0,1,3,2
// e2e: array u[nx*ny] range(0,1)
// e2e: array kappa[nx*ny] range(0.05,0.2)
// e2e: array unew[nx*ny] range(-1,1)
// e2e: source ../../examples/legacy/stencil/stencil.c
